"""An evaluation that cannot flatter: disjoint train / dev / test worlds, held-out wordings that no training world
uses (checked by seed, by recorded template and by text), `finetune` refusing both, and data version 2 (many
wordings, balanced yes/no decided by the sentence read, a last thought that states it first) with version 1 untouched."""
import re
from collections import Counter
from pathlib import Path

import pytest

from react_teach import finetune, world
from react_teach.world import phrasings, wordings
from react_teach.world.questions import value


@pytest.fixture(scope="module")
def train_v2():
    return [world.generate(s, world.SIZE, version=2) for s in world.TRAIN_SEEDS[:3]]


@pytest.fixture(scope="module")
def pair():
    return tuple(world.generate(world.DEV_SEEDS[1], 100, version=2, wording=s) for s in wordings.SPLITS)


def test_train_dev_and_test_seeds_are_disjoint_and_the_test_is_big_enough():
    train, dev, test = set(world.TRAIN_SEEDS), set(world.DEV_SEEDS), set(world.TEST_SEEDS)
    assert not train & dev and not train & test and not dev & test
    assert len(test) >= 5 and len(test) * world.SIZE >= 1000
    assert world.HELDOUT_SEED in dev and world.NEVER_TRAIN == dev | test
    assert world.TRAIN_SEEDS[:world.V1_TRAIN_WORLDS] == tuple(range(1, 13))  # the worlds the shipped adapters read


@pytest.mark.parametrize("seed", world.DEV_SEEDS + world.TEST_SEEDS)
def test_finetune_refuses_every_dev_and_test_world(seed):
    with pytest.raises(ValueError, match=r"is a (dev|test) world: never train on it"):
        finetune.world_texts("react", 3, seeds=(1, seed), version=2)
    with pytest.raises(ValueError, match="never train on it"):
        finetune.world_texts("react", 3, seeds=(seed,))


def test_finetune_refuses_the_held_out_wordings_and_a_held_out_template_in_disguise(monkeypatch):
    with pytest.raises(ValueError, match="held out for evaluation"):
        finetune.world_texts("react", 3, seeds=(1,), version=2, wording="heldout")
    real = world.generate

    def leaky(seed, size, version=1, wording="trained"):  # a generator bug that slips held-out wordings in
        return real(seed, size, version, "heldout" if version == 2 else wording)

    monkeypatch.setattr(world, "generate", leaky)
    finetune.oracle_trajectories.cache_clear()
    try:
        with pytest.raises(ValueError, match="worded in a held-out template"):
            finetune.world_texts("react", 3, seeds=(2,), version=2)
    finally:
        finetune.oracle_trajectories.cache_clear()


def test_every_question_shape_has_at_least_8_wordings_and_a_held_out_share():
    pools = [*wordings.ASK.values(), *wordings.DESCRIBE.values(), wordings.FIRST, wordings.GAP, wordings.BOTH,
             wordings.YESNO]
    for pool in pools:
        assert len(pool) >= 8 and len(set(pool)) == len(pool), pool[0]
        assert len(wordings.split_of(pool, "heldout")) == wordings.HELD >= 2
    for pool in phrasings.PHRASES.values():
        assert len(pool) >= 6 and len(phrasings.split_of(pool, "heldout", phrasings.HELD)) == 2


def _literal(template: str) -> str:
    """The longest fixed text of a template (between its slots): what a rendering of it must contain."""
    return max((c.strip(" ,.?:") for c in re.split(r"\{[^}]+\}", template)), key=len)


def test_no_training_question_uses_a_held_out_template_by_record_or_by_text(train_v2):
    questions = [q for w in train_v2 for q in w.questions]
    for w in train_v2:
        for q in w.questions:
            plan = w.plans[q["id"]]
            assert q["wording"] == "trained" and wordings.is_in(plan["spec"], plan["choice"], "trained")
            assert wordings.render(plan["spec"], plan["choice"]) == q["question"]
    pools = [*wordings.ASK.values(), *wordings.DESCRIBE.values(), wordings.FIRST, wordings.GAP, wordings.BOTH,
             wordings.YESNO]
    for pool in pools:
        for i in wordings.split_of(pool, "heldout"):
            text = _literal(pool[i])
            assert len(text.split()) >= 2 or not text, pool[i]
            hits = [q["question"] for q in questions if text and text in q["question"]]
            assert not hits, (pool[i], hits[:2])


