# %% [markdown]
# # 06 · Deleted lines
#
# In this notebook you will
# - treat the exemplars as data: six hand-written ReAct trajectories;
# - build the paper's Act baseline yourself by deleting lines, then check it against the module's;
# - derive Standard (question and answer only) the same way;
# - see why CoT cannot be a pure deletion, and build it as a merge;
# - count the positional pattern that a model copies from the prompt, and the step numbers it reads.
#
# The paper's baselines are not separate prompts written from scratch. Act is the ReAct prompt with every
# `Thought` line deleted, byte for byte (in the official prompt file, `webact_simple6` *is* `webthink_simple6`
# without its Thought lines). That is what makes the comparison fair: the same questions, the same actions, the same
# observations; only the reasoning is gone.

# %%
import difflib

from react_teach import check
from react_teach.ablate import prompt, to_cot, to_standard
from react_teach.data import load_exemplars
from react_teach.trajectory import Trajectory

exemplars = load_exemplars("hotpotqa")
check(len(exemplars) == 6, "six ReAct exemplars for HotpotQA")
[e["question"] for e in exemplars]

# %% [markdown]
# Each exemplar is a trajectory stored as JSON, and its observations are exactly what our tool returns (a test
# replays every action through `WikiEnv` and compares byte for byte). Rendered, it is the text the model reads:

# %%
# NBVAL_CHECK_OUTPUT
react_text = "".join(Trajectory.from_json(e).render() for e in exemplars)
first = Trajectory.from_json(exemplars[4]).render()
print(first)

# %% [markdown]
# ## 1. Act: delete every Thought line
#
# A deletion is a filter over lines: keep every line that is not a `Thought i:` line, and keep each line exactly,
# newline included, so that what is left is byte for byte the rest of the prompt.

# %%
import re


def delete_thoughts(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not re.match(r"Thought \d+: ", line))


# NBVAL_CHECK_OUTPUT
print(delete_thoughts(first))

# %% [markdown]
# The course's version is `react_teach.ablate.to_act` (one regular expression over the whole text). On every
# exemplar of both tasks, the two must agree byte for byte:

# %%
from react_teach.ablate import to_act

fever_text = "".join(Trajectory.from_json(e).render() for e in load_exemplars("fever"))
# NBVAL_CHECK_OUTPUT
check(delete_thoughts(react_text) == to_act(react_text), "HotpotQA: delete_thoughts == to_act, byte for byte")
check(delete_thoughts(fever_text) == to_act(fever_text), "FEVER: delete_thoughts == to_act, byte for byte")

# %% [markdown]
# Line by line, the only difference between the two prompts is the thoughts:

# %%
# NBVAL_CHECK_OUTPUT
diff = list(difflib.ndiff(react_text.splitlines(), to_act(react_text).splitlines()))
removed = [line[2:] for line in diff if line.startswith("- ")]
added = [line for line in diff if line.startswith("+ ")]
len(removed), all(line.startswith("Thought ") for line in removed), added

# %% [markdown]
# ## 2. Standard: keep the question and the answer

# %%
# NBVAL_CHECK_OUTPUT
print(to_standard(react_text))

# %% [markdown]
# ## 3. CoT: a merge, not a deletion
#
# Deleting the Action and Observation lines from ReAct would leave thoughts such as "I need to search Arthur's
# Magazine", which point at results the CoT model never sees; and the facts it needs were in the Observation lines.
# Two things are true of the paper here. Its *text* defines CoT by deletion, like the others: the ReAct trajectories
# with the actions and observations removed (section 3.2). Its *prompt files* hold CoT exemplars that were
# rewritten: one paragraph that states the facts and ends with "so the answer is ...". Exercise 1 shows why the
# files differ from the text. `to_cot` does the rewriting mechanically: keep the thought sentences that state facts,
# drop those that plan a search or a lookup, close with the answer.

# %%
# NBVAL_CHECK_OUTPUT
print(to_cot(first))

# %% [markdown]
# The paper's own files show the same two facts. Our test suite checks them against the official prompt JSON:
# deleting the Thought lines of `webthink_simple6` gives `webact_simple6` exactly (apart from the strings' leading
# and trailing newlines), while the paper's Standard prompt differs from a pure deletion in one capital letter
# (`Answer: Yes`), and its CoT paragraphs were written by hand.

# %% [markdown]
# ## 4. The pattern the model copies
#
# A few-shot prompt teaches a format by repetition. Count how often `Observation n` is followed by `Thought n+1`
# in the ReAct exemplars, and how the numbering runs.

# %%
from collections import Counter

