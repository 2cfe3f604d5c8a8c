"""The committed outputs of notebooks 09-17 agree with their prose: every check a notebook prints passed, no
exercise refuses the blank it ships with, and no run is labelled with an unknown model. Each notebook states its
numbers as `check(...)` lines beside the prose that quotes them, so a re-recorded run that contradicts a sentence
shows up here as a ✗ (and in nbval, which compares those outputs)."""
import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
MINE = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if 9 <= int(p.name[:2]) <= 17)


def outputs(path: Path) -> list[str]:
    """The text of every output of every code cell, errors included."""
    texts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                texts.append(f"{out['ename']}: {out['evalue']}")
            text = out.get("text") or out.get("data", {}).get("text/plain") or ""
            texts.append(text if isinstance(text, str) else "".join(text))
    return texts


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_every_printed_check_passed_and_no_model_is_unknown(path):
    lines = [line for text in outputs(path) for line in text.splitlines()]
    assert lines, f"{path.name} has no outputs: build it with notebooks/build.py"
    failed = [line for line in lines if line.lstrip().startswith("✗")]
    assert not failed, f"{path.name}: {failed}"
    assert not [line for line in lines if "unknown model" in line], path.name
    assert not [line for line in lines if "Error:" in line and line.split(":")[0].endswith("Error")], path.name


def test_the_fine_tuning_notebook_shows_the_committed_test_summary_with_each_methods_n():
    """Notebook 16 reads its figures from the test summary: each method's n there is the n it prints."""
    from react_teach.runs import report
    summary = report.summary("test")
    text = "\n".join(outputs(NOTEBOOKS / "16_fine_tuning.ipynb"))
    for method, figures in summary["methods"].items():
        assert f"on its {figures['trained']['pooled']['n']} test questions" in text, method
    assert "ReAct - Act:" in text and "guessing floor" in text
    same = summary["ablation"]["paired"]  # the loss ablation, on the questions both adapters answered
    assert f"EM {report.cell(same['all'])}" in text and f"EM {report.cell(same['model'])}" in text
