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
from react_teach.runs import report

test = report.summary("test")  # benchmarks/worlds_eval.py --test: every test-world figure below
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
# Does the choice matter? `ft-react-all` is a ReAct adapter trained on the same data as an `ft-react` with the loss
# on every token. `benchmarks/worlds_eval.py --test --parts ablation` asked it questions from the test worlds
# (section 5), and here it stands beside that `ft-react` on exactly the same questions. The run files' headers name
# the two adapters compared.

# %%
every, own = provenance("ft-react-all"), provenance("ft-react")
ablation = test["ablation"]
same, pair = ablation["paired"], ablation["adapters"]
print(f"loss on every token        (adapter {pair['react-all']}, data version {every['data_version']}): "
      f"EM {report.cell(same['all'])}")
print(f"loss on the model's turns  (adapter {pair['react']}): EM {report.cell(same['model'])}")
print(f"the same {same['n']} questions: right with both {same['both']}, only with every token {same['all_only']}, "
      f"only with the model's turns {same['model_only']}, with neither {same['neither']}")
if not ablation["react_is_current"]:
    print(f"the shipped ft-react is adapter {own['adapter_sha256'][:12]}, retrained since on data version "
          f"{own['data_version']}: this comparison is of the pair trained together, on version {every['data_version']}")
check(pair["react-all"] == every["adapter_sha256"][:12],
      "the every-token figures come from the shipped ft-react-all")
check(same["model_only"] > same["all_only"] and same["all"]["ci95"][1] > same["model"]["ci95"][0],
      "learning the observations too costs a few questions here, within overlapping intervals")

# %% [markdown]
# The observations are the environment's text: at inference the model never writes them, so learning to predict
# them spends part of a small adapter on something it will not use. Here the adapter that learned them too gets
# fewer of the same questions right, but by a couple of points, well within the two intervals: on this data the
# choice matters little. The paper trained on whole trajectories and did not report this comparison.

# %% [markdown]
# ## 3 · A fine-tune you can watch
#
# The shipped ReAct adapter took about an hour on two cores (its provenance is printed in section 4). Here is the
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
        print(f"{name:12s} {p['examples']} examples, {p['steps']} steps, lr {p['lr']}, rank {p['rank']}, "
              f"loss {p['first_loss']} -> {p['final_loss']}, {p['minutes']} min on {p['threads']} threads")
    except Exception as e:
        print(f"{name:12s} {e}")

# %% [markdown]
# The adapters learned data version 7 (`--data 7`). Two habits of its thoughts are not in the plain oracle of
# section 1. Where a question needs arithmetic or a check, the last thought writes it out before `Finish`: a
# difference of years column by column, two years digit by digit, the value read beside the value asked. Each column
# is a sum of single digits; even so, "how many years apart" questions are right only about half the time (from the
# test worlds, below). And where the fact is not among the five sentences a search shows, the thought says so and
# looks it up: by the relation's usual word first (born, founded, married); where no sentence has that word, by a
# second one. For a fact given with a year the second word is `1`: the paper's lookup matches any part of a
# sentence, so `1` finds every year from 1000 to 1999 whatever words stand around it.
#
# Such thoughts run longer than the 100 tokens a step gets in the paper's code, so a local adapter asks for 200
# (`llm.step_tokens`); decoding is greedy, so a step that ended within 100 tokens ends the same way with 200.

# %%
print(world.varied.written_subtraction(1925, 1822))
print(world.varied.written_comparison(1881, 1909))
print("a step's room, in tokens:", {spec: llm.step_tokens(llm.from_spec(spec)) for spec in ("local", "local:ft-react")})
print("how many years apart, test worlds:", report.cell(test["methods"]["react"]["trained"]["by_shape"]["gap"]))
data = own["data_version"]  # ft-react's training data version, from its provenance (section 2)
varied = world.generate(world.TRAIN_SEEDS[0], world.SIZE, finetune.training_set.DATA_VERSIONS[data])
varied_wiki, learned = world.wiki(varied), finetune.training_set.oracle_options(data)  # its oracle's switches
late = next(t for q in varied.questions if "Lookup[1]" in (t := world.oracle(varied, q, varied_wiki, **learned)).render())
print(*late.render().splitlines()[:11], sep="\n")

# %% [markdown]
# Here is one question from dev world 1000 (a seed no model trained on), first for the bundled model with
# six exemplars, then for the fine-tuned one with none.

# %%
held = world.generate(world.HELDOUT_SEED, world.SIZE, 2)  # the version of the generator the adapters learned from
held_wiki = world.wiki(held)
q = held.questions[0]
for spec in ("local", "local:ft-react"):
    t = Agent(q["question"], llm=llm.from_spec(spec), wiki=held_wiki, gold=q["answer"]).run()
    print(f"──── {spec}: answer {t.answer!r}, gold {q['answer']!r}\n{t.render()[-900:]}")

