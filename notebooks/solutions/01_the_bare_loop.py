"""Reference solutions for the notebook "the bare loop"; `wrong` lists answers the checkers must refuse."""
import re

from react_teach.checks.the_bare_loop import CAPITAL, CONTINENT, COUNTRY_OF, tool as notebook_tool


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


def answers_from_memory(context):
    """Finishes at step 1 from its own copy of the dictionaries: right in the notebook's world, and reads nothing."""
    city = re.search(r"capital is (\w+)", context).group(1)
    return f"finish[{CONTINENT[COUNTRY_OF[city]]}]"


def looks_up_then_ignores(context):
    """Takes the two lookups, then finishes from its own copy anyway: it acts, but does not read."""
    city = re.search(r"capital is (\w+)", context).group(1)
    t = context.count("Observation")
    return [f"country_of[{city}]", f"continent[{COUNTRY_OF[city]}]", f"finish[{CONTINENT[COUNTRY_OF[city]]}]"][t]


def policy_with_split(context):
    """The same idea with str methods, a trailing space and the last line read from the end."""
    city = context.split("capital is ")[1].split("?")[0]
    lines = [line for line in context.splitlines() if line.startswith("Observation")]
    if not lines:
        return f"country_of[{city}] "
    last = lines[-1].split(": ", 1)[1]
    return f"continent[{last}]" if len(lines) == 1 else f"finish[{last}]\n"


def tool_with_dict_lookup(action):
    """capital_of through a second dictionary and a match statement: equivalent code."""
    name, _, arg = action.partition("[")
    arg = arg.rstrip("]")
    match name:
        case "capital_of":
            return {"Japan": "Tokyo", "France": "Paris", "Italy": "Rome", "Canada": "Ottawa"}.get(
                arg, f"Unknown country: {arg}")
    return notebook_tool(action)


def tool_without_capital(action):
    return "Invalid action: " + action if action.startswith("capital_of") else tool(action)


def tool_that_raises(action):
    return {"capital_of[Japan]": "Tokyo"}[action]


solutions = {
    1: policy,
    2: tool,
    3: ["Italy", "Europe", "Invalid action: fly[Rome]", "No country called Mars.", "Episode finished."],
}
# What each exercise exists to catch
misconception = {
    1: "a policy is code that knows the answer; it need not read the observations (closed loop vs its own copy)",
    2: "a new tool replaces or breaks the old ones, or fails with an exception instead of an observation",
    3: "an unknown action or a miss is an error, not an observation the model reads",
}
valid = {
    1: [policy_with_split],
    2: [tool_with_dict_lookup],
    3: [["Italy ", "Europe", "Invalid action: fly[Rome]", " No country called Mars.", "Episode finished."],
        ("Italy", "Europe", "Invalid action: fly[Rome]", "No country called Mars.", "Episode finished.")],
}
wrong = {
    1: [answers_from_memory, looks_up_then_ignores, open_loop, lambda context: "finish[Asia]", lambda context: 42],
    2: [tool_without_capital, tool_that_raises, lambda a: tool(a.replace("capital_of", "country_of"))],
    3: [["Italy", "Europe", "error", "No country called Mars.", "Episode finished."], ["Italy", "Europe"]],
}
