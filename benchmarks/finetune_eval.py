"""Figure 3 in miniature: the bundled model prompted (few-shot) against fine-tuned (zero-shot), on a held-out world.

    python benchmarks/finetune_eval.py                         # every part, 200 held-out questions
    python benchmarks/finetune_eval.py --parts finetuned,rescue --n 50

Parts:
- prompted:  Standard, CoT, Act, ReAct with the course's exemplars on the bundled base (`local`);
- finetuned: the same four methods, each on its own adapter (`local:ft-METHOD`), zero-shot;
- transfer:  the ReAct adapter on the course's real-subject questions and wiki;
- rescue:    for each failed fine-tuned ReAct trajectory, its first step whose action differs from the oracle's
             gets the oracle's thought there (`Agent.edit`), and the agent resumes: does it reach the gold?

The loss-on-every-token ablation is measured on the test worlds, beside ReAct on the same questions
(`worlds_eval.py --test --parts ablation`).

Every run is a resumable results file under --out (a rerun skips what is done; model calls are cached on disk).
The summary, with n, a Wilson 95% interval and the constant-answer baselines, goes to --out/summary.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from react_teach import llm as llm_mod, world
from react_teach.agent import Agent
from react_teach.data import load_questions, write_atomic
from react_teach.runs.stats import baselines, rate
from react_teach.runs import run
from react_teach.score import score
from react_teach.wiki import LocalWiki

METHODS = ("standard", "cot", "act", "react")


def summary(rows: list[dict]) -> dict:
    """n, EM with its Wilson interval, and the constant answers' EM on the very same questions."""
    r = rate(rows)
    return {"n": r["n"], "em": round(r["p"], 3), "ci95": [round(r["lo"], 3), round(r["hi"], 3)],
            "seconds_per_question": round(sum(x["seconds"] for x in rows) / r["n"], 2),
            "baselines": constant(x["gold"] for x in rows)}


def constant(golds) -> dict:
    """What always "yes" and always "no" score on these gold answers (`runs.stats.baselines`), rounded."""
    return {k: round(v, 3) for k, v in baselines(list(golds)).items()}


def rescue(rows: list[dict], w, wiki, llm) -> dict:
    """Replace the first wrong thought of each failure with the oracle's, resume, and count the rescues."""
    by_id = {q["id"]: q for q in w.questions}
    cases = []
    for r in rows:
        if r["em"]:
            continue
        q = by_id[r["id"]]
        oracle = world.oracle(w, q, wiki)
        agent = Agent(q["question"], llm=llm, wiki=wiki, gold=q["answer"])
        agent.run()  # the same trajectory again, from the disk cache
        model_actions = [s.action for s in agent.trajectory.steps]
        k = next((i for i, s in enumerate(oracle.steps, 1)
                  if i > len(model_actions) or model_actions[i - 1] != s.action), len(oracle.steps))
        agent.edit(k, thought=oracle.steps[k - 1].thought)
        t = agent.run()
        # an edit of the last thought hands over the conclusion; an earlier one only says what to read next
        cases.append({"id": r["id"], "step": k, "kind": "conclusion" if k == len(oracle.steps) else "plan",
                      "thought": oracle.steps[k - 1].thought, "answer": t.answer, "gold": q["answer"],
                      "em": score(t.answer, q["answer"])["em"]})
    out = share(cases)
    for kind in ("plan", "conclusion"):
        out[kind] = share([c for c in cases if c["kind"] == kind])
    return {**out, "cases": cases}


def share(cases: list[dict]) -> dict:
    if not cases:
        return {"failures": 0, "rescued": 0, "share": None, "ci95": None}
    r = rate(cases)
    return {"failures": r["n"], "rescued": r["k"], "share": round(r["p"], 3),
            "ci95": [round(r["lo"], 3), round(r["hi"], 3)]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=world.SIZE, help="held-out questions (default all 200)")
    p.add_argument("--parts", default="prompted,finetuned,transfer,rescue")
    p.add_argument("--methods", default=",".join(METHODS))
    p.add_argument("--out", default="data/runs/finetune")
    a = p.parse_args(argv)
    out, parts, methods = Path(a.out), a.parts.split(","), a.methods.split(",")
    out.mkdir(parents=True, exist_ok=True)
    w = world.generate(world.HELDOUT_SEED, world.SIZE)
    wiki, questions = world.wiki(w), w.questions[: a.n]
    path = out / "summary.json"
    result = json.loads(path.read_text()) if path.exists() else {}
    result["heldout"] = {"seed": world.HELDOUT_SEED, "n": len(w.questions), "baselines": constant(q["answer"] for q in w.questions)}

    def save(key: str) -> None:  # re-read first: another run of this script may have added its own keys
        merged = json.loads(path.read_text()) if path.exists() else {}
        merged.update({k: result[k] for k in (key, "heldout", "course") if k in result})
        write_atomic(path, json.dumps(merged, indent=1) + "\n")

    def measure(key: str, method: str, spec: str, qs: list[dict], wk) -> list[dict]:
        started = time.perf_counter()
        rows = run(method, qs, out / f"{key}.jsonl", llm=llm_mod.from_spec(spec), wiki=wk)
        result[key] = {"method": method, "llm": spec, **summary(rows)}
        print(f"{key:28s} {spec:22s} n={len(rows)} em={result[key]['em']:.3f} ci95={result[key]['ci95']} "
              f"s/q={result[key]['seconds_per_question']} ({time.perf_counter() - started:.0f} s)", flush=True)
        save(key)
        return rows

    for m in methods:
        if "prompted" in parts:
            measure(f"world_prompted_{m}", m, "local", questions, wiki)
        if "finetuned" in parts:
            measure(f"world_ft_{m}", m, f"local:ft-{m}", questions, wiki)
    if "transfer" in parts:
        course = load_questions("hotpotqa")
        result["course"] = {"n": len(course), "baselines": constant(q["answer"] for q in course)}
        measure("course_ft_react", "react", "local:ft-react", course, LocalWiki.course())
    if "rescue" in parts:
        rows = run("react", questions, out / "world_ft_react.jsonl", llm=llm_mod.from_spec("local:ft-react"),
                   wiki=wiki, progress=False)
        result["rescue"] = rescue(rows, w, wiki, llm_mod.from_spec("local:ft-react"))
        r = result["rescue"]
        for part in (r, r["plan"], r["conclusion"]):
            print(f"edit rescue: {part['rescued']} of {part['failures']} failures reach the gold "
                  f"({part['share']:.3f}, ci95 {part['ci95']})")
        save("rescue")
    return 0


if __name__ == "__main__":
    sys.exit(main())
