"""A small text household in the spirit of ALFWorld, where the model decides when to think (sparse thoughts).

The package holds `tasks` (the task types and their generator) and `env` (the household environment and
the expert); here is `HouseholdAgent`, the loop with sparse thoughts.

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

from react_teach import llm as llm_mod
from react_teach.data import data_dir, read_jsonl
from .env import NOTHING, OK, HouseholdEnv, expert
from .tasks import TASK_TYPES, Task, generate, kind, listing
from react_teach.llm import LLM
from react_teach.loop import Loop
from react_teach.trajectory import Step, Trajectory, one_line

__all__ = ["NOTHING", "OK", "TASK_TYPES", "MAX_STEPS", "Task", "generate", "kind", "listing", "HouseholdEnv",
           "expert", "is_thought", "render", "play", "exemplars", "prompt", "HouseholdAgent"]
MAX_STEPS = 50  # the official ALFWorld loop's limit; a thought counts as a step, as it costs a call


# ------------------------------------------------------------------------------------------------ transcripts
def is_thought(text: str) -> bool:
    return text.strip().lower().startswith("think:")


def render(trajectory: Trajectory) -> str:
    """The ALFWorld transcript: the intro, then ``> action`` and its observation, one line each."""
    out = trajectory.question + "\n"
    for s in trajectory.steps:
        # a thought or an action is one line, whoever wrote it (an edit may hold a line break)
        out += f"> think: {one_line(s.thought)}\n" if s.action is None else f"> {one_line(s.action)}\n"
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
class HouseholdAgent(Loop):
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

    outcome = "won"

    def __init__(self, task: Task, *, llm: LLM | None = None, prefix: str | None = None, method: str = "react",
                 max_steps: int = MAX_STEPS, max_tokens: int = 100):
        if method not in ("react", "act"):
            raise ValueError(f"HouseholdAgent steps react or act, not {method!r}")
        env = HouseholdEnv(task)
        super().__init__(llm if llm is not None else llm_mod.default(), prompt(method) if prefix is None else prefix,
                         Trajectory(env.reset(), method=method, task="household",
                                    extra={"type": task.type, "seed": task.seed}),
                         env, max_steps=max_steps, max_tokens=max_tokens)
        self.task, self.method = task, method

    def render(self) -> str:
        return render(self.trajectory)

    def cue(self, i: int) -> str:
        return ">"

    def parse(self, text: str, i: int) -> Step:
        # The stop ends the line on a real server; the split keeps one line per step even where it did not.
        text = text.strip().split("\n")[0].strip()
        return Step(text[len("think:"):].strip(), None) if is_thought(text) else Step(None, text)

    def act(self, step: Step) -> tuple[str, bool]:
        return (OK, self.env.won) if step.action is None else self.env.step(step.action)

    def close(self) -> None:
        """The answer is "success" or "" (failure)."""
        self.trajectory.answer = "success" if self.env.won else ""
        self.trajectory.extra["won"] = self.env.won

    def check_edit(self, thought: str | None, action: str | None) -> None:
        if (thought is None) == (action is None):  # a household step is one line: a thought or an action
            raise ValueError("edit takes a thought or an action, one of the two")

    def human_step(self, k: int, thought: str | None, action: str | None) -> Step:
        if thought is not None:
            thought = thought.strip()
            thought = thought[len("think:"):].strip() if is_thought(thought) else thought
        return Step(thought, action, author="human")
