"""Checkers for the notebook "after ReAct": what Reflexion's evaluator retries, and what its retries cost."""
from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored

NB = "after_react"


@exercise(NB, 1, "what the evaluator sends back")
def retried(count):
    """How many scored trajectories of the committed ReAct run Reflexion's HotpotQA evaluator would retry."""
    rows = scored(read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl"))
    right = sum(not r["em"] for r in rows)
    expect(isinstance(count, int), "give a whole number of trajectories")
    expect(count == right or count != sum(not r.get("finished") for r in rows),
           "that counts the ones that did not finish; the evaluator compares the answer with the gold one")
    expect(count == right, "count the scored rows whose exact match is False")


@exercise(NB, 2, "the cost of k trials")
def cost(fn):
    """`fn(calls_per_trial, trials)`: model calls for a question that fails every one of `trials` trials."""
    for c, k in ((5, 1), (5, 3), (8, 2), (1, 4)):
        got = call(fn, c, k)
        expect(isinstance(got, int), "return a whole number of calls")
        expect(got != c * k or k == 1, "each failed trial but the last is followed by one more call: the reflection")
        expect(got == c * k + k - 1, f"with {c} calls a trial and {k} trials you count {got}: after the last trial "
               "there is no retry, so no reflection either")
