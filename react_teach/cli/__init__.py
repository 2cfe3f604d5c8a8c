"""python -m react_teach: the course's loops without a notebook.

The package holds `specs` (`--wiki` specs, where `wiki` and `world` meet), `world` (`world build`, `finetune`)
and `doctor`; here are the parser and the course's own verbs.

    python -m react_teach ask "Which magazine was started first, Arthur's Magazine or First for Women?" --json
    python -m react_teach run --method react --task hotpotqa --n 20 --out runs/react.jsonl
    python -m react_teach run --method react --sample --out runs/react.jsonl   # the committed runs' sample
    python -m react_teach wiki search "High Plains"
    python -m react_teach ablate --prompts data/exemplars/hotpotqa.jsonl --key react --to act
    python -m react_teach label runs/react.jsonl
    python -m react_teach world build --seed 1 --size 300 --out world1
    python -m react_teach doctor
    python -m react_teach notebooks my_course

Bad use (unknown verb, method, spec, missing or malformed file, a number out of range) prints one line on stderr
and exits with status 2; nothing is written before the input has been checked.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from pathlib import Path

from react_teach import llm, methods
from react_teach.ablate import DERIVE, exemplar_prompt
from react_teach.data import COURSE_SETS, data_dir, hotpotqa_articles, read_prompts, read_questions, write_atomic
from react_teach.failures import label_file
from react_teach.llm import LLMError, hide_credentials
from react_teach.methods import solve
from react_teach.runs import questions_sha256, run
from react_teach.runs.sample import sample
from react_teach.score import summarize, summary_line
from react_teach.trajectory import one_line
from react_teach.wiki import LocalWiki, WikiEnv

from . import world as cli_world
from .doctor import doctor
from .specs import open_wiki

# What the terminal must never be sent: C0 and C1 controls (ESC starts every escape sequence; \x9b is CSI on its own)
# and the bidirectional overrides that make text read differently from how it is stored. Line feed, tab and the
# carriage return of the progress bar stay; untrusted one-line text (ids, errors) has its line breaks joined first.
TERMINAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Printable:
    """A text stream that shows a control character as "?" instead of passing it to the terminal. Everything the
    command line prints goes through one: question ids, server errors and page text are untrusted."""

    def __init__(self, inner):
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(TERMINAL.sub("?", text))
        return len(text)

    def __getattr__(self, name):  # flush, isatty, encoding, fileno: the real stream's
        return getattr(self.inner, name)


class UsageError(Exception):
    """Bad use of the command line: exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, like every other refusal (argparse would print the usage first)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _llm(spec: str | None):
    return llm.from_spec(spec) if spec else llm.default()


def _wiki(spec: str | None, method: str):
    if not methods.needs_wiki(method):
        if spec:  # refused rather than ignored: whoever wrote it expects the wiki to be used
            raise UsageError(f"--method {method} uses no wiki; leave out --wiki {spec}")
        return None
    return open_wiki(spec or "local")


def _positive(a, *names) -> None:
    for name in names:
        value = getattr(a, name, None)
        if value is not None and value < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be 1 or more, not {value}")


def cmd_ask(a) -> int:
    _positive(a, "max_steps", "samples")
    if not a.question.strip():
        raise UsageError("the question is empty; ask something, like \"Who wrote Hamlet?\"")
    t = solve(a.method, one_line(a.question), llm=_llm(a.llm), wiki=_wiki(a.wiki, a.method), task=a.task,
              max_steps=a.max_steps, n=a.samples)
    if a.json:
        u = t.usage
        print(json.dumps({"question": t.question, "method": t.method,
                          "steps": [{"thought": s.thought, "action": s.action, "observation": s.observation}
                                    for s in t.steps], "answer": t.answer, "n_calls": t.n_calls,
                          "n_badcalls": t.n_badcalls, "usage": {"prompt_tokens": u.prompt_tokens,
                          "cached_tokens": u.cached_tokens, "completion_tokens": u.completion_tokens},
                          "seconds": round(t.seconds, 3)}, ensure_ascii=False))
    else:
        print(t.render(), end="")
        print(f"Answer: {t.answer}")
    return 0


