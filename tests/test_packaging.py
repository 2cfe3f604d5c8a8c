"""The spine: environment.yml matches pyproject.toml, the README's two commands, the command line contract."""
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT


def _spec(req: str) -> str:
    return re.sub(r"\s+", "", req).lower().replace("_", "-")


def test_environment_yml_is_in_step_with_pyproject():
    """Every requirement of the package and its test extra appears in environment.yml with the same bound."""
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_spec(r) for r in py["dependencies"] + py["optional-dependencies"]["test"]}
    text = (ROOT / "environment.yml").read_text()
    listed = {_spec(m) for m in re.findall(r"^\s*- ([A-Za-z][\w.\-\[\]]*[<>=]=?[^\s#]+)", text, re.MULTILINE)}
    assert listed - {"python=3.11"} == wanted
    assert "- -e ." in text  # the pip section installs the package itself


def test_readme_gives_exactly_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme.split("## Other ways")[0], re.DOTALL)
    commands = [line for b in blocks for line in b.splitlines() if line.strip() and not line.startswith("#")]
    assert commands == ["python3 course.py", "python3 course.py test"], commands
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 course.py test" in ci


def run_cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "react_teach", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, **kw)


def test_cli_help_lists_every_verb():
    r = run_cli("--help")
    assert r.returncode == 0
    for verb in ("ask", "run", "wiki", "ablate", "label", "doctor"):
        assert verb in r.stdout


def test_cli_bad_use_exits_2_with_one_clear_line():
    for args, message in [(("fly",), "invalid choice: 'fly'"),
                          (("ask", "q?", "--method", "magic"), "invalid choice: 'magic'"),
                          (("ask", "q?", "--llm", "gpt"), "unknown model spec 'gpt'"),
                          (("ask", "q?", "--wiki", "web"), "unknown wiki spec 'web'"),
                          (("run", "--method", "react", "--task", "hotpotqa", "--questions", "nope.json",
                            "--out", "x.jsonl"), "no such file: nope.json")]:
        r = run_cli(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert message in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_every_notebook_matches_its_py_source_and_names_its_kernel():
    import jupytext
    import nbformat

    sources = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.py"))
    assert len(sources) == 18
    for src in sources:
        built = nbformat.read(src.with_suffix(".ipynb"), as_version=4)
        want = [(c.cell_type, c.source) for c in jupytext.read(src).cells]
        assert [(c.cell_type, c.source) for c in built.cells] == want, f"{src.name}: rebuild with notebooks/build.py"
        assert built.metadata["kernelspec"]["name"] == "python3"
        # committed with outputs from a real run, and none of them an error
        code = [c for c in built.cells if c.cell_type == "code"]
        assert all(c.execution_count for c in code), f"{src.name} is not executed"
        assert not any(o.get("output_type") == "error" for c in code for o in c.outputs), src.name


def test_no_machine_paths_or_shared_data_in_the_product():
    import subprocess

    files = subprocess.run(["git", "ls-files", "react_teach", "notebooks", "data", "README.md"], cwd=ROOT,
                           capture_output=True, text=True).stdout.split()
    for name in files:
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for bad in ("../shared", "shared/real", "/work/", "/root/", "/tmp/"):
            assert bad not in text, f"{name} mentions {bad}"


def test_every_worked_example_in_the_docstrings_runs():
    """The module docstrings teach by example; an example that no longer runs would teach the wrong thing."""
    import doctest
    import importlib
    import pkgutil

    import react_teach

    failed = {}
    for info in pkgutil.walk_packages(react_teach.__path__, "react_teach."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        if result.failed:
            failed[info.name] = result.failed
    assert not failed, failed


def test_the_layers_hold_and_there_is_no_cycle():
    """The import-linter contract in pyproject.toml: layers bottom up, siblings that never import each other; and
    no module reaches itself through its imports (grimp, the graph import-linter builds)."""
    import grimp

    exe = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "0 broken" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    graph = grimp.build_graph("react_teach")
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    for start in imports:  # a walk from each module: coming back to it is a cycle
        seen, todo = set(), list(imports[start])
        while todo:
            m = todo.pop()
            assert m != start, f"an import cycle through {start}"
            if m not in seen:
                seen.add(m)
                todo.extend(imports.get(m, ()))


@pytest.mark.parametrize("module,most", [("react_teach.trajectory", 1), ("react_teach.agent", 8)])
def test_the_core_loads_little(module, most):
    """A Trajectory needs nothing else of ours; the agent loads at most 8 of our modules (llama.cpp and the HTTP
    client only when a backend is named)."""
    code = (f"import sys, {module}; print(sorted(m for m in sys.modules "
            "if m.startswith('react_teach.') or m == 'llama_cpp'))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                       check=True).stdout.replace("'", '"'))
    assert len(loaded) <= most and "llama_cpp" not in loaded, loaded
