"""The entities of a generated world: people, towns, countries, works and organisations, with their facts.

`make_entities` fills a `World` from a seeded random stream; `articles`, `questions` and `oracle` read them.

    >>> import random
    >>> from react_teach.world.names import Namer
    >>> w = World(3, 40)
    >>> make_entities(w, random.Random(0), Namer(random.Random(0), banned=set()))
    >>> sorted({e["type"] for e in w.entities.values()})
    ['country', 'org', 'person', 'town', 'work']
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from react_teach.data import data_dir, read_jsonl

from .articles import LATE
from .names import Namer, corpus_words

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
        arts = [a for p in sorted((data_dir() / "corpus").glob("*.jsonl")) for a in read_jsonl(p)]
        _BANNED = corpus_words([a["title"] for a in arts] + [s for a in arts for s in a["sentences"]])
    return _BANNED


def make_entities(w: World, r: random.Random, names: Namer) -> None:
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
