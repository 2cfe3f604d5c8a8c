"""Many wordings of one question, and a held-out subset of them that no training world ever uses.

A question of a generated world (data version 2, see `varied`) is kept as a *spec*: its shape and the names and
values it mentions. `render(spec, choice)` writes it in one wording; `choose(spec, split, rng)` picks a wording of
a split. Every pool has at least 8 templates; the last `HELD` of each pool are the **held-out** split, the others
the **trained** split. Training worlds only ever use the trained split (`finetune` refuses the other), so scoring
the same questions in both splits shows how much of a score is the wording rather than the reading.

    >>> spec = {"shape": "bridge", "start": "the novel Marrow", "ask": "birthplace",
    ...         "chain": [{"rel": "creator", "role": "author", "made": "wrote"}]}
    >>> render(spec, {"ask": 0, "chain": [0]})
    'In which town was the author of the novel Marrow born?'
    >>> render(spec, {"ask": 12, "chain": [11]})
    'In what town did the individual who wrote the novel Marrow come into the world?'
    >>> import random
    >>> c = choose(spec, "heldout", random.Random(0))
    >>> c["ask"] >= len(ASK["birthplace"]) - HELD and all(j >= len(DESCRIBE["creator"]) - HELD for j in c["chain"])
    True
    >>> render({"shape": "yesno", "rel": "spouse", "x": "Velmo Tarin", "v": "Dura Kell"}, {"frame": 1})
    'Is it true that Velmo Tarin is married to Dura Kell?'
"""
from __future__ import annotations

import random

SPLITS = ("trained", "heldout")
HELD = 3  # the last three templates of every pool are held out

# The question for one fact of the thing named by {x} (a name, or a description such as "the author of ...").
ASK = {
    "birthplace": ["In which town was {x} born?", "Where was {x} born?", "What is the birthplace of {x}?",
                   "Which town is {x} from?", "{X} was born in which town?", "What town was {x} born in?",
                   "Name the town where {x} was born.", "Which town saw the birth of {x}?",
                   "Tell me the town {x} was born in.", "{X} was born where?",
                   "Where does {x} come from?",
                   "Which town was the birthplace of {x}?", "In what town did {x} come into the world?"],
    "born": ["In what year was {x} born?", "When was {x} born?", "What year was {x} born in?",
             "{X} was born in which year?", "In which year was {x} born?", "What is the birth year of {x}?",
             "Give the year {x} was born.", "What was the year of birth of {x}?", "Tell me the year {x} was born.",
             "{X} was born when?",
             "How about {x}: born in what year?", "When did {x} come into the world?",
             "Which year saw the birth of {x}?"],
    "spouse": ["Who is the spouse of {x}?", "Who is {x} married to?", "To whom is {x} married?",
               "Who did {x} marry?", "Name the spouse of {x}.", "Who is the husband or wife of {x}?",
               "{X} is married to whom?", "Tell me who {x} is married to.", "Who is {x}'s spouse?",
               "{X} married whom?",
               "Whom has {x} married?", "Who is wed to {x}?",
               "Which person is the partner in marriage of {x}?"],
    "occupation": ["What is the occupation of {x}?", "What does {x} do for a living?", "What is {x}'s job?",
                   "What work does {x} do?", "{X} works as what?", "What is the profession of {x}?",
                   "Name the occupation of {x}.", "What job does {x} have?", "Tell me what {x} does for work.",
                   "What line of work is {x} in?",
                   "What kind of work does {x} do?", "How does {x} earn a living?",
                   "What trade does {x} follow?"],
    "country": ["In which country is {x}?", "Which country is {x} in?", "What country is {x} in?",
                "{X} is in which country?", "In what country does {x} lie?", "Name the country of {x}.",
                "Which country does {x} belong to?", "Tell me the country {x} is in.", "{X} lies in which country?",
                "Which country contains {x}?",
                "Where, by country, is {x}?", "What nation is {x} part of?",
                "In which land does {x} lie?"],
    "founded": ["In what year was {x} founded?", "When was {x} founded?", "What year was {x} founded in?",
                "{X} was founded in which year?", "In which year was {x} founded?", "What is the founding year of {x}?",
                "Give the year {x} was founded.", "Tell me when {x} was founded.", "{X} dates from which year?",
                "In what year was {x} set up?",
                "When did {x} come into being?", "Since what year has {x} existed?",
                "In which year did {x} begin?"],
    "river": ["On which river lies {x}?", "Which river does {x} lie on?", "What river runs through {x}?",
              "{X} lies on which river?", "Name the river of {x}.", "On what river is {x}?",
              "Which river flows through {x}?", "Tell me the river {x} lies on.", "{X} stands on which river?",
              "Which river passes through {x}?",
              "By which river does {x} stand?", "What is the river at {x}?",
              "Along which river was {x} built?"],
    "seat": ["Where is {x} based?", "In which town is {x} based?", "Which town is {x} based in?",
             "{X} is based in which town?", "In what town does {x} have its seat?", "Name the town where {x} is based.",
             "What town is home to {x}?", "Tell me the town where {x} is based.", "{X} has its seat in which town?",
             "Which town is the base of {x}?",
             "Where does {x} have its offices?", "Which town houses {x}?",
             "From which town does {x} operate?"],
    "founder": ["Who founded {x}?", "Who is the founder of {x}?", "Who set up {x}?", "{X} was founded by whom?",
                "Name the founder of {x}.", "By whom was {x} founded?", "Which person founded {x}?",
                "Tell me who founded {x}.", "{X} was set up by whom?", "Who was the founder of {x}?",
                "Who started {x}?", "Who established {x}?", "Whose creation is {x}?"],
    "year": ["In what year did {x} come out?", "When did {x} come out?", "What year did {x} come out?",
             "{X} came out in which year?", "In which year was {x} released?", "Give the year {x} came out.",
             "When was {x} first released?", "Tell me the year {x} came out.", "{X} was released in which year?",
             "Which year did {x} come out in?",
             "What is the release year of {x}?", "When did {x} first appear?",
             "In which year did {x} reach the public?"],
}

# The thing one fact leads to, as a noun phrase about {x}: "the author of the novel Marrow".
DESCRIBE = {
    "creator": ["the {role} of {x}", "the person who made {x}", "the {role} behind {x}", "{x}'s {role}",
                "the {role} who made {x}", "the maker of {x}", "the one who made {x}", "the artist behind {x}",
                "the {role} responsible for {x}", "the person credited with {x}",
                "whoever made {x}",
                "the individual who {made} {x}", "the creative mind behind {x}"],
    "org": ["the {org} of {x}", "the {org} behind {x}", "{x}'s {org}", "the {org} that released {x}",
            "the {org} that put out {x}", "the company behind {x}", "the {org} responsible for {x}",
            "the {org} that made {x}", "the {org} that produced {x}", "the business behind {x}",
            "the {org} that worked on {x}", "the firm that brought out {x}", "the company that released {x}"],
    "spouse": ["the spouse of {x}", "{x}'s spouse", "the person married to {x}", "the partner of {x}",
               "the one married to {x}", "the husband or wife of {x}", "the person {x} is married to",
               "the wife or husband of {x}", "the marriage partner of {x}", "the person who married {x}",
               "the individual {x} married", "the one {x} is wed to", "whoever is married to {x}"],
    "birthplace": ["the town where {x} was born", "the birthplace of {x}", "{x}'s birthplace",
                   "the town {x} was born in", "the home town of {x}", "the town {x} comes from",
                   "the place of birth of {x}", "the town of birth of {x}", "the town where {x} came from",
                   "the birth town of {x}",
                   "the town {x} hails from", "the town that saw {x} born",
                   "the native town of {x}"],
    "seat": ["the town where {x} is based", "the seat of {x}", "the town {x} is based in", "the home town of {x}",
             "the town that houses {x}", "the base of {x}", "the town {x} works from", "the town that is home to {x}",
             "the seat town of {x}", "the town {x} is run from",
             "the town hosting {x}",
             "the town {x} operates from", "the town where {x} has its offices"],
    "place": ["the town where {x} {happens}", "the setting of {x}", "the town {x} {happens_in}", "the place of {x}",
              "the town of {x}", "the town in which {x} {happens}", "{x}'s town",
              "the town where the story of {x} takes place", "the location of {x}", "the town featured in {x}",
              "the town tied to {x}",
              "the scene of {x}", "the town linked to {x}"],
    "founder": ["the founder of {x}", "the person who founded {x}", "{x}'s founder", "the one who set up {x}",
                "the person who started {x}", "the person who first ran {x}", "whoever founded {x}",
                "the person who set up {x}", "the creator of {x}", "the one who started {x}",
                "the person behind {x}", "the one who established {x}", "the person who created {x}"],
}