# %% [markdown]
# ## 5 · Figure 3, in miniature
#
# `benchmarks/worlds_eval.py --test` ran the four fine-tuned adapters on six *test* worlds: seeds that no model
# trained on, and that no choice of data, steps or learning rate ever looked at (those choices were made on the dev
# worlds, world 1000 among them). ReAct answered the first 167 questions of each test world, the other three the
# first 100. Beside each figure, what answers that need no reading score on the same questions: always "yes",
# always "no", and the guessing floor of notebook 03 (yes, or the first option of a two-way question). The
# prompted runs of the same base model, with six exemplars, are from `benchmarks/finetune_eval.py` on dev world
# 1000: prompting does not depend on the adapters.
#
# **Predict first** (exercise 3). Standard and CoT cannot know a world they have never read; Act and ReAct can
# look it up. Which of the four *fine-tuned* formats will clear the guessing floor with their whole 95% interval?
# Write a list of names before you run the next cell.

# %%
my_beaters = ...  # your prediction: a list of names from "react", "act", "cot", "standard"

# %%
from IPython.display import Markdown, display

from react_teach.checks.fine_tuning import above_floor, summary_floor
from react_teach.data import read_jsonl
from react_teach.runs.stats import wilson
from react_teach.score import exact_match

display(Markdown(report.methods_table(test)))
names = finetune.METHODS[::-1]  # standard, cot, act, react: the order of the paper's Figure 3
floors = {m: summary_floor(test, m) for m in names}
prompted = json.loads((data_dir() / "runs" / "finetune" / "summary.json").read_text())
for m in names:
    p, n = prompted[f"world_prompted_{m}"], test["methods"][m]["trained"]["pooled"]["n"]
    print(f"{m:8s} guessing floor {floors[m]:.3f} on its {n} test questions | prompted, dev world 1000: "
          f"{p['em']:.3f} {p['ci95']} n = {p['n']}")

# %%
fig, ax = plt.subplots(figsize=(6.5, 3))
for i, m in enumerate(names):
    tr = test["methods"][m]["trained"]
    p = tr["pooled"]
    ax.bar(i, p["em"], 0.6, yerr=[[p["em"] - p["ci95"][0]], [p["ci95"][1] - p["em"]]], capsize=3, color="#8fb3de",
           label="fine-tuned, zero-shot: pooled, 95% CI" if i == 0 else None)
    ax.plot([i] * len(tr["worlds"]), [w["em"] for w in tr["worlds"].values()], "k.", ms=4,
            label="each test world" if i == 0 else None)
    ax.hlines(floors[m], i - 0.35, i + 0.35, colors="black", lw=1.5, label="guessing floor" if i == 0 else None)
    ax.plot(i, prompted[f"world_prompted_{m}"]["em"], "rx", label="prompted, dev world 1000" if i == 0 else None)
ax.set_xticks(range(len(names)), names)
ax.set_ylabel("EM, trained wording")
ax.set_title(f"SmolLM2-135M on {len(test['seeds'])} test worlds")
ax.legend(fontsize=7, loc="upper left")
plt.show()
beaters = sorted(above_floor())
print("fine-tuned formats whose whole interval clears the guessing floor:", beaters)
ex[3](my_beaters)

# %% [markdown]
# The paper's ordering asks for more than clearing the floor: ReAct at least 10 points above Act. Compared on
# exactly the questions both answered (the first 100 of each test world), from the per-question files:

# %%
def right(method):
    """Question id -> right or wrong, over the test worlds' run files of one fine-tuned method (trained wording)."""
    return {r["id"]: bool(r["em"]) for s in test["seeds"]
            for r in read_jsonl(data_dir() / "runs" / "worlds" / "test" / f"{method}_v2_w{s}_trained.jsonl")}


got = {m: right(m) for m in ("react", "act")}
shared = sorted(set(got["react"]) & set(got["act"]))
for m in ("react", "act"):
    k = sum(got[m][i] for i in shared)
    lo, hi = wilson(k, len(shared))
    print(f"{m:6s} {k / len(shared):.3f} [{lo:.3f}, {hi:.3f}] on the same {len(shared)} questions")
only = {m: sum(got[m][i] and not got[o][i] for i in shared) for m, o in (("react", "act"), ("act", "react"))}
gap = (only["react"] - only["act"]) / len(shared)
print(f"ReAct - Act: {100 * gap:+.1f} points (right only for ReAct {only['react']}, only for Act {only['act']})")

# %% [markdown]
# Fine-tuned Standard and CoT score about what guessing scores: they learned the form of an answer, and in a world
# they never read, the form is all they can give. Fine-tuned Act and ReAct clear the floor by far, and on the same
# questions ReAct is more than 10 points above Act: the ordering of the paper's Figure 3 holds on worlds that no
# choice was made on. The prompted marks come from another world, so compare them with the bars only roughly;
# prompted ReAct, the weakest prompted method at small scale in the paper too, is the lowest mark on the chart.

# %%
# NBVAL_CHECK_OUTPUT
check(not set(beaters) & {"standard", "cot"}, "fine-tuned Standard and CoT do not clear the guessing floor")
check(set(beaters) >= {"act", "react"}, "fine-tuned Act and ReAct clear the guessing floor with their whole interval")
marks = [prompted[f"world_prompted_{m}"]["em"] for m in names] + [test["methods"][m]["trained"]["pooled"]["em"]
                                                                  for m in names]
