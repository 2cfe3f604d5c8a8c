"""Your labels, and how far two labellers agree: the sample to label, the store that keeps it, Cohen's kappa.

    >>> cohen_kappa(["tp", "tp", "fp", "fp"], ["tp", "fp", "fp", "fp"])
    0.5
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from react_teach.data import check_target, read_text, write_atomic

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
    """Human labels in a JSONL file, one {key, category, note} a line, rewritten whole on every change.

    Human work is never lost:

    - each save goes through `write_atomic` (a temporary file renamed over the real one), so a crash or a killed
      kernel leaves the old file or the new one, never half of one;
    - a line that cannot be read (edited by hand into nonsense, a torn write) is kept aside in `unreadable` and
      written back as it was, never dropped;
    - a file that is not a labels file (a run file, notes) is refused when the store is opened, before anything
      is written; a file that is empty or absent starts a new store.

    Keys are trajectory indexes or ids, kept as given (JSON keeps 3 and "3" apart).

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.jsonl"
        >>> _ = path.write_text('{"key": 1, "category": "hallucination", "note": ""}\\n{"key": 2, "categ\\n')
        >>> store = LabelStore(path)
        >>> store.set(3, "reasoning error"); path.read_text().splitlines()[-1]   # the torn line is kept
        '{"key": 2, "categ'
        >>> _ = path.write_text('{"react_teach_results": 1, "method": "react"}\\n{"id": "q1", "method": "react"}\\n')
        >>> LabelStore(path)
        Traceback (most recent call last):
        ...
        ValueError: labels.jsonl is not a labels file (line 1 is a JSON object without key and category); give the path of your labels file, or a new one
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._labels: dict = {}
        self.unreadable: list[tuple[int, str]] = []  # (line number, the line as it was): written back, never lost
        if self.path.exists():
            self.path = check_target(self.path, what="labels file")  # a folder or a fifo: refused, not read
            self._labels, self.unreadable = read_labels(self.path)

    def get(self, key: int | str) -> dict | None:
        return dict(self._labels[key]) if key in self._labels else None

    def set(self, key: int | str, category: str, note: str = "") -> None:
        if not isinstance(key, (int, str)) or isinstance(key, bool):  # JSON would bring any other key back changed
            raise TypeError(f"a label key is a trajectory index (int) or id (str), not {type(key).__name__}")
        if category not in CATEGORIES:
            raise ValueError(f"{category!r} is not a Table 2 type; use one of {', '.join(CATEGORIES)}")
        if not isinstance(note, str):
            raise TypeError(f"a note is text, not {type(note).__name__}")
        before = self._labels.get(key)
        self._labels[key] = {"category": category, "note": note}
        try:
            self._save()
        except BaseException:  # not saved: the store must not claim a label the file does not hold
            if before is None:
                del self._labels[key]
            else:
                self._labels[key] = before
            raise

    def all(self) -> dict:
        return {k: dict(v) for k, v in self._labels.items()}

    def _save(self) -> None:
        lines = [json.dumps({"key": k, **v}, ensure_ascii=False) for k, v in self._labels.items()]
        write_atomic(self.path, "".join(line + "\n" for line in lines + [t for _, t in self.unreadable]),
                     ours=_is_labels, what="labels file")


def _is_labels(path: Path) -> bool:
    try:
        read_labels(path)
    except ValueError:
        return False
    return True


def read_labels(path: Path) -> tuple[dict, list[tuple[int, str]]]:
    """({key: {category, note}}, unreadable lines) of a labels file; ValueError if the file is another kind.

    A line that is a JSON object without ``key`` and ``category`` (a run's result, its header) or a file without
    a single label means the file is not ours: refusing it is the only way not to overwrite it later.
    """
    labels, unreadable = {}, []
    text = read_text(path)
    for k, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except (ValueError, RecursionError):
            unreadable.append((k, line))
            continue
        if not isinstance(d, dict) or not ({"key", "category"} & set(d)):
            raise ValueError(f"{path.name} is not a labels file (line {k} is a JSON "
                             f"{'object without key and category' if isinstance(d, dict) else type(d).__name__})"
                             "; give the path of your labels file, or a new one")
        key, category, note = d.get("key"), d.get("category"), d.get("note", "")
        if isinstance(key, (int, str)) and not isinstance(key, bool) and category in CATEGORIES and \
                isinstance(note, str):
            labels[key] = {"category": category, "note": note}
        else:
            unreadable.append((k, line))  # a label edited into something we cannot use: kept as it was
    if text.strip() and not labels and unreadable and not any(
            '"category"' in t for _, t in unreadable):
        raise ValueError(f"{path.name} is not a labels file (no line of it is a label); give the path of your "
                         "labels file, or a new one")
    return labels, unreadable
