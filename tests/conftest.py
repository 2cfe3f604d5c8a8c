"""Shared fixtures: the bundled model (loaded once), a real llama.cpp OpenAI-compatible server on loopback,
and the real public data in ../shared/real (tests that need it skip when it is absent)."""
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Tests never read or fill the learner's cache: every run starts from nothing."""
    os.environ["REACT_TEACH_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def real():
    if not REAL.exists():
        pytest.skip("the real public data (shared/real beside the checkout) is not here")
    return REAL


@pytest.fixture(scope="session")
def local_llm():
    from react_teach import llm
    return llm.from_spec("local", cache=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    """`python -m llama_cpp.server` serving the bundled model on loopback; yields its base URL."""
    from react_teach.llm import bundled_path
    from react_teach.llm.local import SERVER

    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = subprocess.Popen([sys.executable, *SERVER, "--model", str(bundled_path()),
                             "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
                             "--n_ctx", "8192", "--verbose", "False"],
                            stdout=open(log, "w"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.time() + 120
    while True:
        try:
            urllib.request.urlopen(base + "/models", timeout=2).read()
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                raise RuntimeError("llama_cpp.server did not start:\n" + log.read_text()[-2000:])
            time.sleep(0.5)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


def send_json(handler, obj, code: int = 200) -> None:
    """Answer an http.server request with a JSON body (the fake servers on loopback share this)."""
    import json

    data = json.dumps(obj).encode()
    handler.send_response(code)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class Loopback:
    """An OpenAI-compatible server on 127.0.0.1 that answers what a test decides: `reply(path, body)` returns
    (status, JSON-able object, or bytes sent as they are). Every request's path and body is kept in `requests`.

        with Loopback(lambda path, body: (200, {"choices": [{"text": " Paris"}]})) as server:
            OpenAILLM("m", base_url=server.url).complete("Q")
    """

    def __init__(self, reply):
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        outer = self
        self.reply, self.requests = reply, []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((self.path, body))
                status, answer = outer.reply(self.path, body)
                if isinstance(answer, bytes):
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                else:
                    send_json(self, answer, status)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def cli(*args, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    """`python -m react_teach ARGS` in a real process (the test's own cache folder, no key from the caller)."""
    full = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "REACT_TEACH_COMPATIBLE_KEY",
                                                             "REACT_TEACH_LLM")}
    return subprocess.run([sys.executable, "-m", "react_teach", *map(str, args)], env={**full, **(env or {})},
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def one_line_refusal(p: subprocess.CompletedProcess) -> str:
    """The one line a refused command printed (exit 2, no traceback)."""
    assert p.returncode == 2, (p.returncode, p.stdout[-500:], p.stderr[-2000:])
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr[-2000:]
    return p.stderr