def test_no_training_article_uses_a_held_out_phrasing(train_v2):
    sentences = {s for w in train_v2 for a in w.articles for s in a["sentences"]}
    for pool in phrasings.PHRASES.values():
        for i in phrasings.split_of(pool, "heldout", phrasings.HELD):
            pattern = re.compile(re.sub(r"\\\{[^}]+\\\}", ".+", re.escape(pool[i][0])))
            assert not [s for s in sentences if pattern.fullmatch(s)], pool[i][0]


def test_both_wordings_ask_the_same_questions_with_the_same_facts_and_gold(pair):
    trained, held = pair
    assert [(q["id"], q["answer"], q["supporting_facts"]) for q in trained.questions] == \
           [(q["id"], q["answer"], q["supporting_facts"]) for q in held.questions]
    assert sum(a["question"] != b["question"] for a, b in zip(trained.questions, held.questions)) >= 95
    for q in held.questions:
        plan = held.plans[q["id"]]
        assert q["wording"] == "heldout" and wordings.is_in(plan["spec"], plan["choice"], "heldout")
    assert trained.entities.keys() == held.entities.keys()
    assert [a["title"] for a in trained.articles] == [a["title"] for a in held.articles]


def test_version_2_oracles_replay_and_the_last_thought_first_states_the_fact_that_decides(pair):
    from react_teach.wiki import WikiEnv
    from react_teach.world.questions import fact

    for w in pair:
        wk = world.wiki(w)
        for q in w.questions:
            t = world.oracle(w, q, wk)
            env = WikiEnv(wk, gold=q["answer"])
            for s in t.steps[:-1]:
                assert env.step(s.action[:1].lower() + s.action[1:])[0] == s.observation, (q["id"], s.action)
            last = t.steps[-1]
            assert last.action == f"Finish[{q['answer']}]" and f"the answer is {q['answer']}" in last.thought
            title, idx = q["supporting_facts"][-1]
            sentence = w.entities[title]["text"][idx]
            assert any(sentence in (s.observation or "") for s in t.steps)  # the deciding sentence was on screen
            rel = w.plans[q["id"]]["reads"][-1][1]
            v = value(w.entities[title], rel)
            assert v in sentence  # and the value the thought states is the one that sentence gives
            if q["shape"] == "both":  # both values, each after its owner, open the thought
                assert last.thought.split(". ")[0].endswith(v), last.thought
            elif q["shape"] in ("first", "gap"):  # both years, each before its owner, open the thought
                owner = w.plans[q["id"]]["reads"][-1][2]
                assert last.thought.split(". ")[0].endswith(f"{v} ({owner})"), last.thought
            else:  # the fact just read, in the oracle's words, before any word that depends on it
                assert last.thought.startswith(fact(w.entities[title], rel, v) + ". "), last.thought


def test_version_2_names_the_title_it_takes_from_the_similar_ones_last_before_searching_it(pair):
    # version 1 wrote "search X from the similar titles", and its model searched "Turkey from the similar titles"
    recoveries = 0
    for w in pair:
        wk = world.wiki(w)
        for q in w.questions:
            steps = world.oracle(w, q, wk).steps
            for missed, then in zip(steps, steps[1:]):
                if missed.observation.startswith("Could not find") and not missed.observation.startswith(
                        "Could not find ["):  # a bracketed miss is a work of several pages: its own thought
                    title = then.action[len("Search["):-1]
                    assert repr(title) in missed.observation and then.thought.endswith(f"search {title}."), q["id"]
                    recoveries += 1
    assert recoveries >= 5


def test_version_2_keeps_a_chains_plan_in_view_and_names_what_it_compares_before_comparing(pair):
    """Reading on or answering, and "and" or "but", are written next to what decides them, never before it."""
    for w in pair:
        wk = world.wiki(w)
        for q in w.questions:
            plan, t = w.plans[q["id"]], world.oracle(w, q, wk)
            reads = plan["reads"]
            if q["shape"].startswith("bridge"):  # the thought that goes to read k names the hops - k goals left
                assert "This needs" not in t.steps[0].thought  # no count to get wrong before a goal is read
                for k in range(1, len(reads)):
                    go = next(s for s in t.steps if s.action == f"Search[{reads[k][2] or reads[k][0]}]")
                    assert go.thought.count(", then ") == len(reads) - k - 1, go.thought
            if q["shape"] in ("first", "gap", "both"):
                (ta, rel, a), (tb, _, b) = reads
                named = t.steps[-1].thought.split(". ")[0]  # what comes before the comparison
                va, vb = value(w.entities[ta], rel), value(w.entities[tb], rel)
                if q["shape"] == "both":
                    assert named.index(a) < named.index(va) < named.index(b) < named.index(vb, named.index(b)), named
                else:  # a year, then its owner in brackets: the word a model copies once it has chosen the year
                    assert named.index(f"{va} ({a})") < named.index(f"{vb} ({b})"), named
                assert " but " not in named and not re.search(r"earlier|minus|both", named), named


