"""Live Wikipedia through the `wikipedia` package, every fetched page kept in a local database to replay offline.

Each call has one overall deadline, retries included, and no thread is left behind: the package's own HTTP calls
(which have no time-out at all) go through `_Bounded`, which gives every request a time-out and reads the body
against the deadline. Without a network the observation reads "Wikipedia did not answer (offline?)" at once.

    >>> live_text("The intro paragraph.\\n== History ==\\nIt was long ago.\\nOk")  # headings and stubs dropped
    'The intro paragraph.\\nIt was long ago.'
"""
from __future__ import annotations

import re
import threading
import time
import warnings
from pathlib import Path

import requests

from react_teach.data import cache_dir, parse_json, write_atomic
from react_teach.wiki import Page, ToolFailure

from .store import LocalWiki, _key

MAX_BODY = 20 * 1024 * 1024  # no API answer the tool needs is this large


class _Transient(Exception):
    """Worth another try: a time-out, a 429 or a 5xx."""


class _Bounded:
    """Stands in for the `requests` module inside the `wikipedia` package: `get` with a time-out and a deadline."""

    def __init__(self):
        self.local = threading.local()  # each thread's deadline: runs search from several threads at once

    def get(self, url, params=None, headers=None):
        deadline = getattr(self.local, "deadline", time.monotonic() + 10)
        left = max(0.01, deadline - time.monotonic())
        try:
            with requests.get(url, params=params, headers=headers, timeout=(min(left, 5.0), left), stream=True) as r:
                if r.status_code == 429 or r.status_code >= 500:
                    raise _Transient(f"the server answered {r.status_code}")
                body = b""
                while chunk := r.raw.read1(65536):  # whatever has arrived: a drip cannot hold a read past the deadline
                    body += chunk
                    if time.monotonic() > deadline:
                        raise _Transient("no complete answer in time")
                    if len(body) > MAX_BODY:
                        raise ToolFailure("Wikipedia sent a page too large to read")
        except requests.exceptions.Timeout:
            raise _Transient("no answer in time") from None
        except requests.exceptions.ConnectionError as e:
            if time.monotonic() > deadline:
                raise _Transient("no answer in time") from None
            raise ToolFailure("Wikipedia did not answer (offline?)") from e
        return _Response(body)


class _Response:
    def __init__(self, body: bytes):
        self.body = body

    def json(self):
        return parse_json(self.body.decode("utf-8", "replace"))  # ValueError, whatever the body holds


class LiveWiki:
    """Live Wikipedia; every page and search kept in `db`, so a run made online replays offline with LocalWiki(db).

    `timeout` bounds one call, retries included; time-outs and server errors are retried with backoff. Expected
    failures are `ToolFailure`s, which the environment shows as the observation.
    """

    def __init__(self, db: str | Path | None = None, *, api_url: str | None = None, timeout: float = 10.0,
                 retries: int = 3, backoff: float = 0.5):
        import wikipedia  # imports BeautifulSoup and more: only when the live tool is asked for

        self.wp = wikipedia
        # the package defaults to plain http; the official endpoint, or a test server on loopback
        wikipedia.wikipedia.API_URL = api_url or "https://en.wikipedia.org/w/api.php"
        if not isinstance(wikipedia.wikipedia.requests, _Bounded):
            wikipedia.wikipedia.requests = _Bounded()
        self.http = wikipedia.wikipedia.requests
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.db = Path(db) if db else cache_dir() / "wiki" / "live.db"
        self.db.parent.mkdir(parents=True, exist_ok=True)
        if not self.db.exists():  # an empty database to fill, made whole or not at all
            write_atomic(self.db, lambda tmp: LocalWiki.create(tmp).close(), what="wiki database")
        self.local = LocalWiki(self.db)  # one connection, one lock, for reading and writing
        self.name = "live"

    def _call(self, fn, *args, **kw):
        """One bounded call: retried on transient failures while the deadline allows."""
        deadline = time.monotonic() + self.timeout
        last = "no answer"
        for attempt in range(self.retries):
            self.http.local.deadline = deadline
            try:
                with warnings.catch_warnings():  # the package's BeautifulSoup parser warning is noise here
                    warnings.simplefilter("ignore")
                    return fn(*args, **kw)
            except _Transient as e:
                last = str(e)
            except ValueError as e:  # 200 with a body that is not the API's JSON
                last = f"an answer we could not read ({type(e).__name__})"
            pause = self.backoff * 2 ** attempt
            if time.monotonic() + pause >= deadline:
                break
            time.sleep(pause)
        raise ToolFailure(f"Wikipedia did not answer (offline?): {last}, within {self.timeout:g} s")

    def page(self, title: str) -> Page | None:
        cached = self.local.page(title)
        if cached:
            return cached

        def fetch():  # the page and its text in one bounded call (the package loads content lazily)
            p = self.wp.page(title, auto_suggest=False)
            return p, p.content

        try:
            p, content = self._call(fetch)
            self.local.keep_page(p.title, live_text(content), [title] if _key(title) != _key(p.title) else [])
        except self.wp.exceptions.PageError:
            return None
        except self.wp.exceptions.DisambiguationError as e:
            self.local.keep_page(title, f"{title} may refer to:\n" + "\n".join(e.options))
        return self.local.page(title)

    def similar(self, query: str, k: int = 5) -> list[str]:
        hit = self.local.recorded_search(query)
        if hit is not None:
            return hit[:k]
        titles = self._call(self.wp.search, query, results=k)
        self.local.keep_search(query, titles)
        return titles


def live_text(content: str) -> str:
    """Page text from the API's plain-text extract, kept as the official code keeps a scraped page: paragraphs of
    more than two words, section headings dropped."""
    keep = [p.strip() for p in content.split("\n")
            if len(p.split(" ")) > 2 and not re.fullmatch(r"=+ .* =+", p.strip())]
    return "\n".join(keep)
