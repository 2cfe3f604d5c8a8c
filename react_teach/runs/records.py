"""One record of a question's run, and one reader for every trajectory file the course meets.

A result line is the trajectory's own JSON (`Trajectory.to_json`) plus the question's id, gold answer and scores.
The reader takes those lines, the run files written before that (kept readable), the official ReAct logs
(``traj``/``prompt`` transcripts), scratchpad records and LoggingWrapper's action/observation lists. Ids are
always strings.

    >>> from react_teach.trajectory import Step, Trajectory
    >>> t = Trajectory("Who wrote Hamlet?", [Step("Search it.", "Finish[Shakespeare]", "Episode finished, reward = 1")],
    ...                answer="Shakespeare", extra={"finished": True})
    >>> line = result_line(t, {"id": 7, "answer": "William Shakespeare"}, "hotpotqa")
    >>> line["id"], line["em"], line["f1"], line["steps"][0]["author"]
    ('7', False, 0.6667, 'model')
    >>> read_trajectory(line).steps == t.steps
    True
    >>> read_trajectory({"traj": "Instruction...\\nQuestion: Q?\\nThought 1: hm\\nAction 1: Finish[x]\\n"}).answer
    'x'
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from react_teach.data import RESULTS_HEADER, parse_jsonl
from react_teach.score import score
from react_teach.trajectory import FINISH, Step, Trajectory, parse

PROMOTED = ("finished", "bad_steps", "samples", "backoff")  # extra fields that readers of runs look up directly


def result_line(t: Trajectory, q: dict, task: str, error: str | None = None) -> dict:
    """The trajectory's JSON plus id, gold, level and scores (and `error` for a question that could not run)."""
    gold = q.get("label") if task == "fever" else q.get("answer", "")
    d = t.to_json()
    d.update({"id": str(q["id"]), "gold": gold, "level": q.get("level"), "seconds": round(t.seconds, 3)})
    d.update({k: t.extra[k] for k in PROMOTED if t.extra.get(k) is not None})
    if error is not None:
        d["error"] = error
    d.update(score(t.answer, gold or "", task))
    return d


def as_text(value) -> str | None:
    """A field read from a file as text (files disagree on types), None staying None."""
    return None if value is None else str(value)


def _step(s) -> Step:
    if isinstance(s, dict):
        author = s.get("author") if s.get("author") in ("model", "human") else "model"
        return Step(as_text(s.get("thought")), as_text(s.get("action")), as_text(s.get("observation")), author,
                    as_text(s.get("invented")))
    return Step(thought=as_text(s))  # a bare string in a steps list: keep it where a person can read it


def read_trajectory(rec: dict) -> Trajectory | None:
    """A Trajectory from any record we know, or None when the record holds no trajectory."""
    if not isinstance(rec, dict):
        return None
    if isinstance(rec.get("steps"), list):  # ours, new or old (the official info dict has "steps" as a number)
        steps = [_step(s) for s in rec["steps"]]
        finish = [m.group(1).strip() for s in steps if s.action and (m := FINISH.match(s.action))]
        answer = rec["answer"] if isinstance(rec.get("answer"), str) else (finish[-1] if finish else None)
        t = Trajectory(str(rec.get("question") or rec.get("claim") or ""), steps, answer,
                       method=str(rec.get("method") or "react"), task=str(rec.get("task") or "hotpotqa"))
        for k in ("n_calls", "n_badcalls"):
            if isinstance(rec.get(k), int):
                setattr(t, k, rec[k])
        extra = rec.get("extra") if isinstance(rec.get("extra"), dict) else {}
        t.extra = {**{k: rec[k] for k in PROMOTED if k in rec}, **extra}
        return t
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


def record_id(rec: dict, index: int) -> str:
    """A record's id as a string: ``id``, else HotpotQA's ``_id``, else the official ``question_idx``, else its
    position in the file."""
    for k in ("id", "_id", "question_idx"):
        if rec.get(k) is not None:
            return str(rec[k])
    return str(index)


def is_header(rec) -> bool:
    return isinstance(rec, dict) and RESULTS_HEADER in rec


def read_header(path: str | Path) -> dict | None:
    """A run file's header line (method, task, llm, wiki, question file hash, version), or None without one."""
    with open(path, encoding="utf-8", errors="replace") as f:
        first = f.readline()
    try:
        rec = json.loads(first)
    except ValueError:
        return None
    return rec if is_header(rec) else None


def read_results(path: str | Path) -> list[dict]:
    """The result lines of a run file (the header and unreadable lines skipped), every id a string.

    Notebooks and plots read runs with this; `label` and the failure labeller read through `read_trajectory`.
    """
    rows = []
    for k, rec in parse_jsonl(Path(path).read_text(encoding="utf-8", errors="replace")):
        if isinstance(rec, dict):
            rec["id"] = record_id(rec, k - 1)
            rows.append(rec)
    return rows
