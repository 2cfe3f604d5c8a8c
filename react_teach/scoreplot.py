"""A score figure a learner can read honestly: bars with their 95% intervals, n in the legend, baselines as lines.

Each column is one source of numbers (the paper, a recorded run, our run). A value is a plain fraction (a number
reported without an interval, like the paper's) or a dict from `honest.rate` with its Wilson interval. Constant
answer baselines are dashed lines across the whole figure: a bar below them has learned nothing useful.

    >>> from react_teach.honest import rate
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

ORDER = ("standard", "cot", "cot-sc", "act", "react", "cotsc-react", "react-cotsc")
# the first column (the paper) is grey and the last (ours) the course's model blue; columns between get their own
COLOURS = ("#b0b0b0", "#d08c2c", "#6a3d9a", "#1f5fa8")
BASELINE_STYLES = ("--", ":", "-.", (0, (5, 1)))


def _value(v) -> tuple[float, float | None, float | None]:
    """(p, lo, hi) from a fraction or an `honest.rate` dict."""
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
            errs[0].append(100 * (p - lo) if lo is not None else 0)
            errs[1].append(100 * (hi - p) if hi is not None else 0)
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
    from .honest import wilson

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