# Which of two came earlier; {wh} is "who" for people, "which" otherwise, {v} what happened ("came out").
FIRST = ["{Wh} {v} first, {a} or {b}?", "Of {a} and {b}, {wh} {v} first?", "{Wh} {v} earlier: {a} or {b}?",
         "Between {a} and {b}, {wh} {v} first?", "{A} or {b}: {wh} {v} first?", "{Wh} of {a} and {b} {v} earlier?",
         "{Wh} {v} before the other, {a} or {b}?", "{Wh} {v} first: {a} or {b}?",
         "Of the two, {a} and {b}, {wh} {v} first?", "Tell me {wh} {v} first, {a} or {b}.",
         "Name the one that {v} first: {a} or {b}.",
         "Looking at {a} and {b}, {wh} {v} sooner?", "{Wh} {v} at an earlier date, {a} or {b}?"]
# How many years lie between two dates; {a} is the earlier one. {aux} {verb}: "did ... come out", "was ... founded".
GAP = ["How many years before {b} {aux} {a} {verb}?", "How many years earlier than {b} {aux} {a} {verb}?",
       "{A} {v} how many years before {b}?", "How many years separate the year {a} {v} from the year {b} {v}?",
       "How long before {b}, in years, {aux} {a} {verb}?", "By how many years did {a} precede {b}?",
       "What is the gap in years between when {a} {v} and when {b} {v}?",
       "How many years after {a} {aux} {b} {verb}?", "Tell me how many years {a} {v} before {b}.",
       "What is the number of years between when {a} {v} and when {b} {v}?",
       "How many years lie between the dates {a} and {b} {v}?",
       "Counting in years, how much earlier than {b} {aux} {a} {verb}?", "How many years passed between the time {a} {v} and the time {b} {v}?"]
BOTH = ["Are {a} and {b} both {d}?", "Are both {a} and {b} {d}?", "Is it true that {a} and {b} are both {d}?",
        "{A} and {b}: are they both {d}?", "Are {a} and {b} each {d}?", "Are {a} and {b} {d}, both of them?",
        "Is it right that {a} and {b} are both {d}?", "Tell me whether {a} and {b} are both {d}.",
        "Would you say {a} and {b} are both {d}?", "Are {a} as well as {b} {d}?",
        "Is it the case that both {a} and {b} are {d}?",
        "Yes or no: are {a} and {b} both {d}?", "Are the two of them, {a} and {b}, both {d}?"]
# A yes/no question about one fact: the direct question, or a frame around the statement {s}.
YESNO = ["{direct}", "Is it true that {s}?", "Is it correct that {s}?", "{S}: is that right?", "{S}, yes or no?",
         "Can you confirm that {s}?", "Do the pages say that {s}?", "Tell me whether {s}.", "Am I right that {s}?",
         "Check this for me: {s}.",
         "Would it be right to say that {s}?",
         "Is it the case that {s}?", "Yes or no: {s}?"]
DIRECT = {"birthplace": "Was {x} born in {v}?", "recorded": "Was {x} recorded in {v}?", "set": "Is {x} set in {v}?",
          "before": "Was {x} founded before {v}?", "spouse": "Is {x} married to {v}?", "country": "Is {x} in {v}?",
          "written": "Was {x} written by {v}?", "directed": "Was {x} directed by {v}?",
          "sung": "Was {x} recorded by {v}?"}
STATE = {"birthplace": "{x} was born in {v}", "recorded": "{x} was recorded in {v}", "set": "{x} is set in {v}",
         "before": "{x} was founded before {v}", "spouse": "{x} is married to {v}", "country": "{x} is in {v}",
         "written": "{x} was written by {v}", "directed": "{x} was directed by {v}", "sung": "{x} was recorded by {v}"}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _fill(template: str, **slots: str) -> str:
    """Fill a template; an upper-case slot ({X}, {A}, {S}, {Wh}) takes the value with a capital first letter."""
    return template.format(**slots, **{_cap(k): _cap(v) for k, v in slots.items()})


