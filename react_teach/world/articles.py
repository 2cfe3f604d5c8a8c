"""Articles of a generated world, in the course corpus format: several wordings per fact, key facts first.

The first five sentences (what `search` shows) hold the key facts, padded with short plain filler sentences; for
some entities one key fact sits at sentence six or later, after a filler, so that only `lookup` reaches it.
`keyword` is the word that reaches a fact: it is in that fact's sentence and in no other sentence of the article.

    >>> import random
    >>> e = {"type": "town", "title": "Dorvaford", "country": "Velmark", "founded": 1412, "river": "Olun",
    ...      "late": "founded"}
    >>> a = article(e, random.Random(1))
    >>> a["sentences"][e["idx"]["founded"]], e["idx"]["founded"] >= 5, keyword(e, "founded")
    ('It was founded in 1412 by a group of farmers.', True, 'founded')
"""
from __future__ import annotations

import random

GOODS = ["fish", "wool", "salt", "cheese", "timber", "flower", "horse", "pottery"]
PERSON_FILLER = ["{P} rarely gives interviews and prefers to work alone.",
                 "{P} keeps a large garden behind an old stone house.",
                 "{P} spent several years abroad as a young adult.", "{P} has two brothers and a younger sister.",
                 "{P} often walks by the sea in the early morning.", "{P} collects old maps and wooden boxes.",
                 "{P} speaks three languages and reads two more.", "{P} once worked as a clerk in a small shop.",
                 "{P} enjoys long train journeys across the country."]
TOWN_FILLER = ["About {n} people live there today.", "{T} is known for its weekly {g} market.",
               "Its old harbour is now a park with tall trees.", "The main square has a stone clock and a fountain.",
               "Most houses there have red roofs and white walls."]
ORG_FILLER = ["It employs about {n} people in two buildings.", "Its logo is a {a} drawn in black ink.",
              "It has a small shop on the main square of the town.", "It moved to larger offices in {y}."]
WORK_FILLER = {"novel": ["It runs to {n} pages in its first edition.", "Critics praised its short chapters and plain "
                         "style.", "It has been translated into {k} languages."],
               "film": ["It runs for {n} minutes and is shot in colour.", "Critics praised its long final scene.",
                        "It was filmed in {k} weeks on a small budget."],
               "album": ["It has {k} songs and lasts about forty minutes.", "Critics praised its quiet opening song.",
                         "It was made in {k} weeks with a small band."]}
ANIMALS = ["fox", "heron", "owl", "stag", "hare", "swan", "wolf", "otter"]


LATE = {"person": ("birthplace", "spouse"), "town": ("founded", "river"), "work": ("org", "place", "year"),
        "org": ("founded", "founder")}
# The word a lookup needs to reach each fact (it is in that fact's sentence and in no other of the article).
KEYWORD = {("person", "birthplace"): "born", ("person", "born"): "born", ("person", "spouse"): "married",
           ("town", "founded"): "founded", ("town", "river"): "river", ("org", "founded"): "founded",
           ("org", "founder"): "founder", ("org", "seat"): "based in"}
WORK_KW = {"novel": {"year": "published", "org": "publisher", "place": "set in"},
           "film": {"year": "came out", "org": "studio", "place": "set in"},
           "album": {"year": "released", "org": "label", "place": "recorded in"}}


def keyword(e: dict, rel: str) -> str:
    if e["type"] == "work":
        return WORK_KW[e["kind"]][rel]
    if e["type"] == "person" and rel == "parent":
        return ("daughter" if e["she"] else "son") + " of"
    return KEYWORD[(e["type"], rel)]


