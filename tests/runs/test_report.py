"""The README's figures are the benchmark's summary, not text typed beside it."""
import json
import re
from pathlib import Path

import pytest

from react_teach.data import data_dir
from react_teach.llm.adapters import provenance
from react_teach.runs import report
from react_teach.runs.records import read_header

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_figures_block_is_the_committed_summary_of_the_split_it_names():
    text = (ROOT / "README.md").read_text()
    shown = report.block(text)
    split = shown.split()[0].lower()  # "Dev worlds ..." or "Test worlds ..."
    summary = json.loads((data_dir() / "runs" / "worlds" / split / "summary.json").read_text())
    assert shown == report.markdown(summary), "rewrite it: python benchmarks/worlds_eval.py --SPLIT --parts files,readme"


def test_the_report_shows_each_figure_with_its_interval_and_n_and_a_changed_figure_changes_it():
    summary = json.loads((data_dir() / "runs" / "worlds" / "dev" / "summary.json").read_text())
    text = report.markdown(summary)
    pooled = summary["methods"]["react"]["trained"]["pooled"]
    assert report.cell(pooled) in text and f"n={pooled['n']}" in text
    assert f"{pooled['baselines']['always yes']:.3f} / {pooled['baselines']['always no']:.3f}" in text
    pooled["em"] += 0.01
    assert report.markdown(summary) != text


def test_a_readme_without_the_markers_is_refused_and_the_text_around_the_block_is_kept():
    summary = {"split": "test", "seeds": [5], "n_per_world": 3, "version": 2, "methods": {}}
    with pytest.raises(ValueError):
        report.replace_block("no block here", summary)
    once = report.replace_block(f"before\n{report.MARKERS[0]}\n{report.MARKERS[1]}\nafter", summary)
    assert once.startswith("before\n") and once.endswith("\nafter")
    assert report.replace_block(once, summary) == once


def test_an_ablation_measured_beside_an_older_ft_react_says_so_and_one_beside_the_current_does_not():
    summary = json.loads((data_dir() / "runs" / "worlds" / "test" / "summary.json").read_text())
    x = summary["ablation"]
    for current, said in ((True, False), (False, True), (None, False)):  # None: a summary from before the flag
        x["react_is_current"] = current
        line = next(s for s in report.lines(summary) if "loss on every token" in s)
        assert ("since retrained" in line) is said and (x["adapters"]["react"] in line) is said, line


def test_the_report_names_the_three_held_out_templates_that_lose_most_and_none_that_lose_nothing():
    summary = json.loads((data_dir() / "runs" / "worlds" / "test" / "summary.json").read_text())
    worst = summary["methods"]["react"]["paired"]["by_template"]
    lost = [x["trained"] - x["heldout"] for x in worst]
    assert lost[:3] == sorted(lost, reverse=True)[:3] and lost[0] > 0
    line = next(s for s in report.lines(summary) if s.startswith("- Where the held-out wording loses most"))
    assert re.findall(r"`([^`]+)`", line) == [x["template"] for x in worst[:3]]
    assert f"{worst[0]['trained']} against {worst[0]['heldout']} of {worst[0]['n']}" in line
    for x in worst:  # a held-out wording that loses nothing anywhere has nothing to name
        x["heldout"] = x["trained"]
    assert not any("loses most" in s for s in report.lines(summary))


@pytest.mark.parametrize("split", ["dev", "test"])
def test_each_committed_results_file_was_run_with_the_adapter_shipped_for_its_method(split):
    # The dev record is the base a try is paired with (`worlds_eval --against data/runs/worlds`): run by an adapter
    # since replaced, it would judge every try against the wrong model. Retrain an adapter, rerun its records.
    files = sorted((data_dir() / "runs" / "worlds" / split).glob("*.jsonl"))
    assert files
    for f in files:
        method = re.fullmatch(r"(?:course_)?([a-z-]+?)(?:_v\d+_w\d+_[a-z]+)?\.jsonl", f.name).group(1)
        model = read_header(f)["model"]
        assert model.endswith(f"lora sha256:{provenance('ft-' + method)['adapter_sha256']}"), \
            f"{f.name} was run with another adapter than data/models/ft-{method}.gguf: rerun it"
