"""Checkers for the notebook "a world no one has read": act in the held-out world by hand, recover from a miss,
and estimate how far guessing gets."""
import ast
import numbers
import re
from functools import lru_cache

from react_teach.exercises import NotYet, exercise, expect
from react_teach import world
from react_teach.score import exact_match, normalize_answer
from react_teach.wiki import WikiEnv

NB = "a_world_no_one_has_read"


@lru_cache(maxsize=1)
def _world():
    w = world.generate(world.HELDOUT_SEED, world.SIZE)
    return w, world.wiki(w)


def task_question() -> dict:
    """Exercise 1's question: the first 2-hop bridge question of the held-out world that needs no recovery."""
    return next(q for q in _world()[0].questions if q["type"] == "bridge" and not q["recovery"])


def miss_question() -> dict:
    """Exercise 2's question: the first one whose oracle search misses."""
    return next(q for q in _world()[0].questions if q["recovery"] == ["miss"])


def floor(seed: int) -> float:
    """What answering 'yes', or the first of two options, scores on the world of `seed`."""
    return world.floor(world.generate(seed, world.SIZE).questions)


def as_harness(action: str) -> str:
    """Stripped, first letter lower-cased: Search[x] is search[x], as the agent's harness hands it to the tool."""
    action = action.strip()
    return action[:1].lower() + action[1:]


@exercise(NB, 1, "answer a bridge question by hand")
def by_hand(actions):
    expect(isinstance(actions, list) and all(isinstance(a, str) for a in actions), "a list of action strings")
    if not actions:
        raise NotYet("put your actions in the list, e.g. 'search[Name]'")
    q = task_question()
    env, seen = WikiEnv(_world()[1], gold=q["answer"]), []
    for k, action in enumerate(actions, 1):
        obs, done = env.step(as_harness(action))
        if done:
            expect(k == len(actions), f"action {k} ended the episode; the ones after it never run")
            break
        seen.append(obs)
    expect(env.done, f"end with finish[answer]; your last observation was: {seen[-1][:70] if seen else ''}")
    expect(exact_match(env.answer or "", q["answer"]),
           f"you finished with {env.answer!r}: no page you read says that is the answer. Which town, and which river?")
    expect(any(normalize_answer(q["answer"]) in normalize_answer(o) for o in seen),
           "the answer is right, but none of your observations showed it: in this world a right guess is still a "
           "guess (notebook 02's rule). Search the pages that hold it before you finish")


SEARCH = re.compile(r"\b(search(?:ing)?|look(?:ing)? up|look(?:ing)? for)(?:\s+(?:for|the page|the title|page|title))*"
                    r"\s*[\[\"'“]?\s*$", re.IGNORECASE)  # a search verb right before the title
NEGATED = re.compile(r"\b(not|never|no need to|instead of|rather than)\b|n't\b", re.IGNORECASE)


def searched_titles(thought: str, titles: list[str]) -> set[str]:
    """The titles a thought says it will search: each one right after a search verb not negated just before it.

    >>> sorted(searched_titles("I will not search B; I will search A.", ["A", "B"]))
    ['A']
    >>> sorted(searched_titles("Search[A] next, since B is someone else.", ["A", "B"]))
    ['A']
    """
    chosen, low = set(), thought.lower()
    for title in titles:
        for m in re.finditer(r"(?<!\w)" + re.escape(title.lower()) + r"(?!\w)", low):
            head = low[: m.start()]
            verb = SEARCH.search(head[-40:])
            if verb is None:
                continue
            clause = re.split(r"[.;:!?]|,\s*(?:but|so)\b|\bbut\b", head[: len(head) - 40 + verb.start()]
                              if len(head) > 40 else head[: verb.start()])[-1]
            if not NEGATED.search(" ".join(clause.split()[-4:])):  # "will not", "do not want to": words just before
                chosen.add(title)
    return chosen


@exercise(NB, 2, "recover from a missed search")
def recover(thought):
    expect(isinstance(thought, str), "write the thought as a string")
    if not thought.strip():
        raise NotYet("write your thought in my_thought")
    steps = world.oracle(_world()[0], miss_question(), _world()[1]).steps
    target = steps[1].action[len("Search["):-1]
    similar = ast.literal_eval(steps[0].observation.split("Similar: ", 1)[1].rstrip("."))
    chosen = searched_titles(thought, similar)
    expect(chosen, "your thought names no title from the Similar list as the next search: write 'search' and the "
                   "title, e.g. \"so I need to search X\"")
    expect(chosen == {target}, f"your thought would search {', '.join(sorted(chosen))}: which of the similar titles "
                               "extends the name in the question, word for word?")


@exercise(NB, 3, "the guessing floor of world 1")
def guessing_floor(value):
    expect(isinstance(value, numbers.Real) and not isinstance(value, bool) and 0 <= value <= 1,
           "a fraction between 0 and 1")
    truth = floor(1)
    expect(value <= truth + 0.05, "too high: guessing 'yes' is right only when the answer is yes, the first option "
                                  "only when it came first, and a bridge question never")
    expect(value >= truth - 0.05, "too low: two-option questions are right about half the time by chance; how many "
                                  "of the questions have two options?")
