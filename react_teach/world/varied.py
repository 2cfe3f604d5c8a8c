"""Data version 2 of a world's questions: the shapes people ask, many wordings, balanced yes/no, facts stated.

Version 1 (`questions.make_questions`) is the data the shipped adapters were trained on and stays byte for byte as
it was. Version 2 (``world.generate(seed, size, version=2, wording=...)``) is the data the next training uses:

- bridges are walks along the world's links (work -> maker -> birthplace -> ...), 2 or 3 hops, ending on a
  who / which / when / where question;
- comparisons ask which came first or *how many years before*; "are both" and yes/no questions alternate their
  answers (half yes, half no) and the answer is decided by the sentence read;
- every question is a spec rendered by `wordings` in a trained or a held-out wording; the choice of questions does
  not depend on the wording, so one seed gives the same questions, facts and gold in both;
- the oracle's last thought states the fact just read and names the values it compares before it compares
  them (`conclude`); a chain's thoughts keep the rest of its plan (`oracle.later`).

    >>> from react_teach import world
    >>> a, b = (world.generate(5, 20, version=2, wording=s) for s in ("trained", "heldout"))
    >>> [q["answer"] for q in a.questions] == [q["answer"] for q in b.questions]
    True
    >>> sum(q["question"] != p["question"] for q, p in zip(a.questions, b.questions)) >= 18
    True
    >>> sorted({q["answer"] for q in a.questions if q["shape"] == "yesno"})
    ['no', 'yes']
"""
from __future__ import annotations

import random
from collections import Counter

from .entities import OCCUPATIONS
from .questions import LEVEL, ORGWORD, ROLE, TYPE, _pick, a_or_an, np, pick, recoveries, sentence_rel, slot, value
from .wordings import choose, render

KIND_CYCLE = ["bridge2", "yesno", "both", "bridge3", "first", "bridge2", "yesno", "gap", "bridge3", "both",
              "bridge2", "yesno", "first", "bridge3", "bridge2", "both", "yesno", "gap", "bridge3", "bridge2"]
TYPES = {**TYPE, "gap": "comparison"}
LEVELS = {**LEVEL, "gap": "medium"}
EDGES = {"work": ("creator", "org", "place"), "person": ("birthplace", "spouse"), "org": ("seat", "founder")}
ASKS = {"person": ("birthplace", "born", "spouse", "occupation"), "town": ("country", "founded", "river"),
        "org": ("founded", "seat", "founder")}
MADE = {"novel": "wrote", "film": "directed", "album": "recorded"}
# (entity type, date relation, wh-word, what happened, and its question form: "did ... come out")
DATES = [("work", "year", "which", "came out", "did", "come out"), ("town", "founded", "which", "was founded", "was",
         "founded"), ("org", "founded", "which", "was founded", "was", "founded"),
         ("person", "born", "who", "was born", "was", "born")]
CREATED = {"novel": "written", "film": "directed", "album": "sung"}


def _link(e: dict, rel: str) -> dict:
    """What a description needs to name the thing `rel` leads to from `e` ("the author", "the label")."""
    k = e.get("kind")
    if rel == "creator":
        return {"rel": rel, "role": ROLE[k], "made": MADE[k]}
    if rel == "org":
        return {"rel": rel, "org": ORGWORD[k]}
    if rel == "place":
        verb = "was recorded" if k == "album" else "is set"
        return {"rel": rel, "happens": verb, "happens_in": verb + " in"}
    return {"rel": rel}


