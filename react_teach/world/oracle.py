"""The oracle: a correct ReAct trajectory for a world's question or claim, written through the real `WikiEnv`.

Every Observation is what the tool returned; only the Thoughts and Actions are the oracle's. Its thoughts are in
the paper's style (decompose the question, pick out the fact, recover from a failed search, conclude), in wordings
chosen from the seed, and every thought says what it will do next, so that the action follows from it.

    >>> from react_teach import world
    >>> w = world.generate(2, 12)
    >>> t = world.oracle(w, w.questions[0])
    >>> t.answer == w.questions[0]["answer"], t.steps[0].action.startswith("Search[")
    (True, True)
"""
from __future__ import annotations

import random

from react_teach.trajectory import Step, Trajectory
from react_teach.wiki import WikiEnv

from .articles import keyword
from .entities import OCCUPATIONS, World
from .questions import ORGWORD, ROLE, a_or_an, fact, sentence_rel, value
from .varied import aim, conclude

NEI_KEYWORD = {"plays the violin": "violin", "keeps bees": "bees", "has climbed a mountain": "mountain",
               "owns a sailing boat": "boat", "won a chess prize": "chess"}
NOUN = {"birthplace": "that town", "place": "that town", "seat": "that town", "spouse": "the spouse",
        "parent": "the parent", "founder": "the founder"}


def goal(e: dict, rel: str, x: str) -> str:
    """What the next step must find out, as a clause: 'where Velmora Tarin was born'."""
    k = e.get("kind")
    return {"birthplace": f"where {x} was born", "born": f"when {x} was born", "spouse": f"who {x} is married to",
            "parent": f"who the parent of {x} is", "occupation": f"what {x} does for a living",
            "country": f"which country {x} is in", "founded": f"when {x} was founded",
            "river": f"which river {x} lies on", "creator": {"novel": f"who wrote {x}", "film": f"who directed {x}",
                                                             "album": f"who recorded {x}"}.get(k),
            "year": f"when {x} came out", "org": {"novel": f"who published {x}", "film": f"which studio made {x}",
                                                  "album": f"which label released {x}"}.get(k),
            "place": f"where {x} was recorded" if k == "album" else f"where {x} is set",
            "seat": f"where {x} is based", "founder": f"who founded {x}"}[rel]


def noun(e: dict, rel: str) -> str:
    """How a decomposition names the result of a read it has not made yet: 'the director', 'that town'."""
    if rel == "creator":
        return "the " + ROLE[e["kind"]]
    if rel == "org":
        return "the " + ORGWORD[e["kind"]]
    return NOUN.get(rel, "it")


def later(reads: list, ents: dict, j: int) -> list[str]:
    """The goals of a chain's reads after read `j`, each naming what the read before it finds ('the singer').

    >>> from react_teach import world
    >>> w = world.generate(2, 40, version=2)
    >>> plan = next(p for p in w.plans.values() if p["kind"] == "bridge3")
    >>> len(later(plan["reads"], w.entities, 0)), later(plan["reads"], w.entities, 2)
    (2, [])
    """
    out, prev = [], (ents[reads[j][0]], reads[j][1])
    for title, rel, _ in reads[j + 1:]:
        out.append(goal(ents[title], rel, noun(*prev)))
        prev = (ents[title], rel)
    return out


def _decompose(r, plan, ents, first: str) -> str:
    reads, kind = plan["reads"], plan["kind"]
    e0, rel0 = ents[reads[0][0]], reads[0][1]
    if rel0 is None:  # a claim about something the page may not say
        return f"I need to search {first} and find whether the page says {first} {plan['nei']}."
    g0 = goal(e0, rel0, "it" if e0["type"] == "work" and kind not in ("first", "both", "gap") else first)
    if kind in ("first", "both", "gap"):
        b = ents[reads[1][0]]
        second = reads[1][2]
        return r.choice([f"I need to search {first} and {second} and find {g0} and {goal(b, rel0, second)}. "
                         f"I need to search {first} first.",
                         f"I need to find {g0} and {goal(b, rel0, second)}, then compare. "
                         f"I will search {first} first."])
    if kind in ("bridge2", "bridge3"):
        rest = ", then ".join(later(reads, ents, 0))
        plans = [f"I need to search {first}, find {g0}, then find {rest}.",
                 f"First I need to search {first} and find {g0}. Then I need to find {rest}."]
        if "spec" in plan:  # version 2 lists the goals without counting them first: a model trained on the count
            return r.choice(plans)  # wrote "This needs 2 facts." on every 3-hop question, and stopped at 2
        return r.choice(plans + [f"This needs {len(reads)} facts. I need to search {first} first and find {g0}, "
                                 f"then {rest}."])
    return r.choice([f"I need to search {first} and find {g0}.", f"I should search {first} to find {g0}."])


