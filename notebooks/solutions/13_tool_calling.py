"""Reference solutions for the notebook "tool calling"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import json

import numpy as np

from react_teach.llm import Usage


def to_action(call):
    args = json.loads(call["function"]["arguments"] or "{}")
    return f"{call['function']['name']}[{next(iter(args.values()), '')}]"


def to_action_paper(call):
    """The paper's capitals, the value read by the one key there is."""
    (value,) = json.loads(call["function"]["arguments"]).values()
    return call["function"]["name"].capitalize() + "[" + value + "]"


def scripted(plan):
    def chat(messages, tools):
        name, arg = plan[min(sum(m["role"] == "tool" for m in messages), len(plan) - 1)]
        tool_call = {"id": f"call{len(messages)}", "type": "function",
                     "function": {"name": name, "arguments": json.dumps({"argument": arg})}}
        return {"role": "assistant", "content": None, "tool_calls": [tool_call]}, Usage()
    return chat


def reader(messages, tools):
    """A chat that reads: it searches, follows the page the first result names, and answers from what it read."""
    seen = [m["content"] for m in messages if m["role"] == "tool"]
    if not seen:
        name, args = "search", {"entity": "Apple Remote"}
    elif len(seen) == 1:
        name, args = "search", {"entity": "Front Row (software)"}
    elif len(seen) == 2:
        name, args = "lookup", {"keyword": "keyboard"}
    else:
        name, args = "finish", {"answer": "Keyboard function keys"}
    call = {"id": f"call{len(messages)}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    return {"role": "assistant", "content": "reading before answering", "tool_calls": [call]}, Usage()


def blank(messages, tools):
    ...


solutions = {1: to_action,
             2: scripted([("search", "Apple Remote"), ("search", "Front Row (software)"),
                          ("finish", "keyboard function keys")]),
             3: 7}
valid = {1: [to_action_paper], 2: [reader], 3: [np.int64(7), 7.0]}
wrong = {
    1: [lambda c: f"{c['function']['name']}[{c['function']['arguments']}]",          # the JSON string pasted in
        lambda c: f"{c['function']['name']}[{json.loads(c['function']['arguments'])}]",  # the dict pasted in
        lambda c: to_action(c).lower()],                                             # the argument changed
    2: [scripted([("finish", "keyboard function keys")]), scripted([("search", "Apple Remote")]),
        scripted([("search", "Apple Remote"), ("finish", "Front Row")]),
        scripted([("search", "Paris"), ("finish", "keyboard function keys")])],      # an irrelevant search
    3: [1, 2, 8],  # the loop does not notice a repeat; the budget is a ceiling
}
