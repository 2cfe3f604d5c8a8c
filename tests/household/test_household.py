"""The household: every task type solvable, every observation string pinned, garbage never raises, the exemplars
replay byte for byte, and the sparse-thought loop scripted exactly (run, step limit, edit)."""
import copy
import doctest
import json

import pytest
from react_teach.llm import Recorder
from hypothesis import assume, given, settings, strategies as st

from react_teach import household
from react_teach.data import data_dir
from react_teach.household import (NOTHING, OK, TASK_TYPES, HouseholdAgent, HouseholdEnv, Task, expert, exemplars,
                                   generate, kind, play, prompt, render)
from react_teach.llm import ScriptLLM
from react_teach.trajectory import Step, Trajectory

VERBS = {"go", "open", "close", "take", "put", "clean", "heat", "cool", "use", "examine", "inventory", "look"}


def snapshot(env: HouseholdEnv):
    return copy.deepcopy((env.contents, env.is_open, env.states, env.location, env.holding, env.lamp_on))


def objects_in(env: HouseholdEnv) -> list[str]:
    return sorted([o for objs in env.contents.values() for o in objs] + ([env.holding] if env.holding else []))


def test_the_module_doctests_pass():
    result = doctest.testmod(household)
    assert result.attempted >= 10 and result.failed == 0


# ---------------------------------------------------------------------------------------------------- generation
@pytest.mark.parametrize("task_type", TASK_TYPES)
def test_the_expert_solves_every_task_type(task_type):
    for seed in range(30):
        task = generate(task_type, seed)
        env = HouseholdEnv(task)
        env.reset()
        plan = expert(task)
        assert plan and not any(a.startswith("think:") for a in plan)
        for i, action in enumerate(plan, 1):
            obs, done = env.step(action)
            assert obs != NOTHING, (seed, action)
            assert done == (i == len(plan)), (seed, action)  # solved exactly at the last action, not before
        assert env.won


@pytest.mark.parametrize("task_type", TASK_TYPES)
def test_generation_is_deterministic_and_varied(task_type):
    tasks = [generate(task_type, seed) for seed in range(20)]
    assert tasks == [generate(task_type, seed) for seed in range(20)]
    assert len({t.layout for t in tasks}) == 20 and len({t.kind for t in tasks}) > 1
    for t in tasks:
        env = HouseholdEnv(t)
        assert env.reset() == env.reset() == env.intro
        names = [o for _, objs in t.layout for o in objs]
        assert len(names) == len(set(names)) and names.count("desklamp 1") == 1
        assert not env.won  # nothing is solved before the first action
        if t.type != "look":
            assert t.target in dict(t.layout)
            assert not [o for o in dict(t.layout)[t.target] if kind(o) == t.kind]
        wanted = [o for o in names if kind(o) == t.kind]
        assert len(wanted) >= (2 if t.type == "pick_two" else 1)


def test_task_texts():
    layout = (("cabinet 3", ()), ("shelf 1", ()), ("desk 1", ("desklamp 1", "book 1")))
    goals = {ttype: Task(ttype, "mug", "cabinet 3", layout).goal for ttype in TASK_TYPES}
    assert goals == {"pick": "put a mug in cabinet 3.", "clean": "put a clean mug in cabinet 3.",
                     "heat": "put a hot mug in cabinet 3.", "cool": "put a cool mug in cabinet 3.",
                     "look": "examine the mug with the desklamp.", "pick_two": "put two mugs in cabinet 3."}
    assert Task("cool", "apple", "shelf 1", layout).goal == "put a cool apple on shelf 1."
    with pytest.raises(ValueError, match="unknown task type"):
        generate("sweep", 0)


