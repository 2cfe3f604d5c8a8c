"""Honest numbers: the Wilson interval against hand-computed values, baselines, the exemplar overlaps left out,
the run's own model name, and the recorded text-davinci-003 EM from the public trajectories."""
import doctest
import subprocess
import sys
from math import sqrt

import pytest

from react_teach.runs import stats as honest
from react_teach.runs.stats import baselines, model_of, rate, scored, wilson

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_doctests():
    assert doctest.testmod(honest).failed == 0


def test_wilson_matches_a_hand_computation():
    # 3 of 10 by hand: p = 0.3, z^2 = 3.8416, z^2/n = 0.38416, centre = (0.3 + 0.19208) / 1.38416 = 0.355508...
    # half = 1.96 / 1.38416 * sqrt(0.021 + 0.009604) = 1.416021 * 0.174940 = 0.247719...
    lo, hi = wilson(3, 10)
    assert lo == pytest.approx(0.10779, abs=1e-4)
    assert hi == pytest.approx(0.60322, abs=1e-4)
    # at 0 of n the lower end is exactly 0 and the upper is z^2 / (n + z^2)
    assert wilson(0, 20) == (0.0, pytest.approx(3.8416 / 23.8416))


def test_wilson_is_symmetric_and_narrows_with_n():
    lo, hi = wilson(7, 40)
    lo2, hi2 = wilson(33, 40)
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)
    assert wilson(70, 400)[1] - wilson(70, 400)[0] < hi - lo
    # and it differs from the textbook interval, which would go below 0 at 1 of 40
    assert wilson(1, 40)[0] > 0 > 1 / 40 - 1.96 * sqrt(1 / 40 * 39 / 40 / 40)


@pytest.mark.parametrize("k,n", [(0, 0), (5, 4), (-1, 3)])
def test_wilson_refuses_impossible_counts(k, n):
    with pytest.raises(ValueError):
        wilson(k, n)


def test_baselines_count_constant_answers():
    assert baselines(["Yes", "no", "yes.", "Paris"]) == {"always yes": 0.5, "always no": 0.25}
    b = baselines(["REFUTES", "NOT ENOUGH INFO", "REFUTES", "SUPPORTS"], "fever")
    assert b["majority label (REFUTES)"] == 0.5 and b["always SUPPORTS"] == 0.25
    with pytest.raises(ValueError):
        baselines([], "fever")


def test_overlapping_questions_are_left_out():
    marked = [{"id": "a", "overlaps_exemplar": True}, {"id": "b"}, {"id": "c", "overlaps_exemplar": False}]
    rows = [{"id": i, "em": True} for i in ("a", "b", "c")]
    assert [r["id"] for r in scored(rows, marked)] == ["b", "c"]
    # the course sets carry the marks: hq027 is an exemplar's question word for word, fv022 an exemplar's claim
    course = scored([{"id": "hq027", "em": True}, {"id": "hq001", "em": False}, {"id": "fv022", "correct": True}])
    assert [r["id"] for r in course] == ["hq001"]


def test_rate_and_model_come_from_the_rows():
    r = rate([{"correct": True}, {"correct": False}, {"correct": False}, {"correct": True}])
    assert (r["k"], r["n"], r["p"]) == (2, 4, 0.5)
    assert model_of([{"id": 1}]) == "unknown model"
    assert model_of([{"header": {"model": "local:SmolLM2"}}, {"id": 1}]) == "local:SmolLM2"
    assert model_of([{"model": "openai:gpt-4o-mini"}]) == "openai:gpt-4o-mini"


def test_davinci_em_from_the_public_trajectories(real):
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "davinci_em.py"), str(real / "trajectories")],
                         capture_output=True, text=True, check=True).stdout
    # the figures notebook 07 quotes; the stored em agrees with our re-scoring on every question
    assert "text-davinci-003 react EM 33.0% [24.6, 42.7] n=100 (stored em differs on 0)" in out
    assert "text-davinci-003 cot   EM 33.0% [24.6, 42.7] n=100 (stored em differs on 0)" in out


def test_davinci_em_refuses_a_folder_without_the_files(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "davinci_em.py"), str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "lacks" in p.stderr
