"""The decision: the paper's six types, and the short ordered list of rules that picks one from the signals.

Read the rules top to bottom: the first whose test holds gives the type. Each names the signals that decided it,
so the explanation can quote them first:

    >>> from types import SimpleNamespace as S
    >>> decide(S(correct=False, label_ambiguity=True)).category
    'label ambiguity'
    >>> [r.category for r in RULES][:4]
    ['unscored', 'false positive', 'false positive', 'true positive']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

TRUE_POSITIVE = "true positive"
FALSE_POSITIVE = "false positive"
REASONING_ERROR = "reasoning error"
SEARCH_RESULT_ERROR = "search result error"
HALLUCINATION = "hallucination"
LABEL_AMBIGUITY = "label ambiguity"
SUCCESS = (TRUE_POSITIVE, FALSE_POSITIVE)
FAILURE = (REASONING_ERROR, SEARCH_RESULT_ERROR, HALLUCINATION, LABEL_AMBIGUITY)
CATEGORIES = SUCCESS + FAILURE
DEFINITIONS = {
    TRUE_POSITIVE: "success: correct reasoning trace and facts",
    FALSE_POSITIVE: "success: correct answer, but hallucinated reasoning or facts",
    REASONING_ERROR: "failure: wrong reasoning, including repeating earlier thoughts or actions in a loop",
    SEARCH_RESULT_ERROR: "failure: the searches returned nothing, or nothing useful",
    HALLUCINATION: "failure: invented reasoning or facts",
    LABEL_AMBIGUITY: "failure: the right answer, worded differently from the label",
}
UNREADABLE, UNSCORED = "unreadable", "unscored"  # rows of `label_file` that have no place in Table 2


@dataclass(frozen=True)
class Rule:
    category: str
    when: Callable  # signals -> bool
    reasons: tuple[str, ...]  # which notes of the explanation decided it, in the order a person should read them
    note: str | None = None  # a sentence this rule adds to the explanation


def _cot_alone(s) -> bool:
    """CoT with nothing to check its claims against: only its own reasoning can be judged."""
    return s.support == "none"


def _claims(s) -> bool:
    """An answer or a number that none of the checked texts contains."""
    return s.answer_supported is False or bool(s.unsupported_numbers)


def _gave_up_or_looped(s) -> bool:
    return bool(s.repeated_actions or s.repeated_thoughts or s.step_limit or s.no_answer or s.premature_stop)


RULES = (
    Rule(UNSCORED, lambda s: s.correct is None, ("unscored",)),
    # -- right answers
    Rule(FALSE_POSITIVE, lambda s: s.correct and bool(s.copied_thoughts), ("copied",)),
    Rule(FALSE_POSITIVE, lambda s: s.correct and s.unseen_names is not None and bool(s.unseen_names), ("unseen",)),
    Rule(TRUE_POSITIVE, lambda s: s.correct and _cot_alone(s) and s.answer_in_reasoning is None, ("support",)),
    Rule(TRUE_POSITIVE, lambda s: s.correct and _cot_alone(s) and s.answer_in_reasoning, ("reasoning",)),
    Rule(FALSE_POSITIVE, lambda s: s.correct and _cot_alone(s), ("reasoning",)),
    Rule(FALSE_POSITIVE, lambda s: s.correct and _claims(s), ("unsupported", "numbers")),
    Rule(TRUE_POSITIVE, lambda s: s.correct, ("support",)),
    # -- wrong answers
    Rule(LABEL_AMBIGUITY, lambda s: s.label_ambiguity, ("ambiguity",)),
    Rule(SEARCH_RESULT_ERROR, lambda s: s.acting and s.search_failure_rate > 0.5 and not s.gold_in_observations,
         ("search",)),
    Rule(REASONING_ERROR, _gave_up_or_looped, ("loop", "stop", "premature")),
    Rule(HALLUCINATION, _claims, ("unsupported", "numbers")),
    Rule(REASONING_ERROR, lambda s: True, ("support",),
         "wrong, with no loop, failed search or unsupported claim to blame"),
)


def decide(signals) -> Rule:
    """The first rule whose test holds."""
    return next(r for r in RULES if r.when(signals))
