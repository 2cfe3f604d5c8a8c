"""ReAct and Act on Wikipedia, step by step, and the one-call baselines (Standard, CoT, CoT-SC).

`react()` is the paper's loop in one screen: read it first. `Agent` is the same loop made steppable (pause, read,
edit a thought, resume) and shared with Act; a test pins the two to the same trajectory. The step-wise machinery
is `react_teach.loop.Loop`; this module supplies what is particular to HotpotQA and FEVER: the cue, the stop, how
a completion becomes a Thought and an Action, and the Wikipedia environment. The hybrids that combine these are
defined with the other methods in `react_teach.methods`.

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
    Observation 2: Episode finished, reward = 0
    <BLANKLINE>
"""
from __future__ import annotations

import re
import time

from react_teach import ablate
from react_teach import llm as llm_mod
from react_teach.llm import LLM, Usage, cut_at_stop
from react_teach.loop import Loop
from react_teach.score import majority
from react_teach.trajectory import Step, Trajectory, render_step
from react_teach import wiki as wiki_mod
from react_teach.wiki import WikiEnv

MAX_STEPS = {"hotpotqa": 7, "fever": 5}  # the paper's limits


def react(question: str, llm: LLM, env, prefix: str = "", max_steps: int = 7) -> Trajectory:
    """The whole ReAct loop, as the official ``webthink`` runs it: think and act, let the environment observe.

    At step i the model continues the context after ``Thought i:`` and is stopped before ``Observation i:``, so the
    environment, not the model, writes what was seen. `env.step(action)` returns (observation, done).

        >>> from react_teach.llm import ScriptLLM
        >>> from react_teach.wiki import LocalWiki
        >>> wiki = LocalWiki.from_articles([{"title": "Hamlet", "sentences": ["Hamlet is a play by Shakespeare."]}])
        >>> llm = ScriptLLM([" Search it.\\nAction 1: Search[Hamlet]", " Shakespeare.\\nAction 2: Finish[Shakespeare]"])
        >>> t = react("Who wrote Hamlet?", llm, WikiEnv(wiki))
        >>> t.answer, [s.observation for s in t.steps][0], t.n_calls
        ('Shakespeare', 'Hamlet is a play by Shakespeare..', 2)
    """
    t, done = Trajectory(question, method="react"), False

    def call(prompt: str, stop: list[str]) -> str:
        c = llm.complete(prompt, stop=stop, temperature=0.0, max_tokens=100)[0]
        t.n_calls, t.usage = t.n_calls + 1, t.usage + c.usage
        return c.text

    for i in range(1, max_steps + 1):
        context = prefix + t.render()  # the context only grows: exemplars, question, every step so far
        text = call(context + f"Thought {i}:", [f"\nObservation {i}:"])
        parts = text.strip().split(f"\nAction {i}: ")
        if len(parts) == 2:
            thought, action = parts[0].strip(), parts[1].strip()
        else:  # no single Action line: keep the first line as the thought, ask for the action alone
            t.n_badcalls += 1
            thought = text.strip().split("\n")[0].strip()
            action = call(context + f"Thought {i}: {thought}\nAction {i}:", ["\n"]).strip()
        observation, done = env.step(action[:1].lower() + action[1:])  # Search[x] -> search[x], as the official
        t.steps.append(Step(thought, action, observation))
        if done:
            break
    t.answer = env.answer if done else ""  # no finish within the budget: no answer, as in the official code
    return t


