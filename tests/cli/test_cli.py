"""The command line's promise: bad input gets one line on stderr and exit status 2, and loses nothing.

Every case here printed a traceback, or worse, before (issue 16, items 1, 6, 12 and 13). They run in-process with
the script model: no model is loaded."""
import json
import shutil

import pytest

from react_teach import cli
from conftest import ROOT


def refused(capsys, *args) -> str:
    """Run the CLI, expect exit 2 with exactly one line on stderr, and return that line."""
    with pytest.raises(SystemExit) as e:
        cli.main([str(a) for a in args])
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def script(tmp_path):
    f = tmp_path / "script.jsonl"
    f.write_text('" Paris"\n' * 4)
    return f"script:{f}"


def test_run_never_overwrites_a_file_that_is_not_its_own(tmp_path, capsys, script):
    readme = tmp_path / "README-copy.md"
    shutil.copy(ROOT / "README.md", readme)
    assert "not a results file of ours" in refused(capsys, "run", "--method", "standard", "--n", "1", "--llm",
                                                   script, "--out", readme)
    assert readme.read_bytes() == (ROOT / "README.md").read_bytes()


@pytest.mark.parametrize("content,message", [
    ("", "no questions in the file"), ('{"id": 1, "question": null}\n', "must be a non-empty string"),
    ('{"id": 1, "question": "Q?"}\n{"id": 2, "question": \n', "q.jsonl:2: not JSON"),
    ('{"id": 1, "claim": "The sky is green."}\n', "holds claims, not questions: use --task fever"),
    ('{"id": 1, "question": "Q?"}\n{"id": 1, "question": "R?"}\n', "'1' appears twice")])
def test_bad_question_files(tmp_path, capsys, script, content, message):
    q = tmp_path / "q.jsonl"
    q.write_text(content)
    assert message in refused(capsys, "run", "--method", "standard", "--questions", q, "--llm", script,
                              "--out", tmp_path / "o.jsonl")
    assert not (tmp_path / "o.jsonl").exists()


def test_questions_file_for_the_other_task(tmp_path, capsys, script):
    assert "holds questions, not claims: use --task hotpotqa" in refused(
        capsys, "run", "--task", "fever", "--method", "standard", "--questions", ROOT / "data" / "hotpotqa_course.jsonl",
        "--llm", script, "--out", tmp_path / "o.jsonl")


@pytest.mark.parametrize("flag,value", [("--n", "0"), ("--n", "-2"), ("--max-steps", "0"), ("--max-steps", "-3"),
                                        ("--samples", "0"), ("--concurrency", "0")])
def test_numbers_out_of_range(tmp_path, capsys, script, flag, value):
    assert f"{flag} must be 1 or more, not {value}" in refused(
        capsys, "run", "--method", "cot-sc", flag, value, "--llm", script, "--out", tmp_path / "o.jsonl")


def test_paths_that_are_folders_or_missing(tmp_path, capsys, script):
    assert "is a folder; --out takes a results file" in refused(
        capsys, "run", "--method", "standard", "--llm", script, "--out", tmp_path)
    for verb in (["label", tmp_path], ["ablate", "--prompts", tmp_path, "--to", "act"]):
        assert "is a folder, not a file" in refused(capsys, *verb)
    assert "is a folder, not a cassette file" in refused(capsys, "ask", "q", "--method", "standard",
                                                         "--llm", f"replay:{tmp_path}")
    assert "no wiki database at" in refused(capsys, "ask", "q", "--llm", script, "--wiki",
                                            f"local:{tmp_path / 'missing.db'}")


def test_a_corrupt_user_database_is_refused(tmp_path, capsys, script):
    db = tmp_path / "mine.db"
    db.write_bytes(b"garbage" * 100)
    assert "mine.db is not a usable wiki database" in refused(capsys, "wiki", "search", "X", "--db", db)
    assert "mine.db is not a usable wiki database" in refused(capsys, "ask", "q", "--llm", script,
                                                              "--wiki", f"local:{db}")


@pytest.mark.parametrize("line,message", [
    ('{"sentences": ["x"]}', 'needs a non-empty "title"'), ("[1]", "must be a JSON object"),
    ('{"title": "A", "sentences": [3]}', "must be a list of strings")])
