"""Widgets for stepping through a trajectory and editing a thought mid-way (the panels live in `panels`).

They hold no loop logic: they call the agent's loop (`react_teach.loop`) and render `Trajectory`. Colour has one
meaning everywhere: blue lines were written by the model, green lines by the environment, orange lines by you.

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

from react_teach.data import check_target, read_text, write_atomic
from react_teach.score import score
from react_teach.trajectory import Trajectory
from .trace import HUMAN_COLOUR, LEGEND, MODEL_COLOUR, _line, trace_html

__all__ = ["TraceViewer", "TraceEditor"]


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

    Any agent on the loop works: ReAct or Act on Wikipedia, or the household agent (whose edited step is a thought
    or an action, one of the two).

    "Think + act" asks the model for the next Thought and Action (it stops at the stop sequence); "Observe" runs
    the action. "Edit and resume" cuts the trajectory before the chosen step, puts your thought in, lets the model
    write the action, and runs to the end.
    """

    def __init__(self, agent, gold: str | None = None):
        self.agent, self.gold = agent, gold
        self.branches: dict[str, Trajectory] = {}
        # every button's name ends in _button: a VBox has methods of its own (observe, keys) that a button must not hide
        self.think_button = W.Button(description="Think + act", tooltip="the model writes the next Thought and Action")
        self.observe_button = W.Button(description="Observe", tooltip="the environment answers the action")
        self.end_button = W.Button(description="Run to end")
        self.step_k = W.BoundedIntText(value=1, min=1, max=1, description="edit step")
        self.thought = W.Textarea(placeholder="your thought for that step", layout=W.Layout(width="98%"))
        self.action = W.Text(placeholder="optional: your action (else the model writes it)",
                             layout=W.Layout(width="98%"))
        self.edit_button = W.Button(description="Edit and resume", button_style="warning")
        self.left, self.right = W.Dropdown(description="branch A"), W.Dropdown(description="branch B")
        self.compare_button = W.Button(description="Compare")
        self.path = W.Text(value="branches.json", description="file")
        self.save_button, self.load_button = W.Button(description="Save"), W.Button(description="Load")
        self.view, self.diff, self.status = W.HTML(), W.HTML(), W.HTML()
        self.think_button.on_click(lambda _: self._do(self.agent.think_act))
        self.observe_button.on_click(lambda _: self._do(self.agent.observe))
        self.end_button.on_click(lambda _: self._do(self.agent.run))
        self.edit_button.on_click(lambda _: self._shown(lambda: self.edit_and_resume(
            self.step_k.value, self.thought.value or None, self.action.value or None)))
        # every button's error goes to the status line, where the learner looks (not the widget log)
        self.compare_button.on_click(lambda _: self._shown(lambda: self.compare(self.left.value, self.right.value)))
        self.save_button.on_click(lambda _: self._shown(lambda: self.save(self.path.value)))
        self.load_button.on_click(lambda _: self._shown(lambda: self.load(self.path.value)))
        self.step_k.observe(lambda _: self._prefill(), names="value")
        self.render()
        super().__init__([
            W.HTML(LEGEND), W.HBox([self.think_button, self.observe_button, self.end_button]), self.view,
            self.status, W.HTML("<b>Edit a thought</b>"), self.step_k, self.thought, self.action, self.edit_button,
            W.HTML("<b>Branches</b>"), W.HBox([self.left, self.right, self.compare_button]), self.diff,
            W.HBox([self.path, self.save_button, self.load_button])])

    # -- actions
    def _do(self, fn) -> None:
        if self.agent.done:
            self.status.value = "The episode is over: edit a step to branch from it."
            return
        if not self._shown(fn):
            return
        self.render()
        if self.agent.done:
            self.keep(f"run {len(self.branches) + 1}" if self.branches else "original")

    def _shown(self, fn) -> bool:
        """Run fn; an error (a model or server error, an edit the agent refuses) is shown where the learner looks."""
        try:
            fn()
        except Exception as e:
            error = html.escape(f"{type(e).__name__}: {e}")
            self.status.value = f"<span style='color:#b00'>{error}</span>"
            return False
        return True

    def edit_and_resume(self, k: int, thought: str | None, action: str | None = None) -> Trajectory:
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
        """Write every branch to `path` (JSON), whole or not at all; a file that is not a branches file is refused."""
        if not self.branches:
            raise ValueError("no branches to save yet: run the agent to the end, or edit a step")
        data = {"question": self.agent.trajectory.question, "gold": self.gold,
                "branches": {name: t.to_json() for name, t in self.branches.items()}}
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1), ours=lambda p: _is_branches(p),
                     what="branches file")
        self.status.value = f"saved {len(self.branches)} branches to {html.escape(Path(path).name)}"

    def load(self, path: str | Path) -> None:
        """Read branches saved by `save`. Everything is read and checked first: a wrong file changes nothing."""
        branches = read_branches(path)
        self.branches = branches
        names = list(branches)
        self.left.options = self.right.options = names
        self.left.value, self.right.value = names[0], names[-1]
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


def read_branches(path: str | Path) -> dict[str, Trajectory]:
    """{name: trajectory} of a file written by `TraceEditor.save`; ValueError, naming the file, for anything else."""
    path = Path(path)
    check_target(path, what="branches file")  # a fifo would hang the kernel; a folder is not a file
    try:
        data = json.loads(read_text(path))
    except RecursionError:
        raise ValueError(f"{path.name} is not a branches file (JSON nested too deep)") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path.name} is not a branches file (not JSON: {e.msg}, line {e.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("branches"), dict) or not data["branches"]:
        raise ValueError(f"{path.name} is not a branches file (no \"branches\" object with at least one branch)")
    out = {}
    for name, t in data["branches"].items():
        try:
            out[name] = Trajectory.from_json(t)
        except Exception as e:  # any shape from_json cannot take: this file is not ours
            raise ValueError(f"{path.name}: branch {name!r} is not a trajectory ({type(e).__name__}: {e})") from None
    return out


def _is_branches(path: Path) -> bool:
    try:
        read_branches(path)
    except (ValueError, OSError):
        return False
    return True
