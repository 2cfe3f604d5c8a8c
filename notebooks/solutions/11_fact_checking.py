"""Reference solutions for the notebook "fact checking"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
from collections import Counter

import numpy as np

from react_teach.checks.fact_checking import winner
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored

react = scored(read_jsonl(data_dir() / "runs" / "fever_react.jsonl"))
right = sum(r["correct"] for r in react if r["gold"] == "REFUTES")


def constant(rows, label):
    return sum(r["gold"] == label for r in rows) / len(rows)


def constant_counter(rows, label):
    return Counter(r["gold"] for r in rows)[label] / len(rows)


def constant_numpy(rows, label):
    return np.mean([r["gold"] == label for r in rows])


def differ(a, b):
    ok_b = {r["id"]: r["correct"] for r in b}
    pairs = [(r["correct"], ok_b[r["id"]]) for r in a if r["id"] in ok_b]
    return sum(x and not y for x, y in pairs), sum(y and not x for x, y in pairs)


def differ_sets(a, b):
    """The same with sets of claim ids, returned as a list."""
    ids_a, ids_b = {r["id"] for r in a}, {r["id"] for r in b}
    right_a = {r["id"] for r in a if r["correct"]} & ids_b
    right_b = {r["id"] for r in b if r["correct"]} & ids_a
    return [len(right_a - right_b), len(right_b - right_a)]


def totals(a, b):
    return sum(r["correct"] for r in a), sum(r["correct"] for r in b)


def by_position(a, b):
    pairs = list(zip(a, b))
    return sum(x["correct"] and not y["correct"] for x, y in pairs), sum(y["correct"] and not x["correct"] for x, y in pairs)


def unmatched(a, b):
    """Pairs by id but keeps the claims only one run has, counting a missing result as wrong."""
    ok_a, ok_b = ({r["id"]: r["correct"] for r in rows} for rows in (a, b))
    ids = ok_a.keys() | ok_b.keys()
    return (sum(ok_a.get(i, False) and not ok_b.get(i, False) for i in ids),
            sum(ok_b.get(i, False) and not ok_a.get(i, False) for i in ids))


others = [m for m in ("react", "cot", "tie") if m != winner()]
solutions = {1: right, 2: constant, 3: winner(), 4: differ}
valid = {1: [np.int64(right), float(right)], 2: [constant_counter, constant_numpy],
                3: [f" {winner().upper()}"], 4: [differ_sets]}
wrong = {
    1: [sum((r["answer"] or "").strip() == "REFUTES" for r in react), sum(r["gold"] == "REFUTES" for r in react)],
    2: [lambda rows, label: sum((r["answer"] or "").strip() == label for r in rows) / len(rows),
        lambda rows, label: sum(r["gold"] == label for r in rows) / (len(rows) + 1)],
    3: others + ["grounding"],
    4: [totals, by_position, unmatched],
}
