"""Honest numbers: how many questions a score rests on, how far it could move, and what a constant answer gets.

A score from 40 questions is a noisy estimate. Three things make it readable:

- **n**, the number of questions scored, after leaving out the ones that overlap the exemplars (a model that has the
  question and its answer in its prompt is not being tested);
- a **95% interval**: Wilson's score interval for a proportion (exact match, accuracy), which stays inside [0, 1]
  and behaves at 0 of n, where the textbook p ± 1.96·sqrt(p(1-p)/n) collapses to a single point;
- **baselines**: the score of answering "yes" to everything, "no" to everything, or (FEVER) the most common label.

Worked example: 33 right out of 100. p = 0.33, z = 1.96, z²/n = 0.0384, so the centre is
(0.33 + 0.0192) / 1.0384 = 0.3363 and the half-width is 1.96 / 1.0384 · sqrt(0.33·0.67/100 + 0.000096) = 0.0907:

    >>> lo, hi = wilson(33, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.246, 0.427)
    >>> wilson(0, 10)[1] == 1.96**2 / (10 + 1.96**2)   # 0 of 10 right still allows up to 28%
    True
    >>> baselines(["yes", "no", "no", "Paris"], "hotpotqa")
    {'always yes': 0.25, 'always no': 0.5}
    >>> baselines(["SUPPORTS", "REFUTES", "SUPPORTS"], "fever")["majority label (SUPPORTS)"]
    0.6666666666666666
    >>> rate([{"em": True}, {"em": False}])["text"]
    '0.500 [0.095, 0.905] n=2'
"""
from __future__ import annotations

from collections import Counter
from math import comb, sqrt
from pathlib import Path

from react_teach.score import FEVER_LABELS, normalize_answer
from react_teach.data import load_questions
from .records import read_header

Z95 = 1.96

# The course sets mark with "overlaps_exemplar": true every question found inside the exemplars (hq027, hq051,
# fv022, fv029 word for word; hq028, hq029, hq078 paraphrased) and every question about an exemplar's subject
# ("overlap": "subject"; the rule is react_teach.runs.sample.about_exemplar). A record without the field does not
# overlap. The run sample never draws them; `scored` leaves them out of runs made before it.
OVERLAP_FIELD = "overlaps_exemplar"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95% for the default z)."""
    if n <= 0:
        raise ValueError("an interval needs at least one scored question (n = 0)")
    if not 0 <= k <= n:
        raise ValueError(f"k must be between 0 and n, got k={k}, n={n}")
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # clamp rounding dust: at k = 0 or k = n one end is exactly 0 or 1
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(a_only: int, b_only: int) -> float:
    """Two runs on the same questions: the exact two-sided sign test on the questions only one of them got right.
    If neither run were better, each such question would fall to either side with chance 1/2; p is how often a
    split at least this uneven would happen then. The questions both got right, or both wrong, say nothing here.

    Worked example: 22 against 6 is 28 split questions; 2 · P(X ≤ 6) for X ~ Binomial(28, 1/2) is 0.0037.

    >>> [p_text(sign_test(a, b)) for a, b in ((22, 6), (20, 18), (0, 5), (0, 0), (138, 66))]
    ['p = 0.004', 'p = 0.871', 'p = 0.062', 'p = 1.000', 'p < 0.001']
    """
    n = a_only + b_only
    tail = sum(comb(n, i) for i in range(min(a_only, b_only) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def p_text(p: float) -> str:
    """A p-value as the reports print it: three decimals, or "p < 0.001" rather than a p of zero."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def overlapping_ids(questions: list[dict]) -> set[str]:
    """Ids of the questions marked as overlapping an exemplar."""
    return {str(q["id"]) for q in questions if q.get(OVERLAP_FIELD)}


def scored(rows: list[dict], questions: list[dict] | None = None) -> list[dict]:
    """The result lines that count: every line except those whose question overlaps an exemplar.

    `questions` is the set the run was made on (default: both course sets in data/, whose ids never collide).
    """
    if questions is None:
        left_out = overlapping_ids(load_questions("hotpotqa")) | overlapping_ids(load_questions("fever"))
    else:
        left_out = overlapping_ids(questions)
    return [r for r in rows if str(r["id"]) not in left_out]


def is_right(row: dict) -> bool:
    """A result line's verdict: exact match (HotpotQA) or label accuracy (FEVER)."""
    return bool(row["correct"] if "correct" in row else row.get("em"))


def rate(rows: list[dict]) -> dict:
    """{k, n, p, lo, hi, text} for the rows as given (filter with `scored` first)."""
    n = len(rows)
    k = sum(is_right(r) for r in rows)
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "p": k / n, "lo": lo, "hi": hi, "text": f"{k / n:.3f} [{lo:.3f}, {hi:.3f}] n={n}"}


def baselines(golds: list[str], task: str = "hotpotqa") -> dict[str, float]:
    """What a constant answer scores on these gold answers.

    HotpotQA: always "yes" and always "no" (its comparison questions make these non-zero). FEVER: each label, and
    the majority label, which is the score to beat: a model that always says it is no model at all.
    """
    n = len(golds)
    if n == 0:
        raise ValueError("no gold answers: nothing to compare with")
    if task == "fever":
        counts = Counter(g.strip() for g in golds)
        out = {f"always {label}": counts[label] / n for label in FEVER_LABELS}
        top = max(FEVER_LABELS, key=lambda label: counts[label])  # ties go to the first label in FEVER's order
        out[f"majority label ({top})"] = counts[top] / n
        return out
    counts = Counter(normalize_answer(g) for g in golds)
    return {"always yes": counts["yes"] / n, "always no": counts["no"] / n}


def model_of(rows: list[dict] | str | Path) -> str:
    """The model that made a run, as the run file recorded it, never the model loaded now.

    Give the run file's path (its header line records the model under ``llm``) or its lines (a ``model`` field,
    or a ``header`` object with one); a file from before headers says so.

        >>> model_of([{"header": {"llm": "local:SmolLM2-135M-Instruct"}}, {"id": "hq001"}])
        'local:SmolLM2-135M-Instruct'
    """
    if isinstance(rows, (str, Path)):
        head = read_header(rows)
        rows = [head] if head else []
    names = set()
    for r in rows:
        head = r.get("header") if isinstance(r.get("header"), dict) else r
        # the backend's name first: a header's "model" is the file's sha256, kept for resuming, not for reading
        name = head.get("llm") or head.get("model_spec") or head.get("model")
        if name:
            names.add(str(name))
    if not names:
        return "unknown model"
    return " + ".join(sorted(names))


def score_table(runs: dict[str, list[dict]], task: str = "hotpotqa", questions: list[dict] | None = None) -> str:
    """A plain-text table: each method's score with its interval and n, then the constant-answer baselines."""
    lines = [f"{'method':28} {'score':>6}  {'95% interval':>15}  {'n':>4}"]
    golds: list[str] = []
    for method, rows in runs.items():
        rows = scored(rows, questions)
        r = rate(rows)
        lines.append(f"{method:28} {r['p']:6.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]  {r['n']:4}")
        golds = golds or [row["gold"] for row in rows]  # baselines on the first run's questions
    for name, value in baselines(golds, task).items():
        lines.append(f"{name:28} {value:6.3f}  {'(baseline)':>15}  {len(golds):4}")
    return "\n".join(lines)
