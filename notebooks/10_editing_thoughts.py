# %% [markdown]
# # 10 · Editing thoughts
#
# In this notebook you will
# - step through a trajectory one step at a time, seeing who wrote each line;
# - rewrite a thought in the middle of a trajectory and let the model carry on from your version;
# - keep both branches, compare them side by side, and save them;
# - see why an agent that acts without thoughts cannot be corrected this way.
#
# The paper calls this property D, *human-aligned and controllable*: it lists it in section 2 with the other three
# properties of ReAct, and shows it in section 4 (Figure 5). Because ReAct's reasoning is plain text in the context,
# a person can read it, and can **edit** it. In the paper's ALFWorld example, changing
# two thoughts turns a failing episode into a success. An Act agent has no thought to edit.

# %%
from IPython.display import HTML

from react_teach import check, llm
from react_teach.agent import Agent
from react_teach.ui.widgets import TraceEditor, TraceViewer
from react_teach.wiki import LocalWiki

model, wiki = llm.default(), LocalWiki.course()
APPLE = ("Aside from the Apple Remote, what other device can control the program Apple Remote was originally "
         "designed to interact with?")
GOLD = "keyboard function keys"

# %% [markdown]
# ## 1. Step through a trajectory
#
# This is the paper's Figure 1 question. Run it once on the bundled model, then step through it with **Next**:
# blue lines are the model's, green lines the environment's.

# %%
agent = Agent(APPLE, llm=model, wiki=wiki)
original = agent.run()
TraceViewer(original, gold=GOLD)

# %% [markdown]
# ## 2. Rewrite a thought, resume
#
# Suppose the model went wrong after its first search. The first observation says the remote was designed for
# Front Row; the page to read next is `Front Row (software)`. We rewrite thought 2 to say so. `edit(2, ...)` cuts
# the trajectory before step 2, replays the environment to where step 2 began, puts our thought in, and lets the
# model write the action under the same rules (`Action 2:` with the stop `"\n"`); then the loop carries on.

# %%
editor = TraceEditor(agent, gold=GOLD)
edited = editor.edit_and_resume(
    2, "The Apple Remote was designed to interact with Front Row. I need to search Front Row (software) and find "
       "what else can control it.")
print("original:", repr(original.answer), "| edited:", repr(edited.answer), "| gold:", repr(GOLD))
editor

# %% [markdown]
# Did the edited branch reach the gold answer? If it did, the model *read* your thought and followed it. If it did
# not, look at what it wrote after your line: a 135M-parameter model often does not condition on its own context
# closely enough to be steered, and the paper's property D assumes a model that does. The same cell on a capable
# model is one change at the top: `model = llm.from_spec("openai:gpt-4o-mini")` (with `OPENAI_API_KEY`), or
# `llm.from_spec("openai-compatible:http://localhost:11434/v1#llama3.1")` for a local server.

# %% [markdown]
# ## 3. Compare the branches
#
# Every edit keeps the trajectory it replaced. The comparison shows the two transcripts line by line (changed lines
# marked) and both outcomes.

# %%
HTML(editor.compare("original", "edit 1: step 2"))

# %% [markdown]
# ## 4. What exactly the model sees after an edit
#
# Here you play the model, so every line is known in advance. After the edit the model is called on the transcript
# up to your thought, followed by `Action 2:`, with the stop `"\n"`: it writes one action and nothing else.
#
# **Predict first** (exercise 3). The next cell runs the script to the end (a wrong answer, in two calls), edits
# thought 2, and runs again to the end. How many model calls will it have made in all? Write your number before
# you run it.

# %%
from react_teach import exercises

ex = exercises.of("editing_thoughts")
my_calls = ...  # your prediction: a whole number of model calls

# %%
me = llm.Recorder(llm.from_spec("script:", completions=[
    " I need to search Apple Remote.\nAction 1: Search[Apple Remote]",
    " It was made for Front Row, so the answer is Front Row.\nAction 2: Finish[Front Row]",
    " Search[Front Row (software)]",
    " It can be controlled by the keyboard function keys, so the answer is keyboard function keys.\n"
    "Action 3: Finish[keyboard function keys]"]))
scripted = Agent(APPLE, llm=me, wiki=wiki, prefix="")
first = scripted.run()
scripted.edit(2, "Front Row is the program. I need to search Front Row (software).")
second = scripted.run()
# NBVAL_CHECK_OUTPUT
(me.requests[2][0][-90:], me.requests[2][1]["stop"]), (first.answer, second.answer), [s.author for s in second.steps]

# %%
print(f"{len(me.requests)} model calls in all")
ex[3](my_calls)

# %% [markdown]
# ## 5. Save and load branches
#
# Branches are plain JSON: question, gold answer, and each branch's trajectory. The editor's **Save** and **Load**
# buttons do the same as these calls.

# %%
import json
import tempfile
from pathlib import Path

path = Path(tempfile.mkdtemp()) / "apple_branches.json"
editor.save(path)
# NBVAL_CHECK_OUTPUT
list(json.loads(path.read_text())["branches"])