def pools(spec: dict) -> dict:
    """The template pools a spec's wording chooses from: {"ask": [...], "chain": [[...], ...]} or {"frame": [...]}."""
    shape = spec["shape"]
    if shape == "bridge":
        return {"ask": ASK[spec["ask"]], "chain": [DESCRIBE[c["rel"]] for c in spec["chain"]]}
    return {"frame": {"first": FIRST, "gap": GAP, "both": BOTH, "yesno": YESNO}[shape]}


def split_of(pool: list, split: str, held: int = HELD) -> range:
    """The indices of a pool that a split may use: the last `held` are held out, the others trained."""
    if split not in SPLITS:
        raise ValueError(f"wording must be one of {', '.join(SPLITS)}, not {split!r}")
    return range(len(pool) - held, len(pool)) if split == "heldout" else range(len(pool) - held)


def choose(spec: dict, split: str, rng: random.Random) -> dict:
    """A wording of `spec` in `split`: one index per pool, drawn from that split's part of the pool.

    A description of a description ends with it ("the spouse of the author of X"): a clause in the middle
    ("the town the one who made X is from") is hard for anyone to read.
    """
    ps = pools(spec)
    chain = [rng.choice([i for i in split_of(p, split) if j == 0 or p[i].endswith("{x}")])
             for j, p in enumerate(ps.get("chain", []))]
    return {k: chain if k == "chain" else rng.choice(split_of(pool, split)) for k, pool in ps.items()}


def is_in(spec: dict, choice: dict, split: str) -> bool:
    """Whether every template of a wording belongs to `split` (the check `finetune` makes before training)."""
    return all(i in split_of(pool, split) for _, pool, i in _slots(spec, choice))


def templates(spec: dict, choice: dict) -> list[str]:
    """The templates a wording uses, each after the name of its pool: what a score by template counts under.

        >>> spec = {"shape": "bridge", "start": "the novel Marrow", "ask": "birthplace",
        ...         "chain": [{"rel": "creator", "role": "author", "made": "wrote"}]}
        >>> templates(spec, {"ask": 12, "chain": [11]})
        ['ask birthplace: In what town did {x} come into the world?', 'describe creator: the individual who {made} {x}']
        >>> templates({"shape": "yesno", "rel": "spouse", "x": "Velmo Tarin", "v": "Dura Kell"}, {"frame": 1})
        ['yesno: Is it true that {s}?']
    """
    return [f"{name}: {pool[i]}" for name, pool, i in _slots(spec, choice)]


def _slots(spec: dict, choice: dict) -> list[tuple[str, list, int]]:
    """(pool name, pool, index) of each template a wording uses: what `is_in` checks and `templates` names."""
    ps = pools(spec)
    if "frame" in ps:
        return [(spec["shape"], ps["frame"], choice["frame"])]
    return [(f"ask {spec['ask']}", ps["ask"], choice["ask"])] + [
        (f"describe {c['rel']}", pool, j) for c, pool, j in zip(spec["chain"], ps["chain"], choice["chain"])]


def render(spec: dict, choice: dict) -> str:
    """The question text of `spec` in the wording `choice` (see `choose`)."""
    shape = spec["shape"]
    if shape == "bridge":
        x = spec["start"]
        for c, j in zip(spec["chain"], choice["chain"]):
            x = _fill(DESCRIBE[c["rel"]][j], x=x, **{k: v for k, v in c.items() if k != "rel"})
        return _fill(ASK[spec["ask"]][choice["ask"]], x=x)
    frame = pools(spec)["frame"][choice["frame"]]
    if shape == "yesno":
        slots = {"x": spec["x"], "v": spec["v"]}
        return _fill(frame, direct=_fill(DIRECT[spec["rel"]], **slots), s=_fill(STATE[spec["rel"]], **slots))
    return _fill(frame, **{k: v for k, v in spec.items() if k != "shape"})