def _candidate(w, r: random.Random, kind: str, short: bool, yes: bool):
    """(key, answer, reads, check, spec) for one random question of `kind`, or None if this draw does not fit."""
    E, by = w.entities, {}
    for e in E.values():
        by.setdefault(e["type"], []).append(e)
    name = lambda e: np(e) if e["type"] == "work" else (e["short"] if short and e.get("short") else e["title"])  # noqa: E731
    rd = lambda e, rel, first: (e["title"], rel, (e["name"] if e["type"] == "work" else name(e)) if first else None)  # noqa: E731
    if kind in ("bridge2", "bridge3"):
        e = r.choice([x for t in EDGES for x in by[t]])
        start, reads, chain = name(e), [], []
        for h in range(int(kind[-1]) - 1):
            rel = r.choice(EDGES.get(e["type"], ("none",)))
            if not e.get(rel) or rel == "spouse" and chain and chain[-1]["rel"] == "spouse":  # no way back
                return None
            reads.append(rd(e, rel, h == 0))
            chain.append(_link(e, rel))
            e = E[e[rel]]
        asks = [a for a in ASKS.get(e["type"], ()) if e.get(a) and not (a == "spouse" == chain[-1]["rel"])]
        if not asks:
            return None
        ask = r.choice(asks)
        reads.append(rd(e, ask, False))
        spec = {"shape": "bridge", "start": start, "chain": chain, "ask": ask}
        return (kind, tuple(reads)), value(e, ask), reads, None, spec
    if kind in ("first", "gap"):
        typ, rel, wh, v, aux, verb = r.choice(DATES)
        a, b = r.sample(by[typ], 2)
        if value(a, rel) == value(b, rel) or a.get("name", 1) == b.get("name", 2):
            return None
        early, late = sorted((a, b), key=lambda e: int(value(e, rel)))
        if kind == "gap":
            a, b = early, late  # "how many years before {b} ... {a}": a is the earlier one
        answer = str(int(value(late, rel)) - int(value(early, rel))) if kind == "gap" else \
            (early["name"] if typ == "work" else name(early))
        spec = {"shape": kind, "wh": wh, "v": v, "aux": aux, "verb": verb, "a": name(a), "b": name(b)}
        return (kind, a["title"], b["title"]), answer, [rd(a, rel, 1), rd(b, rel, 1)], (kind, rel), spec
    if kind == "both":
        typ, rel = r.choice([("person", "occupation"), ("town", "country"), ("org", "seat")])
        a = r.choice(by[typ])
        b = _pick(r, by[typ], lambda e: e is not a and (e[rel] == a[rel]) == yes)
        if b is None:
            return None
        d = {"occupation": OCCUPATIONS.get(a[rel]), "country": f"in {a[rel]}", "seat": f"based in {a[rel]}"}[rel]
        spec = {"shape": "both", "a": name(a), "b": name(b), "d": d}
        return (kind, a["title"], b["title"]), "yes" if yes else "no", [rd(a, rel, 1), rd(b, rel, 1)], \
            ("both", d), spec
    # yes/no about one fact: the value asked about is the true one half of the time, another of its kind otherwise
    c = r.randrange(6)
    if c == 2:
        e = r.choice(by["town"])
        gap = r.randint(3, 90)
        v, rel, key = str(e["founded"] + (gap if yes else -gap)), "founded", "before"
    else:
        typ, rel = [("person", "birthplace"), ("work", "place"), None, ("person", "spouse"), ("town", "country"),
                    ("work", "creator")][c]
        e = _pick(r, by[typ], lambda x: x.get(rel))
        others = [x[rel] for x in by[typ] if x.get(rel) and x[rel] != e[rel]]
        if rel in ("spouse", "creator"):  # another person, never the asker
            others = [x for x in others if x != e["title"]]
        if not others:
            return None
        v = e[rel] if yes else r.choice(others)
        key = {"place": "recorded" if e.get("kind") == "album" else "set",
               "creator": CREATED.get(e.get("kind"))}.get(rel, rel)
    spec = {"shape": "yesno", "rel": key, "x": name(e), "v": v}
    return (kind, e["title"], key, v), "yes" if yes else "no", [rd(e, rel, 1)], ("yesno", key, v), spec


def make_questions(w, r: random.Random, wording: str) -> None:
    """Version-2 questions of `w` in the `wording` split ("trained" or "heldout"); the same questions in both."""
    seen, asked = set(), Counter()
    for i in range(w.size):
        kind = KIND_CYCLE[i % 20]
        yes = asked[kind] % 2 == 0  # yes/no and "are both" alternate: half their answers are yes
        asked[kind] += 1
        _, answer, reads, check, spec = pick(w, slot(i), seen, lambda short: _candidate(w, r, kind, short, yes))
        qid = f"world{w.seed}-{i:04d}"
        choice = choose(spec, wording, random.Random(f"wording {w.seed} {qid} {wording}"))
        w.questions.append({"id": qid, "question": render(spec, choice), "answer": answer, "type": TYPES[kind],
                            "level": LEVELS[kind], "shape": kind, "wording": wording, "hops": len(reads),
                            "recovery": recoveries(w, reads), "supporting_facts": [
                                [t, w.entities[t]["idx"][sentence_rel(rel)]] for t, rel, _ in reads]})
        w.plans[qid] = {"kind": kind, "reads": reads, "check": check, "answer": answer, "spec": spec,
                        "choice": choice}


