"""The loop, faithful to the official code: scripted exactly, fuzzed hard, and run for real on the bundled model."""
import json
import random
import subprocess
import sys

import pytest

from react_teach import ablate
from react_teach.agent import Agent, cot_sc, react
from react_teach.data import load_exemplars
from react_teach.llm import Recorder, ScriptLLM
from react_teach.methods import solve
from react_teach.trajectory import Trajectory, one_line
from react_teach.wiki import LocalWiki, WikiEnv


@pytest.fixture(scope="module")
def wiki():
    return LocalWiki.course()


def test_a_scripted_model_reproduces_an_exemplar_exactly(wiki):
    prefix = ablate.prompt("react")
    e = load_exemplars("hotpotqa")[0]
    # the model writes each thought and action, then runs on and invents an observation: the stop cuts it off
    script = [f" {s['thought']}\nAction {i}: {s['action']}\nObservation {i}: something invented"
              for i, s in enumerate(e["steps"], 1)]
    llm = Recorder(ScriptLLM(script))
    agent = Agent(e["question"], llm=llm, wiki=wiki, prefix=prefix)
    t = agent.run()
    expected = Trajectory.from_json({"question": e["question"], "steps": e["steps"]})
    expected.steps[-1].observation = "Episode finished, reward = 0"
    assert agent.transcript() == prefix + expected.render()
    assert t.answer == e["answer"] and t.n_calls == len(e["steps"]) and t.n_badcalls == 0
    for i, (p, kw) in enumerate(llm.requests, 1):
        assert p == prefix + Trajectory(e["question"], t.steps[: i - 1]).render() + f"Thought {i}:"
        assert kw["stop"] == [f"\nObservation {i}:"] and kw["temperature"] == 0.0 and kw["max_tokens"] == 100
    assert "invented" not in agent.transcript()


def test_missing_action_line_is_a_bad_call_and_a_reprompt(wiki):
    llm = Recorder(ScriptLLM([" I should look for Elia Kazan.\nThen more text", " Search[Elia Kazan]",
                              " He is a director.\nAction 2: Finish[director]"]))
    agent = Agent("Q?", llm=llm, wiki=wiki, prefix="")
    step = agent.step()
    assert step.thought == "I should look for Elia Kazan." and step.action == "Search[Elia Kazan]"
    assert step.observation.startswith("Elia Kazan was an American film and theater director")
    prompt, kw = llm.requests[1]
    assert prompt.endswith("Thought 1: I should look for Elia Kazan.\nAction 1:") and kw["stop"] == ["\n"]
    t = agent.run()
    assert (t.n_calls, t.n_badcalls, t.answer) == (3, 1, "director")


def test_step_limit_and_empty_answer(wiki):
    t = Agent("Q?", llm=ScriptLLM([" hmm\nAction 1: Search[Nowhere]"] * 1 +
                                   [f" hmm\nAction {i}: Search[Nowhere]" for i in range(2, 8)]),
              wiki=wiki, prefix="").run()
    assert len(t.steps) == 7 and t.answer == "" and t.extra["finished"] is False
    fever = Agent("C.", llm=ScriptLLM([f" x\nAction {i}: Lookup[y]" for i in range(1, 6)]), wiki=wiki, prefix="",
                  task="fever").run()
    assert len(fever.steps) == 5 and fever.render().startswith("Claim: C.\n")


def test_act_prompts_with_action_cue(wiki):
    llm = Recorder(ScriptLLM([" Search[Elia Kazan]\nObservation 1: fake", " Finish[director]"]))
    t = Agent("Q?", llm=llm, wiki=wiki, method="act", prefix="").run()
    assert [s.thought for s in t.steps] == [None, None] and t.answer == "director"
    assert llm.requests[0][0].endswith("Question: Q?\nAction 1:")
    assert "Thought" not in t.render()


def test_edit_a_thought_and_resume(wiki):
    llm = Recorder(ScriptLLM([" I will guess.\nAction 1: Finish[Paris]",  # the original, wrong, run
                              " Search[Arthur's Magazine]",  # after the edit: the action under stop "\n"
                              " It started in 1844.\nAction 2: Finish[1844]"]))
    agent = Agent("When was Arthur's Magazine started?", llm=llm, wiki=wiki, prefix="")
    assert agent.run().answer == "Paris"
    edited = agent.edit(1, "I should search Arthur's Magazine first.")
    assert edited.author == "human" and edited.action == "Search[Arthur's Magazine]"
    assert llm.requests[1][0].endswith("Thought 1: I should search Arthur's Magazine first.\nAction 1:")
    assert llm.requests[1][1]["stop"] == ["\n"]
    t = agent.run()
    assert t.answer == "1844" and [s.author for s in t.steps] == ["human", "model"]
    with pytest.raises(ValueError, match="does not exist yet"):
        agent.edit(9, "x")


