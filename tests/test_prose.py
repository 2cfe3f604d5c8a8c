"""Prose that agrees with its output: every "n = K" a notebook's text states appears among that notebook's printed
outputs (a count stated beside a table that prints another one is a claim the reader cannot trust)."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[0-8]_*.ipynb"))  # 09-17 follow their own issue's pass
N_CLAIM = re.compile(r"\bn\s*=\s*(\d+)\b")


def texts(nb: dict) -> tuple[str, str]:
    prose, out = [], []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            prose.append("".join(cell["source"]))
        for o in cell.get("outputs", []):
            out.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(prose), "\n".join(out)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_n_the_prose_states_is_printed(path):
    prose, out = texts(json.loads(path.read_text(encoding="utf-8")))
    printed = {int(k) for k in N_CLAIM.findall(out)} | {int(k) for k in re.findall(r"\b(\d+)\s+questions\b", out)}
    for k in N_CLAIM.findall(re.sub(r"`[^`]*`", "", prose)):  # code in backticks passes arguments, claims nothing
        assert int(k) in printed, f"{path.name}: the text says n = {k}, and no output prints it"
