"""Checkers for the notebook "a weak Wikipedia": a hard question answered by hand, a lookup keyword, and which
searches the tool forgives. Every expected value is computed here with the course's own tool."""
from react_teach.exercises import Wrong, exercise, expect
from react_teach.score import exact_match
from react_teach.data import load_questions
from react_teach.wiki import LocalWiki, WikiEnv

NB = "a_weak_wikipedia"
HARD = "hq003"  # Leonid Levin's university, then the year it was founded: two hops
SEARCHES = ["milhouse van houten", "Milhouse Van Hoten", "High Plains", "Front Row software",
            "front row (software)"]


def _env():
    return WikiEnv(LocalWiki.course())


def as_harness(action: str) -> str:
    """An action as the agent's harness hands it to the tool: stripped, first letter lower-cased (Search[x] is
    search[x], as in the paper's prompts and the official code)."""
    action = action.strip()
    return action[:1].lower() + action[1:]


def _question():
    return next(q for q in load_questions("hotpotqa") if q["id"] == HARD)


@exercise(NB, 1, "a hard question answered by hand")
def by_hand(actions):
    expect(isinstance(actions, (list, tuple)) and actions and all(isinstance(a, str) for a in actions),
           "write a list of action strings, e.g. [\"search[...]\", ..., \"finish[...]\"]")
    expect(len(actions) <= 7, f"{len(actions)} actions: the paper's agent gets at most 7")
    gold, env, seen = _question()["answer"], _env(), []
    for k, action in enumerate(actions, 1):
        action = as_harness(action)
        obs, done = env.step(action)
        if done:
            expect(k == len(actions), f"action {k} ended the episode; the ones after it never run")
            answer = action[action.index("[") + 1:].removesuffix("]")
            expect(exact_match(answer, gold), f"you finished with {answer!r}, which is not what the question "
                                              "asks for: read the question, then your last observations")
            expect(any(gold.lower() in o.lower() for o in seen),
                   "the answer is right, but no observation showed it: that is a guess, not a lookup")
            return
        seen.append(obs)
    raise Wrong("your actions never finish: end with finish[your answer]")


@exercise(NB, 2, "a lookup keyword that finds the naming")
def keyword(word):
    expect(isinstance(word, str) and word.strip(), "write the keyword as a string")
    env = _env()
    env.step("search[Milhouse Van Houten]")
    word = word.strip()
    obs, _ = env.step(f"lookup[{word}]")
    expect(not obs.startswith("No more results"), f"lookup[{word}] finds nothing: the keyword must appear, "
                                                  "letter for letter, inside one sentence")
    expect("Nixon" in obs, f"lookup[{word}] finds {obs[:90]!r}...: not the sentence about his name")


@exercise(NB, 3, "which searches show a page")
def forgiven(titles):
    expect(isinstance(titles, (list, tuple, set)) and all(isinstance(t, str) for t in titles),
           "write a list of the searches that show a page")
    titles = {t.strip() for t in titles}
    expect(titles <= set(SEARCHES), f"choose among {SEARCHES}, copied as written")
    env = _env()
    hits = {s for s in SEARCHES if not env.step(f"search[{s}]")[0].startswith("Could not find")}
    for s in SEARCHES:
        if (s in titles) != (s in hits):
            shows = "shows a page" if s in hits else "says Could not find"
            raise Wrong(f"try env.step('search[{s}]') yourself: it {shows}")
