"""Checkers for the notebook "tool calling": a structured call turned into an action, and a chat you script."""
import json

from react_teach.exercises import call, exercise, expect
from react_teach.data import load_questions
from react_teach.score import exact_match
from react_teach.tools.calling import tool_calling
from react_teach.wiki import LocalWiki

NB = "tool_calling"


def _call(name: str, **args) -> dict:
    return {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


@exercise(NB, 1, "a tool call as an action")
def to_action(fn):
    """`fn(call)` turns one structured tool call into the text action `WikiEnv` runs, e.g. ``search[X]``."""
    cases = [(_call("search", entity="Front Row (software)"), "search[Front Row (software)]"),
             (_call("lookup", keyword="keyboard"), "lookup[keyboard]"),
             (_call("finish", answer="keyboard function keys"), "finish[keyboard function keys]")]
    for tool_call, want in cases:
        got = call(fn, tool_call)
        expect(isinstance(got, str), "return the action as a string")
        expect(got != tool_call["function"]["arguments"], "the arguments arrive as a JSON string: parse them first")
        expect(got == want, f"for {tool_call['function']['name']} you wrote {got!r}: the name, then the one "
               "argument's value between square brackets")


@exercise(NB, 2, "you as a tool-calling model")
def scripted_chat(fn):
    """`fn(messages, tools)` returns (assistant message, Usage) and answers hq001 within the budget of 7 calls."""
    q = next(q for q in load_questions("hotpotqa") if q["id"] == "hq001")
    expect(callable(fn), "give a function (messages, tools) -> (message, usage)")
    try:
        t = tool_calling(q["question"], fn, LocalWiki.course(), max_calls=7)
    except Exception as e:  # the learner's function broke the loop: say how
        expect(False, f"the loop stopped with {type(e).__name__}: {e}; return (message, Usage()) with a "
               "tool_calls list, as `me` does")
    expect(t.extra.get("finished"), "your model never called finish within 7 calls")
    expect(sum(s.observation is not None and not s.action.startswith("finish") for s in t.steps) >= 1,
           "answer from an observation: search before you finish")
    expect(exact_match(t.answer, q["answer"]), f"your answer {t.answer!r} is not the gold one: read the page the "
           "Apple Remote's first sentences point to")
