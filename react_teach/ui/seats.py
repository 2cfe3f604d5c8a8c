"""Two seats at the loop: you are the policy, or you are the environment.

`PolicySeat`: you read the context, type the next line (a thought ``Thought: ...`` or an action such as
``country_of[Tokyo]``) and press Send; a thought only grows the context, an action is answered by the tool.
`EnvironmentSeat`: the model writes the next action, you type the observation, and the model reads it before it
writes the next one. Both keep their logic out of the widgets, so a test drives them by setting the text box and
clicking, as a learner would:

    >>> def tool(action):
    ...     return {"country_of[Tokyo]": "Japan"}.get(action, f"Invalid action: {action}")
    >>> seat = PolicySeat("Where is Tokyo?", tool)
    >>> seat.box.value = "Thought: first the country."; seat.send.click()
    >>> seat.box.value = "country_of[Tokyo]"; seat.send.click()
    >>> print(seat.context, end="")
    Question: Where is Tokyo?
    Thought: first the country.
    Action: country_of[Tokyo]
    Observation: Japan

The other seat, with a scripted model that acts (any backend works: `llm.default()` reads what you wrote):

    >>> from react_teach.llm import ScriptLLM
    >>> env = EnvironmentSeat("Where is Tokyo?", ScriptLLM([" country_of[Tokyo]", " finish[Japan]"]))
    >>> env.pending
    'country_of[Tokyo]'
    >>> env.box.value = "Japan"; env.send.click()
    >>> env.pairs, env.done
    ([('country_of[Tokyo]', 'Japan'), ('finish[Japan]', 'Episode finished.')], True)
"""
from __future__ import annotations

import html
from typing import Callable, Sequence

import ipywidgets as W

from .trace import ENV_COLOUR, HUMAN_COLOUR, MODEL_COLOUR


def _html(context: str, mine: str) -> str:
    """The context as coloured lines: `mine` names the kind of line the learner wrote (policy or environment)."""
    rows = []
    for line in context.splitlines():
        env_line = line.startswith("Observation")
        ours = env_line == (mine == "environment") and not line.startswith("Question")
        colour = HUMAN_COLOUR if ours else (ENV_COLOUR if env_line else MODEL_COLOUR)
        if line.startswith("Question"):
            colour = "#333"
        rows.append(f"<div style='color:{colour};white-space:pre-wrap'>{html.escape(line)}</div>")
    return "<div style='font-family:monospace;font-size:12px'>" + "".join(rows) + "</div>"


class PolicySeat(W.VBox):
    """You are the policy: each Send appends your line; an action gets the tool's observation."""

    def __init__(self, question: str, tool: Callable[[str], str], max_steps: int = 8):
        self.question, self.tool, self.max_steps = question, tool, max_steps
        self.context = f"Question: {question}\n"
        self.steps, self.done = 0, False
        self.view, self.status = W.HTML(), W.HTML()
        self.box = W.Text(placeholder="Thought: ...   or an action such as country_of[Tokyo]",
                          layout=W.Layout(width="70%"))
        self.send = W.Button(description="Send", button_style="primary")
        self.send.on_click(lambda _: self._send())
        super().__init__([self.view, W.HBox([self.box, self.send]), self.status])
        self._render("Your move: read the context, then write a thought or an action.")

    def _send(self) -> None:
        line = self.box.value.strip()
        self.box.value = ""
        if self.done or not line:
            return
        if line.startswith("Thought:"):
            self.context += line + "\n"  # a thought: nothing happens in the world, the context grows by a line
        else:
            action = line.removeprefix("Action:").strip()
            self.context += f"Action: {action}\nObservation: {self.tool(action)}\n"
            self.steps += 1
            self.done = action.startswith("finish[") or self.steps >= self.max_steps
        self._render("Episode over." if self.done else "Your move.")

    def play(self, lines: Sequence[str]) -> "PolicySeat":
        """Type and send each line in turn (the notebook's scripted default)."""
        for line in lines:
            self.box.value = line
            self.send.click()
        return self

    def _render(self, status: str) -> None:
        self.view.value = _html(self.context, "policy")
        self.status.value = f"<i>{html.escape(status)}</i>"
        self.box.disabled = self.send.disabled = self.done


class EnvironmentSeat(W.VBox):
    """You are the environment: the model writes ``Action t:``, you write ``Observation t:``.

    The model continues ``prefix + context + "Action t:"`` with the stop ``"\\n"``, the bare loop's rule, so it
    reads every observation you wrote before it acts again. ``finish[...]`` ends the episode with the observation
    ``Episode finished.`` (the world's line, not yours).
    """

    def __init__(self, question: str, llm, prefix: str = "", max_steps: int = 5):
        self.llm, self.prefix, self.max_steps = llm, prefix, max_steps
        self.context = f"Question: {question}\n"
        self.pairs: list[tuple[str, str]] = []
        self.pending: str | None = None
        self.done = False
        self.view, self.status = W.HTML(), W.HTML()
        self.box = W.Text(placeholder="the observation the world would return", layout=W.Layout(width="70%"))
        self.send = W.Button(description="Send", button_style="success")
        self.send.on_click(lambda _: self._send())
        super().__init__([self.view, W.HBox([self.box, self.send]), self.status])
        self._next_action()

    @property
    def t(self) -> int:
        return len(self.pairs) + 1

    def _next_action(self) -> None:
        if len(self.pairs) >= self.max_steps:
            self.done, self.pending = True, None
        else:
            prompt = self.prefix + self.context + f"Action {self.t}:"
            self.pending = self.llm.complete(prompt, stop=["\n"], max_tokens=30)[0].text.strip()
            if self.pending.startswith("finish["):  # the episode ends: the world, not you, says so
                self._append("Episode finished.")
                self.done = True
        self._render()

    def _append(self, observation: str) -> None:
        self.context += f"Action {self.t}: {self.pending}\nObservation {self.t}: {observation}\n"
        self.pairs.append((self.pending, observation))
        self.pending = None

    def _send(self) -> None:
        observation = self.box.value.strip()
        self.box.value = ""
        if self.done or self.pending is None or not observation:
            return
        self._append(observation)
        self._next_action()

    def play(self, observations: Sequence[str]) -> "EnvironmentSeat":
        """Type and send each observation in turn (the notebook's scripted default)."""
        for obs in observations:
            self.box.value = obs
            self.send.click()
        return self

    def _render(self) -> None:
        shown = self.context + (f"Action {self.t}: {self.pending}\n" if self.pending else "")
        self.view.value = _html(shown, "environment")
        status = "Episode over." if self.done else f"Observation {self.t}: what does the world answer?"
        self.status.value = f"<i>{html.escape(status)}</i>"
        self.box.disabled = self.send.disabled = self.done
