"""Checkers for the notebook "after ReAct": what Reflexion's evaluator retries, what its retries cost, and a
prediction of the calls of the scripted retry.

What each exercise exists to catch:
1. the evaluator: retrying the trajectories that did not finish, when the evaluator compares the answer with the
   gold one (a finished wrong answer is retried too).
2. the cost: forgetting the reflection call between trials, or adding one after the last trial.
3. the prediction: the same two mistakes, on the notebook's own scripted run.
"""
from react_teach.exercises import call, exercise, expect
from react_teach.agent import Agent
from react_teach.checks.forms import predicted_count, whole
from react_teach.data import data_dir, load_questions, read_jsonl
from react_teach.llm import Recorder, ScriptLLM
from react_teach.runs.stats import scored
from react_teach.score import exact_match
from react_teach.wiki import LocalWiki

NB = "after_react"


@exercise(NB, 1, "what the evaluator sends back")
def retried(count):
    """How many scored trajectories of the committed ReAct run Reflexion's HotpotQA evaluator would retry."""
    rows = scored(read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl"))
    right = sum(not r["em"] for r in rows)
    n = whole(count)
    expect(n is not None, "give a whole number of trajectories")
    expect(n == right or n != sum(not r.get("finished") for r in rows),
           "that counts the ones that did not finish; the evaluator compares the answer with the gold one")
    expect(n == right or n != len(rows),
           "that counts every scored trajectory, the right ones too; the evaluator retries only the wrong ones")
    expect(n == right, "count the scored rows whose exact match is False")


@exercise(NB, 2, "the cost of k trials")
def cost(fn):
    """`fn(calls_per_trial, trials)`: model calls for a question that fails every one of `trials` trials."""
    for c, k in ((5, 1), (5, 3), (8, 2), (1, 4)):
        got = whole(call(fn, c, k))
        expect(got is not None, "return a whole number of calls")
        expect(got != c * k or k == 1, "each failed trial but the last is followed by one more call: the reflection")
        expect(got == c * k + k - 1, f"with {c} calls a trial and {k} trials you count {got}: after the last trial "
               "there is no retry, so no reflection either")


# The scripted retry of the notebook's section 2: trial 1, its reflection, trial 2 (the question is hq005).
SCRIPT = [
    # trial 1
    " I need to find the mathematician after whom Urysohn's lemma is named.\nAction 1: Search[Pavel Urysohn]",
    " He drowned in France, so the answer is France.\nAction 2: Finish[France]",
    # the reflection
    " I answered with the country when the question asked for the region; I should look up where he drowned.",
    # trial 2
    " My note says to find the region. I search Pavel Urysohn.\nAction 1: Search[Pavel Urysohn]",
    " I look up where he drowned.\nAction 2: Lookup[drowned]",
    " He drowned off the coast of Brittany.\nAction 3: Finish[Brittany]",
]


def scripted_calls() -> int:
    """The model calls of the scripted retry: trials until one is right, a reflection after each failed one."""
    q = next(q for q in load_questions("hotpotqa") if q["id"] == "hq005")
    model, notes = Recorder(ScriptLLM(list(SCRIPT))), []
    for _ in range(2):
        prefix = "" if not notes else "Your notes:\n" + "".join(f"- {n}\n" for n in notes)
        t = Agent(q["question"], llm=model, wiki=LocalWiki.course(), prefix=prefix, max_steps=4).run()
        if exact_match(t.answer, q["answer"]):
            break
        notes.append(model.complete("Reflection:", stop=["\n"], max_tokens=60)[0].text.strip())
    return len(model.requests)


@exercise(NB, 3, "a prediction: the calls of the scripted retry")
def retry_calls(count):
    """How many model calls section 2's scripted retry makes in all."""
    predicted_count(count, scripted_calls(), fewer="the reflection between the two trials is a model call too",
                    more="trial 2 succeeds, so no reflection follows it")
