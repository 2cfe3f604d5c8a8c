"""Checkers for the notebook "a world no one has read": act in the held-out world by hand, recover from a miss,
and estimate how far guessing gets."""
from functools import lru_cache

from react_teach.exercises import NotYet, exercise, expect
from react_teach import world
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
    w = world.generate(seed, world.SIZE)
    return sum(guess(q) == q["answer"] for q in w.questions) / len(w.questions)


def guess(q: dict) -> str:
    if q["question"].startswith(("Which", "Who was born first")) and " or " in q["question"]:
        first = q["question"].split(", ", 1)[1].split(" or ")[0]
        return first.split(" ", 2)[2] if first.startswith("the ") else first
    return "yes"


@exercise(NB, 1, "answer a bridge question by hand")
def by_hand(actions):
    expect(isinstance(actions, list) and all(isinstance(a, str) for a in actions), "a list of action strings")
    if not actions:
        raise NotYet("put your actions in the list, e.g. 'search[Name]'")
    q = task_question()
    env = WikiEnv(_world()[1], gold=q["answer"])
    last = [env.step(a)[0] for a in actions][-1]
    expect(env.done, f"end with finish[answer]; your last observation was: {last[:70]}")
    expect(env.answer == q["answer"], "the answer is not the one the pages give: read the second page again")


@exercise(NB, 2, "recover from a missed search")
def recover(thought):
    expect(isinstance(thought, str), "write the thought as a string")
    if not thought.strip():
        raise NotYet("write your thought in my_thought")
    target = world.oracle(_world()[0], miss_question(), _world()[1]).steps[1].action[len("Search["):-1]
    expect(f"search {target}".lower() in thought.lower(),
           "pick the title from the Similar list that extends the name in the question, and write 'search' before it")


@exercise(NB, 3, "the guessing floor of world 1")
def guessing_floor(value):
    expect(isinstance(value, (int, float)) and 0 <= value <= 1, "a fraction between 0 and 1")
    expect(abs(value - floor(1)) < 0.05, "two options each: yes/no is 20% of the questions, 'which first' and "
           "'are both' 15% each; which options does guessing get right?")
