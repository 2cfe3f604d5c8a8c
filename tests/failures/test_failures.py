"""Table 2 labels: each type on hand-written trajectories (one that must get it, one that must not), odd input,
the 200 real trajectories, sampling, agreement and the human label store."""
import doctest
import json
import os

import pytest

from react_teach import cli, failures
from react_teach.failures import labels
from react_teach.failures import (CATEGORIES, FAILURE, FALSE_POSITIVE, HALLUCINATION, LABEL_AMBIGUITY, PAPER_TABLE2,
                                  REASONING_ERROR, SEARCH_RESULT_ERROR, SUCCESS, TRUE_POSITIVE, UNREADABLE, UNSCORED,
                                  LabelStore, cohen_kappa, label, label_file, sample, shares)
from react_teach.trajectory import Step, Trajectory

Q = "Who wrote the play Hamlet?"
GOLD = "William Shakespeare"
FOUND = "Hamlet is a tragedy written by William Shakespeare around 1600."
NOT_FOUND = "Could not find Hamlet play. Similar: []."


def traj(*steps, answer=None, question=Q):
    """A trajectory from (thought, action, observation) triples; the answer is read off a Finish if not given."""
    t = Trajectory(question, [Step(*s) for s in steps], answer)
    if answer is None and steps and steps[-1][1] and steps[-1][1].startswith("Finish["):
        t.answer = steps[-1][1][len("Finish["):-1]
    return t


def finish(answer, thought="So that is the answer."):
    return (thought, f"Finish[{answer}]", "Episode finished.")


def test_module_examples():
    assert doctest.testmod(failures).failed == 0


def test_definitions_and_paper_numbers():
    assert set(failures.DEFINITIONS) == set(CATEGORIES) and len(CATEGORIES) == 6
    react, cot = PAPER_TABLE2["react"], PAPER_TABLE2["cot"]
    assert [react[c] for c in SUCCESS] == [94, 6] and [cot[c] for c in SUCCESS] == [86, 14]
    assert [react[c] for c in FAILURE] == [47, 23, 0, 29] and [cot[c] for c in FAILURE] == [16, None, 56, 28]


# ------------------------------------------------------------------------------------------------ true positive
def test_true_positive_when_an_observation_holds_the_answer():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", FOUND), finish(GOLD)), GOLD)
    assert lab.category == TRUE_POSITIVE
    assert lab.evidence[0].startswith('answer "William Shakespeare" is in observation 1:')


def test_not_true_positive_when_no_observation_holds_the_answer():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", "Hamlet is set in Denmark."), finish(GOLD)), GOLD)
    assert lab.category != TRUE_POSITIVE
    assert lab.signals["answer_supported"] is False


# ----------------------------------------------------------------------------------------------- false positive
def test_false_positive_when_the_right_answer_comes_from_nowhere():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", "Hamlet is set in Denmark."), finish(GOLD)), GOLD)
    assert lab.category == FALSE_POSITIVE
    assert lab.evidence[0] == 'answer "William Shakespeare" appears in none of observations 1'


def test_false_positive_for_cot_stating_a_number_no_fact_has():
    cot = traj(("Hamlet was written in 1599 by William Shakespeare. So the answer is William Shakespeare.",
                f"Finish[{GOLD}]", None))
    lab = label(cot, GOLD, supporting_facts=[FOUND])
    assert lab.category == FALSE_POSITIVE and lab.signals["support"] == "supporting facts"
    assert lab.signals["unsupported_numbers"] == [[1, "1599"]]
    assert "thought 1 states 1599" in lab.evidence[0]


def test_not_false_positive_for_cot_that_reaches_its_answer():
    # no facts to check against: the rule is that the answer must appear outside the sentence announcing it
    reached = traj(("Hamlet is a play by William Shakespeare. So the answer is William Shakespeare.",
                    f"Finish[{GOLD}]", None))
    assert label(reached, GOLD).category == TRUE_POSITIVE
    announced = traj(("Let's think step by step. So the answer is William Shakespeare.", f"Finish[{GOLD}]", None))
    lab = label(announced, GOLD)
    assert lab.category == FALSE_POSITIVE and lab.signals["answer_in_reasoning"] is False
    assert label(reached, GOLD, supporting_facts=[FOUND]).category == TRUE_POSITIVE


