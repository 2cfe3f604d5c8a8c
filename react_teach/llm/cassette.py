"""Wrappers that remember: a cassette records a backend's answers to replay them exactly, a cache skips known calls.

    >>> import tempfile, pathlib
    >>> from react_teach.llm import ScriptLLM
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tape.jsonl"
    >>> Cassette(path, ScriptLLM(["Paris"])).complete("Capital of France?")[0].text
    'Paris'
    >>> Cassette(path).complete("Capital of France?")[0].text      # replayed: no model at all
    'Paris'

Neither is consulted for a call it cannot answer exactly: the cache serves only temperature-0 calls, and replay
names the request it has no recording of. (`replay:` is not itself cached: the cassette already is the record.)
"""
from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path

from react_teach.data import NotOursError, cache_dir, check_target, parse_json, write_atomic
from react_teach.llm import LLM, Completion, LLMError, completions_from_json, step_tokens


def request_key(name: str, prompt: str, stop, temperature, max_tokens, n) -> str:
    req = json.dumps([name, prompt, list(stop or []), temperature, max_tokens, n], ensure_ascii=False)
    return hashlib.sha256(req.encode("utf-8", "surrogatepass")).hexdigest()


def writable_folder(folder: Path, what: str) -> Path:
    """Make sure we can write in `folder` before any model is asked: a paid answer must never be lost to a bad path."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LLMError(f"{what}: cannot use the folder {folder} ({e.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise LLMError(f"{what}: the folder {folder} is not writable")
    return folder


class Recorder:
    """Wraps a backend and keeps every request, to read exactly which prompt and stop the model was given.

    >>> from react_teach.llm import ScriptLLM
    >>> rec = Recorder(ScriptLLM(["Search[X]"]))
    >>> _ = rec.complete("Action 1:", stop=["\\n"])
    >>> rec.requests
    [('Action 1:', {'stop': ['\\n']})]
    """

    def __init__(self, inner: LLM):
        self.inner, self.name, self.requests = inner, inner.name, []

    @property
    def step_tokens(self) -> int:  # the wrapped model's room per step: recording must not change what it does
        return step_tokens(self.inner)

    def complete(self, prompt, **kw):
        self.requests.append((prompt, kw))
        return self.inner.complete(prompt, **kw)


class Cassette:
    """Record a backend's answers to a file (`inner` given), or replay them exactly (no model needed).

    A cassette is JSONL: {"key", "request": {prompt, stop, temperature, max_tokens, n}, "completions": [...]}.
    No headers, no keys, no base URLs are written. Blank lines are skipped.
    """

    def __init__(self, path: str | Path, inner: LLM | None = None):
        self.path, self.inner = Path(path), inner
        self.name = inner.name if inner else f"replay:{self.path.name}"
        self.entries: dict[str, dict] = {}
        if self.path.is_dir():
            raise LLMError(f"{self.path} is a folder, not a cassette file")
        try:  # a device or a fifo is never read (a fifo would hang) nor replaced by a recording
            check_target(self.path, what="cassette file")
        except NotOursError as e:
            raise LLMError(str(e)) from None
        if self.path.exists():
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeError) as e:
                raise LLMError(f"cannot read the cassette {self.path}: {e}") from None
            for k, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    e = parse_json(line)
                    completions_from_json(e["completions"], e["request"]["n"])
                    self.entries[e["key"]] = e
                except (ValueError, KeyError, TypeError):
                    raise LLMError(f"{self.path}:{k}: not a cassette line") from None
        elif inner is None:
            raise LLMError(f"no cassette at {self.path}")
        if inner is not None:
            writable_folder(self.path.parent, f"record:{self.path}")

    @property
    def step_tokens(self) -> int:  # recording: the model's own; a replay (no inner model) the official 100
        return step_tokens(self.inner)

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        key = request_key("cassette", prompt, stop, temperature, max_tokens, n)
        if key in self.entries:
            return completions_from_json(self.entries[key]["completions"], n)
        if self.inner is None:
            raise LLMError(f"{self.path.name} has no recording of this request: stop={list(stop or [])}, "
                           f"temperature={temperature}, max_tokens={max_tokens}, n={n}, "
                           f"prompt ending {prompt[-80:]!r}")
        out = self.inner.complete(prompt, stop=stop, temperature=temperature, max_tokens=max_tokens, n=n)
        entry = {"key": key, "request": {"prompt": prompt, "stop": list(stop or []), "temperature": temperature,
                                         "max_tokens": max_tokens, "n": n},
                 "completions": [c.to_json() for c in out]}
        try:  # never write what the reader would refuse: one such line would make the whole cassette unusable
            completions_from_json(parse_json(json.dumps(entry, ensure_ascii=False))["completions"], n)
        except ValueError as e:
            raise LLMError(f"{self.inner.name} answered what a cassette cannot replay ({e}); not recorded") from None
        self.entries[key] = entry
        write_atomic(self.path, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.entries.values()),
                     what="cassette file")
        return out


class CachedLLM:
    """An on-disk cache of temperature-0 calls in front of another backend (one file per request).

    A hit returns the stored text and the stored token counts (what the call cost when it was computed, so cost
    tables stay true), with zero seconds. A stored file of any other shape is a miss, computed again.
    """

    def __init__(self, inner: LLM, folder: str | Path | None = None):
        self.inner, self.name = inner, inner.name
        self.folder = writable_folder(Path(folder) if folder else cache_dir() / "llm",
                                      "the model cache (set REACT_TEACH_CACHE to a folder you can write)")
        self.hits = 0

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        if temperature > 0:
            return self.inner.complete(prompt, stop=stop, temperature=temperature, max_tokens=max_tokens, n=n)
        # the key names the content: a local model's file hash (and its adapter's), not only its file name
        key = request_key(getattr(self.inner, "identity", None) or self.name, prompt, stop, temperature,
                          max_tokens, n)
        path = self.folder / key[:2] / f"{key}.json"
        try:
            out = completions_from_json(parse_json(path.read_text(encoding="utf-8")), n)
            self.hits += 1
            for c in out:
                c.usage.seconds = 0.0
            return out
        except (OSError, ValueError, RecursionError):
            pass  # not there, torn, or edited (a usage that is not a number, JSON nested too deep): ask the model
        out: list[Completion] = self.inner.complete(prompt, stop=stop, temperature=temperature,
                                                    max_tokens=max_tokens, n=n)
        try:
            write_atomic(path, json.dumps([c.to_json() for c in out], ensure_ascii=False))
        except OSError as e:  # the answer is good and maybe paid for: keep it, lose only the cache entry
            warnings.warn(f"could not cache a model answer in {self.folder}: {e}", stacklevel=2)
        return out

    def __getattr__(self, attr):  # load_seconds, model, ... of the wrapped backend
        return getattr(self.inner, attr)
