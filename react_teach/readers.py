"""Reading trajectories from files in every format we meet: ours, the official ReAct runs, and later work's.

    >>> read_trajectory({"traj": "Instruction...\\nQuestion: Q1?\\nThought 1: x\\nAction 1: Finish[a]\\n"
    ...                  "Question: Q2?\\nThought 1: y\\nAction 1: Finish[b]"}).answer  # the last question is ours
    'b'
    >>> [type(r).__name__ for r in read_records('{"a": 1}\\n\\nnot json\\n')]
    ['dict', 'ValueError']
"""
from __future__ import annotations

import json
import re

from .common import RESULTS_HEADER
from .failure_evidence import quote
from .failure_signals import action_key
from .trajectory import FINISH, Step, Trajectory, parse


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


def _step(s) -> Step:
    if isinstance(s, dict):
        return Step(as_text(s.get("thought")), as_text(s.get("action")), as_text(s.get("observation")))
    return Step(thought=as_text(s))  # a bare string in a steps list: keep it where a person can read it


def read_trajectory(rec: dict) -> Trajectory | None:
    """Our result lines (``steps``), scratchpads, the official ``traj``/``prompt``, or LoggingWrapper's lists."""
    if isinstance(rec.get("steps"), list):  # the official info dict has "steps" too, but as a number
        steps = [_step(s) for s in rec["steps"]]
        finish = [m.group(1).strip() for s in steps if s.action and (m := FINISH.match(s.action))]
        return Trajectory(str(rec.get("question") or ""), steps, finish[-1] if finish else None)
    for key in ("scratchpad", "traj", "prompt"):
        if isinstance(rec.get(key), str):
            text = rec[key]
            # the official traj is the whole prompt: instruction and six exemplars first, our question last
            heads = list(re.finditer(r"^(Question|Claim):", text, re.MULTILINE))
            return parse(text[heads[-1].start():] if heads and key != "scratchpad" else text)
    if isinstance(rec.get("actions"), list) and isinstance(rec.get("observations"), list):
        obs = [str(o) for o in rec["observations"]]  # observations[0] is the question itself
        return Trajectory(obs[0] if obs else "", [Step(None, str(a), o) for a, o in zip(rec["actions"], obs[1:])])
    return None


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
