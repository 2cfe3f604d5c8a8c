"""Your labels, and how far two labellers agree: the sample to label, the store that keeps it, Cohen's kappa.

    >>> cohen_kappa(["tp", "tp", "fp", "fp"], ["tp", "fp", "fp", "fp"])
    0.5
"""
from __future__ import annotations

import json
import os
import random
import tempfile
from collections import Counter
from pathlib import Path

from .rules import CATEGORIES


def sample(rows: list[dict], n: int = 50, seed: int = 0) -> list[dict]:
    """Up to n correct and n wrong rows per method, as the paper sampled them; in the input's order."""
    rng = random.Random(seed)
    groups: dict = {}
    for r in rows:
        if r.get("category") in CATEGORIES and r.get("correct") in (True, False):
            groups.setdefault((str(r.get("method")), r["correct"]), []).append(r)
    chosen = {id(r) for key in sorted(groups) for r in rng.sample(groups[key], min(n, len(groups[key])))}
    return [r for r in rows if id(r) in chosen]


def cohen_kappa(a: list[str], b: list[str]) -> float:
    """Agreement of two labellers beyond chance: (p_o - p_e) / (1 - p_e).

    p_o is the share of items they label alike; p_e the share expected by chance, sum over categories of
    (share of a's labels) x (share of b's labels). When p_e is 1 both gave every item one same label: they agree
    perfectly and chance explains it all, so kappa is undefined; we return 1.0 (p_o is then 1 too).
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"need two label lists of the same non-zero length, got {len(a)} and {len(b)}")
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[c] * cb[c] for c in ca) / (n * n)
    if p_e >= 1.0:
        return 1.0
    return (p_o - p_e) / (1 - p_e)


class LabelStore:
    """Human labels in a JSONL file, one {key, category, note} a line, written whole on every change.

    Each save writes a temporary file beside the real one and renames it over (`os.replace` is atomic), so a
    crash or a killed kernel leaves the old file or the new one, never half of one. Keys are trajectory indexes
    or ids, kept as given (JSON keeps 3 and "3" apart).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._labels: dict = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    d = json.loads(line)
                    self._labels[d["key"]] = {"category": d["category"], "note": d.get("note", "")}
                except (ValueError, KeyError, TypeError):
                    continue  # a line edited by hand into nonsense: skip it rather than lose the others

    def get(self, key: int | str) -> dict | None:
        return dict(self._labels[key]) if key in self._labels else None

    def set(self, key: int | str, category: str, note: str = "") -> None:
        if not isinstance(key, (int, str)) or isinstance(key, bool):  # JSON would bring any other key back changed
            raise TypeError(f"a label key is a trajectory index (int) or id (str), not {type(key).__name__}")
        if category not in CATEGORIES:
            raise ValueError(f"{category!r} is not a Table 2 type; use one of {', '.join(CATEGORIES)}")
        self._labels[key] = {"category": category, "note": note}
        self._save()

    def all(self) -> dict:
        return {k: dict(v) for k, v in self._labels.items()}

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                for k, v in self._labels.items():
                    f.write(json.dumps({"key": k, **v}, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        finally:
            Path(tmp).unlink(missing_ok=True)
