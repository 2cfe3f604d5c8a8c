"""OpenAI, or any server that speaks its API (Ollama, vLLM, llama.cpp's server), through the `openai` SDK with hard
limits on top.

The SDK does the protocol: the requests, retries with backoff, parsing and typed errors. What a course run
unattended also needs, the SDK leaves to its HTTP client, so `client()` gives it an httpx2 client whose transport
(`Bounded`) adds it:

- one overall deadline per call, retries included: the SDK's own `timeout` is per phase, so a server that drips a
  byte every few seconds would never time out;
- a cap on the size of the answer (and `OpenAILLM` cuts a completion longer than `max_tokens` allows);
- the one key this model owns, sent to the one host it belongs to, whatever else is in the environment.

Every call runs inside `limits(seconds, max_bytes)`; errors come back as one line without anything the server
echoed of our key.

    >>> OpenAILLM("llama3", base_url="http://127.0.0.1:11434/v1").name
    'openai-compatible:http://127.0.0.1:11434/v1#llama3'
    >>> c = client("http://127.0.0.1:11434/v1", key="")
    >>> type(c).__name__, str(c.base_url)
    ('OpenAI', 'http://127.0.0.1:11434/v1/')
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass

import httpx2
import openai

from react_teach.trajectory import Usage, one_line
from react_teach.llm import Completion, LLMError, PromptError, cut_at_stop, hide_credentials

OPENAI_URL = "https://api.openai.com/v1"
# The recipe for chat models: the whole transcript goes in one user message, and the model is told to continue it.
# Stop sequences still work on chat endpoints; if a model writes several steps anyway, the cut at the stop keeps
# only the first, exactly as for a completion model.
CHAT_SYSTEM = ("Continue the text the user sends, exactly where it stops, in the same format. "
               "Write only the continuation, never repeat the text you were given.")
CHARS_PER_TOKEN = 32  # no tokenizer here: a completion longer than max_tokens * 32 characters is cut to that
BODY_BYTES_PER_TOKEN = 256  # JSON escapes can turn one character into six bytes; beyond this the body is refused
# Headers that carry a credential or name an OpenAI account. The SDK fills them from the environment
# (OPENAI_API_KEY, OPENAI_ORG_ID, OPENAI_CUSTOM_HEADERS, ...); the transport replaces them with the model's own.
CREDENTIALS = ("authorization", "openai-organization", "openai-project", "x-api-key", "api-key")
PIECE = 8  # any run of this many characters of our key, echoed by a server, is blanked out as if it were all of it


# -- the limits of one call, and how the transport stops it. The errors subclass openai.OpenAIError on purpose:
# the SDK passes its own errors straight up instead of retrying them, so an expired deadline ends the call at once.
class OutOfTime(openai.OpenAIError):
    """The overall time for one call ran out."""


class Refused(openai.OpenAIError):
    """The answer broke a limit (too large, compressed when asked not to be) or the request left its host."""


@dataclass(frozen=True)
class Limits:
    deadline: float  # time.monotonic() by which the whole call, retries included, must be done
    max_bytes: int  # the most one answer's body may hold


_LIMITS: contextvars.ContextVar[Limits | None] = contextvars.ContextVar("react_teach_limits", default=None)


@contextlib.contextmanager
def limits(seconds: float, max_bytes: int):
    """Every request the SDK makes inside this block shares one deadline and obeys one size cap (per thread)."""
    token = _LIMITS.set(Limits(time.monotonic() + seconds, max_bytes))
    try:
        yield
    finally:
        _LIMITS.reset(token)


class Bounded(httpx2.BaseTransport):
    """An httpx2 transport that enforces the current `limits` and sends only `key`, only to `base_url`'s host."""

    def __init__(self, base_url: str, key: str):
        u = httpx2.URL(base_url)
        self.origin, self.key = (u.scheme, u.host, u.port), key
        self.openai = u.host == "api.openai.com"
        self.inner = httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        lim = _LIMITS.get()
        if lim is None:
            raise RuntimeError("a request through remote.client() outside `with remote.limits(...)`")
        if (request.url.scheme, request.url.host, request.url.port) != self.origin:
            raise Refused(f"a request to {request.url.host} instead of {self.origin[1]}; not sent")
        for name in CREDENTIALS:
            if not (self.openai and name.startswith("openai-")):  # an account name is OpenAI's business only
                request.headers.pop(name, None)
        if self.key:
            request.headers["Authorization"] = f"Bearer {self.key}"
        request.headers["Accept-Encoding"] = "identity"  # the cap counts what we hold: no gzip bombs
        left = lim.deadline - time.monotonic()
        if left <= 0:
            raise OutOfTime()
        # Each phase may take at most what is left of the whole call, so a phase timing out is the deadline.
        request.extensions["timeout"] = dict.fromkeys(("connect", "read", "write", "pool"), left)
        try:
            response = self.inner.handle_request(request)
        except httpx2.TimeoutException:
            raise OutOfTime() from None
        if response.status_code == 429 or response.status_code >= 500:
            _retry_only_in_time(response, lim)
        if response.headers.get("content-encoding", "identity").lower() != "identity":
            response.close()
            raise Refused("the server compressed its answer though asked not to; refused")
        response.stream = _Capped(response, lim)
        return response

    def close(self) -> None:
        self.inner.close()


