"""The one way to write a file (`react_teach.data.write_atomic`) and the two principles of issue 21 that cover the
next case too: every writer in the package goes through it, and nothing is ever unpickled.

Real files, a real fifo, a real device node (made with os.mknod, which needs root: skipped without it), a real
file-size limit in a child process for the full disk."""
import ast
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import react_teach
from react_teach import data
from react_teach.data import write_atomic

PACKAGE = Path(react_teach.__file__).resolve().parent  # the package under test, wherever it is imported from


def special_files(tmp_path):
    """(name, path) of a folder, a fifo and, as root, a character device like /dev/null (1, 3)."""
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    out = [("folder", tmp_path / "folder"), ("fifo", tmp_path / "fifo")]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        out.append(("device", tmp_path / "null"))
    return out


def kinds(paths):
    return [stat.S_IFMT(os.lstat(p).st_mode) for _, p in paths]


def test_write_atomic_refuses_a_folder_a_fifo_a_device_and_a_foreign_file(tmp_path):
    paths = special_files(tmp_path)
    before = kinds(paths)
    for name, path in paths:
        with pytest.raises(ValueError, match="folder|fifo|device"):
            write_atomic(path, "x")
    assert kinds(paths) == before  # each still what it was: nothing replaced by a regular file
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    with pytest.raises(ValueError, match="notes.txt is not a wiki database of ours"):
        write_atomic(notes, "SQLite", ours=lambda p: False, what="wiki database")
    assert notes.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for _, p in paths] + ["notes.txt"])


def test_a_device_node_is_refused_as_root(tmp_path):
    if not (hasattr(os, "geteuid") and os.geteuid() == 0):
        pytest.skip("os.mknod of a character device needs root")
    os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    with pytest.raises(ValueError, match="is a device"):
        data.check_target(tmp_path / "null")
    assert stat.S_ISCHR(os.lstat(tmp_path / "null").st_mode)


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_writer_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "kept.jsonl"
    write_atomic(path, "good\n")

    def half(tmp):
        tmp.write_text("half a")
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        write_atomic(path, half)
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "a lone surrogate \udc80 cannot be UTF-8")
    assert path.read_text() == "good\n" and [p.name for p in tmp_path.iterdir()] == ["kept.jsonl"]


def test_a_full_disk_names_the_file_and_keeps_the_old_one(tmp_path):
    """A real file-size limit (RLIMIT_FSIZE) in a child process: the write fails as on a full disk."""
    path = tmp_path / "results.jsonl"
    path.write_text("the old, good file\n")
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from react_teach.data import write_atomic
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        try:
            write_atomic({str(path)!r}, "x" * 100_000)
        except OSError as e:
            print(e.filename, e.strerror)
            sys.exit(3)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 3, r.stderr
    assert r.stdout.startswith(str(path))
    assert path.read_text() == "the old, good file\n" and [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]


# ---------------------------------------------------------------------------------------------- the principles
# Calls that may write somewhere other than through write_atomic, allowed with the reason they are safe.
# (module, enclosing function, kind of write) -> reason. An entry that no longer matches anything fails the test.
ALLOWED = {
    ("data.py", "write_atomic", "mkstemp"): "the one write function itself",
    ("data.py", "write_atomic", "replace"): "the one write function itself",
    ("runs/__init__.py", "_run.one", "open(..., 'a')"): "appends one whole result line and fsyncs it: a kill "
                                                        "leaves every earlier line",
    ("runs/__init__.py", "_locked", "open(..., 'a')"): "the lock file: opened to hold a lock, nothing is written",
    ("wiki/store.py", "LocalWiki.__init__", "sqlite3.connect"): "opens an existing database; LiveWiki's writes to "
                                                                "it are SQLite transactions",
    ("wiki/store.py", "LocalWiki.create", "sqlite3.connect"): "create is itself a writer: every call of it must be "
                                                              "on write_atomic's temporary file (checked below)",
    ("world/__init__.py", "build", "os.rename"): "renames a finished world folder into place; its files came from "
                                                 "write_atomic",
    ("ui/panels.py", "png", "savefig"): "savefig into an in-memory buffer",
}


