"""Reference solutions for the notebook "a world no one has read"; `wrong` lists answers the checkers must refuse."""
import numpy as np

from react_teach import world
from react_teach.checks.a_world_no_one_has_read import _world, floor, miss_question, task_question

w, wiki = _world()
oracle = world.oracle(w, task_question(), wiki)
actions = [s.action[:1].lower() + s.action[1:] for s in oracle.steps]  # the oracle's own moves
target = world.oracle(w, miss_question(), wiki).steps[1].action[len("Search["):-1]

other = "Palun Raker"  # another title in the same Similar list: a near name, not the person asked about
gold = task_question()["answer"]

solutions = {1: actions, 2: f"The name was not found; I need to search {target} instead.", 3: round(floor(1), 2)}
misconception = {
    1: "a right answer is enough, even one no page showed (in a world no one has read, that can only be a guess)",
    2: "mentioning the right title is the same as choosing it (a thought must say which title it will search next)",
    3: "guessing gets nothing (or everything) right: two-option and yes/no questions give a floor above zero",
}
valid = {
    1: [[a[:1].upper() + a[1:] for a in actions],  # Search[...] as in the paper's prompts
        actions[:-1] + [f"finish[{gold.lower()}]"], actions[:-1] + [f" finish[{gold}] "]],
    2: [f"search for {target}", f"Search[{target}]", f"The page was missing, so I should look up {target}.",
        f"I should search {target}, not {other}.", f"Instead of {other}, I will search {target}."],
    3: [np.float64(round(floor(1), 2)), np.float32(floor(1)), round(floor(1), 1), 0.25],
}
wrong = {1: [[f"finish[{gold}]"], [f"Finish[{gold.lower()}]"], actions[:-1], actions[:-1] + ["finish[nobody]"]],
         2: ["I need to search the question again.", 42, f"I will not search {target}; I will search {other}.",
             f"{target} is in the list, but I will search {other}."],
         3: [0.9, 0.0, "a quarter", True]}