def _retry_only_in_time(response: httpx2.Response, lim: Limits) -> None:
    """Tell the SDK not to retry (its documented x-should-retry header) when its wait would pass the deadline:
    it waits up to 8 s between tries, or as long as the server's Retry-After asks."""
    try:
        wait = float(response.headers.get("retry-after", "8"))
    except ValueError:
        wait = 8.0  # a date, or nonsense: assume the longest backoff
    if time.monotonic() + wait >= lim.deadline:
        response.headers["x-should-retry"] = "false"


class _Capped(httpx2.SyncByteStream):
    """The body, read until the size cap or the deadline. At the deadline a watchdog shuts the socket: a read
    timeout alone restarts with every byte, so a slow drip would go on."""

    def __init__(self, response: httpx2.Response, lim: Limits):
        self.inner, self.lim = response.stream, lim
        sock = (response.extensions.get("network_stream") or _NoStream()).get_extra_info("socket")
        self.watchdog = threading.Timer(max(0.0, lim.deadline - time.monotonic()), _shut, (sock,)) if sock else None
        if self.watchdog:
            self.watchdog.start()

    def __iter__(self):
        size = 0
        try:
            for chunk in self.inner:
                size += len(chunk)
                if size > self.lim.max_bytes:
                    raise Refused(f"the server sent more than {self.lim.max_bytes} bytes for one call; refused")
                if time.monotonic() >= self.lim.deadline:
                    raise OutOfTime()
                yield chunk
        except httpx2.HTTPError:
            if time.monotonic() >= self.lim.deadline:  # the watchdog shut the socket, or the read timed out
                raise OutOfTime() from None
            raise

    def close(self) -> None:
        if self.watchdog:
            self.watchdog.cancel()
            self.watchdog.join()  # no thread outlives its call
        self.inner.close()


class _NoStream:
    def get_extra_info(self, name):
        return None


def _shut(sock) -> None:
    try:
        sock.shutdown(2)  # SHUT_RDWR: wakes a blocked read at once, unlike close()
    except OSError:
        pass  # already closed: the call finished as the deadline came


def client(base_url: str, key: str, max_retries: int = 2) -> openai.OpenAI:
    """The SDK's client for `base_url`, sending `key` (or no key when it is empty) and nothing else, through
    `Bounded`. Call it inside `with limits(...)`; notebook 13's tools API uses the same client."""
    check_url(base_url)
    http = httpx2.Client(transport=Bounded(base_url, key), follow_redirects=False, trust_env=False)
    # The SDK insists on a key and would read OPENAI_API_KEY when given none: give it a placeholder, which the
    # transport replaces with the real key or removes.
    return openai.OpenAI(base_url=base_url, api_key=key or "none", http_client=http, max_retries=max_retries)


def keys(base_url: str | None, api_key: str | None) -> str:
    """The key for a server: OPENAI_API_KEY for api.openai.com only, REACT_TEACH_COMPATIBLE_KEY (or none) for any
    other server."""
    if base_url:
        return api_key or os.environ.get("REACT_TEACH_COMPATIBLE_KEY") or ""
    key = api_key or os.environ.get("OPENAI_API_KEY")
    if not key:
        raise LLMError("openai:MODEL needs an API key: set OPENAI_API_KEY (or use a local server with "
                       "openai-compatible:BASE_URL#MODEL)")
    return key


