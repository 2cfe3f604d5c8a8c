"""Run a method over a question set: resumable JSONL, one line per question, nothing lost, nothing done twice.

The package holds `records` (one result line, and the reader of every run file) and `stats` (Wilson
intervals, constant-answer baselines, the n a score rests on); here is `run`, the resumable runner.

The file starts with a header line (method, task, model, wiki, a step's token budget, question file hash, package
version); `run` writes only to a file with a header it recognises, or to a new one. A line is written whole and
flushed to disk before the next question starts, so a run killed at any moment leaves only finished lines (and
perhaps a torn last one). Re-running the same command keeps every readable line, redoes the unreadable and failed
ones, and skips the rest. A lock file keeps a second writer out.

    >>> from react_teach.llm import ScriptLLM
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> qs = [{"id": "q1", "question": "Capital of France?", "answer": "Paris"}]
    >>> rows = run("standard", qs, out, llm=ScriptLLM([" Paris"]), progress=False)
    >>> rows[0]["em"], rows[0]["answer"]
    (True, 'Paris')
    >>> run("standard", qs, out, llm=ScriptLLM([]), progress=False)[0]["em"]   # done already: no model call
    True
    >>> run("cot", qs, out, llm=ScriptLLM([]), progress=False)
    Traceback (most recent call last):
    ...
    react_teach.runs.RunFileError: run.jsonl holds another run (method 'standard', not 'cot'); use another --out, or --force-resume to continue it anyway
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from tqdm.auto import tqdm

from react_teach import __version__, llm as llm_mod, methods, wiki as wiki_mod
from react_teach.methods import solve
from react_teach.data import NotOursError, RESULTS_HEADER, check_target, parse_json, write_atomic
from react_teach.trajectory import one_line
from react_teach.llm import STEP_TOKENS, PromptError, step_tokens
from .records import is_header, result_line
from react_teach.trajectory import Trajectory

try:
    import fcntl
except ImportError:  # Windows: no advisory locks, so no protection against a second writer there
    fcntl = None

CHECKED = ("method", "task", "llm", "model", "wiki", "step_tokens", "questions", "version")
UNKNOWN_OK = ("questions", "model")  # absent on one side (an older file, a backend without a file): not compared


class RunFileError(ValueError):
    """An --out file we must not write to, or cannot continue; the message says why and what to do."""


def questions_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _rows(out: Path) -> tuple[dict | None, list[dict], bool]:
    """(header, readable result lines, whether the file needs rewriting) of an existing results file."""
    header, rows, dirty = None, [], False
    lines = out.read_bytes().split(b"\n")
    if lines[-1]:
        dirty = True  # a torn last line: the kill came mid-write
    for k, line in enumerate(lines[:-1]):
        try:
            rec = parse_json(line.decode("utf-8"))
        except ValueError:  # not JSON, nested too deep, not UTF-8 (UnicodeDecodeError is one too)
            rec = None
        if k == 0 and is_header(rec):
            header = rec
        elif isinstance(rec, dict) and "id" in rec and "method" in rec:
            rows.append(rec)
        elif line.strip() or k == 0:
            dirty = True  # unreadable: dropped, and its question done again
    if header is None and not rows and out.stat().st_size:
        raise RunFileError(f"{out.name} is not a results file of ours; choose another --out")
    return header, rows, dirty or header is None


def is_results_file(path: Path) -> bool:
    """Whether `path` holds a run of ours (a header, or result lines): the only kind of file `run` rewrites."""
    try:
        _rows(path)
    except RunFileError:
        return False
    return True


def _files_of(llm) -> list[Path]:
    """The files a backend reads and writes (a cassette, inside any wrappers): none may be the results file too."""
    out = []
    for _ in range(10):  # wrappers nest a few deep at most (a cache around a recorder around a server)
        if isinstance(llm, llm_mod.Cassette):
            out.append(llm.path)
        llm = getattr(llm, "__dict__", {}).get("inner")
        if llm is None:
            break
    return out


@contextmanager
def _locked(out: Path):
    """Hold `OUT.lock` for the whole run; the lock dies with the process, so a killed run never blocks the next."""
    if fcntl is None:
        yield
        return
    with open(out.with_name(out.name + ".lock"), "a") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunFileError(f"another run is writing {out.name} now; wait for it or use another --out") from None
        yield


def _question(q: dict, task: str) -> str:
    text = q.get("claim") if task == "fever" else q.get("question")
    if not isinstance(text, str) or not text.strip():
        raise RunFileError(f"question {q.get('id')!r} has no {'claim' if task == 'fever' else 'question'} text")
    return one_line(text)  # untrusted text: it must not forge a Thought, Action or Observation line


def _check_gold(q: dict, task: str) -> None:
    """The gold answer is scored after the model has been paid for: one that cannot be scored is refused first."""
    field = "label" if task == "fever" else "answer"
    if q.get(field) is not None and not isinstance(q[field], str):
        raise RunFileError(f"question {str(q.get('id'))[:40]!r}: the {field} must be a string, not "
                           f"{type(q[field]).__name__}")


def run(method: str, questions: list[dict], out: str | Path, *, llm=None, wiki=None, task: str = "hotpotqa",
        max_steps: int | None = None, concurrency: int = 1, n_samples: int = 21, progress: bool = True,
        questions_sha: str | None = None, force_resume: bool = False) -> list[dict]:
    """Run `method` on every question not yet done in `out`; return the result lines in question order.

    `questions_sha` (the question file's hash; the CLI gives it) goes in the header and must match on resume.
    A question that fails for its own reasons (too long for the model, refused) is written as a line with its
    `error`, and the run moves on; it is tried again on the next resume.
    """
    if Path(out).is_dir():
        raise RunFileError(f"{out} is a folder; --out takes a results file")
    # refused before any model is asked: a folder, a device, a fifo, a file that is not a results file of ours
    try:
        out = check_target(out, ours=is_results_file, what="results file")
    except NotOursError as e:
        raise RunFileError(str(e)) from None
    for other in _files_of(llm):
        if other.resolve() == out:
            raise RunFileError(f"{Path(other).name} would be both the model's cassette and the results file; "
                               "give each its own file")
    ids = [str(q.get("id")) for q in questions]
    if len(set(ids)) != len(ids):
        raise RunFileError(f"the question id {next(i for i in ids if ids.count(i) > 1)!r} appears twice")
    texts = {i: _question(q, task) for i, q in zip(ids, questions)}
    for q in questions:
        _check_gold(q, task)
    llm = llm if llm is not None else llm_mod.default()
    if wiki is None and methods.needs_wiki(method):
        wiki = wiki_mod.LocalWiki.course()
    # "model": what the answers come from, by content (a local model's file hash): the same file name on another
    # model must not continue this run
    head = {RESULTS_HEADER: 1, "method": method, "task": task, "llm": getattr(llm, "name", None),
            "model": getattr(llm, "identity", None),
            "wiki": getattr(wiki, "name", None) if methods.needs_wiki(method) else None,
            # the room of one step: the same model with more room ends some steps differently, so a resume with
            # another budget would mix two runs in one file (a method without steps makes one call: no budget)
            "step_tokens": step_tokens(llm) if methods.needs_wiki(method) else None,
            "questions": questions_sha, "version": __version__}
    out.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        return _run(method, questions, out, ids, texts, head, force_resume, llm=llm, wiki=wiki, task=task,
                    max_steps=max_steps, concurrency=concurrency, n_samples=n_samples, progress=progress)


def _resume(out: Path, head: dict, force: bool, texts: dict) -> tuple[list[dict], dict]:
    """Check the header, keep every readable line, and return (lines to keep, {id: done line})."""
    old, rows, dirty = _rows(out) if out.exists() and out.stat().st_size else (head, [], True)
    if not force:
        if old is None:
            raise RunFileError(f"{out.name} has no header (an older run file); use --force-resume to continue it")
        if old.get("wiki") is not None and "step_tokens" not in old:
            old = {**old, "step_tokens": STEP_TOKENS}  # a file from before the budget was recorded: the official 100
        diff = [f"{k} {old.get(k)!r}, not {head[k]!r}" for k in CHECKED
                if old.get(k) != head[k] and not (k in UNKNOWN_OK and None in (old.get(k), head[k]))]
        if diff:
            raise RunFileError(f"{out.name} holds another run ({'; '.join(diff)}); use another --out, "
                               "or --force-resume to continue it anyway")
    keep, done = [], {}
    for r in rows:
        i = str(r["id"])
        if r.get("method") != head["method"]:  # another method's line (only with --force-resume): kept, not done
            keep.append(r)
            continue
        if i in done:
            dirty = True  # a second line for one id (two writers once): the first one counts
            continue
        if i in texts and ("error" in r or r.get("question") != texts[i]):
            dirty = True  # failed, or another question under this id: done again
            continue
        keep.append(r)
        if i in texts:
            done[i] = r
    if dirty or old != head:  # rewritten whole or not at all: a crash here leaves the old file
        write_atomic(out, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [head, *keep]),
                     ours=is_results_file, what="results file")
    return keep, done


def _run(method, questions, out, ids, texts, head, force, *, llm, wiki, task, max_steps, concurrency, n_samples,
         progress):
    _, done = _resume(out, head, force, texts)
    todo = [(i, q) for i, q in zip(ids, questions) if i not in done]
    if isinstance(getattr(llm, "inner", llm), llm_mod.LocalLLM):
        concurrency = 1  # one in-process model, one KV cache: questions take turns
    lock, stop = threading.Lock(), threading.Event()
    bar = tqdm(total=len(ids), initial=len(ids) - len(todo), desc=method, unit="q") if progress else None

    def one(item) -> None:
        i, q = item
        if stop.is_set():
            return
        try:
            t = solve(method, texts[i], llm=llm, wiki=wiki if methods.needs_wiki(method) else None, task=task,
                      max_steps=max_steps, n=n_samples)
            line = result_line(t, {**q, "id": i}, task)
        except (PromptError, UnicodeError) as e:  # this question's own failure: recorded, and the run goes on
            t = Trajectory(texts[i], method=method, task=task)
            line = result_line(t, {**q, "id": i}, task, error=f"{type(e).__name__}: {e}")
        except BaseException:
            stop.set()  # a failure of the model, the wiki or our code: no other question starts
            raise
        text = json.dumps(line, ensure_ascii=False) + "\n"
        with lock:  # one whole line per write, on disk before the next question counts as done
            try:  # appended, not rewritten: a kill leaves every earlier line (see `_rows` for a torn last one)
                with open(out, "a", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:  # a full disk: the message names the file (a write error carries no name)
                stop.set()
                raise OSError(e.errno, e.strerror or str(e), str(out)) from None
            done[i] = line
            if bar is not None:
                bar.update(1)

    try:
        if concurrency <= 1:
            for item in todo:
                one(item)
        else:
            with ThreadPoolExecutor(concurrency) as pool:
                list(pool.map(one, todo))
    finally:
        if bar is not None:
            bar.close()
    return [done[i] for i in ids if i in done]
