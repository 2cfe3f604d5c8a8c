# %% [markdown]
# # Format failures
#
# In this notebook you will
# - count, in the committed ReAct runs, how often the model wrote `Finish[...]` and kept going into a question it
#   invented;
# - see why the stop at `"\nObservation i:"` cannot catch it, and what the environment then does;
# - add a second stop sequence and measure exactly what changes, by replaying every recorded run;
# - look for thoughts copied word for word from the exemplars, and read an answer that is right for the wrong
#   reason.
#
# The stop-token notebook showed one format failure, the invented observation, and the stop that prevents it. A
# small model has more. It copies the *shape* of the prompt: after a finished exemplar comes the next exemplar's
# `Question:`, so after its own `Finish[...]` it writes a new question, and answers that too.

# %%
import re

from react_teach import check, llm
from react_teach.data import data_dir, load_exemplars, load_questions, read_jsonl
from react_teach.llm import cut_at_stop
from react_teach.score import exact_match

rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
len(rows)

# %% [markdown]
# ## 1. Running past `Finish`
#
# The runs keep each step's action as the harness parsed it. An action that holds a newline followed by
# `Question:` is a finish the model did not stop at.

# %%
def ran_past(row, marker="\nQuestion:"):
    """The first step whose action runs on into an invented question (1-based), or None."""
    return next((i for i, s in enumerate(row["steps"], 1) if marker in (s["action"] or "")), None)


past = [r for r in rows if ran_past(r)]
# NBVAL_CHECK_OUTPUT
print(f"{len(past)} of {len(rows)} ReAct runs ran past Finish into an invented question")
check((len(past), len(rows)) == (31, 40), "31 of the 40 runs, as the summary says")

# %%
example = next(r for r in rows if r["id"] == "hq001")
k = ran_past(example)
print(f"{example['id']}, step {k}:\nAction {k}: {example['steps'][k - 1]['action']}")
check(k == 3 and example["steps"][k - 1]["observation"].startswith("Invalid action"),
      "hq001 runs past its Finish at step 3, and the tool answers Invalid action")
first_finish = next(i for i, s in enumerate(example["steps"], 1) if (s["action"] or "").startswith("Finish"))
check(first_finish == k, "its first Finish is the one it ran past")

# %% [markdown]
# ## 2. Why the stop does not catch it
#
# At step 3 the harness stops the model at `"\nObservation 3:"`. The invented transcript starts over at
# `Thought 1`, `Action 1`, `Observation 1`: the numbers the model copied from the top of every exemplar. None of
# them is the stop string, so nothing cuts the text until the token budget (100 tokens) runs out, and everything
# after `Action 3: ` becomes the action.

# %%
action = example["steps"][k - 1]["action"]
# NBVAL_CHECK_OUTPUT
{f"\nObservation {j}:": f"\nObservation {j}:" in action for j in (1, 2, 3)}

# %% [markdown]
# ## 3. What the environment does with it
#
# The action string is everything after `Action 3: `, newlines and all. The tool reads `finish[` at the start, but
# the string does not end with the closing bracket, so it is not a finish: it is an `Invalid action`, and the
# model, which has just written a confident answer, tries again. When the invented text happens to end with `]`,
# the tool accepts the whole thing, and the "answer" is a bracket, a newline and half a question.

# %%
invalid = sum(r["steps"][ran_past(r) - 1]["observation"].startswith("Invalid action") for r in past)
garbage = [r["id"] for r in past if "\nQuestion:" in (r["answer"] or "")]
repeated = sum(len(r["steps"]) == 7 and not r["finished"] for r in past)
# NBVAL_CHECK_OUTPUT
print(f"{invalid} answered 'Invalid action', {len(garbage)} accepted with the invented text as the answer "
      f"({', '.join(garbage)}), {repeated} never finished within 7 steps")
check(0 < repeated < invalid, "some, not most, never finish")