# ------------------------------------------------------------------------------------------ observation strings
LOOK_2 = [  # generate("look", 2): lettuce 2 on countertop 1, pencil 1 in drawer 3, the desklamp on desk 1
    ("look", "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a cabinet 2, "
             "a cabinet 3, a cabinet 4, a countertop 1, a countertop 2, a desk 1, a drawer 1, a drawer 2, "
             "a drawer 3, a fridge 1, a microwave 1, a shelf 1, a shelf 2, a sidetable 1, a sinkbasin 1, "
             "and a stoveburner 1."),
    ("inventory", "You are not carrying anything."),
    ("go to countertop 1", "You arrive at countertop 1. On the countertop 1, you see a lettuce 2."),
    ("look", "You are facing the countertop 1."),
    ("examine countertop 1", "On the countertop 1, you see a lettuce 2."),
    ("examine lettuce 2", "There's nothing special about lettuce 2."),
    ("take lettuce 2 from countertop 1", "You pick up the lettuce 2 from the countertop 1."),
    ("inventory", "You are carrying: a lettuce 2."),
    ("go to sinkbasin 1", "You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing."),
    ("clean lettuce 2 with sinkbasin 1", "You clean the lettuce 2 using the sinkbasin 1."),
    ("go to fridge 1", "You arrive at fridge 1. The fridge 1 is closed."),
    ("cool lettuce 2 with fridge 1", "You cool the lettuce 2 using the fridge 1."),
    ("examine lettuce 2", "The lettuce 2 is clean and cool."),
    ("go to microwave 1", "You arrive at microwave 1. The microwave 1 is closed."),
    ("heat lettuce 2 with microwave 1", "You heat the lettuce 2 using the microwave 1."),
    ("examine lettuce 2", "The lettuce 2 is clean and hot."),
    ("go to drawer 2", "You arrive at drawer 2. The drawer 2 is closed."),
    ("examine drawer 2", "The drawer 2 is closed."),
    ("open drawer 2", "You open the drawer 2. The drawer 2 is open. In it, you see a cd 1, and a knife 1."),
    ("put lettuce 2 in/on drawer 2", "You put the lettuce 2 in/on the drawer 2."),
    ("examine drawer 2", "The drawer 2 is open. In it, you see a cd 1, a knife 1, and a lettuce 2."),
    ("close drawer 2", "You close the drawer 2."),
    ("go to drawer 3", "You arrive at drawer 3. The drawer 3 is closed."),
    ("open drawer 3", "You open the drawer 3. The drawer 3 is open. In it, you see a pencil 1."),
    ("take pencil 1 from drawer 3", "You pick up the pencil 1 from the drawer 3."),
    ("go to drawer 2", "You arrive at drawer 2. The drawer 2 is closed."),
    ("go to desk 1", "You arrive at desk 1. On the desk 1, you see a desklamp 1."),
    ("examine desklamp 1", "The desklamp 1 is off."),
    ("think: the pencil is in my hand and the lamp is here.", "OK."),
    ("use desklamp 1", "You turn on the desklamp 1."),
]


def test_observation_strings_are_pinned():
    task = generate("look", 2)
    env = HouseholdEnv(task)
    assert env.reset() == LOOK_2[0][1] + "\nYour task is to: examine the pencil with the desklamp."
    for i, (action, expected) in enumerate(LOOK_2, 1):
        assert env.step(action) == (expected, i == len(LOOK_2)), action
    assert env.won and env.step("examine desklamp 1") == ("The desklamp 1 is on.", True)


def test_case_and_spacing_are_forgiven_and_put_accepts_in_or_on():
    env = HouseholdEnv(generate("look", 2))
    assert env.step("  Go   To Countertop 1 ")[0].startswith("You arrive at countertop 1.")
    env.step("take lettuce 2 from countertop 1")
    assert env.step("put lettuce 2 on countertop 1")[0] == "You put the lettuce 2 in/on the countertop 1."
    env.step("take lettuce 2 from countertop 1")
    assert env.step("put lettuce 2 in countertop 1")[0] == "You put the lettuce 2 in/on the countertop 1."


# ------------------------------------------------------------------------------------------------ invalid input
GARBAGE = ["", " ", "go to", "go to ", "take apple 1 from", "take from", "put", "put in/on", "\u2028", "\x00",
           "go to drawer 9", "go to desklamp 1", "open", "open sesame", "heat", "clean with", "use", "use lamp",
           "examine", "inventory please", "look around", "x" * 100_000, "go to " + "drawer 1" * 10_000,
           "put " + " in/on " * 20_000, "take " + "a from " * 20_000, "🙂 go to countertop 1", "gö to countertop 1",
           "go to countertop 1.", "go to countertop 1 and open it", "go to countertop", "think", "thinking: hm"]


@pytest.mark.parametrize("action", GARBAGE + [None, 42])
def test_garbage_is_nothing_happens(action):
    env = HouseholdEnv(generate("clean", 25))
    before = snapshot(env)
    assert env.step(action) == (NOTHING, False)
    assert snapshot(env) == before


