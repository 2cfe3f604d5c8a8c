"""Reference solutions for the notebook "failure modes"; `wrong` lists answers the checkers must refuse."""
from collections import Counter

from react_teach.data import data_dir
from react_teach.failures import label_file
from react_teach.runs.stats import scored


def kappa(a, b):
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[c] / n * cb[c] / n for c in set(a) | set(b))
    return 1.0 if p_e == 1 else (p_o - p_e) / (1 - p_e)


every = list(label_file(data_dir() / "runs" / "hotpotqa_react.jsonl"))
solutions = {1: kappa, 2: sum(r["category"] == "search result error" for r in scored(every))}
wrong = {
    1: [lambda a, b: sum(x == y for x, y in zip(a, b)) / len(a), lambda a, b: 0.5],
    2: [sum(r["category"] == "search result error" for r in every), 0, len(scored(every))],
}
