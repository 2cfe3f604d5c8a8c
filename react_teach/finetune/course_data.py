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

Those bridges all read two pages, so a model trained on them stops after the second page of a question that needs
three. Last in the file come 54 bridges of three pages (ids cb001 on): a sentence of the first page names the
second, one of the second names the third, and the third holds the answer. They read no dev article, so the
training split is the 860 questions before them and these after (`--course 860` is the data without them).

    >>> titles = allowed_titles()
    >>> len(titles & corpus().keys()), "Seven Samurai" in titles, "Leonid Levin" in titles
    (67, True, False)

Their oracle trajectories are in `course_oracle`.
"""
from __future__ import annotations

import random
import re
from functools import lru_cache

from react_teach.data import data_dir, load_questions, read_jsonl
from react_teach.wiki import LocalWiki

TRAIN_FILE = "finetune/course_train.jsonl"
TYPES = ("single", "bridge", "comparison")  # HotpotQA's two, and one page read; `shape` is the kind of question
SHAPES = ("who", "which", "when", "where", "what", "how many", "years before", "first", "yes-no", "both", "bridge")


ADDED_FILE = "finetune/course_articles.jsonl"


def corpus() -> dict[str, dict]:
    """{title: article} of the course encyclopedia, as the course wiki indexes it."""
    return {a["title"]: a for p in _corpus_files() for a in read_jsonl(p)}


@lru_cache(maxsize=1)  # read once a process, as the questions are (`load`): `wiki_for` asks for every question
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
