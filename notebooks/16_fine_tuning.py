# %% [markdown]
# # 16 · Fine-tuning: a small model that learns to act
#
# In this notebook you will
# - see why the paper fine-tunes small models instead of prompting them (section 3.3, Figure 3);
# - turn one oracle trajectory into the training text of Standard, CoT, Act and ReAct: the deleted lines again;
# - see exactly which tokens a model learns to write, and which the environment writes for it;
# - fine-tune the bundled model yourself for a few seconds and watch the loss fall;
# - load the shipped adapters, compare prompted and fine-tuned on a world no model has read, and edit a thought of
#   a model that has learned the skill;
# - ask the fine-tuned model a question of your own, and set it beside the honest rate on reworded questions.
#
# Everything so far ran SmolLM2-135M with six exemplars in its prompt, and it failed in the ways the paper
# describes. The paper saw the same with its own small models: prompted, PaLM-8B and PaLM-62B were the *worst* at
# ReAct among the methods. Fine-tuned on 3,000 correct ReAct trajectories, the picture turned over: fine-tuned 8B
# ReAct beat every prompting method of 62B, and fine-tuned 62B beat every prompting method of 540B. The fine-tuned
# models were prompted **zero-shot**: the question, and nothing else. Reasoning and acting is a skill a model can
# learn from examples of it, not only a prompt trick for very large models.

# %%
import json
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import HTML

from react_teach import check, exercises, finetune, llm, world
from react_teach.llm.adapters import SHIPPED, provenance
from react_teach.agent import Agent
from react_teach.data import data_dir

ex = exercises.of("fine_tuning")
train_world = world.generate(world.TRAIN_SEEDS[0], world.SIZE)
train_wiki = world.wiki(train_world)

# %% [markdown]
# ## 1 · The data: one trajectory, four formats
#
# The training data are the oracle's trajectories through the generated worlds (notebook *a world no one has
# read*): every observation is real tool output, every answer is the gold. The four fine-tuned models of Figure 3
# learn from the *same* trajectories, each in its own format, made by deleting lines exactly as in notebook
# *deleted lines*: Act loses the thoughts, CoT loses the actions and observations, Standard keeps only the answer.

# %%
oracle = world.oracle(train_world, train_world.questions[3], train_wiki)
for method in finetune.METHODS:
    print(f"──── {method}\n{finetune.training_text(oracle, method)}")

# %% [markdown]
# ## 2 · Which tokens are learned
#
# A trajectory has two authors. The model writes the thoughts and actions; the environment writes the
# observations. At inference the harness appends the cue (`Thought 2:`), the model writes until the stop sequence
# `\nObservation 2:`, and the harness writes the observation. So by default the loss is taken on the model's
# turns only, *including* the stop sequence, which is how the model learns to hand the pen back (blue below).
# The paper decoded whole trajectories, observations included; we trained that variant too, as an ablation.

# %%
def show(segs):
    spans = "".join(f'<span style="color:{"#1f5fbf" if learn else "#999"}">{text}</span>' for text, learn in segs)
    return HTML(f'<pre style="white-space:pre-wrap">{spans}</pre>')


show(finetune.segments(finetune.training_text(oracle, "react"), "react"))

# %% [markdown]
# ## 3 · A fine-tune you can watch
#
# The shipped ReAct adapter took 23 minutes on two cores (its provenance is printed in section 4). Here is the
# same code on 8 trajectories, 10 steps: a LoRA adapter of rank 8 on every projection of the bundled model,
# trained with torch on the CPU from the very weights llama.cpp runs (read from the GGUF file), then written as a
# GGUF adapter that llama.cpp loads.

# %%
try:
    import torch  # noqa: F401  (the training extra: pip install 'react_teach[train]')
    mini = finetune.train(finetune.world_texts("react", 8), "react", Path(tempfile.mkdtemp()) / "mini.gguf",
                          epochs=5, batch_tokens=512, lr=3e-3, max_steps=10, progress=False)
    plt.figure(figsize=(5, 2.5))
    plt.plot(range(1, len(mini["losses"]) + 1), mini["losses"], marker="o")
    plt.xlabel("step")
    plt.ylabel("loss on the model's tokens")
    plt.title("a 10-step fine-tune on 8 trajectories")
    plt.show()
