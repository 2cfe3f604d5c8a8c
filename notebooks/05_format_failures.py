# %% [markdown]
# # Format failures
#
# In this notebook you will
# - count, in the committed ReAct runs, how often the model wrote `Finish[...]` and kept going into a question it
#   invented;
# - see why the stop at `"\nObservation i:"` cannot catch it, and what the environment then does;
# - add a second stop sequence and measure exactly what changes, by replaying every recorded run;
# - find thoughts copied word for word from the exemplars, and an answer that is right for the wrong reason.
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

# %%
example = next(r for r in rows if r["id"] == "hq002")
k = ran_past(example)
print(f"{example['id']}, step {k}:\nAction {k}: {example['steps'][k - 1]['action']}")

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
overlap = {q["id"] for q in load_questions("hotpotqa") if q.get("overlaps_exemplar")}
fair = [r for r in rows if r["id"] not in overlap]
em_fair = [summary([(r, r["answer"] or "", 0, 0) for r in fair])["EM"], summary([(r, *replay(r)) for r in fair])["EM"]]
print(f"EM without the {len(rows) - len(fair)} questions that overlap the exemplars: {em_fair[0]} -> {em_fair[1]} "
      f"of {len(fair)}")

# %% [markdown]
# Read the table for what it is. The second stop is a **harness** fix: most runs now end with an answer, and with
# far fewer calls (the last column), because the model no longer burns its remaining steps on `Invalid action`.
# It is not an accuracy fix: EM barely moves, because this 135M-parameter model's answers were mostly wrong before
# it ran past them. One more right answer is one question, well inside the interval, and a constant answer (the
# always rows) still beats both.
#
# The table counts every run, the questions about the exemplars' subjects included, because what it measures is
# the harness (finishing, calls), not accuracy. Its last line is the accuracy reading: EM without the questions that
# overlap the exemplars (marked in the data, left out of every score from notebook 07 on).
#
# ## 5. The same fix, in the harness
#
# A stop list is the harness's, not the model's. The smallest way to add one is a wrapper around any backend that
# appends a stop to every call. Play the model with the recorded step of hq002, invented question and all, and
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
# question = next(q for q in load_questions("hotpotqa") if q["id"] == "hq018")
# live = Agent(question["question"], llm=ExtraStop(llm.default(), ["\nQuestion:"]), wiki=LocalWiki.course()).run()
# live.answer, len(live.steps), replay(next(r for r in rows if r["id"] == "hq018"))
# ```
#
# If the two differ, one of two things happened before the cut. Your CPU's arithmetic may have led the model down
# another path (llama.cpp is deterministic on one machine, not across machines), or the prompt changed: two facts
# in the exemplars' observations (Milhouse's voice actor, First for Women's publisher) were corrected after the
# runs were recorded. The replayed table above stays exact for the runs it replays.

# %% [markdown]
# ## 6. Copying an exemplar
#
# Read the recorded run of hq018. It asks whether Stephen Cook was born before Leonid Levin; the
# last thought talks about where they *studied*.

# %%
hq018 = next(r for r in rows if r["id"] == "hq018")
print(hq018["question"])
print("Thought 2:", hq018["steps"][1]["thought"])
print("The sixth exemplar:", load_exemplars("hotpotqa")[5]["question"])

# %% [markdown]
# The sixth exemplar's thought says "Leonid Levin studied at Moscow State University." The answer `yes` is right,
# and the reasoning is copied: a false positive in the paper's Table 2 terms.
#
# How often does a thought copy an exemplar word for word? Split every thought into sentences (on `". "`, the way
# the tool splits pages) and look for sentences of five words or more that appear in an exemplar's thoughts.

# %%
def sentences_of(text):
    return [s.strip() for s in re.split(r"(?<=\.) ", text or "") if len(s.split()) >= 5]


def copied(runs, task="hotpotqa"):
    """Ids of the runs with a thought sentence found word for word in the exemplars' thoughts."""
    shown = {s for e in load_exemplars(task) for st in e["steps"] for s in sentences_of(st.get("thought"))}
    return [r["id"] for r in runs if any(s in shown for st in r["steps"] for s in sentences_of(st["thought"]))]


ids = copied(rows)
right = [i for i in ids if next(r for r in rows if r["id"] == i)["em"]]
marked = {q["id"] for q in load_questions("hotpotqa") if q.get("overlaps_exemplar")}
# NBVAL_CHECK_OUTPUT
print(f"{len(ids)} of {len(rows)} runs copy an exemplar sentence: {', '.join(ids)}")
print(f"correct among them: {right}; marked as overlapping an exemplar (its question or its subject): "
      f"{sorted(marked & set(ids))}")

# %% [markdown]
# The one correct ReAct answer in the whole run is a copied thought. An automatic labeller that only checks the
# answer calls it a success; a reader who checks what was searched does not (the agent never searched Levin).
# Every copying run is about the exemplars' own subjects (Levin, Urysohn, the two magazines), and one of them is an
# exemplar's question word for word: a model can "answer" that by copying, which is why the course marks such
# questions, and every question about an exemplar's subject (`overlaps_exemplar` in the data), and leaves them out
# of every score (`react_teach.runs.stats.scored`); the run sample of `react_teach.runs.sample` never draws them.

# %% [markdown]
# ## Summary
# - A small model copies the prompt's shape: after `Finish[...]` it writes the next exemplar's `Question:`, 30 of
#   40 times in the committed ReAct run.
# - The step's stop `"\nObservation i:"` cannot catch it: the invented transcript restarts its numbering at 1.
# - The tool then sees an invalid action (or, worse, accepts the invented text as the answer), and the model spends
#   its remaining steps repeating itself.
# - A second stop, `"\nQuestion:"`, ends those episodes at the finish. With greedy decoding the recorded runs
#   tell exactly what it changes: more finished runs and fewer calls, not more right answers.
# - Thoughts copied from the exemplars can produce right answers for wrong reasons: check the reasoning, not just
#   the answer.
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
# `task="fever"`. Is one of them a claim that is itself an exemplar?

# %%
my_fever_copied = [...]  # the run ids, e.g. ["fv001", ...]

ex[3](my_fever_copied)

# %% [markdown]
# **4.** Run the bundled model (the code block of section 5) on a FEVER claim that ran past `Finish` (e.g.
# `fv006`), with `Agent(claim, llm=ExtraStop(llm.default(), ...), task="fever", ...)` and your stops. Does the live
# run agree with `replay`? (This one has no checker: the model's text depends on your CPU.)
