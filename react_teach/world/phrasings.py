"""Article sentences in many phrasings (data version 2), with a held-out subset no training world uses.

Version 1 articles (`articles.article`) state each fact in one or two fixed ways. Version 2 keeps the very same
article (same facts, same order, same fillers, so the same supporting-fact indices) and rewrites each fact sentence
in a phrasing drawn from a pool; the last `HELD` phrasings of every pool are the held-out split. Each phrasing
carries the word a ``lookup`` needs to reach it, and `rephrase` keeps a phrasing for a late fact only if that word
is in no other sentence of the article, so the oracle's lookup still lands on the fact.

    >>> import random
    >>> from react_teach.world.articles import article
    >>> e = {"type": "town", "title": "Dorvaford", "country": "Velmark", "founded": 1412, "river": "Olun",
    ...      "late": "founded"}
    >>> a = rephrase(e, article(e, random.Random(1)), "heldout", random.Random(2))
    >>> i = e["idx"]["founded"]
    >>> "1412" in a["sentences"][i], e["kw"]["founded"].lower() in a["sentences"][i].lower(), i >= 5
    (True, True, True)
"""
from __future__ import annotations

import random

from .wordings import split_of

HELD = 2  # the last two phrasings of every pool are held out

# (template, lookup word). Slots: t title, n work name, P/p pronoun, Pos/pos possessive, and the fact's values.
PHRASES = {
    ("person", "occupation"): [("{t} is a {adj} {occ}.", "{occ}"), ("{t} works as a {adj} {occ}.", "works as"),
                               ("{t} is known as a {adj} {occ}.", "known as"),
                               ("{t} is a {occ}, and a {adj} one.", "{occ}"),
                               ("{t} makes a living as a {adj} {occ}.", "makes a living"),
                               ("By trade, {t} is a {adj} {occ}.", "by trade"),
                               ("{t} is a {occ} by profession, and a {adj} one.", "profession"),
                               ("{t} earns a living as a {adj} {occ}.", "living"),
                               ("{t} has long been a {adj} {occ}.", "long been")],
    ("person", "birthplace"): [("{P} was born in {place} in {born} and grew up there.", "born"),
                               ("{P} was born in {born} in the town of {place}.", "born"),
                               ("{P} came into the world in {place} in {born}.", "world"),
                               ("Born in {born}, {p} grew up in the town of {place}.", "born"),
                               ("{Pos} birthplace is {place}, where {p} was born in {born}.", "birthplace"),
                               ("{P} was born in {born}, in {place}.", "born"),
                               ("{Pos} home town is {place}, where {p} was born in {born}.", "home town"),
                               ("In {born}, {p} was born in the town of {place}.", "born"),
                               ("{P} first saw daylight in {place} in {born}.", "daylight"),
                               ("The town of {place} is where {p} was born, in {born}.", "born")],
    ("person", "spouse"): [("{P} has been married to {spouse} for many years.", "married"),
                           ("{P} is married to {spouse}.", "married"), ("{Pos} spouse is {spouse}.", "spouse"),
                           ("{P} wed {spouse} after a long friendship.", "wed"),
                           ("{P} and {spouse} have been husband and wife for years.", "husband"),
                           ("{P} married {spouse} when young.", "married"),
                           ("{Pos} husband or wife is {spouse}.", "wife"),
                           ("{spouse} and {p} are a married couple.", "couple"),
                           ("{spouse} is {pos} partner in marriage.", "marriage"),
                           ("{P} shares a home with {pos} spouse, {spouse}.", "spouse")],
    ("person", "parent"): [("{P} is the {kid} of {parent}, who still lives nearby.", "{kid} of"),
                           ("{P} is a {kid} of {parent}.", "{kid} of"), ("{Pos} parent is {parent}.", "parent"),
                           ("{parent} raised {pos} {kid} in a quiet house.", "raised"),
                           ("{P} was raised by {pos} parent, {parent}.", "raised by"),
                           ("{P} is the {kid} of a parent named {parent}.", "named"),
                           ("{P} is {parent}'s {kid}.", "'s {kid}"),
                           ("{P} grew up as the {kid} of {parent}.", "grew up"),
                           ("{parent} is {pos} mother or father.", "mother")],
    ("town", "country"): [("{t} is a town in the country of {c}.", "country"), ("{t} is a town in {c}.", "town in"),
                          ("{t} lies in the south of {c}.", "lies in"), ("{t} is one of the towns of {c}.", "one of"),
                          ("{t} is a town of the country {c}.", "country"), ("{t} is found in {c}.", "found in"),
                          ("{t} is part of {c}.", "part of"),
                          ("{t} is a market town that belongs to {c}.", "belongs"),
                          ("{t}, a town of {c}, sits on low hills.", "hills")],
    ("town", "founded"): [("It was founded in {y} by a group of farmers.", "founded"), ("It was founded in {y}.", "founded"),
                          ("Its founding dates from {y}.", "founding"), ("Settlers built its first houses in {y}.", "settlers"),
                          ("It has existed since {y}, when it was founded.", "founded"),
                          ("It dates from {y}.", "dates"),
                          ("Its history starts in {y}, the year it was founded.", "history"),
                          ("It was set up as a town in {y}.", "set up"),
                          ("The first stones of the town were laid in {y}.", "stones"),
                          ("People first made their homes there in {y}.", "homes")],
    ("town", "river"): [("It lies on the banks of the {r} river.", "river"), ("The {r} river runs through it.", "river"),
                        ("It stands on the {r} river.", "river"), ("Its bridges cross the {r} river.", "bridges"),
                        ("The {r} river flows past its walls.", "walls"),
                        ("It sits by the {r} river.", "sits by"), ("It grew up along the {r} river.", "along"),
                        ("The {r} river divides it in two.", "divides"),
                        ("The waters of the {r} river pass through its centre.", "waters"),
                        ("Boats on the {r} river stop at its quays.", "quays")],
    ("org", "seat"): [("{t} is a {kind} based in the town of {s}.", "based in"), ("{t} is a {kind} with its seat in {s}.", "seat"),
                      ("{t} is a {kind} whose offices are in {s}.", "offices"), ("{t} is a {kind} from the town of {s}.", "from the"),
                      ("{t} is a {kind} in the town of {s}.", "in the town"),
                      ("{t} is a {kind} located in {s}.", "located"), ("{t} is a {kind} whose base is {s}.", "base"),
                      ("{t} is a {kind} that has its home in {s}.", "home"), ("{t} is a {kind} run from the town of {s}.", "run from")],
    ("org", "founded"): [("It was founded in {y} in a single small room.", "founded"), ("It was founded in {y}.", "founded"),
                         ("It opened its doors in {y}.", "doors"), ("It has been in business since {y}.", "business"),
                         ("It began trading in {y}.", "trading"), ("It was set up in {y}.", "set up"),
                         ("It dates back to {y}.", "dates"), ("It has worked since {y}.", "worked since"),
                         ("Its story begins in {y}, the year it was set up.", "story"),
                         ("Its first year of work was {y}.", "first year")],
    ("org", "founder"): [("Its founder was {f}, who ran it for years.", "founder"), ("{f} is its founder.", "founder"),
                         ("It was set up by {f}.", "set up"), ("{f} started it with a small loan.", "loan"),
                         ("The firm was started by {f}.", "started"), ("It was founded by {f}.", "founded by"),
                         ("{f} founded it.", "founded it"), ("It was begun by {f}.", "begun"),
                         ("{f} created it and led it for a decade.", "created"),
                         ("It owes its existence to {f}.", "existence")],
    ("novel", "creator"): [("{n} is a novel written by {c}.", "written"), ("{n} is a novel by {c}.", "novel by"),
                           ("{n} is a novel that {c} wrote.", "wrote"), ("{n} is a novel from the pen of {c}.", "pen"),
                           ("{n} is a novel by the author {c}.", "author"),
                           ("{n} is a novel penned by {c}.", "penned"),
                           ("{n} is a novel, and {c} is its author.", "its author"),
                           ("{n} is a novel whose author is {c}.", "author"),
                           ("{n} is a novel, the work of the writer {c}.", "writer")],
    ("film", "creator"): [("{n} is a film directed by {c}.", "directed"), ("{n} is a film by the director {c}.", "director"),
                          ("{n} is a film that {c} directed.", "directed"), ("{n} is a film made by {c}.", "made by"),
                          ("{n} is a film from the director {c}.", "director"),
                          ("{n} is a film that {c} made.", "made"),
                          ("{n} is a film, and {c} is its director.", "its director"),
                          ("{n} is a film whose director is {c}.", "director"),
                          ("{n} is a film, the work of {c} behind the camera.", "camera")],
    ("album", "creator"): [("{n} is an album by the singer {c}.", "singer"), ("{n} is an album that {c} sang.", "sang"),
                           ("{n} is an album of songs by {c}.", "songs by"), ("{n} is an album sung by {c}.", "sung"),
                           ("{n} is an album by {c}, a singer.", "a singer"),
                           ("{n} is an album that the singer {c} made.", "made"),
                           ("{n} is an album, and {c} is its singer.", "its singer"),
                           ("{n} is an album whose singer is {c}.", "singer"),
                           ("{n} is an album, the work of the singer {c}.", "work of")],
    ("novel", "year"): [("It was first published in {y} to good reviews.", "published"), ("It was published in {y}.", "published"),
                        ("It first appeared in print in {y}.", "print"), ("Readers first saw it in {y}.", "readers"),
                        ("It came to the bookshops in {y}.", "bookshops"),
                        ("It was printed first in {y}.", "printed first"), ("It came out in {y}.", "came out"),
                        ("It was first sold in {y}.", "sold"),
                        ("It reached the bookshops in {y}.", "reached"),
                        ("Its publication year is {y}.", "publication")],
    ("film", "year"): [("It came out in {y} in a few cinemas.", "came out"), ("It came out in {y}.", "came out"),
                       ("It opened in cinemas in {y}.", "cinemas"), ("It was first shown in {y}.", "shown"),
                       ("Audiences first saw it in {y}.", "audiences"), ("It was released in {y}.", "released"),
                       ("It first played in {y}.", "played"), ("It had its first showing in {y}.", "showing"),
                       ("Its release year is {y}.", "release"),
                       ("It reached the screens in {y}.", "screens")],
    ("album", "year"): [("It was released in {y} on a long-playing record.", "released"), ("It was released in {y}.", "released"),
                        ("It came out in {y}.", "came out"), ("It reached the shops in {y}.", "shops"),
                        ("Listeners first heard it in {y}.", "listeners"), ("It was put out in {y}.", "put out"),
                        ("It first came out in {y}.", "came out"), ("It hit the shops in {y}.", "hit"),
                        ("Its release year is {y}.", "release year"),
                        ("It first went on sale in {y}.", "sale")],
    ("novel", "org"): [("Its publisher is {o}.", "publisher"), ("It was published by {o}.", "published"),
                       ("{o} brought it out.", "brought"), ("The firm {o} publishes it.", "publishes"),
                       ("Its publishing firm is {o}.", "publishing"), ("It was brought out by {o}.", "brought out"),
                       ("{o} published it.", "published it"), ("Its publishing house is {o}.", "publishing house"),
                       ("{o} is the firm that prints it.", "prints"),
                       ("Its copies are printed by {o}.", "printed")],
    ("film", "org"): [("It was made by the studio {o}.", "studio"), ("The studio {o} made it.", "studio"),
                      ("It is a production of {o}.", "production"), ("{o} produced it.", "produced"),
                      ("Its studio was {o}.", "studio"), ("It was made at the studio {o}.", "studio"),
                      ("{o} made it.", "made it"), ("It comes from the studio {o}.", "comes from"),
                      ("It was shot for the studio {o}.", "shot for"),
                      ("{o} paid for it and made it.", "paid")],
    ("album", "org"): [("It appeared on the label {o}.", "label"), ("Its label is {o}.", "label"),
                       ("It came out on the label {o}.", "on the label"), ("{o} put it out as a record.", "put it out"),
                       ("The record label {o} issued it.", "issued"), ("It came out on {o}.", "came out on"),
                       ("Its record label is {o}.", "record label"), ("{o} released it.", "released it"),
                       ("It was issued by {o}.", "issued by"),
                       ("{o} is the label that sells it.", "sells")],
    ("novel", "place"): [("The story is set in the town of {p}.", "set in"), ("It is set in {p}.", "set in"),
                         ("Its story takes place in {p}.", "takes place"), ("The novel is set in the town of {p}.", "set in"),
                         ("Its events unfold in {p}.", "unfold"), ("Its story is set in {p}.", "set in"),
                         ("It takes place in the town of {p}.", "takes place"),
                         ("The book is set in {p}.", "book is set"),
                         ("Its characters live in the town of {p}.", "characters"),
                         ("The action of the book happens in {p}.", "action")],
    ("film", "place"): [("It is set in the town of {p}.", "set in"), ("The film is set in {p}.", "set in"),
                        ("Its story takes place in {p}.", "takes place"), ("The action happens in the town of {p}.", "action"),
                        ("Its scenes unfold in {p}.", "unfold"), ("Its story is set in {p}.", "set in"),
                        ("It takes place in the town of {p}.", "takes place"),
                        ("The film takes place in {p}.", "film takes"),
                        ("Its characters live in the town of {p}.", "characters"),
                        ("Its plot plays out in {p}.", "plot")],
    ("album", "place"): [("It was recorded in {p}.", "recorded in"), ("It was recorded in the town of {p}.", "recorded in"),
                         ("Its songs were taped in {p}.", "taped"), ("Its sessions took place in {p}.", "sessions"),
                         ("It was made in a studio in {p}.", "studio in"), ("It was taped in {p}.", "taped"),
                         ("Its recording took place in {p}.", "recording"),
                         ("It was recorded in a studio in {p}.", "studio in"),
                         ("Its songs were put on tape in {p}.", "tape"),
                         ("The recording sessions were held in {p}.", "held")],
}


