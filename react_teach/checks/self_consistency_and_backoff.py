"""Checkers for the notebook "self-consistency and back-off": the CoT-SC -> ReAct rule, a prediction of the
back-offs, and a paired reading of CoT-SC against ReAct on the same questions."""
import numbers

import numpy as np

from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored
from react_teach.score import returned_answer

NB = "self_consistency_and_backoff"


@exercise(NB, 1, "the CoT-SC → ReAct back-off rule")
def needs_react(fn):
    """`fn(votes, k)` is True when the majority of k samples is too weak to trust, so ReAct must run."""
    for votes, k in ((10, 21), (11, 21), (1, 3), (2, 3), (1, 4), (2, 4), (3, 4), (0, 5)):
        want = votes < k / 2
        got = call(fn, votes, k)
        expect(isinstance(got, (bool, np.bool_)), "return True or False")
        if bool(got) != want:
            if k % 2 == 0 and votes == k // 2:
                hint = f"with {votes} of {k} votes (exactly half) your rule says {bool(got)}: is half a majority?"
            elif k % 2 == 1 and votes == k // 2:
                hint = (f"with {votes} of {k} votes your rule says {bool(got)}: {votes} is less than {k}/2 = {k / 2}; "
                        "k // 2 rounds it down")
            else:
                hint = (f"with {votes} of {k} votes your rule says {bool(got)}: ReAct runs when the votes are fewer "
                        "than half of the samples")
            expect(False, hint)


def _pairs():
    sc = scored(read_jsonl(data_dir() / "runs" / "hotpotqa_cot-sc.jsonl"))
    react = {r["id"]: r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")}
    return [(react[s["id"]], s) for s in sc if s["id"] in react]


@exercise(NB, 2, "how often ReAct → CoT-SC backs off")
def react_backoffs(count):
    """How many scored questions of the CoT-SC run make ReAct → CoT-SC use CoT-SC."""
    react = [r for r, _ in _pairs()]
    expect(isinstance(count, numbers.Integral) and not isinstance(count, (bool, np.bool_)),
           "give a whole number of questions")
    right = sum(not returned_answer(r.get("finished"), r.get("answer")) for r in react)
    unfinished = sum(not r.get("finished") for r in react)
    expect(count == right or count != sum(not r["em"] for r in react) or right == sum(not r["em"] for r in react),
           "that counts wrong answers; the rule cannot see the gold answer: it looks at whether ReAct returned one")
    expect(count == right or count != unfinished,
           "that counts the runs that hit the step limit; an empty finish[] ends the run but returns no answer")
    expect(count == right, "count the questions on which ReAct returned no answer: no finish, or an empty one")


@exercise(NB, 3, "where CoT-SC and ReAct differ, question by question")
def paired(answer):
    """(questions only CoT-SC gets right, questions only ReAct gets right), on the questions both runs share."""
    expect(isinstance(answer, (tuple, list)) and len(answer) == 2
           and all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in answer),
           "give a pair of whole numbers: (only CoT-SC right, only ReAct right)")
    pairs = _pairs()
    only_sc = sum(bool(s["em"]) and not r["em"] for r, s in pairs)
    only_react = sum(bool(r["em"]) and not s["em"] for r, s in pairs)
    both = sum(bool(r["em"]) and bool(s["em"]) for r, s in pairs)
    if tuple(answer) == (only_react, only_sc) and only_sc != only_react:
        expect(False, "the pair is the wrong way round: CoT-SC first")
    expect(tuple(answer) != (only_sc + both, only_react + both) or both == 0,
           "those count every question a method gets right; the paired reading counts only where the two disagree")
    expect(tuple(answer) == (only_sc, only_react), "for each shared question, compare the two `em` values: count "
                                                     "where only one of them is true, for each method")
