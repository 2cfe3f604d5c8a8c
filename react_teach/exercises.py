"""Exercises that check what the learner wrote: ✓, or ✗ with a hint, or "not yet" while it is still blank.

An exercise is a checker: a function that takes the learner's answer (a function, a number, a label, a prompt, a
stop list) and calls `expect(condition, hint)` for each thing it must get right. `exercise(notebook, number,
title)` registers it, and calling the registered exercise prints one line and never raises, so a notebook shipped
with its exercises unsolved still runs top to bottom:

    >>> @exercise("demo", 1, "the capital of France")
    ... def capital(answer):
    ...     expect(isinstance(answer, str), "write the name as a string, e.g. 'Rome'")
    ...     expect(answer.strip().lower() == "paris", "not that city: which one stands on the Seine?")
    >>> capital(...)
    … exercise 1 (the capital of France): not yet: replace the ... with your answer
    >>> capital("Rome")
    ✗ exercise 1 (the capital of France): not that city: which one stands on the Seine?
    >>> capital(" Paris")
    ✓ exercise 1 (the capital of France)
    >>> capital.verdict("Rome").status
    'wrong'

A learner's function is called through `call(fn, *args)`: if it raises, that is a ✗ naming the exception (their
bug, not ours); if it still returns the placeholder `...` or None, the exercise is "not yet":

    >>> @exercise("demo", 2, "double a number")
    ... def double(fn):
    ...     expect(call(fn, 2) == 4, "double(2) should be 4")
    >>> def mine(x):
    ...     ...
    >>> double(mine)
    … exercise 2 (double a number): not yet: your function still returns None
    >>> double(lambda x: x / 0)
    ✗ exercise 2 (double a number): your function raised ZeroDivisionError: division by zero
    >>> double(lambda x: x + x)
    ✓ exercise 2 (double a number)

Checkers for a notebook live in `react_teach.checks.<notebook name>` (the name without its number, so that a
renumbering changes nothing), and reference solutions in ``notebooks/solutions/NN_<notebook name>.py``;
`tests/test_exercises.py` runs every checker against its solution and against the wrong answers listed there.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

PASS, WRONG, NOT_YET = "pass", "wrong", "not yet"
MARK = {PASS: "✓", WRONG: "✗", NOT_YET: "…"}


class Wrong(Exception):
    """The answer is wrong; the message is the hint the learner sees."""


class NotYet(Exception):
    """The answer is still the placeholder; the message says what is missing."""


def expect(ok: Any, hint: str) -> None:
    """One thing the answer must get right. `hint` says what to look at, never the answer itself."""
    if not ok:
        raise Wrong(hint)


def blank(answer: Any) -> bool:
    """The placeholders a notebook ships with: ``...`` or None (also inside a list or tuple, e.g. ``[..., ...]``)."""
    if answer is ... or answer is None:
        return True
    return isinstance(answer, (list, tuple)) and len(answer) > 0 and all(blank(a) for a in answer)


def call(fn: Any, *args, **kwargs) -> Any:
    """Call the learner's function. Its exception is a wrong answer with the exception named; ``...`` is not yet."""
    if blank(fn):
        raise NotYet("replace the ... with your function")
    if not callable(fn):
        raise Wrong(f"this exercise wants a function, and got {type(fn).__name__}")
    try:
        out = fn(*args, **kwargs)
    except Exception as e:  # the learner's bug: report it, do not stop the notebook
        raise Wrong(f"your function raised {type(e).__name__}: {e}") from None
    if out is ... or out is None:
        raise NotYet(f"your function still returns {'...' if out is ... else 'None'}")
    return out


@dataclass
class Verdict:
    status: str  # PASS, WRONG or NOT_YET
    message: str = ""

    @property
    def passed(self) -> bool:
        return self.status == PASS


class Exercise:
    """A registered checker. Calling it prints the verdict in one line; `verdict(answer)` returns it."""

    def __init__(self, notebook: str, number: int, title: str, checker: Callable[[Any], None]):
        self.notebook, self.number, self.title, self.checker = notebook, number, title, checker
        self.__doc__ = checker.__doc__

    def verdict(self, answer: Any) -> Verdict:
        if blank(answer):
            return Verdict(NOT_YET, "replace the ... with your answer")
        try:
            self.checker(answer)
        except NotYet as e:
            return Verdict(NOT_YET, str(e))
        except Wrong as e:
            return Verdict(WRONG, str(e))
        return Verdict(PASS)

    def __call__(self, answer: Any) -> None:
        v = self.verdict(answer)
        head = f"{MARK[v.status]} exercise {self.number} ({self.title})"
        if v.status == NOT_YET:
            print(f"{head}: not yet: {v.message}")
        else:
            print(f"{head}: {v.message}" if v.message else head)

    def __repr__(self) -> str:
        return f"<exercise {self.notebook} {self.number}: {self.title}>"


REGISTRY: dict[str, dict[int, Exercise]] = {}


def exercise(notebook: str, number: int, title: str) -> Callable[[Callable[[Any], None]], Exercise]:
    """Register a checker as exercise `number` of `notebook` (its name without the number, e.g. "the_bare_loop")."""
    def register(checker: Callable[[Any], None]) -> Exercise:
        ex = Exercise(notebook, number, title, checker)
        REGISTRY.setdefault(notebook, {})[number] = ex
        return ex
    return register


def of(notebook: str) -> dict[int, Exercise]:
    """Every exercise of a notebook, by number (imports its checks module, which registers them)."""
    importlib.import_module(f"react_teach.checks.{notebook}")
    return dict(sorted(REGISTRY.get(notebook, {}).items()))