def test_wiki_build_refuses_bad_records_and_leaves_nothing(tmp_path, capsys, line, message):
    src = tmp_path / "c.jsonl"
    src.write_text(line + "\n")
    assert f"c.jsonl:1: " in refused(capsys, "wiki", "build", "--from-jsonl", src, "--out", tmp_path / "w.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]
    assert "is the input file" in refused(capsys, "wiki", "build", "--from-jsonl", src, "--out", src)
    assert src.read_text() == line + "\n"


def test_wiki_build_replaces_an_existing_database(tmp_path, capsys):
    for title in ("Old", "New"):
        src = tmp_path / f"{title}.jsonl"
        src.write_text(json.dumps({"title": title, "sentences": [f"{title} page."]}) + "\n")
        assert cli.main(["wiki", "build", "--from-jsonl", str(src), "--out", str(tmp_path / "w.db")]) == 0
    capsys.readouterr()
    assert cli.main(["wiki", "search", "New", "--db", str(tmp_path / "w.db")]) == 0
    assert capsys.readouterr().out == "New page..\n"


@pytest.mark.parametrize("content,message", [('{"react": 5}', "no prompt string under the key 'react'"),
                                             ("[1, 2]", "is a JSON array"), ('{"x": "y"}', "has no key 'react'")])
def test_ablate_refuses_files_that_hold_no_prompt(tmp_path, capsys, content, message):
    f = tmp_path / "p.json"
    f.write_text(content)
    assert message in refused(capsys, "ablate", "--prompts", f, "--to", "act")


def test_ablate_takes_a_one_exemplar_jsonl(tmp_path, capsys):
    one = tmp_path / "one.jsonl"
    one.write_text((ROOT / "data" / "exemplars" / "hotpotqa.jsonl").read_text().splitlines()[0] + "\n")
    assert cli.main(["ablate", "--prompts", str(one), "--to", "act"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Question: ") and "Action 1:" in out and "Thought" not in out


def test_model_paths_are_checked_before_the_model_is_asked(tmp_path, capsys, monkeypatch, script):
    (tmp_path / "file").write_text("x")
    assert "cannot use the folder" in refused(capsys, "ask", "q", "--method", "standard",
                                              "--llm", f"record:{tmp_path / 'file' / 'tape.jsonl'}::{script}")
    monkeypatch.setenv("REACT_TEACH_CACHE", str(tmp_path / "file" / "cache"))
    assert "REACT_TEACH_CACHE" in refused(capsys, "ask", "q", "--method", "standard",
                                          "--llm", "openai-compatible:http://127.0.0.1:9/v1#m")


def test_a_server_answering_garbage_is_one_line(capsys):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Garbage(BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"\x00\x01 not json")

        def log_message(self, *a):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Garbage)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        assert "not with a completion" in refused(
            capsys, "ask", "q", "--method", "standard", "--llm",
            f"openai-compatible:http://127.0.0.1:{srv.server_port}/v1#m")
    finally:
        srv.shutdown()


def test_label_shows_terminal_escapes_instead_of_obeying_them(tmp_path, capsys):
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps({"question": "Q\x1b[31m?", "gold": "y", "steps": [
        {"thought": "\x1b[2J", "action": "Search[\x1b]0;pwned\x07X]", "observation": "Could not find \x1b[2J X."},
        {"thought": "t", "action": "Finish[x]"}]}) + "\n")
    assert cli.main(["label", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.strip() and "\x1b" not in out and "\x07" not in out


def test_unknown_verbs_are_one_line_too(capsys):
    assert "invalid choice: 'fly'" in refused(capsys, "fly")
    assert "the following arguments are required: --out" in refused(capsys, "run")


def test_an_install_without_its_data_is_refused_not_an_empty_wiki(tmp_path, capsys, monkeypatch):
    """A data folder without the corpus once gave `Could not find High Plains. Similar: [].` (issue 23)."""
    monkeypatch.setenv("REACT_TEACH_DATA", str(tmp_path))
    err = refused(capsys, "wiki", "search", "High Plains")
    assert "the course's data is not in this install" in err and "corpus" in err
    for name in ("corpus", "exemplars", "runs", "labels", "models"):
        (tmp_path / name).mkdir()
    (tmp_path / "hotpotqa_course.jsonl").write_text("")
    (tmp_path / "fever_course.jsonl").write_text("")
    assert "corpus/*.jsonl" in refused(capsys, "wiki", "search", "High Plains")  # an empty corpus is no corpus


def test_notebooks_are_copied_out_and_never_overwritten(tmp_path, capsys):
    target = tmp_path / "course"
    assert cli.main(["notebooks", str(target)]) == 0
    sources = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.name for p in target.glob("*.ipynb")) == sources and len(sources) == 18
    assert (target / "solutions" / "01_the_bare_loop.py").read_text() == \
        (ROOT / "notebooks" / "solutions" / "01_the_bare_loop.py").read_text()
    mine = target / "03_a_world_no_one_has_read.ipynb"
    mine.write_text("my own work")
    capsys.readouterr()
    assert "already exists" in refused(capsys, "notebooks", target)
    assert mine.read_text() == "my own work"  # nothing lost
