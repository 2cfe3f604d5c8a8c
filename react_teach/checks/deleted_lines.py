"""Checkers for the notebook "deleted lines": two more deletions written by the learner, and the FEVER labels.
The reference is computed here from the exemplars in data/, rendered exactly as the notebook renders them."""
import re

from react_teach.exercises import call, exercise, expect
from react_teach.data import load_exemplars
from react_teach.trajectory import Trajectory

NB = "deleted_lines"


def _react_text(task: str = "hotpotqa") -> str:
    return "".join(Trajectory.from_json(e).render() for e in load_exemplars(task))


def _compare(fn, want_lines: list[str], text: str, what: str) -> None:
    out = call(fn, text)
    expect(isinstance(out, str), f"your function returned {type(out).__name__}; it must return the text")
    got = out.splitlines()
    for k, (g, w) in enumerate(zip(got, want_lines), 1):
        expect(g == w, f"line {k} is {g[:70]!r}, expected a line like {w[:70]!r} ({what})")
    expect(len(got) == len(want_lines), f"{len(got)} lines where {len(want_lines)} were expected ({what})")


@exercise(NB, 1, "reasoning only: delete Action and Observation lines")
def reasoning_only(fn):
    for task in ("hotpotqa", "fever"):
        text = _react_text(task)
        want = [line for line in text.splitlines() if not re.match(r"(Action|Observation) \d+:", line)]
        _compare(fn, want, text, f"on the {task} exemplars; keep every other line as it is")


@exercise(NB, 2, "Standard: keep the question and the answer")
def standard(fn):
    for task in ("hotpotqa", "fever"):
        want = []
        for e in load_exemplars(task):
            head = "Claim: " if task == "fever" else "Question: "
            want += [head + e["question"], f"Answer: {e['answer']}"]
        _compare(fn, want, _react_text(task), f"on the {task} exemplars: the header line, then 'Answer: ' and the "
                                              "text inside Finish[...]")


@exercise(NB, 3, "the label each FEVER exemplar finishes with")
def fever_labels(labels):
    want = [e["answer"] for e in load_exemplars("fever")]
    expect(isinstance(labels, (list, tuple)) and all(isinstance(x, str) for x in labels),
           "write a list of labels, as strings")
    expect(len(labels) == len(want), f"there are {len(want)} FEVER exemplars")
    expect(list(labels) == want, "read the Finish[...] of each exemplar, in order, spelled as in the prompt")