def aim(plan: dict) -> str:
    """What the first thought adds to its plan: the check that turns the facts read into the answer.

    It carries the question's shape into the trajectory, so that the steps after it follow the thought, which is
    always in the oracle's words, rather than the question, which may be in a wording never trained on.

    >>> aim({"kind": "yesno", "check": ("yesno", "set", "Labammouth")})
    'Then I check whether it is Labammouth.'
    >>> aim({"kind": "bridge2", "check": None})
    ''
    """
    kind, check = plan["kind"], plan["check"]
    if kind == "yesno":
        return f"Then I check whether it is {'before ' if check[1] == 'before' else ''}{check[2]}."
    if kind == "both":
        return f"Then I check whether both are {check[1]}."
    return {"first": "Then I compare the two years: the earlier one is the answer.",
            "gap": "Then I subtract the earlier year from the later one."}.get(kind, "")


def conclude(plan: dict, ents: dict, facts: list[str], written: bool = False) -> str:
    """The oracle's last thought: it states the fact just read in its own words, then says the answer.

    It opens as every thought after a read opens, with that fact ("Lathasby lies on the Topir river."), so whether
    to read on or to answer is decided after the value is written, not before. A quote would come first and ask the
    model to pick one of five sentences before it has named what it looks for; on dev that picked the wrong one.
    Where two pages decide, it names both values in the order read before any word that depends on comparing them
    ("and" / "but", which one first): a small model has to write what it compares before it can compare it. Two
    years are each written before their owner, "1390 (Gezinby)", so that the owner of the earlier year is copied
    from just after it (on dev, which-came-first rose from 2 to 7 of 12 with this).

    >>> conclude({"kind": "bridge2", "check": None, "answer": "Topir"}, {}, ["Lathasby lies on the Topir river"])
    'Lathasby lies on the Topir river. So the answer is Topir.'
    >>> towns = {"Drelilgard": {"type": "town", "founded": 1398}, "Gezinby": {"type": "town", "founded": 1390}}
    >>> conclude({"kind": "first", "check": ("first", "founded"), "answer": "Gezinby",
    ...           "reads": [("Drelilgard", "founded", "Drelilgard"), ("Gezinby", "founded", "Gezinby")]}, towns, [])
    'The years are 1398 (Drelilgard) and 1390 (Gezinby). The earlier is 1390 (Gezinby), so the answer is Gezinby.'

    `written` (data version 3) writes each check out before the verdict: a difference of years column by column
    (`written_subtraction`), two years digit by digit (`written_comparison`), and the value read beside the value
    asked ("Avimondale is not Thobralmere"). On dev the shipped adapter, which writes "1550 minus 1433 is" and then
    a number, got none of 20 how-many-years questions right, and said "1881 is not before 1909".

    >>> conclude({"kind": "first", "check": ("first", "founded"), "answer": "Gezinby",
    ...           "reads": [("Drelilgard", "founded", "Drelilgard"), ("Gezinby", "founded", "Gezinby")]}, towns, [],
    ...          written=True)  # doctest: +NORMALIZE_WHITESPACE
    'The years are 1398 (Drelilgard) and 1390 (Gezinby). Comparing 1398 with 1390 from the left: 1 = 1, 3 = 3, 9 = 9,
     8 > 0, so the earlier is 1390 (Gezinby). So the answer is Gezinby.'
    """
    kind, check, ans = plan["kind"], plan["check"], plan["answer"]
    if kind in ("first", "gap", "both"):  # two pages decide these, one page the others
        rel = plan["reads"][0][1]
        (ta, _, a), (tb, _, b) = plan["reads"]
        va, vb = value(ents[ta], rel), value(ents[tb], rel)
        if kind == "both":
            word = {"occupation": a_or_an, "country": lambda v: f"in {v}", "seat": lambda v: f"based in {v}"}[rel]
            both = f"{a} is {word(va)} and {b} is {word(vb)}."
            return f"{both} Both are {check[1]}, so the answer is yes." if ans == "yes" else \
                f"{both} They are not both {check[1]}, so the answer is no."
        # each year before its owner (see the docstring): the answer is copied from just after the year chosen
        (vx, x), (vy, _) = sorted(((va, a), (vb, b)), key=lambda p: int(p[0]))
        listed = f"The years are {va} ({a}) and {vb} ({b})."
        if kind == "gap":
            if written:
                return f"{listed} {written_subtraction(int(vy), int(vx))} So the answer is {ans}."
            return f"{listed} {vy} minus {vx} is {ans}, so the answer is {ans}."
        if written:  # in the order read: which is earlier is decided at the first digit that differs, not before
            return f"{listed} {written_comparison(int(va), int(vb))}, so the earlier is {vx} ({x}). So the " \
                   f"answer is {ans}."
        return f"{listed} The earlier is {vx} ({x}), so the answer is {ans}."
    head = f"{facts[-1]}."  # one page decides the rest: its fact opens the thought
    if kind == "yesno":
        (title, rel, _), = plan["reads"]
        true, v = value(ents[title], rel), check[2]
        verdict = "is" if ans == "yes" else "is not"
        if check[1] == "before" and written:
            return f"{head} {written_comparison(int(true), int(v))}, so {true} {verdict} before {v}. So the " \
                   f"answer is {ans}."
        if check[1] == "before":
            return f"{head} {true} {verdict} before {v}, so the answer is {ans}."
        # written, the value read comes before the value asked: the verdict sits between the two names it compares
        return f"{head} {true if written else 'That'} {verdict} {v}, so the answer is {ans}."
    return f"{head} So the answer is {ans}."


