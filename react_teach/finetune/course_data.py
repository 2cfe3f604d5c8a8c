"""Natural prose for fine-tuning: questions written over the course corpus, kept apart from the course's test.

The generated worlds teach the loop on sentences a generator wrote. Here the same skill meets real prose: 500
hand-written questions (data/finetune/course_train.jsonl) over articles of the course encyclopedia, each with
its HotpotQA-style ``supporting_facts``, and an oracle trajectory for each through the real `WikiEnv` on the course
wiki. The 126 real-subject questions (data/hotpotqa_course.jsonl) are the transfer test, so the articles a
training question may read are only those the test cannot be answered from (`allowed_titles`):

1. not a test question's supporting article (nor one of its redirects);
2. its title (a redirect, or the title without its bracketed part) named in no test question or answer;
3. named in no test question's supporting article, so that no test page points to it;
4. its text names no test answer (yes and no aside).

That leaves 67 of the 394 articles. Each question's deciding sentences must also name no test supporting title
(`check_questions`). Eight of the 67 are kept for a dev split (`dev_titles`): the 77 questions that read one of
them are never trained on, so a choice about prose is made on them, never on the 126; the other 423 are
training questions (`questions("train")`, what `finetune --course N` takes from).

67 articles are few pages to learn reading from, so more are written for training alone
(data/finetune/course_articles.jsonl, `ADDED_FILE`): the course's wiki never holds them, the same four rules
apply to them, and the questions over them come after the first 500 in the training file. A question that reads
one is walked on the course wiki with them added (`wiki_for`); every other question on the course wiki itself, so
that the first 423 training questions' text, and with it every shipped adapter's data, stays the same bytes.

    >>> titles = allowed_titles()
    >>> len(titles & corpus().keys()), "Seven Samurai" in titles, "Leonid Levin" in titles
    (67, True, False)
    >>> t = oracle(load()[0])
    >>> t.steps[0].action, t.steps[-1].action == f"Finish[{load()[0]['answer']}]"
    ('Search[1930 FIFA World Cup]', True)
"""
from __future__ import annotations

import random
import re
from functools import lru_cache

from react_teach.data import data_dir, load_questions, read_jsonl
from react_teach.trajectory import Step, Trajectory
from react_teach.wiki import LocalWiki, WikiEnv, sentences
from react_teach.world.oracle import recovery

TRAIN_FILE = "finetune/course_train.jsonl"
TYPES = ("single", "bridge", "comparison")  # HotpotQA's two, and one page read; `shape` is the kind of question
SHAPES = ("who", "which", "when", "where", "what", "how many", "years before", "first", "yes-no", "both", "bridge")


ADDED_FILE = "finetune/course_articles.jsonl"


def corpus() -> dict[str, dict]:
    """{title: article} of the course encyclopedia, as the course wiki indexes it."""
    return {a["title"]: a for p in _corpus_files() for a in read_jsonl(p)}


def added() -> dict[str, dict]:
    """{title: article} of the articles written for training alone (`ADDED_FILE`); none is a course article."""
    return {a["title"]: a for a in read_jsonl(data_dir() / ADDED_FILE)}


def articles() -> dict[str, dict]:
    """Every article a training question may be about: the course encyclopedia's and the added ones."""
    course, extra = corpus(), added()
    if course.keys() & extra.keys():  # an added page under a course title would shadow the page the test reads
        raise ValueError(f"{ADDED_FILE} repeats course articles: {', '.join(sorted(course.keys() & extra.keys()))}")
    return {**course, **extra}


def _corpus_files() -> list:
    return sorted((data_dir() / "corpus").glob("*.jsonl"))


def wiki_for(q: dict, course_wiki=None):
    """The wiki `q` is walked on: the course's own, or, where `q` reads an added article, the course's with the
    added articles indexed beside it (cached like the course's, by the files' bytes).

    >>> wiki_for(load()[0]) is LocalWiki.course()
    True
    """
    course_wiki = course_wiki if course_wiki is not None else LocalWiki.course()
    if not any(t in added() for t, _ in q["supporting_facts"]):
        return course_wiki
    paths = [*_corpus_files(), data_dir() / ADDED_FILE]
    return _wiki(tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths))


