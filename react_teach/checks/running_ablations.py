"""Checkers for the notebook "running ablations": a Wilson interval written by hand, a constant baseline, and a
prediction about two methods checked on the same questions."""
import numbers
from math import sqrt

from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored, wilson
from react_teach.score import exact_match

NB = "running_ablations"


def _textbook(k, n, z=1.96):
    p = k / n
    return p - z * sqrt(p * (1 - p) / n), p + z * sqrt(p * (1 - p) / n)


def _close(got, want, tol=1e-3):
    return abs(got[0] - want[0]) < tol and abs(got[1] - want[1]) < tol


@exercise(NB, 1, "the Wilson interval")
def wilson_by_hand(fn):
    """The learner's `interval(k, n)` must return Wilson's 95% interval (z = 1.96) as (low, high)."""
    for k, n in ((33, 100), (0, 10), (1, 40), (37, 37)):
        got = call(fn, k, n)
        try:
            got = [float(x) for x in got]  # a tuple, a list, a numpy array: two numbers all the same
        except (TypeError, ValueError):
            got = None
        expect(got is not None and len(got) == 2, "return two numbers: (low, high)")
        lo, hi = wilson(k, n)
        if _close(got, (lo, hi)):
            continue
        expect(got[0] <= got[1], "the low end comes first")
        if _close(got, _textbook(k, n)) or _close(got, [max(0, min(1, x)) for x in _textbook(k, n)]):
            expect(False, f"at k={k}, n={n} that is the textbook interval p ± z·sqrt(p(1-p)/n), which collapses at "
                          "k = 0 and k = n; Wilson's centre and half-width differ")
        if _close(got, wilson(k, n, z=2.0)):
            expect(False, "right formula, but z = 2: the 95% interval uses z = 1.96")
        expect(False, f"at k={k}, n={n} your interval is ({got[0]:.3f}, {got[1]:.3f}), not Wilson's; compare your "
                      "formula with the one in the notebook term by term")


def _runs():
    rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
    return rows, scored(rows)


@exercise(NB, 2, "the always-no baseline")
def always_no(value):
    """EM of answering "no" to every scored question of the committed run (to the printed table's 3 decimals)."""
    every, rows = _runs()
    right = sum(exact_match("no", r["gold"]) for r in rows) / len(rows)
    expect(isinstance(value, numbers.Real) and not isinstance(value, bool) and 0 <= value <= 1,
           "give a fraction between 0 and 1, e.g. 0.25")
    if abs(value - right) <= 0.0005 + 1e-9:  # a value read off the table, to the precision it prints
        return
    unscored = sum(exact_match("no", r["gold"]) for r in every) / len(every)
    yes = sum(exact_match("yes", r["gold"]) for r in rows) / len(rows)
    yes_no = sum(r["gold"].strip().lower() in ("yes", "no") for r in rows) / len(rows)
    expect(abs(value - unscored) > 0.0005, "that counts every question: leave out the ones that overlap the exemplars")
    expect(abs(value - yes) > 0.0005 or abs(yes - right) < 1e-9, "that is the always-yes baseline")
    expect(abs(value - yes_no) > 0.0005, "that counts every yes/no question; always-no is right only where the gold "
                                        "answer is no")
    expect(False, "count the scored questions whose gold answer is 'no', over how many are scored")


def _wins():
    runs = {m: {r["id"]: r for r in scored(read_jsonl(data_dir() / "runs" / f"hotpotqa_{m}.jsonl"))}
            for m in ("cot", "react")}
    ids = sorted(set(runs["cot"]) & set(runs["react"]))
    only_cot = sum(bool(runs["cot"][i]["em"]) and not runs["react"][i]["em"] for i in ids)
    only_react = sum(bool(runs["react"][i]["em"]) and not runs["cot"][i]["em"] for i in ids)
    return only_cot, only_react


@exercise(NB, 3, "CoT against ReAct, on the same questions")
def paired(answer):
    """(questions only CoT gets right, questions only ReAct gets right) among the scored questions both ran."""
    expect(isinstance(answer, (tuple, list)) and len(answer) == 2
           and all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in answer),
           "give a pair of whole numbers: (only CoT right, only ReAct right)")
    only_cot, only_react = _wins()
    if tuple(answer) == (only_react, only_cot) and only_cot != only_react:
        expect(False, "the pair is the wrong way round: CoT first")
    expect(tuple(answer) == (only_cot, only_react), "match the rows by id and count, for each method, the questions "
                                                     "where its `em` is true and the other's is false")
