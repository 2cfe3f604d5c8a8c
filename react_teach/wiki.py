"""The paper's Wikipedia tool: search[entity], lookup[keyword], finish[answer], with the official strings.

It is weak on purpose. Search needs the exact title and shows only the first five sentences; lookup is Ctrl+F, one
sentence at a time. Whatever the tool does not do, the model's reasoning has to.

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

The backends live in their own modules, re-exported here: `wikidb` (LocalWiki, the SQLite index) and `livewiki`.
"""
from __future__ import annotations

from .common import one_line
from .livewiki import LiveWiki, live_text
from .score import exact_match
from .wikidb import SCHEMA, LocalWiki, Page, ToolFailure, Wiki, WikiError, article_text, fts_query

__all__ = ["SCHEMA", "LiveWiki", "LocalWiki", "Page", "ToolFailure", "Wiki", "WikiEnv", "WikiError", "article_text",
           "from_spec", "fts_query", "live_text", "one_line", "sentences"]


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


def from_spec(spec: str = "local") -> Wiki:
    """``local`` (the course corpus), ``local:DB`` (a database built with `wiki build`), ``live``, ``live:DB``,
    ``world:SEED`` or ``world:SEED:SIZE`` (a generated world no model has read, see `react_teach.world`).

    A new kind of wiki is one function and one line in `KINDS`.
    """
    kind, _, rest = spec.partition(":")
    if kind not in KINDS:
        raise ValueError(f"unknown wiki spec {spec!r}: use local, local:DB, live, live:DB or world:SEED")
    return KINDS[kind](rest)


def _world(rest: str) -> Wiki:
    from . import world  # a generated world no model has read: world:SEED or world:SEED:SIZE
    seed, _, size = rest.partition(":")
    return world.wiki(world.generate(world.parse_seed(seed), world.parse_seed(size) if size else world.SIZE))


KINDS = {"local": lambda rest: LocalWiki(rest) if rest else LocalWiki.course(),
         "live": lambda rest: LiveWiki(rest or None),
         "world": _world}