@lru_cache(maxsize=1)
def _wiki(files: tuple):
    # keyed by the files' names, times and sizes, as `LocalWiki.course` is: opened once while they are unchanged
    return LocalWiki.from_jsonl([path for path, _, _ in files])


def check_added(extra: dict[str, dict]) -> None:
    """Refuse an added article that the search tool would split otherwise than its sentences, whose bracketed
    title its short name does not find (a redirect must), or that names a test question's page or answer anywhere:
    stricter than the rule for a course article, which may name one where no question reads it, because an added
    page exists only to be trained on."""
    course, test = corpus(), load_questions("hotpotqa")
    support = {t for q in test for t, _ in q["supporting_facts"]}
    banned = {n for t in support if t in course for n in names(course[t])} | answers_of(test)
    asked = " ".join(q["question"] + " " + q["answer"] for q in test)
    for title, a in extra.items():
        for k, s in enumerate(a["sentences"]):
            if not s.endswith(".") or ". " in s.rstrip("."):
                raise ValueError(f"{ADDED_FILE}: {title!r} sentence {k} must end with '.' and hold no '. ' inside")
        short = re.sub(r" \(.*\)$", "", title)
        if short != title and short not in a.get("redirects", []):  # the oracle searches it by the short name
            raise ValueError(f"{ADDED_FILE}: {title!r} needs {short!r} among its redirects")
        text = " ".join(a["sentences"])
        if any(mentions(asked, n) for n in names(a)) or any(mentions(text, n) for n in banned):
            raise ValueError(f"{ADDED_FILE}: {title!r} is named by the course's test or names its pages or answers")


def names(a: dict) -> set[str]:
    """The names an article goes by: its title, its redirects and its title without the bracketed part."""
    return {a["title"], re.sub(r" \(.*\)$", "", a["title"]), *a.get("redirects", [])}


