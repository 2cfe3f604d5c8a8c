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
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Protocol

from .llm import cache_dir

SCHEMA = 2  # bump when the database layout changes: cached indexes are rebuilt
_COURSE: dict = {}  # open course indexes, keyed by cache folder and corpus file stamps


@dataclass
class Page:
    title: str
    text: str  # paragraphs separated by "\n", as the official code builds it from the page


class Wiki(Protocol):
    name: str

    def page(self, title: str) -> Page | None: ...

    def similar(self, query: str, k: int = 5) -> list[str]: ...


def sentences(text: str) -> list[str]:
    """Split page text exactly as the official code: paragraphs on newlines, then on ". ", a period put back."""
    out = []
    for paragraph in text.split("\n"):
        if paragraph.strip():
            out += [s.strip() + "." for s in paragraph.strip().split(". ") if s.strip()]
    return out


def one_line(text: str) -> str:
    """Observations are single lines: page text must never start a forged `Action 3:` line in the transcript."""
    return " ".join(text.splitlines())


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
        except Exception as e:  # a failing tool is an observation, never a crash of the agent
            obs = f"The tool failed: {type(e).__name__}: {e}"
        return one_line(obs), self.done

    def _step(self, action: str) -> str:
        if action.startswith("search[") and action.endswith("]"):
            return self.search(action[len("search["):-1])
        if action.startswith("lookup[") and action.endswith("]"):
            return self.lookup(action[len("lookup["):-1])
        if action.startswith("finish[") and action.endswith("]"):
            self.answer, self.done = action[len("finish["):-1], True
            if self.gold is None:
                return "Episode finished."
            from .score import exact_match
            return f"Episode finished, reward = {int(exact_match(self.answer, self.gold))}"
        if action.startswith("think[") and action.endswith("]"):
            return "Nice thought."
        return f"Invalid action: {action}"

    def search(self, entity: str) -> str:
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


# --------------------------------------------------------------------------------------------------------- local
def _key(title: str) -> str:
    return " ".join(title.split()).casefold()


def fts_query(text: str) -> str:
    """Words of `text` as an FTS5 query that can never be read as FTS5 syntax: each word quoted, joined by OR.

    >>> fts_query('Van-Houten? "NEAR" AND')
    '"van" OR "houten" OR "near" OR "and"'
    """
    words = dict.fromkeys(w.casefold() for w in re.findall(r"\w+", text))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


