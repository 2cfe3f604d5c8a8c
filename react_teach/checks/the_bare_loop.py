"""Checkers for the notebook "the bare loop": a policy that reads its observations, a third tool, and you as the
environment. The checker keeps its own copy of the notebook's tiny world, so that it can run your code."""
from react_teach.exercises import Wrong, call, exercise, expect

NB = "the_bare_loop"
COUNTRY_OF = {"Tokyo": "Japan", "Paris": "France", "Rome": "Italy", "Ottawa": "Canada"}
CONTINENT = {"Japan": "Asia", "France": "Europe", "Italy": "Europe", "Canada": "North America"}
CAPITAL = {country: city for city, country in COUNTRY_OF.items()}

# A world the learner's policy cannot have a copy of: the same cities, other answers. A policy that reads its
# observations finishes with whatever this world says; one that answers from its own dictionaries cannot.
ELSEWHERE = {"Tokyo": ("Yamato", "Mu"), "Paris": ("Gallia", "Atlantis"), "Rome": ("Latium", "Lemuria"),
             "Ottawa": ("Laurentia", "Hyperborea")}


def world(country_of: dict, continent: dict):
    def tool(action: str) -> str:
        name, _, arg = action.partition("[")
        arg = arg.removesuffix("]")
        if name == "country_of":
            return country_of.get(arg, f"No city called {arg}.")
        if name == "continent":
            return continent.get(arg, f"No country called {arg}.")
        if name == "finish":
            return "Episode finished."
        return f"Invalid action: {action}"
    return tool


tool = world(COUNTRY_OF, CONTINENT)
elsewhere = world({c: a for c, (a, _) in ELSEWHERE.items()}, dict(ELSEWHERE.values()))


def bare_loop(question: str, policy, max_steps: int = 5, env=tool) -> tuple[str, str | None]:
    """The notebook's loop; returns the context and the finish answer (None without a finish)."""
    context = f"Question: {question}\n"
    for t in range(1, max_steps + 1):
        action = call(policy, context + f"Action {t}:")
        expect(isinstance(action, str), f"your policy returned {type(action).__name__}; it must return a string")
        action = action.strip()
        context += f"Action {t}: {action}\nObservation {t}: {env(action)}\n"
        if action.startswith("finish["):
            return context, action[len("finish["):].removesuffix("]").strip()
    return context, None


@exercise(NB, 1, "a policy that reads its observations")
def closed_loop(policy):
    for city in ("Tokyo", "Rome", "Ottawa", "Paris"):
        question = f"On which continent is the country whose capital is {city}?"
        context, answer = bare_loop(question, policy)
        want = CONTINENT[COUNTRY_OF[city]]
        if answer != want:
            last = context.strip().splitlines()[-2:]
            raise Wrong(f"for {city} your policy finished with {answer!r} (want {want!r}); the context ended "
                        f"{' / '.join(last)!r}. Does it read the question, then the last observation?")
        expect(context.count("\nAction") <= 3, f"for {city}, three actions are enough: two lookups and finish")
    # the same questions in a world with other facts: only a policy that reads what the tool said gets these right
    for city, (country, continent) in ELSEWHERE.items():
        context, answer = bare_loop(f"On which continent is the country whose capital is {city}?", policy,
                                    env=elsewhere)
        if answer != continent:
            raise Wrong(f"in a world where country_of[{city}] answers {country!r} and continent[{country}] answers "
                        f"{continent!r}, your policy finished with {answer!r}: it answers from what it already "
                        "knows, not from the Observation lines of its context")


@exercise(NB, 2, "a third tool, capital_of[country]")
def third_tool(fn):
    for country, city in CAPITAL.items():
        out = call(fn, f"capital_of[{country}]")
        expect(isinstance(out, str) and out.strip() == city,
               f"capital_of[{country}] gave {out!r}; it should be the city itself, {city!r}")
    out = call(fn, "capital_of[Mars]")
    expect(isinstance(out, str) and "Mars" in out and not out.startswith("Invalid action"),
           f"capital_of[Mars] gave {out!r}: a known tool with an unknown country says so, naming it")
    for action in ("country_of[Rome]", "continent[Canada]", "fly[home]", "finish[Asia]"):
        expect(call(fn, action) == tool(action), f"{action} should still answer {tool(action)!r}")


ACTIONS = ["country_of[Rome]", "continent[Italy]", "fly[Rome]", "continent[Mars]", "finish[Europe]"]


@exercise(NB, 3, "you are the environment")
def observations(answer):
    expect(isinstance(answer, (list, tuple)) and all(isinstance(a, str) for a in answer),
           "write a list of strings, one observation per action")
    expect(len(answer) == len(ACTIONS), f"one observation for each of the {len(ACTIONS)} actions")
    for action, mine in zip(ACTIONS, answer):
        want = tool(action)
        name = action.partition("[")[0]
        expect(mine.strip() == want, f"for {action} you wrote {mine!r}, which `tool` never returns: which branch "
                                     f"of `tool` answers {name!r}, and what does it return, to the letter?")
