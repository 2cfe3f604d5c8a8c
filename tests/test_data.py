"""The course data: the encyclopedia, the question sets and the exemplars, checked against the tool itself."""
import json
from collections import Counter

import pytest

from react_teach.runs.sample import about_exemplar

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
    # the exemplars' own questions, and every question about an exemplar's subject (react_teach.runs.sample)
    assert {"hq027", "hq051", "hq028", "hq029", "fv022", "fv029"} <= marked
    assert marked == {q["id"] for t in ("hotpotqa", "fever") for q in load_questions(t) if about_exemplar(q, t)
                      or " ".join(q.get("question", q.get("claim", "")).lower().split()) in
                      {" ".join(e["question"].lower().split()) for e in load_exemplars(t)}}


# Facts corrected against the record (issue 14); a fact that changes with time says when it held.
CORRECTED = {
    "Urho Kekkonen": "He resigned in October 1981 because of poor health and was succeeded by Mauno Koivisto, who "
                     "took office in January 1982.",
    "Seventh Avenue (Manhattan)": "Its southern section through Greenwich Village, called Seventh Avenue South, was "
                                  "cut through in the 1910s when the avenue was extended during construction of a "
                                  "subway line.",
    "Charles Rangel": "Charles Rangel (June 11, 1930 – May 26, 2025) was an American politician who represented Harlem "
                      "in the United States House of Representatives from 1971 to 2017.",
    "Milhouse Van Houten": "He was voiced by Pamela Hayden until she retired from the show in November 2024, and was "
                           "created by Matt Groening.",
    "Pamela Hayden": "She was part of the show's supporting voice cast from its first season in 1989 until she retired "
                     "from it in November 2024.",
    "The Simpsons": "Supporting voice performers have included Pamela Hayden, who voiced Milhouse Van Houten until "
                    "November 2024, and Tress MacNeille.",
    "The Simpsons Movie": "Pamela Hayden voiced Milhouse Van Houten in the film, as she did in the series until 2024.",
    "First for Women": "In 2022 Bauer sold the magazine to A360 Media.",
    "FIFA World Cup": "From 1998 to 2022 the final tournament included 32 teams.",
    "Paris": "Paris hosted the Summer Olympic Games in 1900, 1924 and 2024.",
}
STALE = ["He resigned in 1982", "below Greenwich Village", "(born June 11, 1930) is", "He is voiced by Pamela Hayden",
         "who voices Milhouse", "as she does in the series", "She has been part of the show's", "From 1998 to 2018",
         "in 1900 and 1924.", "magazine published by Bauer Media Group."]


def test_corrected_facts_stay_corrected():
    for title, sentence in CORRECTED.items():
        assert sentence in BY_TITLE[title]["sentences"], title
    text = " ".join(s for a in CORPUS for s in a["sentences"])
    exemplars = json.dumps([load_exemplars(t) for t in ("hotpotqa", "fever")], ensure_ascii=False)
    for old in STALE:
        assert old not in text and old not in exemplars, old
    first = BY_TITLE["First for Women"]["sentences"]
    assert first[0].endswith("published by Bauer Media Group until 2022.") and first[2].startswith("As of 2020")
    fever = {c["id"]: c for c in load_questions("fever")}
    assert fever["fv024"]["claim"] == "Milhouse Van Houten was voiced by Pamela Hayden."
    # fv077 is answered by the corpus's own Gustave Eiffel article, so it cannot be NOT ENOUGH INFO
    assert fever["fv077"]["label"] == "SUPPORTS" and ["Gustave Eiffel", 6] in fever["fv077"]["evidence"]
    hq050 = next(q for q in load_questions("hotpotqa") if q["id"] == "hq050")
    assert "until 2022" in hq050["question"] and hq050["answer"] == "Hamburg"
