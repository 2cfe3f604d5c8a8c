"""Checkers for the notebook "the cost of calls": the prompt tokens of 100 questions, the share computed, and a
prediction of how many calls a trajectory makes.

What each exercise exists to catch:
1. a hundred questions: taking the mean per call for the mean per question (a question makes several calls), or
   counting only the tokens the model computed (the cached ones are sent too).
2. the share computed: giving the share read from the cache instead. A value read off the printed table (its
   per-question means, or 100% minus its *cache* column) is the same answer to the precision the table shows.
3. the prediction: forgetting the call that writes the answer, or the extra call a re-prompt costs.
"""
from react_teach.exercises import exercise, expect
from react_teach.agent import Agent
from react_teach.checks.forms import real, whole
from react_teach.data import data_dir, read_jsonl
from react_teach.llm import ScriptLLM
from react_teach.wiki import LocalWiki

NB = "the_cost_of_calls"


def _react():
    return read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")


@exercise(NB, 1, "prompt tokens for 100 questions")
def hundred(tokens):
    """Prompt tokens that 100 text-ReAct questions send, estimated from the committed run's mean per question."""
    rows = _react()
    prompt = sum(r["usage"]["prompt_tokens"] for r in rows)
    per_question = prompt / len(rows)
    per_call = prompt / sum(r["n_calls"] for r in rows)
    computed = (prompt - sum(r["usage"]["cached_tokens"] for r in rows)) / len(rows)
    got = real(tokens)
    expect(got is not None and got > 0, "give a number of tokens")
    near = lambda x, y: abs(x - y) <= 0.01 * y  # an estimate: a mean read off the table, rounded, is as good
    expect(near(got, 100 * per_question) or not near(got, 100 * per_call),
           "that is 100 calls, not 100 questions: each question makes several calls")
    expect(near(got, 100 * per_question) or not near(got, 100 * computed),
           "that counts only the tokens the model computed: the cached ones are sent to it too")
    expect(near(got, 100 * per_question), "multiply the mean prompt tokens per question (the *prompt* column of "
           "react) by 100")


@exercise(NB, 2, "the share actually computed")
def computed_share(share):
    """The fraction of the ReAct run's prompt tokens the local model computed (not taken from its cache)."""
    rows = _react()
    prompt = sum(r["usage"]["prompt_tokens"] for r in rows)
    cached = sum(r["usage"]["cached_tokens"] for r in rows)
    want = (prompt - cached) / prompt
    got = real(share)
    expect(got is not None, "give a fraction between 0 and 1")
    expect(not (1 < got <= 100 and abs(got / 100 - want) <= 0.0051), f"{got} looks like a percentage: give it as "
           "a fraction between 0 and 1")
    expect(0 <= got <= 1, "give a fraction between 0 and 1")
    # the table prints the cache share as a whole percentage: anything within half a point of the truth is read
    # off it correctly (1 minus the cache column as well as the computed mean over the prompt mean)
    expect(abs(got - want) <= 0.0051 or abs(got - cached / prompt) > 0.0051,
           "that is the share read from the cache; the question asks for the rest")
    expect(abs(got - want) <= 0.0051, "(prompt - cached) / prompt, summed over the run")


QUESTION = ("Aside from the Apple Remote, what other device can control the program Apple Remote was originally "
            "designed to interact with?")
# three steps, and in step 2 the model writes a thought with no action line, so the harness asks again
SCRIPT = [" I need to search Apple Remote.\nAction 1: Search[Apple Remote]",
          " It was designed for Front Row. I should read about Front Row.",
          " Search[Front Row (software)]",
          " It can be controlled by the keyboard function keys.\nAction 3: Finish[keyboard function keys]"]


def scripted_calls() -> int:
    """The model calls of a text-ReAct run of SCRIPT: what the prediction is checked against."""
    return Agent(QUESTION, llm=ScriptLLM(list(SCRIPT)), wiki=LocalWiki.course(), prefix="").run().n_calls


@exercise(NB, 3, "a prediction: how many calls")
def calls(count):
    """How many model calls the scripted trajectory makes: two searches, one re-prompt, and the answer."""
    n, want = whole(count), scripted_calls()
    expect(n is not None, "give a whole number of calls")
    expect(n != want - 1, "one short: count the call that writes Finish, and the extra call the re-prompt costs")
    expect(n >= want, "fewer than that: every step is a call, and a missing action line costs one more")
    expect(n <= want, "more than that: a re-prompt is one extra call, not a new step")