# ---------------------------------------------------------------------------------------------- reasoning error
def test_reasoning_error_for_a_loop_that_runs_out_of_steps():
    same = ("I should search Hamlet.", "Search[Hamlet]", "Hamlet is set in Denmark.")
    again = ("I should search Hamlet.", "search[ hamlet ]", "Hamlet is set in Denmark.")
    lab = label(traj(same, again, again), GOLD)
    assert lab.category == REASONING_ERROR
    assert lab.signals["repeated_actions"] == [[1, 2], [2, 3]]
    assert lab.signals["repeated_thoughts"] == [[1, 2], [1, 3]]
    assert lab.signals["step_limit"] is True and lab.signals["finished"] is False
    assert lab.evidence[0] == "step 2 repeats step 1: search[hamlet]"
    assert "no Finish in 3 steps: the step limit ran out" in lab.evidence


def test_reasoning_error_when_the_evidence_was_there():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", FOUND + " It was first staged by Richard Burbage."),
                     finish("Richard Burbage")), GOLD)
    assert lab.category == REASONING_ERROR
    assert lab.signals["gold_in_observations"] is True and lab.signals["answer_supported"] is True


def test_premature_stop_is_a_reasoning_error():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", "Hamlet is set in Denmark. Its author was English."),
                     finish("English")), GOLD)
    assert lab.signals["premature_stop"] is True and lab.category == REASONING_ERROR
    assert lab.evidence[0].startswith('step 2 finished with "English" before any observation contained')


def test_no_loop_when_lookup_pages_through_new_results():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", "Hamlet is a tragedy."),
                     ("Look up author.", "Lookup[written]", "(Result 1 / 2) It was written in Denmark."),
                     ("Next one.", "Lookup[written]", "(Result 2 / 2) It was written by William Shakespeare."),
                     finish(GOLD)), GOLD)
    assert lab.signals["repeated_actions"] == [] and lab.category == TRUE_POSITIVE
    # the same lookup answered the same way is a loop
    stuck = label(traj(("Look.", "Lookup[x]", "No more results."), ("Look.", "Lookup[x]", "No more results.")), GOLD)
    assert stuck.signals["repeated_actions"] == [[1, 2]]


def test_not_reasoning_error_when_the_wording_is_the_only_difference():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", FOUND), finish("Shakespeare")), GOLD)
    assert lab.category != REASONING_ERROR and lab.category == LABEL_AMBIGUITY