def test_yes_no_answers_are_balanced_and_decided_by_the_sentence_read(pair):
    for w in pair:
        for shape in ("yesno", "both"):
            answers = Counter(q["answer"] for q in w.questions if q["shape"] == shape)
            assert answers["no"] > 0 and 0 <= answers["yes"] - answers["no"] <= 1, (shape, answers)  # they alternate
        for q in (q for q in w.questions if q["shape"] == "yesno"):
            plan = w.plans[q["id"]]
            (title, rel, _), = plan["reads"]
            _, key, v = plan["check"]
            true = value(w.entities[title], rel)
            said = w.entities[title]["text"][q["supporting_facts"][0][1]]
            assert true in said
            if key == "before":
                assert (int(true) < int(v)) == (q["answer"] == "yes")
            else:
                assert (v == true) == (q["answer"] == "yes"), q


def test_version_2_asks_every_shape_people_ask():
    w = world.generate(world.TRAIN_SEEDS[0], world.SIZE, version=2)
    assert Counter(q["shape"] for q in w.questions) == {"bridge2": 50, "bridge3": 40, "yesno": 40, "both": 30,
                                                          "first": 20, "gap": 20}
    starts = Counter(q["question"].split()[0] for q in w.questions)
    assert len(starts) >= 15, starts  # who, which, when, where, how many, ... not one template's first word
    assert all(q["hops"] == int(q["shape"][-1]) for q in w.questions if q["shape"].startswith("bridge"))


def test_version_1_is_the_default_and_has_one_wording():
    assert world.generate(3, 20).questions == world.generate(3, 20, version=1).questions
    with pytest.raises(ValueError, match="version 1 has one wording"):
        world.generate(3, 20, version=1, wording="heldout")
    with pytest.raises(ValueError, match="no world of version 3"):
        world.generate(3, 20, version=3)


def worlds_benchmark() -> dict:
    """benchmarks/worlds_eval.py's globals, loaded as a script is (the benchmarks folder is no package)."""
    import runpy
    import sys

    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    bench = runpy.run_path(str(folder / "worlds_eval.py"))
    sys.path.remove(str(folder))  # the benchmark put its own folder first, to import finetune_eval
    return bench


