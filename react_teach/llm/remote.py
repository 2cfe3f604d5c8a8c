"""OpenAI, or any server that speaks its API (Ollama, vLLM, llama.cpp's server), over plain HTTP with hard limits.

We speak the two JSON endpoints ourselves instead of through an SDK, because a course that runs unattended needs
guarantees an SDK does not give: one overall deadline per call (a server that drips a byte every few seconds is
cut off), a cap on the body size and on the completion's length, keys sent only to the host they belong to, and
error text shown without anything the server may have echoed back.

    >>> OpenAILLM("llama3", base_url="http://127.0.0.1:11434/v1").name
    'openai-compatible:http://127.0.0.1:11434/v1#llama3'
"""
from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time
import urllib.parse

from react_teach.trajectory import Usage, one_line
from react_teach.llm import Completion, LLMError, PromptError, cut_at_stop

OPENAI_URL = "https://api.openai.com/v1"
# The recipe for chat models: the whole transcript goes in one user message, and the model is told to continue it.
# Stop sequences still work on chat endpoints; if a model writes several steps anyway, the cut at the stop keeps
# only the first, exactly as for a completion model.
CHAT_SYSTEM = ("Continue the text the user sends, exactly where it stops, in the same format. "
               "Write only the continuation, never repeat the text you were given.")
CHARS_PER_TOKEN = 32  # no tokenizer here: a completion longer than max_tokens * 32 characters is cut to that
BODY_BYTES_PER_TOKEN = 256  # JSON escapes can turn one character into six bytes; beyond this the body is refused


