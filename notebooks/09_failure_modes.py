# %% [markdown]
# # 09 · Failure modes
#
# In this notebook you will
# - see why two methods with close scores can fail in completely different ways;
# - sort trajectories into the paper's Table 2 types with an automatic labeller that shows its evidence;
# - label trajectories yourself in a widget, and measure how often you and the labeller agree;
# - put our distributions beside the paper's, and meet the "false positive": a right answer for the wrong reasons.
#
# On HotpotQA, ReAct and CoT score within two points of each other in the paper (27.4 and 29.4 EM). Table 2 shows
# why that says little: the authors read 50 correct and 50 wrong trajectories of each method and sorted them by
# cause. CoT's failures are mostly *hallucination* (56%); ReAct's are mostly *reasoning errors* (47%), many of them
# loops, and failed searches (23%). The percentages are **within** the success group or the failure group.

# %%
from react_teach import check
from react_teach.failures import DEFINITIONS, PAPER_TABLE2, cohen_kappa, label_file, shares

for category, meaning in DEFINITIONS.items():
    print(f"{category:20} {meaning}")

# %% [markdown]
# ## 1. The labeller, with its evidence
#
# `label` reads signals anyone can check in a transcript: repeated actions (a loop), the step limit, searches that
# failed, finishing before any observation contained the answer, an answer that no observation contains. Every
# label comes with the steps it was read from. Here it is on the full ReAct run of notebook "running ablations":

# %%
from react_teach.data import data_dir, load_questions, read_jsonl, supporting_sentences

from react_teach.runs.stats import scored, wilson

runs = data_dir() / "runs"
react = scored(list(label_file(runs / "hotpotqa_react.jsonl")))  # questions in the exemplars are left out
wrong = [r for r in react if r["correct"] is False]
for r in wrong[:3]:
    print(f"{r['question']}\n  answer {r['pred']!r}, gold {r['gold']!r} -> {r['category']}")
    for line in r["evidence"][:3]:
        print("   ", line)

# %% [markdown]
# CoT writes no observations, so its claims are judged against the supporting facts of our questions: the
# sentences of the corpus that a correct answer rests on.

# %%
facts = supporting_sentences(load_questions("hotpotqa"))
cot = scored(list(label_file(runs / "hotpotqa_cot.jsonl", facts=facts)))
ours = {"react": shares(react), "cot": shares(cot)}

GROUPS = {"success": ("true positive", "false positive"),
          "failure": ("reasoning error", "search result error", "hallucination", "label ambiguity")}


def counted(rows):
    """{category: (k, n, lo%, hi%)}: each type's count within its group, n the group's size, a Wilson interval."""
    out = {}
    for group in GROUPS.values():
        n = sum(r["category"] in group for r in rows)
        for c in group:
            k = sum(r["category"] == c for r in rows)
            out[c] = (k, n) + (tuple(100 * v for v in wilson(k, n)) if n else (None, None))
    return out


intervals = {m: counted(rows) for m, rows in (("react", react), ("cot", cot))}
for method, table in intervals.items():
    print(method)
    for c, (k, n, lo, hi) in table.items():
        cell = f"{k:2}/{n:<2} = {100 * k / n:5.1f}%  [{lo:5.1f}, {hi:5.1f}]" if n else "  no trajectories in this group"
        print(f"  {c:20} {cell}   paper {PAPER_TABLE2[method][c] if PAPER_TABLE2[method][c] is not None else '–'}")

# %% [markdown]
# ## 2. One rule by hand: a failed search
#
# Every label rests on a few rules like this one. A tool call *failed* when its observation, once any
# `(Result i / n)` prefix is removed, is empty or begins with one of the environment's ways of saying nothing was
# found: `Could not find`, `No more results`, `No results` or `Invalid action` (our wiki's words, the official
# wikienv's and LangChain's, as the Reflexion runs use it), or `The tool failed`. Case does not matter. Written out:

# %%
import re

