"""Widgets for stepping through a trajectory, editing a thought mid-way, and running ablations.

They hold no loop logic: they call `react_teach.agent` and render `Trajectory`. Colour has one meaning everywhere:
blue lines were written by the model, green lines by the environment, orange lines by you.

    >>> from react_teach.trajectory import Step, Trajectory
    >>> viewer = TraceViewer(Trajectory("Q?", [Step("hm", "Search[X]", "X is 1.")], "1"), gold="1")
    >>> viewer.next.click(); viewer.slider.value
    1
"""
from __future__ import annotations

import difflib
import html
import json
from pathlib import Path

import ipywidgets as W

from . import methods
from .plots import ENV_COLOUR, MODEL_COLOUR, table1
from .score import score
from .trajectory import Trajectory

HUMAN_COLOUR = "#d2691e"


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


class TraceViewer(W.VBox):
    """Step through any trajectory: previous / next / slider / jump to the end."""

    def __init__(self, trajectory: Trajectory, gold: str | None = None):
        self.trajectory, self.gold = trajectory, gold
        n = len(trajectory.steps)
        self.slider = W.IntSlider(value=0, min=0, max=n, description="step", continuous_update=True)
        self.prev, self.next, self.end = W.Button(description="◀ Previous"), W.Button(description="Next ▶"), \
            W.Button(description="End")
        self.view = W.HTML()
        self.prev.on_click(lambda _: setattr(self.slider, "value", max(0, self.slider.value - 1)))
        self.next.on_click(lambda _: setattr(self.slider, "value", min(n, self.slider.value + 1)))
        self.end.on_click(lambda _: setattr(self.slider, "value", n))
        self.slider.observe(lambda _: self.render(), names="value")
        self.render()
        super().__init__([W.HTML(LEGEND), W.HBox([self.prev, self.next, self.end, self.slider]), self.view])

    def render(self) -> None:
        self.view.value = trace_html(self.trajectory, self.slider.value, self.gold)


