"""The course data: the encyclopedia, the question sets and the exemplars, checked against the tool itself."""
import json
from collections import Counter

import pytest

from react_teach.data import data_dir, hotpotqa_articles, load_exemplars, load_questions, read_jsonl, read_questions
from react_teach.wiki import LocalWiki, WikiEnv

CORPUS = [a for p in sorted((data_dir() / "corpus").glob("*.jsonl")) for a in read_jsonl(p)]
BY_TITLE = {a["title"]: a for a in CORPUS}


@pytest.fixture(scope="module")
def course():
    return LocalWiki.course()


def test_corpus_size_and_shape():
    assert len(CORPUS) >= 300
    assert len(BY_TITLE) == len(CORPUS), "duplicate titles"
    for a in CORPUS:
        if a.get("disambiguation"):
            assert "may refer to:" in a["sentences"][0], a["title"]
            continue
        assert len(a["sentences"]) >= 8, a["title"]
        for s in a["sentences"]:
            # one line each, and no ". " inside: the official splitter then finds exactly our sentences
            assert "\n" not in s and ". " not in s and s.endswith("."), (a["title"], s)


def test_the_papers_subjects_are_here(course):
    for title in ["Colorado orogeny", "High Plains (United States)", "Milhouse Van Houten", "Allie Goertz",
                  "The Saimaa Gesture", "Adam Clayton Powell (film)", "Nicholas Ray", "Elia Kazan",
                  "Arthur's Magazine", "First for Women", "Pavel Urysohn", "Leonid Levin", "Apple Remote",
                  "Front Row (software)", "Nikolaj Coster-Waldau", "Stranger Things",
                  "Beautiful (Christina Aguilera song)"]:
        assert course.page(title) is not None, title
    for title in ("High Plains", "Adam Clayton Powell", "Front Row", "Beautiful"):
        assert BY_TITLE[title].get("disambiguation"), title


def _sentence(title, i):
    return BY_TITLE[title]["sentences"][i]


def test_hotpotqa_questions_are_answered_by_their_supporting_facts(course):
    qs = load_questions("hotpotqa")
    assert len(qs) >= 100 and len({q["id"] for q in qs}) == len(qs)
    assert sum(q["type"] == "comparison" for q in qs) >= len(qs) / 3
    assert {q["level"] for q in qs} == {"easy", "hard"}
    for q in qs:
        facts = [_sentence(t, i) for t, i in q["supporting_facts"]]
        if q["answer"] in ("yes", "no"):
            (a, b), rel = q["values"], q["relation"]
            assert all(str(v).lower() in f.lower() for v, f in zip((a, b), facts)), q["id"]
            holds = {"equal": lambda: str(a).lower() == str(b).lower(), "less": lambda: float(a) < float(b),
                     "greater": lambda: float(a) > float(b)}[rel]()
            assert holds == (q["answer"] == "yes"), q["id"]
        else:
            assert any(q["answer"].lower() in f.lower() for f in facts), q["id"]
        if q["level"] == "easy" and q["answer"] not in ("yes", "no"):
            # easy: one search on a title named in the question shows the answer in its first five sentences
            seen = [WikiEnv(course).step(f"search[{t}]")[0] for t, _ in q["supporting_facts"]
                    if t.lower() in q["question"].lower()]
            assert any(q["answer"].lower() in obs.lower() for obs in seen), q["id"]


def test_fever_claims_cite_real_evidence():
    claims = load_questions("fever")
    labels = Counter(c["label"] for c in claims)
    assert len(claims) >= 90 and min(labels.values()) >= 30, labels
    for c in claims:
        for t, i in c["evidence"]:
            assert _sentence(t, i)
        assert c["evidence"] or c["label"] == "NOT ENOUGH INFO"


@pytest.mark.parametrize("task", ["hotpotqa", "fever"])
def test_exemplars_replay_byte_for_byte(course, task):
    """Exemplars never teach a string our tool would not produce."""
    exemplars = load_exemplars(task)
    assert len(exemplars) == {"hotpotqa": 6, "fever": 3}[task]
    for e in exemplars:
        env = WikiEnv(course)
        for s in e["steps"]:
            obs, done = env.step(s["action"][0].lower() + s["action"][1:])
            if done:
                assert s is e["steps"][-1] and env.answer == e["answer"]
            else:
                assert obs == s["observation"]


# ------------------------------------------------------------------------------------ the official formats
def test_hotpotqa_distractor_builds_a_wiki_with_every_supporting_page(real, tmp_path):
    path = real / "hotpotqa" / "distractor_dev_hard100.json"
    wiki = LocalWiki.build(hotpotqa_articles(path), tmp_path / "hp.db")
    qs = read_questions(path)
    assert len(qs) == 100 and all(q["id"] and q["answer"] for q in qs)
    for q in qs:
        for title, _ in q["supporting_facts"]:
            assert wiki.page(title) is not None and wiki.page(title).title == title, title


def test_simplified_hotpotqa_and_fever_load(real):
    simple = read_questions(real / "hotpotqa" / "hotpot_dev_v1_simplified.json")
    assert len(simple) == 7405 and {"question", "answer", "id"} <= set(simple[0])
    fever = read_questions(real / "fever" / "paper_dev_react500.jsonl")
    assert len(fever) == 500 and {c["label"] for c in fever} == {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}


def test_a_file_that_is_neither_is_refused(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text(json.dumps({"title": "nope"}) + "\n")
    with pytest.raises(ValueError, match="neither question nor claim"):
        read_questions(f)


def test_questions_that_overlap_the_exemplars_are_marked():
    """A test question that is an exemplar (or its paraphrase) measures copying, not reasoning: it is marked."""
    for task, key in (("hotpotqa", "question"), ("fever", "claim")):
        shown = {" ".join(e["question"].lower().split()) for e in load_exemplars(task)}
        for q in load_questions(task):
            same = " ".join(q[key].lower().split()) in shown
            assert same <= bool(q.get("overlaps_exemplar")), f"{q['id']} is an exemplar and is not marked"
            assert (q.get("overlap") == "verbatim") == same, q["id"]
    marked = {q["id"] for t in ("hotpotqa", "fever") for q in load_questions(t) if q.get("overlaps_exemplar")}
    assert marked == {"hq027", "hq051", "hq028", "hq029", "fv022", "fv029"}