except ImportError:
    print("the training extra is not installed: pip install 'react_teach[train]' to run this cell")

# %% [markdown]
# ## 4 · The shipped adapters
#
# Four adapters ship in `data/models/`, one per method, each with a provenance file: the base model's and the
# data's hashes, the steps, learning rate, rank, loss, minutes, and the command that reproduces it. A model spec
# loads one on the bundled base: `local:ft-react`, `local:ft-act`, `local:ft-cot`, `local:ft-standard`.

# %%
for name in SHIPPED:
    try:
        p = provenance(name)
        print(f"{name:12s} {p['examples']} trajectories, {p['steps']} steps, lr {p['lr']}, rank {p['rank']}, "
              f"loss {p['first_loss']} -> {p['final_loss']}, {p['minutes']} min on {p['threads']} threads")
    except Exception as e:
        print(f"{name:12s} {e}")

# %% [markdown]
# Here is one question from the held-out world (a seed never used for training), first for the bundled model with
# six exemplars, then for the fine-tuned one with none.

# %%
held = world.generate(world.HELDOUT_SEED, world.SIZE)
held_wiki = world.wiki(held)
q = held.questions[0]
for spec in ("local", "local:ft-react"):
    t = Agent(q["question"], llm=llm.from_spec(spec), wiki=held_wiki, gold=q["answer"]).run()
    print(f"──── {spec}: answer {t.answer!r}, gold {q['answer']!r}\n{t.render()[-900:]}")

# %% [markdown]
# ## 5 · Figure 3, in miniature
#
# `benchmarks/finetune_eval.py` ran every method on the 200 held-out questions, prompted and fine-tuned, except
# prompted ReAct: its committed run holds only the first 95 questions (at 6.6 s a question it is the slowest, and
# the run was not completed). So the table has two columns, each with one n: all 200 questions for the seven runs
# that have them, and the 95 questions that all eight runs share, read from the per-question files. Beside them,
# what answers that need no reading score on the same questions: always "yes", always "no", and the guessing floor
# of notebook 03 (yes, or the first option of a two-way question).
#
# **Predict first** (exercise 3). Standard and CoT cannot know a world they have never read; Act and ReAct can
# look it up. Which of the four *fine-tuned* formats will clear the guessing floor with their whole 95% interval?
# Write a list of names before you run the next cell.

# %%
my_beaters = ...  # your prediction: a list of names from "react", "act", "cot", "standard"

# %%
from react_teach.checks.fine_tuning import floor
from react_teach.data import read_jsonl
from react_teach.runs.stats import wilson
from react_teach.score import exact_match

summary = json.loads((data_dir() / "runs" / "finetune" / "summary.json").read_text())
keys = [f"world_{kind}_{m}" for m in finetune.METHODS[::-1] for kind in ("prompted", "ft")]
right = {k: {r["id"]: bool(r["em"]) for r in read_jsonl(data_dir() / "runs" / "finetune" / f"{k}.jsonl")}
         for k in keys}
full = {q["id"] for q in held.questions}
shared = set.intersection(*(set(v) for v in right.values()))


def cell(key, ids):
    """EM with a Wilson interval on exactly the questions `ids`, or a dash if the run does not cover them."""
    if not ids <= set(right[key]):
        return "-"
    k = sum(right[key][i] for i in ids)
    lo, hi = wilson(k, len(ids))
    return f"{k / len(ids):.3f} [{lo:.3f}, {hi:.3f}]"


def constant(ids):
    qs = [q for q in held.questions if q["id"] in ids]
    return {"always yes": sum(exact_match("yes", q["answer"]) for q in qs) / len(qs),
            "always no": sum(exact_match("no", q["answer"]) for q in qs) / len(qs), "guessing floor": floor(qs)}


print(f"{'method':9s} {'':9s} {f'all questions, n = {len(full)}':>24s}   {f'shared, n = {len(shared)}':>22s}")
for key in keys:
    _, kind, method = key.split("_")
    print(f"{method:9s} {kind:9s} {cell(key, full):>24s}   {cell(key, shared):>22s}")
for name in ("always yes", "always no", "guessing floor"):
    print(f"{name:19s} {constant(full)[name]:>24.3f}   {constant(shared)[name]:>22.3f}")
