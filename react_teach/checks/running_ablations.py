"""Checkers for the notebook "running ablations": a Wilson interval written by hand, and a constant baseline."""
from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored, wilson
from react_teach.score import exact_match

NB = "running_ablations"


@exercise(NB, 1, "the Wilson interval")
def wilson_by_hand(fn):
    """The learner's `interval(k, n)` must return Wilson's 95% interval (z = 1.96) as (low, high)."""
    for k, n in ((33, 100), (0, 10), (1, 40), (37, 37)):
        got = call(fn, k, n)
        expect(isinstance(got, (tuple, list)) and len(got) == 2, "return two numbers: (low, high)")
        lo, hi = wilson(k, n)
        expect(lo <= hi + 1e-12 and got[0] <= got[1], "the low end comes first")
        expect(abs(got[0] - lo) < 1e-3 and abs(got[1] - hi) < 1e-3,
               f"at k={k}, n={n} your interval is ({got[0]:.3f}, {got[1]:.3f}); check the centre "
               "(p + z²/2n) / (1 + z²/n): it is not p itself")


@exercise(NB, 2, "the always-no baseline")
def always_no(value):
    """EM of answering "no" to every scored question of the committed run."""
    rows = scored(read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl"))
    right = sum(exact_match("no", r["gold"]) for r in rows) / len(rows)
    expect(isinstance(value, (int, float)), "give a fraction between 0 and 1, e.g. 0.25")
    every = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
    unscored = sum(exact_match("no", r["gold"]) for r in every) / len(every)
    expect(abs(value - right) < 1e-6 or abs(value - unscored) > 1e-9,
           "that counts every question: leave out the ones that overlap the exemplars")
    expect(abs(value - right) < 1e-6, "count the scored questions whose gold answer is 'no', over how many are scored")
