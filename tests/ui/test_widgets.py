"""Widgets driven as a learner would: values set, buttons clicked; the loop underneath is the real one."""
import json

import pytest

from react_teach.agent import Agent
from react_teach.llm import ScriptLLM
from react_teach.trajectory import Step, Trajectory, parse
from react_teach.ui.panels import AblationPanel
from react_teach.ui.widgets import TraceEditor, TraceViewer
from react_teach.ui.trace import trace_html
from react_teach.wiki import LocalWiki


@pytest.fixture(scope="module")
def wiki():
    return LocalWiki.course()


def test_viewer_steps_through_a_parsed_official_transcript():
    t = parse("Question: Q?\nThought 1: a\nAction 1: Search[X]\nObservation 1: X.\nThought 2: b\n"
              "Action 2: Finish[Y]\nObservation 2: Episode finished")
    v = TraceViewer(t, gold="Y")
    assert v.slider.max == 2 and "Thought 1" not in v.view.value
    v.next.click()
    assert v.slider.value == 1 and "Observation 1:" in v.view.value and "Thought 2" not in v.view.value
    v.end.click()
    assert v.slider.value == 2 and "em=True" in v.view.value
    v.prev.click()
    v.prev.click()
    v.prev.click()
    assert v.slider.value == 0


def test_authors_are_coloured_apart():
    t = Trajectory("Q?", [Step("mine", "Search[X]", "obs", author="human"), Step("its", "Finish[Y]", "done")], "Y")
    page = trace_html(t)
    assert page.count('title="you"') == 2 and page.count('title="model"') == 2
    assert page.count('title="environment"') == 2


def test_editor_steps_edits_resumes_and_compares(wiki, tmp_path):
    llm = ScriptLLM([" I will just guess.\nAction 1: Finish[1900]",  # the original run goes wrong
                     " Search[Arthur's Magazine]",  # after the edit, the model writes the action
                     " It was started in 1844.\nAction 2: Finish[1844]"])
    agent = Agent("When was Arthur's Magazine started?", llm=llm, wiki=wiki, prefix="")
    ed = TraceEditor(agent, gold="1844")
    ed.think_button.click()
    assert agent.pending is not None and "waiting for the environment" in ed.view.value
    ed.observe_button.click()
    assert agent.done and list(ed.branches) == ["original"]
    assert ed.branches["original"].answer == "1900"
    ed.step_k.value = 1
    ed.thought.value = "I should search Arthur's Magazine first."
    ed.edit_button.click()
    assert agent.trajectory.answer == "1844" and agent.trajectory.steps[0].author == "human"
    assert list(ed.branches) == ["original", "edit 1: step 1"]
    html = ed.compare("original", "edit 1: step 1")
    assert "em=False" in html and "em=True" in html
    path = tmp_path / "b.json"
    ed.path.value = str(path)
    ed.save_button.click()
    saved = json.loads(path.read_text())
    assert list(saved["branches"]) == ["original", "edit 1: step 1"]
    other = TraceEditor(Agent("x", llm=ScriptLLM([]), wiki=wiki, prefix=""))
    other.load(path)
    assert other.branches["edit 1: step 1"].answer == "1844"
    ed.think_button.click()  # the episode is over: the button says so instead of calling the model
    assert "episode is over" in ed.status.value


def test_ablation_panel_runs_chosen_methods(wiki, tmp_path):
    llm = ScriptLLM([" Paris"] * 3 + [" x\nAnswer: Paris"] * 3)
    panel = AblationPanel(llm=llm, wiki=wiki, out_dir=tmp_path)
    panel.methods.value = ("standard", "cot")
    panel.n.value = 3
    panel.run_button.click()
    assert set(panel.rows) == {"standard", "cot"} and all(len(r) == 3 for r in panel.rows.values())
    assert "<td>standard</td><td>3</td>" in panel.table.value
    assert panel.figure.value[:4] == b"\x89PNG" and panel.progress.value == 2


def test_failure_labeller_saves_reloads_and_measures_agreement(tmp_path):
    from react_teach.ui.panels import FailureLabeller

    results = tmp_path / "run.jsonl"
    rows = [{"id": "a", "question": "Q1?", "gold": "Paris", "answer": "Paris", "em": True,
             "steps": [{"thought": "t", "action": "Search[France]", "observation": "Paris is the capital."},
                       {"thought": "so", "action": "Finish[Paris]", "observation": "Episode finished."}]},
            {"id": "b", "question": "Q2?", "gold": "Rome", "answer": "Milan", "em": False,
             "steps": [{"thought": "t", "action": "Finish[Milan]", "observation": "Episode finished."}]},
            "not a record"]
    results.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    store = tmp_path / "labels.jsonl"
    lab = FailureLabeller(results, store)
    assert "Suggested:" in lab.suggestion.value and "trajectory 1 / 3" in lab.progress.value
    assert lab.view.value.count("Observation") == 2
    lab.note.value = "reads the page"
    lab.buttons["true positive"].click()
    assert lab.k == 1 and "1 labelled" in lab.progress.value
    lab.buttons["hallucination"].click()
    again = FailureLabeller(results, store)  # a restart: the labels come back from the file
    assert again.store.get("a") == {"category": "true positive", "note": "reads the page"}
    assert again.buttons["true positive"].icon == "check"
    auto = [r["category"] for r in again.rows[:2]]
    human = ["true positive", "hallucination"]
    from react_teach.failures import cohen_kappa
    assert again.agreement() == cohen_kappa(auto, human)
    again.show(2)
    assert "unreadable" in again.suggestion.value


def test_editor_keeps_the_widgets_own_observe(wiki):
    ed = TraceEditor(Agent("Q?", llm=ScriptLLM([" x\nAction 1: Finish[y]"]), wiki=wiki, prefix=""))
    seen = []
    ed.observe(lambda change: seen.append(change["new"]), names="layout")  # traitlets' observe, not a button
    ed.layout = {"width": "50%"}
    assert len(seen) == 1


def test_the_editor_edits_a_household_agent_as_it_edits_a_wikipedia_one():
    from react_teach.household import HouseholdAgent, Task

    task = Task("pick", "cd", "drawer 1", (("desk 1", ("cd 1",)), ("drawer 1", ())))
    llm = ScriptLLM([" go to drawer 1", " look",  # lost: the model never goes to the desk
                     " go to desk 1", " take cd 1 from desk 1", " go to drawer 1", " open drawer 1",
                     " put cd 1 in/on drawer 1"])
    agent = HouseholdAgent(task, llm=llm, prefix="", max_steps=2)
    ed = TraceEditor(agent)
    ed.think_button.click()
    ed.observe_button.click()
    ed.end_button.click()
    assert agent.done and agent.trajectory.answer == "" and list(ed.branches) == ["original"]
    agent.max_steps = 8
    ed.step_k.value = 2
    ed.thought.value = "think: the cd must be on the desk."
    ed.edit_button.click()
    assert agent.trajectory.answer == "success" and ed.branches["original"].answer == ""
    assert [s.author for s in agent.trajectory.steps][:2] == ["model", "human"]
    assert agent.trajectory.steps[1].observation == "OK." and "edit 1: step 2" in ed.branches
    ed.step_k.value, ed.thought.value, ed.action.value = 1, "", ""
    ed.edit_button.click()  # a household step is a thought or an action: nothing given is refused, on screen
    assert "one of the two" in ed.status.value