def _conclude(r, plan, ents, facts: list[str]) -> str:
    kind, check, ans, reads = plan["kind"], plan["check"], plan["answer"], plan["reads"]
    last = facts[-1] if facts else ""
    if kind == "first":
        a, b = (ents[t] for t, _, _ in reads)
        rel = check[1]
        x, y = sorted((a, b), key=lambda e: int(value(e, rel)))
        return f"{last}. {value(x, rel)} is earlier than {value(y, rel)}, so the answer is {ans}."
    if kind == "both":
        rel = reads[0][1]
        desc = {"occupation": OCCUPATIONS.get(check[1]), "country": f"in {check[1]}",
                "seat": f"based in {check[1]}"}[rel]
        return f"{last}. " + (f"Both are {desc}, so the answer is yes." if ans == "yes" else
                              f"They are not both {desc}, so the answer is no.")
    if check and check[0] == "is":
        return (f"{last}. So the answer is yes." if ans == "yes" else f"{last}, not {check[1]}. So the answer is no.")
    if check and check[0] == "before":
        e = ents[reads[0][0]]
        word = "before" if ans == "yes" else "not before"
        return f"{last}. {e['founded']} is {word} {check[1]}, so the answer is {ans}."
    if kind == "claim":
        if ans == "NOT ENOUGH INFO":
            return f"Nothing on the page mentions {plan['nei_kw']}, so the answer is {ans}."
        return f"{last}. " + ("This agrees with the claim" if ans == "SUPPORTS" else "This contradicts the claim") + \
            f", so the answer is {ans}."
    return r.choice([f"{last}. So the answer is {ans}.", f"{last}, so the answer is {ans}."])


def late(e: dict, rel: str) -> bool:
    """Whether the sentence of `rel` on `e`'s page sits past the five a search shows, so that only a lookup reads it."""
    return e["idx"][sentence_rel(rel)] >= 5


def needs_lookup(w: World, q: dict) -> bool:
    """Whether the oracle must look up to answer `q`: one of the facts it reads sits past the first five sentences.
    (About one question in seven; the late facts are the articles' choice, see `articles.article`.)

    >>> from react_teach import world
    >>> w = world.generate(2, 40, version=2)
    >>> [needs_lookup(w, q) for q in w.questions] == [any(s.action.startswith("Lookup[") for s in
    ...     world.oracle(w, q).steps) for q in w.questions]
    True
    """
    return any(rel is not None and late(w.entities[t], rel) for t, rel, _ in w.plans[q["id"]]["reads"])


def recovery(r: random.Random, typed: str, title: str) -> str:
    """The thought after a search for `typed` missed and the tool's similar titles listed `title` (data version 2
    and the prose set). The title comes last, just before the action that copies it: version 1's wording ends
    "search {title} from the similar titles", and a model trained on it searched "Turkey from the similar titles".

    >>> recovery(random.Random(0), "Kurosawa", "Akira Kurosawa")
    'Kurosawa is not a title, but the similar titles list Akira Kurosawa. I need to search Akira Kurosawa.'
    """
    return r.choice([f"There is no page {typed}. Of the similar titles, {title} is the one I need, so I need to "
                     f"search {title}.",
                     f"{typed} is not a title, but the similar titles list {title}. I need to search {title}."])