# %% [markdown]
# ## 4. The second stop
#
# The fix is one more stop sequence: `stop=[f"\nObservation {i}:", "\nQuestion:"]`. A stop sequence only cuts the
# text; it does not change which tokens a greedy (temperature 0) model picks. So every run is the same as recorded
# up to the first step where `"\nQuestion:"` appears, and that step ends at the cut. The recorded runs therefore
# tell us exactly what the second stop would have given, without running the model: cut the action at
# `"\nQuestion:"`, and if what is left is `Finish[x]`, the episode ends there with answer `x`.
#
# One caveat: a step that needed the re-prompt kept only the first line of the model's text, so for those steps we
# cannot see whether an invented question came before the action line. The cell counts them.

# %%
def replay(row, marker="\nQuestion:"):
    """What a recorded run would have been with `marker` as a second stop: (answer, steps, calls)."""
    k = ran_past(row, marker)
    if k is None:
        return row["answer"] or "", len(row["steps"]), row["n_calls"]
    action = row["steps"][k - 1]["action"].split(marker)[0].strip()
    m = re.fullmatch(r"[Ff]inish\[(.*)\]", action)
    calls = sum(1 + (i in row.get("bad_steps", [])) for i in range(1, k + 1))  # a re-prompt costs one more call
    return (m.group(1) if m else ""), k, calls


def summary(results):
    """n, finished with a clean answer, EM, steps, calls over (row, answer, steps, calls) tuples."""
    return {"n": len(results),
            "finished": sum(bool(a) and "\n" not in a for _, a, _, _ in results),
            "EM": sum(exact_match(a, r["gold"]) for r, a, _, _ in results),
            "steps": sum(s for _, _, s, _ in results), "calls": sum(c for _, _, _, c in results)}


def wilson(k, n, z=1.96):
    """The 95% Wilson interval of a proportion k/n, in percent."""
    p, d = k / n, 1 + z * z / n
    half = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return f"{100 * (p + z * z / (2 * n) - half) / d:.0f}-{100 * (p + z * z / (2 * n) + half) / d:.0f}%"


before = summary([(r, r["answer"] or "", len(r["steps"]), r["n_calls"]) for r in rows])
after = summary([(r, *replay(r)) for r in rows])
always = {a: summary([(r, a, 0, 0) for r in rows])["EM"] for a in ("yes", "no")}
unsure = sum(any(b < ran_past(r) for b in r.get("bad_steps", [])) for r in past)
# NBVAL_CHECK_OUTPUT
print(f"{'':>22}{'n':>4}{'finished':>10}{'EM':>4}{'EM 95% CI':>11}{'steps':>7}{'calls':>7}")
for name, s in (("one stop (recorded)", before), ("two stops (replayed)", after)):
    print(f"{name:>22}{s['n']:>4}{s['finished']:>10}{s['EM']:>4}{wilson(s['EM'], s['n']):>11}"
          f"{s['steps']:>7}{s['calls']:>7}")
for a, hits in always.items():
    print(f"{'always ' + repr(a):>22}{len(rows):>4}{'':>10}{hits:>4}{wilson(hits, len(rows)):>11}")
print(f"({unsure} of the {len(past)} affected runs had a re-prompt before the cut: their replay is a best guess)")
gained = [r["id"] for r in rows if exact_match(replay(r)[0], r["gold"]) and not r["em"]]
lost = [r["id"] for r in rows if r["em"] and not exact_match(replay(r)[0], r["gold"])]
print(f"right only with the second stop: {gained}; right only without it: {lost}")
check(after["finished"] > before["finished"] and after["calls"] < before["calls"],
      "two stops: more runs finish, with fewer calls")
check(after["EM"] == before["EM"] + 1 and gained == ["hq014"] and not lost, "and one more right answer: hq014")
check(min(always.values()) > after["EM"], "a constant answer beats both")
overlap = {q["id"] for q in load_questions("hotpotqa") if q.get("overlaps_exemplar")}
check(not overlap & {r["id"] for r in rows}, "no question of the run overlaps an exemplar")