def test_actions_that_do_not_fit_the_state_are_nothing_happens():
    env = HouseholdEnv(generate("look", 2))  # pen 1 in drawer 1; the desklamp on desk 1
    script = [
        ("take pen 1 from drawer 1", False), ("open drawer 1", False), ("use desklamp 1", False),
        ("go to drawer 1", True), ("go to drawer 1", False), ("take pen 1 from drawer 1", False),
        ("close drawer 1", False), ("put pen 1 in/on drawer 1", False), ("open drawer 1", True),
        ("open drawer 1", False), ("take pen 1 from drawer 2", False), ("take cd 1 from drawer 1", False),
        ("take pen 1 from drawer 1", True), ("take pen 1 from drawer 1", False), ("go to drawer 2", True),
        ("put pen 1 in/on drawer 2", False), ("open drawer 2", True), ("take cd 1 from drawer 2", False),
        ("go to countertop 1", True), ("open countertop 1", False),
        ("clean pen 1 with sinkbasin 1", False), ("go to microwave 1", True), ("heat pen 1 with sinkbasin 1", False),
        ("cool pen 1 with microwave 1", False), ("heat pencil 1 with microwave 1", False),
        ("examine pencil 1", False), ("put pen 1 in/on microwave 1", False), ("go to desk 1", True),
        ("put pencil 1 in/on desk 1", False), ("put pen 1 in/on desk 1", True), ("put pen 1 in/on desk 1", False),
        ("take desklamp 1 from desk 1", False), ("use desklamp 1", True), ("use desklamp 1", False),
        ("use pen 1", False), ("close desk 1", False),
    ]
    for action, works in script:
        before = snapshot(env)
        obs, _ = env.step(action)
        assert (obs != NOTHING) == works, action
        if not works:
            assert snapshot(env) == before, action


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_random_text_never_raises(text):
    words = text.lower().split()
    assume(not words or (words[0] not in VERBS and not words[0].startswith("think:")))
    env = HouseholdEnv(generate("heat", 4))
    before = snapshot(env)
    assert env.step(text) == (NOTHING, False)
    assert snapshot(env) == before


WORDS = sorted(VERBS | {"to", "from", "in/on", "in", "on", "with", "think:", "apple", "1", "2", "3"}) + [
    "countertop 1", "fridge 1", "microwave 1", "sinkbasin 1", "drawer 1", "drawer 2", "shelf 1", "desk 1",
    "sidetable 1", "cabinet 2", "potato 1", "egg 1", "knife 1", "bowl 1", "desklamp 1", "cellphone 1"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), max_size=40))
def test_any_sequence_of_near_miss_commands_keeps_the_world_whole(actions):
    task = generate("heat", 4)
    env = HouseholdEnv(task)
    everything = objects_in(env)
    for action in actions:
        before = snapshot(env)
        obs, done = env.step(action)
        assert isinstance(obs, str) and obs and "\n" not in obs
        assert done == env.won
        if obs in (NOTHING, OK):
            assert snapshot(env) == before
        assert objects_in(env) == everything  # nothing is lost or copied, at most one thing in hand


# --------------------------------------------------------------------------------------------------- exemplars
def test_exemplars_replay_byte_for_byte():
    for method in ("react", "act"):
        rows = [json.loads(line) for line in
                (data_dir() / "exemplars" / f"household_{method}.jsonl").read_text(encoding="utf-8").splitlines()]
        assert len(rows) == 2 and rows[0]["extra"]["type"] != rows[1]["extra"]["type"]
        for row in rows:
            task = generate(row["extra"]["type"], row["extra"]["seed"])
            lines = [f"think: {s['thought']}" if s["action"] is None else s["action"] for s in row["steps"]]
            replayed = play(task, lines, method=method)
            assert row["question"] == replayed.question == HouseholdEnv(task).reset()
            assert row["steps"] == [{"thought": s.thought, "action": s.action, "observation": s.observation}
                                    for s in replayed.steps]
            assert row["answer"] == replayed.answer == "success" and row["extra"]["won"] is True
            assert row["method"] == method and row["task"] == "household"
            assert len(row["steps"]) < 25
            assert all(s["observation"] != NOTHING for s in row["steps"])