assert abs(constant(full)["always yes"] - summary["heldout"]["baselines"]["always yes"]) < 1e-9  # as the benchmark

# %%
fig, ax = plt.subplots(figsize=(6.5, 3))
for j, kind in enumerate(("prompted", "ft")):
    xs = [i + 0.38 * j for i, m in enumerate(finetune.METHODS[::-1])]
    got = [summary.get(f"world_{kind}_{m}") for m in finetune.METHODS[::-1]]
    em = [g["em"] if g else 0 for g in got]
    err = [[g["em"] - g["ci95"][0] if g else 0 for g in got], [g["ci95"][1] - g["em"] if g else 0 for g in got]]
    ax.bar(xs, em, 0.36, yerr=err, capsize=3, label="prompted, 6 exemplars" if kind == "prompted"
           else "fine-tuned, zero-shot")
for name, value in constant(full).items():
    ax.axhline(value, ls="-" if name == "guessing floor" else "--", lw=1, color="black" if name == "guessing floor"
               else "grey")
    ax.text(3.6, value, name, fontsize=8, va="bottom")
ax.set_xticks([i + 0.19 for i in range(4)], finetune.METHODS[::-1])
ax.set_ylabel("EM, held-out world")
ax.set_title(f"SmolLM2-135M, n = {len(full)} questions (prompted ReAct: n = {len(right['world_prompted_react'])})")
ax.legend(fontsize=8)
plt.show()
print("fine-tuned formats whose whole interval clears the guessing floor:",
      [m for m in finetune.METHODS if summary[f"world_ft_{m}"]["ci95"][0] > constant(full)["guessing floor"]])
ex[3](my_beaters)

# %% [markdown]
# Fine-tuned Standard and CoT score what guessing scores: they learned the form of an answer, and in a world they
# never read, the form is all they can give. Fine-tuned Act and ReAct clear the floor by far. On the 95 shared
# questions the two fine-tuned formats that look things up are again far above the rest, and prompted ReAct is
# the lowest of all; the weaker methods swap places between the columns, as their overlapping intervals allow.

# %%
# NBVAL_CHECK_OUTPUT
g = constant(full)["guessing floor"]
check(all(summary[f"world_ft_{m}"]["ci95"][0] <= g for m in ("standard", "cot")),
      "fine-tuned Standard and CoT do not clear the guessing floor")
check(all(summary[f"world_ft_{m}"]["ci95"][0] > g for m in ("act", "react")), "fine-tuned Act and ReAct clear it")
top = lambda ids: sorted(
    (k for k in keys if ids <= set(right[k])), key=lambda k: -sum(right[k][i] for i in ids))[:2]
check(set(top(full)) == set(top(shared)) == {"world_ft_act", "world_ft_react"},
      "fine-tuned Act and ReAct are the two best on all questions and on the shared ones")
check(min(keys, key=lambda k: sum(right[k][i] for i in shared)) == "world_prompted_react",
      "prompted ReAct is the lowest on the shared questions")

# %% [markdown]
# ## 6 · Editing a thought of a model that has learned the skill
#
# Property D again (notebook *editing thoughts*), now on a model that conditions on its context. The benchmark took
# every held-out question the fine-tuned ReAct model got wrong, replaced its first wrong thought with the oracle's
# thought at that step, and let the agent resume. When that thought is the last one, it states the answer, and
# following it is easy; when it only says what to read next, the model still has to find the answer itself. So the
# two kinds are counted apart: only a rescue by a plan edit shows the model steered by a thought; a rescue by a
# conclusion edit mostly shows that it copies an answer it is handed.

# %%
r = summary["rescue"]
for part, name in ((r["plan"], "edit says what to read next"), (r["conclusion"], "edit states the conclusion")):
    print(f"{name:30s} {part['rescued']:2d} of {part['failures']:2d} rescued "
          f"(share {part['share']:.2f}, 95% CI {part['ci95']})")
ft = llm.from_spec("local:ft-react")
for case in [c for c in r["cases"] if c["em"] and c["kind"] == "plan"][:5]:  # the model must still find the answer
    q = next(x for x in held.questions if x["id"] == case["id"])
    agent = Agent(q["question"], llm=ft, wiki=held_wiki, gold=q["answer"])
    before = agent.run().answer
    if not exact_match(before, q["answer"]):  # the first of the benchmark's failures that fails here too
        break
