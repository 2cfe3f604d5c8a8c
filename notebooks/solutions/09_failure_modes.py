"""Reference solutions for the notebook "failure modes"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
from collections import Counter

import numpy as np

from react_teach.checks.failure_modes import FAILURES, grows_most
from react_teach.data import data_dir
from react_teach.failures import failed_search, label_file
from react_teach.runs.stats import scored


def kappa(a, b):
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[c] / n * cb[c] / n for c in set(a) | set(b))
    return 1.0 if p_e == 1 else (p_o - p_e) / (1 - p_e)


def kappa_numpy(a, b):
    """The same formula with numpy: returns a numpy float."""
    a, b = np.array(a), np.array(b)
    labels = np.union1d(a, b)
    p_o = np.mean(a == b)
    p_e = sum(np.mean(a == c) * np.mean(b == c) for c in labels)
    return (p_o - p_e) / (1 - p_e)


every = list(label_file(data_dir() / "runs" / "hotpotqa_react.jsonl"))
react = scored(every)
count = sum(r["category"] == "search result error" for r in react)
grown, _ = grows_most()
prediction = sorted(grown)[0]

solutions = {1: kappa, 2: count, 3: prediction}
valid = {
    1: [kappa_numpy],
    2: [np.int64(count), float(count), int(np.sum([r["category"] == "search result error" for r in react]))],
    3: [f"  {prediction.upper()} ", prediction.split()[0].capitalize()],
}
wrong = {
    1: [lambda a, b: sum(x == y for x, y in zip(a, b)) / len(a), lambda a, b: 0.5],
    # none, every scored trajectory, not a whole number; below, trajectories with a failed search (a signal, not
    # the category) and every trajectory, unscored ones included
    2: [0, len(react), count + 0.5],
    3: [c for c in FAILURES if c not in grown] + ["loops"],
}
with_failed = sum(any(failed_search(s["observation"]) for s in r.get("steps", [])) for r in react)
if with_failed != count:
    wrong[2].append(with_failed)
# every trajectory, unscored ones included: a wrong answer only if the run holds one that overlaps an exemplar
# (the run sample draws none, so on the committed runs the two counts are the same)
unscored = sum(r["category"] == "search result error" for r in every)
if unscored != count:
    wrong[2].append(unscored)
