"""Inputs the command line cannot use get one line and exit 2, and nothing it prints can drive the terminal
(issue 21: cases 11, 15, 16 and the low ones). Each runs `python -m react_teach` in a real process."""
import json

import pytest
from conftest import Loopback, cli, one_line_refusal

from react_teach.llm import CachedLLM, ScriptLLM
from react_teach.llm.cassette import request_key

DEEP = "[" * 100_000 + "]" * 100_000  # deeper than any JSON decoder's stack
HUGE = "9" * 5000  # longer than Python will turn into an int (4300 digits)
ESC = "\x1b[2J\x1b]0;pwned\x07\x9b31m"  # clear the screen, retitle the window, a C1 CSI


@pytest.fixture
def files(tmp_path):
    (tmp_path / "script.jsonl").write_text('" Paris"\n' * 4)
    (tmp_path / "deep.jsonl").write_text(DEEP + "\n")
    (tmp_path / "deep.json").write_text("[" + DEEP + "]\n")
    return tmp_path


def env(tmp_path) -> dict:
    return {"REACT_TEACH_CACHE": str(tmp_path / "cache")}


# --------------------------------------------------------------------------------- case 11: JSON nested deep
@pytest.mark.parametrize("args,message", [
    (["run", "--method", "standard", "--questions", "deep.json", "--llm", "script:script.jsonl", "--out", "o.jsonl"],
     "deep.json: not JSON (nested too deep)"),
    (["ask", "Q?", "--method", "standard", "--llm", "script:deep.jsonl"], "deep.jsonl:1: each line must be one JSON"),
    (["ask", "Q?", "--method", "standard", "--llm", "replay:deep.jsonl"], "deep.jsonl:1: not a cassette line"),
    (["ablate", "--prompts", "deep.jsonl", "--to", "act"], "deep.jsonl:1: not JSON (nested too deep)")])
def test_json_nested_deep_is_one_line(files, args, message):
    assert message in one_line_refusal(cli(*args, cwd=files, env=env(files)))
    assert not (files / "o.jsonl").exists()


def test_a_deep_line_in_a_run_file_is_done_again(files):
    out = files / "o.jsonl"
    first = cli("run", "--method", "standard", "--n", "1", "--llm", "script:script.jsonl", "--out", out, cwd=files,
                env=env(files))
    assert first.returncode == 0, first.stderr
    header, line = out.read_text().splitlines()
    out.write_text(f"{header}\n{DEEP}\n")
    again = cli("run", "--method", "standard", "--n", "1", "--llm", "script:script.jsonl", "--out", out, cwd=files,
                env=env(files))
    assert again.returncode == 0, again.stderr
    assert out.read_text().splitlines()[0] == header and json.loads(out.read_text().splitlines()[1])["id"] == \
        json.loads(line)["id"]


def test_label_reads_a_deep_line_as_unreadable(files):
    p = cli("label", files / "deep.jsonl", env=env(files))
    assert p.returncode == 0 and "unreadable\tnot JSON (nested too deep)" in p.stdout, p.stderr


def test_a_deep_cache_file_is_a_miss(tmp_path):
    m = CachedLLM(ScriptLLM(["fresh"]), tmp_path)
    key = request_key(m.name, "p", None, 0.0, 100, 1)
    (tmp_path / key[:2]).mkdir()
    (tmp_path / key[:2] / f"{key}.json").write_text(DEEP)
    assert m.complete("p")[0].text == "fresh" and m.hits == 0


# ------------------------------------------------------------------- case 11: numbers and answers we cannot use
def test_a_5000_digit_integer_in_a_question_file_or_a_corpus_is_one_line(files):
    (files / "q.json").write_text('[{"id": 1, "question": "Q?", "answer": "x", "n": ' + HUGE + '}]')
    assert "q.json: not JSON (an integer of more than 4300 digits)" in one_line_refusal(cli(
        "run", "--method", "standard", "--questions", "q.json", "--llm", "script:script.jsonl", "--out", "o.jsonl",
        cwd=files, env=env(files)))
    (files / "c.jsonl").write_text('{"title": "A", "sentences": ["x."]}\n{"title": "B", "n": ' + HUGE + '}\n')
    assert "c.jsonl:2: not JSON (an integer" in one_line_refusal(cli(
        "wiki", "build", "--from-jsonl", "c.jsonl", "--out", "w.db", cwd=files, env=env(files)))
    assert not (files / "o.jsonl").exists() and not (files / "w.db").exists()


