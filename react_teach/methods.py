"""The methods, in one table: each name with its prompt style, whether it needs a wiki, how it runs, where it shows.

Everything that lists, checks or runs methods reads this table (the command line, the runner, the plots, the
ablation panel), so a new method is one `register` call:

    >>> names()                                      # the paper's Table 1 order
    ('standard', 'cot', 'cot-sc', 'act', 'react', 'cotsc-react', 'react-cotsc')
    >>> get("cotsc-react").base, needs_wiki("cotsc-react"), needs_wiki("cot-sc")
    ('react', True, False)
    >>> from react_teach.llm import ScriptLLM
    >>> solve("standard", "Capital of France?", llm=ScriptLLM([" Paris"])).answer
    'Paris'

A fine-tuned model learned the format from its training data, so it is prompted zero-shot (the question alone)
and runs on its own model unless the caller passes one:

    >>> register(Method("react-ft", "react", True, step_agent, order=55, zero_shot=True, model="script:"))
    >>> names()[4:6], get("react-ft").prompt()
    (('react', 'react-ft'), '')
    >>> unregister("react-ft")
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from react_teach import ablate
from react_teach import llm as llm_mod
from react_teach.agent import Agent, cot_sc, one_call, prompt_prefix
from react_teach.llm import LLM, Usage
from react_teach.score import returned_answer
from react_teach.trajectory import Trajectory
from react_teach.wiki import LocalWiki


@dataclass
class Setup:
    """What every run of a method is given: the model, the tool, the task and the limits."""
    llm: LLM
    wiki: object = None
    task: str = "hotpotqa"
    max_steps: int | None = None
    n: int = 21  # CoT-SC samples
    gold: str | None = None  # with a gold answer, finish reports the reward as the official environment does


@dataclass(frozen=True)
class Method:
    name: str
    base: str  # the prompt style its exemplars are derived in: react, act, cot or standard (see ablate)
    needs_wiki: bool  # does it call the tool? Standard and CoT never do
    runner: Callable[["Method", str, Setup], Trajectory]
    order: int = 100  # where tables, menus and plots put it: low first
    zero_shot: bool = False  # the question alone, no exemplars: for a model fine-tuned on the format
    model: str | None = None  # the model spec it runs on when the caller gives none (a fine-tuned model's)

    def prompt(self, task: str = "hotpotqa", llm: LLM | None = None) -> str:
        """The prefix before the question; empty for a fine-tuned method or model (``local:ft-react``)."""
        return prompt_prefix(llm, self.base, task, self.zero_shot)

    def run(self, question: str, setup: Setup) -> Trajectory:
        t = self.runner(self, question, setup)
        t.method = self.name
        return t


# ------------------------------------------------------------------------------------------------------ runners
def step_agent(m: Method, question: str, s: Setup) -> Trajectory:
    """ReAct or Act: the step-wise loop until Finish or the step limit."""
    return Agent(question, llm=s.llm, wiki=s.wiki, method=m.base, task=s.task, max_steps=s.max_steps,
                 gold=s.gold, prefix=m.prompt(s.task, s.llm)).run()


def single_call(m: Method, question: str, s: Setup) -> Trajectory:
    """Standard or CoT: one completion, the answer read off its text."""
    return one_call(m.base, question, s.llm, s.task, prefix=m.prompt(s.task, s.llm))[0]


def self_consistency(m: Method, question: str, s: Setup) -> Trajectory:
    """CoT-SC: n CoT samples at temperature 0.7, the majority answer wins."""
    return cot_sc(question, s.llm, s.task, n=s.n, prefix=m.prompt(s.task, s.llm))


def react_then_cotsc(m: Method, question: str, s: Setup) -> Trajectory:
    """ReAct first; CoT-SC when ReAct returns no answer within the step limit (an empty Finish[] returns none)."""
    first = get("react").run(question, s)
    backoff = not returned_answer(first.extra.get("finished"), first.answer)
    return merge(m.name, first, get("cot-sc").run(question, s) if backoff else first, backoff)


def cotsc_then_react(m: Method, question: str, s: Setup) -> Trajectory:
    """CoT-SC first; ReAct when the majority answer has fewer than n/2 votes (the model is unsure)."""
    first = get("cot-sc").run(question, s)
    backoff = first.extra["majority"] < s.n / 2
    return merge(m.name, first, get("react").run(question, s) if backoff else first, backoff)


def merge(method: str, first: Trajectory, second: Trajectory, backoff: bool) -> Trajectory:
    """A hybrid's result: the answer of whichever ran last, the cost of both."""
    final = second if backoff else first
    t = Trajectory(first.question, final.steps, final.answer, method=method, task=first.task,
                   n_calls=first.n_calls + (second.n_calls if backoff else 0),
                   n_badcalls=first.n_badcalls + (second.n_badcalls if backoff else 0),
                   usage=first.usage + (second.usage if backoff else Usage()),
                   seconds=first.seconds + (second.seconds if backoff else 0.0))
    t.extra = {**final.extra, "backoff": backoff, "first": first.to_json()}
    return t


# -------------------------------------------------------------------------------------------------- the table
REGISTRY: dict[str, Method] = {}


def register(method: Method) -> None:
    if method.base not in ablate.DERIVE:
        raise ValueError(f"{method.name}: the prompt style is one of {', '.join(ablate.DERIVE)}, not {method.base!r}")
    REGISTRY[method.name] = method


def unregister(name: str) -> None:
    REGISTRY.pop(name, None)


def get(name: str) -> Method:
    if name not in REGISTRY:
        raise ValueError(f"unknown method {name!r}; choose one of {', '.join(names())}")
    return REGISTRY[name]


def names() -> tuple[str, ...]:
    """Every registered method, in display order."""
    return tuple(sorted(REGISTRY, key=lambda n: REGISTRY[n].order))


def needs_wiki(name: str) -> bool:
    return get(name).needs_wiki


for _m in (Method("standard", "standard", False, single_call, 10), Method("cot", "cot", False, single_call, 20),
           Method("cot-sc", "cot", False, self_consistency, 30), Method("act", "act", True, step_agent, 40),
           Method("react", "react", True, step_agent, 50), Method("cotsc-react", "react", True, cotsc_then_react, 60),
           Method("react-cotsc", "react", True, react_then_cotsc, 70)):
    register(_m)


def solve(method: str, question: str, *, llm: LLM | None = None, wiki=None, task: str = "hotpotqa",
          max_steps: int | None = None, n: int = 21, gold: str | None = None) -> Trajectory:
    """Run one method on one question and return its trajectory."""
    m = get(method)
    if llm is None:
        llm = llm_mod.from_spec(m.model) if m.model else llm_mod.default()
    if wiki is None and m.needs_wiki:
        wiki = LocalWiki.course()
    return m.run(question, Setup(llm, wiki, task, max_steps, n, gold))
