"""The model protocol and its backends: script, cassette, cache, the bundled local model, OpenAI-compatible HTTP."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import send_json

from react_teach import llm
from react_teach.llm import cut_at_stop, Cassette, CachedLLM, LLMError, ScriptLLM, from_spec


# ------------------------------------------------------------------------------------------------ script backend
def test_script_cuts_at_stop_like_a_server():
    s = ScriptLLM([" I search.\nAction 1: Search[X]\nObservation 1: invented", "second"])
    assert s.complete("Thought 1:", stop=["\nObservation 1:"])[0].text == " I search.\nAction 1: Search[X]"
    assert s.complete("next")[0].text == "second"


def test_script_exhausted_says_which_call():
    s = ScriptLLM(["only"])
    s.complete("a")
    with pytest.raises(LLMError, match=r"only 1 completions and call 2"):
        s.complete("prompt tail here")


def test_script_file_one_json_string_per_line(tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text('"a\\nb"\n\n"c"\n')
    m = from_spec(f"script:{f}")
    assert [m.complete("p")[0].text for _ in range(2)] == ["a\nb", "c"]
    f.write_text("not json\n")
    with pytest.raises(LLMError, match=r":1: each line must be one JSON string"):
        from_spec(f"script:{f}")


# ---------------------------------------------------------------------------------------------------- cassettes
def test_cassette_records_then_replays_exactly(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = Cassette(path, ScriptLLM(["one", "two"]))
    a = rec.complete("p1", stop=["\n"])
    b = rec.complete("p2", temperature=0.7, max_tokens=5)
    replay = from_spec(f"replay:{path}")
    assert replay.complete("p1", stop=["\n"])[0].text == a[0].text == "one"
    assert replay.complete("p2", temperature=0.7, max_tokens=5)[0].text == b[0].text == "two"
    # a different request is not on the cassette: the error names it
    with pytest.raises(LLMError, match=r"no recording of this request: stop=\['\\n'\], temperature=0.0.*'p3'"):
        replay.complete("p3", stop=["\n"])
    # nothing but requests and completions is written: no key, no header, no URL
    text = path.read_text()
    assert all(set(json.loads(line)) == {"key", "request", "completions"} for line in text.splitlines())
    assert "api_key" not in text and "Authorization" not in text
    assert [p.name for p in tmp_path.iterdir()] == ["c.jsonl"]  # atomic: no temporary file left behind


def test_replay_without_cassette_is_a_clear_error(tmp_path):
    with pytest.raises(LLMError, match="no cassette at"):
        from_spec(f"replay:{tmp_path / 'missing.jsonl'}")


# --------------------------------------------------------------------------------------------------------- cache
def test_cache_serves_temperature_zero_only(tmp_path):
    inner = ScriptLLM(["a", "b", "c"])
    m = CachedLLM(inner, tmp_path)
    assert m.complete("p")[0].text == "a"
    assert m.complete("p")[0].text == "a" and m.hits == 1 and inner.calls == 1
    assert m.complete("p", temperature=0.7)[0].text == "b"  # sampling is never cached
    assert m.complete("p", stop=["x"])[0].text == "c"  # another request, another entry
    assert not list(tmp_path.rglob(".*"))  # no half-written temporary files


def test_unknown_specs_and_missing_files(tmp_path):
    with pytest.raises(LLMError, match="unknown model spec 'gpt'"):
        from_spec("gpt")
    with pytest.raises(LLMError, match="no model file at"):
        from_spec(f"local:{tmp_path / 'nothing.gguf'}")
    with pytest.raises(LLMError, match="unknown bundled model 'tiny'"):
        from_spec("local:tiny")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf")
    with pytest.raises(LLMError, match="bad.gguf is not a GGUF file"):
        from_spec(f"local:{bad}")


def test_openai_without_key_says_so(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError, match="needs an API key"):
        from_spec("openai:gpt-4o-mini")


# ------------------------------------------------------------------------------------------- the bundled model
@pytest.mark.slow
def test_local_model_stops_and_reuses_its_kv_cache(local_llm):
    base = "Question: What is the capital of France?\nAnswer: Paris\nQuestion: What is the capital of Italy?\n"
    c1 = local_llm.complete(base + "Answer:", stop=["\n"], max_tokens=20)[0]
    assert "\n" not in c1.text and c1.usage.prompt_tokens > 20
    # the prompt only grows: the second call reuses every token it shares with the first
    grown = base + "Answer:" + c1.text + "\nQuestion: What is the capital of Spain?\nAnswer:"
    c2 = local_llm.complete(grown, stop=["\n"], max_tokens=20)[0]
    assert c2.usage.cached_tokens >= c1.usage.prompt_tokens - 1
    assert c2.usage.cached_tokens < c2.usage.prompt_tokens


@pytest.mark.slow
def test_local_model_samples_n_with_one_prefill(local_llm):
    prompt = "Write a word:" + " apple banana cherry" * 30
    outs = local_llm.complete(prompt, temperature=0.7, max_tokens=8, n=4)
    assert len(outs) == 4
    # sample 2..n find the whole prompt in the cache and recompute one token
    assert all(o.usage.cached_tokens == o.usage.prompt_tokens - 1 for o in outs[1:])


@pytest.mark.slow
def test_local_model_temperature_zero_is_repeatable(local_llm):
    p = "The three primary colours are"
    assert local_llm.complete(p, max_tokens=12)[0].text == local_llm.complete(p, max_tokens=12)[0].text


@pytest.mark.slow
def test_flash_attention_is_opt_in_and_never_reads_the_default_models_cache(local_llm, tmp_path):
    from react_teach.llm.local import LocalLLM
    assert local_llm.flash_attn is False  # the shipped figures were computed without it
    flash = LocalLLM(flash_attn=True)
    assert flash.identity == local_llm.identity + " flash-attn" and flash.name != local_llm.name
    # the default model's cached answer is not served to the flash one: its half-precision sums can give
    # another text, so it is asked itself
    p = "The three primary colours are"
    plain, fast = CachedLLM(local_llm, tmp_path), CachedLLM(flash, tmp_path)
    plain.complete(p, max_tokens=8)
    assert fast.complete(p, max_tokens=8)[0].usage.completion_tokens > 0 and fast.hits == 0
    assert len(list(tmp_path.rglob("*.json"))) == 2
    fast.complete(p, max_tokens=8)  # and its own answer is cached under its own key
    assert fast.hits == 1


@pytest.mark.slow
def test_prompt_longer_than_context_is_a_clear_error(local_llm):
    with pytest.raises(LLMError, match="exceeds the context window"):
        local_llm.complete("word " * 9000, max_tokens=10)


# ------------------------------------------------------------------------------ OpenAI-compatible, on loopback
@pytest.mark.slow
def test_openai_compatible_completion_mode_with_stop(llama_server):
    m = from_spec(f"openai-compatible:{llama_server}#smollm2", cache=False)
    assert m.mode == "completion"
    c = m.complete("Question: What is the capital of Italy?\nAnswer:", stop=["\n"], max_tokens=20)[0]
    assert "\n" not in c.text
    assert c.usage.prompt_tokens > 5 and c.usage.seconds > 0


@pytest.mark.slow
def test_openai_compatible_chat_mode(llama_server):
    m = from_spec(f"openai-compatible:{llama_server}#smollm2?mode=chat", cache=False)
    assert m.mode == "chat"
    outs = m.complete("Thought 1: I need to search", stop=["\nObservation 1:"], max_tokens=30)
    assert len(outs) == 1 and "\nObservation 1:" not in outs[0].text
    assert outs[0].usage.completion_tokens > 0


def test_unreachable_server_is_one_clear_message():
    from tests.conftest import free_port

    m = llm.OpenAILLM("m", base_url=f"http://127.0.0.1:{free_port()}/v1", timeout=2, max_retries=0)
    with pytest.raises(LLMError, match=r"cannot reach the server at http://127.0.0.1:\d+/v1; is it running\?"):
        m.complete("hi")


class _RefusesStop(BaseHTTPRequestHandler):
    """A server that rejects `stop`, as some do: 400 when the request names it, a completion otherwise."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(body)
        if "stop" in body:
            send_json(self, {"error": {"message": "Unrecognized request argument supplied: stop", "type": "x"}}, 400)
        else:
            send_json(self, {"id": "1", "object": "text_completion", "created": 0, "model": body["model"],
                             "choices": [{"index": 0, "text": " Search[X]\nObservation 1: invented",
                                          "finish_reason": "length", "logprobs": None}],
                             "usage": {"prompt_tokens": 3, "completion_tokens": 9, "total_tokens": 12}})

    def log_message(self, *a):
        pass


