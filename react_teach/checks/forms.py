"""The forms of one answer that a checker counts as the same: a checker judges the idea, not the spelling.

A careful learner may count with numpy (`np.int64(12)`), write `12.0`, compare with numpy (`np.True_`), or read a
value off a printed table to the precision it shows. These helpers turn each of those into one plain value, or
None when the answer is not of that kind at all:

    >>> import numpy as np
    >>> whole(np.int64(12)), whole(12.0), whole(12.5), whole(True), whole("12")
    (12, 12, None, None, None)
    >>> real(np.float32(0.5)), real(3), real(False)
    (0.5, 3.0, None)
    >>> truth(np.True_), truth(1)
    (True, None)
    >>> words(" Reasoning  Error ")
    'reasoning error'

A prediction of a count is checked against the count the run really made, with a hint for each direction:

    >>> from react_teach.exercises import Wrong
    >>> try:
    ...     predicted_count(np.int64(3), 4, fewer="the re-ask is a call too", more="no call twice")
    ... except Wrong as e:
    ...     print(e)
    the re-ask is a call too
"""
from __future__ import annotations

import numbers
from typing import Any

from react_teach.exercises import expect


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool) or type(x).__name__ in ("bool_", "bool")  # numpy's bool is not a numbers.Number


def real(x: Any) -> float | None:
    """A number (int, float, numpy scalar) as a float; None for a bool, a string or anything else."""
    if _is_bool(x) or not isinstance(x, numbers.Real):
        return None
    return float(x)


def whole(x: Any) -> int | None:
    """A whole number (int, numpy integer, or a float such as 12.0) as an int; None otherwise."""
    value = real(x)
    return int(value) if value is not None and value == int(value) else None


def truth(x: Any) -> bool | None:
    """True or False (Python's or numpy's) as a bool; None for anything else, 1 and 0 included."""
    return bool(x) if _is_bool(x) else None


def words(x: Any) -> str | None:
    """Text with case and runs of whitespace ignored; None if it is not a string."""
    return " ".join(x.lower().split()) if isinstance(x, str) else None


def predicted_count(count: Any, want: int, *, fewer: str, more: str, what: str = "model calls") -> None:
    """Check a predicted whole number against `want`: `fewer` is the hint for a count below it, `more` above it."""
    n = whole(count)
    expect(n is not None, f"give a whole number of {what}")
    expect(n >= want, fewer)
    expect(n <= want, more)
