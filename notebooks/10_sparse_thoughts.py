# %% [markdown]
# # 10 · Sparse thoughts
#
# In this notebook you will
# - play a small text household in the spirit of ALFWorld: six task types, one line of text per action;
# - compare the ReAct exemplars with the Act exemplars (the same lines, thoughts deleted) and count where the
#   thoughts sit;
# - run ReAct and Act on the bundled model, and read where it chose to think;
# - rescue a failing episode by editing one thought (the paper's Figure 5), and see the world replayed under it;
# - see why an Act agent gives you nothing to correct in this way.
#
# On HotpotQA and FEVER every step has a Thought, an Action and an Observation, in strict alternation: the
# thoughts are **dense** because the exemplars are written that way. A household task is different. Solving it
# takes many actions (go there, open this, take that), most of which need no reasoning at all. So in ALFWorld and
# WebShop the paper lets the model decide *when* to think: a thought is one more action, `think: ...`, which the
# environment answers with `OK.` and which changes nothing in the world. The thoughts are **sparse**.

# %%
import re
import time
from collections import Counter

from react_teach import check, llm
from react_teach.data import load_exemplars
from react_teach.household import (TASK_TYPES, HouseholdAgent, HouseholdEnv, exemplars, expert, generate, prompt,
                                   render)
from react_teach.trajectory import Trajectory

# %% [markdown]
# ## 1. The world
#
# ALFWorld is a text game built on top of a simulated 3D household (ALFRED). Its six task types are the ones
# below; ours has the same six, on a smaller scale: a room of numbered receptacles (cabinets, drawers, a fridge, a
# microwave, countertops, shelves ...) holding numbered objects. `generate(task_type, seed)` builds a random room
# and a goal; the same type and seed give the same room on every machine.

# %%
# NBVAL_CHECK_OUTPUT
tasks = {task_type: generate(task_type, seed=1) for task_type in TASK_TYPES}
{task_type: task.goal for task_type, task in tasks.items()}

# %% [markdown]
# | ours | ALFWorld | what it takes |
# |---|---|---|
# | `pick` | Pick & Place | find the object, put it on or in the target |
# | `clean` | Clean & Place | ... and clean it at the sinkbasin on the way |
# | `heat` | Heat & Place | ... and heat it in the microwave |
# | `cool` | Cool & Place | ... and cool it in the fridge |
# | `look` | Examine in Light | hold the object where the desklamp is, and turn the lamp on |
# | `pick_two` | Pick Two & Place | two objects of the same kind, one trip each |
#
# The agent does not see the room. It sees what ALFWorld shows at the start: a list of places and the task.

# %%
# NBVAL_CHECK_OUTPUT
task = generate("heat", 1)
env = HouseholdEnv(task)
print(env.reset())

# %% [markdown]
# Where is the tomato? The intro does not say. The agent has to go and look, and open whatever is closed. The
# module has a scripted `expert` that cheats: it reads the hidden room and walks straight to the solution. Its
# actions, replayed through the world, show every kind of observation the agent will meet.

# %%
# NBVAL_CHECK_OUTPUT
for action in expert(task):
    observation, done = env.step(action)
    print(">", action)
    print(observation)
env.won

# %% [markdown]
# Two more observations matter. An action the world cannot carry out (wrong place, wrong object, a typo) is never
# an error: the answer is `Nothing happens.`, and the model must read it and change course. A line that starts with
# `think:` is answered `OK.` and moves nothing.

# %%
# NBVAL_CHECK_OUTPUT
env = HouseholdEnv(task)
env.reset()
env.step("take tomato 1 from countertop 1"), env.step("think: the tomato may be on countertop 1."), env.location

# %% [markdown]
# The world, the expert and the agent now live in `react_teach.household` (`generate`, `HouseholdEnv`, `expert`,
# `HouseholdAgent`).

# %% [markdown]
# ## 2. Sparse thoughts in the exemplars
#
# The few-shot prompt holds two hand-written episodes, one `clean` task and one `heat` task. Their observations were
# not written by hand: the actions were replayed through the world, so every line is one the world really produces
# (a test checks this byte for byte). Here is the shorter one, as the model reads it:

# %%
# NBVAL_CHECK_OUTPUT
react, act = exemplars("react"), exemplars("act")
print(render(react[1]))

# %% [markdown]
# The Act exemplars are the same episodes with every `think:` line and its `OK.` deleted, as in the paper ("the Act
# prompts are built from the same trajectories, without the thoughts"). The only other change is in the opening
# instruction, which for ReAct adds one sentence on how to think.

# %%
# NBVAL_CHECK_OUTPUT
same = all(a.steps == [s for s in r.steps if s.action is not None] for r, a in zip(react, act))
react_lines, act_lines = prompt("react").splitlines(), prompt("act").splitlines()
thinking = [i for i, line in enumerate(react_lines) if line.startswith("> think:")]
kept = [line for i, line in enumerate(react_lines) if i not in thinking and i - 1 not in thinking]
added = [sentence for sentence in react_lines[0].split(". ") if sentence not in act_lines[0]]
same, len(thinking), kept[1:] == act_lines[1:], added

# %% [markdown]
# Where do the thoughts sit? Mark each step of an exemplar: `T` for a thought, `·` for an action. Then, for every
# thought, ask what the world said last before it.

# %%
def pattern(trajectory: Trajectory) -> str:
    """One character per step: T a thought, · an action that did something, x an action that did nothing."""
    return "".join("T" if s.action is None else "x" if s.observation == "Nothing happens." else "·"
                   for s in trajectory.steps)


def where(trajectory: Trajectory, wanted: str) -> list[str]:
    """For each thought, the moment it was written, judged by the last observation of an action before it."""
    labels = []
    for i, s in enumerate(trajectory.steps):
        if s.action is not None:
            continue
        said = [p.observation for p in trajectory.steps[:i] if p.action is not None]
        last = said[-1] if said else ""
        labels.append("at the start" if not said else
                      "after picking something up" if last.startswith("You pick up") else
                      "after a clean/heat/cool" if last.startswith(("You clean", "You heat", "You cool")) else
                      "when the object comes into sight" if re.search(rf"\ba {wanted} \d", last) else
                      "after Nothing happens" if last == "Nothing happens." else "elsewhere")
    return labels

# %%
# NBVAL_CHECK_OUTPUT
for e in react:
    print(f"{e.extra['type']:6} {pattern(e)}")
Counter(label for e in react for label in where(e, generate(e.extra["type"], e.extra["seed"]).kind))

# %% [markdown]
# Eight thoughts in 25 steps, and they sit where a person would stop to think: at the start (the plan, and where the
# object probably is), when the object comes into sight (which one to take), and after a sub-goal is done (what
# next). Long stretches of plain walking carry none. This matches the four jobs the paper gives its ALFWorld
# thoughts: break the goal down, track which sub-goals are done, decide the next one, and use common sense about
# where things are and what to do with them.
#
# Compare the knowledge task. In the HotpotQA exemplars (notebook 04) *every* step has a thought:

# %%
# NBVAL_CHECK_OUTPUT
hotpot = [Trajectory.from_json(e) for e in load_exemplars("hotpotqa")]
steps = [s for t in hotpot for s in t.steps]
(f"HotpotQA: {sum(s.thought is not None for s in steps)} thoughts in {len(steps)} steps",
 f"household: {sum(s.action is None for e in react for s in e.steps)} thoughts in "
 f"{sum(len(e.steps) for e in react)} steps")

# %% [markdown]
# Nothing in the household loop asks for a thought. The model continues the transcript after `>` and is stopped
# at the end of the line (`stop=["\n"]`); if what it wrote starts with `think:`, the loop answers `OK.`, otherwise
# the world answers. Whether to think is the model's decision, learned only from where the exemplars think.
#
# One difference from the paper: it wrote three episodes *per task type* and prompted with two of the same type as
# the task (six orderings, hence "best of 6"). We use the same two episodes, `clean` and `heat`, for every type, so
# that the prompt stays short enough for a small model on a CPU (about 1,000 tokens).

