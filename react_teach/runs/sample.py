"""The run sample: which questions the committed runs (and the notebooks' scores) rest on, defined here once.

Two rules make a score trustworthy:

- **No question about an exemplar's subject.** The prompt holds six HotpotQA (three FEVER) solved examples. A
  question that reads the same pages, or whose answer is an exemplar's subject, is partly answered by the prompt:
  "Where has Leonid Levin taught since 1980?" sits beside an exemplar that searches Leonid Levin. Such questions
  are marked ``overlaps_exemplar`` in the course sets (`about_exemplar` is the rule, a test holds the data to it)
  and never sampled.
- **A fixed random sample, stratified.** The course sets are ordered by subject, so "the first 40" is mostly the
  first three subjects. The sample is drawn at random with a fixed seed, in proportion to each stratum's size:
  HotpotQA by ``level`` (easy / hard), FEVER by ``label`` (it has no levels). Within a stratum the draw is one
  shuffle, taken from the front, so a smaller sample is always part of a larger one: CoT-SC on 20 questions and
  ReAct on 40 can be compared question by question.

The committed runs in data/runs are made on it with the bundled model, one command each (the header line records
the model, the wiki and the question file's hash):

    python -m react_teach run --method standard --sample --llm local --out data/runs/hotpotqa_standard.jsonl
    (likewise cot, act, react; cot-sc with --n 20; --task fever for fever_cot, fever_act, fever_react)

    >>> qs = sample("hotpotqa", 40)
    >>> len(qs), any(q.get("overlaps_exemplar") for q in qs)
    (40, False)
    >>> {q["id"] for q in sample("hotpotqa", 20)} <= {q["id"] for q in qs}
    True
    >>> allocate({"easy": 30, "hard": 69}, 40)   # 40 * 30 / 99 = 12.1 easy, 27.9 hard
    {'easy': 12, 'hard': 28}
"""
from __future__ import annotations

import random

from react_teach.data import load_questions

SEED = 2023  # the paper's year; any fixed number would do, changing it changes every committed run
SIZES = {"hotpotqa": 40, "fever": 24}  # the committed runs' sizes (CoT-SC, 21 calls a question, runs on 20)
STRATUM = {"hotpotqa": "level", "fever": "label"}

# The pages the exemplars read (their Search actions, as the page each lands on) and the subjects their questions
# name. A question is about an exemplar's subject when one of its supporting pages, or its answer, is in this list.
EXEMPLAR_SUBJECTS = {
    "hotpotqa": ("Colorado orogeny", "High Plains (United States)", "Milhouse Van Houten", "Allie Goertz",
                 "Matt Groening", "Adam Clayton Powell (film)", "The Saimaa Gesture", "Nicholas Ray", "Elia Kazan",
                 "Arthur's Magazine", "First for Women", "Pavel Urysohn", "Leonid Levin"),
    "fever": ("Nikolaj Coster-Waldau", "Stranger Things", "Beautiful (Christina Aguilera song)"),
}


def about_exemplar(q: dict, task: str) -> bool:
    """Whether a question reads an exemplar's page or answers with an exemplar's subject.

    >>> about_exemplar({"supporting_facts": [["Cook-Levin theorem", 0]], "answer": "Leonid Levin"}, "hotpotqa")
    True
    >>> about_exemplar({"evidence": [["Apple Remote", 1]], "label": "SUPPORTS"}, "fever")
    False
    """
    subjects = EXEMPLAR_SUBJECTS[task]
    pages = {str(p[0]) for p in (q.get("supporting_facts") or q.get("evidence") or []) if p}
    return bool(pages & set(subjects)) or str(q.get("answer", "")) in subjects


def allocate(counts: dict[str, int], n: int) -> dict[str, int]:
    """n split across strata in proportion to their sizes, rounded by largest remainder (ties: the stratum name)."""
    total = sum(counts.values())
    if not 0 < n <= total:
        raise ValueError(f"a sample of {n} from {total} questions")
    exact = {s: n * c / total for s, c in counts.items()}
    out = {s: int(x) for s, x in exact.items()}
    for s in sorted(exact, key=lambda s: (-(exact[s] - out[s]), s))[: n - sum(out.values())]:
        out[s] += 1
    return dict(sorted(out.items()))


def sample(task: str = "hotpotqa", n: int | None = None, questions: list[dict] | None = None,
           seed: int = SEED) -> list[dict]:
    """The run sample of `task`: n questions (default `SIZES[task]`) without the exemplar overlaps, drawn at random
    with `seed` in proportion to each stratum, returned in the set's own order."""
    questions = load_questions(task) if questions is None else questions
    pool = [q for q in questions if not q.get("overlaps_exemplar")]
    key = STRATUM[task]
    strata: dict[str, list[dict]] = {}
    for q in pool:
        strata.setdefault(str(q.get(key)), []).append(q)
    take = allocate({s: len(qs) for s, qs in strata.items()}, SIZES[task] if n is None else n)
    chosen = set()
    for s, qs in sorted(strata.items()):
        order = sorted(qs, key=lambda q: q["id"])
        random.Random(f"{seed}:{task}:{s}").shuffle(order)  # one shuffle per stratum: smaller samples nest
        chosen |= {q["id"] for q in order[: take[s]]}
    return [q for q in questions if q["id"] in chosen]
