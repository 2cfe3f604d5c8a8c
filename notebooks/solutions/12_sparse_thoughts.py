"""Reference solutions for the notebook "sparse thoughts"; `wrong` lists answers the checkers must refuse."""
from react_teach.household import exemplars, expert, generate

task = generate("cool", 7)
plan = expert(task)
episode = (["think: To solve the task, I need to find a potato, cool it with the fridge, then put it in cabinet 1."]
           + plan[:2] + ["think: Now I have the potato. Next, I cool it with fridge 1."] + plan[2:])

solutions = {1: episode, 2: sum(len(e.steps) for e in exemplars("act"))}
wrong = {
    1: [plan, ["think: a plan."] + expert(generate("cool", 2)) + ["think: done."],
        ["think: a.", "think: b.", "think: c."] + plan[:1]],
    2: [sum(len(e.steps) for e in exemplars("react")), 8],
}
