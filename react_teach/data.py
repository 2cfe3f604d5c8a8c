"""The course's files: what ships in data/, the official formats, and how every file is read and written.

Question sets are lists of dicts with at least ``question`` and ``answer`` (HotpotQA-style) or ``claim`` and
``label`` (FEVER-style). The loaders turn the official files into the same shape:

    >>> qs = load_questions("hotpotqa")
    >>> {"id", "question", "answer", "level"} <= set(qs[0])
    True

Every writer in the package (run files, cassettes, wiki databases, labels, branches, adapters, provenance) goes
through `write_atomic`, so a crash or a full disk leaves the old file or the new one, never half of either. Every
JSONL file is read by `parse_jsonl`, which hands back each line's record, or the reason it is not one, so that a
caller can refuse the file, keep the bad line aside, or skip it, but never lose track of it.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "runs.jsonl"
    >>> write_atomic(path, '{"react_teach_results": 1}\\n{"id": 1}\\n\\nnot json\\n')
    >>> [(k, type(r).__name__) for k, r in parse_jsonl(path.read_text())]   # the header is left out
    [(2, 'dict'), (4, 'ValueError')]
"""
from __future__ import annotations

import errno
import importlib.resources
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from react_teach.trajectory import one_line

RESULTS_HEADER = "react_teach_results"  # the key of a results file's first line (see runs); readers skip it


def cache_dir() -> Path:
    """Where computed things are kept between sessions: $REACT_TEACH_CACHE, else ~/.cache/react_teach."""
    return Path(os.environ.get("REACT_TEACH_CACHE") or Path.home() / ".cache" / "react_teach")


class NotOursError(ValueError):
    """A path we must not write: a folder, a device, a fifo, or a file of another kind than the caller's."""


def check_target(path: str | Path, ours=None, what: str = "file") -> Path:
    """Refuse, before anything is computed or written, a path that `write_atomic` would refuse.

    `ours(path) -> bool` says whether an existing regular file is of the kind the caller writes (a results file,
    a wiki database, ...); without it any regular file may be replaced. A symbolic link is followed: the file it
    names is the one checked and, later, replaced, and the link stays a link. Returns that real path.

        >>> import tempfile, pathlib
        >>> notes = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
        >>> _ = notes.write_text("my notes")
        >>> check_target(notes, ours=lambda p: False, what="wiki database")
        Traceback (most recent call last):
        ...
        react_teach.data.NotOursError: notes.txt is not a wiki database of ours; nothing was written: give a new file or one this command wrote
    """
    path = Path(os.path.realpath(path))
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # not there yet (a bad folder is the writer's to report)
        return path
    if stat.S_ISDIR(st.st_mode):
        raise NotOursError(f"{path} is a folder; give a {what} path")
    if not stat.S_ISREG(st.st_mode):  # /dev/null, a fifo, a socket: replacing it would break the system or hang
        kind = "fifo" if stat.S_ISFIFO(st.st_mode) else "device" if stat.S_ISCHR(st.st_mode) or \
            stat.S_ISBLK(st.st_mode) else "special file"
        raise NotOursError(f"{path} is a {kind}, not a regular file; nothing was written: give a {what} path")
    if ours is not None and st.st_size and not ours(path):
        raise NotOursError(f"{path.name} is not a {what} of ours; nothing was written: give a new file or one "
                           "this command wrote")
    return path


def write_atomic(path: str | Path, content, *, ours=None, what: str = "file") -> None:
    """The one way the package writes a file: all of it or none of it, and never over what is not ours.

    `content` is text, bytes, or a function that writes the file it is given (SQLite, a GGUF or torch writer):
    it always writes a temporary file in the target's folder, which is flushed to disk and renamed over the
    target, so a crash or a full disk leaves the old file or the new one, never half of either, and no temporary
    file. `ours` and `what` are `check_target`'s: a folder, a device, a fifo, or a foreign file is refused before
    anything is written. An error names the file.

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
        >>> write_atomic(path, "one"); write_atomic(path, b"two"); path.read_text()
        'two'
        >>> write_atomic(path, lambda tmp: tmp.write_text("three")); path.read_text(), len(list(path.parent.iterdir()))
        ('three', 1)
    """
    path = check_target(path, ours, what)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            if callable(content):
                os.close(fd)
                fd = None
                content(Path(tmp))
                fd = os.open(tmp, os.O_RDONLY)
            else:
                data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            os.fsync(fd)
            os.close(fd)
            fd = None
            check_target(path, ours, what)  # checked again: the file may have changed while we computed
            if os.path.exists(path):
                os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))  # a rewrite keeps the file's permissions
            else:
                os.chmod(tmp, 0o666 & ~UMASK)  # mkstemp's 0600 would hide a new file from its owner's group
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except OSError as e:  # a full disk, a read-only folder: say which file, so the one-line message can
            if e.filename:
                raise
            raise OSError(e.errno, e.strerror or str(e), str(path)) from None
    finally:  # a failed write (disk full, bad text, a writer that raised) leaves no temporary file behind
        if fd is not None:
            os.close(fd)
        Path(tmp).unlink(missing_ok=True)