class Agent(Loop):
    """ReAct (or Act) one step at a time, so that a person can pause, read, edit a thought and resume.

    `think_act()` asks the model for the next Thought and Action; `observe()` runs the action; `step()` does both.
    `edit(k, thought)` cuts the trajectory before step k, puts your thought in, lets the model write the action
    under the same rules, and carries on from there (`edit(k, thought, action)` gives both).
    """

    def __init__(self, question: str, *, llm: LLM | None = None, wiki=None, env=None, method: str = "react",
                 task: str = "hotpotqa", max_steps: int | None = None, prefix: str | None = None,
                 gold: str | None = None, use_stop: bool = True, max_tokens: int | None = None):
        if method not in ("react", "act"):
            raise ValueError(f"Agent steps react or act, not {method!r}")
        if env is None:  # with a gold answer, finish reports the reward
            env = WikiEnv(wiki if wiki is not None else wiki_mod.LocalWiki.course(), gold=gold)
        llm = llm if llm is not None else llm_mod.default()
        super().__init__(llm, prompt_prefix(llm, method, task) if prefix is None else prefix,
                         Trajectory(question, method=method, task=task), env,
                         max_steps=max_steps or MAX_STEPS.get(task, 7), max_tokens=max_tokens)
        self.method, self.task, self.use_stop = method, task, use_stop
        self.ended = False  # the environment ended the episode (a finish); the step limit does not count

    def cue(self, i: int) -> str:
        return f"Thought {i}:" if self.method == "react" else f"Action {i}:"

    def stop(self, i: int) -> list[str] | None:
        # the official stop: the model never writes an observation of its own. Teaching mode (use_stop=False)
        # lets it run on, to show what it would invent there.
        return [f"\nObservation {i}:"] if self.use_stop else None

    def parse(self, text: str, i: int) -> Step:
        invented = None
        if not self.use_stop:  # teaching mode: keep what the model wrote where the environment should have
            stop = f"\nObservation {i}:"
            raw = text
            text, cut = cut_at_stop(raw, [stop])
            invented = raw[len(text) + len(stop):].strip() if cut else None
        text = re.sub(rf"^\s*{self.cue(i)}", "", text)  # chat models sometimes repeat the cue
        if self.method == "act":
            step = Step(None, text.strip().split("\n")[0].strip())
        else:
            parts = text.strip().split(f"\nAction {i}: ")
            if len(parts) == 2:
                step = Step(parts[0].strip(), parts[1].strip())
            else:
                # No action line (or more than one): count a bad call, keep the first line as the thought and
                # ask again for the action alone, exactly as the official code does.
                self.trajectory.n_badcalls += 1
                self.trajectory.extra.setdefault("bad_steps", []).append(i)  # format adherence, step by step
                thought = text.strip().split("\n")[0].strip()
                step = Step(thought, self.call(self.transcript() + render_step(i, Step(thought)) + f"Action {i}:",
                                               ["\n"]).strip())
        step.invented = invented
        return step

    def act(self, step: Step) -> tuple[str, bool]:
        action = step.action or ""
        # The official harness lower-cases only the first letter: Search[x] -> search[x]
        observation, self.ended = self.env.step(action[:1].lower() + action[1:])
        return observation, self.ended

    def close(self) -> None:
        """Without a finish the answer is empty, as in the official code."""
        finished = self.ended  # any environment whose step() returns (text, over) can end the episode
        self.trajectory.answer = getattr(self.env, "answer", None) if finished else ""
        self.trajectory.extra["finished"] = finished

    def human_step(self, k: int, thought: str | None, action: str | None) -> Step:
        if self.method == "act":
            thought = None
        if action is None:  # the model writes the action under your thought, with the rules of a re-ask
            cue = render_step(k, Step(thought, author="human")) + f"Action {k}:"  # the one renderer: one line
            action = self.call(self.transcript() + cue, ["\n"]).strip()
        return Step(thought, action, author="human")


def prompt_prefix(llm: LLM, style: str, task: str, zero_shot: bool = False) -> str:
    """The few-shot exemplars, or nothing for a fine-tuned method or model (``local:ft-react``): it learned the
    format, as in the paper's section 3.3."""
    return ablate.prompt(style, task, zero_shot=zero_shot or getattr(llm, "zero_shot", False))


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
    header = Trajectory(question, task=task).render()  # the one renderer: a question is one line
    cue = "Thought:" if method == "cot" else "Answer:"
    prefix = prompt_prefix(llm, method, task) if prefix is None else prefix
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
