"""Figures that put our numbers beside the paper's: Table 1, Figure 2, the step-limit footnote, Table 2.

Every figure says in its title that the paper's bars come from PaLM-540B on HotpotQA/FEVER dev questions and
ours from another model on the course questions: the comparison is of shapes, not of levels.

    >>> fig = table1({"react": 0.1, "cot": 0.2})
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]  # the paper's order, the methods we ran
    ['cot', 'react']

Score figures a learner can read honestly (`score_bars`, `samples_bands`): bars with their 95% intervals, n in the
legend, baselines as lines.

Each column is one source of numbers (the paper, a recorded run, our run). A value is a plain fraction (a number
reported without an interval, like the paper's) or a dict from `runs.stats.rate` with its Wilson interval. Constant
answer baselines are dashed lines across the whole figure: a bar below them has learned nothing useful.

    >>> from react_teach.runs.stats import rate
    >>> ours = {"react": rate([{"em": True}, {"em": False}, {"em": False}])}
    >>> fig = score_bars({"paper": {"react": 0.274, "cot": 0.294}, "ours (n=3)": ours},
    ...                  baselines={"always no": 0.1}, title="HotpotQA")
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]   # the methods of every column, in the paper's order
    ['cot', 'react']
    >>> curves = samples_bands({"cot-sc": [0.0, 0.5]}, n=4, baselines={"always no": 0.25})
    >>> curves.axes[0].get_xlabel()
    'CoT-SC samples (n=4 questions)'
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['baseline: always no', 'paper', 'ours (n=3)']
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from react_teach import methods
from react_teach.runs.stats import wilson
from .trace import ENV_COLOUR, MODEL_COLOUR

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


ORDER = ("standard", "cot", "cot-sc", "act", "react", "cotsc-react", "react-cotsc")
# the first column (the paper) is grey and the last (ours) the course's model blue; columns between get their own
COLOURS = ("#b0b0b0", "#d08c2c", "#6a3d9a", "#1f5fa8")
BASELINE_STYLES = ("--", ":", "-.", (0, (5, 1)))


def _value(v) -> tuple[float, float | None, float | None]:
    """(p, lo, hi) from a fraction or a `runs.stats.rate` dict."""
    if isinstance(v, dict):
        return v["p"], v.get("lo"), v.get("hi")
    return float(v), None, None


def score_bars(columns: dict[str, dict], *, baselines: dict[str, float] | None = None, title: str = "",
               ylabel: str = "EM (%)") -> plt.Figure:
    """Grouped bars, one group per method and one colour per column; whiskers are 95% intervals where known."""
    methods = sorted({m for col in columns.values() for m in col},
                     key=lambda m: (ORDER.index(m) if m in ORDER else len(ORDER), m))
    width = 0.8 / max(1, len(columns))
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    for j, (name, col) in enumerate(columns.items()):
        xs, ps, errs = [], [], [[], []]
        for i, m in enumerate(methods):
            if m not in col:
                continue  # a method this source did not run draws no bar (not a zero)
            p, lo, hi = _value(col[m])
            xs.append(i - 0.4 + width * (j + 0.5))
            ps.append(100 * p)
            # max(0, ...): a Wilson bound for k = 0 or k = n can miss p by a rounding error, and a whisker
            # cannot be negative
            errs[0].append(max(0.0, 100 * (p - lo)) if lo is not None else 0)
            errs[1].append(max(0.0, 100 * (hi - p)) if hi is not None else 0)
        has_ci = any(errs[0]) or any(errs[1])
        colour = COLOURS[-1] if j == len(columns) - 1 and j > 0 else COLOURS[j % (len(COLOURS) - 1)]
        ax.bar(xs, ps, width, color=colour, label=name,
               yerr=errs if has_ci else None, capsize=3 if has_ci else 0, error_kw={"elinewidth": 1})
    for k, (name, value) in enumerate((baselines or {}).items()):
        ax.axhline(100 * value, color="black", linewidth=0.8, linestyle=BASELINE_STYLES[k % len(BASELINE_STYLES)],
                   label=f"baseline: {name}")
    ax.set_xticks(range(len(methods)), methods)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def samples_bands(curves: dict[str, list[float]], *, n: int, baselines: dict[str, float] | None = None,
                  title: str = "") -> plt.Figure:
    """EM against the number of CoT-SC samples (the paper's Figure 2), each curve with its 95% Wilson band."""
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    for j, (method, ys) in enumerate(curves.items()):
        ks = range(1, len(ys) + 1)
        band = [wilson(round(y * n), n) for y in ys]  # y is a share of n questions: back to a count
        colour = COLOURS[(j + 1) % len(COLOURS)]
        ax.plot(ks, [100 * y for y in ys], marker=".", color=colour, label=method)
        ax.fill_between(ks, [100 * lo for lo, _ in band], [100 * hi for _, hi in band], color=colour, alpha=0.12)
    for k, (name, value) in enumerate((baselines or {}).items()):
        ax.axhline(100 * value, color="black", linewidth=0.8, linestyle=BASELINE_STYLES[k % len(BASELINE_STYLES)],
                   label=f"baseline: {name}")
    ax.set_xlabel(f"CoT-SC samples (n={n} questions)")
    ax.set_ylabel("EM (%)")
    ax.set_title(title, fontsize=10)
    ax.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig
