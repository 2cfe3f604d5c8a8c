"""A generated world: same seed, same bytes; every oracle trajectory replays through the real WikiEnv and ends with
the gold answer; supporting facts hold their answers; no title of the course corpus comes back; stated shares."""
import json
import re
from collections import Counter

import pytest

from react_teach import ablate, cli, world
from react_teach.data import data_dir, read_jsonl
from react_teach.world.questions import sentence_rel, value
from react_teach.cli.specs import open_wiki as from_spec
from react_teach.wiki import WikiEnv, article_text, sentences


@pytest.fixture(scope="module")
def w1():
    return world.generate(1, 300)


@pytest.fixture(scope="module")
def trajectories(w1):
    wk = world.wiki(w1)
    return wk, {q["id"]: world.oracle(w1, q, wk) for q in w1.questions + w1.claims}


def test_one_seed_gives_identical_bytes_and_another_seed_a_different_world(w1):
    again = world.generate(1, 300)
    dump = lambda w: json.dumps([w.articles, w.questions, w.claims], sort_keys=True)  # noqa: E731
    assert dump(again) == dump(w1)
    assert world.generate(2, 300).articles != w1.articles


def test_every_oracle_trajectory_replays_byte_for_byte_and_finishes_with_the_gold_answer(w1, trajectories):
    wk, ts = trajectories
    for q in w1.questions + w1.claims:
        t, gold = ts[q["id"]], q.get("answer", q.get("label"))
        env = WikiEnv(wk, gold=gold)
        for s in t.steps[:-1]:
            obs, done = env.step(s.action[:1].lower() + s.action[1:])
            assert obs == s.observation and not done, (q["id"], s.action)
        obs, done = env.step(t.steps[-1].action[:1].lower() + t.steps[-1].action[1:])
        assert done and env.answer == gold == t.answer and obs.endswith("reward = 1"), q["id"]
        assert len(t.steps) <= (5 if "claim" in q else 7), q["id"]
        assert all(s.thought and s.action for s in t.steps)


def test_every_thought_names_the_action_that_follows(w1, trajectories):
    _, ts = trajectories
    for t in ts.values():
        for s in t.steps:
            kind, arg = s.action.split("[", 1)
            arg = arg[:-1]
            if kind == "Finish":
                assert f"the answer is {arg}" in s.thought
            else:  # "I need to search X", "I need to look up founded"
                assert ("search " if kind == "Search" else "look up ") + arg in s.thought, s


def test_the_recoveries_happen_through_the_official_tool_behaviour(w1, trajectories):
    _, ts = trajectories
    obs = {qid: [s.observation or "" for s in t.steps] for qid, t in ts.items()}
    by = {r: [q["id"] for q in w1.questions if r in q["recovery"]] for r in ("miss", "disambig", "lookup")}
    for qid in by["disambig"]:  # the disambiguation page sends the search to "[Name]", which misses
        assert any(o.startswith("Could not find [") for o in obs[qid]), qid
    for qid in by["miss"]:
        miss = next(o for o in obs[qid] if o.startswith("Could not find"))
        assert not miss.startswith("Could not find [") and "Similar: [" in miss
    for qid in by["lookup"]:
        assert any(o.startswith("(Result 1 / ") for o in obs[qid]), qid
    pages = [a for a in w1.articles if a.get("disambiguation")]
    assert pages and all(a["sentences"][0] == f"{a['title']} may refer to:" for a in pages)


def test_every_supporting_fact_exists_and_holds_its_fact(w1):
    by_title = {a["title"]: a["sentences"] for a in w1.articles}
    for q in w1.questions:
        reads = w1.plans[q["id"]]["reads"]
        assert len(q["supporting_facts"]) == len(reads) == q["hops"]
        for (title, idx), (_, rel, _) in zip(q["supporting_facts"], reads):
            assert value(w1.entities[title], rel) in by_title[title][idx]
            assert idx == w1.entities[title]["idx"][sentence_rel(rel)]
        if q["type"] == "bridge":  # the last fact read is the answer itself
            title, idx = q["supporting_facts"][-1]
            assert q["answer"] in by_title[title][idx]
    for c in w1.claims:  # FEVER gives NOT ENOUGH INFO no evidence; the others one sentence that holds the fact
        assert bool(c["evidence"]) == (c["label"] != "NOT ENOUGH INFO")
        for title, idx in c["evidence"]:
            (_, rel, _), = w1.plans[c["id"]]["reads"]
            assert value(w1.entities[title], rel) in by_title[title][idx]


