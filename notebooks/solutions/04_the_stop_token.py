"""Reference solutions for the notebook "the stop token"; `wrong` lists answers the checkers must refuse."""
from react_teach.data import data_dir, read_jsonl


def stop(i):
    return [f"\nObservation {i}:"]


rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
seven = [r for r in rows if len(r["steps"]) == 7]

solutions = {
    1: stop,
    2: (2, 1),  # the split gives three parts: a bad call, then a second call for the action alone
    3: (len(seven), sum(r["em"] for r in seven)),
}
wrong = {
    1: [lambda i: ["\n"], lambda i: ["Observation"], lambda i: ["\nObservation 1:"], lambda i: "\nObservation"],
    2: [(1, 1), (2, 0), (1, 0)],
    3: [(len(seven), len(seven)), (len(rows), 0), (0, 0)],
}
