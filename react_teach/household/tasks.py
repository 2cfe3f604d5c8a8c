"""The household's tasks: six ALFWorld task types, made as random rooms that are the same on every machine.

A room is a set of numbered receptacles holding numbered objects; a task asks for one kind of object, treated
or not, in one target receptacle:

    >>> task = generate("heat", 4)
    >>> task.goal
    'put a hot potato in cabinet 2.'
    >>> generate("heat", 4) == task, listing(["apple 1", "mug 2"])
    (True, 'a apple 1, and a mug 2')
"""
from __future__ import annotations

import random
from dataclasses import dataclass

TASK_TYPES = ("pick", "clean", "heat", "cool", "look", "pick_two")

CLOSED = {"cabinet", "drawer", "fridge", "microwave"}  # these start closed and hide what they hold
SURFACES = {"countertop", "shelf", "desk", "sidetable", "stoveburner"}  # the task says "on" these, "in" the rest
# what the treatment tasks need, and where: (action verb, appliance, state it gives)
TREATMENT = {"clean": ("clean", "sinkbasin 1", "clean"), "heat": ("heat", "microwave 1", "hot"),
             "cool": ("cool", "fridge 1", "cool")}
ADJECTIVE = {"clean": "clean ", "heat": "hot ", "cool": "cool ", "pick": "", "pick_two": ""}

# Where each kind of object lives at the start. Every kind has at least two homes, so that the object can always
# start somewhere other than the task's target.
HOMES = {
    **dict.fromkeys(["apple", "potato", "tomato", "egg", "lettuce", "bread"], ["countertop", "fridge"]),
    **dict.fromkeys(["mug", "cup", "bowl", "plate"], ["countertop", "cabinet", "shelf", "sinkbasin"]),
    **dict.fromkeys(["knife", "spoon", "fork"], ["countertop", "drawer"]),
    "book": ["desk", "shelf", "sidetable"],
    **dict.fromkeys(["cd", "pen", "pencil", "keychain", "creditcard", "cellphone"],
                    ["desk", "drawer", "shelf", "sidetable"]),
}
# For each task type: which kinds of object it asks for, and which kinds of receptacle may be the target.
# A treatment never targets its own appliance ("put a hot apple in microwave 1" would be done half-way).
OBJECTS = {
    "pick": ["cd", "pen", "pencil", "keychain", "creditcard", "book", "mug", "apple", "knife"],
    "clean": ["apple", "tomato", "potato", "lettuce", "mug", "cup", "bowl", "plate", "knife", "spoon", "fork"],
    "heat": ["apple", "potato", "tomato", "egg", "bread", "mug", "cup", "plate"],
    "cool": ["apple", "potato", "tomato", "lettuce", "bread", "egg", "mug", "cup", "plate", "bowl"],
    "look": ["book", "cd", "pen", "pencil", "keychain", "creditcard", "cellphone"],
    "pick_two": ["cd", "pen", "pencil", "keychain", "creditcard", "book", "cellphone", "mug", "apple"],
}
TARGETS = {
    "pick": ["drawer", "cabinet", "shelf", "desk", "sidetable", "countertop"],
    "clean": ["cabinet", "countertop", "shelf", "drawer", "fridge"],
    "heat": ["countertop", "cabinet", "fridge", "shelf"],
    "cool": ["countertop", "cabinet", "microwave", "shelf"],
    "look": [],
    "pick_two": ["drawer", "cabinet", "shelf", "desk", "sidetable", "countertop"],
}


def kind(name: str) -> str:
    """ "mug 2" -> "mug"."""
    return name.rsplit(" ", 1)[0]


def listing(names) -> str:
    """ALFWorld's list: "a apple 1", "a apple 1, and a mug 2", or "nothing" (always "a", always the last comma)."""
    items = [f"a {n}" for n in names]
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + ", and " + items[-1]


# ------------------------------------------------------------------------------------------------------ the world
@dataclass(frozen=True)
class Task:
    """One task: its type, the kind of object it asks for, the target receptacle, and the world at the start.

    `layout` lists every receptacle with the objects on or in it, in the order they are seen. A look task has no
    target: its goal is to hold the object where the desklamp is, with the lamp on.
    """
    type: str
    kind: str
    target: str | None
    layout: tuple[tuple[str, tuple[str, ...]], ...]
    seed: int | None = None

    @property
    def goal(self) -> str:
        if self.type == "look":
            return f"examine the {self.kind} with the desklamp."
        where = "on" if kind(self.target) in SURFACES else "in"
        if self.type == "pick_two":
            return f"put two {self.kind}s {where} {self.target}."
        return f"put a {ADJECTIVE[self.type]}{self.kind} {where} {self.target}."


def generate(task_type: str, seed: int) -> Task:
    """A random task of one type. The same type and seed always give the same world, on every machine."""
    if task_type not in TASK_TYPES:
        raise ValueError(f"unknown task type {task_type!r}; choose one of {', '.join(TASK_TYPES)}")
    rng = random.Random(f"household/{task_type}/{seed}")  # a string seed is hashed the same way everywhere
    counts = {"cabinet": rng.randint(2, 4), "countertop": rng.randint(1, 2), "desk": 1, "drawer": rng.randint(2, 3),
              "fridge": 1, "microwave": 1, "shelf": rng.randint(1, 2), "sidetable": 1, "sinkbasin": 1,
              "stoveburner": 1}
    layout = {f"{k} {i}": [] for k in sorted(counts) for i in range(1, counts[k] + 1)}
    instances = {k: [r for r in layout if kind(r) == k] for k in counts}
    numbers: dict[str, int] = {}

    def place(obj_kind: str, avoid: str | None = None) -> None:
        homes = [r for k in HOMES[obj_kind] for r in instances[k] if r != avoid]
        numbers[obj_kind] = numbers.get(obj_kind, 0) + 1
        layout[rng.choice(homes)].append(f"{obj_kind} {numbers[obj_kind]}")

    wanted = rng.choice(OBJECTS[task_type])
    target = None
    if task_type != "look":
        target = rng.choice([r for k in TARGETS[task_type] for r in instances[k]])
    layout[rng.choice(["desk 1", "sidetable 1"])].append("desklamp 1")
    for _ in range(rng.randint(2, 3) if task_type == "pick_two" else rng.randint(1, 2)):
        place(wanted, avoid=target)  # never already at the target: the task would be done before it starts
    for _ in range(rng.randint(3, 5)):
        place(rng.choice([k for k in HOMES if k != wanted]))  # distractors, never of the wanted kind
    for objs in layout.values():
        rng.shuffle(objs)
    return Task(task_type, wanted, target, tuple((r, tuple(objs)) for r, objs in layout.items()), seed)

