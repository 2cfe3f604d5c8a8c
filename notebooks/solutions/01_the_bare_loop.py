"""Reference solutions for the notebook "the bare loop"; `wrong` lists answers the checkers must refuse."""
import re

from react_teach.checks.the_bare_loop import CAPITAL, tool as notebook_tool


def policy(context):
    """Read the city in the question, then each observation in turn."""
    city = re.search(r"capital is (\w+)", context).group(1)
    seen = re.findall(r"Observation \d+: (.*)", context)
    if not seen:
        return f"country_of[{city}]"
    if len(seen) == 1:
        return f"continent[{seen[0]}]"
    return f"finish[{seen[1]}]"


def tool(action):
    """The notebook's tool with a third action, capital_of[country]."""
    name, _, arg = action.partition("[")
    if name == "capital_of":
        return CAPITAL.get(arg.removesuffix("]"), f"No country called {arg.removesuffix(']')}.")
    return notebook_tool(action)


def open_loop(context):
    """Moves fixed in advance: right for Tokyo, wrong everywhere else."""
    t = context.count("\nAction")
    return ["country_of[Tokyo]", "continent[Japan]", "finish[Asia]"][min(t, 2)]


def tool_without_capital(action):
    return "Invalid action: " + action if action.startswith("capital_of") else tool(action)


def tool_that_raises(action):
    return {"capital_of[Japan]": "Tokyo"}[action]


solutions = {
    1: policy,
    2: tool,
    3: ["Italy", "Europe", "Invalid action: fly[Rome]", "No country called Mars.", "Episode finished."],
}
wrong = {
    1: [open_loop, lambda context: "finish[Asia]", lambda context: 42],
    2: [tool_without_capital, tool_that_raises, lambda a: tool(a.replace("capital_of", "country_of"))],
    3: [["Italy", "Europe", "error", "No country called Mars.", "Episode finished."], ["Italy", "Europe"]],
}
