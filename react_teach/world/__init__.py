"""A world no model has read: a generated encyclopedia, its questions and claims, and oracle trajectories.

The package holds `names` (syllable names nobody has), `entities` (the people, towns, works and organisations),
`articles` (their pages), `questions` (questions and claims with their plans) and `oracle` (correct trajectories
through the real `WikiEnv`); data version 2 adds `varied` (its questions), `wordings` (many wordings of each, some
held out) and `phrasings` (article sentences likewise). Here are `generate`, `build` and the seed sets.

On real subjects a model may answer from memory, so CoT and ReAct differ by recall as well as by retrieval. In a
world generated from a seed (the idea of PhantomWiki, Gong et al. 2025) nobody has read the facts: CoT can only
guess, and ReAct can look them up. The articles use the course corpus format and are served by the same
`LocalWiki` and stepped by the same `WikiEnv`.

    >>> w = generate(3, 40)
    >>> len(w.questions), generate(3, 40).articles == w.articles
    (40, True)
    >>> a = w.articles[0]
    >>> sorted(a)[:2], a["sentences"][0].startswith(a["title"].split(" (")[0])
    (['sentences', 'title'], True)

People (name, birth year and town, occupation, spouse, parent), towns (country, founding year, river), works
(novels, films, albums: year, creator, publisher, studio or label, setting) and organisations (founding year, seat,
founder). Key facts sit in the first five sentences, except one fact of some entities, which sits further down
(the oracle then needs ``lookup``). Some works share a name, so ``Name (novel)``, ``Name (film)`` and a ``Name``
disambiguation page exist. Some people have a middle name that questions leave out.

    >>> t = oracle(w, w.questions[0], wiki(w))  # every observation from WikiEnv, the last action Finish[gold]
    >>> t.answer == w.questions[0]["answer"], t.steps[-1].action == f"Finish[{t.answer}]"
    (True, True)

Disjoint seed sets: `TRAIN_SEEDS` (24 x 200 questions; data version 1 reads the first 12), the only worlds any
adapter trains on; `DEV_SEEDS` (4 x 200)
for every choice (data, steps, rank, checkpoint); `TEST_SEEDS` (6 x 200) for the reported figures, never a choice.
`HELDOUT_SEED` is the dev world the notebooks show. `check_trainable` refuses dev and test seeds. Names avoid every
word of the course corpus, so editing data/corpus/ may respell a world; the tests pin neither.

Data versions: ``version=1`` (the default) is the generator the shipped adapters were trained on, unchanged.
``version=2`` asks in many wordings and writes articles in many phrasings; ``wording="heldout"`` renders the same
world, questions and gold in wordings no training world uses:

    >>> v2 = generate(3, 40, version=2, wording="heldout")
    >>> [q["answer"] for q in v2.questions] == [q["answer"] for q in generate(3, 40, version=2).questions]
    True
"""
from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

from react_teach.ablate import DERIVE
from react_teach.data import write_atomic
from react_teach.wiki import LocalWiki

from .articles import article, disambiguation_pages
from .entities import OCCUPATIONS, World, banned_words, make_entities
from .names import Namer
from .oracle import trajectory
from .phrasings import rephrase
from .questions import make_claims, make_questions
from .varied import KIND_CYCLE, make_questions as make_varied_questions
from .wordings import SPLITS

__all__ = ["DEV_SEEDS", "HELDOUT_SEED", "MAX_SIZE", "NEVER_TRAIN", "OCCUPATIONS", "SIZE", "TEST_SEEDS",
           "TRAIN_SEEDS", "V1_TRAIN_WORLDS", "VERSIONS", "World", "build", "check_seed", "check_trainable", "floor", "generate",
           "guess", "oracle", "parse_seed", "parse_spec", "question", "spec", "wiki"]

MAX_SIZE = 5000  # questions per world; the names and the build time grow with it
SIZE = 200  # the size of a world named by its seed alone (`world:SEED`)
TRAIN_SEEDS = tuple(range(1, 25))  # 24 worlds of SIZE questions: 4,800 training questions (version 1 used 12)
V1_TRAIN_WORLDS = 12  # the shipped adapters' data read TRAIN_SEEDS[:12]: their provenance hashes it
DEV_SEEDS = (1000, 1001, 1002, 1003)  # choices are made here (world 1000 was the old single held-out world)
TEST_SEEDS = (4101, 4102, 4103, 4104, 4105, 4106)  # 1,200 questions, scored for the figures, never for a choice
HELDOUT_SEED = DEV_SEEDS[0]  # the never-trained world the notebooks show: a dev world, not the test
NEVER_TRAIN = frozenset(DEV_SEEDS + TEST_SEEDS)
VERSIONS = (1, 2)
SHAPES = tuple(sorted(set(KIND_CYCLE)))  # the question shapes of data version 2 (`q["shape"]`)