NOTHING = ("could not find", "no more results", "no results", "invalid action", "the tool failed")


def failed(observation):
    text = re.sub(r"^\(Result \d+ ?/ ?\d+\)\s*", "", (observation or "").strip())
    return not text or text.lower().startswith(NOTHING)


failed("Could not find [Front Row]. Similar: ['Front Row (software)']"), failed("(Result 1 / 2) Front Row is ...")

# %% [markdown]
# The labeller's version is `react_teach.failures.failed_search`. Check that the two agree on every observation of
# every committed run:

# %%
# NBVAL_CHECK_OUTPUT
from react_teach.failures import failed_search

observations = [s["observation"] for f in sorted(runs.glob("*.jsonl")) for r in read_jsonl(f)
                for s in r.get("steps", [])]
check(all(failed(o) == failed_search(o) for o in observations),
      f"your rule and failed_search agree on all {len(observations)} observations")

# %% [markdown]
# ## 3. Beside Table 2

# %%
import matplotlib.pyplot as plt

from react_teach.ui.plots import table2

for method, rows in (("react", react), ("cot", cot)):
    n_ok = sum(r["correct"] is True for r in rows)
    ci = {c: (lo, hi) for c, (k, n, lo, hi) in intervals[method].items() if n}
    fig = table2(ours[method], PAPER_TABLE2[method],
                        f"{method}: % within its group, 95% whiskers (ours: {n_ok} correct + {len(rows) - n_ok} wrong; "
                        "paper: 50 + 50, PaLM-540B)", ci=ci)
    plt.show()

# %% [markdown]
# With a 135M model almost every trajectory is a failure, so the success bars rest on very few cases, or on none
# (the counts are in each title): a share of a handful of trajectories has a whisker across most of the axis.
# Read them as examples, not as rates. The paper's *pattern*, that grounding trades hallucination for reasoning
# and search errors, is what to look for in the failure bars.

# %%
# NBVAL_CHECK_OUTPUT
check(all(sum(r["correct"] is True for r in rows) <= 5 for rows in (react, cot)),
      "at most 5 successes per method: the success bars are examples, not rates")
fail = {m: counted(rows) for m, rows in (("react", react), ("cot", cot))}
check(fail["cot"]["hallucination"][0] > fail["react"]["hallucination"][0]
      and fail["react"]["search result error"][0] > fail["cot"]["search result error"][0],
      "the paper's pattern: CoT hallucinates more, ReAct has more failed searches")

# %% [markdown]
# ## 4. Fake green: the false positive
#
# A *false positive* is a correct answer reached by invented reasoning or facts: exact match counts it as a success.
# The paper found 14% of CoT's successes were of this kind, against 6% for ReAct, whose facts come from
# observations. An evaluation that reports only accuracy cannot see them.

# %%
for rows, name in ((react, "react"), (cot, "cot")):
    for r in [r for r in rows if r["category"] == "false positive"][:2]:
        print(f"{name}: {r['question']}\n  answer {r['pred']!r}: {r['evidence'][0]}")

# %% [markdown]
# ## 5. Your labels, and agreement
#
# The labeller is a set of heuristics: how often it agrees with a person is a number to measure. The widget below
# shows one trajectory at a time (model lines blue, environment lines green), the suggestion with its evidence, and
# six buttons. Your labels are saved to a file on every click and come back when you reopen it.
#
# Label ten, then run the agreement cell. Cohen's kappa is 1 for perfect agreement and 0 for the agreement two
# people would reach by chance.

# %%
from react_teach.data import cache_dir
from react_teach.ui.panels import FailureLabeller

labeller = FailureLabeller(runs / "hotpotqa_react.jsonl", cache_dir() / "labels" / "hotpotqa_react.jsonl")
labeller

# %% [markdown]
# The course authors labelled the first ten ReAct trajectories by hand, reading each one before looking at the
# suggestion; their labels ship in `data/labels/`. Their agreement with the labeller, on those of the ten that are
# scored (the others are about an exemplar's subject):

