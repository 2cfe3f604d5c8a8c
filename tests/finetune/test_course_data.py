"""The course-corpus training questions: their format, the rule that keeps them off the course's test, their oracle
trajectories replayed through the real WikiEnv, the yes/no balance, and a mix-in that changes nothing when off."""
import collections
import re

import pytest

from react_teach import finetune
from react_teach.data import load_questions
from react_teach.finetune import course_data, course_oracle
from react_teach.wiki import LocalWiki, WikiEnv

QS = course_data.load()
TEST = load_questions("hotpotqa")
ARTS = course_data.articles()  # the course encyclopedia and the articles added for training


def words(text, name):
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE) is not None


def test_the_questions_are_many_in_the_course_format_and_in_every_shape():
    assert len(QS) >= 150
    assert len({q["id"] for q in QS}) == len(QS)
    for q in QS:
        assert {"id", "question", "answer", "type", "level", "supporting_facts"} <= set(q), q["id"]
        assert q["question"].endswith("?") and q["answer"].strip(), q["id"]
        assert all(isinstance(t, str) and isinstance(k, int) for t, k in q["supporting_facts"]), q["id"]
        titles = {t for t, _ in q["supporting_facts"]}
        assert (q["type"] == "single") == (len(titles) == 1), q["id"]
    assert set(collections.Counter(q["shape"] for q in QS)) == set(course_data.SHAPES)
    assert collections.Counter(q["type"] for q in QS)["bridge"] >= 20


def test_no_training_question_reads_what_the_test_reads_or_names_a_test_answer():
    # recomputed here from the two files, not taken from allowed_titles: the test must not share the rule's bugs
    support = {t for q in TEST for t, _ in q["supporting_facts"]}
    answers = {q["answer"] for q in TEST if q["answer"].lower() not in ("yes", "no")}
    used = {t for q in QS for t, _ in q["supporting_facts"]}
    assert not used & support
    for t in used:
        text = " ".join(ARTS[t]["sentences"])
        assert not [a for a in answers if words(text, a)], t
        assert not any(words(" ".join(ARTS[s]["sentences"]), t) for s in support), f"a test page names {t}"
    allowed = course_data.allowed_titles()
    assert len(allowed & course_data.corpus().keys()) == 67 and used <= allowed
    assert course_data.added().keys() <= allowed


def test_the_rule_refuses_a_question_over_a_test_article_and_a_malformed_one():
    q = {"id": "x1", "question": "Where has Leonid Levin taught since 1980?", "answer": "Boston University",
         "type": "single", "shape": "where", "level": "easy", "supporting_facts": [["Leonid Levin", 4]]}
    assert "Leonid Levin" in {t for t in (s for tq in TEST for s, _ in tq["supporting_facts"])}
    with pytest.raises(ValueError, match="x1: 'Leonid Levin' is not an allowed article"):
        course_data.check_questions([q])
    with pytest.raises(ValueError, match="x2: a training question needs"):
        course_data.check_questions([{"id": "x2", "question": "Who?"}])
    ok = dict(QS[0])
    with pytest.raises(ValueError, match="used twice"):
        course_data.check_questions([ok, ok])
    with pytest.raises(ValueError, match="has no sentence 99"):
        course_data.check_questions([{**ok, "supporting_facts": [[ok["supporting_facts"][0][0], 99]]}])
    with pytest.raises(ValueError, match="answered yes or no"):
        course_data.check_questions([{**ok, "shape": "yes-no"}])


def test_every_trajectory_replays_byte_for_byte_and_ends_on_the_gold_answer_quoting_its_facts():
    allowed = course_data.allowed_titles()
    trajs = course_oracle.trajectories("all")
    assert len(trajs) == len(QS)
    lookups = detours = 0
    for q, t in zip(QS, trajs):
        env = WikiEnv(course_data.wiki_for(q), gold=q["answer"])
        for step in t.steps[:-1]:
            obs, done = env.step(step.action[:1].lower() + step.action[1:])
            assert obs == step.observation and not done, (q["id"], step.action)
            if step.action.startswith("Search["):
                assert env.page is None or env.page.title in allowed, (q["id"], env.page.title)  # no test page shown
            lookups += step.action.startswith("Lookup[")
        detours += sum(s.action.startswith("Search[") for s in t.steps) > len({s for s, _ in q["supporting_facts"]})
        obs, done = env.step(t.steps[-1].action[:1].lower() + t.steps[-1].action[1:])
        assert done and obs == "Episode finished, reward = 1", q["id"]
        assert t.steps[-1].action == f"Finish[{q['answer']}]" and t.answer == q["answer"]
        last = t.steps[-1].thought
        assert last.endswith(f"So the answer is {q['answer']}.")
        deciding = [ARTS[s]["sentences"][k] for s, k in q["supporting_facts"]]
        assert deciding[-1] in last, q["id"]  # the last thought quotes the sentence that decides
        assert all(d in " ".join(s.thought or "" for s in t.steps) for d in deciding), q["id"]
    assert lookups >= 60 and detours >= 3  # the trajectories exercise lookup and a search that lands elsewhere