def check_seed(seed, size) -> tuple[int, int]:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"size must be a whole number from 1 to {MAX_SIZE}, not {size!r}")
    return seed, size


def check_trainable(seeds, wording: str = "trained") -> None:
    """Refuse a dev or test seed, and any wording but the trained one: they never reach training data."""
    for s in seeds:
        if s in NEVER_TRAIN:
            raise ValueError(f"seed {s} is a {'dev' if s in DEV_SEEDS else 'test'} world: never train on it")
    if wording != "trained":
        raise ValueError(f"the {wording!r} wordings are held out for evaluation: never train on them")


def generate(seed: int, size: int, version: int = 1, wording: str = "trained") -> World:
    """The world of `seed` with `size` questions (and about as many articles); one seed gives the same bytes.

    `version` 2 keeps the entities of version 1 and rewrites articles and questions in the `wording` split.
    """
    seed, size = check_seed(seed, size)
    if version not in VERSIONS or wording not in SPLITS or (version == 1 and wording != "trained"):
        raise ValueError(f"no world of version {version!r} in wording {wording!r}: version 1 has one wording, "
                         f"version 2 has {' and '.join(SPLITS)}")
    rng = random.Random(f"react_teach world {seed} {size}")
    w = World(seed, size, version, wording)
    make_entities(w, rng, Namer(rng, banned_words()))
    w.articles = [article(e, rng) for e in w.entities.values()]
    if version == 2:  # the same sentences in other phrasings, from a stream of their own: facts stay where they are
        w.articles = [rephrase(e, a, wording, random.Random(f"phrasing {seed} {e['title']} {wording}"))
                      for e, a in zip(w.entities.values(), w.articles)]
    w.articles += disambiguation_pages(w.entities)
    if version == 2:
        make_varied_questions(w, random.Random(f"questions v2 {seed} {size}"), wording)
    else:
        make_questions(w, random.Random(f"questions {seed} {size}"))
    make_claims(w, random.Random(f"claims {seed} {size}"))
    return w


def spec(seed: int, size: int = SIZE, version: int = 1, wording: str = "trained") -> str:
    """The ``world:`` wiki spec that opens this world; `parse_spec` reads it back.

    >>> spec(1000, 200, 2, "heldout"), parse_spec(spec(1000, 200, 2, "heldout")[len("world:"):])
    ('world:1000:200:v2:heldout', (1000, 200, 2, 'heldout'))
    """
    return f"world:{seed}:{size}" + (f":v{version}" if version != 1 else "") + (
        f":{wording}" if wording != "trained" else "")


def parse_spec(rest: str) -> tuple[int, int, int, str]:
    """Seed, size, version and wording from the part of a ``world:`` spec after the colon: ``SEED[:SIZE][:v2]
    [:heldout]``. Without them, the size is `SIZE`, the version 1 and the wording the trained one.

    >>> parse_spec("1000"), parse_spec("1000:50:v2:heldout")
    ((1000, 200, 1, 'trained'), (1000, 50, 2, 'heldout'))
    >>> parse_spec("7:v3")
    Traceback (most recent call last):
    ...
    ValueError: world spec 'world:7:v3': after SEED[:SIZE] come v1 or v2 and trained or heldout, not 'v3'
    """
    parts = str(rest).split(":")
    seed = parse_seed(parts.pop(0))
    size = parse_seed(parts.pop(0), "size") if parts and parts[0].isdigit() else SIZE
    version, wording = 1, "trained"
    for part in parts:
        if part in ("v1", "v2"):
            version = int(part[1])
        elif part in SPLITS:
            wording = part
        else:
            raise ValueError(f"world spec 'world:{rest}': after SEED[:SIZE] come v1 or v2 and "
                             f"{' or '.join(SPLITS)}, not {part[:40]!r}")
    return seed, size, version, wording