def _writes(call: ast.Call) -> str | None:
    """What kind of write a call is, or None."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
    if name in ("write_text", "write_bytes", "mkstemp", "NamedTemporaryFile", "savefig", "GGUFWriter"):
        return name
    if name == "create" and owner in ("LocalWiki", "cls"):  # a new SQLite database at the path it is given
        return "LocalWiki.create"
    if name in ("copyfile", "copy", "copy2", "copytree", "move") and owner == "shutil":
        return f"shutil.{name}"
    if (name, owner) in (("save", "torch"), ("dump", "json"), ("dump", "pickle"), ("connect", "sqlite3")):
        if name == "connect" and any(k.arg == "uri" for k in call.keywords) and "mode=ro" in ast.unparse(call):
            return None  # read only
        return f"{owner}.{name}"
    if name in ("replace", "rename") and owner == "os":
        return f"os.{name}" if name == "rename" or len(call.args) != 2 else "replace"
    if name in ("replace", "rename") and len(call.args) == 1 and not call.keywords:
        return name  # Path.replace (str.replace takes two arguments)
    if name == "open" and owner == "os":
        return "os.open" if any(w in ast.unparse(call) for w in ("O_WRONLY", "O_RDWR", "O_CREAT")) else None
    if name == "open" and owner is None:
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        if isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax+"):
            return f"open(..., {mode.value!r})"
    return None


class Scan(ast.NodeVisitor):
    def __init__(self, tree):
        self.stack, self.found, self.callbacks = [], [], set()
        for node in ast.walk(tree):  # functions handed to write_atomic as the writer of its temporary file
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == \
                    "write_atomic" and len(node.args) > 1:
                self.callbacks.add(id(node.args[1]) if isinstance(node.args[1], ast.Lambda) else
                                   getattr(node.args[1], "id", None))
        self.params: list[set] = []

    def _scope(self, node, name):
        self.stack.append(name)
        inside = name in self.callbacks or id(node) in self.callbacks
        self.params.append({a.arg for a in node.args.args} if inside else set())
        self.generic_visit(node)
        self.stack.pop()
        self.params.pop()

    def visit_FunctionDef(self, node):
        self._scope(node, node.name)

    def visit_ClassDef(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_Lambda(self, node):
        self._scope(node, "<lambda>")

    def visit_Call(self, node):
        kind = _writes(node)
        if kind:
            temp = set().union(*self.params) if self.params else set()
            names = {n.id for a in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(a)
                     if isinstance(n, ast.Name)}
            if not (temp & names):  # not writing the temporary file write_atomic handed it
                self.found.append((".".join(s for s in self.stack if s != "<lambda>"), kind, node.lineno))
        self.generic_visit(node)


def test_every_writer_in_the_package_goes_through_write_atomic():
    used, bad = set(), []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("course_data", "course_notebooks")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scan = Scan(tree)
        scan.visit(tree)
        for where, kind, line in scan.found:
            key = (rel, where, kind)
            if key in ALLOWED:
                used.add(key)
            else:
                bad.append(f"{rel}:{line} {where}: {kind}")
    assert not bad, "write these through react_teach.data.write_atomic:\n" + "\n".join(bad)
    assert used == set(ALLOWED), f"allowed writers that no longer exist: {set(ALLOWED) - used}"


def test_the_scan_finds_a_plain_writer():
    """The scan can fail: a plain write_text, a torch.save on a final path and an open(..., 'w') are caught."""
    tree = ast.parse(textwrap.dedent("""
        def save(path, obj):
            path.write_text("x")
            torch.save(obj, path)
            with open(path, "w") as f:
                pass
            write_atomic(path, lambda tmp: torch.save(obj, tmp))
    """))
    scan = Scan(tree)
    scan.visit(tree)
    assert [k for _, k, _ in scan.found] == ["write_text", "torch.save", "open(..., 'w')"]


def unpickling_calls(tree) -> list[str]:
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"import {n}" for n in names if n and n.split(".")[0] in ("pickle", "cPickle", "dill", "joblib")]
        if isinstance(node, ast.Call):
            text = ast.unparse(node.func)
            kw = {k.arg: k.value for k in node.keywords}
            if text.endswith(("torch.load", ".load")) and text.split(".")[0] == "torch":
                w = kw.get("weights_only")
                if not (isinstance(w, ast.Constant) and w.value is True):
                    bad.append(f"line {node.lineno}: {ast.unparse(node)}")
            if "allow_pickle" in kw and not (isinstance(kw["allow_pickle"], ast.Constant)
                                             and kw["allow_pickle"].value is False):
                bad.append(f"line {node.lineno}: {ast.unparse(node)}")
    return bad


def test_nothing_in_the_package_unpickles():
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        bad += [f"{path.relative_to(PACKAGE)}: {b}" for b in unpickling_calls(ast.parse(path.read_text("utf-8")))]
    assert not bad, "never unpickle (torch.load(..., weights_only=True), or safetensors):\n" + "\n".join(bad)
    sample = ast.parse("import pickle\ntorch.load(p)\ntorch.load(p, weights_only=False)\n"
                       "torch.load(p, weights_only=True)\nnp.load(p, allow_pickle=True)\n")
    assert len(unpickling_calls(sample)) == 4  # the check itself can fail
