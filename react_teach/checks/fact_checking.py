"""Checkers for the notebook "fact checking": ReAct on the REFUTES claims, and a constant-label baseline."""
from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import baselines, scored
from react_teach.score import FEVER_LABELS

NB = "fact_checking"


def _react():
    return scored(read_jsonl(data_dir() / "runs" / "fever_react.jsonl"))


@exercise(NB, 1, "ReAct on the REFUTES claims")
def refutes_right(count):
    """How many scored REFUTES claims ReAct labelled correctly."""
    rows = _react()
    right = sum(r["correct"] for r in rows if r["gold"] == "REFUTES")
    said = sum((r["answer"] or "").strip() == "REFUTES" for r in rows)
    expect(isinstance(count, int), "give a whole number of claims")
    expect(count == right or count != said, "that counts the REFUTES answers ReAct gave; some were on other claims")
    expect(count == right or count != sum(r["gold"] == "REFUTES" for r in rows),
           "that is how many REFUTES claims there are: how many did ReAct get right?")
    expect(count == right, "filter `runs[\"react\"]` on the gold label, then count the correct ones")


@exercise(NB, 2, "what a constant label scores")
def constant(fn):
    """`fn(rows, label)`: the accuracy of answering `label` to every claim in `rows`."""
    for name in ("fever_react", "fever_cot"):
        rows = read_jsonl(data_dir() / "runs" / f"{name}.jsonl")
        want = baselines([r["gold"] for r in rows], "fever")
        for label in FEVER_LABELS:
            got = call(fn, rows, label)
            expect(isinstance(got, (int, float)), "return a fraction between 0 and 1")
            expect(abs(got - want[f"always {label}"]) < 1e-9,
                   f"for {label} on {name} you get {got:.3f}: a constant answer is right exactly when the claim's "
                   "gold label is that label; what the model answered does not matter")
