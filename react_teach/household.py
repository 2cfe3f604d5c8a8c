"""A small text household in the spirit of ALFWorld, where the model decides when to think (sparse thoughts).

The world is a set of numbered receptacles holding numbered objects. Drawers, cabinets, the fridge and the
microwave are closed until opened. Every action is one line of text and every observation is one line back:

    >>> task = Task("clean", "mug", "cabinet 1",
    ...             (("cabinet 1", ()), ("countertop 1", ("mug 1",)), ("sinkbasin 1", ())))
    >>> env = HouseholdEnv(task)
    >>> print(env.reset())
    You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, and a sinkbasin 1.
    Your task is to: put a clean mug in cabinet 1.
    >>> env.step("go to countertop 1")
    ('You arrive at countertop 1. On the countertop 1, you see a mug 1.', False)
    >>> env.step("think: now I take the mug and clean it.")
    ('OK.', False)
    >>> env.step("put mug 1 in/on cabinet 1")   # not holding it: the world says so, it never raises
    ('Nothing happens.', False)
    >>> for action in expert(task)[1:]:
    ...     print(">", action, "|", env.step(action)[0])
    > take mug 1 from countertop 1 | You pick up the mug 1 from the countertop 1.
    > go to sinkbasin 1 | You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.
    > clean mug 1 with sinkbasin 1 | You clean the mug 1 using the sinkbasin 1.
    > go to cabinet 1 | You arrive at cabinet 1. The cabinet 1 is closed.
    > open cabinet 1 | You open the cabinet 1. The cabinet 1 is open. In it, you see nothing.
    > put mug 1 in/on cabinet 1 | You put the mug 1 in/on the cabinet 1.
    >>> env.won
    True

The agent loop is the official ALFWorld one: the prompt is the exemplars and the task intro, the model continues
after ``>`` and is stopped at the end of the line, and a line that starts with ``think:`` is answered ``OK.`` and
changes nothing. No cue asks for a thought: the model decides when one is worth a step.
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass

from .llm import LLM
from .trajectory import Step, Trajectory

NOTHING = "Nothing happens."
OK = "OK."
TASK_TYPES = ("pick", "clean", "heat", "cool", "look", "pick_two")
MAX_STEPS = 50  # the official ALFWorld loop's limit; a thought counts as a step, as it costs a call

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


# ------------------------------------------------------------------------------------------------ transcripts
def is_thought(text: str) -> bool:
    return text.strip().lower().startswith("think:")


def render(trajectory: Trajectory) -> str:
    """The ALFWorld transcript: the intro, then ``> action`` and its observation, one line each."""
    out = trajectory.question + "\n"
    for s in trajectory.steps:
        out += f"> think: {s.thought}\n" if s.action is None else f"> {s.action}\n"
        if s.observation is not None:
            out += s.observation + "\n"
    return out


def play(task: Task, lines: list[str], method: str = "react") -> Trajectory:
    """Run a list of lines (actions and ``think:`` lines) through a fresh world; the observations are the world's.

    This is how the exemplars in data/exemplars/ were written: thoughts and actions by hand, observations by replay.
    """
    env = HouseholdEnv(task)
    t = Trajectory(env.reset(), method=method, task="household", extra={"type": task.type, "seed": task.seed})
    for line in lines:
        obs, _ = env.step(line)
        thought = line.strip()[len("think:"):].strip() if is_thought(line) else None
        t.steps.append(Step(thought, None if thought is not None else line, obs))
    t.answer = "success" if env.won else ""
    t.extra["won"] = env.won
    return t


def exemplars(method: str = "react") -> list[Trajectory]:
    """Our two exemplar episodes (one clean task, one heat task), as ReAct (with thoughts) or Act (without)."""
    from .data import data_dir, read_jsonl

    if method not in ("react", "act"):
        raise ValueError(f"household exemplars exist for react and act, not {method!r}")
    return [Trajectory.from_json(d) for d in read_jsonl(data_dir() / "exemplars" / f"household_{method}.jsonl")]


INSTRUCTION = ("Interact with a household to solve a task. Each line after > is one action: go to X, open X, "
               "close X, take X from Y, put X in/on Y, clean X with Y, heat X with Y, cool X with Y, use X, "
               "examine X, inventory or look.")
THINKING = " To think instead of acting, write think: and your thought; the room answers OK."


def prompt(method: str = "react") -> str:
    """The few-shot prefix: an instruction, two exemplar episodes, then the new task follows."""
    head = INSTRUCTION + (THINKING if method == "react" else "") + " Here are two examples.\n"
    return head + "".join("\n" + render(t) for t in exemplars(method)) + "\nHere is the task.\n"


# ------------------------------------------------------------------------------------------------------ the agent
class HouseholdAgent:
    """ReAct (or Act) in the household, one step at a time: think_act, observe, step, run, edit.

    Each step the model continues the transcript after ``>`` with stop ``"\\n"``; what it wrote (stripped) is
    either a ``think:`` line, answered ``OK.``, or an action for the world. The episode ends when the task is
    solved or after `max_steps` steps.

    >>> from react_teach.llm import ScriptLLM
    >>> task = Task("pick", "cd", "drawer 1", (("desk 1", ("cd 1",)), ("drawer 1", ())))
    >>> agent = HouseholdAgent(task, prefix="", llm=ScriptLLM([" think: the cd is on the desk.", " go to desk 1",
    ...     " take cd 1 from desk 1", " go to drawer 1", " open drawer 1", " put cd 1 in/on drawer 1"]))
    >>> agent.run().answer
    'success'
    >>> print(agent.transcript())
    You are in the middle of a room. Looking quickly around you, you see a desk 1, and a drawer 1.
    Your task is to: put a cd in drawer 1.
    > think: the cd is on the desk.
    OK.
    > go to desk 1
    You arrive at desk 1. On the desk 1, you see a cd 1.
    > take cd 1 from desk 1
    You pick up the cd 1 from the desk 1.
    > go to drawer 1
    You arrive at drawer 1. The drawer 1 is closed.
    > open drawer 1
    You open the drawer 1. The drawer 1 is open. In it, you see nothing.
    > put cd 1 in/on drawer 1
    You put the cd 1 in/on the drawer 1.
    <BLANKLINE>
    """

    def __init__(self, task: Task, *, llm: LLM | None = None, prefix: str | None = None, method: str = "react",
                 max_steps: int = MAX_STEPS, max_tokens: int = 100):
        from . import llm as llm_mod

        if method not in ("react", "act"):
            raise ValueError(f"HouseholdAgent steps react or act, not {method!r}")
        self.task, self.method, self.max_steps, self.max_tokens = task, method, max_steps, max_tokens
        self.llm = llm if llm is not None else llm_mod.default()
        self.prefix = prompt(method) if prefix is None else prefix
        self.env = HouseholdEnv(task)
        self.trajectory = Trajectory(self.env.reset(), method=method, task="household",
                                     extra={"type": task.type, "seed": task.seed})
        self.pending: Step | None = None  # written by the model, not yet carried out
        self.done = False

    def transcript(self) -> str:
        """The context so far: exemplars, task intro, every finished step."""
        return self.prefix + render(self.trajectory)

    def think_act(self) -> Step:
        if self.pending is not None:
            return self.pending
        started = time.perf_counter()
        c = self.llm.complete(self.transcript() + ">", stop=["\n"], temperature=0.0, max_tokens=self.max_tokens)[0]
        t = self.trajectory
        t.n_calls += 1
        t.usage = t.usage + c.usage
        t.seconds += time.perf_counter() - started
        # The stop ends the line on a real server; the split keeps one line per step even where it did not.
        text = c.text.strip().split("\n")[0].strip()
        self.pending = Step(text[len("think:"):].strip(), None) if is_thought(text) else Step(None, text)
        return self.pending

    def observe(self) -> Step:
        step = self.think_act()
        step.observation = OK if step.action is None else self.env.step(step.action)[0]
        self.trajectory.steps.append(step)
        self.pending = None
        if self.env.won:
            self.done = True
            self._close()
        return step

    def step(self) -> Step:
        self.think_act()
        return self.observe()

    def run(self) -> Trajectory:
        """Step until the task is solved or the step limit; the answer is "success" or "" (failure)."""
        while not self.done and len(self.trajectory.steps) < self.max_steps:
            self.step()
        self.done = True
        self._close()
        return self.trajectory

    def _close(self) -> None:
        self.trajectory.answer = "success" if self.env.won else ""
        self.trajectory.extra["won"] = self.env.won

    def edit(self, k: int, thought: str | None = None, *, action: str | None = None) -> Step:
        """Put your thought (or action) in as step k and carry on from there.

        Steps from k on are dropped and the world is replayed to where step k began (it is deterministic, so
        replaying the actions restores it exactly). Your step is written by "human"; `run()` then continues.
        """
        if (thought is None) == (action is None):
            raise ValueError("edit takes a thought or an action, one of the two")
        if not 1 <= k <= len(self.trajectory.steps) + 1:
            raise ValueError(f"step {k} does not exist yet; the trajectory has {len(self.trajectory.steps)} steps")
        keep = self.trajectory.steps[: k - 1]
        self.env.reset()
        for s in keep:
            if s.action is not None:
                self.env.step(s.action)
        t = self.trajectory
        t.steps, t.answer, self.done = keep, None, False
        t.extra.pop("won", None)
        if thought is not None:
            thought = thought.strip()
            thought = thought[len("think:"):].strip() if is_thought(thought) else thought
            self.pending = Step(thought, None, author="human")
        else:
            self.pending = Step(None, action, author="human")
        return self.observe()