# %% [markdown]
# ## 3. ReAct and Act on the bundled model
#
# Three tasks, each run with both prompts, at most 15 steps each (the official ALFWorld loop allows 50; a thought
# counts as a step, since it costs a model call). We chose tasks whose object lies on countertop 1, the first place
# both exemplars look: the easiest case for a model that copies its exemplars. Act runs first, then ReAct, so that
# the model's cache of the ReAct prompt is still warm for section 4.

# %%
model = llm.default()
trials = [generate("clean", 2), generate("heat", 1), generate("cool", 2)]
runs = {}
started = time.perf_counter()
for method in ("act", "react"):
    for trial in trials:
        agent = HouseholdAgent(trial, llm=model, method=method, max_steps=15)
        agent.run()
        runs[method, trial.type] = agent
print(f"6 episodes, {sum(a.trajectory.n_calls for a in runs.values())} model calls, "
      f"{time.perf_counter() - started:.0f} s on {model.name}")

# %% [markdown]
# On two idle cores this cell takes about half a minute. If other programs keep the cores busy, llama.cpp's
# threads wait for each other and the same cell can take many minutes. A second run is instant: `llm.default()`
# keeps every temperature-0 answer in an on-disk cache.

# %%
for (method, task_type), agent in runs.items():
    t = agent.trajectory
    print(f"{method:5} {task_type:5} {'success' if t.extra['won'] else 'failure':7}  {pattern(t)}")
{method: sum(runs[method, t.type].trajectory.extra["won"] for t in trials) for method in ("react", "act")}

# %% [markdown]
# Read the patterns: `T` a thought, `·` an action that did something, `x` an action answered `Nothing happens.`
# Now the ReAct episodes in full. An episode has two authors, and `show` prints each line with its own: the model
# wrote the lines after `>`, the world wrote the rest.

# %%
def show(trajectory: Trajectory) -> None:
    """The transcript with who wrote each line: model or human the lines after >, the world the rest."""
    print(trajectory.question)
    for s in trajectory.steps:
        print(f"{s.author:>6} > " + (f"think: {s.thought}" if s.action is None else s.action))
        print(f"{'world':>6}   {s.observation}")


for trial in trials:
    show(runs["react", trial.type].trajectory)

# %% [markdown]
# And where the model chose to think, with the same labels as the exemplars:

# %%
Counter(label for trial in trials for label in where(runs["react", trial.type].trajectory, trial.kind))

# %% [markdown]
# Be honest about what you see. A 135M-parameter model mostly fails here, with either prompt. Read what it did, and
# look for these: opening thoughts that are the exemplar's opening thoughts with the nouns swapped; a step that
# belongs to the exemplar's task and not to this one (heating something in a cleaning task); a later thought that
# repeats one it has already written; an action repeated after `Nothing happens.`. A small model can copy the
# *shape* of sparse thinking (a plan at the start, a note after something happens) without using the content to
# choose its next action. And three tasks decide nothing about ReAct against Act, whatever the counts above say.
#
# The paper's numbers come from PaLM-540B on 134 unseen ALFWorld games: **ReAct 71%** success (best of 6 prompts;
# 57% on average over the six), **Act 45%**, and **BUTLER 37%**, an imitation-learning agent trained on 10^5 expert
# trajectories per task type. On WebShop, ReAct reaches 40.0% success against Act's 30.1%. The gap between ReAct
# and Act is what the sparse thoughts buy, since the two prompts differ in nothing else.
#
# To run the same cells on a capable model, change one line at the top of this section:
# `model = llm.from_spec("openai:gpt-4o-mini")` (with `OPENAI_API_KEY` set), or
# `model = llm.from_spec("openai-compatible:http://localhost:11434/v1#llama3.1")` for a local server.

# %% [markdown]
# ## 4. A thought edit that rescues a failing episode
#
# In the paper's Figure 5 a ReAct agent in ALFWorld is failing; a person rewrites two of its thoughts, and the
# agent follows them to success. This is property D of the paper: the reasoning is plain text in the context, so
# a human can read it and correct it while the agent runs.
#
# Take the first ReAct episode above that failed. A person who knows the room (we do: `expert` reads it) writes one
# thought, placed where the model took its first action, naming where the object is and what to do next.
# `edit(k, thought)` cuts the episode before step k, replays the world to where step k began, puts the thought in
# as step k (author: `human`), and the loop carries on.

