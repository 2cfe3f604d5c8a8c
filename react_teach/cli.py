"""python -m react_teach: the course's loops without a notebook.

    python -m react_teach ask "Which magazine was started first, Arthur's Magazine or First for Women?" --json
    python -m react_teach run --method react --task hotpotqa --n 20 --out runs/react.jsonl
    python -m react_teach wiki search "High Plains"
    python -m react_teach ablate --prompts data/exemplars/hotpotqa.jsonl --key react --to act
    python -m react_teach label runs/react.jsonl
    python -m react_teach doctor

Bad use (unknown verb, method, spec, missing file) prints one line on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import methods


class UsageError(Exception):
    """Bad use of the command line: exit status 2."""


def _llm(spec: str | None):
    from . import llm
    return llm.from_spec(spec) if spec else llm.default()


def _wiki(spec: str | None):
    from . import wiki
    return wiki.from_spec(spec or "local")


def cmd_ask(a) -> int:
    from .agent import solve
    from .runs import result_line

    t = solve(a.method, a.question, llm=_llm(a.llm), wiki=_wiki(a.wiki) if methods.needs_wiki(a.method)
              else None, task=a.task, max_steps=a.max_steps, n=a.samples)
    if a.json:
        d = result_line(t, {"id": "ask"}, a.task)
        for k in ("id", "gold", "em", "f1", "correct", "level"):
            d.pop(k, None)
        print(json.dumps(d, ensure_ascii=False))
    else:
        print(t.render(), end="")
        print(f"Answer: {t.answer}")
    return 0


def cmd_run(a) -> int:
    from .data import load_questions, read_questions
    from .runs import run
    from .score import summarize, summary_line

    questions = read_questions(a.questions) if a.questions else load_questions(a.task)
    if a.n:
        questions = questions[: a.n]
    rows = run(a.method, questions, a.out, llm=_llm(a.llm), task=a.task, max_steps=a.max_steps,
               wiki=_wiki(a.wiki) if methods.needs_wiki(a.method) else None,
               concurrency=a.concurrency, n_samples=a.samples)
    s = summarize(rows)[a.method]
    print(f"calls={s['calls']} badcalls={s['badcalls']} prompt_tokens={s['prompt_tokens']} "
          f"cached_tokens={s['cached_tokens']} completion_tokens={s['completion_tokens']} seconds={s['seconds']}")
    print(summary_line(a.method, s))
    return 0


def cmd_wiki(a) -> int:
    from .data import hotpotqa_articles
    from .wiki import LocalWiki, WikiEnv

    if a.wiki_cmd == "build":
        if bool(a.from_hotpotqa) == bool(a.from_jsonl):
            raise UsageError("wiki build needs exactly one of --from-hotpotqa FILE or --from-jsonl FILE")
        started = time.perf_counter()
        if a.from_hotpotqa:
            w = LocalWiki.build(hotpotqa_articles(a.from_hotpotqa), a.out)
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
    from .ablate import DERIVE, load_prompt_file

    try:
        text = load_prompt_file(a.prompts, a.key)
    except KeyError as e:
        raise UsageError(e.args[0]) from None
    print(DERIVE[a.to](text), end="")
    return 0


def cmd_label(a) -> int:
    from .failures import label_file

    for row in label_file(a.file):
        if a.json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(f"{row['index']}\t{row['category']}\t{'; '.join(row['evidence'])}")
    return 0


def cmd_doctor(a) -> int:
    from .doctor import doctor
    return doctor(a.llm)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m react_teach", description="ReAct, built from the bare loop up.")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def common(q):
        q.add_argument("--method", default="react", choices=methods.names())
        q.add_argument("--task", default="hotpotqa", choices=("hotpotqa", "fever"))
        q.add_argument("--llm", help="local, local:PATH.gguf, openai:MODEL, openai-compatible:URL#MODEL, "
                                     "script:FILE, replay:FILE (default: $REACT_TEACH_LLM or local)")
        q.add_argument("--wiki", help="local (default), local:DB, live")
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
    q.add_argument("--n", type=int, help="first N questions")
    q.add_argument("--concurrency", type=int, default=1, help="questions in parallel (remote servers)")
    q.add_argument("--out", required=True)
    q.set_defaults(fn=cmd_run)

    q = sub.add_parser("wiki", help="build or query a local wiki")
    wsub = q.add_subparsers(dest="wiki_cmd", required=True)
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

    q = sub.add_parser("doctor", help="check the install: model, stop sequence, wiki, exemplars")
    q.add_argument("--llm")
    q.set_defaults(fn=cmd_doctor)
    return p


def main(argv: list[str] | None = None) -> int:
    from .llm import LLMError

    p = parser()
    a = p.parse_args(argv)
    for name in ("questions", "prompts", "file", "db", "from_hotpotqa", "from_jsonl"):
        path = getattr(a, name, None)
        if path and not Path(path).exists():
            p.exit(2, f"{p.prog}: error: no such file: {path}\n")
    try:
        return a.fn(a)
    except (UsageError, LLMError, ValueError) as e:
        p.exit(2, f"{p.prog}: error: {e}\n")
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
