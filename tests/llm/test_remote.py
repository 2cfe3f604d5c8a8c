"""The HTTP backend against fake servers on loopback: deadlines, size limits, keys, bad answers, and what the cache
and cassette keep. Every case here once crashed, hung or leaked (issue 16)."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import send_json

from react_teach.llm import Cassette, CachedLLM, LLMError, OpenAILLM, PromptError, ScriptLLM, from_spec


class Fake(BaseHTTPRequestHandler):
    """An OpenAI-compatible completions endpoint whose behaviour a test picks with `Fake.mode`."""

    mode, seen, text = "ok", [], " Paris"

    def do_POST(self):
        cls = type(self)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls.seen.append((dict(self.headers), body))
        choice = {"index": 0, "text": cls.text, "message": {"content": cls.text}, "finish_reason": "stop"}
        usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
        if cls.mode == "ok":
            send_json(self, {"choices": [choice], "usage": usage})
        elif cls.mode == "empty":
            send_json(self, {"choices": [], "usage": usage})
        elif cls.mode == "null":
            send_json(self, {"choices": [{"index": 0, "message": {"content": None}}], "usage": usage})
        elif cls.mode == "no-choices":
            send_json(self, {"object": "error?"})
        elif cls.mode == "garbage":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>hello</html>")
        elif cls.mode == "echo":  # an error page that repeats the request headers, key included
            send_json(self, {"error": {"message": f"bad request, you sent {dict(self.headers)}"}}, 500)
        elif cls.mode == "toolong":
            send_json(self, {"error": {"message": "This model's maximum context length is 8192 tokens"}}, 400)
        elif cls.mode in ("drip", "hang"):
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(60):
                    if cls.mode == "drip":
                        self.wfile.write(b" ")
                        self.wfile.flush()
                    time.sleep(0.25)
            except OSError:
                pass
        elif cls.mode == "huge":
            send_json(self, {"choices": [{**choice, "text": "x" * 5_000_000}], "usage": usage})

    def log_message(self, *a):
        pass


@pytest.fixture
def fake():
    Fake.mode, Fake.seen, Fake.text = "ok", [], " Paris"
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/v1"
    srv.shutdown()


def test_the_openai_key_never_goes_to_a_compatible_server(fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-openai")
    monkeypatch.delenv("REACT_TEACH_COMPATIBLE_KEY", raising=False)
    from_spec(f"openai-compatible:{fake}#m", cache=False).complete("Q")
    assert "Authorization" not in Fake.seen[-1][0]
    monkeypatch.setenv("REACT_TEACH_COMPATIBLE_KEY", "local-key")
    from_spec(f"openai-compatible:{fake}#m", cache=False).complete("Q")
    assert Fake.seen[-1][0]["Authorization"] == "Bearer local-key"


def test_server_error_text_is_shown_without_the_echoed_key(fake, monkeypatch):
    monkeypatch.setenv("REACT_TEACH_COMPATIBLE_KEY", "local-key-123")
    Fake.mode = "echo"
    m = OpenAILLM("m", base_url=fake, max_retries=0)
    with pytest.raises(LLMError) as e:
        m.complete("Q")
    assert "local-key-123" not in str(e.value) and "answered 500" in str(e.value)
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


@pytest.mark.parametrize("mode,error,message", [
    ("empty", LLMError, "no choices"), ("null", PromptError, "no text"),
    ("no-choices", LLMError, "not with a completion"), ("garbage", LLMError, "not with a completion"),
    ("toolong", PromptError, "refused this prompt \\(400\\): This model's maximum context")])
def test_a_bad_answer_is_one_clear_error_and_is_never_cached(fake, tmp_path, mode, error, message):
    Fake.mode = mode
    m = CachedLLM(OpenAILLM("m", base_url=fake, mode="chat" if mode == "null" else None), tmp_path)
    with pytest.raises(error, match=message):
        m.complete("Q")
    Fake.mode = "ok"  # the server is fixed: the next call asks it again and succeeds
    assert m.complete("Q")[0].text == " Paris" and m.hits == 0


def test_a_dripping_server_is_cut_off_at_the_deadline(fake):
    Fake.mode = "drip"
    started = time.perf_counter()
    with pytest.raises(LLMError, match="no complete answer within 1 s"):
        OpenAILLM("m", base_url=fake, timeout=1.0).complete("Q")
    assert time.perf_counter() - started < 2.0
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer)]  # the watchdog ended too


def test_a_silent_server_fails_once_within_the_timeout_not_once_per_retry(fake):
    Fake.mode = "hang"
    started = time.perf_counter()
    with pytest.raises(LLMError, match="no complete answer within 1 s"):
        OpenAILLM("m", base_url=fake, timeout=1.0, max_retries=2).complete("Q")
    assert time.perf_counter() - started < 2.0


def test_max_tokens_is_enforced_on_our_side_and_a_huge_body_refused(fake):
    Fake.text = "y" * 20_000
    c = OpenAILLM("m", base_url=fake).complete("Q", max_tokens=10)[0]
    assert len(c.text) <= 10 * 32 and c.finish_reason == "length"
    Fake.mode = "huge"
    with pytest.raises(LLMError, match="more than .* bytes"):
        OpenAILLM("m", base_url=fake).complete("Q", max_tokens=10)


# ------------------------------------------------------------------------------------------- files we keep
@pytest.mark.parametrize("stored", ["[]", "{}", '[{"text": 5}]', '[{"text": "a", "usage": {"x": 1}}]', "[1]",
                                    '"text"', "not json"])
def test_a_cache_file_of_the_wrong_shape_is_computed_again(tmp_path, stored):
    m = CachedLLM(ScriptLLM(["fresh"]), tmp_path)
    from react_teach.llm.cassette import request_key

    key = request_key(m.name, "p", None, 0.0, 100, 1)
    (tmp_path / key[:2]).mkdir()
    (tmp_path / key[:2] / f"{key}.json").write_text(stored)
    assert m.complete("p")[0].text == "fresh"
    assert m.complete("p")[0].text == "fresh" and m.hits == 1  # and the bad entry is replaced


def test_a_cache_folder_we_cannot_use_is_refused_before_any_model_call(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("REACT_TEACH_CACHE", str(tmp_path / "file" / "cache"))
    with pytest.raises(LLMError, match="REACT_TEACH_CACHE"):
        from_spec("script:", completions=["a"], cache=False) and CachedLLM(ScriptLLM(["a"]))


def test_record_to_a_bad_path_fails_before_the_model_is_asked(tmp_path):
    (tmp_path / "file").write_text("x")
    inner = ScriptLLM(["paid answer"])
    with pytest.raises(LLMError, match="cannot use the folder"):
        Cassette(tmp_path / "file" / "tape.jsonl", inner)
    assert inner.calls == 0
    with pytest.raises(LLMError, match="is a folder"):
        from_spec(f"replay:{tmp_path}")


def test_a_cassette_with_blank_lines_replays(tmp_path):
    path = tmp_path / "c.jsonl"
    Cassette(path, ScriptLLM(["one"])).complete("p1")
    path.write_text("\n" + path.read_text() + "\n\n")
    assert from_spec(f"replay:{path}").complete("p1")[0].text == "one"


def test_script_lines_must_be_strings(tmp_path):
    f = tmp_path / "s.jsonl"
    for bad in ('["a", "b"]', '{"text": "a"}', "5"):
        f.write_text(bad + "\n")
        with pytest.raises(LLMError, match=":1: each line must be one JSON string"):
            from_spec(f"script:{f}")


def test_a_compatible_spec_without_model_is_refused():
    for spec in ("openai-compatible:http://x/v1#", "openai-compatible:http://x/v1#m?temperature=1", "record:x"):
        with pytest.raises(LLMError):
            from_spec(spec)
