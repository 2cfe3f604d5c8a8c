"""Figures for generated worlds: build time, articles, questions by type and level, oracle recoveries and lookups.

    python benchmarks/world_stats.py                 # the training seeds together, then the held-out seed
    python benchmarks/world_stats.py --time-only     # just `world build --seed 1 --size 300`, timed

The build time is measured as a learner meets it: `python -m react_teach world build` in a fresh process, with an
empty cache, into a new folder. The counts run the oracle on every question and claim through the real WikiEnv
(a trajectory that does not end with the gold answer stops the script). The guessing floor is the share a model that
reads nothing gets right by answering "yes" and naming the first option: the floor.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from react_teach import world
from react_teach.wiki import article_text, sentences


def build_seconds(seed: int = 1, size: int = 300) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one build; on a shared machine the CPU time is the steadier figure."""
    import resource

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, REACT_TEACH_CACHE=str(Path(tmp) / "cache"))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "react_teach", "world", "build", "--seed", str(seed), "--size",
                        str(size), "--out", str(Path(tmp) / "out")], check=True, env=env, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        return time.perf_counter() - started, cpu


def stats(seeds, size: int) -> dict:
    articles, types, levels, kinds, claims = 0, Counter(), Counter(), Counter(), Counter()
    recover, n, steps, tokens, guessed, traj_tokens = Counter(), 0, 0, [], 0, []
    tok = tokenizer()
    for seed in seeds:
        w = world.generate(seed, size)
        wk = world.wiki(w)
        articles += len(w.articles)
        tokens += [len(tok(" ".join(sentences(article_text(a))[:5]))) for a in w.articles
                   if not a.get("disambiguation")]
        for q in w.questions + w.claims:
            t = world.oracle(w, q, wk)
            gold = q.get("answer", q.get("label"))
            assert t.answer == gold, (q["id"], t.answer, gold)
            if "claim" in q:
                claims[q["label"]] += 1
                continue
            n += 1
            steps += len(t.steps)
            traj_tokens.append(len(tok(t.render())))
            types[q["type"]] += 1
            levels[q["level"]] += 1
            kinds[q["hops"], q["type"]] += 1
            obs = [s.observation or "" for s in t.steps]
            found = {"miss then Similar": any(o.startswith("Could not find ") and not o.startswith(
                "Could not find [") for o in obs), "disambiguation": any(o.startswith("Could not find [") for o in obs),
                "lookup": any(s.action.startswith("Lookup[") for s in t.steps)}
            recover.update([k for k, v in found.items() if v] + ["any of these"] * any(found.values()))
            guessed += world.guess(q) == q["answer"]
    return {"worlds": len(seeds), "articles": articles, "questions": n, "claims": dict(claims),
            "types": dict(types), "levels": dict(levels), "hops x type": {f"{h}-hop {t}": c for (h, t), c in
                                                                         sorted(kinds.items())},
            "share of oracle trajectories with": {k: round(v / n, 3) for k, v in recover.items()},
            "mean steps": round(steps / n, 2), "mean SmolLM2 tokens per rendered ReAct trajectory":
                round(sum(traj_tokens) / n, 1), "guessing floor (EM)": round(guessed / n, 3),
            "first five sentences, SmolLM2 tokens (mean, min, max)": (round(sum(tokens) / len(tokens), 1),
                                                                       min(tokens), max(tokens))}


def tokenizer():
    """The bundled model's tokenizer (vocabulary only, no weights in memory)."""
    import llama_cpp

    from react_teach import llm
    m = llama_cpp.Llama(str(llm.bundled_path()), vocab_only=True, verbose=False)
    return lambda text: m.tokenize(text.encode(), add_bos=False)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--time-only", action="store_true")
    a = p.parse_args()
    wall, cpu = build_seconds()
    print(f"world build --seed 1 --size 300: {wall:.2f} s wall, {cpu:.2f} s CPU (fresh process, empty cache; "
          f"load average {os.getloadavg()[0]:.1f})")
    if not a.time_only:
        for name, seeds in (("training seeds", world.TRAIN_SEEDS), ("held-out seed", (world.HELDOUT_SEED,))):
            started = time.perf_counter()
            print(f"{name} {list(seeds)} x size {world.SIZE}:", stats(seeds, world.SIZE),
                  f"({time.perf_counter() - started:.1f} s)")