# %% [markdown]
# Read the table for what it is. The second stop is a **harness** fix: most runs now end with an answer, and with
# far fewer calls (the last column), because the model no longer burns its remaining steps on `Invalid action`.
# It is not an accuracy fix: EM barely moves, because this 135M-parameter model's answers were mostly wrong before
# it ran past them. The one right answer it gains is hq014 ("In what year did Apple introduce the Apple Remote?"):
# its first `Finish[2005]` was right, and the model lost it to the question it invented after it. One question is
# well inside the interval, and a constant answer (the always rows) still beats both.
#
# The run sample holds no question about an exemplar's subject (`overlaps_exemplar` in the data, left out of every
# score from notebook 07 on), so there is nothing to take out before reading EM: the last check above says so.
#
# ## 5. The same fix, in the harness
#
# A stop list is the harness's, not the model's. The smallest way to add one is a wrapper around any backend that
# appends a stop to every call. Play the model with the recorded steps of hq001, invented question and all, and
# watch the episode end at the finish.

# %%
from react_teach.agent import Agent
from react_teach.wiki import LocalWiki


class ExtraStop:
    """Any backend, with more stop sequences on every call."""

    def __init__(self, inner, extra):
        self.inner, self.extra, self.name = inner, list(extra), inner.name

    def complete(self, prompt, *, stop=None, **kw):
        return self.inner.complete(prompt, stop=list(stop or []) + self.extra, **kw)


recorded = [f" {s['thought']}\nAction {i}: {s['action']}" for i, s in enumerate(example["steps"], 1)]
for name, extra in (("one stop", []), ("two stops", ["\nQuestion:"])):
    actor = ExtraStop(llm.from_spec("script:", completions=recorded), extra)
    t = Agent(example["question"], llm=actor, wiki=LocalWiki.course(), prefix="", max_steps=k).run()
    # NBVAL_CHECK_OUTPUT
    print(f"{name:>9}: step {k} action {t.steps[-1].action[:40]!r}..., answer {t.answer!r}")

# %% [markdown]
# To run the bundled model itself with the second stop (about a minute per question on two idle cores; cached on
# disk afterwards), and compare with what `replay` predicts:
#
# ```python
# question = next(q for q in load_questions("hotpotqa") if q["id"] == "hq001")
# live = Agent(question["question"], llm=ExtraStop(llm.default(), ["\nQuestion:"]), wiki=LocalWiki.course()).run()
# live.answer, len(live.steps), replay(next(r for r in rows if r["id"] == "hq001"))
# ```
#
# When this notebook was written, the live run ended as `replay` says: `Finish[yes]` at step 3. If yours
# differs, your CPU's arithmetic led the model down another path before the cut (llama.cpp is deterministic on one
# machine, not across machines). The replayed table above stays exact for the runs it replays.

# %% [markdown]
# ## 6. Copying an exemplar
#
# A small model copies more than the transcript's shape; it can copy the exemplars' sentences too. How often does a
# thought copy an exemplar word for word? Split every thought into sentences (on `". "`, the way the tool splits
# pages) and look for sentences of five words or more that appear in an exemplar's thoughts.

# %%
def sentences_of(text):
    return [s.strip() for s in re.split(r"(?<=\.) ", text or "") if len(s.split()) >= 5]


def copied(runs, task="hotpotqa"):
    """Ids of the runs with a thought sentence found word for word in the exemplars' thoughts."""
    shown = {s for e in load_exemplars(task) for st in e["steps"] for s in sentences_of(st.get("thought"))}
    return [r["id"] for r in runs if any(s in shown for st in r["steps"] for s in sentences_of(st["thought"]))]


