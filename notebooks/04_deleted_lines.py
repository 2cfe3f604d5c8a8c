# %% [markdown]
# # 04 · Deleted lines
#
# In this notebook you will
# - treat the exemplars as data: six hand-written ReAct trajectories;
# - build the paper's baselines from them by deleting lines: Act (no thoughts), Standard (question and answer);
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
from react_teach.ablate import prompt, to_act, to_cot, to_standard
from react_teach.data import load_exemplars
from react_teach.trajectory import Trajectory

exemplars = load_exemplars("hotpotqa")
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
# ## Act: delete every Thought line

# %%
# NBVAL_CHECK_OUTPUT
print(to_act(first))

# %% [markdown]
# Line by line, the only difference between the two prompts is the thoughts:

# %%
# NBVAL_CHECK_OUTPUT
diff = list(difflib.ndiff(react_text.splitlines(), to_act(react_text).splitlines()))
removed = [line[2:] for line in diff if line.startswith("- ")]
added = [line for line in diff if line.startswith("+ ")]
len(removed), all(line.startswith("Thought ") for line in removed), added

# %% [markdown]
# ## Standard: keep the question and the answer

# %%
# NBVAL_CHECK_OUTPUT
print(to_standard(react_text))

# %% [markdown]
# ## CoT: a merge, not a deletion
#
# Deleting the Action and Observation lines from ReAct would leave thoughts such as "I need to search Arthur's
# Magazine", which point at results the CoT model never sees; and the facts it needs were in the Observation lines.
# The paper's CoT exemplars are therefore *rewritten*: one paragraph that states the facts and ends with "so the
# answer is ...". `to_cot` does that merge mechanically: keep the thought sentences that state facts, drop those that
# plan a search or a lookup, close with the answer.

# %%
# NBVAL_CHECK_OUTPUT
print(to_cot(first))

# %% [markdown]
# The paper's own files show the same two facts. Our test suite checks them against the official prompt JSON:
# deleting the Thought lines of `webthink_simple6` gives `webact_simple6` exactly (apart from the strings' leading
# and trailing newlines), while the paper's Standard prompt differs from a pure deletion in one capital letter
# (`Answer: Yes`), and its CoT paragraphs were written by hand.

# %% [markdown]
# ## The pattern the model copies
#
# A few-shot prompt teaches a format by repetition. Count how often `Observation n` is followed by `Thought n+1`
# in the ReAct exemplars, and how the numbering runs.

# %%
import re
from collections import Counter

lines = react_text.splitlines()
kinds = [re.match(r"(Question|Thought|Action|Observation)", line).group(1) for line in lines]
# NBVAL_CHECK_OUTPUT
Counter(zip(kinds, kinds[1:]))

# %%
# NBVAL_CHECK_OUTPUT
steps_per_exemplar = [len(e["steps"]) for e in exemplars]
steps_per_exemplar, max(steps_per_exemplar)

# %% [markdown]
# Every observation is followed by the next thought, and every exemplar ends with a Finish after 3 to 5 steps. The
# number in `Thought 6:` is a step counter the model can read: it has never seen an exemplar reach step 6, so late
# steps are out of the pattern it was shown. The paper's limit of 7 steps sits just past the longest exemplar.

# %% [markdown]
# ## The prompts the methods use
#
# `react_teach.ablate.prompt(method)` puts an instruction in front of the derived exemplars. ReAct and Act share
# the instruction that names the three actions; Standard and CoT, which call no tool, get a shorter one.

# %%
# NBVAL_CHECK_OUTPUT
{m: len(prompt(m)) for m in ("react", "act", "cot", "standard")}

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
# 1. Write `to_reasoning_only`: ReAct without Action and Observation lines. Why is it a bad CoT prompt?
# 2. Build the FEVER prompts: `prompt("act", "fever")`. Which label does each exemplar finish with?
# 3. Count the tokens each prompt costs with `llm.default().complete(p, max_tokens=1)[0].usage.prompt_tokens`.

# %%
# NBVAL_CHECK_OUTPUT
fever = prompt("act", "fever")
examples = fever.split("Examples follow.")[1]
check("Thought" not in examples, "the FEVER Act prompt has no thoughts")
check(re.findall(r"Finish\[(.*?)\]", examples) == ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"], "one exemplar per label")