def mask(text: str, key: str | None) -> str:
    """`text` with our key blanked out however the server echoed it: whole, broken across lines or spaces, or in
    pieces of `PIECE` characters or more (a server that cuts its own message leaves part of a key). It runs on the
    server's text before anything cuts or joins it: a cut first leaves half a key that no replace finds again.

    >>> mask("bad key sk-abcdef\\nghijkl, try again", "sk-abcdefghijkl")
    'bad key ***, try again'
    >>> mask("you sent: ...efghijkl", "sk-abcdefghijkl")
    'you sent: ...***'
    """
    text = str(text)
    if not key:
        return text
    text = re.sub(r"\s*".join(map(re.escape, key)), "***", text)
    n = min(PIECE, len(key))
    pieces = {key[i:i + n] for i in range(len(key) - n + 1)}
    hidden = bytearray(len(text))
    for i in range(len(text) - n + 1):
        if text[i:i + n] in pieces:
            hidden[i:i + n] = b"\1" * n
    out, k = [], 0
    while k < len(text):
        if hidden[k]:
            while k < len(text) and hidden[k]:
                k += 1
            out.append("***")
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def server_message(e: openai.APIStatusError, key: str) -> str:
    """The server's own message, one line, at most 200 characters, our key blanked out before the text is joined
    into one line or cut (a key cut in half, or split by a line break, would show)."""
    body = e.body
    msg = body.get("message") if isinstance(body, dict) and "message" in body else None
    if msg is None:
        try:
            msg = e.response.text
        except (httpx2.HTTPError, UnicodeDecodeError):
            msg = ""
    return one_line(mask(msg, key)).strip()[:200]


def check_url(base_url: str | None) -> None:
    """Refuse a base URL that carries a user name or password: it would be written wherever the model's name is
    (run headers, cassettes, error messages). The message shows the URL without them."""
    if base_url and urllib.parse.urlsplit(base_url).netloc.rpartition("@")[1]:
        raise LLMError(f"{hide_credentials(base_url)}: a user name or password in the URL would be written into "
                       "run files and messages; give the key in REACT_TEACH_COMPATIBLE_KEY instead")


def translate(e: Exception, name: str, key: str, base_url: str | None, timeout: float,
              missing: str = "no such model") -> LLMError:
    """One clear LLMError (PromptError when the prompt itself was refused) for an SDK error; `missing` says
    what a 404 means."""
    if isinstance(e, OutOfTime):
        return LLMError(f"{name}: no complete answer within {timeout:g} s")
    if isinstance(e, Refused):
        return LLMError(f"{name}: {e}")
    if isinstance(e, openai.APITimeoutError):
        return LLMError(f"{name}: no complete answer within {timeout:g} s")
    if isinstance(e, openai.APIConnectionError):
        where = f" at {hide_credentials(base_url)}" if base_url else ""
        cause = type(e.__cause__).__name__ if e.__cause__ else type(e).__name__
        return LLMError(f"{name}: cannot reach the server{where}; is it running? ({cause})")
    if isinstance(e, openai.APIStatusError):
        status = e.status_code
        if status in (401, 403):
            return LLMError(f"{name}: the server rejected the API key ({status})")
        if status == 404:
            return LLMError(f"{name}: the server has {missing}")
        if status in (400, 413, 422):
            return PromptError(f"{name}: the server refused this prompt ({status}): {server_message(e, key)}")
        return LLMError(f"{name}: the server answered {status}: {server_message(e, key)}")
    return LLMError(f"{name}: {type(e).__name__}")


