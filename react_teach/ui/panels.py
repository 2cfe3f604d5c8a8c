"""Panels that run many trajectories at once: the ablation panel and the failure labeller.

    >>> from react_teach.llm import ScriptLLM
    >>> panel = AblationPanel(llm=ScriptLLM([]))
    >>> panel.methods.options[:3], panel.methods.value
    (('standard', 'cot', 'cot-sc'), ('standard', 'cot', 'act', 'react'))
"""
from __future__ import annotations

import html
import io
from pathlib import Path

import ipywidgets as W
import matplotlib.pyplot as plt

from react_teach import failures as F
from react_teach import llm as llm_mod
from react_teach import methods
from react_teach.data import load_questions
from .plots import table1
from react_teach.runs import run
from react_teach.score import summarize
from .trace import LEGEND, trace_html

class AblationPanel(W.VBox):
    """Choose methods, task, number of questions and model; run with a progress bar; see the table and the plot."""

    def __init__(self, llm=None, wiki=None, out_dir: str | Path = "ablation_runs"):
        self._llm, self._wiki, self.out_dir = llm, wiki, Path(out_dir)
        self.methods = W.SelectMultiple(options=methods.names(), value=("standard", "cot", "act", "react"),
                                        description="methods")
        self.task = W.Dropdown(options=["hotpotqa", "fever"], value="hotpotqa", description="task")
        self.n = W.IntSlider(value=5, min=1, max=100, description="questions")
        self.samples = W.IntSlider(value=5, min=1, max=21, description="CoT-SC n")
        self.model = W.Text(value="", placeholder="model spec (empty: the default)", description="model")
        self.run_button = W.Button(description="Run", button_style="primary")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress")
        self.table = W.HTML()
        self.figure = W.Image(format="png")
        self.rows: dict[str, list[dict]] = {}
        self.run_button.on_click(lambda _: self.run())
        super().__init__([W.HBox([self.methods, W.VBox([self.task, self.n, self.samples, self.model])]),
                          W.HBox([self.run_button, self.progress]), self.table, self.figure])

    def run(self) -> dict[str, list[dict]]:
        model = self._llm or (llm_mod.from_spec(self.model.value) if self.model.value else llm_mod.default())
        questions = load_questions(self.task.value)[: self.n.value]
        self.progress.max, self.progress.value = len(self.methods.value), 0
        for method in self.methods.value:
            out = self.out_dir / f"{self.task.value}_{method}_{len(questions)}.jsonl"
            self.rows[method] = run(method, questions, out, llm=model, wiki=self._wiki, task=self.task.value,
                                    n_samples=self.samples.value, progress=False)
            self.progress.value += 1
        summary = {m: summarize(rs)[m] for m, rs in self.rows.items()}
        key = "acc" if self.task.value == "fever" else "em"
        cells = "".join(f"<tr><td>{m}</td><td>{s['n']}</td><td>{s[key]:.2f}</td><td>{s.get('f1', 0):.2f}</td>"
                        f"<td>{s['calls']}</td><td>{s['badcalls']}</td><td>{s['prompt_tokens']}</td>"
                        f"<td>{s['cached_tokens']}</td><td>{s['completion_tokens']}</td><td>{s['seconds']}</td></tr>"
                        for m, s in summary.items())
        self.table.value = ("<table><tr><th>method</th><th>n</th><th>" + key + "</th><th>f1</th><th>calls</th>"
                            "<th>bad</th><th>prompt</th><th>cached</th><th>completion</th><th>s</th></tr>"
                            + cells + "</table>")
        self.figure.value = png(table1({m: s[key] for m, s in summary.items()}, self.task.value))
        return self.rows


def png(fig) -> bytes:
    """A matplotlib figure as PNG bytes (an Image widget shows them the same in every front end)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


class FailureLabeller(W.VBox):
    """Label trajectories with the paper's Table 2 types, one at a time, beside the automatic suggestion.

    Labels are saved to `store` (JSONL, atomically) on every click and come back when you reopen the file, so a
    session can stop anywhere. `agreement()` is Cohen's kappa between your labels and the automatic ones.
    """

    def __init__(self, path: str | Path, store: str | Path):
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        self.records = F.read_records(text)
        self.rows = list(F.label_file(path))
        self.store = F.LabelStore(store)
        self.k = 0
        self.view, self.suggestion, self.progress = W.HTML(), W.HTML(), W.HTML()
        self.buttons = {c: W.Button(description=c, tooltip=F.DEFINITIONS[c],
                                    button_style="success" if c in F.SUCCESS else "danger")
                        for c in F.CATEGORIES}
        for c, b in self.buttons.items():
            b.on_click(lambda _, c=c: self.choose(c))
        self.note = W.Text(placeholder="a note (optional)", layout=W.Layout(width="98%"))
        self.prev, self.next = W.Button(description="◀ Previous"), W.Button(description="Next ▶")
        self.prev.on_click(lambda _: self.show(self.k - 1))
        self.next.on_click(lambda _: self.show(self.k + 1))
        self.show(0)
        super().__init__([W.HTML(LEGEND), W.HBox([self.prev, self.next, self.progress]), self.view,
                          self.suggestion, W.HBox(list(self.buttons.values())[:2]),
                          W.HBox(list(self.buttons.values())[2:]), self.note])

    def key(self, k: int | None = None) -> str:
        row = self.rows[self.k if k is None else k]
        return str(row["id"] if row.get("id") is not None else row["index"])

    def show(self, k: int) -> None:
        self.k = max(0, min(k, len(self.rows) - 1))
        row, rec = self.rows[self.k], self.records[self.k]
        t = F.read_trajectory(rec) if isinstance(rec, dict) else None
        self.view.value = trace_html(t, gold=row.get("gold")) if t else f"<i>{html.escape(str(row['evidence']))}</i>"
        evidence = "".join(f"<li>{html.escape(e)}</li>" for e in row["evidence"])
        self.suggestion.value = (f"<b>Suggested:</b> {html.escape(str(row['category']))}"
                                 f"<ul style='margin:2px'>{evidence}</ul>")
        mine = self.store.get(self.key())
        self.note.value = (mine or {}).get("note", "")
        for c, b in self.buttons.items():
            b.icon = "check" if mine and mine["category"] == c else ""
        done = sum(1 for i in range(len(self.rows)) if self.store.get(self.key(i)))
        self.progress.value = f"trajectory {self.k + 1} / {len(self.rows)} · {done} labelled"

    def choose(self, category: str) -> None:
        try:
            self.store.set(self.key(), category, self.note.value)
        except Exception as e:  # a full disk, a file replaced under us: shown where the learner looks, not lost
            self.progress.value = (f"<span style='color:#b00'>not saved: {html.escape(f'{type(e).__name__}: {e}')}"
                                   "</span>")
            return
        self.show(self.k + 1 if self.k + 1 < len(self.rows) else self.k)

    def agreement(self) -> float:
        """Cohen's kappa between your labels and the automatic ones, over the trajectories you labelled."""
        pairs = [(r["category"], self.store.get(self.key(i))["category"]) for i, r in enumerate(self.rows)
                 if self.store.get(self.key(i))]
        return F.cohen_kappa([a for a, _ in pairs], [b for _, b in pairs])
