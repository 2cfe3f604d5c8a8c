# %% [markdown]
# # 09 · Fact checking
#
# In this notebook you will
# - run the same loop on claims instead of questions: SUPPORTS, REFUTES or NOT ENOUGH INFO;
# - read the FEVER exemplars and the 5-step limit;
# - compare ReAct, CoT and Act on our claims, overall and per label;
# - look for the claims where grounding helps, and the ones where it does not.
#
# FEVER is where the paper's ReAct beats CoT (60.9 against 56.3 accuracy, Table 1): a claim names its subject, so
# one search often finds the sentence that settles it, while CoT must rely on what the model remembers.

# %%
from react_teach import check, llm
from react_teach.ablate import prompt
from react_teach.agent import solve
from react_teach.data import load_questions
from react_teach.wiki import LocalWiki

claims = load_questions("fever")
fever_prompt = prompt("react", "fever")
# NBVAL_CHECK_OUTPUT
print(fever_prompt[:1500])

# %% [markdown]
# The loop is the one from notebook 03 with `task="fever"`: the header says `Claim:`, the step limit is 5, and the
# answer is scored by exact label match.

# %%
model, wiki = llm.default(), LocalWiki.course()
claim = claims[1]
trace = solve("react", claim["claim"], llm=model, wiki=wiki, task="fever")
print(trace.render())
print("answer:", repr(trace.answer), "| gold:", claim["label"])

# %%
cot = solve("cot", claim["claim"], llm=model, task="fever")
print(cot.steps[0].thought if cot.steps else "")
print("answer:", repr(cot.answer), "| gold:", claim["label"])

# %% [markdown]
# ## ReAct, Act and CoT on the course claims
#
# A run of each method over the first 24 claims (the set is ordered by subject, so the labels are not exactly
# balanced), made with `python -m react_teach run --method react --task fever --n 24 --out data/runs/fever_react.jsonl`:

# %%
from collections import Counter

from react_teach.data import data_dir, read_jsonl
from react_teach.score import FEVER_LABELS

runs = {m: read_jsonl(data_dir() / "runs" / f"fever_{m}.jsonl") for m in ("cot", "act", "react")}
for m, rows in runs.items():
    acc = sum(r["correct"] for r in rows) / len(rows)
    per_label = {g: f"{sum(r['correct'] for r in rows if r['gold'] == g)}/{sum(r['gold'] == g for r in rows)}"
                 for g in FEVER_LABELS}
    valid = sum((r["answer"] or "").strip() in FEVER_LABELS for r in rows)
    print(f"{m:6} accuracy {acc:.3f} on {len(rows)} claims; by label {per_label}; "
          f"answers that are a valid label: {valid}/{len(rows)}")

# %%
import matplotlib.pyplot as plt

from react_teach.plots import table1

fig = table1({m: sum(r["correct"] for r in rows) / len(rows) for m, rows in runs.items()}, "fever",
             label=model.name)
plt.show()

# %% [markdown]
# A small model often answers with the label it saw most recently, or with something that is not a label at all;
# that is why the per-label counts and the share of valid labels matter more than the total here.

# %% [markdown]
# ## Where grounding helps
#
# Put the two methods side by side claim by claim: which claims did only ReAct get right, and which only CoT?

# %%
react_ok = {r["id"]: r["correct"] for r in runs["react"]}
cot_ok = {r["id"]: r["correct"] for r in runs["cot"]}
both = Counter((react_ok[i], cot_ok[i]) for i in react_ok if i in cot_ok)
print(f"both right {both[(True, True)]}, only ReAct {both[(True, False)]}, only CoT {both[(False, True)]}, "
      f"neither {both[(False, False)]}")
only_react = [r for r in runs["react"] if r["correct"] and not cot_ok.get(r["id"], True)]
for r in only_react[:2]:
    print("\n" + r["question"], "->", r["answer"])
    for s in r["steps"]:
        print("   ", (s["action"] or "")[:60], "→", (s["observation"] or "")[:90])

# %% [markdown]
# The claims use the same encyclopedia as the questions, and their evidence is cited as `[title, sentence]` in
# `data/fever_course.jsonl`. The official FEVER files load with `react_teach.data.read_questions`.
#
# ## Summary
# - Fact checking is the same loop with a different header, exemplars and label set, and a 5-step limit.
# - Accuracy is exact label match, so a model that writes anything but a label scores nothing.
# - Grounding helps most when one search finds the sentence that settles the claim.
#
# ## Exercises
# 1. Find a REFUTES claim that ReAct got right. Which observation contradicted it?
# 2. Run `solve("act", ...)` on the claim above. What changes without thoughts?
# 3. Write a claim of your own about a page in the corpus and run it with both methods.

# %%
# NBVAL_CHECK_OUTPUT
check(sorted(Counter(c["label"] for c in claims).values())[0] >= 30, "at least 30 claims of each label")
check(all(r["n_calls"] >= len(r["steps"]) and len(r["steps"]) <= 5 for r in runs["react"]), "at most 5 steps")
