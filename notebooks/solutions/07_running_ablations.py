"""Reference solutions for the notebook "running ablations"; `wrong` lists answers the checkers must refuse."""
from math import sqrt

from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored
from react_teach.score import exact_match


def interval(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def textbook(k, n):
    p = k / n
    return p - 1.96 * sqrt(p * (1 - p) / n), p + 1.96 * sqrt(p * (1 - p) / n)


rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
kept = scored(rows)

solutions = {1: interval, 2: sum(exact_match("no", r["gold"]) for r in kept) / len(kept)}
wrong = {
    1: [textbook, lambda k, n: (k / n, k / n), lambda k, n: interval(k, n)[::-1]],
    2: [sum(exact_match("no", r["gold"]) for r in rows) / len(rows),
        sum(exact_match("yes", r["gold"]) for r in kept) / len(kept), 0.0],
}
