"""Reading trajectories from files in every format we meet: ours, the official ReAct runs, and later work's.

    >>> read_trajectory({"traj": "Instruction...\\nQuestion: Q1?\\nThought 1: x\\nAction 1: Finish[a]\\n"
    ...                  "Question: Q2?\\nThought 1: y\\nAction 1: Finish[b]"}).answer  # the last question is ours
    'b'
    >>> [type(r).__name__ for r in read_records('{"a": 1}\\n\\nnot json\\n')]
    ['dict', 'ValueError']
"""
from __future__ import annotations

import json

from react_teach.data import parse_jsonl
from .evidence import quote
from .signals import action_key
# one reader for every format: the labeller reads what the runner wrote
from react_teach.runs.records import as_text, read_trajectory
from react_teach.trajectory import Trajectory


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
    """JSONL (one record a line, blank lines skipped), or one JSON array (the official LoggingWrapper's files).
    A line that is not JSON stays in its place as a ValueError that quotes it: the labeller shows it, never drops it."""
    if text.lstrip().startswith("["):
        try:
            whole = json.loads(text)
            if isinstance(whole, list):
                return whole
        except (ValueError, RecursionError):
            pass  # not one array: read it line by line like any JSONL
    lines = text.splitlines()
    return [ValueError(f"{rec}: {quote(lines[k - 1])}") if isinstance(rec, ValueError) else rec
            for k, rec in parse_jsonl(text)]
