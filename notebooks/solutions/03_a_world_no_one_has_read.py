"""Reference solutions for the notebook "a world no one has read"; `wrong` lists answers the checkers must refuse."""
from react_teach import world
from react_teach.checks.a_world_no_one_has_read import _world, floor, miss_question, task_question

w, wiki = _world()
oracle = world.oracle(w, task_question(), wiki)
actions = [s.action[:1].lower() + s.action[1:] for s in oracle.steps]  # the oracle's own moves
target = world.oracle(w, miss_question(), wiki).steps[1].action[len("Search["):-1]

solutions = {1: actions, 2: f"The name was not found; I need to search {target} instead.", 3: round(floor(1), 2)}
wrong = {1: [actions[:-1], actions[:-1] + ["finish[nobody]"]],
         2: ["I need to search the question again.", 42],
         3: [0.9, 0.0, "a quarter"]}