print(f"question: {q['question']}\nbefore the edit: {before!r}   gold: {q['answer']!r}")
print(f"edit step {case['step']}: {case['thought']}")
agent.edit(case["step"], thought=case["thought"])
after = agent.run()
print(after.render()[-700:])
print("after the edit:", repr(after.answer))
check(not exact_match(before, q["answer"]) and exact_match(after.answer, q["answer"]),
      "a failure of the fine-tuned model, rescued by an edit that only says what to read next")

# %% [markdown]
# ## 7 · Your own question
#
# Everything above asked the generator's questions. Ask one of yours. The held-out world's articles are listed
# below by kind; write a question about them in your own words in `my_question` (and its answer in `my_gold` if
# you know it, or `None`), run the cell, and read what the fine-tuned model does with it. Searching a title
# exactly as it is listed helps: the tool is the paper's, and it finds pages by their titles.

# %%
kinds = {}
for e in held.entities.values():
    kinds.setdefault(e["type"], []).append(e["title"])
for kind, titles in kinds.items():
    print(f"{kind:8s} ({len(titles):3d}) {', '.join(sorted(titles)[:9])}, ...")
print("one article, to see what they say:", " ".join(held_wiki.page("Gopazan").text.split(". ")[:3]))

# %%
my_question = "Gopazan was made by a studio; what is that studio called?"  # your own words
my_gold = "Saki Films"  # or None if you do not know it

mine = Agent(my_question, llm=llm.from_spec("local:ft-react"), wiki=held_wiki, gold=my_gold).run()
print(mine.render())
if my_gold is not None:
    print("right" if exact_match(mine.answer, my_gold) else "wrong", f"(answer {mine.answer!r}, gold {my_gold!r})")

# %% [markdown]
# One question is an anecdote. The honest figure for questions worded as no training world words them is below:
# the same questions in a trained and in a held-out wording (same facts, same gold), read from the benchmark's
# summary (`benchmarks/worlds_eval.py`), with what always answering "yes" scores beside it. It is the rate of the
# shipped adapter, on dev worlds.

# %%
path = data_dir() / "runs" / "worlds" / "dev" / "summary.json"
worlds_summary = json.loads(path.read_text())["methods"]["react"]
pooled = worlds_summary["heldout"]["pooled"]
# the trained wording of exactly the worlds the held-out wording was scored on: the same questions, twice
same = [worlds_summary["trained"]["worlds"][s] for s in worlds_summary["heldout"]["worlds"]]
print(f"held-out wording: EM {pooled['em']:.2f}, 95% CI {pooled['ci95']}, n = {pooled['n']}  "
      f"(always yes {pooled['baselines']['always yes']:.2f})")
same_em = sum(w["em"] * w["n"] for w in same) / sum(w["n"] for w in same)
print(f"the same questions, trained wording: EM {same_em:.2f}, n = {sum(w['n'] for w in same)}")
check(pooled["n"] == sum(w["n"] for w in same), "both lines count the same questions")
check(pooled["em"] < same_em, "the held-out wording scores below the trained one, on the same questions")

# %% [markdown]
# A reworded question loses a good part of what the generator's wording gets, and that is what a question of your
# own meets: the adapter learned the generator's sentences as much as it learned to read.

# %% [markdown]
# ## Summary
#
# - Small models fail at ReAct when prompted, and learn it when fine-tuned on correct trajectories: the paper's
#   Figure 3, here on a 135M model and a world it has never read.
# - The training data of the four methods are the same trajectories with lines deleted.
# - A fine-tuned model is prompted zero-shot; its loss is taken on the tokens it writes at inference, up to the
#   stop sequence.
# - A model that has learned to condition on its thoughts can be steered by editing one.
#
# ## Exercises
#
# 1. Write `my_spans(text)`: given a ReAct training text, return the list of pieces the model learns to write, in
#    order (each starts right after a `Thought i:` cue).

# %%
def my_spans(text):
    ...  # your code here


ex[1](my_spans)

# %% [markdown]
# 2. Write `my_prompt(question, method)`: the exact text a fine-tuned model of each format (`react`, `act`, `cot`,
#    `standard`) is called on for its first completion.

# %%
def my_prompt(question, method):
    ...  # your code here


ex[2](my_prompt)
