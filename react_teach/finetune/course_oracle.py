"""The oracle of the course-corpus training questions (`course_data`): a correct ReAct walk for each, every
observation from the real `WikiEnv`, in as many worded variants as training asks for.

    >>> t = oracle(load()[0])
    >>> t.steps[0].action, t.steps[-1].action == f"Finish[{load()[0]['answer']}]"
    ('Search[1930 FIFA World Cup]', True)
"""
from __future__ import annotations

import random
import re
from functools import lru_cache

from react_teach.data import load_questions
from react_teach.trajectory import Step, Trajectory
from react_teach.wiki import LocalWiki, WikiEnv, sentences
from react_teach.world.oracle import recovery

from .course_data import allowed_titles, answers_of, articles, mentions, questions, wiki_for
from .course_data import load  # noqa: F401 (the doctests' questions)


def _keyword(page_sentences: list[str], target: str, question: str) -> str:
    """The word of `target` that `lookup` reaches it with soonest; a word the question uses wins a tie."""
    best = None
    for w in dict.fromkeys(re.findall(r"[A-Za-zÀ-ÿ][\w'-]{3,}|\d{3,}", target.rstrip("."))):
        hits = [s for s in page_sentences if w.lower() in s.lower()]
        rank = next(i for i, s in enumerate(hits) if target.rstrip(".") in s)
        key = (rank, not mentions(question, w), -len(w))
        best = min(best, (key, w)) if best else (key, w)
    return best[1]


def _three_pages(q: dict, titles: list[str]) -> bool:
    """Whether `q` is a bridge over three pages (or more): one sentence on each names the next."""
    return q["shape"] == "bridge" and len(titles) > 2


def _first(r: random.Random, q: dict, titles: list[str]) -> str:
    a = titles[0]
    if _three_pages(q, titles):  # one draw, as a two-page bridge's: theirs stay as they were
        return r.choice([f"This takes three pages. I will search {a} first and follow what it says to the next page, "
                         f"then to the one after.",
                         f"I need to search {a} first; the sentence I need there names a second page, and that page "
                         f"names a third.",
                         f"First I need to search {a}, then follow what it says to a second page and from there to "
                         f"a third."])
    if q["shape"] == "bridge":
        return r.choice([f"I need to search {a} first; the sentence I need there names the page to read next.",
                         f"This takes two pages. I will search {a} first and find which page it points to.",
                         f"First I need to search {a}, then follow what it says to a second page."])
    if len(titles) > 1:
        b = titles[1]
        return r.choice([f"I need to search {a} and {b} and compare what they say. I will search {a} first.",
                         f"I need to read both {a} and {b}. I will start with {a}.",
                         f"To answer this I need the pages of {a} and {b}. First I need to search {a}."])
    return r.choice([f"I need to search {a} and find the sentence that answers this.",
                     f"I should search {a} and read what it says.",
                     f"The answer should be on the page {a}, so I need to search it."])


def oracle(q: dict, wiki=None, variant: int = 0) -> Trajectory:
    """A correct ReAct trajectory for one training question: every observation from `WikiEnv` on its wiki
    (`wiki_for`).

    For each supporting article in order: search it by the name a reader would type (the title without its
    bracketed part); if that lands elsewhere or finds nothing, search the exact title. If the deciding sentence is
    not among the five a search shows, look up its rarest word, again until it comes. The last thought quotes
    the deciding sentences, then gives the reason and the answer.

    `variant` k > 0 is the same walk with every worded choice moved k places along its list: the same reads and
    facts in other thoughts, so that a question can be trained on twice without two identical texts (which would
    fall in one batch and count once). Variant 0 is the text the earlier adapters learned. An odd variant also
    searches a page first by the name the question calls it (`typed_name`) where that name is no title, and then
    takes the title from the similar ones the tool lists: the recovery a model needs on questions it has never
    seen, whose first search misses more often than not. A bridge of three pages does so for its first page only:
    the question does not name the pages after it (a word such as 'bridge' is all it has of them), and the
    sentence read names each, so a search by the question's word would be a step no reader takes. (The two-page
    bridges keep the text the adapters learned, where some search the question's word for the second page.)

    >>> a, b = (oracle(load()[0], variant=k) for k in (0, 1))
    >>> [s.action for s in a.steps] == [s.action for s in b.steps], a.steps[0].thought != b.steps[0].thought
    (True, True)
    >>> [s.action for s in oracle(load()[1], variant=1).steps][:2]  # "Who scored the first goal in World Cup history?"
    ['Search[World Cup]', 'Search[1930 FIFA World Cup]']
    """
    wiki = wiki if wiki is not None else wiki_for(q)
    arts, allowed = articles(), allowed_titles()
    r = _Shifted(f"course oracle {q['id']}", variant)
    env, steps, quotes = WikiEnv(wiki), [], []

    def act(thought: str, action: str) -> str:
        obs, _ = env.step(action[:1].lower() + action[1:])
        steps.append(Step(thought, action, obs))
        return obs

    titles = list(dict.fromkeys(t for t, _ in q["supporting_facts"]))
    for j, title in enumerate(titles):
        short = re.sub(r" \(.*\)$", "", title)
        landing, here = wiki.page(short), env.page.title if env.page else None
        # the name a reader types, unless it shows a page the test uses or the page already open: then the title
        query = short if landing is None or landing.title == title or (landing.title in allowed and
                                                                       landing.title != here) else title
        # a three-page bridge's later pages are searched by the name read, never the question's (see above)
        by_question = j == 0 or not _three_pages(q, titles)
        if variant % 2 and by_question and (typed := typed_name(q["question"], title, wiki)) is not None:
            query = typed
        thought = _first(r, q, [query, *titles[1:]]) if j == 0 else quotes[-1] + " " + r.choice(
            [f"So I need to search {query} next.", f"Now I need to search {query}.", f"Next I need to search {query}."])
        obs = act(thought, f"Search[{query}]")
        if env.page is None or env.page.title != title:
            if obs.startswith("Could not find"):  # only a typed name misses (a title or its short form never does)
                thought = recovery(r, query, title)
            else:
                thought = r.choice([f"This is the page {env.page.title}, not the one I need. I need to search "
                                    f"{title}.", f"That is a different {short}; I need to search {title}."])
            act(thought, f"Search[{title}]")
        shown = sentences(env.page.text)
        for t, k in q["supporting_facts"]:
            if t != title:
                continue
            target = arts[t]["sentences"][k].strip()
            at = next(i for i, s in enumerate(shown) if target.rstrip(".") in s)
            if at >= 5:
                kw = _keyword(shown, target, q["question"])
                obs = act(r.choice([f"The first sentences do not say it, so I need to look up {kw}.",
                                    f"Nothing here answers it yet; I need to look up {kw}."]), f"Lookup[{kw}]")
                while target.rstrip(".") not in obs:
                    if not obs.startswith("(Result"):  # _keyword picked a word of the target: a bug if so
                        raise RuntimeError(f"{q['id']}: lookup[{kw}] never reached {target!r}")
                    obs = act(f"That is a different sentence, so I need to look up {kw} again.", f"Lookup[{kw}]")
            quotes.append(target)
    reason = (" " + q["reason"]) if q.get("reason") else ""
    last = " ".join(quotes[-1:] if q["shape"] == "bridge" else quotes)  # a bridge quoted its first fact already
    act(f"{last}{reason} So the answer is {q['answer']}.", f"Finish[{q['answer']}]")  # its reply ends the text
    return Trajectory(q["question"], steps, q["answer"], task="hotpotqa")


