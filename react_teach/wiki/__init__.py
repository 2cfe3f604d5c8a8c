"""The paper's Wikipedia tool: search[entity], lookup[keyword], finish[answer], with the official strings.

The package holds `store` (`LocalWiki`, the SQLite FTS5 index of the course corpus or a world) and `live`
(`LiveWiki`, live Wikipedia, cached); here is the environment, `WikiEnv`, with the paper's exact strings.

It is weak on purpose. Search needs the exact title and shows only the first five sentences; lookup is Ctrl+F, one
sentence at a time. Whatever the tool does not do, the model's reasoning has to.

    >>> from react_teach.wiki import LocalWiki
    >>> wiki = LocalWiki.from_articles([{"title": "Hamlet", "sentences": [
    ...     "Hamlet is a tragedy.", "William Shakespeare wrote it.", "It is set in Denmark."]}])
    >>> env = WikiEnv(wiki)
    >>> env.step("search[hamlet]")
    ('Hamlet is a tragedy. William Shakespeare wrote it. It is set in Denmark..', False)
    >>> env.step("lookup[denmark]")
    ('(Result 1 / 1) It is set in Denmark..', False)
    >>> env.step("search[Hamlet play]")
    ("Could not find Hamlet play. Similar: ['Hamlet'].", False)

The doubled period is faithful: the official code splits the page on ". " and puts a period back on every piece,
so the last sentence of a paragraph keeps its own period and gains another.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol

from react_teach.score import exact_match
from react_teach.trajectory import one_line


@dataclass
class Page:
    title: str
    text: str  # paragraphs separated by "\n", as the official code builds it from the page


class Wiki(Protocol):
    name: str

    def page(self, title: str) -> Page | None: ...

    def similar(self, query: str, k: int = 5) -> list[str]: ...


class ToolFailure(Exception):
    """An expected failure of a tool (no network, a time-out, a 5xx): the agent reads it as its observation.
    Anything else a tool raises (a bug, our own database failing) is not something the agent saw: it propagates."""


class WikiError(ValueError):
    """A wiki database or corpus that cannot be used: the message says which and what to do."""


# name -> the module of this package that defines it, imported on first use (PEP 562): the environment and its
# types are all an agent needs, and the SQLite store and live Wikipedia (the `requests` client) load when named.
LAZY = {**dict.fromkeys(("SCHEMA", "LocalWiki", "article_text", "fts_query"), "store"),
        **dict.fromkeys(("LiveWiki", "live_text"), "live"), **dict.fromkeys(("store", "live"), None)}

__all__ = ["Page", "ToolFailure", "Wiki", "WikiEnv", "WikiError", "sentences", *LAZY]


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{LAZY[name] or name}")
    return module if LAZY[name] is None else getattr(module, name)


def sentences(text: str) -> list[str]:
    """Split page text exactly as the official code: paragraphs on newlines, then on ". ", a period put back."""
    out = []
    for paragraph in text.split("\n"):
        if paragraph.strip():
            out += [s.strip() + "." for s in paragraph.strip().split(". ") if s.strip()]
    return out


class WikiEnv:
    """The environment of the knowledge tasks. `step(action)` returns (observation, done).

    Actions are matched as the official code does: the first letter is lower-cased by the harness, then
    ``search[...]``, ``lookup[...]``, ``finish[...]`` (and ``think[...]``) must match from the first to the last
    character; anything else is ``Invalid action: ...``.
    """

    def __init__(self, wiki: "Wiki", gold: str | None = None):
        self.wiki, self.gold = wiki, gold
        self.reset()

    def reset(self) -> None:
        self.page: Page | None = None
        self.lookup_keyword = self.lookup_list = None
        self.lookup_cnt = 0
        self.answer: str | None = None
        self.done = False

    def step(self, action: str) -> tuple[str, bool]:
        try:
            obs = self._step(action)
        except ToolFailure as e:  # a tool's expected failure is what the agent sees; a bug in our code raises
            obs = str(e)
        # observations are single lines: page text must never start a forged `Action 3:` line in the transcript
        return one_line(obs), self.done

    def _step(self, action: str) -> str:
        if action.startswith("search[") and action.endswith("]"):
            return self.search(action[len("search["):-1])
        if action.startswith("lookup[") and action.endswith("]"):
            return self.lookup(action[len("lookup["):-1])
        if action.startswith("finish[") and action.endswith("]"):
            self.answer, self.done = action[len("finish["):-1], True
            # as the official code: without a gold answer the reward is 0
            return f"Episode finished, reward = {int(self.gold is not None and exact_match(self.answer, self.gold))}"
        if action.startswith("think[") and action.endswith("]"):
            return "Nice thought."
        return f"Invalid action: {action}"

    def search(self, entity: str) -> str:
        if not entity.strip():  # the official code finds no result list and no paragraph: an empty page
            self.page, self.lookup_keyword, self.lookup_list, self.lookup_cnt = Page("", ""), None, None, 0
            return ""
        page = self.wiki.page(entity)
        if page is None:
            return f"Could not find {entity}. Similar: {self.wiki.similar(entity)[:5]}."
        if any("may refer to:" in p for p in page.text.split("\n")):
            # a disambiguation page: the official code searches again with the entity in brackets
            return self.search(f"[{entity}]")
        self.page = page
        self.lookup_keyword = self.lookup_list = None
        self.lookup_cnt = 0
        return " ".join(sentences(page.text)[:5])

    def lookup(self, keyword: str) -> str:
        if self.lookup_keyword != keyword:  # a new keyword rebuilds the list and starts again from result 1
            self.lookup_keyword = keyword
            self.lookup_list = [s for s in sentences(self.page.text) if keyword.lower() in s.lower()] \
                if self.page else []
            self.lookup_cnt = 0
        if self.lookup_cnt >= len(self.lookup_list):
            return "No more results."
        self.lookup_cnt += 1
        return f"(Result {self.lookup_cnt} / {len(self.lookup_list)}) {self.lookup_list[self.lookup_cnt - 1]}"
