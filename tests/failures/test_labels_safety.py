"""Issue 21, case 4: human labels are never lost. A line the store cannot read is kept, a file that is not a
labels file is refused before anything is written, and the two paths of the labeller swapped change nothing.
Real files: the course's own run file stands in for the learner's."""
import json
import shutil

import pytest

from react_teach.data import data_dir
from react_teach.failures import LabelStore
from react_teach.failures.rules import HALLUCINATION, REASONING_ERROR


def test_an_unreadable_line_is_kept_through_the_next_set(tmp_path):
    path = tmp_path / "labels.jsonl"
    good = json.dumps({"key": 1, "category": HALLUCINATION, "note": "made up a date"})
    torn = '{"key": 2, "category": "reasoning err'  # a torn write, or a hand edit gone wrong
    typo = json.dumps({"key": 3, "category": "reasoning eror", "note": "a week of thought"})
    path.write_text("\n".join([good, torn, typo]) + "\n")
    store = LabelStore(path)
    assert store.all() == {1: {"category": HALLUCINATION, "note": "made up a date"}}
    assert [line for _, line in store.unreadable] == [torn, typo]
    store.set(4, REASONING_ERROR)
    lines = path.read_text().splitlines()
    assert torn in lines and typo in lines and good in lines and len(lines) == 4


@pytest.mark.parametrize("kind", ["run file", "notes", "json"])
def test_a_file_that_is_not_a_labels_file_is_refused_before_anything_is_written(tmp_path, kind):
    path = tmp_path / "mine.jsonl"
    if kind == "run file":
        shutil.copyfile(data_dir() / "runs" / "hotpotqa_react.jsonl", path)
    elif kind == "notes":
        path.write_text("My notes on Table 2\nreasoning errors look like loops\n")
    else:
        path.write_text('[1, 2, 3]\n')
    before = path.read_bytes()
    with pytest.raises(ValueError, match="not a labels file"):
        LabelStore(path).set(1, HALLUCINATION)
    assert path.read_bytes() == before


def test_the_labeller_with_its_two_paths_swapped_changes_nothing(tmp_path):
    from react_teach.ui.panels import FailureLabeller

    runs = tmp_path / "hotpotqa_react.jsonl"
    shutil.copyfile(data_dir() / "runs" / "hotpotqa_react.jsonl", runs)
    labels = tmp_path / "labels.jsonl"
    LabelStore(labels).set(0, HALLUCINATION)
    before_runs, before_labels = runs.read_bytes(), labels.read_bytes()
    assert len(before_runs.splitlines()) >= 40
    with pytest.raises(ValueError, match="not a labels file"):
        FailureLabeller(labels, runs)  # the labels given as the run, the run as the store
    assert runs.read_bytes() == before_runs and labels.read_bytes() == before_labels


def test_a_failed_save_shows_in_the_labeller_and_claims_nothing(tmp_path):
    from react_teach.ui.panels import FailureLabeller

    runs = tmp_path / "run.jsonl"
    shutil.copyfile(data_dir() / "runs" / "hotpotqa_react.jsonl", runs)
    store = tmp_path / "labels.jsonl"
    lab = FailureLabeller(runs, store)
    lab.choose("true positive")
    good = store.read_bytes()
    lab.note.value = "a lone surrogate \udc80 from a paste"  # cannot be written as UTF-8
    lab.choose(HALLUCINATION)
    assert "not saved" in lab.progress.value and store.read_bytes() == good
    assert lab.store.get(lab.key()) is None and lab.k == 1