def mentions(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` as whole words, ignoring case: 'Nile' in 'the Nile River', not in 'Niles'."""
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE) is not None


def answers_of(test: list[dict]) -> set[str]:
    return {q["answer"] for q in test if q["answer"].lower() not in ("yes", "no")}


@lru_cache(maxsize=1)
def allowed_titles() -> frozenset[str]:
    """The articles a training question may use: the four rules of the module's docstring, applied to the corpus
    and the added articles against the course's 126 test questions."""
    arts, test = articles(), load_questions("hotpotqa")
    support = {t for q in test for t, _ in q["supporting_facts"]}
    asked = " ".join(q["question"] + " " + q["answer"] for q in test)
    support_text = " ".join(" ".join(arts[t]["sentences"]) for t in support if t in arts)
    answers = answers_of(test)
    out = set()
    for title, a in arts.items():
        text = " ".join(a["sentences"])
        if title in support or any(mentions(asked, n) or mentions(support_text, n) for n in names(a)):
            continue
        if any(mentions(text, ans) for ans in answers):
            continue
        out.add(title)
    return frozenset(out)


def load() -> list[dict]:
    """The training questions, checked (`check_questions`)."""
    return list(_checked())


@lru_cache(maxsize=1)
def _checked() -> tuple[dict, ...]:
    # checking reads the 126 test questions and scans every deciding sentence (about 2 s): once per process
    qs = read_jsonl(data_dir() / TRAIN_FILE)
    check_added(added())
    check_questions(qs)
    return tuple(qs)


def check_questions(qs: list[dict]) -> None:
    """Refuse a question that is malformed, reads a forbidden article, or whose deciding sentence names a test
    supporting title or a test answer. The message names the question."""
    arts, test = articles(), load_questions("hotpotqa")
    allowed = allowed_titles()
    support = {t for q in test for t, _ in q["supporting_facts"]}
    test_names = {n for t in support if t in arts for n in (arts[t]["title"], *arts[t].get("redirects", []))}
    answers = answers_of(test)
    seen = set()
    for q in qs:
        qid = q.get("id")
        need = {"id", "question", "answer", "type", "shape", "level", "supporting_facts"}
        if not isinstance(q, dict) or need - set(q):
            raise ValueError(f"{qid}: a training question needs {', '.join(sorted(need))}")
        if qid in seen:
            raise ValueError(f"{qid}: the id is used twice")
        seen.add(qid)
        if q["type"] not in TYPES or q["shape"] not in SHAPES or q["level"] not in ("easy", "medium", "hard"):
            raise ValueError(f"{qid}: type {q['type']!r}, shape {q['shape']!r} or level {q['level']!r} is not known")
        if not q["supporting_facts"]:
            raise ValueError(f"{qid}: no supporting facts")
        for title, k in q["supporting_facts"]:
            if title not in allowed:
                raise ValueError(f"{qid}: {title!r} is not an allowed article (see allowed_titles)")
            if not isinstance(k, int) or not 0 <= k < len(arts[title]["sentences"]):
                raise ValueError(f"{qid}: {title!r} has no sentence {k}")
            s = arts[title]["sentences"][k]
            if ". " in s.rstrip("."):
                raise ValueError(f"{qid}: {title!r} sentence {k} is split in two by the tool; choose another")
            if any(mentions(s, n) for n in test_names | answers):
                raise ValueError(f"{qid}: {title!r} sentence {k} names a test title or answer")
        if q["shape"] in ("yes-no", "both") and q["answer"] not in ("yes", "no"):
            raise ValueError(f"{qid}: a {q['shape']} question is answered yes or no")
        if not q.get("reason") and not any(mentions(arts[t]["sentences"][k], q["answer"])
                                           for t, k in q["supporting_facts"]):
            raise ValueError(f"{qid}: the answer is in no supporting sentence, so the question needs a reason")


# -- the oracle

def _keyword(page_sentences: list[str], target: str, question: str) -> str:
    """The word of `target` that `lookup` reaches it with soonest; a word the question uses wins a tie."""
    best = None
    for w in dict.fromkeys(re.findall(r"[A-Za-zÀ-ÿ][\w'-]{3,}|\d{3,}", target.rstrip("."))):
        hits = [s for s in page_sentences if w.lower() in s.lower()]
        rank = next(i for i, s in enumerate(hits) if target.rstrip(".") in s)
        key = (rank, not mentions(question, w), -len(w))
        best = min(best, (key, w)) if best else (key, w)
    return best[1]


def _first(r: random.Random, q: dict, titles: list[str]) -> str:
    a = titles[0]
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
    seen, whose first search misses more often than not.

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
        if variant % 2 and (typed := typed_name(q["question"], title, wiki)) is not None:
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


# -- the dev split: prose that no adapter trains on, for choices about prose without touching the 126 test questions

DEV_ARTICLES = 8  # of the 67 allowed articles; every question that reads one of them is dev


@lru_cache(maxsize=1)
def dev_titles() -> frozenset[str]:
    """The articles of the dev split, drawn once from a fixed seed among those the questions read.

    >>> len(dev_titles()), sorted(dev_titles())[0]
    (8, 'Akira Kurosawa')
    """
    # drawn among the course's own articles only: added articles never change which 8 are dev
    course = corpus()
    used = sorted({t for q in load() for t, _ in q["supporting_facts"] if t in course})
    return frozenset(random.Random("course prose dev").sample(used, DEV_ARTICLES))


def questions(split: str = "train") -> list[dict]:
    """The questions of `split`: "dev" reads a dev article, "train" reads none (so a trained page is never a dev
    page), "all" is the file.

    >>> len(questions("train")) + len(questions("dev")) == len(questions("all"))
    True
    """
    if split not in ("train", "dev", "all"):
        raise ValueError(f"split must be train, dev or all, not {split!r}")
    qs = load()
    if split == "all":
        return qs
    dev = dev_titles()
    return [q for q in qs if any(t in dev for t, _ in q["supporting_facts"]) == (split == "dev")]