def aimed(e: dict, rel: str, title: str, said: str | None = None) -> str:
    """A thought's opening after a read (data version 6): what the read was for, then the value the page gives, or
    `said` (a sentence, its first letter lowered here) where it gives none yet. The shipped adapter, whose thought
    opens with the fact itself, wrote "Truti Vabratho was born in 2013" over a page that gives no year, where a
    lookup was due: it looked up on 12 of the 40 dev questions (4 worlds x 75, trained wording) whose fact sits past
    the first five sentences. Here whether the page says it is decided after the model has written what it looks
    for, and the thought is no longer than a fact: the value stands for the sentence. Trained on it (tryAE), the
    adapter looked up on 33 of those 40 and got 27 right where the shipped one got 12 (17 against 2, sign test
    p < 0.001), the other 260 unchanged. In held-out phrasings it looks up the trained word ("born"), which those
    articles do not use, and the 40 stay at 10 to 12.

    >>> e = {"type": "person", "title": "Truti Vabratho", "born": 1959}
    >>> aimed(e, "born", e["title"])
    'When Truti Vabratho was born: 1959'
    >>> aimed(e, "born", e["title"], "The first sentences do not say, so I need to look up born.")
    'When Truti Vabratho was born: the first sentences do not say, so I need to look up born.'
    """
    g = goal(e, rel, e.get("name", title))
    if said is None:
        v = value(e, rel)
        said = a_or_an(v) if rel == "occupation" else f"the {v} river" if rel == "river" else v
    else:
        said = said[0].lower() + said[1:]
    return f"{g[0].upper()}{g[1:]}: {said}"


def usual(e: dict, rel: str) -> str:
    """The word a lookup for `rel` tries first (data version 7): the relation's own, which a model knows before it
    has read the sentence. Version 6 looked up the word of the sentence's phrasing, which only the page shows.

    >>> usual({"type": "person"}, "birthplace"), usual({"type": "work", "kind": "film"}, "year")
    ('born', 'came out')
    """
    try:
        return keyword(e, rel)
    except KeyError:  # a relation no version-1 article put late has no usual word: its phrasing's word stands in
        return e["kw"][rel]


def year_of(e: dict, rel: str) -> int | None:
    """The year the sentence of `rel` gives, if it gives one: a birthplace sentence also says when."""
    return {"birthplace": e.get("born"), "founded": e.get("founded"), "year": e.get("year")}.get(rel)


def _look_up(e: dict, rel: str, title: str, kw: str, target: str, act, r: random.Random, aim_first: bool,
             second_word: bool) -> str:
    """Look up a late fact until a result gives its sentence `target`; the last observation.

    Versions 3 and 6 look up the word of the sentence's phrasing (`kw`), which only the page shows. With
    `second_word` (data version 7) the first word is the relation's usual one, and where no sentence has it, a second.
    Version 6 (tryAE) looked up the trained word in held-out phrasings ("first saw daylight in ...", "The first
    stones of the town were laid in ...") and, on "No more results.", looked it up again: 44 of the 300 held-out dev
    rows had a lookup that found nothing, against 21 for the shipped adapter. The second word is "1" where the
    sentence gives a year with a 1 in it (every year in a world but 2000 to 2009 and 2020): the paper's lookup matches
    any part of a sentence, so "1" reaches the years, whatever the phrasing. Elsewhere it is the phrasing's own word,
    a trained synonym for the model to guess. Trained on it (tryAF), the adapter got 17 of the 40 held-out dev
    questions with a late fact right, where the shipped one got 12 and tryAE 10.
    """
    sr = sentence_rel(rel)
    first = usual(e, sr) if second_word else kw
    if aim_first:
        thought = aimed(e, rel, title, r.choice([f"The first sentences do not say, so I need to look up {first}.",
                                                 f"Nothing here says it; I need to look up {first}."]))
    else:
        g = goal(e, rel, e.get("name", title))
        thought = r.choice([f"The first sentences do not mention {g}, so I need to look up {first}.",
                            f"Nothing here mentions {g}; I need to look up {first}."])
    word, obs = first, act(thought, f"Lookup[{first}]")
    while target not in obs:
        if obs.startswith("(Result"):
            said = f"That is a different sentence, so I need to look up {word} again."
        elif second_word and word == first:  # "No more results.": the page words it some other way
            year = year_of(e, sr)
            word = "1" if year and "1" in str(year) else kw
            if word == first:
                raise RuntimeError(f"{title}: {first!r} reaches no sentence, and it is the phrasing's own word")
            said = (f"No sentence has {first}; the sentence I need gives a year, so I need to look up {word}."
                    if word == "1" else f"No sentence has {first}, so I need to look up {word}.")
        else:
            raise RuntimeError(f"{title}: no lookup of {word!r} reaches {target!r}")
        obs = act(aimed(e, rel, title, said) if aim_first else said, f"Lookup[{word}]")
    return obs


