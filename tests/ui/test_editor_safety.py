"""Issue 21, case 5: the trace editor never loses branches. A wrong file loads nothing and changes nothing, a
save is whole or not at all and never over another kind of file, and every button's error is in the status line."""
import json

import pytest

from react_teach.agent import Agent
from react_teach.llm import ScriptLLM
from react_teach.ui.widgets import TraceEditor
from react_teach.wiki import LocalWiki


@pytest.fixture(scope="module")
def wiki():
    return LocalWiki.course()


def editor_with_two_branches(wiki):
    llm = ScriptLLM([" I will guess.\nAction 1: Finish[1900]", " Search[Arthur's Magazine]",
                     " It was started in 1844.\nAction 2: Finish[1844]"])
    ed = TraceEditor(Agent("When was Arthur's Magazine started?", llm=llm, wiki=wiki, prefix=""), gold="1844")
    ed.think_button.click()
    ed.observe_button.click()
    ed.thought.value = "I should search Arthur's Magazine first."
    ed.edit_button.click()
    assert list(ed.branches) == ["original", "edit 1: step 1"]
    return ed


@pytest.mark.parametrize("content", ['{"question": "x"}', "not json at all", '{"branches": {"a": 5}}', "[" * 100_000])
def test_loading_a_wrong_file_keeps_every_branch_and_says_why_in_the_status_line(wiki, tmp_path, content):
    ed = editor_with_two_branches(wiki)
    bad = tmp_path / "notes.json"
    bad.write_text(content)
    ed.path.value = str(bad)
    ed.load_button.click()  # a button: its error must reach the status line, not the widget log
    assert "not a branches file" in ed.status.value or "is not a trajectory" in ed.status.value, ed.status.value
    assert list(ed.branches) == ["original", "edit 1: step 1"]
    assert list(ed.left.options) == ["original", "edit 1: step 1"]
    assert bad.read_text() == content


def test_saving_never_writes_over_another_kind_of_file(wiki, tmp_path):
    ed = editor_with_two_branches(wiki)
    notes = tmp_path / "branches.json"
    notes.write_text("my notes, not branches")
    ed.path.value = str(notes)
    ed.save_button.click()
    assert "not a branches file of ours" in ed.status.value and notes.read_text() == "my notes, not branches"


def test_a_failed_save_leaves_the_previous_file_whole(wiki, tmp_path):
    ed = editor_with_two_branches(wiki)
    path = tmp_path / "branches.json"
    ed.path.value = str(path)
    ed.save_button.click()
    good = path.read_bytes()
    assert len(json.loads(good)["branches"]) == 2
    ed.branches["pasted"] = ed.branches["original"]
    ed.branches["pasted"].question = "a lone surrogate \udc80 pasted into a thought"  # cannot be UTF-8
    ed.save_button.click()
    assert "Error" in ed.status.value and path.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["branches.json"]  # no temporary file either