def _slots(e: dict) -> dict:
    she = e.get("she")
    out = {"t": e["title"], "n": e.get("name", ""), "P": "She" if she else "He", "p": "she" if she else "he",
           "Pos": "Her" if she else "His", "pos": "her" if she else "his", "kid": "daughter" if she else "son"}
    keys = {"adj": "adj", "occ": "occupation", "place": "birthplace", "born": "born", "spouse": "spouse",
            "parent": "parent", "c": "country", "r": "river", "s": "seat", "kind": "kind", "f": "founder",
            "o": "org"}
    out.update({k: str(e[v]) for k, v in keys.items() if e.get(v) is not None})
    out["y"] = str(e.get("founded") or e.get("year") or "")
    if e["type"] == "work":
        out["c"], out["p"] = e["creator"], e["place"]
    return out


def pool(e: dict, rel: str) -> list | None:
    return PHRASES.get((e["kind"] if e["type"] == "work" else e["type"], rel))


def rephrase(e: dict, a: dict, split: str, rng: random.Random, tries: int = 20) -> dict:
    """Rewrite the fact sentences of article `a` (made by `articles.article` for `e`) in phrasings of `split`.

    Records the lookup word of each fact in ``e["kw"]``. A late fact (past sentence five) keeps a phrasing only if
    its word is in no other sentence; after `tries` draws without one, the article keeps its version-1 sentences.
    """
    slots = _slots(e)
    rels = [rel for rel in e["idx"] if pool(e, rel)]
    for _ in range(tries):
        text, kw = list(e["text"]), {}
        for rel in rels:
            template, word = pool(e, rel)[rng.choice(split_of(pool(e, rel), split, HELD))]
            text[e["idx"][rel]] = template.format(**slots)
            kw[rel] = word.format(**slots)
        late = [rel for rel in rels if e["idx"][rel] >= 5]
        if all(sum(kw[rel].lower() in s.lower() for s in text) == 1 and kw[rel].lower() in text[e["idx"][rel]].lower()
               for rel in late):
            e["text"], e["kw"] = text, kw
            return {**a, "sentences": text}
    return a
