"""The baselines are deleted lines: Standard, CoT and Act prompts made from the same ReAct exemplars.

    >>> react = "Question: Q?\\nThought 1: I need to search X.\\nAction 1: Search[X]\\nObservation 1: X is 7.\\n" \\
    ...         "Thought 2: X is 7, so the answer is 7.\\nAction 2: Finish[7]\\n"
    >>> print(to_act(react))
    Question: Q?
    Action 1: Search[X]
    Observation 1: X is 7.
    Action 2: Finish[7]
    <BLANKLINE>
    >>> print(to_standard(react))
    Question: Q?
    Answer: 7
    <BLANKLINE>
    >>> print(to_cot(react))
    Question: Q?
    Thought: Let's think step by step. X is 7, so the answer is 7.
    Answer: 7
    <BLANKLINE>

Act and Standard are pure deletions. CoT cannot be: a CoT model sees no observations, so thoughts such as
"I need to search X" point at results it never gets, and the facts it needs lived in the Observation lines. The
paper's CoT exemplars therefore merge the reasoning into one paragraph that states the facts and ends with
"so the answer is ...". `to_cot` does the same merge mechanically: it keeps the thought sentences that state
facts, drops the ones that plan a search or a lookup, and closes with the answer.
"""
from __future__ import annotations

import re

from react_teach.data import load_exemplars
from react_teach.trajectory import Trajectory, parse

# Our words, the paper's action space.
INSTRUCTIONS = {
    "hotpotqa": (
        "Answer a question by alternating Thought, Action and Observation steps. In a Thought you reason about "
        "what you know so far and what to do next. An Action is one of three kinds:\n"
        "(1) Search[entity] looks up the exact entity in Wikipedia and returns the first sentences of its page, "
        "or a list of similar titles when no page has that name.\n"
        "(2) Lookup[keyword] returns the next sentence that contains keyword in the page you searched last.\n"
        "(3) Finish[answer] gives the answer and ends the task.\n"
        "Examples follow.\n"),
    "fever": (
        "Check a claim by alternating Thought, Action and Observation steps, and decide whether the observations "
        "SUPPORT or REFUTE it, or whether there is NOT ENOUGH INFO to tell. An Action is one of three kinds:\n"
        "(1) Search[entity] looks up the exact entity in Wikipedia and returns the first sentences of its page, "
        "or a list of similar titles when no page has that name.\n"
        "(2) Lookup[keyword] returns the next sentence that contains keyword in the page you searched last.\n"
        "(3) Finish[label] ends the task with SUPPORTS, REFUTES or NOT ENOUGH INFO.\n"
        "Examples follow.\n"),
}
# Standard and CoT see no tools, so their instruction says less.
PLAIN_INSTRUCTIONS = {
    "hotpotqa": "Answer the question. Examples follow.\n",
    "fever": "Decide whether the claim is SUPPORTS, REFUTES or NOT ENOUGH INFO. Examples follow.\n",
}

THOUGHT_LINE = re.compile(r"^Thought \d+: .*\n?", re.MULTILINE)
PLANNING = re.compile(r"\b(search|look ?up|find|need to|mention|simplifies)\b", re.IGNORECASE)


def to_act(transcript: str) -> str:
    """Act = ReAct with every ``Thought i:`` line deleted."""
    return THOUGHT_LINE.sub("", transcript)


def _examples(transcript: str) -> list[Trajectory]:
    """Split a prompt string into its exemplars (each starts at a Question: or Claim: line)."""
    blocks = re.split(r"(?m)^(?=Question: |Claim: )", transcript)
    return [parse(b) for b in blocks if b.strip()]


def to_standard(transcript: str) -> str:
    """Standard = keep only the question and the answer of each exemplar."""
    return "".join(f"{t.header}\nAnswer: {t.answer}\n" for t in _examples(transcript))


def cot_reasoning(t: Trajectory) -> str:
    """Merge a ReAct exemplar's thoughts into one CoT paragraph that ends with the answer."""
    kept: list[str] = []
    for s in t.steps:
        for sentence in re.split(r"(?<=\.) ", s.thought or ""):
            sentence = sentence.strip()
            if sentence and not PLANNING.search(sentence) and sentence not in kept:
                kept.append(sentence)
    text = " ".join(kept)
    if t.answer and "the answer is" not in text:
        text = (text + " " if text else "") + f"So the answer is {t.answer}."
    return "Let's think step by step. " + text


def to_cot(transcript: str) -> str:
    """CoT = each exemplar's thoughts merged into one reasoning paragraph, then the answer (see module doc)."""
    return "".join(f"{t.header}\nThought: {cot_reasoning(t)}\nAnswer: {t.answer}\n" for t in _examples(transcript))


DERIVE = {"act": to_act, "standard": to_standard, "cot": to_cot, "react": lambda s: s}


# ------------------------------------------------------------------------------------------------- our exemplars
def exemplar_prompt(exemplars: list[dict]) -> str:
    """Our exemplar records as ReAct prompt text: each one's transcript (the finish step has no Observation line)."""
    return "".join(Trajectory.from_json(e).render() for e in exemplars)


def prompt(style: str, task: str = "hotpotqa", exemplars: list[dict] | None = None, *,
           zero_shot: bool = False) -> str:
    """The few-shot prefix in one of the four styles (react, act, cot, standard): instruction, blank line, exemplars.

    ReAct and Act share one set of exemplars; the styles differ only by deleted lines. Which style a method
    prompts with is in `react_teach.methods`. With `zero_shot` the prefix is empty: a model fine-tuned on the
    format is prompted with its question alone, as the paper's fine-tuned models were (section 3.3).
    """
    if style not in DERIVE:
        raise ValueError(f"a prompt style is one of {', '.join(DERIVE)}, not {style!r} "
                         "(methods.get(name).prompt(task) finds a method's style)")
    if zero_shot:
        return ""
    instruction = INSTRUCTIONS[task] if style in ("react", "act") else PLAIN_INSTRUCTIONS[task]
    react = exemplar_prompt(exemplars if exemplars is not None else load_exemplars(task))
    return instruction + "\n" + DERIVE[style](react)
