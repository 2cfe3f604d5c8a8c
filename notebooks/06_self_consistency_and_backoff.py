# %% [markdown]
# # 06 · Self-consistency and back-off
#
# In this notebook you will
# - sample several chains of thought at temperature 0.7 and take the majority answer (CoT-SC);
# - see why sampling n times costs one prompt read, not n, on a local model;
# - combine ReAct and CoT-SC in the paper's two directions, and plot accuracy against the number of samples;
# - check the footnote about the step limit on our own runs.
#
# The paper's best HotpotQA results (Table 1) come from hybrids: **ReAct → CoT-SC** uses CoT-SC when ReAct gives no
# answer within 7 steps, and **CoT-SC → ReAct** runs ReAct when the majority among n CoT-SC samples has fewer than
# n/2 votes, a sign that the model's internal knowledge is unsure. Figure 2 shows both reaching the accuracy of 21
# CoT-SC samples with only 3 to 5.

# %% [markdown]
# ## CoT-SC, live
#
# Five samples of the same CoT prompt at temperature 0.7. Only their answers vote, compared after the official
# normalisation (case, punctuation and articles do not split a vote).

# %%
from react_teach import check, llm
from react_teach.agent import cot_sc
from react_teach.data import load_questions

model = llm.default()
q = load_questions("hotpotqa")[4]
trace = cot_sc(q["question"], model, n=5)
print(q["question"], "| gold:", q["answer"])
print("samples: ", trace.extra["samples"])
print("majority:", repr(trace.answer), f"with {trace.extra['majority']} of 5 votes")

# %% [markdown]
# The prompt is the same for every sample, so the local model reads it once and keeps it in its cache; each
# further sample recomputes a single token before it starts writing.

# %%
u = trace.usage
print(f"prompt tokens over 5 samples: {u.prompt_tokens:,}; read from the cache: {u.cached_tokens:,}; "
      f"actually computed: {u.prompt_tokens - u.cached_tokens:,} (one prompt is {u.prompt_tokens // 5:,})")

# %% [markdown]
# ## Accuracy against samples
#
# Both hybrids need only a ReAct run and a CoT-SC run with its samples kept: the rules decide which answer to take.
# We read the full ReAct run and a CoT-SC run with 21 samples per question, made with
#
# ```
# python -m react_teach run --method cot-sc --task hotpotqa --n 20 --samples 21 --out data/runs/hotpotqa_cot-sc.jsonl
# ```
#
# and recompute every method with the first k samples, k = 1 to 21. (`solve("react-cotsc", ...)` and
# `solve("cotsc-react", ...)` run the same rules live, one question at a time.)

# %%
import matplotlib.pyplot as plt

from react_teach.data import data_dir, read_jsonl
from react_teach.plots import samples_curve
from react_teach.score import samples_curves

react = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
sc = read_jsonl(data_dir() / "runs" / "hotpotqa_cot-sc.jsonl")
curves = samples_curves(react, sc)
fig = samples_curve(curves)
plt.show()

# %%
# NBVAL_CHECK_OUTPUT
ids = {r["id"] for r in sc}
react_em = sum(r["em"] for r in react if r["id"] in ids) / len(ids)
print(f"{len(ids)} questions. ReAct alone: EM {react_em:.3f}")
for method, ys in curves.items():
    print(f"{method:12} k=1: {ys[0]:.3f}   k=3: {ys[2]:.3f}   k=5: {ys[4]:.3f}   k=21: {ys[-1]:.3f}")

# %% [markdown]
# The paper (PaLM-540B): CoT-SC 33.4, CoT-SC → ReAct 34.2, ReAct → CoT-SC 35.1 EM. With a 135M model the curves
# sit near the floor and are noisy over 20 questions; what carries over is the *mechanism*: how often each hybrid
# backs off, which the next cell counts.

# %%
# NBVAL_CHECK_OUTPUT
from react_teach.score import majority

unfinished = sum(not r.get("finished") for r in react if r["id"] in ids)
weak = sum(majority(s["samples"])[1] < len(s["samples"]) / 2 for s in sc)
print(f"ReAct → CoT-SC backs off on {unfinished} of {len(ids)} questions (ReAct gave no answer within 7 steps)")
print(f"CoT-SC → ReAct backs off on {weak} of {len(ids)} questions (the majority had fewer than 21/2 votes)")

# %% [markdown]
# ## The step-limit footnote
#
# Why stop ReAct at 7 steps? The paper reports that among *correct* ReAct trajectories only 0.84% (HotpotQA) used
# all 7 steps: more steps rarely help. Here is the same count on our run, and the distribution of steps used.

# %%
from react_teach.plots import steps_used

correct = [r for r in react if r["em"]]
at_limit = sum(len(r["steps"]) == 7 for r in correct)
print(f"{len(correct)} correct ReAct trajectories, {at_limit} of them used all 7 steps; "
      f"{sum(len(r['steps']) == 7 for r in react)} of all {len(react)} trajectories hit the limit")
fig = steps_used(react)
plt.show()

# %% [markdown]
# The sampler lives in `react_teach.agent.cot_sc`, the hybrids with every other method in the table of
# `react_teach.methods`, the curves in `react_teach.score.samples_curves`.
#
# ## Summary
# - CoT-SC samples n reasoning chains and votes; on a local model the shared prompt is read once.
# - The hybrids back off between internal knowledge (CoT-SC) and external knowledge (ReAct) by simple rules.
# - On a capable model the paper finds 3 to 5 samples enough; on a tiny one, count the back-offs, not the points.
#
# ## Exercises
# 1. Change the temperature of `cot_sc` to 0.0. What happens to the votes, and why?
# 2. In `curves`, at which k does CoT-SC → ReAct stop changing? Explain from the back-off rule.
# 3. Run `solve("cotsc-react", q["question"], n=5)` and read `extra["backoff"]`.

# %%
# NBVAL_CHECK_OUTPUT
check(all(len(s["samples"]) == 21 for s in sc), "every CoT-SC line kept its 21 samples")
check(majority(["The Louvre", "louvre", "Prado"]) == ("The Louvre", 2), "votes are counted after normalising")