# %%
HINTS = {
    "clean": "The potato is on countertop 1. Next I go to countertop 1 and take potato 1 from countertop 1.",
    "heat": "The tomato is on countertop 1. Next I go to countertop 1 and take tomato 1 from countertop 1.",
    "cool": "The apple is on countertop 1. Next I go to countertop 1 and take apple 1 from countertop 1.",
}
failed = next((runs["react", t.type] for t in trials if not runs["react", t.type].trajectory.extra["won"]), None)
if failed is None:
    print("Every ReAct episode succeeded: there is nothing to rescue on this model.")
else:
    k = next((i for i, s in enumerate(failed.trajectory.steps, 1) if s.action is not None), 1)
    failed.edit(k, HINTS[failed.task.type])
    failed.run()
    nxt = failed.trajectory.steps[k] if len(failed.trajectory.steps) > k else None
    line = None if nxt is None else f"think: {nxt.thought}" if nxt.action is None else nxt.action
    print(f"{failed.task.type}: your thought is step {k}; the model's next line: {line!r}; "
          f"{'success' if failed.trajectory.extra['won'] else 'still a failure'}")
    show(failed.trajectory)

# %% [markdown]
# Did it work? Look first at the line right after your thought: the rescue only works if the model's next line
# is `go to countertop 1`, i.e. if it *reads* the thought. With the bundled model the honest answer is usually no:
# a 135M model conditions on the format of its context far more than on the content of one line, so it carries on
# as before and the episode still fails. Property D assumes a model that follows its own reasoning, and that is a
# matter of scale. Run this section on a capable model with the one-line change above and compare.
#
# ### The mechanics, with you playing the model
#
# What exactly does an edit do to the world? Here you play the model (the script backend), so every line is known.
# The task is the `heat` exemplar's: the potato is in fridge 1. The scripted model thinks the potato is on a
# countertop, wanders to cabinet 1, opens it and picks up a bowl. Five steps, and the step limit ends the episode.

# %%
# NBVAL_CHECK_OUTPUT
house = generate("heat", 4)
me = llm.from_spec("script:", completions=[
    " think: A potato is most likely on a countertop.", " go to countertop 1", " go to cabinet 1",
    " open cabinet 1", " take bowl 2 from cabinet 1",
    " go to fridge 1", " open fridge 1", " take potato 1 from fridge 1", " go to microwave 1",
    " heat potato 1 with microwave 1", " go to cabinet 2", " open cabinet 2", " put potato 1 in/on cabinet 2"])
scripted = HouseholdAgent(house, llm=me, prefix="", max_steps=5)
scripted.run().answer, scripted.env.location, scripted.env.holding, scripted.env.is_open["cabinet 1"]

# %% [markdown]
# Now edit step 3, the moment it left countertop 1. Steps 3 to 5 are dropped and the world is rebuilt by replaying
# steps 1 and 2 in a fresh room, since the world is deterministic: the agent is back at countertop 1, holding
# nothing, and cabinet 1 is closed again. Your thought becomes step 3.

# %%
# NBVAL_CHECK_OUTPUT
step = scripted.edit(3, "Potatoes are kept cold, so potato 1 is probably in fridge 1. I go there next.")
step, scripted.env.location, scripted.env.holding, scripted.env.is_open["cabinet 1"]

# %% [markdown]
# The loop carries on from there (we raise the step limit first). Each line is printed with its author: the model,
# you, or the world.

# %%
# NBVAL_CHECK_OUTPUT
scripted.max_steps = 20
print(scripted.run().answer)
show(scripted.trajectory)

# %% [markdown]
# With a model that reads its thoughts, this is Figure 5: one line of language, and the next eight actions follow
# from it. The edit is notebook 08's, from the one loop in `react_teach.loop`;
# `edit(k, action=...)` puts in an action instead of a thought.

