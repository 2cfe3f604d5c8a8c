"""Reference solutions for the notebook "self-consistency and back-off"; `wrong` lists answers to refuse."""
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored


def needs_react(votes, k):
    return votes < k / 2


ids = {r["id"] for r in scored(read_jsonl(data_dir() / "runs" / "hotpotqa_cot-sc.jsonl"))}
react = [r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl") if r["id"] in ids]

solutions = {1: needs_react, 2: sum(not r.get("finished") for r in react)}
wrong = {
    1: [lambda v, k: v <= k / 2, lambda v, k: v < k // 2, lambda v, k: v > k / 2],
    2: [sum(not r["em"] for r in react), len(react), 0],
}