def parse_json(text: str):
    """One JSON value, or ValueError("not JSON (why)") however the text fails: bad syntax (the line is named), an
    integer longer than Python will read (4300 digits), or nesting so deep the decoder runs out of stack. Every
    reader of a file or a server's answer parses through this, so that none of them can crash on its input.

    >>> parse_json("[" * 100000)
    Traceback (most recent call last):
    ...
    ValueError: not JSON (nested too deep)
    >>> parse_json('{"n": ' + "9" * 5000 + '}')
    Traceback (most recent call last):
    ...
    ValueError: not JSON (an integer of more than 4300 digits)
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e.msg}{f' on line {e.lineno}' if e.lineno > 1 else ''})") from None
    except RecursionError:  # JSON nested thousands deep
        raise ValueError("not JSON (nested too deep)") from None
    except ValueError:  # the only other one json raises: an integer too long to convert (Python's int limit)
        raise ValueError(f"not JSON (an integer of more than {sys.get_int_max_str_digits() or 4300} digits)") \
            from None


def _umask() -> int:  # read once at import: os.umask can only be read by setting it, which threads would race
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _umask()


def _fsync_dir(folder: Path) -> None:
    """The rename itself on disk too (POSIX); Windows cannot open a folder, and renames there are durable."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_text(path: str | Path) -> str:
    """A text file as UTF-8, or ValueError naming the file and the first bad byte (not a bare codec message)."""
    path = Path(path)
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ValueError(f"{path}:{line}: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start})") from None


def parse_jsonl(text: str) -> list[tuple[int, object]]:
    """(line number, record) for each non-blank line of JSONL text; a line that is not JSON gives a ValueError in
    its record's place. A results file's header line is left out: it describes the file, it is not a record."""
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = parse_json(line)
        except ValueError as e:
            rec = e
        if not (isinstance(rec, dict) and RESULTS_HEADER in rec):
            out.append((k, rec))
    return out


SHIPPED = ("corpus", "exemplars", "runs", "labels", "models", *("hotpotqa_course.jsonl", "fever_course.jsonl"))


def data_dir() -> Path:
    """The course's data: $REACT_TEACH_DATA, or the files that ship inside the package (`react_teach.course_data`,
    which is data/ at the top of the checkout: an editable install maps it there, a wheel carries a copy).

    A folder without the corpus, the exemplars or the question sets is refused, naming what is missing: an
    install without its data must never answer from an empty wiki.

        >>> (data_dir() / "exemplars" / "hotpotqa.jsonl").is_file()
        True
    """
    if os.environ.get("REACT_TEACH_DATA"):
        root = Path(os.environ["REACT_TEACH_DATA"])
    else:
        try:
            root = Path(str(importlib.resources.files("react_teach.course_data")))
        except ModuleNotFoundError:
            root = None
    missing = [n for n in SHIPPED if root is None or not (root / n).exists()]
    if root is not None and not missing and not any((root / "corpus").glob("*.jsonl")):
        missing = ["corpus/*.jsonl"]
    if missing:
        raise FileNotFoundError(errno.ENOENT, "the course's data is not in this install (it lacks "
                                f"{', '.join(missing)}); reinstall react_teach, or set REACT_TEACH_DATA to a "
                                "copy of its data/ folder", str(root or "react_teach.course_data"))
    return root


def read_jsonl(path: str | Path) -> list[dict]:
    """One JSON value per line, blank lines skipped; a results file's header line skipped too. A line that is not
    JSON is refused, naming the file and the line."""
    path = Path(path)
    rows = []
    for k, rec in parse_jsonl(read_text(path)):
        if isinstance(rec, ValueError):
            raise ValueError(f"{path}:{k}: {rec}") from None
        rows.append(rec)
    return rows


COURSE_SETS = {"hotpotqa": "hotpotqa_course.jsonl", "fever": "fever_course.jsonl"}


