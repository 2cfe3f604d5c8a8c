"""Table 2 of the paper as a tool: why did a trajectory succeed, and why did it fail?

The package holds `signals` (what a trajectory did, measured), `rules` (the six categories and their
definitions), `evidence` (the quoted lines behind a label), `readers` (every trajectory format we meet) and `labels`
(human labels, kappa, the sample); here is `label`, the automatic labeller.

The authors read 50 correct and 50 wrong HotpotQA trajectories of ReAct and of CoT and sorted each into one of six
types by hand. `label` sorts a trajectory automatically, from signals anyone can check in the transcript (a repeated
action, a failed search, an answer no observation contains), and says which steps it read them from:

    >>> lost = Trajectory("Who wrote Hamlet?", [
    ...     Step("I need to search Hamlet.", "Search[Hamlet play]", "Could not find Hamlet play. Similar: []."),
    ...     Step("Let me try again.", "Search[hamlet  play]", "Could not find Hamlet play. Similar: []."),
    ...     Step("I will guess.", "Finish[Marlowe]", "Episode finished.")], answer="Marlowe")
    >>> lab = label(lost, "William Shakespeare")
    >>> lab.category
    'search result error'
    >>> print("\\n".join(lab.evidence))
    2 of 2 tool calls failed or came back empty, and no observation contains the gold answer
    step 1 Search[Hamlet play] -> "Could not find Hamlet play. Similar: []."
    step 2 Search[hamlet  play] -> "Could not find Hamlet play. Similar: []."
    also: step 2 repeats step 1: search[hamlet play]
    also: step 3 finished with "Marlowe" before any observation contained the gold "William Shakespeare"
    also: answer "Marlowe" appears in none of observations 1, 2

These are heuristics, not the paper's judgement. How often they agree with people is a number to measure (label a
`sample` yourself, keep the labels in a `LabelStore`, compare with `cohen_kappa`), never something to assume.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from react_teach.data import load_exemplars
from .evidence import evidence, notes
from .rules import (CATEGORIES, DEFINITIONS, FAILURE, FALSE_POSITIVE, HALLUCINATION, LABEL_AMBIGUITY, REASONING_ERROR,
                    RULES, SEARCH_RESULT_ERROR, SUCCESS, TRUE_POSITIVE, UNREADABLE, UNSCORED, decide)
from .signals import SENTENCE_END, failed_search, measure
from .labels import LabelStore, cohen_kappa, sample
from .readers import as_bool, as_text, guess_method, read_records, read_trajectory
from react_teach.trajectory import Step, Trajectory  # Step: for the worked example above

__all__ = ["CATEGORIES", "DEFINITIONS", "FAILURE", "FALSE_POSITIVE", "HALLUCINATION", "LABEL_AMBIGUITY",
           "REASONING_ERROR", "RULES", "SEARCH_RESULT_ERROR", "SUCCESS", "TRUE_POSITIVE", "UNREADABLE", "UNSCORED",
           "PAPER_TABLE2", "Label", "label", "label_file", "shares", "failed_search", "LabelStore", "cohen_kappa",
           "sample", "read_records", "read_trajectory"]

# The paper's Table 2 (PaLM-540B), in percent within the success group and within the failure group.
# None is the paper's "–": CoT never searches, so it cannot have a search result error.
PAPER_TABLE2 = {
    "react": {TRUE_POSITIVE: 94, FALSE_POSITIVE: 6,
              REASONING_ERROR: 47, SEARCH_RESULT_ERROR: 23, HALLUCINATION: 0, LABEL_AMBIGUITY: 29},
    "cot": {TRUE_POSITIVE: 86, FALSE_POSITIVE: 14,
            REASONING_ERROR: 16, SEARCH_RESULT_ERROR: None, HALLUCINATION: 56, LABEL_AMBIGUITY: 28},
}


@dataclass
class Label:
    category: str
    evidence: list[str] = field(default_factory=list)  # why, for a person: step numbers and the text quoted
    signals: dict = field(default_factory=dict)  # what was measured, JSON-ready


@lru_cache(maxsize=None)
def our_exemplar_thoughts() -> tuple[str, ...]:
    """The thoughts of our HotpotQA and FEVER exemplars: a run that repeats one copied rather than reasoned."""
    return tuple(s["thought"] for task in ("hotpotqa", "fever") for e in load_exemplars(task)
                 for s in e["steps"] if s.get("thought"))


def label(trajectory: Trajectory, gold: str | None, *, supporting_facts: list[str] | None = None,
          correct: bool | None = None, exemplars=None) -> Label:
    """One Table 2 type for one trajectory, with the evidence and the signals it was decided from.

    Three steps, one module each: `failure_signals.measure` (what the transcript shows), `failure_rules.decide`
    (the first of the ordered `RULES` that holds), `failure_evidence.notes` (each signal as a sentence).
    `correct` is the run's own verdict, used only when there is no gold answer; `exemplars` are the prompt's
    thoughts (by default ours), so that a thought copied from them is caught.
    """
    exemplars = our_exemplar_thoughts() if exemplars is None else exemplars
    s = measure(trajectory, gold, supporting_facts=supporting_facts, correct=correct, exemplars=exemplars)
    rule = decide(s)
    return Label(rule.category, evidence(rule.reasons, rule.note, notes(s, trajectory, gold)), s.to_json())


# ------------------------------------------------------------------------------------------------ reading files
def _row(rec, facts: dict | None, exemplars) -> dict:
    if not isinstance(rec, dict):
        return _unreadable(f"a JSON {type(rec).__name__}, not an object")
    t = read_trajectory(rec)
    if t is None:
        return _unreadable("no steps, scratchpad, traj, prompt or actions field: no trajectory to read")
    t.question = question = as_text(rec.get("question") or rec.get("claim")) or t.question
    gold = next((str(rec[k]) for k in ("gold", "gt_answer") if rec.get(k) not in (None, "")), None)
    pred = rec.get("pred", rec.get("answer"))
    t.answer = as_text(pred) if pred is not None else t.answer
    sentences = (facts or {}).get(question)
    if sentences is None and isinstance(rec.get("context"), str) and rec["context"].strip():
        sentences = SENTENCE_END.split(rec["context"].strip())  # CoT given the gold paragraphs as its context
    lab = label(t, gold, supporting_facts=sentences, correct=as_bool(rec.get("em", rec.get("correct"))),
                exemplars=exemplars)
    return {"id": rec.get("id", rec.get("_id", rec.get("question_idx"))),
            "method": as_text(rec.get("method")) or guess_method(t), "question": question, "gold": gold,
            "pred": t.answer, "correct": lab.signals["correct"], "category": lab.category,
            "evidence": lab.evidence, "signals": lab.signals}


def _unreadable(why: str) -> dict:
    return {"id": None, "method": None, "question": None, "gold": None, "pred": None, "correct": None,
            "category": UNREADABLE, "evidence": [why], "signals": {}}


def label_file(path: str | Path, *, facts: dict[str, list[str]] | None = None, exemplars=None) -> Iterator[dict]:
    """One row per record of a trajectories file: {index, id, method, question, gold, pred, correct, category,
    evidence, signals}. Never stops on odd input: a line it cannot read becomes an ``unreadable`` row saying why.

    `facts` maps a question to its supporting-fact sentences, for judging CoT (resolve HotpotQA's
    ``supporting_facts`` [title, sentence index] pairs against the question's context first). `exemplars` are
    the thoughts of the prompt the runs were made with; by default our HotpotQA and FEVER exemplars.
    """
    exemplars = our_exemplar_thoughts() if exemplars is None else exemplars
    records = read_records(Path(path).read_text(encoding="utf-8", errors="replace"))
    for index, rec in enumerate(records):
        try:
            row = _unreadable(str(rec)) if isinstance(rec, ValueError) else _row(rec, facts, exemplars)
        except Exception as e:  # one strange record must not cost the rows after it
            row = _unreadable(f"{type(e).__name__}: {e}")
        yield {"index": index, **row}


def shares(rows: list[dict]) -> dict:
    """{category: percent}: success types as a share of the successes, failure types of the failures.

    Call it once per method, as the paper's columns are. A group with no rows gives None for its types.

    >>> shares([{"category": "true positive"}, {"category": "hallucination"}, {"category": "label ambiguity"}])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'true positive': 100.0, 'false positive': 0.0, 'reasoning error': 0.0, 'search result error': 0.0,
     'hallucination': 50.0, 'label ambiguity': 50.0}
    """
    counts = Counter(r.get("category") for r in rows)
    out = {}
    for group in (SUCCESS, FAILURE):
        total = sum(counts[c] for c in group)
        out.update({c: 100 * counts[c] / total if total else None for c in group})
    return out