# %% [markdown]
# ## 6. Why Act cannot be corrected this way
#
# An Act agent's transcript has only actions and observations. There is no line that says what the agent believes
# or plans, so there is nothing to correct *in language*: to change its course you must write its next action
# yourself, which is doing its job, not guiding it. A thought is a lever because the model's next action is
# conditioned on it.

# %%
# NBVAL_CHECK_OUTPUT
act = Agent(APPLE, llm=llm.from_spec("script:", completions=[" Search[Apple Remote]", " Finish[Front Row]"]),
            wiki=wiki, method="act", prefix="")
print(act.run().render())

# %% [markdown]
# ## 7. A model that follows the edit
#
# Section 2's edit did not steer the bundled model: a 135M model prompted with exemplars does not condition on its
# context closely enough. The paper's answer for small models is fine-tuning: the adapter `local:ft-react` learned
# the ReAct format from oracle trajectories of generated worlds (we build it in notebook 16, *fine-tuning*). Here
# it is on a question from a test world, one no model trained on, that it got wrong on its own (the first such
# question, among the benchmark's, that it also gets wrong here). We rewrite its first wrong thought, at the step where its action first left the right
# path, and resume.

# %%
from react_teach import world
from react_teach.runs import report
from react_teach.score import exact_match

test = report.summary("test")  # benchmarks/worlds_eval.py --test
rescue = test["rescue"]
ft = llm.from_spec("local:ft-react")
for case in [c for c in rescue["cases"] if c["em"] and c["kind"] == "plan"][:5]:  # edits that plan, not answer
    test_world, q = world.question(case["id"], test["version"])
    ft_agent = Agent(q["question"], llm=ft, wiki=world.wiki(test_world), gold=q["answer"])
    ft_original = ft_agent.run()
    if not exact_match(ft_original.answer, q["answer"]):  # wrong here too: the benchmark ran on another machine,
        break                                             # and a greedy decode can differ by a token between builds
ft_editor = TraceEditor(ft_agent, gold=q["answer"])
ft_edited = ft_editor.edit_and_resume(case["step"], case["thought"])
print(f"{q['question']}\noriginal: {ft_original.answer!r} | edited: {ft_edited.answer!r} | gold: {q['answer']!r}")
HTML(ft_editor.compare("original", f"edit 1: step {case['step']}"))

# %%
# NBVAL_CHECK_OUTPUT
check(not exact_match(ft_original.answer, q["answer"]) and exact_match(ft_edited.answer, q["answer"]),
      "the fine-tuned model fails on its own and reaches the gold answer after the edit")

# %% [markdown]
# Over the test worlds, `benchmarks/worlds_eval.py --test` did this for every failure of the fine-tuned model:
# the share that one edited thought rescues, split by whether the edit only said what to read next ("plan") or
# stated the conclusion. Keep the two apart: an edit that states the answer measures whether the model copies
# it, not whether it follows a plan, so only the first line is evidence of steering.

# %%
for kind in ("plan", "conclusion"):
    r = rescue[kind]
    print(f"{kind:10s} {r['rescued']:3d} of {r['failures']:3d} rescued ({r['share']:.2f}, 95% CI {r['ci95']})")

# %% [markdown]
# The editor lives in `react_teach.ui.widgets.TraceEditor`; it calls `edit`, which every agent shares from the one
# loop in `react_teach.loop` (the household agent of notebook 12 too). An edit starts a new branch: the trajectory
# `run()` returned before it stays as it was.
#
# ## Summary
# - A ReAct transcript has two authors; a third (you) can step in at any thought.
# - `edit(k, thought)` cuts before step k, replays the environment, inserts your thought and lets the model act.
# - Every edit is a branch you can compare, save and load.
# - Steering needs a model that reads its own thoughts; Act gives you nothing to steer with.
#
# ## Exercises
#
# Each exercise prints ✓, or ✗ with a hint, or "not yet" while the answer is still `...`. Reference solutions are
# in `notebooks/solutions/`. Both use the Apple question with a scripted step 1 (`Search[Apple Remote]`) and this
# edit of thought 2:

# %%
from react_teach.checks.editing_thoughts import THOUGHT

print(THOUGHT)

# %% [markdown]
# 1. **What the model reads.** After `edit(2, THOUGHT)` the agent makes one model call. Write the last two lines
#    of that call's prompt, as one string with `\n` between them.

# %%
last_two_lines = ...  # your answer
ex[1](last_two_lines)

# %% [markdown]
# 2. **A model that follows.** Play the model after the edit: write the list of completions a `ScriptLLM` must
#    give, from the call the edit makes to the final answer, so that the agent follows your thought and finishes
#    with the gold answer. Read the observation of `Search[Front Row (software)]` with `wiki` to find the answer.

# %%
follower = [...]  # your completions, e.g. [" ...", " ..."]
ex[2](follower)

# %% [markdown]
# 3. **The calls an edit costs**: your prediction in section 4.
#
# 4. (Open) Edit thought 1 instead of thought 2 on the bundled model: does an earlier correction help more or
#    less? Then load the saved branches into a new `TraceEditor` and compare them again.

# %%
# NBVAL_CHECK_OUTPUT
check(second.answer == GOLD and second.steps[1].author == "human", "the scripted edit reaches the gold answer")
check(editor.branches["original"].answer == original.answer, "the original branch is kept unchanged")
