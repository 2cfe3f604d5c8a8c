"""What a server sends is untrusted: our key it echoes is masked before anything is cut, the stop is applied on
our side too, a malformed or over-generous answer is one clear error or trimmed, and credentials in a URL are
never written (issue 21, cases 8, 9, 11, 12 and 16). Every server here is a real one on 127.0.0.1."""
import json

import pytest
from conftest import Loopback, cli, one_line_refusal

from react_teach.agent import Agent
from react_teach.llm import Cassette, LLMError, OpenAILLM, PromptError, ScriptLLM, from_spec
from react_teach.llm.cassette import request_key
from react_teach.tools.calling import openai_chat
from react_teach.wiki import LocalWiki

KEY = "fake-lanes-0123456789abcdefghijklmnopqrstuvwxyz"


def leaks(text: str) -> list[str]:
    """Every piece of six characters of KEY that shows in `text` (a key is secret in part as well as whole)."""
    return [KEY[i:i + 6] for i in range(len(KEY) - 5) if KEY[i:i + 6] in text]


def choice(text: str) -> dict:
    return {"index": 0, "text": text, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}


def answer(*texts: str) -> dict:
    return {"choices": [{**choice(t), "index": i} for i, t in enumerate(texts)],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2}}


# ------------------------------------------------------------------------------ case 8: mask before the cut
ECHOES = {"long": "x" * 180 + " you sent " + KEY,  # the key sits across the 200-character cut
          "split": "the key\n" + KEY[:20] + "\n" + KEY[20:] + "\nis not valid",  # wrapped by the server
          "spaced": "key: " + KEY[:12] + " \r\n " + KEY[12:30] + "\t" + KEY[30:]}


@pytest.mark.parametrize("mode", ["completion", "chat"])
@pytest.mark.parametrize("echo", sorted(ECHOES))
@pytest.mark.parametrize("status,error", [(400, PromptError), (500, LLMError)])
def test_an_echoed_key_is_masked_before_the_message_is_cut_or_joined(mode, echo, status, error):
    with Loopback(lambda path, body: (status, {"error": {"message": ECHOES[echo]}})) as server:
        with pytest.raises(error) as e:
            OpenAILLM("m", base_url=server.url, api_key=KEY, mode=mode, max_retries=0).complete("Q")
    assert not leaks(str(e.value)) and "***" in str(e.value) and "\n" not in str(e.value)
    assert server.requests[0][0].endswith("/chat/completions" if mode == "chat" else "/completions")


def test_a_200_that_is_not_a_completion_is_shown_without_the_key():
    reply = json.dumps({"detail": f"you sent {KEY[:25]}\n{KEY[25:]}"}).encode()
    with Loopback(lambda path, body: (200, reply)) as server:
        with pytest.raises(LLMError, match="not with a completion") as e:
            OpenAILLM("m", base_url=server.url, api_key=KEY).complete("Q")
    assert not leaks(str(e.value))


@pytest.mark.parametrize("echo", sorted(ECHOES))
def test_the_tools_api_masks_the_key_the_same_way(echo):
    with Loopback(lambda path, body: (400, {"error": {"message": ECHOES[echo]}})) as server:
        chat = openai_chat("m", base_url=server.url, api_key=KEY)
        with pytest.raises(PromptError) as e:
            chat([{"role": "user", "content": "Q"}], [])
    assert not leaks(str(e.value)) and "***" in str(e.value)


def test_a_run_shows_and_saves_no_part_of_the_key(tmp_path):
    """A refused prompt is saved as the question's error line: the line and the terminal both stay clean."""
    out = tmp_path / "o.jsonl"
    with Loopback(lambda path, body: (400, {"error": {"message": ECHOES["split"]}})) as server:
        p = cli("run", "--method", "standard", "--n", "2", "--llm", f"openai-compatible:{server.url}#m", "--out", out,
                env={"REACT_TEACH_COMPATIBLE_KEY": KEY, "REACT_TEACH_CACHE": tmp_path / "cache"})
    assert p.returncode == 0, p.stderr
    assert "failed=2" in p.stdout and "refused this prompt (400)" in out.read_text()
    assert not leaks(out.read_text()) and not leaks(p.stderr) and not leaks(p.stdout)


# ------------------------------------------------------------------------- case 9: the stop on our side too
INVENTED = (" I should search Hamlet.\nAction 1: Search[Hamlet]\nObservation 1: Hamlet was written by Marlowe.\n"
            "Thought 2: So it is Marlowe.\nAction 2: Finish[Marlowe]\nObservation 2: Episode finished")
SECOND = " The page says Shakespeare.\nAction 2: Finish[Shakespeare]\nObservation 2: (invented again)"


def deaf(path, body):
    """A completions server that ignores `stop`: it writes on past the observation, as a model does."""
    prompt = body["prompt"]
    return 200, answer(INVENTED if prompt.endswith("Thought 1:") else SECOND if prompt.endswith("Thought 2:")
                       else " Finish[unexpected]")


def test_a_server_that_ignores_stop_cannot_invent_an_observation(tmp_path):
    with Loopback(deaf) as server:
        p = cli("ask", "Who wrote Hamlet?", "--json", "--llm", f"openai-compatible:{server.url}#m",
                env={"REACT_TEACH_CACHE": tmp_path / "cache"})
    assert p.returncode == 0, p.stderr
    t = json.loads(p.stdout)
    assert server.requests[0][1]["stop"] == ["\nObservation 1:"]  # asked for, and ignored
    assert t["steps"][0]["action"] == "Search[Hamlet]" and t["answer"] == "Shakespeare"
    second = server.requests[1][1]["prompt"]
    assert "Marlowe" not in second and second.count("Observation 1:") == second.count("Thought 1:")
    assert all("invented" not in (s["observation"] or "") for s in t["steps"])


