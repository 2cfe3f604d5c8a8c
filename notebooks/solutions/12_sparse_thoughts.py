"""Reference solutions for the notebook "sparse thoughts"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import numpy as np

from react_teach.household import exemplars, expert, generate

task = generate("cool", 7)
plan = expert(task)
episode = (["think: To solve the task, I need to find a potato, cool it with the fridge, then put it in cabinet 1."]
           + plan[:2] + ["think: Now I have the potato. Next, I cool it with fridge 1."] + plan[2:])
act = sum(len(e.steps) for e in exemplars("act"))

solutions = {1: episode, 2: act, 3: [1, 5]}
valid = {
    # the paper's capital, extra spaces, and a thought where the object comes into sight
    1: [["Think: First I find a potato, then I cool it in fridge 1 and put it in cabinet 1."] + plan[:1]
        + ["  think:  A potato 2 is here; I take it.  "] + plan[1:],
        [episode[0]] + plan[:4] + ["think: The potato is cool; next I put it in cabinet 1."] + plan[4:]],
    2: [np.int64(act), float(act)],
    3: [(5, 1), {1, 5}, np.array([1, 5])],
}
wrong = {
    1: [plan, ["think: a plan."] + expert(generate("cool", 2)) + ["think: done."],
        ["think: a.", "think: b.", "think: c."] + plan[:1],
        plan[:1] + ["think:"] + plan[1:3] + ["think: "] + plan[3:],          # two empty thoughts
        plan + ["think: I put the potato in the cabinet.", "think: The task is done now."]],  # thoughts after the end
    2: [sum(len(e.steps) for e in exemplars("react")), 8, act + 0.5],
    # the thought taken for a refused action; acting from across the room; heating with empty hands
    3: [[1, 2, 5], [1], [5], "1, 5"],
}
