"""Questions and claims about a generated world, each with the plan an oracle follows to answer it.

Question kinds come in fixed shares (a cycle of 20 slots): 2-hop bridge 30 %, 3-hop bridge 20 % ("bridge");
"which came first" 15 % and "are both" 15 % ("comparison"); single-fact yes/no 20 % ("yesno"). Level follows
the kind: yes/no is easy, 2-hop bridge and comparison medium, 3-hop bridge hard. Each slot also asks for one
recovery (a second cycle of 20): none 55 %, a missed search 15 %, a disambiguation page 15 %, a lookup 15 %.
A slot that cannot get its recovery in 80 tries keeps the last candidate, so the measured shares are close to,
not exactly, these; `recovery` in each question says what its oracle trajectory does.

    >>> from react_teach.world import generate
    >>> q = generate(5, 20).questions[0]
    >>> sorted(q)
    ['answer', 'hops', 'id', 'level', 'question', 'recovery', 'supporting_facts', 'type']
    >>> fact({"type": "town", "title": "Dorvaford"}, "founded", "1412")
    'Dorvaford was founded in 1412'
"""
from __future__ import annotations

import random

from .entities import OCCUPATIONS

KIND_CYCLE = ["bridge2", "first", "yesno", "bridge3", "both", "bridge2", "bridge2", "yesno", "first", "bridge3",
              "bridge2", "both", "yesno", "bridge3", "bridge2", "first", "both", "yesno", "bridge2", "bridge3"]
RECOVERY_CYCLE = ["none", "miss", "none", "disambig", "lookup", "none", "none", "miss", "none", "lookup",
                  "disambig", "none", "none", "lookup", "miss", "none", "disambig", "none", "none", "none"]
TYPE = {"bridge2": "bridge", "bridge3": "bridge", "first": "comparison", "both": "comparison", "yesno": "yesno"}
LEVEL = {"bridge2": "medium", "bridge3": "hard", "first": "medium", "both": "medium", "yesno": "easy"}
ROLE = {"novel": "author", "film": "director", "album": "singer"}
ORGWORD = {"novel": "publisher", "film": "studio", "album": "label"}
VERB = {"novel": "written", "film": "directed", "album": "recorded"}


def np(e: dict) -> str:
    """How a question names a work: 'the film Marrow' (the kind tells two works of one name apart)."""
    return f"the {e['kind']} {e['name']}"


def value(e: dict, rel: str) -> str:
    return str(e["born"] if rel == "born" else e[rel])


def a_or_an(word: str) -> str:
    """The word with its indefinite article: 'an engineer', 'a poet'."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def fact(e: dict, rel: str, v: str) -> str:
    """A fact as a sentence without its period, in the oracle's words (claims use it too)."""
    t = np(e)[0].upper() + np(e)[1:] if e["type"] == "work" else e["title"]
    k = e.get("kind")
    return {"birthplace": f"{t} was born in {v}", "born": f"{t} was born in {v}", "spouse": f"{t} is married to {v}",
            "parent": f"{t} is the {'daughter' if e.get('she') else 'son'} of {v}",
            "occupation": f"{t} is {a_or_an(v)}", "country": f"{t} is in {v}",
            "founded": f"{t} was founded in {v}", "river": f"{t} lies on the {v} river",
            "creator": f"{t} was {VERB.get(k)} by {v}", "year": f"{t} came out in {v}",
            "org": {"novel": f"{t} was published by {v}", "film": f"{t} was made by the studio {v}",
                    "album": f"{t} appeared on the label {v}"}.get(k),
            "place": f"{t} was recorded in {v}" if k == "album" else f"{t} is set in {v}",
            "seat": f"{t} is based in {v}", "founder": f"{t} was founded by {v}"}[rel]


def _pick(r, pool, cond=lambda e: True):
    good = [e for e in pool if cond(e)]
    return r.choice(good) if good else None