def test_the_loop_cuts_at_the_stop_whatever_the_backend_gave(tmp_path):
    """A cassette recorded from a server that ignored `stop` (the loop, not the backend, is what must hold)."""
    wiki = LocalWiki.from_articles([{"title": "Hamlet", "sentences": ["Hamlet is a play by Shakespeare."]}])
    tape = tmp_path / "deaf.jsonl"
    entries = []
    for prompt, text in (("Question: Who wrote Hamlet?\nThought 1:", INVENTED),
                         ("Question: Who wrote Hamlet?\nThought 1: I should search Hamlet.\nAction 1: Search[Hamlet]"
                          "\nObservation 1: Hamlet is a play by Shakespeare..\nThought 2:", SECOND)):
        stop = ["\nObservation 1:" if "Observation 1" not in prompt else "\nObservation 2:"]
        entries.append({"key": request_key("cassette", prompt, stop, 0.0, 100, 1),
                        "request": {"prompt": prompt, "stop": stop, "temperature": 0.0, "max_tokens": 100, "n": 1},
                        "completions": [{"text": text}]})
    tape.write_text("".join(json.dumps(e) + "\n" for e in entries))
    t = Agent("Who wrote Hamlet?", llm=from_spec(f"replay:{tape}"), wiki=wiki, prefix="").run()
    assert [s.action for s in t.steps] == ["Search[Hamlet]", "Finish[Shakespeare]"] and t.answer == "Shakespeare"


# ------------------------------------------------------------- case 11 and 12: choices that are not ours
@pytest.mark.parametrize("mode", ["completion", "chat"])
def test_choices_that_are_not_objects_are_one_clear_error(mode):
    with Loopback(lambda path, body: (200, {"choices": [1, 2]})) as server:
        with pytest.raises(PromptError, match="gave no text"):
            OpenAILLM("m", base_url=server.url, mode=mode).complete("Q")


def test_the_tools_api_refuses_choices_that_are_not_objects():
    with Loopback(lambda path, body: (200, {"choices": [1, 2]})) as server:
        with pytest.raises(LLMError, match="not with a chat completion"):
            openai_chat("m", base_url=server.url)([{"role": "user", "content": "Q"}], [])


def test_record_of_a_server_that_sends_more_choices_than_asked_replays(tmp_path):
    tape = tmp_path / "tape.jsonl"
    with Loopback(lambda path, body: (200, answer(" Paris", " Lyon", " Nice"))) as server:
        recorded = Cassette(tape, OpenAILLM("m", base_url=server.url)).complete("Capital of France?")
        assert [c.text for c in recorded] == [" Paris"]
        assert [c.text for c in from_spec(f"replay:{tape}").complete("Capital of France?")] == [" Paris"]


def test_a_server_that_ignores_n_is_asked_for_the_rest():
    with Loopback(lambda path, body: (200, answer(f" sample {len(server.requests)}"))) as server:
        out = OpenAILLM("m", base_url=server.url).complete("Q", temperature=0.7, n=3)
    assert [c.text for c in out] == [" sample 1", " sample 2", " sample 3"]
    assert [b["n"] for _, b in server.requests] == [3, 2, 1]


class Doubled:
    """A backend that answers every request twice over (as a server that ignores `n` the other way)."""
    name = "doubled"

    def __init__(self):
        self.inner = ScriptLLM(["one", "two"])

    def complete(self, prompt, **kw):
        return self.inner.complete(prompt, **kw) * 2


def test_a_cassette_never_writes_a_line_it_would_refuse(tmp_path):
    tape = tmp_path / "tape.jsonl"
    Cassette(tape, ScriptLLM(["first"])).complete("p0")
    before = tape.read_bytes()
    with pytest.raises(LLMError, match="not recorded"):
        Cassette(tape, Doubled()).complete("p1")
    assert tape.read_bytes() == before
    assert from_spec(f"replay:{tape}").complete("p0")[0].text == "first"  # the cassette still replays


# ------------------------------------------------------------------------- case 16: credentials in a URL
def test_credentials_in_a_url_are_never_written(tmp_path):
    out = tmp_path / "o.jsonl"
    with Loopback(lambda path, body: (200, answer(" Paris"))) as server:
        url = server.url.replace("http://", "http://learner:hunter2pw@")
        run = ["run", "--method", "standard", "--n", "1", "--out", out]
        ask = ["ask", "Q?", "--method", "standard"]
        for args, spec in ((run, f"openai-compatible:{url}#m"), (ask, f"openai-compatible:{url}"),
                           (ask, f"record:{tmp_path / 't.jsonl'}::openai-compatible:{url}#m")):
            p = cli(*args, "--llm", spec, env={"REACT_TEACH_CACHE": tmp_path / "cache"})
            assert "user name or password in a URL" in one_line_refusal(p)
            assert "hunter2pw" not in p.stderr + p.stdout and "http://***@127.0.0.1" in p.stderr
        assert not server.requests and not out.exists() and not (tmp_path / "t.jsonl").exists()


def test_the_python_api_refuses_credentials_in_a_url_without_showing_them():
    for make in (lambda: OpenAILLM("m", base_url="ftp://me:hunter2pw@127.0.0.1/v1"),
                 lambda: OpenAILLM("m", base_url="http://me:hunter2pw@127.0.0.1/v1"),
                 lambda: openai_chat("m", base_url="http://me:hunter2pw@127.0.0.1/v1"),
                 lambda: from_spec("openai-compatible:http://me:hunter2pw@127.0.0.1/v1#m?x=1")):
        with pytest.raises(LLMError) as e:
            make()
        assert "hunter2pw" not in str(e.value) and "***@127.0.0.1" in str(e.value)
