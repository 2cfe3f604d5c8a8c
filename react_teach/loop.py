"""The agent loop, once: ask the model for a step, let the environment answer it, repeat; pause, edit, resume.

Every agent in the course (ReAct and Act on Wikipedia, the household's sparse thoughts) is this loop. They
differ in what they supply: the cue the model continues after and the stop that ends its turn, how the model's
text becomes a `Step`, and the environment that answers it. A tiny agent that counts, to show the parts:

    >>> from react_teach.llm import ScriptLLM
    >>> class Counter:                        # an environment: step(action) -> (observation, done)
    ...     def reset(self): self.n = 0
    ...     def step(self, action): self.n += 1; return f"count {self.n}", self.n == 3
    >>> class Count(Loop):
    ...     def cue(self, i): return f"Action {i}:"
    ...     def parse(self, text, i): return Step(None, text.strip())
    ...     def close(self): self.trajectory.answer = str(self.env.n)
    >>> env = Counter(); env.reset()
    >>> loop = Count(ScriptLLM([" add", " add", " add"] * 2), "", Trajectory("Count to 3."), env, max_steps=5)
    >>> loop.run().answer, loop.trajectory.n_calls
    ('3', 3)
    >>> first = loop.trajectory
    >>> loop.edit(2, action="add again").author, loop.run().answer   # replayed to step 2, then the model goes on
    ('human', '3')
    >>> [s.action for s in first.steps], [s.action for s in loop.trajectory.steps]  # the first run is untouched
    (['add', 'add', 'add'], ['add', 'add again', 'add'])
"""
from __future__ import annotations

import copy
import time

from react_teach.llm import LLM, cut_at_stop, step_tokens
from react_teach.trajectory import Step, Trajectory


class Loop:
    """One episode, one step at a time: `think_act()` (the model writes step i), `observe()` (the environment
    answers it), `step()` (both), `run()` (to the end), `edit(k, thought, action)` (rewrite step k and go on).

    A subclass supplies `cue`, `parse`, `act` and `close`, and may change `stop`, `render`, `check_edit` and
    `human_step`. The loop owns the rest: the pending step, the call accounting and the replay before an edit.
    """
    outcome = "finished"  # the trajectory.extra key `close` writes and an edit clears

    def __init__(self, llm: LLM, prefix: str, trajectory: Trajectory, env, *, max_steps: int,
                 max_tokens: int | None = None):
        self.llm, self.prefix, self.trajectory, self.env = llm, prefix, trajectory, env
        # a step's room: the official 100 tokens, or what the model asks for (`llm.step_tokens`)
        self.max_steps, self.max_tokens = max_steps, max_tokens or step_tokens(llm)
        self.pending: Step | None = None  # written by the model, not yet answered by the environment
        self.done = False

    # -- what a subclass supplies
    def cue(self, i: int) -> str:
        """The text the model continues after, at step i."""
        raise NotImplementedError

    def stop(self, i: int) -> list[str] | None:
        """Where the model's turn ends: by default at the end of its line."""
        return ["\n"]

    def parse(self, text: str, i: int) -> Step:
        """The model's text as a step (it may call `self.call` again, to re-ask for a missing action)."""
        raise NotImplementedError

    def act(self, step: Step) -> tuple[str, bool]:
        """The environment's answer to a step, and whether the episode is over. Replay calls it too."""
        return self.env.step(step.action)

    def close(self) -> None:
        """Write the outcome (answer, `extra[outcome]`) once the episode is over."""
        raise NotImplementedError

    def render(self) -> str:
        return self.trajectory.render()

    def check_edit(self, thought: str | None, action: str | None) -> None:
        """Refuse an edit this agent cannot carry out, before anything changes."""

    def human_step(self, k: int, thought: str | None, action: str | None) -> Step:
        """Step k as the person wrote it."""
        return Step(thought, action, author="human")

    # -- the loop
    def transcript(self) -> str:
        """The context so far: the prefix (instruction, exemplars), then the episode."""
        return self.prefix + self.render()

    @property
    def i(self) -> int:
        return len(self.trajectory.steps) + 1

    def call(self, prompt: str, stop: list[str] | None) -> str:
        """One model call, counted: calls, tokens and seconds all land on the trajectory."""
        started = time.perf_counter()
        # with no stop the model must write past where it would have stopped: it gets twice the room
        budget = self.max_tokens if stop is not None else 2 * self.max_tokens
        c = self.llm.complete(prompt, stop=stop, temperature=0.0, max_tokens=budget)[0]
        t = self.trajectory
        t.n_calls += 1
        t.usage = t.usage + c.usage
        t.seconds += time.perf_counter() - started
        # The stop is applied here too: a server that ignores it (or a cassette recorded from one) must not get
        # an invented "Observation i:" line into the transcript. Every agent's model text passes this line.
        return cut_at_stop(c.text, stop)[0]

    def think_act(self) -> Step:
        """The model writes the next step; asking again before `observe` costs nothing."""
        if self.pending is None:
            i = self.i
            self.pending = self.parse(self.call(self.transcript() + self.cue(i), self.stop(i)), i)
        return self.pending

    def observe(self) -> Step:
        step = self.think_act()
        step.observation, over = self.act(step)
        self.trajectory.steps.append(step)
        self.pending = None
        if over:
            self.done = True
            self.close()
        return step

    def step(self) -> Step:
        self.think_act()
        return self.observe()

    def run(self) -> Trajectory:
        """Step until the episode is over or the step limit is reached."""
        while not self.done and len(self.trajectory.steps) < self.max_steps:
            self.step()
        if not self.done:
            self.done = True
            self.close()
        return self.trajectory

    def edit(self, k: int, thought: str | None = None, action: str | None = None) -> Step:
        """Rewrite step k and carry on from there, in a new trajectory (the one you had is left as it was).

        Steps from k on are dropped and the environment is replayed to where step k began: its tools are
        deterministic, so replaying the kept actions restores it exactly. Then your step goes in, by "human".
        """
        if not 1 <= k <= len(self.trajectory.steps) + 1:
            raise ValueError(f"step {k} does not exist yet; the trajectory has {len(self.trajectory.steps)} steps")
        self.check_edit(thought, action)
        branch = copy.deepcopy(self.trajectory)  # a branch: whoever holds the old trajectory keeps it unchanged
        branch.steps, branch.answer = branch.steps[: k - 1], None
        branch.extra.pop(self.outcome, None)
        self.env.reset()
        for s in branch.steps:
            self.act(s)
        self.trajectory, self.done, self.pending = branch, False, None
        self.pending = self.human_step(k, thought, action)
        return self.observe()
