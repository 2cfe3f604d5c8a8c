"""Checkers for the notebook "failure modes": Cohen's kappa by hand, and a count read from the labeller."""
from react_teach.exercises import call, exercise, expect
from react_teach.data import data_dir
from react_teach.failures import cohen_kappa, label_file
from react_teach.runs.stats import scored

NB = "failure_modes"


@exercise(NB, 1, "Cohen's kappa")
def kappa(fn):
    """`fn(a, b)`: agreement of two label lists beyond chance, (p_o - p_e) / (1 - p_e)."""
    cases = [(["tp", "tp", "fp", "fp"], ["tp", "fp", "fp", "fp"]),
             (["a", "b", "a", "c", "b"], ["a", "b", "b", "c", "a"]),
             (["x", "x", "y", "y"], ["y", "y", "x", "x"])]
    for a, b in cases:
        got = call(fn, a, b)
        expect(isinstance(got, (int, float)), "return one number")
        agreement = sum(x == y for x, y in zip(a, b)) / len(a)
        expect(abs(got - agreement) > 1e-9 or abs(got - cohen_kappa(a, b)) < 1e-9,
               "that is the raw agreement p_o: subtract what chance alone would give")
        expect(abs(got - cohen_kappa(a, b)) < 1e-9, f"for {a} against {b} you get {got:.3f}; p_e sums, over the "
               "labels, the share of a's items times the share of b's items with that label")


@exercise(NB, 2, "failed searches in the ReAct run")
def search_errors(count):
    """How many scored ReAct trajectories the labeller files under "search result error"."""
    path = data_dir() / "runs" / "hotpotqa_react.jsonl"
    every = list(label_file(path))
    right = sum(r["category"] == "search result error" for r in scored(every))
    expect(isinstance(count, int), "give a whole number of trajectories")
    expect(count == right or count != sum(r["category"] == "search result error" for r in every),
           "that counts every trajectory: the ones that overlap the exemplars are not scored")
    expect(count == right, "count the rows of `react` (already scored) whose category is \"search result error\"")
