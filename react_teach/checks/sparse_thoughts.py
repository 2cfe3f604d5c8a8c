"""Checkers for the notebook "sparse thoughts": an episode written with sparse thoughts, and the Act exemplars."""
from react_teach.exercises import exercise, expect
from react_teach.household import exemplars, generate, play

NB = "sparse_thoughts"


@exercise(NB, 1, "a cool episode with sparse thoughts")
def cool_episode(lines):
    """A list of lines (actions and `think:` lines) that solves `generate("cool", 7)` with at least two thoughts."""
    expect(isinstance(lines, list) and all(isinstance(x, str) for x in lines), "give a list of lines (strings)")
    thoughts = [x for x in lines if x.strip().startswith("think:")]
    expect(len(thoughts) >= 2, "think at least twice, where a person would stop to think (the plan, the object "
           "in sight, a sub-goal done)")
    expect(len(thoughts) < len(lines) / 2, "these are sparse thoughts: most lines should be actions")
    t = play(generate("cool", 7), lines)
    expect(t.extra.get("won"), "the world did not end in success: replay your lines with play(...) and read the "
           "observations; `Nothing happens.` marks the line that went wrong")


@exercise(NB, 2, "the Act exemplars")
def act_steps(count):
    """How many steps the two Act exemplar episodes have together."""
    right = sum(len(e.steps) for e in exemplars("act"))
    expect(isinstance(count, int), "give a whole number of steps")
    expect(count != sum(len(e.steps) for e in exemplars("react")), "that counts the ReAct exemplars' steps, thoughts "
           "included: the Act ones have the thoughts deleted")
    expect(count == right, "add up len(e.steps) over exemplars(\"act\")")