def test_an_edit_branches_and_leaves_the_trajectory_run_returned_unchanged(wiki):
    # a model that follows the edit: after the new thought it searches, reads and answers right
    llm = ScriptLLM([" I will guess.\nAction 1: Finish[Paris]", " Search[Arthur's Magazine]",
                     " It started in 1844.\nAction 2: Finish[1844]"])
    agent = Agent("When was Arthur's Magazine started?", llm=llm, wiki=wiki, prefix="")
    original = agent.run()
    before = original.to_json()
    agent.edit(1, "I should search Arthur's Magazine first.")
    edited = agent.run()
    assert edited.answer == "1844" and edited is not original
    assert original.to_json() == before and original.answer == "Paris" and original.steps[0].author == "model"


def test_edit_replays_the_environment_to_where_step_k_began(wiki):
    llm = ScriptLLM([" a\nAction 1: Search[Colorado orogeny]", " b\nAction 2: Lookup[eastern sector]",
                     " c\nAction 3: Lookup[eastern sector]", " d\nAction 3: Finish[x]"])
    agent = Agent("Q?", llm=llm, wiki=wiki, prefix="")
    for _ in range(3):
        agent.step()
    assert agent.trajectory.steps[2].observation == "No more results."
    # editing step 3 restores the lookup cursor of step 2, so a fresh lookup[eastern sector] would continue from it
    agent.edit(3, "c again", action="Lookup[eastern sector]")
    assert agent.trajectory.steps[2].observation == "No more results."
    agent.edit(2, "b again", action="Lookup[eastern sector]")
    assert agent.trajectory.steps[1].observation.startswith("(Result 1 / 1)")


def test_no_stop_mode_shows_the_invented_observation(wiki):
    llm = Recorder(ScriptLLM([" Search it.\nAction 1: Search[Elia Kazan]\nObservation 1: Elia Kazan was a "
                              "famous chef.\nThought 2: So he cooked."]))
    agent = Agent("Q?", llm=llm, wiki=wiki, prefix="", use_stop=False)
    step = agent.step()
    assert llm.requests[0][1]["stop"] is None
    assert step.invented.startswith("Elia Kazan was a famous chef.")
    assert step.observation.startswith("Elia Kazan was an American")  # the environment still writes the real one


# ------------------------------------------------------------------------------------------------ the methods
def test_standard_cot_and_cot_sc_votes():
    t = solve("standard", "Q?", llm=ScriptLLM([" Paris\nQuestion: more"]))
    assert t.answer == "Paris" and t.steps == []
    t = solve("cot", "Q?", llm=ScriptLLM([" Let's think. It is Rome, so the answer is Rome.\nAnswer: Rome"]))
    assert t.answer == "Rome" and t.steps[0].thought.startswith("Let's think")
    samples = [" so the answer is The Louvre.\nAnswer: The Louvre", " x\nAnswer: louvre", " y\nAnswer: Prado", " z"]
    t = cot_sc("Q?", ScriptLLM(samples), n=4)
    assert t.answer == "The Louvre" and t.extra["majority"] == 2 and t.extra["samples"][3] == ""


def test_hybrids_back_off_exactly_when_the_paper_says(wiki):
    no_finish = [f" t\nAction {i}: Search[Nowhere]" for i in range(1, 8)]
    t = solve("react-cotsc", "Q?", llm=ScriptLLM(no_finish + [" r\nAnswer: B"] * 3), wiki=wiki, n=3)
    assert t.answer == "B" and t.extra["backoff"] is True and t.n_calls == 8
    t = solve("react-cotsc", "Q?", llm=ScriptLLM([" t\nAction 1: Finish[A]"]), wiki=wiki, n=3)
    assert t.answer == "A" and t.extra["backoff"] is False
    # CoT-SC first: 2 of 4 votes is not fewer than n/2, so no back-off; 1 of 3 is
    t = solve("cotsc-react", "Q?", llm=ScriptLLM([" \nAnswer: A", " \nAnswer: A", " \nAnswer: B", " \nAnswer: C"]),
              wiki=wiki, n=4)
    assert t.answer == "A" and t.extra["backoff"] is False
    t = solve("cotsc-react", "Q?", llm=ScriptLLM([" \nAnswer: A", " \nAnswer: B", " \nAnswer: C",
                                                   " t\nAction 1: Finish[D]"]), wiki=wiki, n=3)
    assert t.answer == "D" and t.extra["backoff"] is True


# ------------------------------------------------------------------------------------------------------ fuzzing
def _junk(rng: random.Random, i: int) -> str:
    pieces = [f"\nAction {i}: ", f"\nObservation {i}:", "Search[", "]", "[[", "Lookup[", "Finish[", "\n", " ",
              "Thought", "é∂𝔘\u2028", "x" * rng.randint(0, 3000), "think[", "Search[Elia Kazan]", "", "Action 9: "]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def test_fuzz_ten_thousand_completions_never_break_the_loop(wiki):
    rng = random.Random(7)
    completions = 0
    while completions < 10_000:
        script = [_junk(rng, (k % 7) + 1) for k in range(20)]
        llm = ScriptLLM(script)
        agent = Agent("Q?", llm=llm, wiki=wiki, prefix="", max_steps=rng.randint(1, 7))
        t = agent.run()
        completions += llm.calls
        assert len(t.steps) <= agent.max_steps and t.answer is not None
        for s in t.steps:
            a = s.action or ""
            a = a[:1].lower() + a[1:]
            if not (a.startswith(("search[", "lookup[", "finish[", "think[")) and a.endswith("]")):
                assert s.observation == one_line(f"Invalid action: {a}")
            assert len(s.observation.splitlines()) <= 1
    assert completions >= 10_000