class OpenAILLM:
    """OpenAI or an OpenAI-compatible server. `mode` is "chat" or "completion" (raw text continuation, as the paper).

    Keys: ``openai:MODEL`` sends OPENAI_API_KEY to api.openai.com only; a compatible server gets
    REACT_TEACH_COMPATIBLE_KEY (or `api_key`), never the OpenAI key. `timeout` bounds a whole call, retries included
    (120 s: a CPU server may take a minute to read a long prompt).
    """

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 mode: str | None = None, timeout: float = 120.0, max_retries: int = 2):
        if mode is None:
            completion_only = ("instruct", "davinci", "babbage")
            mode = "completion" if base_url or any(w in model for w in completion_only) else "chat"
        check_url(base_url)  # first: every message below may show the URL
        if mode not in ("chat", "completion"):
            raise LLMError(f"mode must be chat or completion, not {mode!r}")
        url = urllib.parse.urlsplit(base_url or OPENAI_URL)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise LLMError(f"{base_url!r} is not an http(s) URL, like http://localhost:11434/v1")
        self.key = keys(base_url, api_key)
        self.model, self.mode, self.base_url = model, mode, base_url
        self.timeout, self.max_retries = timeout, max_retries
        self.name = f"openai-compatible:{base_url}#{model}" if base_url else f"openai:{model}"
        self.client_side_stop = False  # set when a server refuses `stop`: then we cut the text ourselves
        self.client = client(base_url or OPENAI_URL, self.key, max_retries)

    def _create(self, prompt, stop, temperature, max_tokens, n):
        extra = {"stop": list(stop)[:4]} if stop and not self.client_side_stop else {}  # OpenAI accepts four
        if self.mode == "chat":
            messages = [{"role": "system", "content": CHAT_SYSTEM}, {"role": "user", "content": prompt}]
            return self.client.chat.completions.create(model=self.model, messages=messages, temperature=temperature,
                                                       max_tokens=max_tokens, n=n, **extra)
        return self.client.completions.create(model=self.model, prompt=prompt, temperature=temperature,
                                              max_tokens=max_tokens, n=n, **extra)

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        """Exactly `n` completions, each cut at the first stop sequence on our side too (a server may ignore
        `stop`). A server that sends more choices than asked has the extra ones dropped; one that sends fewer (many
        ignore `n`) is asked again for the rest."""
        started = time.perf_counter()
        texts, usage = [], Usage()
        while len(texts) < n:
            more, u = self._ask(prompt, stop, temperature, max_tokens, n - len(texts))
            texts, usage = texts + more[: n - len(texts)], usage + u
        usage.seconds = time.perf_counter() - started
        out = []
        for i, (text, reason) in enumerate(texts):
            text, cut = cut_at_stop(text, stop)
            # usage covers the whole request: give it to the first completion so sums stay right
            out.append(Completion(text, usage if i == 0 else Usage(), "stop" if cut else reason))
        return out

    def _ask(self, prompt, stop, temperature, max_tokens, n):
        with limits(self.timeout, 65536 + n * max_tokens * BODY_BYTES_PER_TOKEN):
            try:
                try:
                    r = self._create(prompt, stop, temperature, max_tokens, n)
                except openai.BadRequestError as e:
                    if not (stop and not self.client_side_stop and "stop" in server_message(e, self.key).lower()):
                        raise
                    # This server refuses stop sequences: ask without them (the cut in `complete` does the rest).
                    self.client_side_stop = True
                    r = self._create(prompt, stop, temperature, max_tokens, n)
            except openai.OpenAIError as e:
                raise translate(e, self.name, self.key, self.base_url, self.timeout,
                                f"no model {self.model!r} (or no {self.mode} endpoint)") from None
        return self._parse(r, max_tokens)

    def _parse(self, r, max_tokens: int) -> tuple[list[tuple[str, str]], Usage]:
        """Texts and usage from what the SDK built. It builds without validating (servers differ), and gives back
        the bare text when the answer was not JSON, so every field is checked here."""
        choices = getattr(r, "choices", None)
        if not isinstance(choices, list):
            shown = r if isinstance(r, str) else json.dumps(r.to_dict() if hasattr(r, "to_dict") else str(r))
            raise LLMError(f"{self.name}: the server answered 200 but not with a completion: "
                           f"{one_line(mask(shown, self.key))[:80]!r}")
        if not choices:
            raise LLMError(f"{self.name}: the server answered with no choices")
        texts = []
        for c in choices:
            text = getattr(getattr(c, "message", None), "content", None) if self.mode == "chat" \
                else getattr(c, "text", None)
            if not isinstance(text, str):
                raise PromptError(f"{self.name}: the server gave no text for this prompt")
            reason = getattr(c, "finish_reason", None) or "stop"
            if len(text) > max_tokens * CHARS_PER_TOKEN:  # max_tokens enforced on our side too
                text, reason = text[: max_tokens * CHARS_PER_TOKEN], "length"
            texts.append((text, reason))
        u = getattr(r, "usage", None)
        details = getattr(u, "prompt_tokens_details", None)
        return texts, Usage(_int(getattr(u, "prompt_tokens", 0)), _int(getattr(details, "cached_tokens", 0)),
                            _int(getattr(u, "completion_tokens", 0)))


def _int(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0