def load_questions(source: str = "hotpotqa") -> list[dict]:
    """A question set: ``hotpotqa`` or ``fever`` (ours, in data/), or a file in any format `read_questions` knows."""
    if source in COURSE_SETS:
        return read_jsonl(data_dir() / COURSE_SETS[source])
    return read_questions(source)


def read_questions(path: str | Path) -> list[dict]:
    """Read our JSONL, the HotpotQA distractor JSON, the ReAct repo's simplified HotpotQA JSON, or FEVER jsonl.

    Every record comes back with a string ``id``, and either ``question``/``answer`` or ``claim``/``label``, the
    text flattened to one line. Anything else is refused with the file and record named.
    """
    path = Path(path)
    text = read_text(path)
    if text.lstrip().startswith("["):
        try:
            rows = parse_json(text)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
    else:
        rows = read_jsonl(path)
    if not rows:
        raise ValueError(f"{path}: no questions in the file")
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise ValueError(f"{path.name}: record {i} is not an object")
        r = dict(r)
        if "claim" in r:  # FEVER: {id, label, claim, evidence, ...}
            r.setdefault("label", "NOT ENOUGH INFO")
            field = "claim"
        elif "question" in r:  # HotpotQA distractor (_id, supporting_facts, context) or simplified {question, answer}
            r.setdefault("answer", "")
            field = "question"
        else:
            raise ValueError(f"{path.name}: record {i} has neither question nor claim")
        if not isinstance(r[field], str) or not r[field].strip():
            raise ValueError(f"{path.name}: record {i}: the {field} must be a non-empty string")
        r[field] = one_line(r[field])  # a question must never forge a Thought, Action or Observation line
        r["id"] = str(r.get("id", r.get("_id", i)))
        out.append(r)
    return out


def hotpotqa_articles(path: str | Path) -> list[dict]:
    """Corpus articles from the contexts of a HotpotQA distractor file (title and sentences of each paragraph)."""
    try:
        data = parse_json(read_text(path))
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    seen, out = set(), []
    for i, q in enumerate(data if isinstance(data, list) else [None]):
        context = q.get("context") if isinstance(q, dict) else None
        if not isinstance(context, list) or not all(
                isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and isinstance(c[1], list) and
                all(isinstance(s, str) for s in c[1]) for c in context):
            raise ValueError(f"{path}: record {i} has no HotpotQA context ([title, [sentences]] pairs)")
        for title, sents in context:
            if title not in seen:
                seen.add(title)
                out.append({"title": title, "sentences": [s.strip() for s in sents if s.strip()]})
    return out


STEP_FIELDS = {"thought", "action", "observation", "author", "invented"}


def read_prompts(path: str | Path, key: str) -> str | list[dict]:
    """The prompt under `key` in the paper's prompt JSON (an object of strings), or the trajectories of our
    exemplar JSONL (one or more lines, each with ``question`` and ``steps``). Anything else is refused."""
    path = Path(path)
    text = read_text(path)
    try:
        whole = parse_json(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and "steps" not in whole:  # the paper's file; one exemplar alone has steps
        if not isinstance(whole.get(key), str):
            found = "no key" if key not in whole else "no prompt string under the key"
            raise ValueError(f"{path.name} has {found} {key!r}; its keys: {sorted(whole)[:10]}")
        return whole[key]
    if isinstance(whole, list):
        raise ValueError(f"{path.name} is a JSON array: give the paper's prompt JSON or an exemplar JSONL")
    exemplars = read_jsonl(path)
    for k, e in enumerate(exemplars, 1):
        if not (isinstance(e, dict) and isinstance(e.get("question"), str) and isinstance(e.get("steps"), list)
                and all(isinstance(s, dict) and set(s) <= STEP_FIELDS for s in e["steps"])):
            raise ValueError(f"{path.name}: exemplar {k} is not a trajectory (question and steps)")
    return exemplars


def load_exemplars(task: str = "hotpotqa") -> list[dict]:
    """Our hand-written exemplar trajectories (see data/exemplars/)."""
    return read_jsonl(data_dir() / "exemplars" / f"{task}.jsonl")


def supporting_sentences(questions: list[dict]) -> dict[str, list[str]]:
    """{question: its supporting-fact sentences} from our corpus, for judging CoT answers (which have no
    observations) against the facts they should rest on."""
    corpus = {a["title"]: a["sentences"] for p in sorted((data_dir() / "corpus").glob("*.jsonl"))
              for a in read_jsonl(p)}
    return {q["question"]: [corpus[t][i] for t, i in q.get("supporting_facts", []) if t in corpus]
            for q in questions}