def test_act_exemplars_are_the_react_ones_with_the_thoughts_deleted():
    react, act = exemplars("react"), exemplars("act")
    for r, a in zip(react, act, strict=True):
        assert sum(s.action is None for s in r.steps) >= 2  # a plan at the start, notes along the way
        assert a.steps == [s for s in r.steps if s.action is not None]
        assert (a.question, a.answer, a.extra) == (r.question, r.answer, r.extra)
    react_lines = prompt("react").split("\n")
    kept = [line for i, line in enumerate(react_lines)
            if not line.startswith("> think:") and not (i and react_lines[i - 1].startswith("> think:"))]
    act_body = prompt("act").split("\n")
    assert kept[1:] == act_body[1:]  # only the instruction's sentence about thinking differs
    assert "think" not in prompt("act")


def test_the_prompt_is_short_and_ends_where_the_task_goes():
    p = prompt("react")
    assert p.endswith("\nHere is the task.\n") and p.count("Your task is to:") == 2
    assert len(p.split()) < 1200 and len(p) < 8000  # well under 2,500 tokens for any tokenizer we use
    assert render(exemplars("react")[0]) in p


def test_render_is_the_alfworld_transcript():
    t = Trajectory("Intro.\nYour task is to: x.", [Step("plan", None, "OK."), Step(None, "go to desk 1", "Here.")])
    assert render(t) == "Intro.\nYour task is to: x.\n> think: plan\nOK.\n> go to desk 1\nHere.\n"


# -------------------------------------------------------------------------------------------------------- agent
def script_for(t: Trajectory) -> list[str]:
    """What a model would write for each step, running on with an invented observation the stop cuts off."""
    return [" " + (f"think: {s.thought}" if s.action is None else s.action) + "\nYou arrive at (invented)."
            for s in t.steps]


@pytest.mark.parametrize("method", ["react", "act"])
@pytest.mark.parametrize("which", [0, 1])
def test_a_scripted_model_reproduces_an_exemplar(method, which):
    prefix = prompt(method)
    e = exemplars(method)[which]
    llm = Recorder(ScriptLLM(script_for(e) + [" go to desk 1"] * 5))  # spare lines: the run must stop at the win
    agent = HouseholdAgent(generate(e.extra["type"], e.extra["seed"]), llm=llm, prefix=prefix, method=method)
    t = agent.run()
    assert agent.transcript() == prefix + render(e)
    assert [(s.thought, s.action, s.observation, s.author) for s in t.steps] == \
           [(s.thought, s.action, s.observation, "model") for s in e.steps]
    assert (t.answer, t.extra["won"], t.method, t.task) == ("success", True, method, "household")
    assert t.n_calls == len(e.steps) == len(llm.requests)
    for i, (p, kw) in enumerate(llm.requests):
        assert p == prefix + render(Trajectory(e.question, t.steps[:i])) + ">"
        assert kw["stop"] == ["\n"] and kw["temperature"] == 0.0
    assert t.usage.prompt_tokens == sum(len(p.split()) for p, _ in llm.requests)
    assert "invented" not in agent.transcript()


def test_a_thought_gets_ok_and_changes_nothing():
    agent = HouseholdAgent(generate("heat", 4), prefix="",
                           llm=ScriptLLM([" think: the potato is in the fridge.", "Think:Capitals too", "think:"]))
    before = snapshot(agent.env)
    steps = [agent.step() for _ in range(3)]
    assert [(s.thought, s.action, s.observation) for s in steps] == \
           [("the potato is in the fridge.", None, "OK."), ("Capitals too", None, "OK."), ("", None, "OK.")]
    assert snapshot(agent.env) == before
    assert agent.transcript().endswith("> think: the potato is in the fridge.\nOK.\n> think: Capitals too\nOK.\n"
                                       "> think: \nOK.\n")


def test_think_act_then_observe_is_one_step():
    agent = HouseholdAgent(generate("heat", 4), prefix="", llm=ScriptLLM([" go to fridge 1"]))
    pending = agent.think_act()
    assert pending == Step(None, "go to fridge 1") and agent.think_act() is pending  # asking twice costs nothing
    assert agent.trajectory.steps == [] and agent.trajectory.n_calls == 1
    assert agent.observe().observation == "You arrive at fridge 1. The fridge 1 is closed."


