"""Run a method over a question set: resumable, append-only JSONL, one line per question.

A line is written whole with one write and flushed to disk before the next question starts, so a run killed at any
moment leaves a file whose every complete line is a finished question. Re-running the same command reads the
file, drops a torn last line (it is redone, not lost), and skips every question already done.

    >>> from react_teach.llm import ScriptLLM
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> qs = [{"id": "q1", "question": "Capital of France?", "answer": "Paris"}]
    >>> rows = run("standard", qs, out, llm=ScriptLLM([" Paris"]), progress=False)
    >>> rows[0]["em"], rows[0]["answer"]
    (True, 'Paris')
    >>> run("standard", qs, out, llm=ScriptLLM([]), progress=False)[0]["em"]   # done already: no model call
    True
"""
from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import methods
from .agent import solve
from .score import score


def result_line(t, q: dict, task: str) -> dict:
    """The `ask --json` object plus the question's id, gold answer and scores."""
    gold = q.get("label") if task == "fever" else q.get("answer", "")
    d = {"id": q["id"], "question": t.question, "method": t.method,
         "steps": [{"thought": s.thought, "action": s.action, "observation": s.observation} for s in t.steps],
         "answer": t.answer, "n_calls": t.n_calls, "n_badcalls": t.n_badcalls,
         "usage": {"prompt_tokens": t.usage.prompt_tokens, "cached_tokens": t.usage.cached_tokens,
                   "completion_tokens": t.usage.completion_tokens},
         "seconds": round(t.seconds, 3), "gold": gold, "level": q.get("level"), "finished": t.extra.get("finished")}
    if t.extra.get("bad_steps"):
        d["bad_steps"] = t.extra["bad_steps"]
    if t.extra.get("samples") is not None:
        d["samples"] = t.extra["samples"]
    if "backoff" in t.extra:
        d["backoff"] = t.extra["backoff"]
    d.update(score(t.answer, gold or "", task))
    return d


def read_done(path: Path) -> list[dict]:
    """Complete lines of a results file. A torn last line (a kill mid-write) is cut off the file so it is redone."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    rows, good = [], 0
    for line in raw.splitlines(keepends=True):
        try:
            if not line.endswith(b"\n"):
                raise ValueError("no newline: the write was cut")
            rows.append(json.loads(line))
            good += len(line)
        except ValueError:
            break  # only the last line can be torn: every earlier line was flushed whole before it
    if good < len(raw):
        with open(path, "r+b") as f:
            f.truncate(good)
    return rows


def run(method: str, questions: list[dict], out: str | Path, *, llm=None, wiki=None, task: str = "hotpotqa",
        max_steps: int | None = None, concurrency: int = 1, n_samples: int = 21, progress: bool = True) -> list[dict]:
    """Run `method` on every question not yet in `out`; return all result lines in question order."""
    from . import llm as llm_mod, wiki as wiki_mod

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {r["id"]: r for r in read_done(out) if r.get("method") == method}
    todo = [q for q in questions if str(q["id"]) not in done]
    llm = llm if llm is not None else llm_mod.default()
    if wiki is None and methods.needs_wiki(method):
        wiki = wiki_mod.LocalWiki.course()
    if isinstance(getattr(llm, "inner", llm), llm_mod.LocalLLM):
        concurrency = 1  # one in-process model, one KV cache: questions take turns
    lock = threading.Lock()
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(questions), initial=len(questions) - len(todo), desc=method, unit="q")

    def one(q: dict) -> None:
        question = q.get("claim") if task == "fever" else q["question"]
        t = solve(method, question, llm=llm, wiki=wiki, task=task,
                  max_steps=max_steps, n=n_samples)
        line = json.dumps(result_line(t, q, task), ensure_ascii=False) + "\n"
        with lock:  # one whole line per write, on disk before the next question counts as done
            with open(out, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
            done[q["id"]] = json.loads(line)
            if bar is not None:
                bar.update(1)

    if concurrency <= 1:
        for q in todo:
            one(q)
    else:
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(one, todo))
    if bar is not None:
        bar.close()
    return [done[q["id"]] for q in questions if q["id"] in done]
