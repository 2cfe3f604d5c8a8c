"""Maintainers: rebuild notebooks from their py:percent sources and execute them in place.

    .venv/bin/python notebooks/build.py                 # every notebook
    .venv/bin/python notebooks/build.py 03 08           # the ones whose names start so

The .py file is the source (review it as code); the .ipynb is built from it with the Python 3 kernel named, then
run top to bottom so that its committed outputs come from a real run. Needs jupytext (pip install jupytext).
"""
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import nbformat

HERE = Path(__file__).resolve().parent
KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def build(source: Path) -> float:
    nb = jupytext.read(source)
    nb.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    target = source.with_suffix(".ipynb")
    nbformat.write(nb, target)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    "--ExecutePreprocessor.timeout=900", str(target)], check=True, capture_output=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    prefixes = sys.argv[1:]
    for source in sorted(HERE.glob("[0-9][0-9]*_*.py")):
        if not prefixes or any(source.name.startswith(p) for p in prefixes):
            print(f"{source.stem}: executed in {build(source):.1f} s", flush=True)
