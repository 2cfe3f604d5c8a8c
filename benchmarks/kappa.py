"""How often does the automatic Table 2 labeller agree with the authors' hand labels? Overall and per method.

    PYTHONPATH=$PWD python benchmarks/kappa.py                 # figures and a confusion table
    PYTHONPATH=$PWD python benchmarks/kappa.py --disagreements # and every trajectory the two label differently

Reads the hand labels (`data/labels/hotpotqa_authors.jsonl`: id, method, run, label, reason, labeller), runs
`react_teach.failures.label_file` on each run file they name (with the supporting facts, as notebook 09 does for
CoT), and compares the two on the same trajectories. Cohen's kappa comes from scikit-learn, so the figure does not
rest on the code it measures.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from sklearn.metrics import cohen_kappa_score

from react_teach.data import data_dir, load_questions, supporting_sentences
from react_teach.failures import CATEGORIES, label_file

FIELDS = ("id", "method", "run", "label", "reason", "labeller")
SHORT = {"true positive": "TP", "false positive": "FP", "reasoning error": "RE", "search result error": "SRE",
         "hallucination": "HAL", "label ambiguity": "LA"}


def kappa(a: list[str], b: list[str]) -> float:
    """Cohen's kappa of two raters over the same items, by scikit-learn: an implementation independent of the
    package's own `failures.cohen_kappa`, so the figure does not rest on the code it measures (a test compares the
    two). If both raters gave one and the same label to everything they agree fully: 1.0, not 0/0.

    >>> kappa(["x", "x", "y", "y"], ["x", "y", "y", "y"])  # p_o = 3/4, p_e = (2*1 + 2*3)/16 = 1/2
    0.5
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"kappa needs two label lists of the same non-zero length, got {len(a)} and {len(b)}")
    if len(set(a) | set(b)) == 1:
        return 1.0
    return float(cohen_kappa_score(a, b))


def read_labels(path: Path) -> list[dict]:
    """The hand labels, checked: every field present, a Table 2 label, no (method, id) twice."""
    rows, seen = [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as e:
            raise ValueError(f"{path.name} line {n}: not JSON ({e})") from None
        missing = [f for f in FIELDS if not isinstance(row.get(f), str) or not row[f].strip()]
        if missing:
            raise ValueError(f"{path.name} line {n}: missing or empty {', '.join(missing)}")
        if row["label"] not in CATEGORIES:
            raise ValueError(f"{path.name} line {n}: {row['label']!r} is not a Table 2 type")
        if (row["method"], row["id"]) in seen:
            raise ValueError(f"{path.name} line {n}: {row['method']} {row['id']} is labelled twice")
        seen.add((row["method"], row["id"]))
        rows.append(row)
    return rows


def auto_labels(runs: Path, run_files: set[str]) -> dict[tuple[str, str], str]:
    """{(run file, id): the labeller's category} for every trajectory in the named run files."""
    facts = supporting_sentences(load_questions("hotpotqa"))
    out = {}
    for name in sorted(run_files):
        for row in label_file(runs / name, facts=facts):
            out[(name, str(row["id"]))] = row["category"]
    return out


def pair(hand: list[dict], auto: dict) -> list[tuple[dict, str]]:
    missing = [f"{h['run']}:{h['id']}" for h in hand if (h["run"], h["id"]) not in auto]
    if missing:
        raise ValueError(f"hand-labelled ids not found in their run files: {', '.join(missing[:5])}")
    return [(h, auto[(h["run"], h["id"])]) for h in hand]


def summary(pairs: list[tuple[dict, str]]) -> str:
    a, b = [h["label"] for h, _ in pairs], [x for _, x in pairs]
    agree = sum(x == y for x, y in zip(a, b))
    return f"{len(pairs):4d} {agree:6d} {agree / len(pairs):10.0%} {kappa(a, b):7.2f}"


def confusion(pairs: list[tuple[dict, str]]) -> list[str]:
    """Rows: the hand label; columns: the labeller's."""
    cols = [c for c in CATEGORIES if any(x == c for _, x in pairs)]
    cols += sorted({x for _, x in pairs} - set(cols))  # "unscored"/"unreadable", if the labeller ever said so
    counts = Counter((h["label"], x) for h, x in pairs)
    lines = ["hand \\ auto " + "".join(f"{SHORT.get(c, c):>6}" for c in cols) + "  total"]
    for r in CATEGORIES:
        total = sum(counts[(r, c)] for c in cols)
        if total:
            lines.append(f"{SHORT[r]:12}" + "".join(f"{counts[(r, c)] or '.':>6}" for c in cols) + f"{total:7d}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--labels", type=Path, default=data_dir() / "labels" / "hotpotqa_authors.jsonl")
    p.add_argument("--runs", type=Path, default=data_dir() / "runs")
    p.add_argument("--disagreements", action="store_true", help="list every trajectory labelled differently")
    a = p.parse_args(argv)
    try:
        hand = read_labels(a.labels)
        if not hand:
            raise ValueError(f"{a.labels.name} holds no labels")
        for name in {h["run"] for h in hand}:
            if not (a.runs / name).is_file():
                raise ValueError(f"run file {name} not found in {a.runs}")
        pairs = pair(hand, auto_labels(a.runs, {h["run"] for h in hand}))
    except (OSError, ValueError) as e:
        print(f"kappa: {e}", file=sys.stderr)
        return 2
    print("method       n  agree  agreement   kappa")
    methods = list(dict.fromkeys(h["method"] for h, _ in pairs))
    for m in methods:
        print(f"{m:9}" + summary([(h, x) for h, x in pairs if h["method"] == m]))
    print(f"{'all':9}" + summary(pairs))
    print("\n" + "\n".join(confusion(pairs)))
    if a.disagreements:
        print("\nmethod    id     hand -> auto: the hand label's reason")
        for h, x in pairs:
            if h["label"] != x:
                print(f"{h['method']:9} {h['id']}  {SHORT[h['label']]} -> {SHORT.get(x, x)}: {h['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
