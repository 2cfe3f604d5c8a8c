"""Reference solutions for the notebook "running ablations"; `wrong` lists answers the checkers must refuse."""
from math import sqrt

import numpy as np

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

def interval_numpy(k, n):
    """The same formula with numpy, returning an array."""
    z = 1.96
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return np.clip(np.array([centre - half, centre + half]), 0, 1)


cot = {r["id"]: r for r in scored(read_jsonl(data_dir() / "runs" / "hotpotqa_cot.jsonl"))}
react = {r["id"]: r for r in kept}
shared = sorted(set(cot) & set(react))
only_cot = sum(bool(cot[i]["em"]) and not react[i]["em"] for i in shared)
only_react = sum(bool(react[i]["em"]) and not cot[i]["em"] for i in shared)
no_rate = sum(exact_match("no", r["gold"]) for r in kept) / len(kept)

solutions = {1: interval, 2: no_rate, 3: (only_cot, only_react)}
misconception = {
    1: "an interval is p ± z·sqrt(p(1-p)/n) (it collapses at 0 of n), or z = 2 is close enough",
    2: "a baseline counts the questions that overlap the exemplars, or every yes/no question",
    3: "compare two methods by their totals; on the same questions the evidence is where they disagree",
}
valid = {
    1: [interval_numpy, lambda k, n: list(interval(k, n))],
    2: [round(no_rate, 3), np.float64(no_rate), round(no_rate, 4)],
    3: [[only_cot, only_react], (np.int64(only_cot), np.int64(only_react))],
}
wrong = {
    1: [textbook, lambda k, n: (k / n, k / n), lambda k, n: interval(k, n)[::-1], lambda k, n: interval(k, n, z=2)],
    2: [sum(exact_match("yes", r["gold"]) for r in kept) / len(kept), 0.0, round(no_rate, 2) + 0.01],
    3: [(only_react + 1, only_cot), (only_cot + only_react, 0) if only_react else (only_cot + 1, 0), "react"],
}
# every line, unscored ones included: a wrong answer only if the run holds a question that overlaps an exemplar
# (the run sample draws none, so on the committed runs the two are the same)
unscored = sum(exact_match("no", r["gold"]) for r in rows) / len(rows)
if abs(unscored - no_rate) > 0.0005:
    wrong[2].append(unscored)
