"""A wiki named on the command line: ``--wiki local``, ``local:DB``, ``live``, ``live:DB``, ``world:SEED[:SIZE]``.

It lives with the command line, not in `wiki`, because a generated world is built from `world`, which itself
stands on `wiki`: the spec is where the two meet.

    >>> open_wiki("world:4:30").page("Nowhere at all") is None
    True
    >>> open_wiki("atlas")
    Traceback (most recent call last):
    ...
    ValueError: unknown wiki spec 'atlas': use local, local:DB, live, live:DB or world:SEED
"""
from __future__ import annotations

from react_teach import world
from react_teach.wiki import LiveWiki, LocalWiki, Wiki


def open_wiki(spec: str = "local") -> Wiki:
    """``local`` (the course corpus), ``local:DB`` (a database built with `wiki build`), ``live``, ``live:DB``,
    ``world:SEED``, ``world:SEED:SIZE`` or ``world:SEED:SIZE:v2[:heldout]`` (a generated world no model has read,
    in data version 2 and the held-out wording if asked, see `react_teach.world`).

    A new kind of wiki is one function and one line in `KINDS`.
    """
    kind, _, rest = spec.partition(":")
    if kind not in KINDS:
        raise ValueError(f"unknown wiki spec {spec!r}: use local, local:DB, live, live:DB or world:SEED")
    return KINDS[kind](rest)


def _world(rest: str) -> Wiki:
    return world.wiki(world.generate(*world.parse_spec(rest)))


KINDS = {"local": lambda rest: LocalWiki(rest) if rest else LocalWiki.course(),
         "live": lambda rest: LiveWiki(rest or None),
         "world": _world}
