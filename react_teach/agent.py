"""The loops: ReAct and Act step by step, and the one-call baselines (Standard, CoT) with their ensembles.

The ReAct loop is the official one. At step i the model continues ``prompt + "Thought i:"`` and is stopped at
``"\\nObservation i:"``, so it never writes an observation of its own: the harness runs the action and writes the
real one. You can play the model yourself with the script backend:

    >>> from react_teach.llm import ScriptLLM
    >>> from react_teach.wiki import LocalWiki
    >>> wiki = LocalWiki.from_articles([{"title": "Hamlet", "sentences": ["Hamlet is a play by Shakespeare."]}])
    >>> llm = ScriptLLM([" I should search Hamlet.\\nAction 1: Search[Hamlet]\\nObservation 1: (invented)",
    ...                  " It says Shakespeare.\\nAction 2: Finish[Shakespeare]"])
    >>> agent = Agent("Who wrote Hamlet?", llm=llm, wiki=wiki, prefix="")
    >>> agent.step().observation
    'Hamlet is a play by Shakespeare..'
    >>> agent.run().answer
    'Shakespeare'
    >>> print(agent.transcript())
    Question: Who wrote Hamlet?
    Thought 1: I should search Hamlet.
    Action 1: Search[Hamlet]
    Observation 1: Hamlet is a play by Shakespeare..
    Thought 2: It says Shakespeare.
    Action 2: Finish[Shakespeare]
    Observation 2: Episode finished.
    <BLANKLINE>
"""
from __future__ import annotations

import re
import time

from . import ablate
from .llm import LLM, Completion, Usage, cut_at_stop
from .score import majority
from .trajectory import Step, Trajectory
from .wiki import WikiEnv

MAX_STEPS = {"hotpotqa": 7, "fever": 5}  # the paper's limits


class Agent:
    """ReAct (or Act) one step at a time, so that a person can pause, read, edit a thought and resume.

    `think_act()` asks the model for the next Thought and Action; `observe()` runs the action; `step()` does both.
    `edit(k, thought)` cuts the trajectory before step k, puts your thought in, lets the model write the action
    under the same rules, and carries on from there.
    """

    def __init__(self, question: str, *, llm: LLM | None = None, wiki=None, env=None, method: str = "react",
                 task: str = "hotpotqa", max_steps: int | None = None, prefix: str | None = None,
                 gold: str | None = None, use_stop: bool = True, max_tokens: int = 100):
        from . import llm as llm_mod, wiki as wiki_mod

        if method not in ("react", "act"):
            raise ValueError(f"Agent steps react or act, not {method!r}")
        self.llm = llm if llm is not None else llm_mod.default()
        self.env = env if env is not None else WikiEnv(wiki if wiki is not None else wiki_mod.LocalWiki.course(),
                                                      gold=gold)  # with a gold answer, finish reports the reward
        self.method, self.task, self.use_stop, self.max_tokens = method, task, use_stop, max_tokens
        self.max_steps = max_steps or MAX_STEPS.get(task, 7)
        self.prefix = ablate.prompt(method, task) if prefix is None else prefix
        self.trajectory = Trajectory(question, method=method, task=task)
        self.pending: Step | None = None  # thought and action written, observation not yet
        self.done = False

    # -- what the model sees
    def transcript(self) -> str:
        """The context so far: exemplars, question, every finished step."""
        return self.prefix + self.trajectory.render()

    @property
    def i(self) -> int:
        return len(self.trajectory.steps) + 1

    def _call(self, prompt: str, stop: list[str] | None, max_tokens: int | None = None) -> Completion:
        started = time.perf_counter()
        c = self.llm.complete(prompt, stop=stop, temperature=0.0, max_tokens=max_tokens or self.max_tokens)[0]
        t = self.trajectory
        t.n_calls += 1
        t.usage = t.usage + c.usage
        t.seconds += time.perf_counter() - started
        return c

    # -- one step
    def think_act(self) -> Step:
        if self.pending is not None:
            return self.pending
        i, t = self.i, self.trajectory
        cue = f"Thought {i}:" if self.method == "react" else f"Action {i}:"
        stop = [f"\nObservation {i}:"]
        text = self._call(self.transcript() + cue, stop if self.use_stop else None,
                          None if self.use_stop else 2 * self.max_tokens).text
        invented = None
        if not self.use_stop:  # teaching mode: keep what the model wrote where the environment should have
            raw = text
            text, cut = cut_at_stop(raw, stop)
            invented = raw[len(text) + len(stop[0]):].strip() if cut else None
        text = re.sub(rf"^\s*{cue}", "", text)  # chat models sometimes repeat the cue
        if self.method == "act":
            step = Step(None, text.strip().split("\n")[0].strip())
        else:
            parts = text.strip().split(f"\nAction {i}: ")
            if len(parts) == 2:
                step = Step(parts[0].strip(), parts[1].strip())
            else:
                # No action line (or more than one): count a bad call, keep the first line as the thought and
                # ask again for the action alone, exactly as the official code does.
                t.n_badcalls += 1
                t.extra.setdefault("bad_steps", []).append(i)  # format adherence, step by step
                thought = text.strip().split("\n")[0].strip()
                action = self._call(self.transcript() + f"Thought {i}: {thought}\nAction {i}:", ["\n"]).text.strip()
                step = Step(thought, action)
        step.invented = invented
        self.pending = step
        return step

    def observe(self) -> Step:
        step = self.think_act() if self.pending is None else self.pending
        action = step.action or ""
        # The official harness lower-cases only the first letter: Search[x] -> search[x]
        obs, done = self.env.step(action[:1].lower() + action[1:])
        step.observation = obs
        self.trajectory.steps.append(step)
        self.pending = None
        if done:
            self.done = True
            self.trajectory.answer = getattr(self.env, "answer", None)
        return step

    def step(self) -> Step:
        self.think_act()
        return self.observe()

    def run(self) -> Trajectory:
        """Step until finish or the step limit; without a finish the answer is empty, as in the official code."""
        while not self.done and len(self.trajectory.steps) < self.max_steps:
            self.step()
        if not self.done:
            self.done = True
            self.trajectory.answer = ""
            self.trajectory.extra["finished"] = False
        else:
            self.trajectory.extra.setdefault("finished", True)
        return self.trajectory

    # -- editing mid-trajectory (property D)
    def edit(self, k: int, thought: str | None = None, action: str | None = None) -> Step:
        """Replace step k's thought (and optionally its action) and continue from there.

        Steps after k-1 are dropped, the environment is replayed to where step k began, your text goes in as step
        k, and the model writes the action if you did not (``Action k:`` with stop ``"\\n"``), then the action runs.
        """
        if not 1 <= k <= len(self.trajectory.steps) + 1:
            raise ValueError(f"step {k} does not exist yet; the trajectory has {len(self.trajectory.steps)} steps")
        keep = self.trajectory.steps[: k - 1]
        self.env.reset()
        for s in keep:  # the tools are deterministic: replaying the actions restores the environment
            a = s.action or ""
            self.env.step(a[:1].lower() + a[1:])
        self.trajectory.steps = keep
        self.trajectory.answer, self.done, self.pending = None, False, None
        self.trajectory.extra.pop("finished", None)
        if self.method == "act":
            thought = None
        if action is None:
            cue = f"Thought {k}: {thought}\nAction {k}:" if thought is not None else f"Action {k}:"
            action = self._call(self.transcript() + cue, ["\n"]).text.strip()
        self.pending = Step(thought, action, author="human")
        return self.observe()