ids = copied(rows)
shown = {s for e in load_exemplars("hotpotqa") for st in e["steps"] for s in sentences_of(st.get("thought"))}
named = [s for s in shown if any(w[:1].isupper() and w != "I" for w in s.split()[1:])]  # a name past the first word
# NBVAL_CHECK_OUTPUT
print(f"{len(ids)} of {len(rows)} runs copy an exemplar sentence: {', '.join(ids) or 'none'}")
print(f"{len(named)} of the {len(shown)} exemplar sentences it looks for name a person, place or work")
check(not ids, "no HotpotQA thought in the run copies an exemplar sentence")
check(len(named) >= 0.75 * len(shown), "most of the sentences looked for name their exemplar's subject")

# %% [markdown]
# None does. Most sentences the test looks for name their exemplar's own subject ("Leonid
# Levin studied at Moscow State University.", "Arthur's Magazine was started in 1844."), so a thought can fit one
# in only when the question is about that subject, and the run sample never draws those questions (the check in
# section 4). On a question about Leonid Levin, repeating the exemplar's thought about him can give a right answer
# with no search behind it; that is why the course marks every question that shares an exemplar's subject or
# wording (`overlaps_exemplar`), leaves them out of every score (`react_teach.runs.stats.scored`), and
# `react_teach.runs.sample` never draws them. (Exercise 3 asks whether FEVER behaves the same way.)
#
# What the model still copies is the exemplars' *template*. The first thought of the sixth exemplar and of a
# birth-year question of the run:

# %%
hq058 = next(r for r in rows if r["id"] == "hq058")
print("exemplar:", load_exemplars("hotpotqa")[5]["steps"][0]["thought"])
print("hq058:   ", hq058["steps"][0]["thought"])

# %% [markdown]
# "Find where ..., then see if ..." is the exemplar's plan, names swapped; "where they were born" is the exemplar's
# "where each of them studied" carried into a question about *when*.
#
# ## 7. Right for the wrong reason
#
# With no copying, are the right answers right for the right reason? The run has three, and the course's hand
# labels (`data/labels/hotpotqa_authors.jsonl`, read by notebook 09) judge each one from the whole trajectory.

# %%
hand = {l["id"]: l for l in read_jsonl(data_dir() / "labels" / "hotpotqa_authors.jsonl") if l["method"] == "react"}
right = [r["id"] for r in rows if r["em"]]
# NBVAL_CHECK_OUTPUT
for i in right:
    print(f"{i}: {hand[i]['label']}: {hand[i]['reason']}")
check(right == ["hq020", "hq060", "hq097"], "three right answers: hq020, hq060 and hq097")
check([hand[i]["label"] for i in right].count("false positive") == 2, "two of them false positives")

# %% [markdown]
# Read hq097, the clearest of the two false positives.

# %%
from collections import Counter

hq097 = next(r for r in rows if r["id"] == "hq097")
print(hq097["question"], "  gold:", hq097["gold"])
for i, st in enumerate(hq097["steps"], 1):
    action = st["action"].splitlines()
    print(f"Thought {i}: {st['thought']}\nAction {i}: {action[0]}{' (and an invented question)' * (len(action) > 1)}"
          f"\nObservation {i}: {st['observation'][:90]}")
said = Counter(r["answer"] for r in rows)
print("the run's most common answers:", said.most_common(3))
check(hq097["steps"][0]["observation"].startswith("Could not find")
      and "before Colorado" in hq097["steps"][1]["thought"] and hq097["answer"] == "no",
      "hq097: its one search fails, its thought says 'before', and it answers 'no'")
check(len(hq097["steps"]) == 3 and ran_past(hq097) == 2 and "capital" in hq097["steps"][2]["thought"],
      "its step-2 finish ran past; the finish of step 3 follows a thought about the invented question")