@pytest.mark.parametrize("task,row", [("hotpotqa", '{"id": 1, "question": "Q?", "answer": 5}'),
                                      ("fever", '{"id": 1, "claim": "C.", "label": true}')])
def test_a_gold_answer_that_is_not_a_string_is_refused_before_the_model_is_called(files, task, row):
    (files / "q.jsonl").write_text(row + "\n")
    (files / "empty.jsonl").write_text("")  # a script with no completions: any model call would fail differently
    err = one_line_refusal(cli("run", "--task", task, "--method", "standard", "--questions", "q.jsonl",
                               "--llm", "script:empty.jsonl", "--out", "o.jsonl", cwd=files, env=env(files)))
    assert "must be a string" in err and not (files / "o.jsonl").exists()


# ------------------------------------------------------------------------ case 15: nothing drives the terminal
def test_run_shows_no_escape_from_an_id_or_a_server_error(tmp_path):
    (tmp_path / "q.jsonl").write_text(json.dumps({"id": f"q{ESC}1", "question": "Q?", "answer": "x"}) + "\n")
    with Loopback(lambda path, body: (400, {"error": {"message": f"bad {ESC} prompt\r\nline two"}})) as server:
        p = cli("run", "--method", "standard", "--questions", "q.jsonl", "--llm",
                f"openai-compatible:{server.url}#m", "--out", "o.jsonl", cwd=tmp_path, env=env(tmp_path))
    assert p.returncode == 0 and "failed=1" in p.stdout, p.stderr
    failed = [line for line in p.stderr.splitlines() if "failed:" in line]
    assert len(failed) == 1 and "refused this prompt (400): bad" in failed[0] and "line two" in failed[0]
    assert not any(c in p.stderr + p.stdout for c in "\x1b\x07\x9b")


def test_wiki_search_and_ask_show_no_escape_from_a_page(tmp_path):
    page = {"title": "Trap", "sentences": [f"It clears {ESC} the screen.", "Second."]}
    (tmp_path / "c.jsonl").write_text(json.dumps(page) + "\n")
    assert cli("wiki", "build", "--from-jsonl", "c.jsonl", "--out", "w.db", cwd=tmp_path).returncode == 0
    p = cli("wiki", "search", "Trap", "--db", "w.db", cwd=tmp_path)
    assert p.returncode == 0 and "It clears" in p.stdout and "Second" in p.stdout, p.stderr
    (tmp_path / "s.jsonl").write_text(json.dumps(" Look.\nAction 1: Search[Trap]") + "\n"
                                      + json.dumps(" Done.\nAction 2: Finish[x]") + "\n")
    a = cli("ask", "Q?", "--llm", "script:s.jsonl", "--wiki", "local:w.db", cwd=tmp_path, env=env(tmp_path))
    assert a.returncode == 0 and "Observation 1: It clears" in a.stdout, a.stderr
    assert not any(c in p.stdout + a.stdout for c in "\x1b\x07\x9b")


# ----------------------------------------------------------------------------------------------- the low ones
@pytest.mark.parametrize("size", ["-3", HUGE])
def test_a_bad_world_size_is_named_as_the_size(tmp_path, size):
    err = one_line_refusal(cli("world", "build", "--seed", "1", "--size", size, "--out", tmp_path / "w"))
    assert "size must be a whole number" in err and "seed" not in err and len(err) < 300


@pytest.mark.parametrize("method,verb", [("standard", ["ask", "Q?"]), ("cot-sc", ["ask", "Q?"]),
                                         ("cot", ["run", "--out", "o.jsonl"])])
def test_wiki_is_refused_for_a_method_without_one(files, method, verb):
    err = one_line_refusal(cli(*verb, "--method", method, "--wiki", "world:1", "--llm", "script:script.jsonl",
                               cwd=files, env=env(files)))
    assert f"--method {method} uses no wiki" in err and not (files / "o.jsonl").exists()


@pytest.mark.parametrize("question", ["", " \n "])
def test_an_empty_question_is_refused(files, question):
    assert "the question is empty" in one_line_refusal(cli("ask", question, "--method", "standard", "--llm",
                                                           "script:script.jsonl", cwd=files, env=env(files)))