def test_server_that_rejects_stop_gets_the_cut_done_client_side():
    _RefusesStop.seen = []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _RefusesStop)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        m = from_spec(f"openai-compatible:http://127.0.0.1:{srv.server_port}/v1#m", cache=False)
        c = m.complete("Action 1:", stop=["\nObservation 1:"])[0]
        assert c.text == " Search[X]" and c.finish_reason == "stop"
        assert m.client_side_stop is True
        assert ["stop" in b for b in _RefusesStop.seen] == [True, False]
        m.complete("again", stop=["\n"])  # remembered: no second refusal
        assert ["stop" in b for b in _RefusesStop.seen] == [True, False, False]
    finally:
        srv.shutdown()


def test_default_reads_the_environment(monkeypatch, tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text('"hello"\n')
    monkeypatch.setenv("REACT_TEACH_LLM", f"script:{f}")
    assert llm.default().complete("x")[0].text == "hello"


# `cut_at_stop` cuts where a server would: at the FIRST stop sequence in the text, whichever stop it is.
def test_the_first_of_two_different_stops_wins_in_either_order():
    text = "Search[x]\nObservation 1: invented\nQuestion: another one"
    for stops in (["\nObservation 1:", "\nQuestion:"], ["\nQuestion:", "\nObservation 1:"]):
        assert cut_at_stop(text, stops) == ("Search[x]", True)


def test_a_stop_that_occurs_twice_cuts_at_its_first_occurrence():
    assert cut_at_stop("Finish[a]\nQuestion: b\nQuestion: c", ["\nQuestion:"]) == ("Finish[a]", True)


def test_no_stop_in_the_text_or_no_stops_at_all_keeps_it_whole():
    assert cut_at_stop("Finish[a]", ["\nQuestion:"]) == ("Finish[a]", False)
    assert cut_at_stop("Finish[a]\nQuestion: b", None) == ("Finish[a]\nQuestion: b", False)
    assert cut_at_stop("Finish[a]", ["", "\nQ"]) == ("Finish[a]", False)  # an empty stop never cuts
