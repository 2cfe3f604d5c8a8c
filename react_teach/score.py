"""Scores as the official scripts compute them: HotpotQA exact match and F1, FEVER label accuracy.

    >>> normalize_answer("The  Saimaa Gesture!")
    'saimaa gesture'
    >>> exact_match("the Saimaa gesture", "The Saimaa Gesture")
    True
    >>> f1("1,800 to 7,000 ft", "1,800 to 7,000 feet")  # 3 of 4 tokens shared each way
    0.75
    >>> f1("yes", "yes sir")  # a yes/no/noanswer on either side scores only when the two are equal
    0.0
"""
from __future__ import annotations

import string
from collections import Counter, defaultdict
from typing import Iterable

_PUNCT = set(string.punctuation)
_ARTICLES = {"a", "an", "the"}
_SPECIAL = {"yes", "no", "noanswer"}


def normalize_answer(text: str | None) -> str:
    """Lower-case, drop ASCII punctuation, drop the words a/an/the, collapse whitespace (HotpotQA's rule)."""
    text = "".join(ch for ch in (text or "").lower() if ch not in _PUNCT)
    return " ".join(w for w in text.split() if w not in _ARTICLES)


def exact_match(prediction: str | None, gold: str) -> bool:
    return normalize_answer(prediction) == normalize_answer(gold)


def f1(prediction: str | None, gold: str) -> float:
    """Token F1 between the normalised answers."""
    pred, ref = normalize_answer(prediction), normalize_answer(gold)
    if (pred in _SPECIAL or ref in _SPECIAL) and pred != ref:
        return 0.0
    same = sum((Counter(pred.split()) & Counter(ref.split())).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred.split()), same / len(ref.split())
    return 2 * precision * recall / (precision + recall)


FEVER_LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def fever_correct(prediction: str | None, gold: str) -> bool:
    """FEVER is label accuracy: the predicted label must equal the gold label exactly (after trimming)."""
    return (prediction or "").strip() == gold.strip()


def score(prediction: str | None, gold: str, task: str = "hotpotqa") -> dict:
    """The score fields of one result line: {em, f1} for HotpotQA, {correct} for FEVER."""
    if task == "fever":
        return {"correct": fever_correct(prediction, gold)}
    return {"em": exact_match(prediction, gold), "f1": round(f1(prediction, gold), 4)}


def summarize(records: Iterable[dict], by: str | None = None) -> dict:
    """Averages per method (and per `by`, e.g. "level") over result lines from `runs`.

    Returns {key: {n, em, f1 | acc, calls, badcalls, prompt_tokens, cached_tokens, completion_tokens, seconds}}.
    """
    groups: dict = defaultdict(list)
    for r in records:
        key = r.get("method", "?") if by is None else (r.get("method", "?"), r.get(by))
        groups[key].append(r)
    out = {}
    for key, rs in groups.items():
        n = len(rs)
        s = {"n": n}
        if "correct" in rs[0]:
            s["acc"] = sum(bool(r["correct"]) for r in rs) / n
        else:
            s["em"] = sum(bool(r.get("em")) for r in rs) / n
            s["f1"] = sum(float(r.get("f1", 0)) for r in rs) / n
        s["calls"] = sum(r.get("n_calls", 0) for r in rs)
        s["badcalls"] = sum(r.get("n_badcalls", 0) for r in rs)
        for k in ("prompt_tokens", "cached_tokens", "completion_tokens"):
            s[k] = sum(r.get("usage", {}).get(k, 0) for r in rs)
        s["seconds"] = round(sum(r.get("seconds", 0.0) for r in rs), 2)
        out[key] = s
    return out


def summary_line(method: str, s: dict) -> str:
    """The last line `run` prints: ``METHOD n=N em=.. f1=..`` or ``METHOD n=N acc=..``."""
    if "acc" in s:
        return f"{method} n={s['n']} acc={s['acc']:.3f}"
    return f"{method} n={s['n']} em={s['em']:.3f} f1={s['f1']:.3f}"


def majority(answers: list[str | None]) -> tuple[str, int]:
    """The most common answer after normalising (first seen wins a tie) and its vote count; empty answers abstain."""
    votes = Counter(normalize_answer(a) for a in answers if a)
    if not votes:
        return "", 0
    best, count = votes.most_common(1)[0]
    return next(a for a in answers if a and normalize_answer(a) == best), count


def returned_answer(finished, answer) -> bool:
    """Whether ReAct returned an answer, the paper's test for backing off to CoT-SC ("when ReAct fails to return an
    answer within given steps"): it finished, and with something. ``Finish[]`` ends the episode and returns nothing.

    >>> returned_answer(True, "Paris"), returned_answer(True, "  "), returned_answer(False, None)
    (True, False, False)
    """
    return bool(finished) and bool((answer or "").strip())


def samples_curves(react: list[dict], cot_sc: list[dict]) -> dict[str, list[float]]:
    """EM of CoT-SC and of both hybrids with the first k samples, k = 1..n (the paper's Figure 2).

    Computed from one ReAct run and one CoT-SC run (with its samples kept) on the same questions: the hybrids'
    rules need nothing else. ReAct -> CoT-SC uses CoT-SC when ReAct returned no answer (`returned_answer`);
    CoT-SC -> ReAct uses ReAct
    when the majority has fewer than k/2 votes.
    """
    by_id = {r["id"]: r for r in react}
    pairs = [(by_id[s["id"]], s) for s in cot_sc if s["id"] in by_id]
    n = min(len(s["samples"]) for _, s in pairs)
    curves: dict[str, list[float]] = {"cot-sc": [], "react-cotsc": [], "cotsc-react": []}
    for k in range(1, n + 1):
        em = Counter()
        for r, s in pairs:
            answer, votes = majority(s["samples"][:k])
            em["cot-sc"] += exact_match(answer, s["gold"])
            em["react-cotsc"] += exact_match(r["answer"] if returned_answer(r.get("finished"), r.get("answer")) else answer,
                                             s["gold"])
            em["cotsc-react"] += exact_match(r["answer"] if votes < k / 2 else answer, s["gold"])
        for m in curves:
            curves[m].append(em[m] / len(pairs))
    return curves
