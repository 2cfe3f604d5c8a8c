"""Figures that put our numbers beside the paper's: Table 1, Figure 2, the step-limit footnote, Table 2.

Every figure says in its title that the paper's bars come from PaLM-540B on HotpotQA/FEVER dev questions and
ours from another model on the course questions: the comparison is of shapes, not of levels.

    >>> fig = table1({"react": 0.1, "cot": 0.2})
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]  # the paper's order, the methods we ran
    ['cot', 'react']
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from . import methods
from .views import ENV_COLOUR, MODEL_COLOUR

# Table 1 of the paper (PaLM-540B): HotpotQA exact match and FEVER accuracy, in percent.
TABLE1 = {"standard": (28.7, 57.1), "cot": (29.4, 56.3), "cot-sc": (33.4, 60.4), "act": (25.7, 58.9),
          "react": (27.4, 60.9), "cotsc-react": (34.2, 64.6), "react-cotsc": (35.1, 62.0)}

PAPER_COLOUR = "#b0b0b0"  # the paper's bars; ours take the model's colour from the trajectory views


def table1(ours: dict[str, float], task: str = "hotpotqa", label: str = "ours") -> plt.Figure:
    """Bars of our scores (fractions) beside the paper's Table 1 for the methods we ran."""
    col = 0 if task == "hotpotqa" else 1
    shown = [m for m in methods.names() if m in ours]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    x = range(len(shown))
    paper = [TABLE1[m][col] if m in TABLE1 else float("nan") for m in shown]  # a method of ours: no paper bar
    ax.bar([i - 0.2 for i in x], paper, 0.4, color=PAPER_COLOUR, label="paper: PaLM-540B, dev questions")
    ax.bar([i + 0.2 for i in x], [100 * ours[m] for m in shown], 0.4, color=MODEL_COLOUR, label=label)
    ax.set_xticks(list(x), shown)
    ax.set_ylabel("EM (%)" if task == "hotpotqa" else "accuracy (%)")
    ax.set_title(f"{'HotpotQA' if task == 'hotpotqa' else 'FEVER'}: different model, different questions")
    ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def samples_curve(curves: dict[str, list[float]], paper_sc21: float | None = None) -> plt.Figure:
    """Accuracy against the number of CoT-SC samples (the paper's Figure 2)."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for method, ys in curves.items():
        ax.plot(range(1, len(ys) + 1), [100 * y for y in ys], marker=".", label=method)
    if paper_sc21 is not None:
        ax.axhline(100 * paper_sc21, color=PAPER_COLOUR, linestyle="--", label="CoT-SC with all samples")
    ax.set_xlabel("CoT-SC samples")
    ax.set_ylabel("EM (%)")
    ax.set_title("Accuracy against samples (cf. the paper's Figure 2)")
    ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def steps_used(rows: list[dict], limit: int = 7) -> plt.Figure:
    """How many steps correct and wrong trajectories used; the bar at the limit is the paper's footnote."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for correct, colour in ((True, ENV_COLOUR), (False, MODEL_COLOUR)):
        counts = [sum(1 for r in rows if bool(r.get("em", r.get("correct"))) == correct and len(r["steps"]) == k)
                  for k in range(1, limit + 1)]
        offset = -0.2 if correct else 0.2
        ax.bar([k + offset for k in range(1, limit + 1)], counts, 0.4, color=colour,
               label="correct" if correct else "wrong")
    ax.set_xticks(range(1, limit + 1))
    ax.set_xlabel(f"steps used (limit {limit})")
    ax.set_ylabel("trajectories")
    ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def table2(ours: dict[str, float], paper: dict[str, float], title: str,
           ci: dict[str, tuple[float, float]] | None = None) -> plt.Figure:
    """Within-group percentages of failure modes, ours beside the paper's Table 2; `ci` adds our 95% whiskers."""
    cats = list(paper)
    fig, ax = plt.subplots(figsize=(8, 3.4))
    x = range(len(cats))
    nan = float("nan")  # a type the paper did not report ("–"), or a group with no rows, draws no bar
    ax.bar([i - 0.2 for i in x], [nan if paper[c] is None else paper[c] for c in cats], 0.4, color=PAPER_COLOUR,
           label="paper")
    ours_h = [nan if ours.get(c) is None else ours[c] for c in cats]
    whiskers = None
    if ci:  # (lo, hi) in percent around each of our bars; a category without one gets no whisker
        whiskers = [[max(0.0, h - ci[c][0]) if c in ci and h == h else 0 for c, h in zip(cats, ours_h)],
                    [max(0.0, ci[c][1] - h) if c in ci and h == h else 0 for c, h in zip(cats, ours_h)]]
    ax.bar([i + 0.2 for i in x], ours_h, 0.4, color=MODEL_COLOUR, label="ours", yerr=whiskers, capsize=3)
    ax.set_xticks(list(x), [c.replace(" ", "\n", 1) for c in cats], fontsize=8)
    ax.set_ylabel("% within its group")
    ax.set_title(title)
    ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    return fig
