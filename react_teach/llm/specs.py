"""Models named by a spec string, and the script backend: ``local``, ``local:ft-react``, ``openai:MODEL``, ...

    >>> from_spec("script:", completions=["yes"]).complete("Q?")[0].text
    'yes'
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from react_teach.data import parse_json
from react_teach.llm import LLM, Completion, LLMError, Usage, cut_at_stop, hide_credentials

from . import adapters
from .cassette import CachedLLM, Cassette
from .local import DEFAULT_LOCAL, LocalLLM, bundled_path


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
            except (OSError, UnicodeError) as e:
                raise LLMError(f"script file {path}: {getattr(e, 'strerror', None) or e}") from None
            completions = []
            for k, line in enumerate(lines, 1):
                if line.strip():
                    try:
                        c = parse_json(line)
                        if not isinstance(c, str):
                            raise ValueError
                    except ValueError:
                        raise LLMError(f"{path}:{k}: each line must be one JSON string, like \"Paris.\"") from None
                    completions.append(c)
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


_LOCAL: dict[str, LocalLLM] = {}  # one loaded model per file: loading takes seconds and memory
SPEC_HELP = ("use local, local:PATH.gguf, local:ft-react (or ft-act, ft-cot, ft-standard), "
             "local:BASE.gguf+ADAPTER.gguf, openai:MODEL, openai-compatible:BASE_URL#MODEL, script:FILE, replay:FILE "
             "or record:FILE::SPEC")


def _local(rest: str, completions) -> tuple[LLM, bool]:
    path, lora = _local_target(rest or DEFAULT_LOCAL)
    # keyed by content: another file under the same name (a retrained adapter, a replaced model) is loaded anew
    key = " ".join(f"{p.resolve()}@{adapters.file_hash(p)}" for p in (path, lora) if p is not None)
    if key not in _LOCAL:
        _LOCAL[key] = LocalLLM(path, lora=lora, name=f"local:{rest}" if lora else None)
    return _LOCAL[key], True


def _local_target(target: str) -> tuple[Path, Path | None]:
    """``NAME``, ``PATH.gguf``, ``ft-react`` (a shipped adapter on the bundled base) or ``BASE+ADAPTER.gguf``."""
    def base_of(name: str) -> Path:
        path = Path(name) if name.endswith(".gguf") else bundled_path(name)
        if not path.is_file():
            raise LLMError(f"no model file at {path}")
        return path  # LocalLLM reads it whole (gguf_file) before llama.cpp sees it

    try:
        if target in adapters.SHIPPED:
            return base_of(DEFAULT_LOCAL), adapters.shipped(target, bundled_path())
        if "+" in target:
            base, _, adapter = target.rpartition("+")
            base = base_of(base or DEFAULT_LOCAL)
            if not Path(adapter).is_file():
                raise adapters.AdapterError(f"no adapter file at {adapter}")
            return base, Path(adapter)
    except adapters.AdapterError as e:
        raise LLMError(str(e)) from e
    return base_of(target), None


def _openai(rest: str, completions) -> tuple[LLM, bool]:
    from .remote import OpenAILLM  # the openai SDK takes most of a second to import: only when a spec names it
    return OpenAILLM(rest), True  # OPENAI_API_KEY goes to api.openai.com and nowhere else


def _compatible(rest: str, completions) -> tuple[LLM, bool]:
    base_url, _, model = rest.partition("#")
    model, _, query = model.partition("?")
    if not model or (query and not query.startswith("mode=")):
        raise LLMError(f"write openai-compatible:BASE_URL#MODEL (optionally ?mode=chat), not {rest!r}")
    from .remote import OpenAILLM  # the openai SDK takes most of a second to import: only when a spec names it
    # its key is REACT_TEACH_COMPATIBLE_KEY, never OpenAI's: a local server must not see a paid key
    return OpenAILLM(model, base_url=base_url, mode=query.removeprefix("mode=") or None), True


def _script(rest: str, completions) -> tuple[LLM, bool]:
    return (ScriptLLM(completions, path=rest) if rest else ScriptLLM(completions)), False


def _replay(rest: str, completions) -> tuple[LLM, bool]:
    return Cassette(rest), False  # not cached: the cassette already is the record


def _record(rest: str, completions) -> tuple[LLM, bool]:
    path, _, inner = rest.partition("::")
    if not inner:
        raise LLMError(f"write record:FILE::SPEC, not record:{rest}")
    return Cassette(path, from_spec(inner, cache=False)), False


# kind -> builder(rest of the spec, scripted completions) -> (backend, whether to put the disk cache in front).
# A new kind of model is one function and one line here.
BUILDERS = {"local": _local, "openai": _openai, "openai-compatible": _compatible, "script": _script,
            "replay": _replay, "record": _record}
NEEDS_REST = {"openai", "openai-compatible", "replay", "record"}


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
    react_teach.llm.LLMError: unknown model spec 'gpt': use local, local:PATH.gguf, local:ft-react (or ...
    """
    if hide_credentials(spec) != spec:  # before any message can quote the spec, or a name can carry it
        raise LLMError(f"{hide_credentials(spec)}: a user name or password in a URL would be written into run "
                       "files and messages; give the key in REACT_TEACH_COMPATIBLE_KEY instead")
    kind, _, rest = spec.partition(":")
    if kind not in BUILDERS or (kind in NEEDS_REST and not rest):
        raise LLMError(f"unknown model spec {spec!r}: {SPEC_HELP}")
    llm, cacheable = BUILDERS[kind](rest, completions)
    return CachedLLM(llm) if cache and cacheable else llm


def default(*, cache: bool = True) -> LLM:
    """The model the course uses unless told otherwise: $REACT_TEACH_LLM, else the bundled local model."""
    return from_spec(os.environ.get("REACT_TEACH_LLM") or "local", cache=cache)