def _answer_from(text: str) -> str | None:
    """The answer of a CoT or Standard completion: the `Answer:` line, else "the answer is X"."""
    m = re.search(r"Answer:\s*(.+)", text)
    if m:
        return m.group(1).strip()
    m = re.search(r"answer is:?\s*(.+?)\.?\s*$", text.strip().split("\n")[0], re.IGNORECASE)
    return m.group(1).strip() if m else None


def one_call(method: str, question: str, llm: LLM, task: str, temperature: float = 0.0, n: int = 1,
              prefix: str | None = None) -> list[Trajectory]:
    """Standard and CoT: one completion per sample, the answer read off the text."""
    header = ("Claim: " if task == "fever" else "Question: ") + question + "\n"
    cue = "Thought:" if method == "cot" else "Answer:"
    prefix = ablate.prompt(method, task) if prefix is None else prefix
    started = time.perf_counter()
    stop = ["\nQuestion:", "\nClaim:"] if method == "cot" else ["\n"]
    outs = llm.complete(prefix + header + cue, stop=stop, temperature=temperature,
                        max_tokens=200 if method == "cot" else 40, n=n)
    seconds = (time.perf_counter() - started) / max(1, len(outs))
    trajs = []
    for c in outs:
        if method == "cot":
            reasoning = c.text.split("\nAnswer:")[0].strip()
            answer = _answer_from(c.text)
            steps = [Step(reasoning, f"Finish[{answer}]" if answer is not None else None)]
        else:
            answer, steps = c.text.strip(), []
        trajs.append(Trajectory(question, steps, answer if answer is not None else "", method=method, task=task,
                                n_calls=1, usage=c.usage, seconds=seconds,
                                extra={"finished": answer is not None}))
    return trajs


def cot_sc(question: str, llm: LLM, task: str = "hotpotqa", n: int = 21, temperature: float = 0.7,
           prefix: str | None = None) -> Trajectory:
    """Self-consistency: n CoT samples at temperature 0.7, the majority answer wins (compared after normalising).

    The prompt is the same for every sample, so a local model prefills it once and samples n times.
    """
    samples = one_call("cot", question, llm, task, temperature=temperature, n=n, prefix=prefix)
    answer, count = majority([s.answer for s in samples])
    winner = next((s for s in samples if s.answer == answer), samples[0])
    usage = sum((s.usage for s in samples), Usage())
    return Trajectory(question, winner.steps, answer, method="cot-sc", task=task, n_calls=1, usage=usage,
                      seconds=sum(s.seconds for s in samples),
                      extra={"finished": count > 0, "n": n, "majority": count, "samples": [s.answer for s in samples]})


def solve(method: str, question: str, **kw) -> Trajectory:
    """Run one method on one question: `react_teach.methods.solve`, kept here where the notebooks import it."""
    from .methods import solve as run_method  # methods imports this module: a top-level import would be a cycle

    return run_method(method, question, **kw)