def _candidate(w, r, kind, short):
    """(question, answer, reads, check) for one random question of `kind`; reads are (title, rel, query)."""
    P = [e for e in w.entities.values() if e["type"] == "person"]
    T = [e for e in w.entities.values() if e["type"] == "town"]
    W = [e for e in w.entities.values() if e["type"] == "work"]
    O = [e for e in w.entities.values() if e["type"] == "org"]
    E = w.entities
    name = lambda p: p["short"] if short and p.get("short") else p["title"]  # noqa: E731

    def rd(e, rel, first=False):
        return (e["title"], rel, (e["name"] if e["type"] == "work" else name(e)) if first else None)

    if kind == "bridge2":
        c = r.randrange(7)
        if c <= 2:
            wk = r.choice(W)
            p = E[wk["creator"]]
            if c == 0:
                return (f"In which town was the {ROLE[wk['kind']]} of {np(wk)} born?", p["birthplace"],
                        [rd(wk, "creator", 1), rd(p, "birthplace")], None)
            if c == 1 and p["spouse"]:
                return (f"Who is the spouse of the {ROLE[wk['kind']]} of {np(wk)}?", p["spouse"],
                        [rd(wk, "creator", 1), rd(p, "spouse")], None)
            o = E[wk["org"]]
            return (f"In what year was the {ORGWORD[wk['kind']]} of {np(wk)} founded?", str(o["founded"]),
                    [rd(wk, "org", 1), rd(o, "founded")], None)
        if c == 3:
            p = r.choice(P)
            return (f"On which river lies the town where {name(p)} was born?", E[p["birthplace"]]["river"],
                    [rd(p, "birthplace", 1), rd(E[p["birthplace"]], "river")], None)
        if c == 4:
            p = _pick(r, P, lambda e: e["spouse"])
            return p and (f"What is the occupation of the spouse of {name(p)}?", E[p["spouse"]]["occupation"],
                          [rd(p, "spouse", 1), rd(E[p["spouse"]], "occupation")], None)
        if c == 5:
            o = r.choice(O)
            return (f"In what year was the town where {o['title']} is based founded?", str(E[o["seat"]]["founded"]),
                    [rd(o, "seat", 1), rd(E[o["seat"]], "founded")], None)
        wk = r.choice(W)
        verb = "recorded" if wk["kind"] == "album" else "set"
        return (f"In which country was {np(wk)} {verb}?" if verb == "recorded" else
                f"In which country is {np(wk)} set?", E[wk["place"]]["country"],
                [rd(wk, "place", 1), rd(E[wk["place"]], "country")], None)
    if kind == "bridge3":
        c = r.randrange(4)
        wk = r.choice(W)
        p = E[wk["creator"]]
        if c == 0:
            return (f"In which country was the {ROLE[wk['kind']]} of {np(wk)} born?", E[p["birthplace"]]["country"],
                    [rd(wk, "creator", 1), rd(p, "birthplace"), rd(E[p["birthplace"]], "country")], None)
        if c == 1:
            o = E[wk["org"]]
            return (f"On which river lies the town where the {ORGWORD[wk['kind']]} of {np(wk)} is based?",
                    E[o["seat"]]["river"], [rd(wk, "org", 1), rd(o, "seat"), rd(E[o["seat"]], "river")], None)
        if c == 2 and p["spouse"]:
            s = E[p["spouse"]]
            return (f"In which town was the spouse of the {ROLE[wk['kind']]} of {np(wk)} born?", s["birthplace"],
                    [rd(wk, "creator", 1), rd(p, "spouse"), rd(s, "birthplace")], None)
        p = _pick(r, P, lambda e: e["spouse"])
        s = p and E[p["spouse"]]
        return p and (f"In what year was the birthplace of the spouse of {name(p)} founded?",
                      str(E[s["birthplace"]]["founded"]),
                      [rd(p, "spouse", 1), rd(s, "birthplace"), rd(E[s["birthplace"]], "founded")], None)
    if kind == "first":
        c = r.randrange(4)
        pool, rel, ask = [(W, "year", "Which came out first, {} or {}?"), (T, "founded", "Which town was founded "
                          "first, {} or {}?"), (P, "born", "Who was born first, {} or {}?"),
                          (O, "founded", "Which was founded first, {} or {}?")][c]
        a, b = r.sample(pool, 2)
        if value(a, rel) == value(b, rel) or a.get("name", 1) == b.get("name", 2):
            return None
        say = lambda e: np(e) if e["type"] == "work" else name(e)  # noqa: E731
        first = min((a, b), key=lambda e: int(value(e, rel)))
        return (ask.format(say(a), say(b)), first["name"] if first["type"] == "work" else name(first),
                [rd(a, rel, 1), rd(b, rel, 1)], ("first", rel))
    if kind == "both":
        c = r.randrange(3)
        pool, rel = [(P, "occupation"), (T, "country"), (O, "seat")][c]
        a, same = r.choice(pool), r.random() < 0.5
        b = _pick(r, pool, lambda e: e is not a and (e[rel] == a[rel]) == same)
        if b is None:
            return None
        ask = [f"Are {name(a)} and {name(b)} both {OCCUPATIONS.get(a[rel])}?",
               f"Are {a['title']} and {b['title']} both in {a[rel]}?",
               f"Are {a['title']} and {b['title']} both based in {a[rel]}?"][c]
        return ask, "yes" if a[rel] == b[rel] else "no", [rd(a, rel, 1), rd(b, rel, 1)], ("both", a[rel])
    c = r.randrange(3)
    if c == 0:
        p, t = r.choice(P), r.choice(T)
        v = p["birthplace"] if r.random() < 0.5 else t["title"]
        return (f"Was {name(p)} born in {v}?", "yes" if v == p["birthplace"] else "no", [rd(p, "birthplace", 1)],
                ("is", v))
    if c == 1:
        wk, t = r.choice(W), r.choice(T)
        v = wk["place"] if r.random() < 0.5 else t["title"]
        ask = f"Was {np(wk)} recorded in {v}?" if wk["kind"] == "album" else f"Is {np(wk)} set in {v}?"
        return ask, "yes" if v == wk["place"] else "no", [rd(wk, "place", 1)], ("is", v)
    t = r.choice(T)
    y = t["founded"] + r.choice([-1, 1]) * r.randint(3, 90)
    return (f"Was {t['title']} founded before {y}?", "yes" if t["founded"] < y else "no", [rd(t, "founded", 1)],
            ("before", str(y)))