# %%
# NBVAL_CHECK_OUTPUT
from collections import Counter

from react_teach.failures import LabelStore

authors = LabelStore(data_dir() / "labels" / "hotpotqa_react_authors.jsonl").all()
pairs = [(r["category"], authors[str(r["id"])]["category"]) for r in react if str(r["id"]) in authors]
agree = sum(a == b for a, b in pairs)
lo, hi = wilson(agree, len(pairs))
print(f"n = {len(pairs)} trajectories labelled by hand; {agree} agree with the labeller "
      f"({agree / len(pairs):.0%}, 95% interval {lo:.0%} to {hi:.0%}); "
      f"kappa = {cohen_kappa([a for a, _ in pairs], [b for _, b in pairs]):.2f}")
top, top_n = Counter(b for _, b in pairs).most_common(1)[0]
print(f"baseline: a labeller that always said {top!r} would agree on {top_n} of {len(pairs)} ({top_n / len(pairs):.0%}), "
      "with kappa 0")

# %% [markdown]
# From the command line, `python -m react_teach label runs/react.jsonl` prints one label a line, for our runs,
# the official ReAct transcripts, or any file of `scratchpad` transcripts. It all lives in `react_teach.failures`.
#
# ## Summary
# - Close scores can hide opposite failure modes; Table 2 counts causes within the success and failure groups.
# - The labeller shows its evidence; its agreement with people is measured (kappa), not assumed.
# - A false positive is a right answer with invented support: an accuracy number alone cannot see it.
#
# ## Exercises
#
# Each exercise prints ✓, or ✗ with a hint, or "not yet" while the answer is still `...`. Reference solutions are
# in `notebooks/solutions/`.
#
# 1. **Cohen's kappa.** Write `kappa(a, b)` for two equally long lists of labels: (p_o - p_e) / (1 - p_e), where
#    p_o is the share of items labelled alike and p_e the agreement expected by chance. Do not call `cohen_kappa`.

# %%
from react_teach import exercises

ex = exercises.of("failure_modes")


def kappa(a, b):
    ...  # your code here


ex[1](kappa)

# %% [markdown]
# 2. **Reading the labels.** How many of the scored ReAct trajectories (`react`) does the labeller file under
#    "search result error"? Count it with code.

# %%
search_errors = ...  # your answer
ex[2](search_errors)

# %% [markdown]
# 3. **A prediction.** Act is ReAct with the thoughts deleted. Before you run the next cell, write down which
#    failure type you expect to take a larger share of Act's failures than of ReAct's: "reasoning error",
#    "search result error", "hallucination" or "label ambiguity". The cell labels the Act run and checks.

# %%
my_prediction = ...  # your answer, e.g. "hallucination"

act = scored(list(label_file(runs / "hotpotqa_act.jsonl")))
for method, rows in (("react", react), ("act", act)):
    failures = [r for r in rows if r["category"] in GROUPS["failure"]]
    print(f"{method:5} failures, n = {len(failures)}: " + ", ".join(
        f"{c} {100 * sum(r['category'] == c for r in failures) / len(failures):.0f}%" for c in GROUPS["failure"]))
ex[3](my_prediction)

# %% [markdown]
# 4. (Open) Label ten trajectories in the widget, then compute `labeller.agreement()`. Where do you disagree most?
#    Read three Act failures of the type that grew: what would a thought have changed?

# %%
# NBVAL_CHECK_OUTPUT
check(len(react) == len(scored(read_jsonl(runs / "hotpotqa_react.jsonl"))), "one label per scored trajectory")
check(all(abs(sum(v for c, v in ours["react"].items() if c in g and v is not None) - 100) < 1e-6
          for g in (("true positive", "false positive"),
                    ("reasoning error", "search result error", "hallucination", "label ambiguity"))
          if any(ours["react"][c] is not None for c in g)), "percentages are within each group")