# ------------------------------------------------------------------------------------------ search result error
def test_search_result_error_when_searches_fail_and_the_gold_never_shows():
    lab = label(traj(("Search it.", "Search[Hamlet play]", NOT_FOUND),
                     ("Again.", "Lookup[author]", "No more results."),
                     ("Try this.", "Search[Hamlet (play)]", "Hamlet (play) is a 1600s tragedy set in Denmark."),
                     finish("Denmark")), GOLD)
    assert lab.category == SEARCH_RESULT_ERROR
    assert lab.signals["failed_searches"] == [1, 2]
    assert lab.signals["search_failure_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert lab.evidence[1] == f'step 1 Search[Hamlet play] -> "{NOT_FOUND}"'


def test_not_search_result_error_when_a_later_search_found_the_gold():
    lab = label(traj(("Search it.", "Search[Hamlet play]", NOT_FOUND), ("Again.", "Search[Hamlet plays]", ""),
                     ("Try this.", "Search[Hamlet]", FOUND), finish("Christopher Marlowe")), GOLD)
    assert lab.signals["search_failure_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert lab.category != SEARCH_RESULT_ERROR and lab.category == HALLUCINATION


def test_cot_never_has_a_search_result_error():
    lab = label(traj(("Hamlet was written by Marlowe. So the answer is Marlowe.", "Finish[Marlowe]", None)), GOLD)
    assert lab.category != SEARCH_RESULT_ERROR and lab.signals["acting"] is False


# ------------------------------------------------------------------------------------------------- hallucination
def test_hallucination_when_the_answer_is_in_no_observation():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", FOUND), finish("Christopher Marlowe")), GOLD)
    assert lab.category == HALLUCINATION
    assert lab.evidence[0] == 'answer "Christopher Marlowe" appears in none of observations 1'


def test_hallucination_for_cot_with_nothing_to_check_against():
    lab = label(traj(("Hamlet was written by Marlowe. So the answer is Marlowe.", "Finish[Marlowe]", None)), GOLD)
    assert lab.category == HALLUCINATION and lab.signals["support"] == "none"
    # given the facts, a wrong answer the facts do contain is misused evidence, not invented
    lab = label(traj(("Shakespeare wrote it around 1600. So the answer is Hamlet.", "Finish[Hamlet]", None)), GOLD,
                supporting_facts=[FOUND])
    assert lab.category == REASONING_ERROR


def test_not_hallucination_when_the_answer_was_read_in_an_observation():
    lab = label(traj(("Search Hamlet.", "Search[Hamlet]", FOUND + " Richard Burbage played him first."),
                     finish("Richard Burbage")), GOLD)
    assert lab.category != HALLUCINATION


# ----------------------------------------------------------------------------------------------- label ambiguity
@pytest.mark.parametrize("pred, gold", [("Shakespeare", "William Shakespeare"), ("authors", "author"),
                                        ("1,800 to 7,000 ft", "1,800 to 7,000 feet")])
def test_label_ambiguity_for_the_right_answer_in_other_words(pred, gold):
    lab = label(traj(("Search.", "Search[Hamlet]", FOUND), finish(pred)), gold)
    assert lab.category == LABEL_AMBIGUITY and lab.signals["label_ambiguity"] is True
    assert lab.evidence[0].startswith("wrong by exact match, but")


@pytest.mark.parametrize("pred, gold", [("yes", "no"), ("Paris", "Parisian"), ("William Shakespeare", GOLD)])
def test_not_label_ambiguity(pred, gold):
    lab = label(traj(("Search.", "Search[Hamlet]", FOUND), finish(pred)), gold)
    assert lab.category != LABEL_AMBIGUITY and lab.signals["label_ambiguity"] is False


def test_no_gold_uses_the_recorded_verdict_or_stays_unscored():
    t = traj(("Search.", "Search[Hamlet]", FOUND), finish(GOLD))
    assert label(t, None).category == UNSCORED
    assert label(t, None, correct=True).category == TRUE_POSITIVE
    assert label(t, GOLD, correct=False).category == TRUE_POSITIVE  # a gold answer outranks a recorded verdict


# ------------------------------------------------------------------------------------------------------ files
def test_odd_input_gives_one_row_per_record(tmp_path):
    official = ("Solve a question answering task...\nQuestion: Old exemplar?\nThought 1: x\nAction 1: Finish[x]\n\n"
                "Question: Who wrote Hamlet?\nThought 1: Search it.\nAction 1: Search[Hamlet]\n"
                f"Observation 1: {FOUND}\nThought 2: Done.\nAction 2: Finish[{GOLD}]\n"
                "Observation 2: Episode finished, reward = 1\n")
    lines = [
        "this is not JSON at all",
        "[1, 2, 3]",
        '"just a string"',
        "42",
        "{}",
        json.dumps({"question": "Q?", "steps": [{"thought": "t", "action": "Finish[x]"}]}),
        json.dumps({"question": "Q?", "steps": [{"thought": "t", "action": "Finish[x]"}], "em": "True"}),
        json.dumps({"question": Q, "steps": [{"action": "Search[Hamlet]", "observation": FOUND}, "stray", 5,
                                            {"action": f"Finish[{GOLD}]"}], "gold": GOLD, "em": "False"}),
        json.dumps({"scratchpad": 12, "gold": "x"}),
        json.dumps({"steps": "not a list", "gold": "x"}),
        "",
        "   ",
        json.dumps({"traj": official, "gt_answer": GOLD, "answer": GOLD, "em": 1, "steps": 2}),
        json.dumps({"question": None, "steps": [None, {"thought": None, "action": 7}], "gold": None}),
        json.dumps({"question": "Q?", "gold": "x", "pred": "x", "scratchpad": "Thought: x\nAction: Finish[x"}),
        '{"question": "torn line", "steps": [',
    ]
    path = tmp_path / "odd.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = list(label_file(path))
    assert len(rows) == sum(bool(line.strip()) for line in lines) == 14
    assert [r["index"] for r in rows] == list(range(14))
    for r in rows:
        assert set(r) == {"index", "id", "method", "question", "gold", "pred", "correct", "category", "evidence",
                          "signals"}
        assert r["category"] in CATEGORIES + (UNREADABLE, UNSCORED) and r["evidence"]
        json.dumps(r)  # every row can be written back out
    cats = [r["category"] for r in rows]
    assert cats[:5] == [UNREADABLE] * 5 and cats[8:10] == [UNREADABLE] * 2 and cats[13] == UNREADABLE
    assert rows[0]["evidence"][0].startswith("not JSON") and "list" in rows[1]["evidence"][0]
    assert cats[5] == UNSCORED and rows[5]["correct"] is None
    assert rows[6]["correct"] is True and cats[6] in SUCCESS  # em given as the string "True"
    assert rows[7]["correct"] is True and cats[7] in SUCCESS  # the gold outranks em "False"
    assert rows[10]["question"] == "Who wrote Hamlet?"  # the last question of the prompt, not an exemplar's
    assert cats[10] == TRUE_POSITIVE
    assert rows[10]["signals"]["n_steps"] == 2
    assert cats[11] == UNSCORED and cats[12] in SUCCESS


def test_a_json_array_file_and_the_cli(tmp_path, capsys):
    path = tmp_path / "trajs.json"
    ours = {"question": Q, "gold": GOLD, "steps": [{"thought": "t", "action": "Search[Hamlet]", "observation": FOUND},
                                                  {"thought": "t", "action": f"Finish[{GOLD}]"}]}
    path.write_text(json.dumps([ours,
        {"observations": ["Question: Q?", FOUND, "Episode finished"], "actions": ["search[Hamlet]", "finish[x]"],
         "gt_answer": GOLD, "answer": "x"}]))
    rows = list(label_file(path))
    assert [r["category"] for r in rows] == [TRUE_POSITIVE, HALLUCINATION]
    assert [r["method"] for r in rows] == ["react", "act"]
    assert cli.main(["label", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("0\ttrue positive\t") and out[1].startswith("1\thallucination\t")


def real_facts(real) -> dict:
    """Each question's supporting-fact sentences: HotpotQA's [title, sentence index] pairs looked up in its context."""
    facts = {}
    for q in json.loads((real / "hotpotqa" / "distractor_dev_hard100.json").read_text(encoding="utf-8")):
        pages = dict((title, sentences) for title, sentences in q["context"])
        facts[q["question"]] = [pages[t][i] for t, i in q["supporting_facts"] if i < len(pages.get(t, []))]
    return facts


def test_the_200_real_trajectories(real):
    facts = real_facts(real)
    tables = {}
    for column, name, given in (("react", "react_text-davinci-003_hotpotqa100.jsonl", None),
                                ("cot", "cot_text-davinci-003_hotpotqa100.jsonl", None),
                                ("cot+facts", "cot_text-davinci-003_hotpotqa100.jsonl", facts)):
        path = real / "trajectories" / name
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        rows = list(label_file(path, facts=given))
        assert len(rows) == len(records) == 100
        for r, rec in zip(rows, records):
            assert r["category"] in (SUCCESS if rec["em"] else FAILURE), (r["index"], r["evidence"])
            assert r["question"] == rec["question"] and r["evidence"]
            if column == "react" and not rec["finished"]:
                assert r["signals"]["step_limit"] is True
            if column.startswith("cot"):
                assert r["signals"]["acting"] is False and r["category"] != SEARCH_RESULT_ERROR
                assert r["signals"]["support"] == ("supporting facts" if given else "none")
        tables[column] = ours = shares(rows)
        for group in (SUCCESS, FAILURE):  # a proper distribution within each non-empty group
            if sum(r["category"] in group for r in rows):
                assert sum(ours[c] for c in group) == pytest.approx(100.0)
    print(f"\n{'type':20} {'ReAct':>6} {'paper':>6} {'CoT':>6} {'+facts':>6} {'paper':>6}")
    for c in CATEGORIES:
        paper = ["–" if PAPER_TABLE2[m][c] is None else PAPER_TABLE2[m][c] for m in ("react", "cot")]
        print(f"{c:20} {tables['react'][c]:6.1f} {paper[0]:>6} {tables['cot'][c]:6.1f} {tables['cot+facts'][c]:6.1f}"
              f" {paper[1]:>6}")


# ----------------------------------------------------------------------------------- sampling and the table
def test_sample_takes_up_to_n_of_each_per_method_and_is_repeatable():
    rows = [{"index": i, "method": m, "correct": i % 3 == 0, "category": TRUE_POSITIVE if i % 3 == 0
             else REASONING_ERROR} for i in range(30) for m in ("react", "cot")]
    rows.append({"index": 99, "method": "react", "correct": None, "category": UNREADABLE})
    picked = sample(rows, n=4, seed=1)
    assert picked == sample(rows, n=4, seed=1) and picked != sample(rows, n=4, seed=2)
    assert len(picked) == 16 and all(r["category"] != UNREADABLE for r in picked)
    assert [r for r in rows if r in picked] == picked  # kept in the input's order
    assert len(sample(rows, n=100, seed=0)) == 60  # fewer rows than n: all of them


def test_shares_are_within_each_group():
    rows = [{"category": TRUE_POSITIVE}] * 3 + [{"category": FALSE_POSITIVE}] + [{"category": HALLUCINATION}] * 2
    t = shares(rows + [{"category": UNREADABLE}])
    assert t[TRUE_POSITIVE] == 75.0 and t[FALSE_POSITIVE] == 25.0 and t[HALLUCINATION] == 100.0
    assert t[REASONING_ERROR] == 0.0
    assert shares([{"category": TRUE_POSITIVE}])[HALLUCINATION] is None  # no failures: no percentages


# ---------------------------------------------------------------------------------------------------- kappa
def test_cohen_kappa_against_hand_computed_values():
    assert cohen_kappa(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    # 50 items: both yes 20, yes/no 5, no/yes 10, both no 15. p_o = 0.7, p_e = .5 * .6 + .5 * .4 = 0.5
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(["x", "y"], ["y", "x"]) == pytest.approx(-1.0)  # p_o = 0, p_e = 0.5
    assert cohen_kappa(["x"] * 4, ["x"] * 4) == 1.0  # p_e = 1: undefined, reported as perfect agreement
    with pytest.raises(ValueError):
        cohen_kappa(["x"], ["x", "y"])
    with pytest.raises(ValueError):
        cohen_kappa([], [])


# ---------------------------------------------------------------------------------------------- label store
def test_label_store_round_trip(tmp_path):
    path = tmp_path / "labels" / "mine.jsonl"
    store = LabelStore(path)
    assert store.get(0) is None and store.all() == {}
    store.set(0, HALLUCINATION, "invented the year")
    store.set("hq003", TRUE_POSITIVE)
    store.set(0, REASONING_ERROR, "on second reading: it misread the page")
    again = LabelStore(path)
    assert again.all() == {0: {"category": REASONING_ERROR, "note": "on second reading: it misread the page"},
                           "hq003": {"category": TRUE_POSITIVE, "note": ""}}
    assert again.get("0") is None  # index 0 and id "0" are different keys
    with pytest.raises(ValueError):
        again.set(1, "false postive")
    with pytest.raises(TypeError):
        again.set((1, 2), TRUE_POSITIVE)
    assert os.listdir(path.parent) == ["mine.jsonl"]  # no temporary file left behind


def test_label_store_write_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "mine.jsonl"
    store = LabelStore(path)
    store.set(1, TRUE_POSITIVE)
    before = path.read_bytes()

    def crash(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        store.set(2, HALLUCINATION)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["mine.jsonl"]
    monkeypatch.undo()
    assert store.get(2) is None  # not saved, not claimed
    path.write_text(path.read_text() + "not json\n{\"key\": 5}\n")  # a hand-edited file: bad lines kept aside
    again = LabelStore(path)
    assert again.all() == {1: {"category": TRUE_POSITIVE, "note": ""}}
    assert [line for _, line in again.unreadable] == ["not json", '{"key": 5}']


# ------------------------------------------------------------------------------- false positives (issue 14.7)
def test_a_thought_copied_from_an_exemplar_is_a_false_positive():
    exemplar = "Leonid Levin studied at Moscow State University. Both of them studied in Moscow, so the answer is yes."
    t = traj(("I need to search Hamlet.", "Search[Hamlet]", FOUND),
             ("Hamlet is a tragedy written by William Shakespeare around 1600.", "Finish[William Shakespeare]",
              "Episode finished."))
    lab = label(t, GOLD, exemplars=[exemplar, "Hamlet is a tragedy written by William Shakespeare around 1600."])
    assert lab.category == FALSE_POSITIVE and lab.signals["copied_thoughts"] == [2]
    assert lab.evidence[0].startswith("thought 2 repeats an exemplar of the prompt word for word")
    mine = label(t, GOLD, exemplars=[exemplar])  # the same run, reasoned in its own words
    assert mine.category == TRUE_POSITIVE and mine.signals["copied_thoughts"] == []


def test_a_yes_no_answer_about_a_name_no_observation_mentions_is_a_false_positive():
    q = "Were Nicholas Ray and Tennessee Williams born in the same year?"
    ray = "Nicholas Ray was an American film director, born in 1911."
    williams = "Tennessee Williams was an American playwright, born in 1911."
    guessed = traj(("Search Ray.", "Search[Nicholas Ray]", ray), finish("yes"), question=q)
    lab = label(guessed, "yes", exemplars=[])
    assert lab.category == FALSE_POSITIVE and lab.signals["unseen_names"] == ["Tennessee Williams"]
    assert lab.evidence[0] == 'answer "yes" rests on "Tennessee Williams", which no observation mentions'
    failed = traj(("Search Ray.", "Search[Nicholas Ray]", ray), ("And Williams.", "Search[Williams T]",
                  "Could not find Williams T. Similar: ['Tennessee Williams']."), finish("yes"), question=q)
    assert label(failed, "yes", exemplars=[]).category == FALSE_POSITIVE  # a failed search shows nothing
    read = traj(("Search Ray.", "Search[Nicholas Ray]", ray), ("Williams.", "Search[Tennessee Williams]", williams),
                finish("yes"), question=q)
    lab = label(read, "yes", exemplars=[])
    assert lab.category == TRUE_POSITIVE and lab.signals["unseen_names"] == []


def test_the_committed_run_s_right_answers_that_rest_on_nothing_read_are_false_positives():
    from react_teach.data import data_dir

    rows = {r["id"]: r for r in label_file(data_dir() / "runs" / "hotpotqa_react.jsonl")}
    # hq020: "yes", with a birth year (1809) that thought 2 states and no observation holds
    assert rows["hq020"]["correct"] is True and rows["hq020"]["category"] == FALSE_POSITIVE
    assert [2, "1809"] in rows["hq020"]["signals"]["unsupported_numbers"]
    # hq097: "no", after two failed searches, about states that no observation names
    assert rows["hq097"]["correct"] is True and rows["hq097"]["category"] == FALSE_POSITIVE
    assert rows["hq097"]["signals"]["unseen_names"] == ["Arizona", "Union", "Colorado"]
