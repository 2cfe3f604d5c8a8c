"""A wiki as pages in SQLite: exact title (case-insensitive, redirects followed), else FTS5 BM25 for similar titles.

    >>> import tempfile, pathlib
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "w.db"
    >>> w = LocalWiki.build([{"title": "Hamlet", "sentences": ["Hamlet is a tragedy."], "redirects": ["Amleto"]}], db)
    >>> w.page("amleto").title, w.similar("hamlet tragedy")
    ('Hamlet', ['Hamlet'])
    >>> _ = db.write_bytes(b"not a database at all")
    >>> LocalWiki(db)
    Traceback (most recent call last):
    ...
    react_teach.wiki.WikiError: w.db is not a usable wiki database (file is not a database); rebuild it with `python -m react_teach wiki build`

A corrupt database is refused at once (a user's) or rebuilt (a cached index); it is never read as if it were valid.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Iterable

from react_teach.data import cache_dir, data_dir, parse_json, read_text, write_atomic
from react_teach.wiki import Page, ToolFailure, WikiError

SCHEMA = 2  # bump when the database layout changes: cached indexes are rebuilt
_COURSE: dict = {}  # open course indexes, keyed by cache folder and corpus file stamps


def _key(title: str) -> str:
    return " ".join(title.split()).casefold()


def fts_query(text: str) -> str:
    """Words of `text` as an FTS5 query that can never be read as FTS5 syntax: each word quoted, joined by OR.

    >>> fts_query('Van-Houten? "NEAR" AND')
    '"van" OR "houten" OR "near" OR "and"'
    """
    words = dict.fromkeys(w.casefold() for w in re.findall(r"\w+", text))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def article_text(a) -> str:
    """Page text of a corpus article: one paragraph of sentences; a disambiguation page lists one item per line."""
    if not isinstance(a, dict):
        raise WikiError(f"an article must be a JSON object, not {type(a).__name__}")
    if not isinstance(a.get("title"), str) or not a["title"].strip():
        raise WikiError("an article needs a non-empty \"title\" string")
    if not isinstance(a.get("sentences"), list) or not all(isinstance(s, str) for s in a["sentences"]):
        raise WikiError(f"article {a['title']!r}: \"sentences\" must be a list of strings")
    if not isinstance(a.get("redirects") or [], list):
        raise WikiError(f"article {a['title']!r}: \"redirects\" must be a list of titles")
    parts = [s.strip() for s in a["sentences"] if s.strip()]
    return "\n".join(parts) if a.get("disambiguation") else " ".join(parts)


def is_wiki_db(path: Path) -> bool:
    """Whether `path` is a wiki database of ours (SQLite, with our meta table): the one kind `build` replaces."""
    with open(path, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            return False
    try:  # read only: looking must never change the file
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as con:
            return con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() is not None
    except sqlite3.DatabaseError:
        return False


class LocalWiki:
    """Pages in SQLite. Build from a JSONL corpus (one article per line: ``title``, ``sentences``, optional
    ``redirects`` and ``disambiguation``) with `build`, or from the course corpus with `course()`.

    One connection, one lock: readers and writers (`LiveWiki` fills it from several threads) take turns.
    """

    def __init__(self, db: str | Path):
        self.path = Path(db)
        if not self.path.is_file():
            raise FileNotFoundError(f"no wiki database at {db}; build one with `python -m react_teach wiki build`")
        self.name = f"local:{self.path.name}"
        self._lock = threading.Lock()
        self.con = sqlite3.connect(self.path, check_same_thread=False)
        try:  # checked on open: a truncated or foreign file must not answer every search with an error
            ok = self.con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            schema = self.con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if not ok or schema is None:
                raise sqlite3.DatabaseError("its integrity check failed" if not ok else "no schema record")
        except sqlite3.DatabaseError as e:
            self.con.close()
            raise WikiError(f"{self.path.name} is not a usable wiki database ({e}); rebuild it with "
                            "`python -m react_teach wiki build`") from None

    # -- reading
    def page(self, title: str) -> Page | None:
        with self._lock:
            row = self.con.execute("SELECT p.title, p.text FROM pages p WHERE p.key = ? UNION ALL "
                                   "SELECT p.title, p.text FROM redirects r JOIN pages p ON p.key = r.target "
                                   "WHERE r.key = ? LIMIT 1", (_key(title), _key(title))).fetchone()
        return Page(*row) if row else None

    def similar(self, query: str, k: int = 5) -> list[str]:
        hit = self.recorded_search(query)
        if hit is not None:  # a search recorded from live Wikipedia replays exactly
            return hit[:k]
        q = fts_query(query)
        if not q:
            return []
        with self._lock:
            # titles weigh ten times the body: a near-miss title should beat a page that merely mentions the words
            rows = self.con.execute("SELECT title FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 10.0, 1.0), title "
                                    "LIMIT ?", (q, k)).fetchall()
        return [r[0] for r in rows]

    def recorded_search(self, query: str) -> list[str] | None:
        with self._lock:
            hit = self.con.execute("SELECT titles FROM searches WHERE query = ?", (query,)).fetchone()
            return json.loads(hit[0]) if hit else None

    def titles(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self.con.execute("SELECT title FROM pages ORDER BY title")]

    # -- writing (LiveWiki keeps what it fetches), through the one locked connection
    def keep_page(self, title: str, text: str, redirects: Iterable[str] = ()) -> None:
        with self._lock, self.con:
            self.add(self.con, title, text, redirects)

    def keep_search(self, query: str, titles: list[str]) -> None:
        with self._lock, self.con:
            self.con.execute("INSERT OR REPLACE INTO searches VALUES (?, ?)", (query, json.dumps(titles)))

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
        con.commit()
        return con

    @staticmethod
    def add(con: sqlite3.Connection, title: str, text: str, redirects: Iterable[str] = ()) -> None:
        if con.execute("SELECT 1 FROM pages WHERE key = ?", (_key(title),)).fetchone():
            return  # first one wins, as with duplicate titles in a dump
        con.execute("INSERT INTO pages VALUES (?, ?, ?)", (_key(title), title, text))
        con.execute("INSERT INTO fts VALUES (?, ?)", (title, text))
        for alias in redirects:
            con.execute("INSERT OR IGNORE INTO redirects VALUES (?, ?)", (_key(str(alias)), _key(title)))

    @classmethod
    def build(cls, articles: Iterable, db: str | Path, *, source: str = "article", ours=None) -> "LocalWiki":
        """Write a new database atomically: a half-built index is never seen, and a bad article leaves nothing.

        SQLite builds it in a temporary file beside `db`, renamed over `db` once every article is in (see
        `write_atomic`). An existing `db` is replaced only if it is a wiki database (`is_wiki_db`, or `ours`): a
        notes file given as --out is refused before anything is written. No articles at all is refused too.
        """
        db = Path(db)
        count = 0

        def fill(tmp: Path) -> None:
            nonlocal count
            with closing(cls.create(tmp)) as con, con:  # closed in any case; committed only if every article is good
                for i, a in enumerate(articles, 1):
                    try:
                        text = article_text(a)
                    except WikiError as e:
                        raise WikiError(f"{source} {i}: {e}") from None
                    cls.add(con, a["title"], text, a.get("redirects") or ())
                    count = i
            if not count:  # an empty corpus answers every search with nothing: a mistake, not a wiki
                raise WikiError(f"no articles to build {db.name} from: the corpus is empty")

        write_atomic(db, fill, ours=ours or is_wiki_db, what="wiki database")
        return cls(db)

    @classmethod
    def cached(cls, db: Path, articles) -> "LocalWiki":
        """Open a cached index, or build it; one that fails its check on open is rebuilt, never used."""
        try:
            return cls(db)
        except (FileNotFoundError, WikiError):  # a file in our own cache folder: ours to replace, whatever it holds
            return cls.build(articles(), db, ours=lambda _: True)

    @classmethod
    def from_articles(cls, articles: Iterable[dict], db: str | Path | None = None) -> "LocalWiki":
        """A wiki from articles in memory, cached by content (the doctest and tests use it)."""
        articles = list(articles)
        if db is not None:
            return cls.build(articles, db)
        digest = hashlib.sha256(json.dumps([SCHEMA, articles], sort_keys=True).encode()).hexdigest()[:16]
        return cls.cached(cache_dir() / "wiki" / f"articles-{digest}.db", lambda: articles)

    @classmethod
    def from_jsonl(cls, paths: Iterable[str | Path], db: str | Path | None = None) -> "LocalWiki":
        """A wiki from JSONL corpus files. Given `db`, always a fresh build there; else cached by the files'
        content and rebuilt when they change."""
        paths = sorted(Path(p) for p in paths)
        if db is not None and Path(db).resolve() in {p.resolve() for p in paths}:
            raise WikiError(f"the database {db} would overwrite its own input")

        def articles():
            for p in paths:
                for k, line in enumerate(read_text(p).splitlines(), 1):
                    if line.strip():
                        try:
                            a = parse_json(line)
                            article_text(a)  # checked here to name the file and line of a bad article
                        except ValueError as e:  # WikiError is one too
                            raise WikiError(f"{p}:{k}: {e}") from None
                        yield a

        if db is not None:
            return cls.build(articles(), db)
        h = hashlib.sha256(str(SCHEMA).encode())
        for p in paths:
            h.update(p.read_bytes())
        return cls.cached(cache_dir() / "wiki" / f"corpus-{h.hexdigest()[:16]}.db", articles)

    @classmethod
    def course(cls) -> "LocalWiki":
        """The course encyclopedia in data/corpus/, indexed once into the user cache.

        Every `Agent` made without a wiki asks for it: the open index is kept while the files are unchanged, so
        the corpus is not read and hashed again for each question.
        """
        paths = sorted((data_dir() / "corpus").glob("*.jsonl"))
        key = (str(cache_dir()), *((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths))
        if key not in _COURSE:
            _COURSE[key] = cls.from_jsonl(paths)
        return _COURSE[key]