check(min(marks) == prompted["world_prompted_react"]["em"], "prompted ReAct is the lowest mark on the chart")
check(gap >= 0.10, "on the same questions, fine-tuned ReAct is at least 10 points above fine-tuned Act")

# %% [markdown]
# ## 6 · Editing a thought of a model that has learned the skill
#
# Property D again (notebook *editing thoughts*), now on a model that conditions on its context. The benchmark took
# every test-world question (trained wording) the fine-tuned ReAct model got wrong, replaced its first wrong
# thought with the oracle's thought at that step, and let the agent resume. When that thought is the last one, it
# states the answer, and following it is easy; when it only says what to read next, the model still has to find
# the answer itself. So the two kinds are counted apart: only a rescue by a plan edit shows the model steered by a
# thought; a rescue by a conclusion edit mostly shows that it copies an answer it is handed.

# %%
r = test["rescue"]
for part, name in ((r["plan"], "edit says what to read next"), (r["conclusion"], "edit states the conclusion")):
    print(f"{name:30s} {part['rescued']:3d} of {part['failures']:3d} rescued "
          f"(share {part['share']:.2f}, 95% CI {part['ci95']})")
ft = llm.from_spec("local:ft-react")
for case in [c for c in r["cases"] if c["em"] and c["kind"] == "plan"][:5]:  # the model must still find the answer
    test_world, q = world.question(case["id"], test["version"])
    agent = Agent(q["question"], llm=ft, wiki=world.wiki(test_world), gold=q["answer"])
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
# Everything above asked the generator's questions. Ask one of yours. World 1000's articles are listed
# below by kind; write a question about them in your own words in `my_question` (and its answer in `my_gold` if
# you know it, or `None`), run the cell, and read what the fine-tuned model does with it. Searching a title
# exactly as it is listed helps: the tool is the paper's, and it finds pages by their titles.

# %%
kinds = {}
for e in held.entities.values():
    kinds.setdefault(e["type"], []).append(e["title"])
for kind, titles in kinds.items():
    print(f"{kind:8s} ({len(titles):3d}) {', '.join(sorted(titles)[:9])}, ...")
print("one article, to see what they say:", ". ".join(held_wiki.page("Gopazan").text.split(". ")[:3]) + ".")

# %%
my_question = "Gopazan was made by a studio; what is that studio called?"  # your own words
my_gold = "Saki Films"  # or None if you do not know it

mine = Agent(my_question, llm=llm.from_spec("local:ft-react"), wiki=held_wiki, gold=my_gold).run()
print(mine.render())
if my_gold is not None:
    print("right" if exact_match(mine.answer, my_gold) else "wrong", f"(answer {mine.answer!r}, gold {my_gold!r})")

# %% [markdown]
# One question is an anecdote. The honest figure for questions worded as no training world words them is below:
# the same test-world questions in a trained and in a held-out wording (same facts, same gold), read from the
# benchmark's summary, with what always answering "yes" scores beside each.

# %%
react = test["methods"]["react"]
for wording in ("trained", "heldout"):
    p = react[wording]["pooled"]
    print(f"{wording:8s} wording: EM {p['em']:.3f}, 95% CI {p['ci95']}, n = {p['n']} "
          f"(always yes {p['baselines']['always yes']:.3f})")
pair = react["paired"]
print(f"the same {pair['n']} questions: right in both {pair['both']}, only in the trained wording "
      f"{pair['trained_only']}, only in the held-out one {pair['heldout_only']}, in neither {pair['neither']}")
check(react["trained"]["pooled"]["n"] == react["heldout"]["pooled"]["n"] == pair["n"],
      "both wordings count the same questions")
check(react["heldout"]["pooled"]["em"] < react["trained"]["pooled"]["em"] and pair["trained_only"] > pair["heldout_only"],
      "the held-out wording scores below the trained one, and more questions turn wrong with it than right")

# %% [markdown]
# Where is it lost? Each held-out question is counted under every template it is worded in (the question's frame,
# and each description in a chain), beside the same question in its trained wording:

# %%
worst = pair["by_template"][:3]
for x in worst:
    print(f"{x['trained']:3d} -> {x['heldout']:3d} right of {x['n']:3d} questions  {x['template']}")
gap = (pair["trained_only"] - pair["heldout_only"]) / pair["n"]
check((worst[0]["trained"] - worst[0]["heldout"]) / worst[0]["n"] > 2 * gap,
      "the template that loses most loses more than twice the pooled gap on its own questions")

# %% [markdown]
# A reworded question loses part of what the generator's wording gets, and that is what a question of your own
# meets: the adapter learned the generator's sentences as well as it learned to read. The loss is not spread
# evenly: a few phrases it never saw carry much of it, each a way of naming a relation it knows in other words.

# %% [markdown]
# ## Summary
#
# - Small models fail at ReAct when prompted, and learn it when fine-tuned on correct trajectories: the paper's
#   Figure 3, here on a 135M model and six test worlds it has never read.
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
