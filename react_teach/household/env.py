"""The household world: one line of text in, one line back, and nothing the model writes can break it.

Drawers, cabinets, the fridge and the microwave are closed until opened; a line that starts with ``think:`` is
answered ``OK.`` and changes nothing; an action that does not fit the state is ``Nothing happens.``:

    >>> env = HouseholdEnv(Task("pick", "cd", "drawer 1", (("desk 1", ("cd 1",)), ("drawer 1", ()))))
    >>> _ = env.reset()
    >>> env.step("open drawer 1"), env.step("think: the cd is on the desk")
    (('Nothing happens.', False), ('OK.', False))
    >>> [env.step(a)[0] for a in expert(env.task)][-1], env.won
    ('You put the cd 1 in/on the drawer 1.', True)
"""
from __future__ import annotations

import re

from .tasks import CLOSED, TREATMENT, Task, kind, listing

NOTHING = "Nothing happens."
OK = "OK."

PUT = re.compile(r"put (.+?) (?:in/on|in|on) (.+)")
TAKE = re.compile(r"take (.+?) from (.+)")
TREAT = re.compile(r"(clean|heat|cool) (.+?) with (.+)")


class HouseholdEnv:
    """The world of one task. `step(action)` returns ``(observation, done)``; done means the task is solved.

    Whatever the action, `step` answers with a line of text: an action it cannot carry out is ``Nothing happens.``
    """

    def __init__(self, task: Task):
        self.task = task
        self.reset()

    @property
    def intro(self) -> str:
        places = listing(r for r, _ in self.task.layout)
        return (f"You are in the middle of a room. Looking quickly around you, you see {places}.\n"
                f"Your task is to: {self.task.goal}")

    def reset(self) -> str:
        self.contents = {r: list(objs) for r, objs in self.task.layout}
        self.is_open = {r: False for r in self.contents if kind(r) in CLOSED}
        self.states = {o: set() for objs in self.contents.values() for o in objs}  # "clean", "hot", "cool"
        self.location: str | None = None
        self.holding: str | None = None
        self.lamp_on = False
        return self.intro

    # -- what the agent can see
    def visible(self, receptacle: str) -> bool:
        return self.is_open.get(receptacle, True)

    def describe(self, r: str) -> str:
        if r not in self.is_open:
            return f"On the {r}, you see {listing(self.contents[r])}."
        if not self.is_open[r]:
            return f"The {r} is closed."
        return f"The {r} is open. In it, you see {listing(self.contents[r])}."

    def here(self) -> list[str]:
        """The objects in reach: what lies in or on the receptacle the agent stands at, if it is open."""
        if self.location is None or not self.visible(self.location):
            return []
        return self.contents[self.location]

    @property
    def lamp_at(self) -> str | None:
        return next((r for r, objs in self.contents.items() if "desklamp 1" in objs), None)

    @property
    def won(self) -> bool:
        t = self.task
        if t.type == "look":
            held = self.holding is not None and kind(self.holding) == t.kind
            return held and self.lamp_on and self.location == self.lamp_at
        state = TREATMENT[t.type][2] if t.type in TREATMENT else None
        placed = [o for o in self.contents.get(t.target, [])
                  if kind(o) == t.kind and (state is None or state in self.states[o])]
        return len(placed) >= (2 if t.type == "pick_two" else 1)

    # -- acting
    def step(self, action: str) -> tuple[str, bool]:
        if not isinstance(action, str):
            return NOTHING, self.won
        a = " ".join(action.lower().split())  # case and spacing are not the model's hard part
        if a.startswith("think:"):
            return OK, self.won
        return self._act(a), self.won

    def _act(self, a: str) -> str:
        if a == "look":
            if self.location is None:
                return self.intro.split("\n")[0]
            return f"You are facing the {self.location}."
        if a == "inventory":
            return f"You are carrying: a {self.holding}." if self.holding else "You are not carrying anything."
        verb, _, rest = a.partition(" ")
        if a.startswith("go to "):
            return self._go(a[len("go to "):])
        if verb in ("open", "close"):
            return self._open_close(verb, rest)
        if verb == "use":
            return self._use(rest)
        if verb == "examine":
            return self._examine(rest)
        if m := TAKE.fullmatch(a):
            return self._take(*m.groups())
        if m := PUT.fullmatch(a):
            return self._put(*m.groups())
        if m := TREAT.fullmatch(a):
            return self._treat(*m.groups())
        return NOTHING

    def _go(self, r: str) -> str:
        if r not in self.contents or r == self.location:
            return NOTHING
        self.location = r
        return f"You arrive at {r}. {self.describe(r)}"

    def _open_close(self, verb: str, r: str) -> str:
        if r != self.location or r not in self.is_open or self.is_open[r] == (verb == "open"):
            return NOTHING
        self.is_open[r] = verb == "open"
        return f"You open the {r}. {self.describe(r)}" if verb == "open" else f"You close the {r}."

    def _take(self, obj: str, r: str) -> str:
        if r != self.location or obj not in self.here() or self.holding or obj == "desklamp 1":
            return NOTHING
        self.contents[r].remove(obj)
        self.holding = obj
        return f"You pick up the {obj} from the {r}."

    def _put(self, obj: str, r: str) -> str:
        if obj != self.holding or r != self.location or not self.visible(r):
            return NOTHING
        self.contents[r].append(obj)
        self.holding = None
        return f"You put the {obj} in/on the {r}."

    def _treat(self, verb: str, obj: str, appliance: str) -> str:
        _, needed, state = TREATMENT[verb]
        if obj != self.holding or appliance != needed or self.location != needed:
            return NOTHING
        opposite = {"hot": "cool", "cool": "hot"}.get(state)
        self.states[obj].discard(opposite)  # heating undoes cooling and the other way round
        self.states[obj].add(state)
        return f"You {verb} the {obj} using the {appliance}."

    def _use(self, obj: str) -> str:
        if obj != "desklamp 1" or obj not in self.here() or self.lamp_on:
            return NOTHING
        self.lamp_on = True
        return "You turn on the desklamp 1."

    def _examine(self, x: str) -> str:
        if x == self.location:
            return self.describe(x)
        if x == "desklamp 1" and x in self.here():
            return f"The desklamp 1 is {'on' if self.lamp_on else 'off'}."
        if x in self.states and (x == self.holding or x in self.here()):
            states = [s for s in ("clean", "hot", "cool") if s in self.states[x]]
            return f"The {x} is {' and '.join(states)}." if states else f"There's nothing special about {x}."
        return NOTHING


def expert(task: Task) -> list[str]:
    """A scripted expert that reads the hidden world and walks straight to the solution (no thoughts)."""
    env, plan = HouseholdEnv(task), []

    def do(action: str) -> None:
        plan.append(action)
        env.step(action)

    def go(r: str) -> None:
        if env.location != r:
            do(f"go to {r}")

    def open_here() -> None:
        if not env.visible(env.location):
            do(f"open {env.location}")

    for _ in range(2 if task.type == "pick_two" else 1):
        obj, source = next((o, r) for r, objs in env.contents.items() if r != task.target
                           for o in objs if kind(o) == task.kind)
        go(source)
        open_here()
        do(f"take {obj} from {source}")
        if task.type in TREATMENT:
            verb, appliance, _ = TREATMENT[task.type]
            go(appliance)
            do(f"{verb} {obj} with {appliance}")
        if task.type == "look":
            go(env.lamp_at)
            do("use desklamp 1")
        else:
            go(task.target)
            open_here()
            do(f"put {obj} in/on {task.target}")
    return plan

