"""Reference solutions for the notebook "tool calling"; `wrong` lists answers the checkers must refuse."""
import json

from react_teach.llm import Usage


def to_action(call):
    args = json.loads(call["function"]["arguments"] or "{}")
    return f"{call['function']['name']}[{next(iter(args.values()), '')}]"


def scripted(plan):
    def chat(messages, tools):
        name, arg = plan[min(sum(m["role"] == "tool" for m in messages), len(plan) - 1)]
        tool_call = {"id": f"call{len(messages)}", "type": "function",
                     "function": {"name": name, "arguments": json.dumps({"argument": arg})}}
        return {"role": "assistant", "content": None, "tool_calls": [tool_call]}, Usage()
    return chat


solutions = {1: to_action,
             2: scripted([("search", "Apple Remote"), ("search", "Front Row (software)"),
                          ("finish", "keyboard function keys")])}
wrong = {
    1: [lambda c: f"{c['function']['name']}[{c['function']['arguments']}]",
        lambda c: to_action(c).capitalize()],
    2: [scripted([("finish", "keyboard function keys")]), scripted([("search", "Apple Remote")]),
        scripted([("search", "Apple Remote"), ("finish", "Front Row")])],
}