def test_the_worlds_benchmark_reports_pooled_per_world_by_wording_by_type_and_by_shape(tmp_path, capsys):
    """A model that always answers "yes" (a script, one completion per question) must score exactly the always-yes
    baseline, pooled, per world and per type, in both wordings, and the pairing must count every question; the
    README's figures block then becomes the summary's tables, and nothing around it changes."""
    import json

    from react_teach.runs.report import MARKERS, block, markdown

    script = tmp_path / "yes.jsonl"
    script.write_text((json.dumps(" I will say yes.\nAction 1: Finish[yes]") + "\n") * 24, encoding="utf-8")
    bench = worlds_benchmark()
    argv = ["--dev", "--worlds", "2", "--n", "6", "--llm", f"script:{script}", "--parts", "worlds,course",
            "--out", str(tmp_path / "runs")]
    assert bench["main"](argv) == 0
    assert "course: skipped on --dev" in capsys.readouterr().err  # the course questions are a test set
    out = json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text())
    assert out["split"] == "dev" and out["seeds"] == list(world.DEV_SEEDS[:2]) and "course" not in out
    react = out["methods"]["react"]
    for wording in ("trained", "heldout"):
        figures = [react[wording]["pooled"], *react[wording]["worlds"].values(), *react[wording]["by_type"].values(),
                   *react[wording]["by_shape"].values()]
        assert all(f["em"] == f["baselines"]["always yes"] for f in figures), wording
        assert react[wording]["pooled"]["n"] == 12 and sum(f["n"] for f in react[wording]["by_type"].values()) == 12
        shapes = react[wording]["by_shape"]  # a comparison's shapes add up to the comparison type
        assert sum(f["n"] for f in shapes.values()) == 12 and set(shapes) <= set(world.SHAPES)
        assert sum(shapes[k]["n"] for k in ("first", "both", "gap") if k in shapes) == \
            react[wording]["by_type"].get("comparison", {"n": 0})["n"]
        assert react[wording]["pooled"]["unfinished"] == react[wording]["pooled"]["repeated_call"] == 0
    paired = react["paired"]
    assert paired["n"] == 12 and paired["trained_only"] == paired["heldout_only"] == 0
    # by template: every held-out template of the 12 questions, counted once for each question that uses it; an
    # answer that ignores the wording scores the same in both
    held = [world.generate(s, world.SIZE, 2, "heldout") for s in world.DEV_SEEDS[:2]]
    plans = [w.plans[q["id"]] for w in held for q in w.questions[:6]]
    uses = Counter(t for p in plans for t in wordings.templates(p["spec"], p["choice"]))
    assert {x["template"]: x["n"] for x in paired["by_template"]} == dict(uses)
    assert all(x["trained"] == x["heldout"] and x["gap"] == 0 for x in paired["by_template"])
    assert paired["both"] == round(12 * react["trained"]["pooled"]["em"])
    assert bench["main"](argv[:-4] + ["--parts", "files", "--out", str(tmp_path / "runs")]) == 0  # no model
    again = json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text())["methods"]["react"]
    assert again["from_files"] and {k: again[k] for k in react} == react
    readme = tmp_path / "README.md"
    readme.write_text(f"# Course\n\n{MARKERS[0]}\nfigures typed by hand\n{MARKERS[1]}\n\nThe rest.\n")
    assert bench["main"](argv[:-4] + ["--parts", "files,readme", "--out", str(tmp_path / "runs"),
                                      "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert "typed by hand" not in text and text.startswith("# Course\n") and text.endswith("\n\nThe rest.\n")
    assert block(text) == markdown(json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text()))
    assert f"| ReAct | {react['trained']['pooled']['em']:.3f} [" in text
    # the loss ablation: another adapter (a script that always says "no") on the same questions as ReAct's
    no = tmp_path / "no.jsonl"
    no.write_text((json.dumps(" I will say no.\nAction 1: Finish[no]") + "\n") * 12, encoding="utf-8")
    assert bench["main"](["--dev", "--worlds", "2", "--n", "6", "--llm", f"script:{no}", "--parts", "ablation",
                          "--out", str(tmp_path / "runs")]) == 0
    x = json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text())["ablation"]
    assert x["paired"]["n"] == x["pooled"]["n"] == 12 and x["llm"] == f"script:{no}"
    assert x["paired"]["all"]["em"] == x["pooled"]["em"] == x["pooled"]["baselines"]["always no"]
    assert x["paired"]["model"]["em"] == react["trained"]["pooled"]["em"] != x["paired"]["all"]["em"]
    assert bench["main"](argv[:-4] + ["--parts", "files,ablation,readme", "--out", str(tmp_path / "runs"),
                                      "--readme", str(readme)]) == 0
    again = json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text())["ablation"]
    assert {k: again[k] for k in ("paired", "pooled", "worlds")} == {k: x[k] for k in ("paired", "pooled", "worlds")}
    assert "with the loss on the model's own turns" in readme.read_text()
    with pytest.raises(SystemExit) as e:
        bench["main"](["--test", "--methods", "reactt", "--out", str(tmp_path / "runs")])
    assert e.value.code == 2 and "unknown method or wording 'reactt'" in capsys.readouterr().err


def test_a_try_is_paired_with_its_base_question_by_question_and_the_split_decides(tmp_path, capsys):
    """A model that always says "yes" against one that always says "no", on the same dev questions: each is right
    alone on exactly the questions whose gold is its answer, never both, and the sign test is on those counts."""
    import json

    from react_teach.runs.stats import sign_test

    bench = worlds_benchmark()
    for say in ("yes", "no"):
        script = tmp_path / f"{say}.jsonl"
        script.write_text((json.dumps(f" I will say {say}.\nAction 1: Finish[{say}]") + "\n") * 28, encoding="utf-8")
        assert bench["main"](["--dev", "--worlds", "2", "--n", "7", "--llm", f"script:{script}", "--parts", "worlds",
                              "--out", str(tmp_path / say)]) == 0
    assert bench["main"](["--dev", "--worlds", "2", "--n", "7", "--parts", "files", "--out", str(tmp_path / "yes"),
                          "--against", str(tmp_path / "no")]) == 0
    printed = capsys.readouterr().out
    by = json.loads((tmp_path / "yes" / "dev" / "summary.json").read_text())["against"]["methods"]["react"]
    golds = {wd: [q["answer"] for s in world.DEV_SEEDS[:2] for q in world.generate(s, world.SIZE, 2, wd).questions[:7]]
             for wd in ("trained", "heldout")}
    assert set(by) == {"trained", "heldout"}
    for wd, c in by.items():
        yes, no = golds[wd].count("yes"), golds[wd].count("no")
        assert yes > no > 0  # (4 and 2 here): a run paired the wrong way round would show
        assert (c["n"], c["both"], c["this_only"], c["other_only"]) == (14, 0, yes, no)
        assert c["neither"] == 14 - yes - no and c["p"] == sign_test(yes, no)
        assert (c["this_em"], c["other_em"]) == (round(yes / 14, 3), round(no / 14, 3))
        assert f"react {wd}: n=14, this {c['this_em']} against {c['other_em']}; right only here {yes}" in printed
    with pytest.raises(SystemExit) as e:  # a pairing runs no model: asked beside a model part, it says so
        bench["main"](["--dev", "--parts", "worlds", "--out", str(tmp_path / "yes"), "--against", str(tmp_path)])
    assert e.value.code == 2 and "use it with --parts files" in capsys.readouterr().err
    assert bench["main"](["--dev", "--worlds", "2", "--n", "7", "--parts", "files", "--out", str(tmp_path / "yes"),
                          "--against", str(tmp_path / "nowhere")]) == 0
    assert "react: no question answered both here and in" in capsys.readouterr().err