def _facts(e: dict, r: random.Random) -> list[tuple[str, str]]:
    """(fact, sentence) pairs of an entity, key facts first, in one of several wordings."""
    t, pro = e["title"], "She" if e.get("she") else "He"
    if e["type"] == "person":
        kid = "daughter" if e["she"] else "son"
        out = [("occupation", f"{t} is a {e['adj']} {e['occupation']}."),
               ("birthplace", r.choice([f"{pro} was born in {e['birthplace']} in {e['born']} and grew up there.",
                                        f"{pro} was born in {e['born']} in the town of {e['birthplace']}."]))]
        if e["spouse"]:
            out.append(("spouse", r.choice([f"{pro} has been married to {e['spouse']} for many years.",
                                            f"{pro} married {e['spouse']} in {e['born'] + r.randint(20, 35)}."])))
        if e["parent"]:
            out.append(("parent", f"{pro} is the {kid} of {e['parent']}, who still lives nearby."))
        verb = {"novel": "wrote the novel", "film": "directed the film", "album": "recorded the album"}
        out += [("work", f"{pro} {verb[kind]} {name}.") for kind, name in e.get("works", [])[:1]]
        return out
    if e["type"] == "town":
        return [("country", r.choice([f"{t} is a town in the country of {e['country']}.",
                                      f"{t} is a small town in the north of {e['country']}."])),
                ("founded", r.choice([f"It was founded in {e['founded']} by a group of farmers.",
                                      f"The town was founded in {e['founded']}."])),
                ("river", r.choice([f"It lies on the banks of the {e['river']} river.",
                                    f"The {e['river']} river runs through it."]))]
    if e["type"] == "country":
        return [("capital", f"{t} is a small country whose capital is {e['capital']}.")]
    if e["type"] == "org":
        return [("seat", f"{t} is a {e['kind']} based in the town of {e['seat']}."),
                ("founded", f"It was founded in {e['founded']} in a single small room."),
                ("founder", r.choice([f"Its founder was {e['founder']}, who ran it for years.", f"{e['founder']} is its founder."]))]
    k, n = e["kind"], e["name"]
    return [("creator", {"novel": f"{n} is a novel written by {e['creator']}.",
                         "film": f"{n} is a film directed by {e['creator']}.",
                         "album": f"{n} is an album by the singer {e['creator']}."}[k]),
            ("year", {"novel": f"It was first published in {e['year']} to good reviews.", "film": f"It came out in {e['year']} in a few cinemas.",
                      "album": f"It was released in {e['year']} on a long-playing record."}[k]),
            ("org", {"novel": f"Its publisher is {e['org']}.", "film": f"It was made by the studio {e['org']}.",
                     "album": f"It appeared on the label {e['org']}."}[k]),
            ("place", {"novel": f"The story is set in the town of {e['place']}.", "film": f"It is set in the town of {e['place']}.",
                       "album": f"It was recorded in {e['place']}."}[k])]


def _fillers(e: dict, r: random.Random) -> list[str]:
    if e["type"] == "person":
        pool = [s.format(P="She" if e["she"] else "He") for s in PERSON_FILLER]
    elif e["type"] == "town":
        pool = [s.format(n=r.randint(2, 90) * 100, T=e["title"], g=r.choice(GOODS)) for s in TOWN_FILLER]
    elif e["type"] == "org":
        pool = [s.format(n=r.randint(5, 400), a=r.choice(ANIMALS), y=r.randint(1950, 2020)) for s in ORG_FILLER]
    elif e["type"] == "work":
        pool = [s.format(n=r.randint(90, 600), k=r.randint(6, 16)) for s in WORK_FILLER[e["kind"]]]
    else:
        pool = [f"Its flag is {r.choice(['red', 'blue', 'green'])} and white.", "It has a short coastline in the west.",
                "Its people mostly farm the wide lowlands.", "Its largest festival is held each spring."]
    r.shuffle(pool)
    return pool


def article(e: dict, r: random.Random) -> dict:
    """The article of an entity; records in e["idx"] which sentence holds each fact."""
    facts, fill = _facts(e, r), _fillers(e, r)
    head = [f for f in facts if f[0] != e.get("late")][:5]
    tail = [f for f in facts if f not in head]
    while len(head) < 5 and fill:
        head.append(("filler", fill.pop()))
    if tail and fill:  # a late fact sits after one more filler, at sentence 6 or later
        tail = [("filler", fill.pop())] + tail
    body = head + tail + [("filler", s) for s in fill[:1]]
    e["idx"] = {rel: i for i, (rel, _) in enumerate(body) if rel != "filler"}
    e["text"] = [s for _, s in body]
    return {"title": e["title"], "sentences": e["text"]}


def disambiguation_pages(entities: dict) -> list[dict]:
    by_name: dict[str, list[dict]] = {}
    for e in entities.values():
        if e["type"] == "work" and e["shared"]:
            by_name.setdefault(e["name"], []).append(e)
    return [{"title": name, "disambiguation": True, "sentences": [f"{name} may refer to:"] + [
        f"{e['title']}, a {e['year']} {e['kind']} by {e['creator']}" for e in es]} for name, es in by_name.items()]