@lru_cache(maxsize=1)
def _test_answers() -> frozenset[str]:
    return frozenset(answers_of(load_questions("hotpotqa")))


_GLUE = {"the", "of", "a", "an", "in", "on", "at", "and", "or", "for", "to", "by", "de", "la"}


def _bare(word: str) -> str:
    return re.sub(r"['’]s$", "", word.strip(".,;:?!")).lower()


def typed_name(question: str, title: str, wiki) -> str | None:
    """The name `question` calls the page `title` by, where a search for that name misses and the tool's similar
    titles offer `title`; None where the question writes the title itself, or the name lands on a page, or the
    similar titles would show a test answer.

    The name is the longest run of the question's words that are words of the title (possessives bare):

    >>> wiki = LocalWiki.course()
    >>> typed_name("At which hospital did Fleming make his discovery of penicillin?", "Alexander Fleming", wiki)
    'Fleming'
    >>> typed_name("Who published The Great Gatsby?", "The Great Gatsby", wiki) is None
    True
    """
    short = re.sub(r" \(.*\)$", "", title)
    if mentions(question, short):  # the question writes the name a search finds
        return None
    own = {_bare(w) for w in short.split()}
    runs, run = [], []
    for w in question.split() + [""]:
        if w and _bare(w) in own:
            run.append(w.strip(".,;:?!"))
        elif run:
            runs.append(run)
            run = []
    runs = [r for r in runs if any(_bare(w) not in _GLUE for w in r)]  # not a lone 'the' or 'of'
    if not runs:
        return None
    words = max(runs, key=len)
    while _bare(words[-1]) in _GLUE:
        words.pop()
    while _bare(words[0]) in _GLUE:
        words.pop(0)
    name = re.sub(r"['’]s$", "", " ".join(words))
    if wiki.page(name) is not None:
        return None
    similar = wiki.similar(name)[:5]  # what the tool's "Could not find" line will list
    if title not in similar or any(mentions(s, a) for s in similar for a in _test_answers()):
        return None
    return name


class _Shifted(random.Random):
    """A seeded `random.Random` whose `choice` takes the item `shift` places after the one it draws: the same
    draws, so variant 0 is byte for byte the plain seeded choice, and variant k differs from it at every choice
    whose list length does not divide k (the prose oracle's lists have 2 or 3 items: variant 1 differs at all)."""

    def __init__(self, seed: str, shift: int):
        super().__init__(seed)
        self.shift = shift

    def choice(self, seq):
        return seq[(self.randrange(len(seq)) + self.shift) % len(seq)]


@lru_cache(maxsize=8)  # the splits and variants a process asks for: the oracle walks each question once
def trajectories(split: str = "train", variant: int = 0) -> tuple[Trajectory, ...]:
    """The oracle trajectories of the questions of `split` ("train", "dev" or "all"), in file order."""
    wiki = LocalWiki.course()
    return tuple(oracle(q, wiki_for(q, wiki), variant) for q in questions(split))
