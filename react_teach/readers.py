"""Reading trajectories from files in every format we meet: ours, the official ReAct runs, and later work's.

    >>> read_trajectory({"traj": "Instruction...\\nQuestion: Q1?\\nThought 1: x\\nAction 1: Finish[a]\\n"
    ...                  "Question: Q2?\\nThought 1: y\\nAction 1: Finish[b]"}).answer  # the last question is ours
    'b'
    >>> [type(r).__name__ for r in read_records('{"a": 1}\\n\\nnot json\\n')]
    ['dict', 'ValueError']
"""
from __future__ import annotations

import json

from .common import RESULTS_HEADER
from .failure_evidence import quote
from .failure_signals import action_key
from .records import read_trajectory  # one reader for every format: the labeller reads what the runner wrote
from .trajectory import Trajectory


def as_text(value) -> str | None:
    return None if value is None else str(value)


def as_bool(value) -> bool | None:
    """A recorded score as a bool: True, 1, "True", "true", "1" and "yes" all count (files disagree on types)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
    return words.get(str(value).strip().lower())  # anything else ("maybe"): unknown, not False


def guess_method(t: Trajectory) -> str:
    if any(s.action and action_key(s.action)[0] not in ("finish", "think") for s in t.steps):
        return "react" if any(s.thought for s in t.steps) else "act"
    return "cot" if t.steps else "standard"


def read_records(text: str) -> list:
    """JSONL (one record a line, blank lines skipped), or one JSON array (the official LoggingWrapper's files)."""
    if text.lstrip().startswith("["):
        try:
            whole = json.loads(text)
            if isinstance(whole, list):
                return whole
        except ValueError:
            pass  # not one array: read it line by line like any JSONL
    out = []
    for line in text.splitlines():
        if line.strip():
            try:
                rec = json.loads(line)
                if not (isinstance(rec, dict) and RESULTS_HEADER in rec):  # a run file's header is not a record
                    out.append(rec)
            except ValueError as e:
                out.append(ValueError(f"not JSON ({e}): {quote(line)}"))
    return out