class LocalWiki:
    """Pages in SQLite: exact title (case-insensitive, redirects followed), else FTS5 BM25 for similar titles.

    Build from a JSONL corpus (one article per line: ``title``, ``sentences``, optional ``redirects`` and
    ``disambiguation``) with `build`, or from the course corpus with `course()`.
    """

    def __init__(self, db: str | Path):
        self.path = Path(db)
        if not self.path.exists():
            raise FileNotFoundError(f"no wiki database at {db}; build one with `python -m react_teach wiki build`")
        self.name = f"local:{self.path.name}"
        self._lock = threading.Lock()
        self.con = sqlite3.connect(self.path, check_same_thread=False)

    # -- reading
    def page(self, title: str) -> Page | None:
        with self._lock:
            row = self.con.execute("SELECT p.title, p.text FROM pages p WHERE p.key = ? UNION ALL "
                                   "SELECT p.title, p.text FROM redirects r JOIN pages p ON p.key = r.target "
                                   "WHERE r.key = ? LIMIT 1", (_key(title), _key(title))).fetchone()
        return Page(*row) if row else None

    def similar(self, query: str, k: int = 5) -> list[str]:
        with self._lock:
            hit = self.con.execute("SELECT titles FROM searches WHERE query = ?", (query,)).fetchone()
            if hit:  # a search recorded from live Wikipedia replays exactly
                return json.loads(hit[0])[:k]
            q = fts_query(query)
            if not q:
                return []
            # titles weigh ten times the body: a near-miss title should beat a page that merely mentions the words
            rows = self.con.execute("SELECT title FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 10.0, 1.0), title "
                                    "LIMIT ?", (q, k)).fetchall()
        return [r[0] for r in rows]

    def titles(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self.con.execute("SELECT title FROM pages ORDER BY title")]

    # -- writing
    @staticmethod
    def create(db: str | Path) -> sqlite3.Connection:
        con = sqlite3.connect(db)
        con.executescript("""
            CREATE TABLE IF NOT EXISTS pages(key TEXT PRIMARY KEY, title TEXT NOT NULL, text TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS redirects(key TEXT PRIMARY KEY, target TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS searches(query TEXT PRIMARY KEY, titles TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body,
                tokenize = 'unicode61 remove_diacritics 2');
        """)
        con.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        return con

    @staticmethod
    def add(con: sqlite3.Connection, title: str, text: str, redirects: Iterable[str] = ()) -> None:
        if con.execute("SELECT 1 FROM pages WHERE key = ?", (_key(title),)).fetchone():
            return  # first one wins, as with duplicate titles in a dump
        con.execute("INSERT INTO pages VALUES (?, ?, ?)", (_key(title), title, text))
        con.execute("INSERT INTO fts VALUES (?, ?)", (title, text))
        for alias in redirects:
            con.execute("INSERT OR IGNORE INTO redirects VALUES (?, ?)", (_key(alias), _key(title)))

    @classmethod
    def build(cls, articles: Iterable[dict], db: str | Path) -> "LocalWiki":
        """Write a new database from articles, atomically (a half-built index is never seen)."""
        db = Path(db)
        db.parent.mkdir(parents=True, exist_ok=True)
        tmp = db.with_name(f".{db.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        con = cls.create(tmp)
        with con:
            for a in articles:
                cls.add(con, a["title"], article_text(a), a.get("redirects") or ())
        con.close()
        os.replace(tmp, db)
        return cls(db)

    @classmethod
    def from_articles(cls, articles: Iterable[dict], db: str | Path | None = None) -> "LocalWiki":
        """A wiki from articles in memory, cached by content (the doctest and tests use it)."""
        articles = list(articles)
        digest = hashlib.sha256(json.dumps([SCHEMA, articles], sort_keys=True).encode()).hexdigest()[:16]
        db = Path(db) if db else cache_dir() / "wiki" / f"articles-{digest}.db"
        return cls(db) if db.exists() else cls.build(articles, db)

    @classmethod
    def from_jsonl(cls, paths: Iterable[str | Path], db: str | Path | None = None) -> "LocalWiki":
        """A wiki from JSONL corpus files; cached by their content and rebuilt when they change."""
        paths = sorted(Path(p) for p in paths)
        h = hashlib.sha256(str(SCHEMA).encode())
        for p in paths:
            h.update(p.read_bytes())
        db = Path(db) if db else cache_dir() / "wiki" / f"corpus-{h.hexdigest()[:16]}.db"
        if db.exists():
            return cls(db)
        return cls.build((json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines()
                          if line.strip()), db)

    @classmethod
    def course(cls) -> "LocalWiki":
        """The course encyclopedia in data/corpus/, indexed once into the user cache.

        Every `Agent` made without a wiki asks for it: the open index is kept while the files are unchanged, so
        the corpus is not read and hashed again for each question.
        """
        from .data import data_dir

        paths = sorted((data_dir() / "corpus").glob("*.jsonl"))
        key = (str(cache_dir()), *((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths))
        if key not in _COURSE:
            _COURSE[key] = cls.from_jsonl(paths)
        return _COURSE[key]


def article_text(a: dict) -> str:
    """Page text of a corpus article: one paragraph of sentences; a disambiguation page lists one item per line."""
    parts = [s.strip() for s in a["sentences"] if s.strip()]
    return "\n".join(parts) if a.get("disambiguation") else " ".join(parts)


# ---------------------------------------------------------------------------------------------------------- live
class LiveWiki:
    """Live Wikipedia through the `wikipedia` package, with every fetched page kept in a LocalWiki database.

    Errors become observations, not exceptions; a call takes at most `timeout` seconds per try and is retried with
    backoff on time-outs and server errors. A run made online replays offline with ``LocalWiki(db)``.
    """

    def __init__(self, db: str | Path | None = None, *, api_url: str | None = None, timeout: float = 10.0,
                 retries: int = 3, backoff: float = 0.5):
        import wikipedia

        self.wp = wikipedia
        # the package defaults to plain http; the official endpoint, or a test server on loopback
        wikipedia.wikipedia.API_URL = api_url or "https://en.wikipedia.org/w/api.php"
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.db = Path(db) if db else cache_dir() / "wiki" / "live.db"
        self.db.parent.mkdir(parents=True, exist_ok=True)
        self.con = LocalWiki.create(self.db)
        self.con.commit()
        self.local = LocalWiki(self.db)
        self.name = "live"

    def _call(self, fn, *args, **kw):
        """Run a `wikipedia` call in a worker thread so that it is bounded in time; retry on transient failures."""
        import concurrent.futures as cf

        last = None
        for attempt in range(self.retries):
            pool = cf.ThreadPoolExecutor(1)
            try:
                with warnings.catch_warnings():  # the package's BeautifulSoup parser warning is noise here
                    warnings.simplefilter("ignore")
                    return pool.submit(fn, *args, **kw).result(timeout=self.timeout)
            except (self.wp.exceptions.PageError, self.wp.exceptions.DisambiguationError):
                raise
            except cf.TimeoutError:
                last = f"no answer within {self.timeout:g} s"
            except Exception as e:  # connection refused, 5xx (the package then fails to parse JSON), ...
                last = f"{type(e).__name__}: {e}"
            finally:
                pool.shutdown(wait=False)
            time.sleep(self.backoff * 2 ** attempt)
        raise ConnectionError(last)

    def page(self, title: str) -> Page | None:
        cached = self.local.page(title)
        if cached:
            return cached

        def fetch():  # the page and its text in one bounded call (the package loads content lazily)
            p = self.wp.page(title, auto_suggest=False)
            return p, p.content

        try:
            p, content = self._call(fetch)
            text = live_text(content)
            LocalWiki.add(self.con, p.title, text, [title] if _key(title) != _key(p.title) else [])
        except self.wp.exceptions.PageError:
            return None
        except self.wp.exceptions.DisambiguationError as e:
            text = f"{title} may refer to:\n" + "\n".join(e.options)
            LocalWiki.add(self.con, title, text)
        except ConnectionError as e:
            raise ConnectionError(f"Wikipedia did not answer ({e})") from None
        self.con.commit()
        return self.local.page(title)

    def similar(self, query: str, k: int = 5) -> list[str]:
        hit = self.con.execute("SELECT titles FROM searches WHERE query = ?", (query,)).fetchone()
        if hit:
            return json.loads(hit[0])[:k]
        titles = self._call(self.wp.search, query, results=k)
        self.con.execute("INSERT OR REPLACE INTO searches VALUES (?, ?)", (query, json.dumps(titles)))
        self.con.commit()
        return titles


def live_text(content: str) -> str:
    """Page text from the API's plain-text extract, kept as the official code keeps a scraped page: paragraphs of
    more than two words, section headings dropped."""
    keep = [p.strip() for p in content.split("\n")
            if len(p.split(" ")) > 2 and not re.fullmatch(r"=+ .* =+", p.strip())]
    return "\n".join(keep)


def from_spec(spec: str = "local") -> Wiki:
    """``local`` (the course corpus), ``local:DB`` (a database built with `wiki build`), ``live``, ``live:DB``,
    ``world:SEED`` or ``world:SEED:SIZE`` (a generated world no model has read, see `react_teach.world`)."""
    kind, _, rest = spec.partition(":")
    if kind == "world":
        from . import world
        seed, _, size = rest.partition(":")
        return world.wiki(world.generate(world.parse_seed(seed), world.parse_seed(size) if size else world.SIZE))
    if kind == "local":
        return LocalWiki(rest) if rest else LocalWiki.course()
    if kind == "live":
        return LiveWiki(rest or None)
    raise ValueError(f"unknown wiki spec {spec!r}: use local, local:DB, live, live:DB or world:SEED")