def test_yes_and_no_answers_are_balanced_and_decided_by_a_reason():
    yn = [q for q in QS if q["answer"] in ("yes", "no")]
    count = collections.Counter(q["answer"] for q in yn)
    assert len(yn) >= 30 and count["yes"] == count["no"]
    both = collections.Counter(q["answer"] for q in QS if q["shape"] == "both")
    assert abs(both["yes"] - both["no"]) <= 1
    assert all(q.get("reason") for q in yn)


def test_the_mix_in_changes_nothing_when_off_and_adds_the_course_texts_when_on():
    base = finetune.world_texts("react", 4)
    assert finetune.world_texts("react", 4, course=0) == base
    mixed = finetune.world_texts("react", 4, course=3)
    assert mixed[:4] == base and mixed[4:] == [t.render() for t in course_oracle.trajectories()[:3]]
    assert finetune.course_texts("act", 2) == [finetune.training_text(t, "act")
                                               for t in course_oracle.trajectories()[:2]]
    with pytest.raises(ValueError, match="the course-corpus set has"):
        finetune.course_texts("react", len(QS) + 1)
    with pytest.raises(ValueError, match="whole number"):
        finetune.course_texts("react", -1)


def test_course_times_trains_each_prose_question_again_in_other_thoughts_and_reads_the_same_pages():
    once = finetune.course_texts("react", 40)
    twice = finetune.world_texts("react", 4, course=40, course_times=2)[4:]
    assert twice[:40] == once  # the first pass is the text the earlier adapters learned
    again = course_oracle.trajectories("train", 1)[:40]
    assert twice[40:] == [t.render() for t in again]
    for a, b in zip(course_oracle.trajectories()[:40], again):
        # the same question, pages, observations and answer (past variant 1's missed first searches, tested
        # below); only the worded thoughts move, and every one moves
        found = [s for s in b.steps if not s.observation.startswith("Could not find")]
        assert (a.question, [(s.action, s.observation) for s in a.steps], a.answer) == \
            (b.question, [(s.action, s.observation) for s in found], b.answer)
        assert a.steps[0].thought != b.steps[0].thought
    assert len(set(twice)) == 80  # no two identical texts, which would share a batch and count once
    with pytest.raises(ValueError, match="course_times must be a whole number >= 1"):
        finetune.course_texts("react", 3, times=0)


def test_the_finetune_command_takes_course_off_by_default():
    from react_teach.cli import parser
    p = parser()
    assert p.parse_args(["finetune"]).course == 0 and p.parse_args(["finetune"]).course_times == 1
    assert p.parse_args(["finetune", "--course", "120"]).course == 120
    assert p.parse_args(["finetune", "--course", "120", "--course-times", "2"]).course_times == 2


def test_the_dev_split_shares_no_article_with_training_and_training_never_takes_it():
    train, dev = course_data.questions("train"), course_data.questions("dev")
    assert len(train) + len(dev) == len(QS) and len(dev) >= 40
    read = lambda qs: {t for q in qs for t, _ in q["supporting_facts"]}  # noqa: E731
    # every dev question reads an article that no training question reads (a bridge may pass a trained page too)
    assert read(train) & course_data.dev_titles() == set() and course_data.dev_titles() <= read(dev)
    assert all(read([q]) & course_data.dev_titles() for q in dev)
    assert {t.question for t in course_oracle.trajectories("dev")} == {q["question"] for q in dev}
    # the most `--course` can take is the training split: a dev question never reaches an adapter
    texts = finetune.course_texts("react", len(train))
    assert not any(q["question"] in t for q in dev for t in texts)
    with pytest.raises(ValueError, match=f"the course-corpus set has {len(train)}"):
        finetune.course_texts("react", len(train) + 1)
    with pytest.raises(ValueError, match="split must be train, dev or all"):
        course_data.questions("test")


def test_odd_variants_search_the_name_the_question_uses_and_take_the_title_from_the_similar_ones():
    wiki = LocalWiki.course()
    answers = {q["answer"] for q in TEST if q["answer"].lower() not in ("yes", "no")}
    plain, odd = course_oracle.trajectories("train", 0), course_oracle.trajectories("train", 1)
    missed = 0
    for q, a, b in zip(course_data.questions("train"), plain, odd):
        assert not any(s.observation.startswith("Could not find") for s in a.steps), q["id"]  # variant 0 as it was
        for i, s in enumerate(b.steps):
            if not s.observation.startswith("Could not find"):
                continue
            missed += 1
            typed, then = s.action[len("Search["):-1], b.steps[i + 1]
            title = then.action[len("Search["):-1]
            assert words(q["question"], typed) and not words(q["question"], title), q["id"]  # the question's name
            assert title in {t for t, _ in q["supporting_facts"]} and repr(title) in s.observation, q["id"]
            assert then.thought.endswith(f"I need to search {title}.") and "similar titles" in then.thought
            assert not [x for x in answers if words(s.observation, x)], q["id"]  # the list shows no test answer
    assert missed >= 25
    assert course_oracle.typed_name("Who published The Great Gatsby?", "The Great Gatsby", wiki) is None
    assert course_oracle.typed_name("What is the largest tributary of the Amazon by volume?", "Amazon River",
                                  wiki) == "Amazon"