COLUMNS = ("units", "tens", "hundreds", "thousands")


def written_subtraction(top: int, bottom: int) -> str:
    """`top` minus `bottom` as it is done on paper: one column at a time from the units, each borrow said.

    Every step is a fact about single digits, which a small model knows; the difference is then read off the
    columns. Years only: four digits at most.

    >>> print(written_subtraction(1550, 1433).replace("; ", ";\\n"))
    1550 minus 1433: units 0 - 3, borrow, 10 - 3 = 7;
    tens 5 - 1 - 3 = 1;
    hundreds 5 - 4 = 1;
    thousands 1 - 1 = 0. That is 117.
    >>> written_subtraction(2003, 1999).split(": ")[1].split("; ")[1]
    'tens 0 - 1 - 9, borrow, 10 - 1 - 9 = 0'
    """
    a, b = str(top), str(bottom)
    if not 0 <= bottom <= top or len(a) > len(COLUMNS):
        raise ValueError(f"written_subtraction takes two years, the later first, not {top} and {bottom}")
    b = b.rjust(len(a), "0")
    steps, borrow = [], 0
    for name, x, y in zip(COLUMNS, map(int, reversed(a)), map(int, reversed(b))):
        less = f" - {borrow}" if borrow else ""
        if x - borrow < y:  # this column takes ten from the next one
            steps.append(f"{name} {x}{less} - {y}, borrow, {x + 10}{less} - {y} = {x + 10 - borrow - y}")
            borrow = 1
        else:
            steps.append(f"{name} {x}{less} - {y} = {x - borrow - y}")
            borrow = 0
    return f"{top} minus {bottom}: {'; '.join(steps)}. That is {top - bottom}."


def written_comparison(a: int, b: int) -> str:
    """Two years compared digit by digit from the left, up to the first digit that differs.

    >>> written_comparison(1881, 1909)
    'Comparing 1881 with 1909 from the left: 1 = 1, 8 < 9'
    >>> written_comparison(1753, 1753)
    'Comparing 1753 with 1753 from the left: 1 = 1, 7 = 7, 5 = 5, 3 = 3, the same year'
    """
    x, y = str(a), str(b)
    if len(x) != len(y):
        raise ValueError(f"written_comparison takes two years of as many digits, not {a} and {b}")
    said = []
    for p, q in zip(x, y):
        said.append(f"{p} {'=' if p == q else '<' if p < q else '>'} {q}")
        if p != q:
            break
    else:
        said.append("the same year")
    return f"Comparing {a} with {b} from the left: {', '.join(said)}"