def parse_seed(text: str, what: str = "seed") -> int:
    """A seed (or, with `what`, a size) given on the command line or in a wiki spec: a whole number >= 0, in ASCII
    digits and short enough to be one (Python refuses to read an integer of more than 4300 digits).

    >>> parse_seed("-3", "--size")
    Traceback (most recent call last):
    ...
    ValueError: --size must be a whole number, not '-3'
    """
    text = str(text)
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise ValueError(f"{what} must be a whole number{' >= 0' if what.endswith('seed') else ''}, "
                         f"not {text[:40]!r}")
    return int(text)


def build(seed: int, size: int, out, version: int = 1, wording: str = "trained") -> dict:
    """Write a world to the new folder `out`: corpus, questions, claims and oracle trajectories with their Act,
    CoT and Standard versions (lines deleted by `ablate`). Atomic: the folder appears complete or not at all.
    `version` and `wording` are those of `generate`: version 2 in the held-out wording is a world worded as no
    training world is."""
    out = Path(out)
    if out.exists():
        raise ValueError(f"{out} already exists; give a new folder")
    w = generate(seed, size, version, wording)
    wk = wiki(w)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        rows = []
        for q in w.questions + w.claims:
            t = oracle(w, q, wk)
            text = t.render()
            rows.append({"id": q["id"], "task": t.task, "gold": t.answer, "recovery": q.get("recovery", []),
                         "trajectory": t.to_json(), **{m: DERIVE[m](text) for m in DERIVE}})
        for name, items in (("corpus", w.articles), ("questions", w.questions), ("claims", w.claims),
                            ("trajectories", rows)):
            write_atomic(tmp / f"{name}.jsonl", "".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n"
                                                        for x in items))
        os.rename(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"articles": len(w.articles), "questions": len(w.questions), "claims": len(w.claims),
            "trajectories": len(rows)}


def wiki(w: World):
    """A `LocalWiki` over the world's articles, cached on disk by their content."""
    return LocalWiki.from_articles(w.articles)


def oracle(w: World, question: dict, wiki=None, written: bool = False, aim_first: bool = False,
           second_word: bool = False):
    """A correct ReAct trajectory for one of the world's questions or claims, every observation from `WikiEnv`.
    `written` (version 2 worlds: training data version 3) writes out each check before its verdict
    (`varied.conclude`); `aim_first` (data version 6) opens each thought after a read with what it was for
    (`oracle.aimed`); `second_word` (data version 7, with `aim_first`) looks up a late fact by the relation's
    usual word, then by a second where no sentence has it (`oracle.usual`)."""
    return trajectory(w, question, wiki if wiki is not None else globals()["wiki"](w), written, aim_first,
                      second_word)


def question(qid: str, version: int = 1, wording: str = "trained") -> tuple[World, dict]:
    """The world a question id names ("world4101-0017": seed 4101) and the question, as a results file lists it.

    >>> w, q = question("world1000-0000", 2)
    >>> w.seed, q["answer"]
    (1000, 'Topir')
    """
    w = generate(int(qid.split("-")[0].removeprefix("world")), SIZE, version, wording)
    return w, next(q for q in w.questions if q["id"] == qid)


def guess(q: dict) -> str:
    """The best answer without reading (notebook 03's rule): the first of the two options a comparison names, else
    "yes". Both data versions and both wordings: a person may be named without the middle name of their title.

    >>> guess({"question": "Who was born first, Ana Bel or Cy Dor?", "answer": "Cy Dor", "type": "comparison",
    ...        "supporting_facts": [["Ana Lee Bel", 1], ["Cy Dor", 1]]})
    'Ana Bel'
    >>> guess({"question": "Is Ana Bel a singer?", "answer": "no", "type": "yesno", "supporting_facts": []})
    'yes'
    """
    text = q["question"]
    named = []
    for title, _ in q["supporting_facts"]:
        words = title.split(" (")[0].split()  # "Kemen (novel)" is asked about as "Kemen"
        named += [v for v in (" ".join(words), f"{words[0]} {words[-1]}") if v in text][:1]
    named = list(dict.fromkeys(named))
    if q["type"] == "comparison" and len(named) == 2 and q["answer"] in named:  # a two-way choice, not yes/no
        return min(named, key=text.index)
    return "yes"


def floor(questions: list[dict]) -> float:
    """The share of `questions` that `guess` answers right: the score of a model that reads nothing."""
    return sum(guess(q) == q["answer"] for q in questions) / len(questions)
