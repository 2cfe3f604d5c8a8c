"""Checkers for the notebook "tool calling": a structured call turned into an action, a chat you script, and a
prediction of what the loop does with a model that repeats itself.

What each exercise exists to catch:
1. the action: pasting the JSON arguments string (or the parsed dict) between the brackets instead of the one
   argument's value. The tool name's capital is spelling (`Search[...]` as in the paper runs the same).
2. the scripted chat: an answer from memory, i.e. a finish whose answer no observation before it contains, even
   after a search (an irrelevant search does not ground it).
3. the prediction: expecting the loop to notice a repeated call and stop; it runs to its budget.
"""
import json

from react_teach.exercises import NotYet, Wrong, call, exercise, expect
from react_teach.checks.forms import predicted_count
from react_teach.data import load_questions
from react_teach.llm import Usage
from react_teach.score import exact_match, normalize_answer
from react_teach.tools.calling import tool_calling
from react_teach.wiki import LocalWiki

NB = "tool_calling"


def _call(name: str, **args) -> dict:
    return {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


@exercise(NB, 1, "a tool call as an action")
def to_action(fn):
    """`fn(call)` turns one structured tool call into the text action `WikiEnv` runs, e.g. ``search[X]``."""
    cases = [(_call("search", entity="Front Row (software)"), "search", "Front Row (software)"),
             (_call("lookup", keyword="keyboard"), "lookup", "keyboard"),
             (_call("finish", answer="keyboard function keys"), "finish", "keyboard function keys")]
    for tool_call, name, value in cases:
        got = call(fn, tool_call)
        expect(isinstance(got, str), "return the action as a string")
        expect(tool_call["function"]["arguments"] not in got, "the arguments arrive as a JSON string: parse them "
               "first, and keep only the value")
        head, bracket, rest = got.strip().partition("[")
        expect(bracket and rest.endswith("]"), f"for {name} you wrote {got!r}: the name, then the one argument's "
               "value between square brackets")
        expect(head.lower() == name, f"for {name} you wrote {got!r}: the action starts with the tool's name")
        expect(rest[:-1] == value, f"for {name} you put {rest[:-1]!r} between the brackets: only the argument's "
               "value goes there, exactly as the model sent it")


def _learner(fn):
    """The learner's chat, with a blank answer (None or ...) reported as "not yet" rather than a crash."""
    def chat(messages, tools):
        return call(fn, messages, tools)
    return chat


@exercise(NB, 2, "you as a tool-calling model")
def scripted_chat(fn):
    """`fn(messages, tools)` returns (assistant message, Usage) and answers hq001 within the budget of 7 calls."""
    q = next(q for q in load_questions("hotpotqa") if q["id"] == "hq001")
    expect(callable(fn), "give a function (messages, tools) -> (message, usage)")
    try:
        t = tool_calling(q["question"], _learner(fn), LocalWiki.course(), max_calls=7)
    except (NotYet, Wrong):
        raise
    except Exception as e:  # the learner's reply broke the loop: say how
        expect(False, f"the loop stopped with {type(e).__name__}: {e}; return (message, Usage()) with a "
               "tool_calls list, as `me` does")
    expect(t.extra.get("finished"), "your model never called finish within 7 calls")
    read = [s.observation or "" for s in t.steps if s.action and not s.action.lower().startswith("finish")]
    expect(read, "answer from an observation: search before you finish")
    expect(exact_match(t.answer, q["answer"]), f"your answer {t.answer!r} is not the gold one: read the page the "
           "Apple Remote's first sentences point to")
    expect(any(normalize_answer(t.answer) in normalize_answer(o) for o in read),
           "none of the pages your calls returned says your answer: it came from memory, not from an observation; "
           "search the page that holds it before you finish")


def repeating(entity: str = "Apple Remote"):
    """A chat that sends the same search on every turn, whatever it reads."""
    def chat(messages, tools):
        tool_call = {"id": f"call{len(messages)}", "type": "function",
                     "function": {"name": "search", "arguments": json.dumps({"entity": entity})}}
        return {"role": "assistant", "content": None, "tool_calls": [tool_call]}, Usage()
    return chat


@exercise(NB, 3, "a prediction: a model that repeats itself")
def repeat_calls(count):
    """How many calls `tool_calling(question, repeating(), wiki, max_calls=7)` makes."""
    q = next(q for q in load_questions("hotpotqa") if q["id"] == "hq001")
    predicted_count(count, tool_calling(q["question"], repeating(), LocalWiki.course(), max_calls=7).n_calls,
                    fewer="nothing in the loop notices a repeated call: it stops at finish or at its budget",
                    more="the budget counts calls: max_calls=7 is the most there can be", what="calls")
