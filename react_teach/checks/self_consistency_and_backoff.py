"""Checkers for the notebook "self-consistency and back-off": the CoT-SC -> ReAct rule, and a back-off count."""
from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored

NB = "self_consistency_and_backoff"


@exercise(NB, 1, "the CoT-SC → ReAct back-off rule")
def needs_react(fn):
    """`fn(votes, k)` is True when the majority of k samples is too weak to trust, so ReAct must run."""
    for votes, k in ((10, 21), (11, 21), (1, 3), (2, 3), (1, 4), (2, 4), (3, 4), (0, 5)):
        want = votes < k / 2
        got = call(fn, votes, k)
        expect(isinstance(got, bool), "return True or False")
        expect(got == want, f"with {votes} of {k} votes your rule says {got}; the paper's rule compares the votes "
               "with k/2, strictly, and k/2 need not be a whole number")


@exercise(NB, 2, "how often ReAct → CoT-SC backs off")
def react_backoffs(count):
    """How many scored questions of the CoT-SC run make ReAct → CoT-SC use CoT-SC."""
    ids = {r["id"] for r in scored(read_jsonl(data_dir() / "runs" / "hotpotqa_cot-sc.jsonl"))}
    react = [r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl") if r["id"] in ids]
    expect(isinstance(count, int), "give a whole number of questions")
    right = sum(not r.get("finished") for r in react)
    expect(count == right or count != sum(r["em"] is False for r in react),
           "that counts wrong answers; the rule cannot see the gold answer: it looks at whether ReAct finished")
    expect(count == right,
           "count the questions of the CoT-SC run on which ReAct gave no answer within 7 steps")
