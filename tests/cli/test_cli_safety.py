"""Issue 21, the data-safety half, through the command line: nothing a learner has is overwritten, replaced or
mixed up, and every refusal is one line with exit status 2.

Real files, fifos and device nodes (os.mknod needs root: those cases skip without it), real child processes for
the full disk."""
import json
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from react_teach.cli import main

CORPUS = [{"title": "Hamlet", "sentences": ["Hamlet is a tragedy by William Shakespeare."]}]
QS = [{"id": "q1", "question": "Who wrote Hamlet?", "answer": "William Shakespeare"}]


def cli(capsys, *argv) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    return code, err


def files(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(a) + "\n" for a in CORPUS))
    qs = tmp_path / "qs.jsonl"
    qs.write_text("".join(json.dumps(q) + "\n" for q in QS))
    script = tmp_path / "script.jsonl"
    script.write_text('" William Shakespeare"\n' * 3)
    return corpus, qs, script


def specials(tmp_path):
    """A fifo always; a character device like /dev/null when we are root."""
    os.mkfifo(tmp_path / "fifo")
    out = [tmp_path / "fifo"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        out.append(tmp_path / "null")
    return out


def test_wiki_build_refuses_to_overwrite_a_file_that_is_not_a_wiki_database(tmp_path, capsys):  # case 1
    corpus, _, _ = files(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("three weeks of notes\n")
    code, err = cli(capsys, "wiki", "build", "--from-jsonl", str(corpus), "--out", str(notes))
    assert code == 2 and "notes.txt is not a wiki database of ours" in err and err.count("\n") == 1
    assert notes.read_text() == "three weeks of notes\n"
    db = tmp_path / "w.db"
    assert cli(capsys, "wiki", "build", "--from-jsonl", str(corpus), "--out", str(db))[0] == 0
    assert cli(capsys, "wiki", "build", "--from-jsonl", str(corpus), "--out", str(db))[0] == 0  # ours: rebuilt
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["corpus.jsonl", "qs.jsonl", "script.jsonl",
                                                                 "notes.txt", "w.db"])  # no temporary file left


def test_a_device_a_fifo_or_a_folder_at_out_is_refused_and_left_as_it_was(tmp_path, capsys):  # case 2
    corpus, qs, script = files(tmp_path)
    (tmp_path / "folder").mkdir()
    for target in [*specials(tmp_path), tmp_path / "folder"]:
        mode = stat.S_IFMT(os.lstat(target).st_mode)
        for argv in (["wiki", "build", "--from-jsonl", str(corpus), "--out", str(target)],
                     ["run", "--method", "standard", "--questions", str(qs), "--llm", f"script:{script}",
                      "--out", str(target)],
                     ["run", "--method", "standard", "--questions", str(qs), "--out", str(tmp_path / "r.jsonl"),
                      "--llm", f"record:{target}::script:{script}"]):
            code, err = cli(capsys, *argv)
            assert code == 2 and err.count("\n") == 1, (argv, err)
            assert any(w in err for w in ("fifo", "device", "folder")), err
            assert stat.S_IFMT(os.lstat(target).st_mode) == mode, argv  # still a fifo, a device, a folder
    assert not (tmp_path / "r.jsonl").exists() or (tmp_path / "r.jsonl").stat().st_size == 0


def test_one_file_for_the_cassette_and_the_results_is_refused(tmp_path, capsys):  # case 14
    _, qs, script = files(tmp_path)
    out = tmp_path / "r.jsonl"
    code, err = cli(capsys, "run", "--method", "standard", "--questions", str(qs), "--out", str(out),
                    "--llm", f"record:{out}::script:{script}")  # a new file: the two writers would take turns
    assert code == 2 and "both the model's cassette and the results file" in err and not out.exists()
    assert cli(capsys, "run", "--method", "standard", "--questions", str(qs), "--llm", f"script:{script}",
               "--out", str(out))[0] == 0
    before = out.read_bytes()
    code, err = cli(capsys, "run", "--method", "standard", "--questions", str(qs), "--out", str(out),
                    "--llm", f"record:{out}::script:{script}")
    assert code == 2 and "both the model's cassette and the results file" in err
    assert out.read_bytes() == before
    code, err = cli(capsys, "run", "--method", "standard", "--questions", str(qs), "--out", str(qs),
                    "--llm", f"script:{script}")
    assert code == 2 and "question file" in err


def test_an_empty_corpus_builds_nothing(tmp_path, capsys):  # low
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, err = cli(capsys, "wiki", "build", "--from-jsonl", str(empty), "--out", str(tmp_path / "w.db"))
    assert code == 2 and "the corpus is empty" in err
    assert [p.name for p in tmp_path.iterdir()] == ["empty.jsonl"]


def test_invalid_utf8_names_the_file_and_the_line(tmp_path, capsys):  # low
    bad = tmp_path / "qs.jsonl"
    bad.write_bytes(json.dumps(QS[0]).encode() + b"\n" + b'{"id": "q2", "question": "caf\xe9?"}\n')
    code, err = cli(capsys, "run", "--method", "standard", "--questions", str(bad), "--llm", "script:",
                    "--out", str(tmp_path / "r.jsonl"))
    assert code == 2 and f"{bad}:2: not UTF-8" in err
    corpus = tmp_path / "c.jsonl"
    corpus.write_bytes(b'{"title": "Caf\xe9", "sentences": []}\n')
    code, err = cli(capsys, "wiki", "build", "--from-jsonl", str(corpus), "--out", str(tmp_path / "w.db"))
    assert code == 2 and f"{corpus}:1: not UTF-8" in err


def test_a_full_disk_during_a_run_names_the_file(tmp_path):  # low: a real file-size limit in a child process
    corpus, qs, script = files(tmp_path)
    out = tmp_path / "r.jsonl"
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from react_teach.cli import main
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG from write(), as ENOSPC on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (600, 600))
        sys.exit(main(["run", "--method", "standard", "--questions", {str(qs)!r}, "--llm", "script:{script}",
                       "--out", {str(out)!r}]))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    last = r.stderr.strip().splitlines()[-1]  # above it, only the progress bar
    assert last.startswith("python -m react_teach: error: ") and str(out) in last, r.stderr
