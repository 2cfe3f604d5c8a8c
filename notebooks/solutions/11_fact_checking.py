"""Reference solutions for the notebook "fact checking"; `wrong` lists answers the checkers must refuse."""
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored

react = scored(read_jsonl(data_dir() / "runs" / "fever_react.jsonl"))


def constant(rows, label):
    return sum(r["gold"] == label for r in rows) / len(rows)


solutions = {1: sum(r["correct"] for r in react if r["gold"] == "REFUTES"), 2: constant}
wrong = {
    1: [sum((r["answer"] or "").strip() == "REFUTES" for r in react), sum(r["gold"] == "REFUTES" for r in react)],
    2: [lambda rows, label: sum((r["answer"] or "").strip() == label for r in rows) / len(rows),
        lambda rows, label: sum(r["gold"] == label for r in rows) / (len(rows) + 1)],
}