def test_added_articles_are_for_training_alone_and_leave_the_course_and_the_first_questions_as_they_were():
    course, extra = LocalWiki.course(), course_data.added()
    assert len(extra) >= 40
    assert not [t for t in extra if course.page(t) is not None]  # the course's wiki, the test's, never shows one
    over_added = [q for q in QS if any(t in extra for t, _ in q["supporting_facts"])]
    assert len(over_added) >= 200 and all(q in course_data.questions("train") for q in over_added)
    # appended after the 500 written over the course's own pages, so `--course 423` is the shipped adapters' data
    assert QS.index(over_added[0]) == 500 and all(q in over_added for q in QS[500:])
    walked = course_data.wiki_for(over_added[0])
    assert walked is not course and all(walked.page(t) is not None for t in extra)
    assert course_data.wiki_for(QS[0]) is course


def test_an_added_article_that_names_a_test_answer_or_repeats_a_course_page_is_refused(monkeypatch):
    answer = sorted(course_data.answers_of(TEST))[0]
    plain = {"title": "Plain page", "sentences": ["A plain page.", "It says little."]}
    course_data.check_added({"Plain page": plain})  # nothing to refuse
    naming = {"title": "Naming page", "sentences": ["A page.", f"It mentions {answer} once."]}
    with pytest.raises(ValueError, match="names its pages or answers"):
        course_data.check_added({"Naming page": naming})
    split = {"title": "Split page", "sentences": ["It was built by Dr. Smith."]}
    with pytest.raises(ValueError, match="sentence 0 must end"):
        course_data.check_added({"Split page": split})
    bracketed = {"title": "Plain (page)", "sentences": ["A plain page."]}
    with pytest.raises(ValueError, match="needs 'Plain' among its redirects"):
        course_data.check_added({"Plain (page)": bracketed})
    monkeypatch.setattr(course_data, "added", lambda: {"Koala": plain})
    with pytest.raises(ValueError, match="repeats course articles: Koala"):
        course_data.articles()


def test_three_page_bridges_read_their_three_pages_in_order_by_the_names_they_read_and_finish():
    train = course_data.questions("train")
    three = [q for q in train if q["shape"] == "bridge" and len({t for t, _ in q["supporting_facts"]}) == 3]
    # appended at the end of the file, after the 860 training questions before them, and all of them training
    assert len(three) >= 40 and train.index(three[0]) == 860 and QS[-len(three):] == three
    for q in three:
        titles = [t for t, _ in q["supporting_facts"]]
        assert len(titles) == len(set(titles)) == 3, q["id"]  # one deciding sentence a page, in reading order
        for a, b in zip(titles, titles[1:]):  # each page's sentence names the next, and the question names neither
            assert any(words(ARTS[a]["sentences"][dict(q["supporting_facts"])[a]], n)
                       for n in course_data.names(ARTS[b])), (q["id"], a, b)
            assert not any(words(q["question"], n) for n in course_data.names(ARTS[b])), (q["id"], b)
        for v in (0, 1):
            t = course_oracle.oracle(q, variant=v)
            env, landed = WikiEnv(course_data.wiki_for(q)), []
            for s in t.steps[:-1]:
                env.step(s.action[:1].lower() + s.action[1:])
                if s.action.startswith("Search[") and env.page is not None:
                    landed.append(env.page.title)
                # only the first page may be searched first by the question's name for it (an odd variant's miss):
                # the next two by the name the sentence read gives, which finds them at once
                assert not (landed and s.observation.startswith("Could not find")), (q["id"], v, s.action)
            assert landed == titles, (q["id"], v, landed)  # three distinct pages, in order
            first = t.steps[0].thought  # says how far the walk goes: three pages, never the two-page bridges' two
            assert "two pages" not in first and ("three pages" in first or "a third" in first), (q["id"], v)
            assert t.steps[-1].action == f"Finish[{q['answer']}]", (q["id"], v)


def test_the_three_page_bridges_leave_the_first_860_training_texts_as_they_were():
    # the text of the 860 training questions before them, in both variants `--course-times 2` takes: every
    # shipped adapter's prose (the first 423, twice) is a part of it
    texts = finetune.course_texts("react", 860, times=2)
    assert finetune.data_hash(texts[:860]) == "c4b60e1898b40dd84489762bc92b6ad7adb097fec3266f48355a6ae6e8d8d102"
    assert finetune.data_hash(texts[860:]) == "3eb75fd883696abea67793ea711c542fa7afab0afd74cd7872a6d45793e84a5d"
