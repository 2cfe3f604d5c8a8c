"""The authors' hand labels are well-formed and point at real trajectories; the kappa script computes kappa right."""
import doctest
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from react_teach.failures import CATEGORIES
from react_teach.runs.records import read_results

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "data" / "labels" / "hotpotqa_authors.jsonl"
RUNS = ROOT / "data" / "runs"


def _load_script():
    spec = importlib.util.spec_from_file_location("kappa_script", ROOT / "benchmarks" / "kappa.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kappa_script = _load_script()
ROWS = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_row_has_the_fields_and_a_table2_label():
    for row in ROWS:
        assert set(row) == {"id", "method", "run", "label", "reason", "labeller"}, row
        assert row["label"] in CATEGORIES, row
        assert row["labeller"] == "authors", row
        assert len(row["reason"].split()) >= 8, row  # one sentence that cites the trajectory, not a keyword
    assert len({(r["method"], r["id"]) for r in ROWS}) == len(ROWS), "a trajectory is labelled twice"


def test_enough_labels_mixed_across_methods():
    per_method = Counter(r["method"] for r in ROWS)
    assert len(ROWS) >= 60, len(ROWS)
    for method in ("react", "cot", "act"):
        assert per_method[method] >= 15, per_method


def test_every_id_exists_in_its_run_file_with_that_method():
    runs = {}
    for row in ROWS:
        path = RUNS / row["run"]
        assert path.is_file(), row["run"]
        if row["run"] not in runs:
            runs[row["run"]] = {r["id"]: r for r in read_results(path)}
        traj = runs[row["run"]].get(row["id"])
        assert traj is not None, f"{row['id']} is not in {row['run']}"
        assert traj["method"] == row["method"], row
        # a success type only for a right answer, a failure type only for a wrong one
        assert bool(traj["em"]) == (row["label"] in ("true positive", "false positive")), row


def test_the_old_ten_labels_are_kept():
    old = [json.loads(line) for line in (LABELS.parent / "hotpotqa_react_authors.jsonl").read_text().splitlines()]
    new = {r["id"]: r["label"] for r in ROWS if r["method"] == "react"}
    assert len(old) == 10
    assert {o["key"]: o["category"] for o in old} == {o["key"]: new[o["key"]] for o in old}


def test_the_package_kappa_agrees_with_scikit_learn_on_random_label_pairs():
    """`failures.cohen_kappa` is the course's own; the benchmark's figure comes from scikit-learn. They must agree."""
    import random

    from react_teach.failures import cohen_kappa

    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(2, 30)
        a = [rng.choice(CATEGORIES[:3]) for _ in range(n)]
        b = [x if rng.random() < 0.6 else rng.choice(CATEGORIES[:3]) for x in a]
        assert cohen_kappa(a, b) == pytest.approx(kappa_script.kappa(a, b)), (a, b)


def test_kappa_matches_a_hand_computed_example():
    a = ["x", "x", "x", "y", "y", "z", "z", "z"]
    b = ["x", "x", "y", "y", "z", "z", "z", "x"]
    # p_o = 5/8; p_e = (3*3 + 2*2 + 3*3) / 64 = 22/64; kappa = (40 - 22) / (64 - 22) = 18/42 = 3/7
    assert kappa_script.kappa(a, b) == pytest.approx(3 / 7)
    assert kappa_script.kappa(["x", "y"], ["y", "x"]) == pytest.approx(-1.0)  # p_o = 0, p_e = 1/2
    assert kappa_script.kappa(["x", "x"], ["x", "x"]) == 1.0  # p_e = 1: one label for everything
    with pytest.raises(ValueError):
        kappa_script.kappa(["x"], ["x", "y"])
    result = doctest.testmod(kappa_script)
    assert result.attempted > 0 and result.failed == 0


def test_the_script_reports_every_method(capsys):
    assert kappa_script.main([]) == 0
    first_two = {tuple(line.split()[:2]) for line in capsys.readouterr().out.splitlines()}
    expected = Counter(r["method"] for r in ROWS) + Counter({"all": len(ROWS)})
    for method, n in expected.items():  # a line per method, with the number of hand labels it rests on
        assert (method, str(n)) in first_two, (method, n)
    assert ("hand", "\\") in first_two  # the confusion table's header


def test_a_label_for_a_missing_trajectory_is_one_clear_error(tmp_path, capsys):
    bad = tmp_path / "labels.jsonl"
    bad.write_text(json.dumps({"id": "hq999", "method": "react", "run": "hotpotqa_react.jsonl",
                               "label": "reasoning error", "reason": "no such trajectory", "labeller": "authors"}))
    assert kappa_script.main(["--labels", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hq999" in err