class TraceEditor(W.VBox):
    """Run an agent one step at a time, rewrite a thought, resume; every edit is kept as a named branch.

    "Think + act" asks the model for the next Thought and Action (it stops at the stop sequence); "Observe" runs
    the action. "Edit and resume" cuts the trajectory before the chosen step, puts your thought in, lets the model
    write the action, and runs to the end.
    """

    def __init__(self, agent, gold: str | None = None):
        self.agent, self.gold = agent, gold
        self.branches: dict[str, Trajectory] = {}
        self.think = W.Button(description="Think + act", tooltip="the model writes the next Thought and Action")
        self.observe = W.Button(description="Observe", tooltip="the environment answers the action")
        self.to_end = W.Button(description="Run to end")
        self.step_k = W.BoundedIntText(value=1, min=1, max=1, description="edit step")
        self.thought = W.Textarea(placeholder="your thought for that step", layout=W.Layout(width="98%"))
        self.action = W.Text(placeholder="optional: your action (else the model writes it)",
                             layout=W.Layout(width="98%"))
        self.edit = W.Button(description="Edit and resume", button_style="warning")
        self.left, self.right = W.Dropdown(description="branch A"), W.Dropdown(description="branch B")
        self.compare_button = W.Button(description="Compare")
        self.path = W.Text(value="branches.json", description="file")
        self.save_button, self.load_button = W.Button(description="Save"), W.Button(description="Load")
        self.view, self.diff, self.status = W.HTML(), W.HTML(), W.HTML()
        self.think.on_click(lambda _: self._do(self.agent.think_act))
        self.observe.on_click(lambda _: self._do(self.agent.observe))
        self.to_end.on_click(lambda _: self._do(self.agent.run))
        self.edit.on_click(lambda _: self.edit_and_resume(self.step_k.value, self.thought.value,
                                                          self.action.value or None))
        self.compare_button.on_click(lambda _: self.compare(self.left.value, self.right.value))
        self.save_button.on_click(lambda _: self.save(self.path.value))
        self.load_button.on_click(lambda _: self.load(self.path.value))
        self.step_k.observe(lambda _: self._prefill(), names="value")
        self.render()
        super().__init__([
            W.HTML(LEGEND), W.HBox([self.think, self.observe, self.to_end]), self.view, self.status,
            W.HTML("<b>Edit a thought</b>"), self.step_k, self.thought, self.action, self.edit,
            W.HTML("<b>Branches</b>"), W.HBox([self.left, self.right, self.compare_button]), self.diff,
            W.HBox([self.path, self.save_button, self.load_button])])

    # -- actions
    def _do(self, fn) -> None:
        if self.agent.done:
            self.status.value = "The episode is over: edit a step to branch from it."
            return
        try:
            fn()
        except Exception as e:  # a model or server error is shown where the learner looks, not in a log
            self.status.value = f"<span style='color:#b00'>{html.escape(type(e).__name__)}: {html.escape(str(e))}</span>"
            return
        self.render()
        if self.agent.done:
            self.keep(f"run {len(self.branches) + 1}" if self.branches else "original")

    def edit_and_resume(self, k: int, thought: str, action: str | None = None) -> Trajectory:
        if not self.branches or self._current_is_new():
            self.keep("original" if not self.branches else f"run {len(self.branches) + 1}")
        self.agent.edit(k, thought, action)
        t = self.agent.run()
        self.keep(f"edit {sum(n.startswith('edit') for n in self.branches) + 1}: step {k}")
        self.render()
        return t

    def _current_is_new(self) -> bool:
        return all(b.to_json() != self.agent.trajectory.to_json() for b in self.branches.values())

    def keep(self, name: str) -> None:
        """Keep a copy of the current trajectory as a named branch."""
        self.branches[name] = Trajectory.from_json(self.agent.trajectory.to_json())
        names = list(self.branches)
        self.left.options = self.right.options = names
        self.left.value, self.right.value = names[0], names[-1]

    def compare(self, a: str, b: str) -> str:
        """Side by side: the two transcripts (changed lines marked) and their outcomes."""
        ta, tb = self.branches[a], self.branches[b]
        table = difflib.HtmlDiff(wrapcolumn=60).make_table(ta.render().splitlines(), tb.render().splitlines(),
                                                           a, b, context=False)
        outcome = lambda t: ("no answer" if not t.answer else repr(t.answer)) + (  # noqa: E731
            f" ({', '.join(f'{k}={v}' for k, v in score(t.answer, self.gold, t.task).items())})"
            if self.gold is not None else "")
        self.diff.value = (f"<div style='font-size:11px'>{table}</div><div><b>{html.escape(a)}:</b> "
                           f"{html.escape(outcome(ta))} &nbsp; <b>{html.escape(b)}:</b> {html.escape(outcome(tb))}"
                           f"</div>")
        return self.diff.value

    def save(self, path: str | Path) -> None:
        data = {"question": self.agent.trajectory.question, "gold": self.gold,
                "branches": {name: t.to_json() for name, t in self.branches.items()}}
        Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        self.status.value = f"saved {len(self.branches)} branches to {html.escape(Path(path).name)}"

    def load(self, path: str | Path) -> None:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.branches = {}
        for name, t in data["branches"].items():
            self.branches[name] = Trajectory.from_json(t)
        self.left.options = self.right.options = list(self.branches)
        self.status.value = f"loaded {len(self.branches)} branches from {html.escape(Path(path).name)}"

    # -- display
    def _prefill(self) -> None:
        steps = self.agent.trajectory.steps
        k = self.step_k.value
        self.thought.value = steps[k - 1].thought or "" if k <= len(steps) else ""

    def render(self) -> None:
        a = self.agent
        shown = trace_html(a.trajectory, gold=self.gold if a.done else None)
        if a.pending is not None:  # thought and action written, observation not yet
            i = len(a.trajectory.steps) + 1
            shown += (_line(f"Thought {i}:", a.pending.thought, MODEL_COLOUR, "model")
                      + _line(f"Action {i}:", a.pending.action, MODEL_COLOUR, "model")
                      + "<div style='color:#999'>(waiting for the environment: press Observe)</div>")
        self.view.value = shown
        self.step_k.max = max(1, len(a.trajectory.steps) + (0 if a.done else 1))
        self.status.value = (f"{len(a.trajectory.steps)} steps · {a.trajectory.n_calls} model calls"
                             + (" · done" if a.done else ""))


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
        from . import llm as llm_mod
        from .data import load_questions
        from .runs import run
        from .score import summarize

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
    import io

    import matplotlib.pyplot as plt

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
        from . import failures as F

        self.F = F
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
        t = self.F.read_trajectory(rec) if isinstance(rec, dict) else None
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
        self.store.set(self.key(), category, self.note.value)
        self.show(self.k + 1 if self.k + 1 < len(self.rows) else self.k)

    def agreement(self) -> float:
        """Cohen's kappa between your labels and the automatic ones, over the trajectories you labelled."""
        pairs = [(r["category"], self.store.get(self.key(i))["category"]) for i, r in enumerate(self.rows)
                 if self.store.get(self.key(i))]
        return self.F.cohen_kappa([a for a, _ in pairs], [b for _, b in pairs])
