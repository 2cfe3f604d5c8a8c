"""Checkers for the notebook "failure modes": Cohen's kappa by hand, a count read from the labeller, and a
prediction of what deleting the thoughts does to the failures.

What each exercise exists to catch:
1. kappa: the raw agreement p_o taken for kappa (chance agreement never subtracted).
2. the count: counting every trajectory, the ones that overlap the exemplars included; or counting trajectories
   that contain a failed search, which is a signal, not the labeller's category.
3. the prediction: expecting Act to fail the way ReAct does, when without thoughts the failure mix shifts.
"""
from react_teach.exercises import call, exercise, expect
from react_teach.checks.forms import real, whole, words
from react_teach.data import data_dir
from react_teach.failures import cohen_kappa, failed_search, label_file
from react_teach.runs.stats import scored

NB = "failure_modes"
FAILURES = ("reasoning error", "search result error", "hallucination", "label ambiguity")


@exercise(NB, 1, "Cohen's kappa")
def kappa(fn):
    """`fn(a, b)`: agreement of two label lists beyond chance, (p_o - p_e) / (1 - p_e)."""
    cases = [(["tp", "tp", "fp", "fp"], ["tp", "fp", "fp", "fp"]),
             (["a", "b", "a", "c", "b"], ["a", "b", "b", "c", "a"]),
             (["x", "x", "y", "y"], ["y", "y", "x", "x"])]
    for a, b in cases:
        got = real(call(fn, a, b))
        expect(got is not None, "return one number")
        agreement = sum(x == y for x, y in zip(a, b)) / len(a)
        expect(abs(got - agreement) > 1e-9 or abs(got - cohen_kappa(a, b)) < 1e-9,
               "that is the raw agreement p_o: subtract what chance alone would give")
        expect(abs(got - cohen_kappa(a, b)) < 1e-9, f"for {a} against {b} you get {got:.3f}; p_e sums, over the "
               "labels, the share of a's items times the share of b's items with that label")


def _labelled(method):
    return list(label_file(data_dir() / "runs" / f"hotpotqa_{method}.jsonl"))


@exercise(NB, 2, "failed searches in the ReAct run")
def search_errors(count):
    """How many scored ReAct trajectories the labeller files under "search result error"."""
    every = _labelled("react")
    right = sum(r["category"] == "search result error" for r in scored(every))
    n = whole(count)
    expect(n is not None, "give a whole number of trajectories")
    expect(n == right or n != sum(r["category"] == "search result error" for r in every),
           "that counts every trajectory: the ones that overlap the exemplars are not scored")
    with_failed = sum(any(failed_search(s["observation"]) for s in r.get("steps", [])) for r in scored(every))
    expect(n == right or n != with_failed, "that counts trajectories with at least one failed search; the labeller "
           "files many of them under another cause (a loop, say): count the category")
    expect(n == right, "count the rows of `react` (already scored) whose category is \"search result error\"")


def failure_shares(method):
    """{failure category: % of the method's scored failures}, from the labeller."""
    rows = [r for r in scored(_labelled(method)) if r["category"] in FAILURES]
    return {c: 100 * sum(r["category"] == c for r in rows) / len(rows) for c in FAILURES} if rows else {}


def grows_most():
    """The failure categories whose share of the failures grows most from ReAct to Act (ties: all of them)."""
    react, act = failure_shares("react"), failure_shares("act")
    change = {c: act[c] - react[c] for c in FAILURES}
    top = max(change.values())
    return {c for c, v in change.items() if abs(v - top) < 1e-9}, change


def _category(text):
    """A category named in full or by its first word ("search", "Reasoning error", " hallucination ")."""
    said = words(text)
    if said is None:
        return None
    return next((c for c in FAILURES if said in (c, c.split()[0], c.replace(" error", ""))), None)


@exercise(NB, 3, "a prediction: what grows without thoughts")
def prediction(text):
    """The failure type whose share of the failures grows most when the thoughts are deleted (Act against ReAct)."""
    said = _category(text)
    expect(said is not None, f"name one failure type: {', '.join(FAILURES)}")
    want, change = grows_most()
    expect(said in want, f"{said}: its share of the failures changes by {change[said]:+.0f} points from ReAct to "
           "Act; compare the two distributions printed above and look for the largest rise")