# ------------------------------------------------------------------------------------------- the real thing
APPLE = ("Aside from the Apple Remote, what other device can control the program Apple Remote was originally "
         "designed to interact with?")


@pytest.mark.slow
def test_cli_ask_json_on_the_bundled_model():
    r = subprocess.run([sys.executable, "-m", "react_teach", "ask", APPLE, "--json"], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d) >= {"question", "method", "steps", "answer", "n_calls", "n_badcalls", "usage", "seconds"}
    assert set(d["usage"]) == {"prompt_tokens", "cached_tokens", "completion_tokens"}
    assert 1 <= len(d["steps"]) <= 7 and d["n_calls"] >= len(d["steps"])
    assert all(set(s) == {"thought", "action", "observation"} for s in d["steps"])
    if len(d["steps"]) > 1:  # the prompt only grows, so later steps reuse the KV cache
        assert d["usage"]["cached_tokens"] > 0


@pytest.mark.slow
def test_cot_sc_prefills_its_prompt_once(local_llm):
    one = solve("cot", "Which magazine was started first, Arthur's Magazine or First for Women?", llm=local_llm)
    local_llm.complete("unrelated text to evict the cache", max_tokens=1)
    sc = cot_sc("Which magazine was started first, Arthur's Magazine or First for Women?", local_llm, n=3)
    prefilled = sc.usage.prompt_tokens - sc.usage.cached_tokens
    assert prefilled <= 1.1 * one.usage.prompt_tokens
    assert len(sc.extra["samples"]) == 3


@pytest.mark.slow
def test_chat_recipe_against_a_loopback_server(llama_server, wiki):
    from react_teach.llm import from_spec

    m = from_spec(f"openai-compatible:{llama_server}#smollm2?mode=chat", cache=False)
    agent = Agent("Which magazine was started first, Arthur's Magazine or First for Women?", llm=m, wiki=wiki,
                  max_steps=2)
    t = agent.run()
    assert 1 <= len(t.steps) <= 2 and t.usage.prompt_tokens > 1000
    for s in t.steps:  # whatever the chat model wrote, the environment wrote every observation
        assert "\nObservation" not in (s.thought or "") + (s.action or "")


def test_a_gold_answer_makes_finish_report_the_reward_like_the_official_env(wiki):
    t = Agent("Q?", llm=ScriptLLM([" so\nAction 1: Finish[The Louvre]"]), wiki=wiki, prefix="", gold="louvre").run()
    assert t.steps[0].observation == "Episode finished, reward = 1"
    t = Agent("Q?", llm=ScriptLLM([" so\nAction 1: Finish[Prado]"]), wiki=wiki, prefix="").run()
    assert t.steps[0].observation == "Episode finished, reward = 0"


def test_the_course_index_is_opened_once_while_the_corpus_is_unchanged():
    assert LocalWiki.course() is LocalWiki.course()


SCRIPTS = {  # each a run the two loops must agree on, prompt for prompt
    "exemplar": None,  # filled from the first exemplar below
    "bad call": [" I should look for Elia Kazan.\nThen more text", " Search[Elia Kazan]",
                 " He is a director.\nAction 2: Finish[director]"],
    "no finish": [f" Thought {i}.\nAction {i}: Search[Nowhere {i}]" for i in range(1, 8)],
    "invented observation": [" Search it.\nAction 1: Search[Elia Kazan]\nObservation 1: made up",
                             " Done.\nAction 2: finish[Elia Kazan]"],
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_one_screen_react_gives_the_agents_trajectory_call_for_call(wiki, name):
    """`react()` is the loop to read; `Agent` the one to step and edit. On the same model they are the same loop."""
    e = load_exemplars("hotpotqa")[0]
    script = SCRIPTS[name] or [f" {s['thought']}\nAction {i}: {s['action']}" for i, s in enumerate(e["steps"], 1)]
    question = e["question"] if name == "exemplar" else "Who directed it?"
    prefix = ablate.prompt("react")
    ours, theirs = Recorder(ScriptLLM(script)), Recorder(ScriptLLM(script))
    t = react(question, ours, WikiEnv(wiki), prefix=prefix)
    a = Agent(question, llm=theirs, wiki=wiki, prefix=prefix).run()
    assert ours.requests == theirs.requests  # the same prompts, stops and budgets, in the same order
    assert (t.steps, t.answer, t.n_calls, t.n_badcalls, t.render()) == \
        (a.steps, a.answer, a.n_calls, a.n_badcalls, a.render())
    if name == "no finish":
        assert t.answer == "" and len(t.steps) == 7


def test_react_fits_on_one_screen():
    import inspect

    assert len(inspect.getsource(react).splitlines()) <= 40
