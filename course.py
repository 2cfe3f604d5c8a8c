"""Set up the course and open it, or run every test.

    python3 course.py          # set up (first time: about 6 minutes) and open JupyterLab on notebooks/
    python3 course.py test     # set up if needed and run every test, notebooks included

Setting up means: a virtual environment in .venv, the package installed into it in editable mode with its test
extras; `test` adds the training extra (torch, CPU build, and gguf), which the fine-tuning notebook and its smoke
test need and the course itself does not. llama-cpp-python compiles from source on the first install, which is most of the first run's time; pip keeps
the built wheel, so later set-ups take seconds. Nothing here needs conda or an API key.
"""
import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def setup(extras: str = "test") -> Path:
    """Create .venv and install the package with `extras`; skip the install when nothing it depends on changed."""
    if sys.version_info < (3, 11):
        sys.exit(f"react_teach needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    python = BIN / ("python.exe" if os.name == "nt" else "python")
    if not python.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / ".react_teach-installed"
    want = hashlib.sha256((HERE / "pyproject.toml").read_bytes()).hexdigest()
    done = stamp.read_text().split() if stamp.exists() else []
    # the stamp lists what is installed: the light course, then the training extra once `test` has run
    if not done or done[0] != want or extras not in done[1:]:
        print("installing react_teach and its dependencies into .venv (the first time compiles llama.cpp) ...",
              flush=True)
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run(pip + ["--upgrade", "pip"], check=True)
        subprocess.run(pip + ["-e", f"{HERE}[{extras}]"], check=True)
        kept = done[1:] if done and done[0] == want else []
        stamp.write_text(" ".join([want, *sorted(set(kept) | {extras})]))
    return python


def main(argv: list[str]) -> int:
    python = setup("test,train" if argv[:1] == ["test"] else "test")
    env = dict(os.environ, PYTHONNOUSERSITE="1")
    if argv[:1] == ["test"]:
        return subprocess.call([str(python), "-m", "pytest", *argv[1:]], cwd=HERE, env=env)
    if argv:
        print(__doc__)
        return 2
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers often run as root
    return subprocess.call([str(python), "-m", "jupyter", "lab", *root, str(HERE / "notebooks")], cwd=HERE, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