# %% [markdown]
# ## 5. Why an Act agent cannot be corrected this way
#
# An Act transcript is actions and observations only. Nowhere does it say what the agent believes (the potato is
# on the countertop) or plans (clean it, then the drawer), so there is no line whose correction would change what
# it does next. The ReAct correction above was one line; for an Act agent the only lever is the actions themselves.

# %%
act_thoughts = {t.type: sum(s.action is None for s in runs["act", t.type].trajectory.steps) for t in trials}
act_thoughts

# %% [markdown]
# No thoughts to edit. To guarantee success by editing actions you would have to write the solution yourself, one action
# per line: that is doing the agent's job, not correcting it.

# %%
# NBVAL_CHECK_OUTPUT
{t.type: f"1 thought (ReAct) or {len(expert(t))} actions (Act)" for t in trials}

# %% [markdown]
# You can try the middle way: replace one action and hope the model carries on. Here the first action of a failed
# Act episode becomes `go to countertop 1`, and the model writes the next three. Standing in front of the object is
# not the same as knowing that it is the object to take, and whatever the model does next, it has no plan it could
# have read.

# %%
lost = next((runs["act", t.type] for t in trials if not runs["act", t.type].trajectory.extra["won"]), None)
if lost is not None:
    lost.edit(1, action="go to countertop 1")
    lost.max_steps = 4
    lost.run()
    show(lost.trajectory)

# %% [markdown]
# The same holds for an agent trained by reinforcement or imitation learning, such as BUTLER: its policy is a
# network, and there is no text in the loop for a person to read or rewrite.
#
# ## Summary
# - Decision tasks take many actions and need few thoughts; ALFWorld-style ReAct makes a thought one more action,
#   `think: ...`, answered `OK.`, and lets the model decide when to take it.
# - Our exemplars think 8 times in 25 steps: at the start, when the object comes into sight, after a sub-goal.
#   HotpotQA's exemplars think at every step. The Act exemplars are the same episodes with the thoughts deleted.
# - On PaLM-540B sparse thoughts take ALFWorld success from 45% (Act) to 71% (ReAct); a 135M model copies the
#   shape of the thoughts but mostly fails with either prompt.
# - `edit(k, thought)` cuts the episode, replays the deterministic world to step k and lets the model continue
#   from your thought; whether it follows is a question of the model.
# - An Act agent has no thought to correct: you can only write its actions for it.
#
# ## Exercises
# 1. Rerun section 3 with `max_steps=50`, the official limit. Does more room change anything for the small model?
#    Count the `x` in the patterns.
# 2. The paper prompts with two exemplars of the *same* type as the task. Write a ReAct episode for a `cool` task
#    as a list of lines, check it with `react_teach.household.play(generate("cool", 7), lines)` (it must succeed),
#    add its `render(...)` to the prefix and pass that as `HouseholdAgent(..., prefix=...)`. Does the model do
#    better on `generate("cool", 2)`?
# 3. Insert a thought into an Act episode with `edit(k, "...")`. The world answers `OK.`; what does the model do
#    with a kind of line its exemplars never showed?
# 4. Figure 5 edits two thoughts. Edit the failed episode a second time, a few steps after your first thought,
#    with the next sub-goal. Does the bundled model follow now? Try both edits on a capable model.

# %%
# NBVAL_CHECK_OUTPUT
def solved(t):
    env = HouseholdEnv(t)
    return not env.won and [env.step(action) for action in expert(t)][-1][1]


check(all(solved(t) for t in tasks.values()), "the expert solves a task of every type")
check(same and "think" not in prompt("act"), "the Act exemplars are the ReAct ones without their thoughts")
check(sum(pattern(e).count("T") for e in react) == 8, "8 thoughts in the 25 exemplar steps")
check(all(len(a.trajectory.steps) <= 15 for a in runs.values()), "no episode goes past its step limit")
check(all(s.observation == "OK." for a in runs.values() for s in a.trajectory.steps if s.action is None),
      "every thought is answered OK.")
check(scripted.trajectory.answer == "success" and [s.author for s in scripted.trajectory.steps].count("human") == 1,
      "the scripted edit replays the world and succeeds")
