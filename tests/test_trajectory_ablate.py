"""Transcripts in and out, and the baselines as deleted lines, checked against the paper's own prompt files."""
import difflib
import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from react_teach import methods
from react_teach.ablate import exemplar_prompt, prompt, to_act, to_cot, to_standard
from react_teach.data import data_dir, load_exemplars, read_prompts
from react_teach.trajectory import Step, Trajectory, parse


# ------------------------------------------------------------------------------------------------- trajectory
def test_render_parse_and_json_round_trip():
    t = Trajectory("Q?", [Step("think", "Search[X]", "X is 1."), Step("so", "Finish[1]", "Episode finished.")],
                   "1", n_calls=2)
    back = parse(t.render())
    assert back.steps == t.steps and back.answer == "1" and back.question == "Q?"
    assert Trajectory.from_json(json.loads(t.dumps())) == t


def test_act_and_fever_transcripts():
    act = parse("Claim: C.\nAction 1: Search[C]\nObservation 1: c\nAction 2: Finish[SUPPORTS]\n")
    assert act.task == "fever" and [s.thought for s in act.steps] == [None, None] and act.answer == "SUPPORTS"


def test_scratchpad_and_cot_formats():
    cot = parse("\nThought: Let's think. So the answer is X.\nAction: Finish[X]\nObservation: Answer is CORRECT")
    assert cot.answer == "X" and len(cot.steps) == 1
    paper_cot = parse("Question: Q\nThought: Let's think step by step. So the answer is Y.\nAnswer: Y\n")
    assert paper_cot.answer == "Y"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ThoughtActionObservation:123[]\n Finish?é")), max_size=200))
def test_parse_never_raises_on_junk(text):
    t = parse(text)
    assert isinstance(t.unparsed, list)
    assert all(isinstance(s, Step) for s in t.steps)


def test_every_real_trajectory_parses_and_keeps_its_finish_answer(real):
    for name in ("react_text-davinci-003_hotpotqa100.jsonl", "cot_text-davinci-003_hotpotqa100.jsonl"):
        rows = [json.loads(line) for line in (real / "trajectories" / name).read_text().splitlines()]
        assert len(rows) == 100
        for r in rows:
            t = parse(r["scratchpad"])
            finishes = re.findall(r"Finish\[(.*?)\]", r["scratchpad"])
            if finishes:
                assert t.answer == finishes[-1].strip()
            else:
                assert t.answer is None  # ended without Finish: nothing invented


# ------------------------------------------------------------------------------------------------- ablations
@pytest.fixture(scope="module")
def paper(real):
    return (json.loads((real / "prompts" / "prompts_naive.json").read_text()),
            json.loads((real / "prompts" / "fever.json").read_text()))


def test_act_is_react_with_thoughts_deleted_exactly_as_in_the_paper(paper):
    hotpot, fever = paper
    # the JSON strings differ only in their leading and trailing newlines
    assert to_act(hotpot["webthink_simple6"]).strip("\n") == hotpot["webact_simple6"].strip("\n")
    assert to_act(fever["webthink_simple3"]) == fever["webact_simple3"]  # exact as stored


def test_standard_and_cot_were_rewritten_by_the_paper(paper):
    hotpot, _ = paper
    std = to_standard(hotpot["webthink_simple6"])
    diff = [line for line in difflib.unified_diff(hotpot["webqa_simple6"].splitlines(), std.splitlines(), n=0,
                                                  lineterm="") if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert diff == ["-Answer: Yes", "+Answer: yes"]  # only the capitalisation of one answer differs
    cot = to_cot(hotpot["webthink_simple6"])
    assert cot.count("Thought: Let's think step by step.") == 6 and cot.count("\nAnswer: ") == 6
    assert cot != hotpot["cotqa_simple6"]  # a merge, not a deletion: the paper wrote its own paragraphs


def test_our_prompts_are_built_from_one_set_of_exemplars():
    react = prompt("react")
    act = prompt("act")
    assert react.startswith("Answer a question by alternating Thought, Action and Observation steps.")
    assert "Thought 1:" in react and "Thought" not in act.split("Examples follow.\n", 1)[1]
    body = react.split("Examples follow.\n\n", 1)[1]
    assert to_act(body) == act.split("Examples follow.\n\n", 1)[1]
    assert prompt("standard").count("\nAnswer: ") == 6 and prompt("cot").count("Let's think step by step.") == 6
    assert methods.get("cot-sc").prompt() == prompt("cot") and methods.get("react-cotsc").prompt() == react
    with pytest.raises(ValueError, match="prompt style"):
        prompt("cot-sc")  # a method, not a style: the registry knows which style it uses
    assert prompt("react", "fever").count("Claim: ") == 3


def test_read_prompts_reads_both_formats(real, tmp_path):
    ours = exemplar_prompt(read_prompts(data_dir() / "exemplars" / "hotpotqa.jsonl", "react"))
    assert ours.count("Question: ") == len(load_exemplars("hotpotqa"))
    assert read_prompts(real / "prompts" / "prompts_naive.json", "webthink_simple6").startswith("\nQuestion:")
    with pytest.raises(ValueError, match="no key 'nope'"):
        read_prompts(real / "prompts" / "prompts_naive.json", "nope")


def test_cli_ablate_prints_the_derived_prompt(real):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "react_teach", "ablate", "--prompts",
                        str(real / "prompts" / "prompts_naive.json"), "--key", "webthink_simple6", "--to", "act"],
                       capture_output=True, text=True, timeout=60)
    paper = json.loads((real / "prompts" / "prompts_naive.json").read_text())
    assert r.returncode == 0 and r.stdout.strip("\n") == paper["webact_simple6"].strip("\n")