def trajectory(w: World, q: dict, wiki, written: bool = False, aim_first: bool = False, second_word: bool = False
               ) -> Trajectory:
    qid = q["id"]
    plan = dict(w.plans[qid])
    if written and "spec" not in plan:
        raise ValueError(f"{qid}: written checks need a version 2 world (version 1 stays as the first adapters "
                         "read it)")
    ents = w.entities
    task = "fever" if "claim" in q else "hotpotqa"
    if task == "fever" and plan["reads"][0][1] is None:
        plan["nei"] = q["claim"][len(plan["reads"][0][0]) + 1:-1]
        plan["nei_kw"] = NEI_KEYWORD[plan["nei"]]
    r = random.Random(f"oracle {w.seed} {qid}")
    env, steps, facts, here = WikiEnv(wiki), [], [], None

    def act(thought: str, action: str) -> str:
        obs, _ = env.step(action[:1].lower() + action[1:])
        steps.append(Step(thought, action, obs))
        return obs

    for j, (title, rel, query) in enumerate(plan["reads"]):
        e = ents[title]
        if here != title:
            s = query or title
            if j == 0:
                thought = _decompose(r, plan, ents, s)
                if "spec" in plan:  # version 2 says how the facts will decide (a bridge adds nothing)
                    thought = f"{thought} {aim(plan)}".rstrip()
            else:
                x = e["name"] if e["type"] == "work" else s
                todo = goal(e, rel, x)
                if "spec" in plan and plan["kind"] in ("bridge2", "bridge3"):
                    # version 2 keeps the rest of a chain's plan in view: at the next page, whether to read on or
                    # to answer is then next to what is still to find, not three thoughts back in the first one
                    todo = ", then ".join([todo] + later(plan["reads"], ents, j))
                thought = r.choice(["{} I need to search {} and find {}.", "{} Next I need to search {} to find {}.",
                                    "{} So I need to search {} and find {}."]).format(facts[-1] + ".", s, todo)
            obs = act(thought, f"Search[{s}]")
            if obs.startswith("Could not find"):
                if f"'{title}'" not in obs:
                    raise RuntimeError(f"{qid}: {title!r} is not among the similar titles: {obs}")
                if e["type"] == "work":
                    thought = r.choice([f"{s} has more than one page, so I need to search {title} instead.",
                                        f"There are several pages called {s}; I need to search {title}."])
                elif "spec" in plan:
                    thought = recovery(r, s, title)
                else:
                    thought = r.choice([f"I could not find {s}, so I need to search {title} from the similar titles.",
                                        f"There is no page {s}, so I need to search {title}, the closest similar title."])
                obs = act(thought, f"Search[{title}]")
            here = title
        if rel is None:  # a claim the page cannot settle: look for its keyword and find nothing
            obs = act(f"The first sentences do not mention it, so I need to look up {plan['nei_kw']}.",
                      f"Lookup[{plan['nei_kw']}]")
            if obs != "No more results.":
                raise RuntimeError(f"{qid}: {plan['nei_kw']!r} is on the page {title}")
            break
        target = e["text"][e["idx"][sentence_rel(rel)]].rstrip(".")
        if late(e, rel):
            kw = e.get("kw", {}).get(sentence_rel(rel)) or keyword(e, sentence_rel(rel))  # version 2 records its own
            obs = _look_up(e, rel, title, kw, target, act, r, aim_first, second_word)
        if target not in obs:
            raise RuntimeError(f"{qid}: the oracle did not reach {target!r}")
        facts.append(aimed(e, rel, title) if aim_first else fact(e, rel, value(e, rel)))
    answer = plan["answer"]
    if "spec" not in plan:  # version 1, as the shipped adapters learned it: no line after the Finish
        steps.append(Step(_conclude(r, plan, ents, facts), f"Finish[{answer}]", None))
    else:  # version 2: its Finish gets the tool's reply, so a model learns to stop at "Observation k:"
        act(conclude(plan, ents, facts, written), f"Finish[{answer}]")
    return Trajectory(q.get("question", q.get("claim")), steps, answer, task=task)
