"""What every model backend promises: continue a text, stop at one of these strings, say what it cost.

    >>> c = Completion("Paris", Usage(12, 0, 1, 0.1))
    >>> Completion.from_json(c.to_json()) == c
    True
    >>> Completion.from_json({"text": 5})
    Traceback (most recent call last):
    ...
    ValueError: a stored completion needs a text string, not {'text': 5}
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Protocol, Sequence

from .common import Usage


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
        if not isinstance(usage, dict) or set(usage) - set(Usage.__dataclass_fields__):
            raise ValueError(f"a stored completion has a bad usage field: {str(usage)[:80]}")
        return cls(d["text"], Usage(**usage), str(d.get("finish_reason", "stop")))


def completions_from_json(stored, n: int) -> list[Completion]:
    """Exactly `n` stored completions, or ValueError: an empty or short list must never reach the agent."""
    if not isinstance(stored, list) or len(stored) != n:
        raise ValueError(f"expected a list of {n} completions")
    return [Completion.from_json(c) for c in stored]


class LLM(Protocol):
    name: str

    def complete(self, prompt: str, *, stop: Sequence[str] | None = None, temperature: float = 0.0,
                 max_tokens: int = 100, n: int = 1) -> list[Completion]: ...


def cut_at_stop(text: str, stop: Sequence[str] | None) -> tuple[str, bool]:
    """Cut `text` at the first stop sequence, as a server would. Returns (text, whether it was cut).

    >>> cut_at_stop("Search[x]\\nObservation 1: made up", ["\\nObservation 1:"])
    ('Search[x]', True)
    >>> cut_at_stop("a. b! c", ["!", "."])          # the first one in the text wins, not the first in the list
    ('a', True)
    """
    cuts = [text.find(s) for s in (stop or []) if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)
