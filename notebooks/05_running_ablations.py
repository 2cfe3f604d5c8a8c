# %% [markdown]
# # 05 · Running ablations
#
# In this notebook you will
# - run Standard, CoT, Act and ReAct on the same course questions, live, on a couple of questions;
# - read a full run of every method over 40 course questions: exact match, F1, calls and tokens;
# - put the numbers beside the paper's Table 1, and split them into easy and hard questions;
# - learn the commands that run the same thing at full size, here or on a capable model.
#
# The paper's Table 1 compares prompting methods that differ only in which lines of the same exemplars the model
# sees (notebook 04). The point of an ablation is that one thing changes at a time.

# %% [markdown]
# ## Live, on two questions
#
# `solve(method, question)` runs one method on one question and returns its trajectory. Each method's prompt is
# read once and then kept in the local model's cache, so the first question of a method is the slow one.

# %%
import time

from react_teach import check, llm
from react_teach.agent import solve
from react_teach.data import load_questions
from react_teach.score import score
from react_teach.wiki import LocalWiki

model, wiki = llm.default(), LocalWiki.course()
questions = load_questions("hotpotqa")
live = [questions[4], questions[30]]
for method in ("standard", "cot", "act", "react"):
    started = time.perf_counter()
    for q in live:
        trace = solve(method, q["question"], llm=model, wiki=wiki)
        print(f"{method:8} {q['id']}  answer={trace.answer!r:34.34} gold={q['answer']!r:24.24} "
              f"{score(trace.answer, q['answer'])}  calls={trace.n_calls}")
    print(f"{'':8} {time.perf_counter() - started:.1f} s for {len(live)} questions")

# %% [markdown]
# ## The full run
#
# The same four methods over the first 40 questions were run with the command line (on 2 cores; drop `--n` for
# all 126), one file per method, each line a question with its trajectory, answer, scores and cost:
#
# ```
# python -m react_teach run --method react --task hotpotqa --n 40 --out data/runs/hotpotqa_react.jsonl
# ```
#
# A run is resumable: stop it at any moment and the same command carries on where it stopped.

# %%
from react_teach.data import data_dir, read_jsonl
from react_teach.score import summarize

runs = {m: read_jsonl(data_dir() / "runs" / f"hotpotqa_{m}.jsonl") for m in ("standard", "cot", "act", "react")}
summary = {m: summarize(rows)[m] for m, rows in runs.items()}
header = f"{'method':9} {'n':>4} {'EM':>6} {'F1':>6} {'calls/q':>8} {'bad/q':>6} {'prompt tok/q':>13} {'computed':>9} {'s/q':>6}"
print(header)
for m, s in summary.items():
    computed = (s["prompt_tokens"] - s["cached_tokens"]) / max(1, s["prompt_tokens"])
    print(f"{m:9} {s['n']:4} {s['em']:6.3f} {s['f1']:6.3f} {s['calls'] / s['n']:8.2f} {s['badcalls'] / s['n']:6.2f} "
          f"{s['prompt_tokens'] / s['n']:13,.0f} {computed:9.1%} {s['seconds'] / s['n']:6.1f}")

# %% [markdown]
# `computed` is the share of prompt tokens the model actually had to read: the rest came from its cache, because
# every step's prompt begins with the previous one.

# %% [markdown]
# ## Beside Table 1
#
# The paper's bars are PaLM-540B on HotpotQA dev questions; ours are a 135M-parameter model on our own questions.
# Compare the *order* of the methods, not the heights.

# %%
import matplotlib.pyplot as plt

from react_teach.plots import table1

fig = table1({m: s["em"] for m, s in summary.items()}, "hotpotqa", label=model.name)
plt.show()

# %% [markdown]
# ## Why the numbers are low, in the model's own words
#
# A small model fails at ReAct in the ways the paper lists in Table 2. Here are a few ReAct answers that missed:
# read the actions that led to them.

# %%
misses = [r for r in runs["react"] if not r["em"]][:6]
for r in misses:
    actions = " → ".join((s["action"] or "").replace("\n", " ")[:40] for s in r["steps"])
    print(f"{r['id']}: answer {r['answer']!r:.40} (gold {r['gold']!r})\n      {actions}")

# %% [markdown]
# ## Easy and hard
#
# A question is *easy* when one search on a title named in the question shows the answer, *hard* when it needs a
# second hop or a lookup (notebook 02).

# %%
by_level = {m: summarize(rows, by="level") for m, rows in runs.items()}
for m, s in by_level.items():
    print(f"{m:9} " + "  ".join(f"{lvl}: EM {s[(m, lvl)]['em']:.3f} (n={s[(m, lvl)]['n']})"
                                for lvl in ("easy", "hard") if (m, lvl) in s))

# %% [markdown]
# ## The same cells on a capable model
#
# Everything above takes a model spec. With an API key or a local server, the full table is one command per method
# (add `--concurrency 8` for a remote server: questions then run in parallel):
#
# ```
# python -m react_teach run --method react --task hotpotqa --llm openai:gpt-4o-mini --concurrency 8 --out runs/gpt_react.jsonl
# python -m react_teach run --method react --task hotpotqa --llm openai-compatible:http://localhost:11434/v1#llama3.1 --out runs/llama_react.jsonl
# ```
#
# For interactive ablations, `react_teach.widgets.AblationPanel()` offers the same choices as buttons: methods,
# task, number of questions and model, with a progress bar, the table and the plot.
#
# The runner lives in `react_teach.runs`, the scores in `react_teach.score`, the figure in `react_teach.plots`.

# %% [markdown]
# ## Summary
# - An ablation changes one thing: here, which lines of the same exemplars the model reads.
# - Runs are JSONL, one question a line, resumable, with the cost of every question.
# - A tiny model's scores are low; the paper's claims are about the ordering on a capable model, which you can
#   check with the same commands.
#
# ## Exercises
# 1. Which method makes the most model calls per question, and why?
# 2. Find a question that CoT answered correctly and ReAct did not. Read both trajectories: what went wrong?
# 3. Run `AblationPanel()` with two methods on five questions and compare with the table above.

# %%
# NBVAL_CHECK_OUTPUT
check(len({tuple(r["id"] for r in rows) for rows in runs.values()}) == 1, "every method ran on the same questions")
check(all(r["n_calls"] >= len(r["steps"]) for r in runs["react"]), "ReAct makes at least one call per step")
check(all(r["n_calls"] == 1 for r in runs["standard"] + runs["cot"]), "Standard and CoT make exactly one call")
