"""ReAct and CoT exact match of text-davinci-003 on 100 hard HotpotQA dev questions, from public trajectories.

    python benchmarks/davinci_em.py FOLDER

FOLDER holds the two files converted from noahshinn/reflexion @218cf0e (MIT), hotpotqa_runs/root/:
``react_text-davinci-003_hotpotqa100.jsonl`` (ReAct, first trial, no reflection, live Wikipedia, May 2023) and
``cot_text-davinci-003_hotpotqa100.jsonl`` (CoT without context, the no-reflection baseline). Each line has
``question``, ``gold`` and ``pred``. The script re-scores every prediction with the official normalisation
(react_teach.score.exact_match) rather than trusting the stored ``em``, says where the two disagree, and prints
EM with its Wilson 95% interval and the always-yes / always-no baselines. Notebook 07 quotes its output; the
trajectory files themselves are not part of the course.

Caveat printed with the result: the CoT file is the last of up to 5 trials of the no-reflection baseline, so its
EM is an upper bound on a single CoT attempt (at temperature 0 a retry mostly repeats the same answer).
"""
import argparse
import json
import sys
from pathlib import Path

from react_teach.runs.stats import baselines, wilson
from react_teach.score import exact_match

FILES = {"react": "react_text-davinci-003_hotpotqa100.jsonl", "cot": "cot_text-davinci-003_hotpotqa100.jsonl"}


def stored_em(value) -> bool:
    """The stored `em` may be a bool or a string ("True"/"False"), as the conversion left it."""
    return value is True or str(value).strip().lower() in ("true", "1")


def measure(path: Path) -> dict:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{path.name} has no trajectories")
    ours = [exact_match(r.get("pred"), r["gold"]) for r in rows]
    theirs = [stored_em(r.get("em")) for r in rows]
    k, n = sum(ours), len(rows)
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "em": k / n, "lo": lo, "hi": hi, "golds": [r["gold"] for r in rows],
            "questions": [r["question"] for r in rows], "disagree": sum(a != b for a, b in zip(ours, theirs)),
            "model": rows[0].get("model", "unknown model")}


def main(argv=None) -> int:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("folder", help="the folder holding the two trajectory files")
    args = a.parse_args(argv)
    folder = Path(args.folder)
    missing = [name for name in FILES.values() if not (folder / name).is_file()]
    if missing:
        print(f"davinci_em: {folder} lacks {', '.join(missing)}", file=sys.stderr)
        return 2
    results = {m: measure(folder / f) for m, f in FILES.items()}
    if results["react"]["questions"] != results["cot"]["questions"]:
        print("davinci_em: the two files are not on the same questions in the same order", file=sys.stderr)
        return 2
    for method, r in results.items():
        print(f"{r['model']} {method:5} EM {100 * r['em']:.1f}% [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}] "
              f"n={r['n']} (stored em differs on {r['disagree']})")
    for name, value in baselines(results["react"]["golds"]).items():
        print(f"baseline {name}: {100 * value:.1f}% n={results['react']['n']}")
    print("note: cot is the last of up to 5 no-reflection trials, an upper bound on one attempt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