lines = react_text.splitlines()
kinds = [re.match(r"(Question|Thought|Action|Observation)", line).group(1) for line in lines]
# NBVAL_CHECK_OUTPUT
Counter(zip(kinds, kinds[1:]))

# %%
# NBVAL_CHECK_OUTPUT
steps_per_exemplar = [len(e["steps"]) for e in exemplars]
steps_per_exemplar, max(steps_per_exemplar)

# %%
# NBVAL_CHECK_OUTPUT
from react_teach.agent import MAX_STEPS

numbered = re.findall(r"^(Observation|Thought) (\d+):", react_text, re.MULTILINE)
check(all(b == ("Thought", str(int(n) + 1)) for (a, n), b in zip(numbered, numbered[1:]) if a == "Observation")
      and numbered[-1][0] == "Thought", "every Observation n is followed by Thought n+1")
check(all(Trajectory.from_json(e).steps[-1].action.startswith("Finish[") for e in exemplars)
      and (min(steps_per_exemplar), max(steps_per_exemplar)) == (3, 5),
      "every exemplar ends with a Finish, after 3 to 5 steps")
check(MAX_STEPS["hotpotqa"] == 7, "the step limit is 7")

# %% [markdown]
# Every observation is followed by the next thought, and every exemplar ends with a Finish after 3 to 5 steps. The
# number in `Thought 6:` is a step counter the model can read: it has never seen an exemplar reach step 6, so late
# steps are out of the pattern it was shown. The paper's limit of 7 steps sits just past the longest exemplar.

# %% [markdown]
# ## 5. The prompts the methods use
#
# `react_teach.ablate.prompt(method)` puts an instruction in front of the derived exemplars. ReAct and Act share
# the instruction that names the three actions; Standard and CoT, which call no tool, get a shorter one.

# %%
# NBVAL_CHECK_OUTPUT
{m: len(prompt(m)) for m in ("react", "act", "cot", "standard")}

# %%
# NBVAL_CHECK_OUTPUT
from react_teach.ablate import INSTRUCTIONS, PLAIN_INSTRUCTIONS

check(all(prompt(m).startswith(INSTRUCTIONS["hotpotqa"]) for m in ("react", "act"))
      and all(prompt(m).startswith(PLAIN_INSTRUCTIONS["hotpotqa"]) for m in ("cot", "standard"))
      and len(PLAIN_INSTRUCTIONS["hotpotqa"]) < len(INSTRUCTIONS["hotpotqa"]),
      "ReAct and Act share the instruction that names the actions; Standard and CoT get a shorter one")

# %% [markdown]
# From the command line: `python -m react_teach ablate --prompts data/exemplars/hotpotqa.jsonl --to act`, or
# `--prompts prompts_naive.json --key webthink_simple6` on the official file if you have it.
#
# ## Summary
# - The baselines are the same trajectories with lines deleted: Act loses the thoughts, Standard keeps Q and A.
# - CoT is a merge: its reasoning must carry the facts that ReAct read in observations.
# - The model copies positions: Observation n is always followed by Thought n+1, and the step number is a counter.
#
# ## Exercises
# Each exercise ends with a checker: `✓` when your answer is right, `✗` and a hint when it is not, `not yet` while
# the `...` is still there.

# %%
from react_teach import exercises

ex = exercises.of("deleted_lines")

# %% [markdown]
# **1.** Write `to_reasoning_only(text)`: ReAct without its Action and Observation lines, every other line kept as
# it is. The checker runs it on the HotpotQA and FEVER exemplars. Then read its output: why is it a bad CoT prompt?

# %%
def to_reasoning_only(text: str) -> str:
    ...  # your code here


ex[1](to_reasoning_only)

# %% [markdown]
# **2.** Write your own Standard deletion, `my_standard(text)`: for each exemplar, its `Question:` (or `Claim:`)
# line, then `Answer: ` and what the exemplar put inside `Finish[...]`. Do not call `to_standard`.

# %%
def my_standard(text: str) -> str:
    ...  # your code here


ex[2](my_standard)

# %% [markdown]
# **3.** *Predict first*, from the three FEVER exemplars' claims alone: which label does each finish with, in order?
# Then build the FEVER Act prompt, `prompt("act", "fever")`, read it, and check your prediction.

# %%
my_labels = [...]  # e.g. ["SUPPORTS", ...]

ex[3](my_labels)

# %% [markdown]
# **4.** Count the tokens each prompt costs with `llm.default().complete(p, max_tokens=1)[0].usage.prompt_tokens`.
# How much of the ReAct prompt do the thoughts cost?