def test_no_world_title_collides_with_the_course_corpus():
    course = {a["title"].casefold() for p in (data_dir() / "corpus").glob("*.jsonl") for a in read_jsonl(p)}
    for seed in (1, world.HELDOUT_SEED):
        titles = [a["title"].casefold() for a in world.generate(seed, world.SIZE).articles]
        assert len(set(titles)) == len(titles)
        assert not course & set(titles)


def test_question_types_levels_and_recoveries_come_in_the_stated_shares(w1):
    n = len(w1.questions)
    assert Counter(q["type"] for q in w1.questions) == {"bridge": n // 2, "comparison": 3 * n // 10,
                                                         "yesno": n // 5}
    assert Counter(q["level"] for q in w1.questions) == {"easy": n // 5, "medium": 3 * n // 5, "hard": n // 5}
    assert Counter(q["hops"] for q in w1.questions if q["type"] == "bridge") == {2: 3 * n // 10, 3: n // 5}
    rec = Counter(q["recovery"][0] if q["recovery"] else "none" for q in w1.questions)
    for r, share in (("none", 0.55), ("miss", 0.15), ("disambig", 0.15), ("lookup", 0.15)):
        assert abs(rec[r] / n - share) < 0.05, (r, rec)
    assert Counter(c["label"] for c in w1.claims) == {"SUPPORTS": 50, "REFUTES": 50, "NOT ENOUGH INFO": 50}


def test_search_shows_short_pages_and_a_late_fact_needs_lookup(w1):
    first5 = [len(" ".join(sentences(article_text(a))[:5]).split()) for a in w1.articles
              if not a.get("disambiguation") and w1.entities[a["title"]]["type"] != "country"]
    assert 35 <= sum(first5) / len(first5) <= 60 and max(first5) <= 70  # words; about 60-70 SmolLM2 tokens
    late = [e for e in w1.entities.values() if e.get("late")]
    assert late and all(e["idx"][e["late"]] >= 5 for e in late)


def test_the_baselines_are_the_oracle_trajectory_with_lines_deleted(trajectories):
    _, ts = trajectories
    t = next(t for t in ts.values() if len(t.steps) >= 3)
    text = t.render()
    assert "Thought" not in ablate.to_act(text) and ablate.to_act(text).count("Action") == len(t.steps)
    assert ablate.to_standard(text) == f"Question: {t.question}\nAnswer: {t.answer}\n"
    cot = ablate.to_cot(text)
    assert "Observation" not in cot and "search" not in cot.lower() and cot.endswith(f"Answer: {t.answer}\n")


def test_the_wiki_spec_opens_a_world():
    w = world.generate(4, world.SIZE)
    wk = from_spec("world:4")
    assert wk.page(w.articles[0]["title"]).title == w.articles[0]["title"]
    assert from_spec("world:4:30").page(world.generate(4, 30).articles[1]["title"])
    with pytest.raises(ValueError, match="seed must be a whole number"):
        from_spec("world:four")


def test_world_build_writes_the_folder_and_two_builds_are_identical(tmp_path, capsys):
    for name in ("a", "b"):
        assert cli.main(["world", "build", "--seed", "3", "--size", "40", "--out", str(tmp_path / name)]) == 0
    assert "questions=40" in capsys.readouterr().out
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == ["claims.jsonl", "corpus.jsonl", "questions.jsonl", "trajectories.jsonl"]
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    row = read_jsonl(tmp_path / "a" / "trajectories.jsonl")[0]
    assert {"react", "act", "cot", "standard", "trajectory", "gold"} <= set(row)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


@pytest.mark.parametrize("args, message", [
    (["--seed", "x"], "seed must be a whole number >= 0, not 'x'"),
    (["--seed", "-1"], "seed must be a whole number >= 0"),
    (["--seed", "1", "--size", "0"], "size must be a whole number from 1 to 5000, not 0"),
    (["--seed", "1", "--size", "5001"], "size must be a whole number from 1 to 5000"),
])
def test_world_build_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as e:
        cli.main(["world", "build", *args, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_world_build_refuses_an_existing_folder_and_leaves_it_alone(tmp_path, capsys):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("keep")
    with pytest.raises(SystemExit) as e:
        cli.main(["world", "build", "--seed", "1", "--out", str(tmp_path / "out")])
    assert e.value.code == 2 and "already exists" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["mine.txt"]


def test_the_course_agent_playing_the_oracle_script_on_world_spec_reaches_the_gold_answer(tmp_path, capsys):
    """`ask --wiki world:SEED:SIZE` opens the world; a scripted model that writes the oracle's thoughts and actions
    gets the oracle's observations from the course's own Agent, and its answer."""
    w = world.generate(3, 40)
    q = next(q for q in w.questions if q["recovery"] and q["hops"] == 3)
    t, out = ask_as_the_oracle(w, q, "world:3:40", tmp_path, capsys)
    assert out["answer"] == q["answer"]
    assert [s["observation"] for s in out["steps"][:-1]] == [s.observation for s in t.steps[:-1]]


def ask_as_the_oracle(w, q, spec, tmp_path, capsys):
    """`ask --wiki SPEC` with a script that writes the oracle's thoughts and actions: (oracle trajectory, --json)."""
    t = world.oracle(w, q, world.wiki(w))
    script = tmp_path / "oracle.jsonl"
    script.write_text("".join(json.dumps(f" {s.thought}\nAction {i}: {s.action}") + "\n"
                              for i, s in enumerate(t.steps, 1)))
    assert cli.main(["ask", q["question"], "--llm", f"script:{script}", "--wiki", spec, "--json"]) == 0
    return t, json.loads(capsys.readouterr().out)


def test_training_seeds_give_2000_questions_and_the_held_out_seed_is_not_among_them():
    assert world.HELDOUT_SEED not in world.TRAIN_SEEDS
    assert len(world.TRAIN_SEEDS) * world.SIZE >= 2000
    assert len(world.generate(world.HELDOUT_SEED, world.SIZE).questions) == 200


def test_a_version_2_world_in_its_held_out_wording_is_built_and_opened_by_the_same_words(tmp_path, capsys):
    """`world build --version 2 --wording heldout` writes the world `generate` makes, says which `--wiki` opens it,
    and that spec serves the oracle's observations: the questions and the articles are of one world."""
    assert cli.main(["world", "build", "--seed", "3", "--size", "40", "--version", "2", "--wording", "heldout",
                     "--out", str(tmp_path / "w")]) == 0
    assert "(its wiki: --wiki world:3:40:v2:heldout)" in capsys.readouterr().out
    w = world.generate(3, 40, version=2, wording="heldout")
    assert read_jsonl(tmp_path / "w" / "questions.jsonl") == [json.loads(json.dumps(q, sort_keys=True))
                                                             for q in w.questions]
    q = next(q for q in w.questions if q["hops"] == 2)
    t, out = ask_as_the_oracle(w, q, world.spec(3, 40, 2, "heldout"), tmp_path, capsys)
    assert out["answer"] == q["answer"]
    assert [s["observation"] for s in out["steps"][:-1]] == [s.observation for s in t.steps[:-1]]
    # the version-1 world of the same seed has the same titles in other sentences: without :v2, other pages
    v1, v2 = from_spec("world:3:40"), from_spec("world:3:40:v2:heldout")
    titles = [a["title"] for a in w.articles if "(disambiguation)" not in a["title"]]
    differ = sum(v1.page(t).text != v2.page(t).text for t in titles)
    assert differ >= len(titles) // 2, (differ, len(titles))


@pytest.mark.parametrize("spec, message", [
    ("world:3:40:v3", "come v1 or v2 and trained or heldout, not 'v3'"),
    ("world:3:v1:heldout", "version 1 has one wording"),
    ("world:3:40:sideways", "not 'sideways'"),
])
def test_a_bad_world_spec_says_what_it_takes(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        from_spec(spec)


@pytest.mark.parametrize("version, wording", [(1, "trained"), (2, "trained"), (2, "heldout")])
def test_guessing_takes_the_first_option_of_every_two_way_question_in_every_wording(version, wording):
    qs = world.generate(4101, world.SIZE, version, wording).questions
    two_way = [q for q in qs if q["type"] == "comparison" and q["answer"] not in ("yes", "no")
               and not q["answer"].isdigit()]
    for q in two_way:
        text, g = q["question"], world.guess(q)
        assert g != "yes" and g in text, text
        if g != q["answer"]:
            assert text.index(g) < text.index(q["answer"]), f"{g!r} is not named first in {text!r}"
    right = sum(world.guess(q) == q["answer"] for q in two_way)
    assert 0 < right < len(two_way), "the guess is the first option, not the gold"
    rest = [q for q in qs if q not in two_way]
    assert rest and all(world.guess(q) == "yes" for q in rest)
    assert world.floor(qs) == (right + sum(q["answer"] == "yes" for q in rest)) / len(qs)
