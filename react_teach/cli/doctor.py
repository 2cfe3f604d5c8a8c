"""`python -m react_teach doctor`: is everything the course needs here and working? Prints timings.

Each check prints ``ok`` or ``FAIL`` with the reason; the exit status is 0 only if all pass.
"""
from __future__ import annotations

import tempfile
import time

from react_teach import llm as llm_mod
from react_teach.data import data_dir, load_exemplars
from react_teach.wiki import LocalWiki, WikiEnv


def check_model(spec: str | None) -> list[str]:
    started = time.perf_counter()
    model = llm_mod.from_spec(spec, cache=False) if spec else llm_mod.default(cache=False)
    load = getattr(model, "load_seconds", time.perf_counter() - started)
    prompt = "Question: What is the capital of France?\nAnswer: Paris\nQuestion: What is the capital of Italy?\nAnswer:"
    c = model.complete(prompt, stop=["\n"], max_tokens=16)[0]
    if "\n" in c.text:
        raise AssertionError(f"the stop sequence did not stop the model: {c.text!r}")
    free = model.complete("Once upon a time", max_tokens=64)[0]
    rate = free.usage.completion_tokens / free.usage.seconds if free.usage.seconds else float("nan")
    return [f"model {model.name}: loaded in {load:.2f} s",
            f"stops at '\\n': {c.text!r} ({c.usage.completion_tokens} tokens)",
            f"generation: {rate:.0f} tokens/s ({free.usage.completion_tokens} tokens in {free.usage.seconds:.2f} s)"]


def check_wiki() -> list[str]:
    paths = sorted((data_dir() / "corpus").glob("*.jsonl"))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        w = LocalWiki.from_jsonl(paths, f"{tmp}/course.db")
        built = time.perf_counter() - started
        n = len(w.titles())
        started = time.perf_counter()
        obs, _ = WikiEnv(w).step("search[Colorado orogeny]")
        w.con.close()
    return [f"wiki: {n} pages indexed in {built:.2f} s; one search in {1000 * (time.perf_counter() - started):.1f} ms",
            f"search[Colorado orogeny] -> {obs[:70]}..."]


def check_exemplars() -> list[str]:
    wiki, out = LocalWiki.course(), []
    for task in ("hotpotqa", "fever"):
        exemplars = load_exemplars(task)
        for e in exemplars:
            env = WikiEnv(wiki)
            for k, s in enumerate(e["steps"], 1):
                a = s["action"]
                obs, done = env.step(a[:1].lower() + a[1:])
                if s["observation"] is not None and obs != s["observation"]:
                    raise AssertionError(f"{task} exemplar {e['question'][:40]!r} step {k}: the tool says "
                                         f"{obs[:60]!r}, the exemplar says {s['observation'][:60]!r}")
        out.append(f"{task}: {len(exemplars)} exemplars replay byte for byte")
    return out


def doctor(spec: str | None = None) -> int:
    failed = 0
    for name, check in (("model", lambda: check_model(spec)), ("wiki", check_wiki),
                        ("exemplars", check_exemplars)):
        try:
            for line in check():
                print(f"ok    {line}")
        except Exception as e:  # the doctor reports, it does not crash
            failed += 1
            print(f"FAIL  {name}: {type(e).__name__}: {e}")
    print("all checks passed" if not failed else f"{failed} check(s) failed")
    return 1 if failed else 0