@pytest.mark.parametrize("max_steps", [3, 50])
def test_the_step_limit_holds(max_steps):
    llm = ScriptLLM([" go to the moon"] * 60)
    agent = HouseholdAgent(generate("clean", 25), llm=llm, prefix="", max_steps=max_steps)
    t = agent.run()
    assert len(t.steps) == t.n_calls == llm.calls == max_steps
    assert (t.answer, t.extra["won"], agent.done) == ("", False, True)
    assert all(s.observation == NOTHING for s in t.steps)
    assert HouseholdAgent(generate("clean", 25), llm=ScriptLLM([]), prefix="").max_steps == 50


def test_edit_a_thought_replays_the_world_and_a_scripted_model_then_succeeds():
    e = exemplars("react")[1]  # heat: the potato is in the fridge
    task = generate(e.extra["type"], e.extra["seed"])
    lost = [" think: I will look for a potato.", " go to countertop 1", " go to sinkbasin 1", " go to shelf 1",
            " go to shelf 1"]
    llm = ScriptLLM(lost + [" go to fridge 1", " open fridge 1", " take potato 1 from fridge 1",
                            " go to microwave 1", " heat potato 1 with microwave 1", " go to cabinet 2",
                            " open cabinet 2", " put potato 1 in/on cabinet 2"])
    agent = HouseholdAgent(task, llm=llm, prefix=prompt("react"), max_steps=5)
    assert agent.run().answer == ""  # lost: five steps, no potato
    before = agent.trajectory.steps[:2]
    agent.max_steps = 20
    step = agent.edit(3, "think: A potato is usually kept in fridge 1. I should open it.")
    assert step == Step("A potato is usually kept in fridge 1. I should open it.", None, "OK.", author="human")
    assert agent.trajectory.steps[:2] == before and len(agent.trajectory.steps) == 3
    assert agent.env.location == "countertop 1"  # replayed to where step 3 began, not where the run ended
    assert agent.trajectory.answer is None and "won" not in agent.trajectory.extra and not agent.done
    t = agent.run()
    assert (t.answer, t.extra["won"]) == ("success", True) and t.n_calls == len(llm.completions)
    # the edited episode is exactly what a fresh world gives for the same lines
    lines = [f"think: {s.thought}" if s.action is None else s.action for s in t.steps]
    assert [(s.thought, s.action, s.observation) for s in t.steps] == \
           [(s.thought, s.action, s.observation) for s in play(task, lines).steps]
    assert [s.author for s in t.steps].count("human") == 1


def test_edit_undoes_what_the_dropped_steps_did():
    agent = HouseholdAgent(generate("heat", 4), prefix="", llm=ScriptLLM(
        [" go to fridge 1", " open fridge 1", " take potato 1 from fridge 1", " go to microwave 1"]))
    for _ in range(4):
        agent.step()
    assert agent.env.holding == "potato 1"
    step = agent.edit(2, action="go to countertop 1")
    assert step == Step(None, "go to countertop 1", "You arrive at countertop 1. On the countertop 1, you see "
                                                    "nothing.", author="human")
    assert agent.env.holding is None and agent.env.is_open["fridge 1"] is False
    assert agent.env.contents["fridge 1"] == ["potato 1"]


def test_edit_rejects_what_cannot_be_done():
    agent = HouseholdAgent(generate("heat", 4), prefix="", llm=ScriptLLM([" look"]))
    agent.step()
    for k in (0, 3):
        with pytest.raises(ValueError, match="does not exist"):
            agent.edit(k, "hm")
    with pytest.raises(ValueError, match="one of the two"):
        agent.edit(1)
    with pytest.raises(ValueError, match="one of the two"):
        agent.edit(1, "hm", action="look")
    assert agent.edit(2, "hm").observation == OK  # k = len + 1 appends


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=60), min_size=1, max_size=8))
def test_garbage_completions_never_raise(completions):
    agent = HouseholdAgent(generate("cool", 3), prefix="P\n", llm=ScriptLLM(completions),
                           max_steps=len(completions))
    t = agent.run()
    assert len(t.steps) == t.n_calls <= len(completions)
    assert t.answer in ("success", "") and t.extra["won"] == (t.answer == "success")
    # every step is exactly two lines of transcript: "> action" and its observation
    assert agent.transcript().count("\n") == 1 + 2 + 2 * len(t.steps)
    assert all(isinstance(s.observation, str) and s.observation for s in t.steps)