check(said.most_common(1)[0][0] == "no", "'no' is the run's most common answer")
hq020 = next(r for r in rows if r["id"] == "hq020")
check("1809" in hq020["steps"][1]["thought"] and not any("1809" in (st["observation"] or "") for st in hq020["steps"])
      and all("1847" in st["observation"] for st in hq020["steps"][:2]),
      "hq020: its thought says 1809, no observation does, and both observations say 1847")

# %% [markdown]
# Its one search finds nothing, and its thought says Arizona *was* admitted first, then concludes "no": the answer
# contradicts the only reasoning the trajectory holds. That finish ran on into an invented question, so the "no"
# that ends the episode comes at step 3, after a thought that answers the invented question. The "no" is right
# because "no" is what this model says most (the count above), not because it found anything. EM counts it a
# success. The other false positive, hq020, answers "yes" (Edison and Bell, both born in 1847) after a thought that
# gives Bell a birth date in 1809 that no observation holds; the observations had the right years, and no thought
# compared them. Both are Table 2's false positives: check the reasoning, not just the answer.

# %% [markdown]
# ## Summary
# - A small model copies the prompt's shape: after `Finish[...]` it writes the next exemplar's `Question:`, in 31
#   of the 40 runs of the committed ReAct run.
# - The step's stop `"\nObservation i:"` cannot catch it: the invented transcript restarts its numbering at 1.
# - The tool then sees an invalid action (or, worse, accepts the invented text as the answer), and the model tries
#   again, in a few runs until its seven steps are spent.
# - A second stop, `"\nQuestion:"`, ends those episodes at the finish. With greedy decoding the recorded runs
#   tell exactly what it changes: more finished runs and far fewer calls, and one more right answer (hq014).
# - No thought of this HotpotQA run copies an exemplar's sentence: those sentences name the exemplars' subjects,
#   which the run sample leaves out. The exemplars' plan is still copied.
# - A right answer can still rest on nothing (two of the three in this run): check the reasoning, not just the
#   answer.
#
# ## Exercises
# Each exercise ends with a checker: `✓` when your answer is right, `✗` and a hint when it is not, `not yet` while
# the `...` is still there. The FEVER ReAct run has the same failure, with `Claim:` in place of `Question:`.

# %%
from react_teach import exercises

ex = exercises.of("format_failures")
fever = read_jsonl(data_dir() / "runs" / "fever_react.jsonl")
len(fever)

# %% [markdown]
# **1.** Write `my_fever_stops(i)`, the stop list for step `i` of a FEVER ReAct run, so that neither an invented
# observation nor an invented claim survives. The checker cuts the recorded FEVER steps with it.

# %%
def my_fever_stops(i: int) -> list[str]:
    ...  # your code here


ex[1](my_fever_stops)

# %% [markdown]
# **2.** *Predict first*: will the second stop make more FEVER runs correct, or only more of them finish? Then
# measure it. With `ran_past` and `replay` (they take the marker as an argument), find how many of the FEVER
# runs ran past `Finish` into an invented claim, how many runs were correct as recorded (`correct`), and how many
# would be correct with your second stop (a FEVER answer is correct when the label matches the gold one exactly).

# %%
my_fever_counts = (..., ..., ...)  # (ran past Finish, correct as recorded, correct with the second stop)

ex[2](my_fever_counts)

# %% [markdown]
# **3.** Which FEVER runs copy a sentence of a FEVER exemplar's thoughts word for word? Use `copied` with
# `task="fever"`. Then read the sentences they copy: are those claims about an exemplar's subject, and does the
# copied sentence say anything about the claim?

# %%
my_fever_copied = [...]  # the run ids, e.g. ["fv001", ...]

ex[3](my_fever_copied)

# %% [markdown]
# **4.** Run the bundled model (the code block of section 5) on a FEVER claim that ran past `Finish` (e.g.
# `fv006`), with `Agent(claim, llm=ExtraStop(llm.default(), ...), task="fever", ...)` and your stops. Does the live
# run agree with `replay`? (This one has no checker: the model's text depends on your CPU.)
