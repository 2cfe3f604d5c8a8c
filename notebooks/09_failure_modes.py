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
# With a 135M model most trajectories are failures (the counts are in each title), so the success bars rest on a
# handful of cases: a share of so few has a whisker across most of the axis. Read them as examples, not as rates.
#
# The failure bars rest on 30-odd trajectories each, and there the paper's *pattern*, that grounding trades
# hallucination for reasoning and search errors, shows with intervals that do not overlap: most of CoT's failures
# are hallucinations, and hardly any of ReAct's (the paper: 56% against 0%). ReAct's failures are reasoning errors
# and failed searches instead, as in the paper; CoT makes no search, so its empty search bar holds by construction
# and is not a finding. Reasoning errors take a larger share of ReAct's failures than of CoT's, as in the paper
# (47% against 16%), but those two intervals overlap. These are the labeller's labels; section 5 compares them with
# the authors' hand labels.

# %%
# NBVAL_CHECK_OUTPUT
fail = {m: counted(rows) for m, rows in (("react", react), ("cot", cot))}
check(all(sum(r["correct"] is True for r in rows) <= len(rows) / 4 for rows in (react, cot)),
      "at most a quarter of the trajectories are successes: the success bars are examples, not rates")
check(all(30 <= fail[m]["hallucination"][1] < 40 for m in fail), "each failure group holds 30-odd trajectories")
check(fail["cot"]["hallucination"][2] > fail["react"]["hallucination"][3]
      and fail["cot"]["hallucination"][0] > fail["cot"]["hallucination"][1] / 2,
      "most of CoT's failures are hallucinations, and its interval lies above ReAct's")
check(fail["react"]["reasoning error"][0] + fail["react"]["search result error"][0]
      > 0.8 * fail["react"]["reasoning error"][1], "ReAct's failures are mostly reasoning and search errors")
check(fail["cot"]["search result error"][0] == 0, "CoT has no search result error")
check(fail["react"]["reasoning error"][0] / fail["react"]["reasoning error"][1]
      > fail["cot"]["reasoning error"][0] / fail["cot"]["reasoning error"][1]
      and fail["react"]["reasoning error"][2] < fail["cot"]["reasoning error"][3],
      "reasoning errors: a larger share for ReAct, with overlapping intervals")
check((PAPER_TABLE2["cot"]["hallucination"], PAPER_TABLE2["react"]["hallucination"],
       PAPER_TABLE2["react"]["reasoning error"], PAPER_TABLE2["cot"]["reasoning error"]) == (56, 0, 47, 16),
      "the paper's figures as quoted")

# %% [markdown]
# ## 4. Fake green: the false positive
#
# A *false positive* is a correct answer reached by invented reasoning or facts: exact match counts it as a success.
# The paper found 14% of CoT's successes were of this kind, against 6% for ReAct, whose facts come from
# observations. An evaluation that reports only accuracy cannot see them.

# %%
for rows, name in ((react, "react"), (cot, "cot")):
    ok = [r for r in rows if r["correct"] is True]
    fps = [r for r in ok if r["category"] == "false positive"]
    print(f"{name}: {len(fps)} of {len(ok)} right answers filed as false positives")
    for r in fps[:2]:
        print(f"  {r['id']}: {r['question']}\n    answer {r['pred']!r}: {r['evidence'][0]}")

# %% [markdown]
# Read the first ReAct one, hq020 (Edison and Bell, gold "yes"). Both observations give 1847 as the year of birth,
# yet the thought after them gives Bell a birth date in 1809, and no thought compares the two years before
# `Finish[yes]`. Exact match scores it right; taken at its word, the thought's 1809 would have made it "no".

# %%
# NBVAL_CHECK_OUTPUT
hq020 = next(r for r in read_jsonl(runs / "hotpotqa_react.jsonl") if r["id"] == "hq020")
seen = " ".join(s["observation"] or "" for s in hq020["steps"])
thought = " ".join(s["thought"] or "" for s in hq020["steps"])
check(next(r for r in react if r["id"] == "hq020")["category"] == "false positive" and hq020["em"],
      "hq020 is right, and filed as a false positive")
check(all("1847" in (s["observation"] or "") for s in hq020["steps"][:2]) and "1809" in thought
      and "1809" not in seen, "both observations say 1847; a thought says 1809, which no observation holds")
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
# suggestion; their labels ship in `data/labels/` in the widget's own format. Their agreement with the labeller:

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
# Ten is a small sample, and its interval is wide. The authors labelled every ReAct, Act and CoT trajectory of the
# runs too (`data/labels/hotpotqa_authors.jsonl`, with a one-sentence reason for each; `benchmarks/kappa.py` prints
# the full comparison). On all of them:

# %%
# NBVAL_CHECK_OUTPUT
hand = read_jsonl(data_dir() / "labels" / "hotpotqa_authors.jsonl")
act = scored(list(label_file(runs / "hotpotqa_act.jsonl")))
kappas, by_hand = {}, {}
for method, rows in (("react", react), ("act", act), ("cot", cot)):
    mine = {h["id"]: h["label"] for h in hand if h["method"] == method}
    both = [(r["category"], mine[str(r["id"])]) for r in rows if str(r["id"]) in mine]
    kappas[method] = cohen_kappa([a for a, _ in both], [b for _, b in both])
    by_hand[method] = Counter(b for _, b in both)
    print(f"{method:5} n = {len(both)}: {sum(a == b for a, b in both)} alike, kappa {kappas[method]:.2f}; "
          f"by hand: {dict(by_hand[method].most_common())}")


def share(counts, category):
    group = next(g for g in GROUPS.values() if category in g)
    return counts[category] / max(1, sum(counts[c] for c in group))


for m in ("react", "cot"):
    print(f"{m:5} by hand: hallucination {share(by_hand[m], 'hallucination'):.0%} of the failures, "
          f"false positive {share(by_hand[m], 'false positive'):.0%} of the successes")

# %% [markdown]
# Agreement is substantial for ReAct and Act and only moderate for CoT, which has no observations: the labeller
# checks its claims against the supporting facts alone. The hand labels keep the pattern of section 3 (CoT's
# failures mostly hallucinations, ReAct's hardly ever). On CoT they call more of the right answers false positives
# than the labeller does (on ReAct, as many): where the labeller sees a right answer beside a correct fact, a reader
# also checks that the reasoning uses it.

# %%
# NBVAL_CHECK_OUTPUT
check(kappas["react"] > 0.6 and kappas["act"] > 0.6 and 0.4 < kappas["cot"] < 0.6,
      "kappa above 0.6 for ReAct and Act (substantial), between 0.4 and 0.6 for CoT (moderate)")
check(share(by_hand["cot"], "hallucination") > 0.5 > 0.1 > share(by_hand["react"], "hallucination"),
      "by hand: most of CoT's failures are hallucinations, under a tenth of ReAct's")
labeller_fp = {m: sum(r["category"] == "false positive" for r in rows) for m, rows in (("react", react), ("cot", cot))}
check(by_hand["cot"]["false positive"] > labeller_fp["cot"] and by_hand["react"]["false positive"] == labeller_fp["react"],
      "by hand, more false positives on CoT than the labeller finds, and as many on ReAct")

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
