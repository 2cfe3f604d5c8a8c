"""Tools after ReAct: tool calling on the same environment, and a calculator that is safe."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import send_json

from react_teach.tools.calculator import calculate, calculator_tool
from react_teach.tools.calling import local_chat, openai_chat, tool_calling, trained_chat
from react_teach.data import load_exemplars
from react_teach.llm import LLMError, Usage
from react_teach.trajectory import Trajectory
from react_teach.wiki import LocalWiki


@pytest.fixture(scope="module")
def wiki():
    return LocalWiki.course()


@pytest.mark.parametrize("expr,value", [("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 ** 10", 1024), ("-4 // 3", -2),
                                        ("7 % 4", 3), ("1.5 * 2", 3.0), ("2 ** -1", 0.5)])
def test_calculator_does_arithmetic(expr, value):
    assert calculate(expr) == value


@pytest.mark.parametrize("expr,message", [
    ("__import__('os').system('id')", "not Call"),
    ("(1).__class__", "not Attribute"),
    ("import os", "not an arithmetic expression"),
    ("x + 1", "not Name"),
    ("9 ** 9 ** 9", "exponent 387420489 is too large"),
    ("10 ** 99 * 10 ** 99", "the result is too large"),
    ("1 + " * 100 + "1", "characters long; the limit is 200"),
    ("1 / 0", "division by zero"),
    ("'a' * 3", "not Constant"),
    ("[1, 2]", "not List"),
])
def test_calculator_refuses_everything_else_with_a_clear_message(expr, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("*", r"\*")):
        calculate(expr)


def test_calculator_as_a_tool_never_raises():
    assert calculator_tool("calculate[6 * 7]") == "42"
    assert calculator_tool("calculate[open('x')]").startswith("Calculator error: the calculator accepts")
    assert calculator_tool("compute[1]") == "Invalid action: compute[1]"


def test_tool_calling_loop_uses_the_same_environment(wiki):
    script = [("search", {"entity": "Arthur's Magazine"}), ("lookup", {"keyword": "1844"}),
              ("finish", {"answer": "Arthur's Magazine"})]

    def chat(messages, tools):
        name, args = script[sum(m["role"] == "tool" for m in messages)]
        return ({"role": "assistant", "content": None,
                 "tool_calls": [{"id": "c", "type": "function",
                                 "function": {"name": name, "arguments": json.dumps(args)}}]}, Usage(10, 0, 5))

    t = tool_calling("Which magazine was started first?", chat, wiki)
    assert [s.action for s in t.steps] == ["search[Arthur's Magazine]", "lookup[1844]", "finish[Arthur's Magazine]"]
    assert t.steps[0].observation.startswith("Arthur's Magazine was an American literary periodical")
    assert t.steps[1].observation.startswith("(Result 1 / 1)")
    assert t.answer == "Arthur's Magazine" and t.n_calls == 3 and t.usage.prompt_tokens == 30


def test_trained_chat_writes_the_transcript_the_model_learned_and_parses_its_action_into_a_call(wiki):
    from react_teach.llm import Recorder, ScriptLLM
    model = Recorder(ScriptLLM([" I need to search Arthur's Magazine.\nAction 1: Search[Arthur's Magazine]",
                                " It started in 1844.\nAction 2: Finish[Arthur's Magazine]"]))
    t = tool_calling("Which magazine was started first?", trained_chat(llm=model), wiki)
    assert [s.action for s in t.steps] == ["search[Arthur's Magazine]", "finish[Arthur's Magazine]"]
    assert t.steps[0].thought == "I need to search Arthur's Magazine." and t.answer == "Arthur's Magazine"
    second = model.requests[1][0]  # the zero-shot ReAct transcript, the call and its result written back as text
    assert second.startswith("Question: Which magazine was started first?\nThought 1: I need to search Arthur's")
    assert "\nAction 1: Search[Arthur's Magazine]\nObservation 1: Arthur's Magazine was" in second
    assert second.endswith("\nThought 2:") and model.requests[1][1]["stop"] == ["\nObservation 2:"]


def test_trained_chat_returns_plain_text_when_the_model_writes_no_action(wiki):
    from react_teach.llm import ScriptLLM
    t = tool_calling("Which magazine was started first?", trained_chat(llm=ScriptLLM([" I am not sure."])), wiki)
    assert t.steps[0].action is None and t.steps[0].thought == "I am not sure." and not t.extra["finished"]


@pytest.mark.slow
def test_grammar_constrained_tool_calls_on_the_bundled_model(wiki):
    t = tool_calling("Which magazine was started first, Arthur's Magazine or First for Women?", local_chat(), wiki,
                     max_calls=3)
    assert 1 <= len(t.steps) <= 3 and t.n_calls == len(t.steps)
    for s in t.steps:  # the grammar makes every call well formed: a known tool with its one argument
        if s.action is not None:
            assert s.action.split("[", 1)[0] in ("search", "lookup", "finish") and s.action.endswith("]")
            assert not s.observation.startswith("Invalid action")


@pytest.mark.slow
def test_local_chat_reuses_the_model_the_course_already_loaded(local_llm, monkeypatch):
    import llama_cpp

    loads = []
    real = llama_cpp.Llama

    class Counting(real):
        def __init__(self, *a, **kw):
            loads.append(kw.get("model_path"))
            super().__init__(*a, **kw)

    monkeypatch.setattr(llama_cpp, "Llama", Counting)
    message, usage = local_chat()([{"role": "system", "content": "Answer."}, {"role": "user", "content": "Q?"}],
                                  [{"function": {"name": "finish", "description": "end"}}])
    assert loads == [] and usage.prompt_tokens > 0  # no second copy of the model in memory
    assert message["role"] == "assistant"


def test_the_calculator_answers_overflow_complex_and_infinite_results_with_a_string():
    from react_teach.tools.calculator import calculator_tool

    for expression in ("1e200**2", "(-8)**0.5", "1e308*10", "1e308+1e308"):
        out = calculator_tool(f"calculate[{expression}]")
        assert out.startswith("Calculator error:"), (expression, out)
    assert calculator_tool("calculate[7/2]") == "3.5"


class _ToolServer(BaseHTTPRequestHandler):
    """A chat endpoint that calls `search` once, then `finish`; or, in "drip" mode, sends a byte at a time."""

    seen, mode = [], "ok"

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append((dict(self.headers), body))
        if type(self).mode == "drip":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(40):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.25)
            except OSError:
                pass
            return
        done = any(m["role"] == "tool" for m in body["messages"])
        name, args = ("finish", {"answer": "Arthur's Magazine"}) if done else ("search", {"entity": "Arthur's Magazine"})
        call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        send_json(self, {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "tool_calls",
                                      "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
                         "usage": {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57}})

    def log_message(self, *a):
        pass


@pytest.fixture
def tool_server():
    _ToolServer.seen, _ToolServer.mode = [], "ok"
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _ToolServer)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/v1"
    srv.shutdown()


def test_openai_chat_runs_the_tools_api_through_the_bounded_client(tool_server, wiki, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-openai")
    monkeypatch.setenv("REACT_TEACH_COMPATIBLE_KEY", "local-key")
    t = tool_calling("Which magazine was started first?", openai_chat("m", base_url=tool_server), wiki)
    assert [s.action for s in t.steps] == ["search[Arthur's Magazine]", "finish[Arthur's Magazine]"]
    assert t.answer == "Arthur's Magazine" and t.usage.prompt_tokens == 100
    headers, body = _ToolServer.seen[-1]
    assert headers["Authorization"] == "Bearer local-key" and "sk-secret-openai" not in json.dumps(headers)
    assert [x["function"]["name"] for x in body["tools"]] == ["search", "lookup", "finish"]
    assert body["messages"][-1]["role"] == "tool"  # the observation went back as a tool message


def test_openai_chat_keeps_the_deadline(tool_server):
    _ToolServer.mode = "drip"
    started = time.perf_counter()
    with pytest.raises(LLMError, match="no complete answer within 1 s"):
        openai_chat("m", base_url=tool_server, timeout=1.0)([{"role": "user", "content": "Q"}], [])
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1e400 - 1e400", "2 * 1e999"])
def test_an_infinite_literal_is_an_error_not_inf(literal):
    """1e400 is read as inf before any operator runs (issue 21): the literal is checked like a result."""
    answer = calculator_tool(f"calculate[{literal}]")
    assert answer.startswith("Calculator error:") and "inf" not in answer and "nan" not in answer