def test_the_worlds_benchmark_counts_runs_that_never_finish_and_calls_repeated_for_the_same_result(tmp_path):
    """A model that looks the same word up at every step (a script) never finishes, and repeats a lookup the tool
    has just answered "No more results.": both counts must be every question."""
    import json

    script = tmp_path / "loop.jsonl"
    step = [json.dumps(f" I need to look up wife.\nAction {k}: Lookup[wife]") for k in range(1, 8)]  # 7 steps
    script.write_text("\n".join(step * 2) + "\n", encoding="utf-8")
    bench = worlds_benchmark()
    assert bench["main"](["--dev", "--worlds", "1", "--n", "2", "--wordings", "trained", "--llm", f"script:{script}",
                          "--parts", "worlds", "--out", str(tmp_path / "runs")]) == 0
    pooled = json.loads((tmp_path / "runs" / "dev" / "summary.json").read_text())["methods"]["react"]["trained"][
        "pooled"]
    assert pooled["n"] == 2 and pooled["em"] == 0
    assert pooled["unfinished"] == pooled["repeated_call"] == 2
    once = [{"question": "Q", "extra": {"finished": True},
             "steps": [{"thought": "", "action": "Lookup[wife]", "observation": "No more results."},
                       {"thought": "", "action": "Lookup[spouse]", "observation": "(Result 1 / 1) He is married."},
                       {"thought": "", "action": "Finish[Ana]", "observation": None}]}]
    assert bench["stuck"](once) == {"unfinished": 0, "repeated_call": 0}  # a new word after a miss is no loop
    # the benchmarks are not a package the docstring test walks: their worked example is run here
    import doctest

    example = doctest.DocTestFinder().find(bench["stuck"], "stuck", globs={"stuck": bench["stuck"]})[0]
    assert example.examples and doctest.DocTestRunner().run(example).failed == 0


def test_the_held_out_score_by_template_finds_the_one_phrase_that_fails():
    """Rows of a dev world's held-out questions, wrong exactly where "the native town of" is used: that template
    must come first with every use lost, and no other may show a gap it does not have."""
    bench = worlds_benchmark()
    w = world.generate(world.DEV_SEEDS[0], world.SIZE, 2, "heldout")
    names = [wordings.templates(p["spec"], p["choice"]) for p in (w.plans[q["id"]] for q in w.questions)]
    phrase = "describe birthplace: the native town of {x}"
    rows = [(n, 1, int(phrase not in n)) for n in names]
    out = bench["by_template"](rows)
    uses = sum(phrase in n for n in names)
    assert uses >= 5 and out[0] == {"template": phrase, "n": uses, "trained": uses, "heldout": 0, "gap": 1.0}
    assert all(x["gap"] < 1 for x in out[1:]) and sum(x["n"] for x in out) == sum(map(len, names))
    held = {f"ask {k}: {p[i]}" for k, p in wordings.ASK.items() for i in wordings.split_of(p, "heldout")} | \
        {f"describe {k}: {p[i]}" for k, p in wordings.DESCRIBE.items() for i in wordings.split_of(p, "heldout")}
    assert {x["template"] for x in out if x["template"].startswith(("ask", "describe"))} <= held
    import doctest  # the benchmark is not a package the docstring test walks: its worked example is run here

    example = doctest.DocTestFinder().find(bench["by_template"], "by_template",
                                           globs={"by_template": bench["by_template"]})[0]
    assert example.examples and doctest.DocTestRunner().run(example).failed == 0
