"""A trajectory as HTML, each line coloured by its author: blue the model, green the environment, orange you.

    >>> from react_teach.trajectory import Step, Trajectory
    >>> page = trace_html(Trajectory("Q?", [Step("hm", "Search[X]", "X is 1.", author="human")], "1"), gold="1")
    >>> page.count('title="you"'), page.count('title="environment"'), "em=True" in page
    (2, 1, True)
"""
from __future__ import annotations

import html

from react_teach.score import score
from react_teach.trajectory import Trajectory

# one meaning everywhere in the course: who wrote the line
MODEL_COLOUR, ENV_COLOUR, HUMAN_COLOUR = "#1f5fa8", "#2e8b57", "#d2691e"


def _line(label: str, text: str | None, colour: str, author: str) -> str:
    if text is None:
        return ""
    return (f'<div style="color:{colour};white-space:pre-wrap;margin:1px 0" title="{author}">'
            f"<b>{html.escape(label)}</b> {html.escape(text)}</div>")


def trace_html(t: Trajectory, upto: int | None = None, gold: str | None = None) -> str:
    """A trajectory as HTML, first `upto` steps, each line coloured by its author."""
    steps = t.steps if upto is None else t.steps[:upto]
    out = [f"<div style='font-family:monospace;font-size:12px'><b>{html.escape(t.header)}</b>"]
    for i, s in enumerate(steps, 1):
        mine = s.author == "human"
        who, colour = ("you", HUMAN_COLOUR) if mine else ("model", MODEL_COLOUR)
        out.append(_line(f"Thought {i}:", s.thought, colour, who))
        out.append(_line(f"Action {i}:", s.action, colour, who))
        if s.invented is not None:
            out.append(_line(f"(invented) Observation {i}:", s.invented, "#999", "model, cut off by the harness"))
        out.append(_line(f"Observation {i}:", s.observation, ENV_COLOUR, "environment"))
    if upto is None or upto >= len(t.steps):
        answer = "(no answer)" if t.answer is None else repr(t.answer)
        verdict = ""
        if gold is not None and t.answer is not None:
            sc = score(t.answer, gold, t.task)
            verdict = " · " + ", ".join(f"{k}={v}" for k, v in sc.items()) + f" · gold {gold!r}"
        out.append(f"<div style='margin-top:4px'><b>Answer:</b> {html.escape(answer)}{html.escape(verdict)}</div>")
    out.append("</div>")
    return "".join(out)


LEGEND = (f"<span style='color:{MODEL_COLOUR}'>■ model</span> &nbsp; "
          f"<span style='color:{ENV_COLOUR}'>■ environment</span> &nbsp; "
          f"<span style='color:{HUMAN_COLOUR}'>■ you</span>")