def recoveries(w, reads) -> list[str]:
    """What the oracle will do besides reading the first sentences: miss, disambig, lookup."""
    out = []
    for title, rel, query in reads:
        e = w.entities[title]
        if query is not None and query != title:
            out.append("disambig" if e["type"] == "work" else "miss")
        if e["idx"][sentence_rel(rel)] >= 5:
            out.append("lookup")
    return out


def sentence_rel(rel: str) -> str:
    return "birthplace" if rel == "born" else rel


def slot(i: int) -> str:
    """The recovery the i-th question of a world asks for (its own 20-slot cycle, shifted against the kinds')."""
    return RECOVERY_CYCLE[(3 * i + i // 20) % 20]


def pick(w, want: str, seen: set, candidate) -> tuple:
    """The first of up to 80 fresh candidates (`candidate(short)`) whose recoveries are `want`, else the last one.

    A candidate is a tuple (key, answer, reads, ...); `key` must be new in `seen`, which the pick is added to.
    """
    best = None
    for _ in range(80):
        c = candidate(want == "miss")
        if not c or c[0] in seen:
            continue
        best = c
        if recoveries(w, c[2]) == ([] if want == "none" else [want]):
            break
    seen.add(best[0])
    return best


def make_questions(w, r: random.Random) -> None:
    """Version-1 questions, in the generator's one wording each (the shipped adapters' training data)."""
    seen = set()
    for i in range(w.size):
        kind = KIND_CYCLE[i % 20]
        q, answer, reads, check = pick(w, slot(i), seen, lambda short: _candidate(w, r, kind, short))
        qid = f"world{w.seed}-{i:04d}"
        w.questions.append({"id": qid, "question": q, "answer": answer, "type": TYPE[kind], "level": LEVEL[kind],
                            "hops": len(reads), "recovery": recoveries(w, reads),
                            "supporting_facts": [[t, w.entities[t]["idx"][sentence_rel(rel)]] for t, rel, _ in reads]})
        w.plans[qid] = {"kind": kind, "reads": reads, "check": check, "answer": answer}


NEI = ["plays the violin", "keeps bees", "has climbed a mountain", "owns a sailing boat", "won a chess prize"]


def make_claims(w, r: random.Random) -> None:
    """FEVER-style claims, a third each SUPPORTS, REFUTES and NOT ENOUGH INFO; about half as many as questions."""
    ents = [e for e in w.entities.values() if e["type"] in ("person", "town", "work", "org")]
    rels = {"person": ["birthplace", "spouse", "occupation"], "town": ["founded", "river", "country"],
            "work": ["creator", "year", "org", "place"], "org": ["seat", "founded", "founder"]}
    for i in range(max(1, w.size // 2)):
        label = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"][i % 3]
        while True:
            e = r.choice(ents if label != "NOT ENOUGH INFO" else [x for x in ents if x["type"] == "person"])
            rel = r.choice(rels[e["type"]])
            if e.get(rel):
                break
        true = value(e, rel)
        if label == "REFUTES":  # the same kind of value, taken from another entity
            other = [value(x, rel) for x in ents if x["type"] == e["type"] and x.get(rel) and value(x, rel) != true]
            claim, reads = fact(e, rel, r.choice(other)) + ".", [(e["title"], rel, e["title"])]
        elif label == "SUPPORTS":
            claim, reads = fact(e, rel, true) + ".", [(e["title"], rel, e["title"])]
        else:
            claim, reads = f"{e['title']} {r.choice(NEI)}.", [(e["title"], None, e["title"])]
        cid = f"world{w.seed}-c{i:04d}"
        w.claims.append({"id": cid, "claim": claim, "label": label,
                         # a NOT ENOUGH INFO claim has no evidence: nothing in the world settles it
                         "evidence": [[e["title"], e["idx"][sentence_rel(rel)]]] if label != "NOT ENOUGH INFO"
                         else []})
        w.plans[cid] = {"kind": "claim", "reads": reads, "check": None, "answer": label}
