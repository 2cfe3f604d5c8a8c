"""A world no model has read: a generated encyclopedia, its questions and claims, and oracle trajectories.

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

Disjoint seed sets: `TRAIN_SEEDS` (12 x 200 questions), the only worlds any adapter trains on; `DEV_SEEDS` (4 x 200)
for every choice (data, steps, rank, checkpoint); `TEST_SEEDS` (6 x 200) for the reported figures, never a choice.
`HELDOUT_SEED` is the dev world the notebooks show. `check_trainable` refuses dev and test seeds. Names avoid every
word of the course corpus, so editing data/corpus/ may respell a world; the tests pin neither.

Data versions: ``version=1`` (the default) is the generator the shipped adapters were trained on, unchanged.
``version=2`` (`varied`, `wordings`, `phrasings`) asks in many wordings and writes articles in many phrasings;
``wording="heldout"`` renders the same world, questions and gold in wordings no training world uses:

    >>> v2 = generate(3, 40, version=2, wording="heldout")
    >>> [q["answer"] for q in v2.questions] == [q["answer"] for q in generate(3, 40, version=2).questions]
    True
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .articles import LATE, article, disambiguation_pages
from .names import Namer, corpus_words

MAX_SIZE = 5000  # questions per world; the names and the build time grow with it
SIZE = 200  # the size of a world named by its seed alone (`world:SEED`)
TRAIN_SEEDS = tuple(range(1, 13))  # 12 worlds of SIZE questions: 2,400 training questions
DEV_SEEDS = (1000, 1001, 1002, 1003)  # choices are made here (world 1000 was the old single held-out world)
TEST_SEEDS = (4101, 4102, 4103, 4104, 4105, 4106)  # 1,200 questions, scored for the figures, never for a choice
HELDOUT_SEED = DEV_SEEDS[0]  # the never-trained world the notebooks show: a dev world, not the test
NEVER_TRAIN = frozenset(DEV_SEEDS + TEST_SEEDS)
VERSIONS = (1, 2)

OCCUPATIONS = {"novelist": "novelists", "poet": "poets", "film director": "film directors", "singer": "singers",
               "painter": "painters", "architect": "architects", "chemist": "chemists", "historian": "historians",
               "sculptor": "sculptors", "engineer": "engineers"}
MAKERS = {"novel": ("novelist", "poet"), "film": ("film director",), "album": ("singer",)}
ORG_KIND = {"novel": "publisher", "film": "film studio", "album": "record label"}
ORG_SUFFIX = {"publisher": ["Press", "Books", "House"], "film studio": ["Pictures", "Films"],
              "record label": ["Records", "Music"]}
TOWN_SUFFIX = ["ford", "holm", "wick", "mere", "dale", "stead", "mouth", "gard", "ton", "by"]
TITLE_NOUNS = ["Letters", "Orchard", "Winter", "Crossing", "Lantern", "Harbour", "Garden", "Road"]
ADJ = ["well-known", "young", "retired", "self-taught", "prize-winning", "busy", "careful"]


@dataclass
class World:
    seed: int
    size: int
    version: int = 1
    wording: str = "trained"  # version 2: the split of question wordings and article phrasings
    entities: dict = field(default_factory=dict)  # title -> entity dict (type, facts, sentence index per fact)
    articles: list = field(default_factory=list)  # course corpus format
    questions: list = field(default_factory=list)  # course HotpotQA format
    claims: list = field(default_factory=list)  # course FEVER format
    plans: dict = field(default_factory=dict)  # question or claim id -> what the oracle reads, in order


_BANNED: set[str] | None = None


def banned_words() -> set[str]:
    """Words of the course corpus (titles and text): a generated name is never one of them."""
    global _BANNED
    if _BANNED is None:
        from .data import data_dir, read_jsonl
        arts = [a for p in sorted((data_dir() / "corpus").glob("*.jsonl")) for a in read_jsonl(p)]
        _BANNED = corpus_words([a["title"] for a in arts] + [s for a in arts for s in a["sentences"]])
    return _BANNED


def check_seed(seed, size) -> tuple[int, int]:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"size must be a whole number from 1 to {MAX_SIZE}, not {size!r}")
    return seed, size


def generate(seed: int, size: int, version: int = 1, wording: str = "trained") -> World:
    """The world of `seed` with `size` questions (and about as many articles); one seed gives the same bytes.

    `version` 2 keeps the entities of version 1 and rewrites articles and questions in the `wording` split.
    """
    from . import phrasings, varied
    from .questions import make_claims, make_questions
    from .wordings import SPLITS

    seed, size = check_seed(seed, size)
    if version not in VERSIONS or wording not in SPLITS or (version == 1 and wording != "trained"):
        raise ValueError(f"no world of version {version!r} in wording {wording!r}: version 1 has one wording, "
                         f"version 2 has {' and '.join(SPLITS)}")
    rng = random.Random(f"react_teach world {seed} {size}")
    w = World(seed, size, version, wording)
    _entities(w, rng, Namer(rng, banned_words()))
    w.articles = [article(e, rng) for e in w.entities.values()]
    if version == 2:  # the same sentences in other phrasings, from a stream of their own: facts stay where they are
        w.articles = [phrasings.rephrase(e, a, wording, random.Random(f"phrasing {seed} {e['title']} {wording}"))
                      for e, a in zip(w.entities.values(), w.articles)]
    w.articles += disambiguation_pages(w.entities)
    if version == 2:
        varied.make_questions(w, random.Random(f"questions v2 {seed} {size}"), wording)
    else:
        make_questions(w, random.Random(f"questions {seed} {size}"))
    make_claims(w, random.Random(f"claims {seed} {size}"))
    return w


def _entities(w: World, r: random.Random, names: Namer) -> None:
    n = w.size
    add = lambda e: w.entities.setdefault(e["title"], e)  # noqa: E731 - titles are unique by construction
    countries = [add({"type": "country", "title": names.root() + r.choice(["ia", "land", "mark", "ovia"])})
                 for _ in range(min(3 + n // 150, 10))]
    towns = [add({"type": "town", "title": names.root((2,)) + r.choice(TOWN_SUFFIX), "country": r.choice(countries)
                  ["title"], "founded": r.randint(1100, 1900), "river": names.root((2,))}) for _ in range(6 + n // 5)]
    for c in countries:
        c["capital"] = r.choice([t["title"] for t in towns if t["country"] == c["title"]] or [towns[0]["title"]])
    people = []
    for i in range(10 + n // 2):
        first, last = names.root(), names.root()
        older = [p for p in people if p["born"] < 1960]
        parent = r.choice(older) if older and r.random() < 0.4 else None
        if parent:
            last = parent["last"]
        middle = names.root((2,)) if r.random() < 0.35 else None
        born = (parent["born"] + r.randint(20, 40)) if parent else r.randint(1850, 1985)
        occ = list(OCCUPATIONS)[i] if i < len(OCCUPATIONS) else r.choice(list(OCCUPATIONS))
        people.append(add({"type": "person", "title": " ".join(filter(None, [first, middle, last])),
                           "short": f"{first} {last}" if middle else None, "first": first, "last": last,
                           "she": r.random() < 0.5, "occupation": occ, "adj": r.choice(ADJ), "born": born,
                           "birthplace": r.choice(towns)["title"], "parent": parent and parent["title"],
                           "spouse": None}))
    singles = [p for p in people]
    r.shuffle(singles)
    for a, b in zip(singles[0::2], singles[1::2]):
        if r.random() < 0.7:
            a["spouse"], b["spouse"] = b["title"], a["title"]
    orgs = []
    for i in range(6 + n // 8):
        kind = list(ORG_SUFFIX)[i % 3]
        orgs.append(add({"type": "org", "title": f"{names.root()} {r.choice(ORG_SUFFIX[kind])}", "kind": kind,
                         "seat": r.choice(towns)["title"], "founded": r.randint(1800, 1990),
                         "founder": r.choice(people)["title"]}))
    works = []
    for i in range(6 + n // 3):
        kind = list(MAKERS)[i % 3]
        shared = works[-1] if works and works[-1]["kind"] != kind and not works[-1]["shared"] \
            and r.random() < 0.3 else None
        name = shared["name"] if shared else (names.root() if r.random() < 0.6 else
                                              f"The {names.root()} {r.choice(TITLE_NOUNS)}")
        makers = [p for p in people if p["occupation"] in MAKERS[kind]]
        e = {"type": "work", "kind": kind, "name": name, "title": f"{name} ({kind})" if shared else name,
             "shared": bool(shared), "creator": r.choice(makers)["title"], "year": r.randint(1900, 2020),
             "org": r.choice([o for o in orgs if o["kind"] == ORG_KIND[kind]])["title"],
             "place": r.choice(towns)["title"]}
        if shared:  # the first work of the pair takes its bracketed title now
            del w.entities[shared["title"]]
            shared["title"], shared["shared"] = f"{name} ({shared['kind']})", True
            add(shared)
        works.append(add(e))
    for wk in works:
        w.entities[wk["creator"]].setdefault("works", []).append((wk["kind"], wk["name"]))
    for e in w.entities.values():  # at most one key fact of some entities sits past sentence five
        late = [rel for rel in LATE.get(e["type"], ()) if e.get(rel)]  # only a fact the entity has
        e["late"] = r.choice(late) if late and r.random() < 0.3 else None


def check_trainable(seeds, wording: str = "trained") -> None:
    """Refuse a dev or test seed, and any wording but the trained one: they never reach training data."""
    for s in seeds:
        if s in NEVER_TRAIN:
            raise ValueError(f"seed {s} is a {'dev' if s in DEV_SEEDS else 'test'} world: never train on it")
    if wording != "trained":
        raise ValueError(f"the {wording!r} wordings are held out for evaluation: never train on them")


def parse_seed(text: str) -> int:
    """A seed given on the command line or in a wiki spec: a whole number >= 0."""
    if not str(text).isdigit():
        raise ValueError(f"seed must be a whole number >= 0, not {text!r}")
    return int(text)


def build(seed: int, size: int, out) -> dict:
    """Write a world to the new folder `out`: corpus, questions, claims and oracle trajectories with their Act,
    CoT and Standard versions (lines deleted by `ablate`). Atomic: the folder appears complete or not at all."""
    import json
    import os
    import shutil
    from pathlib import Path

    from .ablate import DERIVE

    out = Path(out)
    if out.exists():
        raise ValueError(f"{out} already exists; give a new folder")
    w = generate(seed, size)
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
            (tmp / f"{name}.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n"
                                                       for x in items), encoding="utf-8")
        os.rename(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"articles": len(w.articles), "questions": len(w.questions), "claims": len(w.claims),
            "trajectories": len(rows)}


def wiki(w: World):
    """A `LocalWiki` over the world's articles, cached on disk by their content."""
    from .wiki import LocalWiki
    return LocalWiki.from_articles(w.articles)


def oracle(w: World, question: dict, wiki=None):
    """A correct ReAct trajectory for one of the world's questions or claims, every observation from `WikiEnv`."""
    from .oracle import trajectory
    return trajectory(w, question, wiki if wiki is not None else globals()["wiki"](w))
