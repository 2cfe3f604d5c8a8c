"""The explanation: each signal that fired, as a sentence a person can check against the transcript.

    >>> from react_teach.failures.signals import measure
    >>> miss = ("hm", "Search[X]", "Could not find X.")
    >>> t = Trajectory("Q?", [Step(*miss), Step(*miss)])
    >>> for key, lines in notes(measure(t, "Y"), t, "Y").items():
    ...     print(key, "|", lines[0])
    loop | step 2 repeats step 1: search[x]
    stop | no Finish in 2 steps: the step limit ran out
    search | 2 of 2 tool calls failed or came back empty, and no observation contains the gold answer
    support | no answer to check
"""
from __future__ import annotations

from .signals import Signals, action_key
from react_teach.trajectory import Step, Trajectory  # Step: for the worked example above


def quote(text, width: int = 80) -> str:
    text = " ".join(str(text).split())
    return '"' + (text if len(text) <= width else text[: width - 1] + "…") + '"'


def notes(s: Signals, t: Trajectory, gold: str | None) -> dict[str, list[str]]:
    """{reason: sentences}, in the order a person reads a transcript; a rule's reasons pick which come first."""
    steps, pred, out = t.steps, t.answer or "", {}
    place = "observations" if s.support == "observations" else "supporting facts"
    for j, i in s.repeated_actions:
        verb, arg = action_key(steps[i - 1].action)
        out.setdefault("loop", []).append(f"step {i} repeats step {j}: {verb}[{arg}]")
    for j, i in s.repeated_thoughts:
        out.setdefault("loop", []).append(f"thought {i} repeats thought {j}: {quote(steps[i - 1].thought)}")
    if s.step_limit:
        out["stop"] = [f"no Finish in {s.n_steps} steps: the step limit ran out"]
    elif s.no_answer:
        out["stop"] = ["no answer was given"]
    if s.failed_searches:
        tail = ", and no observation contains the gold answer" if s.gold_in_observations is False else ""
        out["search"] = [f"{len(s.failed_searches)} of {s.tool_calls} tool calls failed or came back empty{tail}"] + [
            f"step {i} {steps[i - 1].action} -> {quote(steps[i - 1].observation or '')}" for i in s.failed_searches]
    if s.premature_stop:
        out["premature"] = [f"step {s.finish_at} finished with {quote(pred)} before any observation contained "
                            f"the gold {quote(gold)}"]
    q = quote(pred)
    if s.answer_supported is None:
        out["support"] = [f"answer {q}: no text quotes a yes/no answer, so its support is not checked" if pred
                          else "no answer to check"]
    elif s.answer_supported:
        out["support"] = [f"answer {q} is in {place[:-1]} {s.supported_by}: {quote(s.texts[s.supported_by])}"]
    elif s.support == "none":
        out["unsupported"] = [f"nothing outside the model can support {q}: no observations, no supporting facts"]
    else:
        out["unsupported"] = [f"answer {q} appears in none of {place} {', '.join(map(str, s.texts))}"]
    for i, n in s.unsupported_numbers:
        out.setdefault("numbers", []).append(f"thought {i} states {n}, which neither the question nor the {place} "
                                             f"contain: {quote(steps[i - 1].thought)}")
    if s.answer_in_reasoning is not None:
        out["reasoning"] = [f"the reasoning reaches {q} before announcing it: {quote(s.reached_in)}"
                            if s.reached_in else f"the reasoning only announces {q}, never reaches it"]
    if s.label_ambiguity:
        out["ambiguity"] = [f"wrong by exact match, but {q} and the gold {quote(gold)} overlap (F1 = {s.f1:.2f})"]
    for i in s.copied_thoughts:
        out.setdefault("copied", []).append(f"thought {i} repeats an exemplar of the prompt word for word: "
                                            f"{quote(steps[i - 1].thought)}")
    if s.unseen_names:
        out["unseen"] = [f"answer {q} rests on {', '.join(map(quote, s.unseen_names))}, which no {place[:-1]} "
                         "mentions"]
    if s.correct is None:
        out["unscored"] = ["no gold answer and no recorded score: success or failure is unknown"]
    return out


def evidence(reasons: tuple[str, ...], note: str | None, found: dict[str, list[str]]) -> list[str]:
    """The deciding sentences first (and the rule's own), then every other signal after "also:"."""
    first = [n for k in reasons for n in found.get(k, [])] + ([note] if note else [])
    return first + ["also: " + n for k, ns in found.items() if k not in reasons for n in ns]