def cmd_run(a) -> int:
    _positive(a, "max_steps", "samples", "n", "concurrency")
    path = Path(a.questions) if a.questions else data_dir() / COURSE_SETS[a.task]
    if Path(a.out).resolve() == path.resolve():
        raise UsageError(f"--out {a.out} is the question file: one file cannot be both")
    spec = a.llm or ""
    while spec.startswith(("record:", "replay:")):  # checked before the cassette is read or the model loaded
        kind, _, rest = spec.partition(":")
        tape, _, spec = rest.partition("::")
        if Path(tape).resolve() == Path(a.out).resolve():
            raise UsageError(f"{Path(tape).name} would be both the model's cassette and the results file; give "
                             "each its own file")
    questions = read_questions(path)
    need, other = ("claim", "question") if a.task == "fever" else ("question", "claim")
    if any(need not in q for q in questions):
        raise UsageError(f"{path.name} holds {other}s, not {need}s: use --task "
                         f"{'hotpotqa' if a.task == 'fever' else 'fever'}")
    wiki = _wiki(a.wiki, a.method)
    # --sample: the course's run sample (react_teach.runs.sample), else the file's first N questions
    questions = sample(a.task, a.n, questions) if a.sample else questions[: a.n]
    rows = run(a.method, questions, a.out, llm=_llm(a.llm), task=a.task, max_steps=a.max_steps,
               wiki=wiki, concurrency=a.concurrency, n_samples=a.samples,
               questions_sha=questions_sha256(path), force_resume=a.force_resume)
    failed = [r for r in rows if "error" in r]
    for r in failed:
        print(one_line(f"question {r['id']} failed: {r['error']}"), file=sys.stderr)
    s = summarize(rows)[a.method]
    print(f"calls={s['calls']} badcalls={s['badcalls']} prompt_tokens={s['prompt_tokens']} "
          f"cached_tokens={s['cached_tokens']} completion_tokens={s['completion_tokens']} seconds={s['seconds']}")
    print(summary_line(a.method, s) + (f" failed={len(failed)}" if failed else ""))
    return 0


def cmd_wiki(a) -> int:
    if a.wiki_cmd == "build":
        source = a.from_hotpotqa or a.from_jsonl
        if bool(a.from_hotpotqa) == bool(a.from_jsonl):
            raise UsageError("wiki build needs exactly one of --from-hotpotqa FILE or --from-jsonl FILE")
        if Path(a.out).resolve() == Path(source).resolve():
            raise UsageError(f"--out {a.out} is the input file: the build would destroy it")
        started = time.perf_counter()
        if a.from_hotpotqa:
            w = LocalWiki.build(hotpotqa_articles(a.from_hotpotqa), a.out, source=f"{a.from_hotpotqa}: article")
        else:
            w = LocalWiki.from_jsonl([a.from_jsonl], a.out)
        print(f"{len(w.titles())} pages -> {a.out} in {time.perf_counter() - started:.2f} s")
        return 0
    env = WikiEnv(LocalWiki(a.db) if a.db else LocalWiki.course())
    obs, _ = env.step(f"search[{a.title}]")
    if a.wiki_cmd == "lookup":
        obs, _ = env.step(f"lookup[{a.keyword}]")
    print(obs)
    return 0


def cmd_ablate(a) -> int:
    prompt = read_prompts(a.prompts, a.key)
    # The derived prompt is data, to be saved byte for byte (the paper's own prompts carry mojibake in the C1
    # range): piped or redirected it goes out as it is; only a terminal gets the filtered text.
    out = sys.stdout.inner if isinstance(sys.stdout, Printable) and not sys.stdout.isatty() else sys.stdout
    out.write(DERIVE[a.to](prompt if isinstance(prompt, str) else exemplar_prompt(prompt)))
    return 0


def cmd_label(a) -> int:
    for row in label_file(a.file):
        if a.json:
            print(json.dumps(row, ensure_ascii=True))
        else:
            # one line here; the control characters are Printable's, like everything the command line prints
            print(one_line(f"{row['index']}\t{row['category']}\t{'; '.join(row['evidence'])}"))
    return 0


def cmd_doctor(a) -> int:
    return doctor(a.llm)