class Deadline(Exception):
    """The overall time for one call ran out (the socket was shut by the watchdog)."""


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
        if mode not in ("chat", "completion"):
            raise LLMError(f"mode must be chat or completion, not {mode!r}")
        url = urllib.parse.urlsplit(base_url or OPENAI_URL)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise LLMError(f"{base_url!r} is not an http(s) URL, like http://localhost:11434/v1")
        if base_url:
            self.key = api_key or os.environ.get("REACT_TEACH_COMPATIBLE_KEY")
        else:
            self.key = api_key or os.environ.get("OPENAI_API_KEY")
            if not self.key:
                raise LLMError("openai:MODEL needs an API key: set OPENAI_API_KEY (or use a local server with "
                               "openai-compatible:BASE_URL#MODEL)")
        self.url, self.model, self.mode, self.base_url = url, model, mode, base_url
        self.timeout, self.max_retries = timeout, max_retries
        self.name = f"openai-compatible:{base_url}#{model}" if base_url else f"openai:{model}"
        self.client_side_stop = False  # set when a server refuses `stop`: then we cut the text ourselves

    # -- one HTTP exchange, bounded in time and size
    def _post(self, path: str, body: dict, deadline: float, limit: int) -> tuple[int, bytes]:
        u = self.url
        conn_cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
        conn = conn_cls(u.hostname, u.port, timeout=max(0.01, deadline - time.monotonic()))
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        watchdog = None
        try:
            conn.connect()
            sock = conn.sock
            # A watchdog shuts the socket at the deadline: a per-read timeout alone lets a slow drip go on forever.
            watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, (sock,))
            watchdog.start()
            conn.request("POST", u.path.rstrip("/") + path, json.dumps(body), headers)
            r = conn.getresponse()
            data = b""
            while chunk := r.read1(65536):
                data += chunk
                if len(data) > limit:
                    raise LLMError(f"{self.name}: the server sent more than {limit} bytes for one call; refused")
            if time.monotonic() >= deadline:
                raise Deadline()
            return r.status, data
        except (OSError, http.client.HTTPException):
            if time.monotonic() >= deadline:
                raise Deadline() from None
            raise
        finally:
            if watchdog is not None:
                watchdog.cancel()
                watchdog.join()  # no thread outlives its call
            conn.close()

    def _request(self, body: dict, limit: int) -> tuple[int, bytes]:
        """POST with retries on refused connections, 429 and 5xx, all within one deadline."""
        path = "/chat/completions" if self.mode == "chat" else "/completions"
        deadline = time.monotonic() + self.timeout
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                status, data = self._post(path, body, deadline, limit)
            except Deadline:
                raise LLMError(f"{self.name}: no complete answer within {self.timeout:g} s") from None
            except (OSError, http.client.HTTPException) as e:
                if last or time.monotonic() + 0.5 * 2 ** attempt >= deadline:
                    where = f" at {self.base_url}" if self.base_url else ""
                    raise LLMError(f"{self.name}: cannot reach the server{where}; is it running? "
                                   f"({type(e).__name__})") from None
            else:
                if not (status == 429 or status >= 500) or last or time.monotonic() + 0.5 * 2 ** attempt >= deadline:
                    return status, data
            time.sleep(0.5 * 2 ** attempt)
        raise AssertionError("unreachable")  # the last attempt always returns or raises

    def _error(self, status: int, data: bytes) -> str:
        """The server's own message, one line, at most 200 characters, with our key blanked out if echoed."""
        try:
            msg = json.loads(data)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            msg = data.decode("utf-8", "replace")
        msg = one_line(str(msg)).strip()[:200]
        return msg.replace(self.key, "***") if self.key else msg

    def _call(self, prompt, stop, temperature, max_tokens, n):
        body = dict(model=self.model, temperature=temperature, max_tokens=max_tokens, n=n)
        if stop and not self.client_side_stop:
            body["stop"] = list(stop)[:4]  # OpenAI accepts at most four
        if self.mode == "chat":
            body["messages"] = [{"role": "system", "content": CHAT_SYSTEM}, {"role": "user", "content": prompt}]
        else:
            body["prompt"] = prompt
        return self._request(body, 65536 + n * max_tokens * BODY_BYTES_PER_TOKEN)

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        started = time.perf_counter()
        status, data = self._call(prompt, stop, temperature, max_tokens, n)
        if status == 400 and stop and not self.client_side_stop and "stop" in self._error(status, data).lower():
            # This server refuses stop sequences: ask without them and cut at the stop ourselves.
            self.client_side_stop = True
            status, data = self._call(prompt, stop, temperature, max_tokens, n)
        if status in (401, 403):
            raise LLMError(f"{self.name}: the server rejected the API key ({status})")
        if status == 404:
            raise LLMError(f"{self.name}: the server has no model {self.model!r} (or no {self.mode} endpoint)")
        if status in (400, 413, 422):
            raise PromptError(f"{self.name}: the server refused this prompt ({status}): {self._error(status, data)}")
        if status != 200:
            raise LLMError(f"{self.name}: the server answered {status}: {self._error(status, data)}")
        texts, usage = self._parse(data, max_tokens)
        usage.seconds = time.perf_counter() - started
        out = []
        for i, (text, reason) in enumerate(texts):
            text, cut = cut_at_stop(text, stop) if self.client_side_stop else (text, False)
            # usage covers the whole request: give it to the first completion so sums stay right
            out.append(Completion(text, usage if i == 0 else Usage(), "stop" if cut else reason))
        return out

    def _parse(self, data: bytes, max_tokens: int) -> tuple[list[tuple[str, str]], Usage]:
        try:
            r = json.loads(data)
            choices = r["choices"]
            if not isinstance(choices, list):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            raise LLMError(f"{self.name}: the server answered 200 but not with a completion: "
                           f"{one_line(data[:80].decode('utf-8', 'replace'))!r}") from None
        if not choices:
            raise LLMError(f"{self.name}: the server answered with no choices")
        texts = []
        for c in choices:
            text = (c.get("message") or {}).get("content") if self.mode == "chat" else c.get("text")
            if not isinstance(text, str):
                raise PromptError(f"{self.name}: the server gave no text for this prompt")
            reason = c.get("finish_reason") or "stop"
            if len(text) > max_tokens * CHARS_PER_TOKEN:  # max_tokens enforced on our side too
                text, reason = text[: max_tokens * CHARS_PER_TOKEN], "length"
            texts.append((text, reason))
        u = r.get("usage") if isinstance(r.get("usage"), dict) else {}
        details = u.get("prompt_tokens_details") if isinstance(u.get("prompt_tokens_details"), dict) else {}
        return texts, Usage(_int(u.get("prompt_tokens")), _int(details.get("cached_tokens")),
                            _int(u.get("completion_tokens")))


def _int(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked read at once, unlike close()
    except OSError:
        pass  # already closed: the call finished as the deadline came
