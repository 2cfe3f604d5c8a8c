"""Every exercise can fail: each checker passes its reference solution and every valid alternative listed beside it
(`alternatives`, optional), fails every wrong answer listed there, and says "not yet" (without raising) to the
placeholder a notebook ships with."""
import importlib.util
from pathlib import Path

import pytest

from react_teach import exercises
from react_teach.exercises import NOT_YET, PASS, WRONG

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "notebooks" / "solutions").glob("[0-9]*_*.py"))


def notebook_name(path: Path) -> str:
    return path.stem.split("_", 1)[1]  # "01_the_bare_loop" -> "the_bare_loop": renumbering changes nothing


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"solution_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = [(p, n) for p in SOLUTIONS for n in exercises.of(notebook_name(p))]


@pytest.fixture(scope="module")
def solution():
    loaded = {}
    return lambda path: loaded.setdefault(path, load(path))


def test_every_notebook_with_exercises_has_at_least_two_and_a_solution_for_each(solution):
    assert SOLUTIONS
    for path in SOLUTIONS:
        registered = exercises.of(notebook_name(path))
        assert len(registered) >= 2, path.name
        s = solution(path)
        assert set(s.solutions) == set(registered), f"{path.name}: a solution for each exercise, no more"
        assert all(s.wrong.get(n) for n in registered), f"{path.name}: at least one wrong answer per exercise"
        source = ROOT / "notebooks" / (path.stem + ".py")
        assert source.exists(), f"{path.name} has no notebook {source.name}"
        text = source.read_text(encoding="utf-8")
        for n in registered:  # the notebook calls every checker
            assert f"ex[{n}](" in text, f"{source.name} never calls exercise {n}"


@pytest.mark.parametrize("path,n", CASES, ids=[f"{notebook_name(p)}-{n}" for p, n in CASES])
def test_the_solution_passes_wrong_answers_fail_and_the_blank_is_not_yet(solution, path, n):
    ex, s = exercises.of(notebook_name(path))[n], solution(path)
    v = ex.verdict(s.solutions[n])
    assert v.status == PASS, (v.status, v.message)
    for good in getattr(s, "alternatives", {}).get(n, []):  # the same idea, written another way
        v = ex.verdict(good)
        assert v.status == PASS, (good, v.status, v.message)
    for bad in s.wrong[n]:
        v = ex.verdict(bad)
        assert v.status == WRONG, (bad, v.status, v.message)
        assert v.message, "a wrong answer gets a hint"
    assert ex.verdict(...).status == NOT_YET
