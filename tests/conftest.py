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

    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(bundled_path()),
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