def cmd_notebooks(a) -> int:
    """Copy the course's notebooks (and their reference solutions) out of the installed package into a folder;
    they run there against the installed package. Existing files are never overwritten."""
    import importlib.resources

    root = Path(str(importlib.resources.files("react_teach.course_notebooks")))
    wanted = [(p, Path(a.dir) / p.name) for p in sorted(root.glob("[0-9][0-9]_*.ipynb"))]
    wanted += [(p, Path(a.dir) / "solutions" / p.name) for p in sorted((root / "solutions").glob("[0-9][0-9]_*.py"))]
    if not wanted:
        raise UsageError(f"this install has no notebooks (looked in {root}); reinstall react_teach")
    there = [str(target) for _, target in wanted if target.exists()]
    if there:
        raise UsageError(f"{there[0]} already exists{f' (and {len(there) - 1} more)' if len(there) > 1 else ''}; "
                         "nothing copied: give a new or empty folder")
    for source, target in wanted:
        write_atomic(target, source.read_bytes(), ours=lambda _: False, what="new file")  # never over a file
    print(f"copied {sum(t.suffix == '.ipynb' for _, t in wanted)} notebooks and their solutions to {a.dir}; "
          f"open them with: jupyter lab {a.dir}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m react_teach", description="ReAct, built from the bare loop up.")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND", parser_class=Parser)

    def common(q):
        q.add_argument("--method", default="react", choices=methods.names())
        q.add_argument("--task", default="hotpotqa", choices=("hotpotqa", "fever"))
        q.add_argument("--llm", help="local, local:PATH.gguf, openai:MODEL, openai-compatible:URL#MODEL, "
                                     "script:FILE, replay:FILE (default: $REACT_TEACH_LLM or local)")
        q.add_argument("--wiki", help="local (default), local:DB, live, world:SEED[:SIZE]")
        q.add_argument("--max-steps", type=int, help="step limit (default 7 for hotpotqa, 5 for fever)")
        q.add_argument("--samples", type=int, default=21, help="CoT-SC samples (default 21)")

    q = sub.add_parser("ask", help="one question, one trajectory")
    q.add_argument("question")
    common(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(fn=cmd_ask)

    q = sub.add_parser("run", help="a method over a question set, resumable JSONL")
    common(q)
    q.add_argument("--questions", help="our JSONL, HotpotQA distractor/simplified JSON or FEVER jsonl")
    q.add_argument("--n", type=int, help="first N questions (with --sample: a sample of N)")
    q.add_argument("--sample", action="store_true",
                   help="the course's run sample: seeded, stratified, without the questions about the exemplars' "
                        "subjects (40 HotpotQA questions, 24 FEVER claims unless --n)")
    q.add_argument("--concurrency", type=int, default=1, help="questions in parallel (remote servers)")
    q.add_argument("--out", required=True)
    q.add_argument("--force-resume", action="store_true",
                   help="continue an --out file made with another model, wiki, question file or version")
    q.set_defaults(fn=cmd_run)

    q = sub.add_parser("wiki", help="build or query a local wiki")
    wsub = q.add_subparsers(dest="wiki_cmd", required=True, parser_class=Parser)
    b = wsub.add_parser("build")
    b.add_argument("--from-hotpotqa")
    b.add_argument("--from-jsonl")
    b.add_argument("--out", required=True)
    s = wsub.add_parser("search")
    s.add_argument("title")
    s.add_argument("--db")
    lk = wsub.add_parser("lookup")
    lk.add_argument("title")
    lk.add_argument("keyword")
    lk.add_argument("--db")
    q.set_defaults(fn=cmd_wiki)

    q = sub.add_parser("ablate", help="derive Act / Standard / CoT prompts by deleting lines")
    q.add_argument("--prompts", required=True, help="the paper's prompt JSON or our exemplar JSONL")
    q.add_argument("--key", default="react", help="key in the JSON (e.g. webthink_simple6)")
    q.add_argument("--to", required=True, choices=("act", "standard", "cot"))
    q.set_defaults(fn=cmd_ablate)

    q = sub.add_parser("label", help="Table 2 labels for trajectories")
    q.add_argument("file")
    q.add_argument("--json", action="store_true")
    q.set_defaults(fn=cmd_label)

    cli_world.add(sub)  # world build and finetune: the generated world and the models trained on it

    q = sub.add_parser("notebooks", help="copy the course's notebooks into a folder, to run on this install")
    q.add_argument("dir", help="a new or empty folder")
    q.set_defaults(fn=cmd_notebooks)

    q = sub.add_parser("doctor", help="check the install: model, stop sequence, wiki, exemplars")
    q.add_argument("--llm")
    q.set_defaults(fn=cmd_doctor)
    return p


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Printable(sys.stdout), Printable(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str] | None) -> int:
    p = parser()
    a = p.parse_args(argv)
    if hasattr(a, "argv"):  # a verb that records its own command line: the one it was given, else the process's
        a.argv = list(sys.argv[1:] if argv is None else argv)
    for name in ("questions", "prompts", "file", "db", "from_hotpotqa", "from_jsonl"):
        path = getattr(a, name, None)
        if path and not Path(path).exists():
            p.exit(2, f"{p.prog}: error: no such file: {path}\n")
        if path and Path(path).is_dir():
            p.exit(2, f"{p.prog}: error: {path} is a folder, not a file\n")
    try:
        return a.fn(a)
    except (UsageError, LLMError, ValueError) as e:  # ValueError: malformed input files, refused run files
        p.exit(2, f"{p.prog}: error: {hide_credentials(one_line(str(e)))}\n")
    except OSError as e:  # a folder given as a file, no permission, a full disk: where and why, in one line
        where = f"{e.filename}: " if e.filename else ""
        p.exit(2, f"{p.prog}: error: {hide_credentials(one_line(f'{where}{e.strerror or e}'))}\n")
    except sqlite3.DatabaseError as e:  # our own storage failed: never an observation, never a traceback
        p.exit(2, f"{p.prog}: error: the wiki database failed: {one_line(str(e))}\n")
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
