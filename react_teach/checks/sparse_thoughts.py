"""Checkers for the notebook "sparse thoughts": an episode written with sparse thoughts, the Act exemplars, and a
prediction of what the world answers.

What each exercise exists to catch:
1. the episode: thoughts as decoration (empty `think:` lines, or thoughts tacked on after the task is done) instead
   of thoughts where a person stops to decide; the capital of `Think:` is spelling, not an idea, and counts.
2. the count: counting the ReAct exemplars' steps, thoughts included, as the Act ones.
3. the prediction: expecting a thought to be refused like an impossible action (it is answered `OK.`), or
   expecting an action to work from across the room (the agent has to go there first).
"""
from react_teach.exercises import exercise, expect
from react_teach.checks.forms import whole
from react_teach.household import HouseholdEnv, exemplars, generate, is_thought, play

NB = "sparse_thoughts"


def _said(line: str) -> str:
    """What a think: line says, without its label."""
    return line.strip()[len("think:"):].strip()


@exercise(NB, 1, "a cool episode with sparse thoughts")
def cool_episode(lines):
    """A list of lines (actions and `think:` lines) that solves `generate("cool", 7)` with at least two thoughts."""
    expect(isinstance(lines, list) and all(isinstance(x, str) for x in lines), "give a list of lines (strings)")
    t = play(generate("cool", 7), lines)
    expect(t.extra.get("won"), "the world did not end in success: replay your lines with play(...) and read the "
           "observations; `Nothing happens.` marks the line that went wrong")
    won_at = next(k for k in range(1, len(lines) + 1) if play(generate("cool", 7), lines[:k]).extra.get("won"))
    thoughts = [x for x in lines if is_thought(x)]
    expect(all(len(_said(x).split()) >= 2 for x in thoughts), "a thought with no words in it is not a thought: "
           "write what you would decide at that point")
    useful = [x for x in lines[:won_at] if is_thought(x)]
    expect(len(useful) >= 2 or len(thoughts) < 2, "a thought written after the task is done cannot guide an action: "
           "think before the steps it decides")
    expect(len(useful) >= 2, "think at least twice, where a person would stop to think (the plan, the object "
           "in sight, a sub-goal done)")
    expect(len(thoughts) < len(lines) / 2, "these are sparse thoughts: most lines should be actions")


@exercise(NB, 2, "the Act exemplars")
def act_steps(count):
    """How many steps the two Act exemplar episodes have together."""
    right = sum(len(e.steps) for e in exemplars("act"))
    n = whole(count)
    expect(n is not None, "give a whole number of steps")
    expect(n != sum(len(e.steps) for e in exemplars("react")), "that counts the ReAct exemplars' steps, thoughts "
           "included: the Act ones have the thoughts deleted")
    expect(n == right, "add up len(e.steps) over exemplars(\"act\")")


LINES = ["go to microwave 1", "heat tomato 1 with microwave 1", "think: I need the tomato first.",
         "go to countertop 1", "take tomato 1 from countertop 1", "heat tomato 1 with microwave 1",
         "go to microwave 1", "heat tomato 1 with microwave 1"]


def nothing_happens() -> set[int]:
    """The positions in LINES that the world of generate("heat", 1) answers with `Nothing happens.`"""
    env = HouseholdEnv(generate("heat", 1))
    env.reset()
    return {i for i, line in enumerate(LINES) if env.step(line)[0] == "Nothing happens."}


@exercise(NB, 3, "a prediction: what the world answers")
def prediction(positions):
    """The positions (from 0) of the lines in LINES that the world answers `Nothing happens.`"""
    try:
        said = {whole(i) for i in positions} if not isinstance(positions, (str, bytes)) else {None}
    except TypeError:
        said = {None}
    expect(None not in said, "give a list of positions, e.g. [0, 3]")
    want = nothing_happens()
    thoughts = {i for i, line in enumerate(LINES) if is_thought(line)}
    expect(not said & thoughts, "a think: line is never refused: the world answers it OK. and changes nothing")
    expect(said <= want, f"the world carries out line(s) {sorted(said - want)}: replay the lines with play(...)")
    expect(said >= want, f"{len(want - said)} more line(s) are answered Nothing happens.: an action needs the "
           "object in hand and the agent at the place it names")
