"""Compare bundled models on the course's own ReAct prompt: format adherence per step, finishes, seconds.

    python benchmarks/compare_models.py --n 12 local local:gemma3-270m

Adherence at step i: the model's completion held exactly one "Action i:" line (no re-prompt needed). Prints a
Markdown table, one row per model; the KV-cache column is (prompt_tokens - cached_tokens) / prompt_tokens, the share
of prompt tokens actually computed.
"""
import argparse
import time
from collections import defaultdict

from react_teach import llm
from react_teach.agent import Agent
from react_teach.data import load_questions
from react_teach.score import exact_match
from react_teach.wiki import LocalWiki


def measure(spec: str, questions: list[dict]) -> dict:
    model = llm.from_spec(spec, cache=False)
    wiki = LocalWiki.course()
    per_step = defaultdict(lambda: [0, 0])  # step -> [adherent, total]
    finished = correct = 0
    seconds, usage = [], llm.Usage()
    for q in questions:
        agent = Agent(q["question"], llm=model, wiki=wiki)
        started = time.perf_counter()
        while not agent.done and len(agent.trajectory.steps) < agent.max_steps:
            bad_before = agent.trajectory.n_badcalls
            agent.step()
            i = len(agent.trajectory.steps)
            per_step[i][0] += agent.trajectory.n_badcalls == bad_before
            per_step[i][1] += 1
        t = agent.run()
        seconds.append(time.perf_counter() - started)
        finished += bool(t.extra.get("finished"))
        correct += exact_match(t.answer, q["answer"])
        usage = usage + t.usage
    steps = sum(v[1] for v in per_step.values())
    return {"model": model.name, "n": len(questions), "adherence": sum(v[0] for v in per_step.values()) / steps,
            "by_step": {i: f"{a}/{n}" for i, (a, n) in sorted(per_step.items())},
            "finished": finished, "em": correct, "s_per_traj": sum(seconds) / len(seconds),
            "computed_share": (usage.prompt_tokens - usage.cached_tokens) / usage.prompt_tokens}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("specs", nargs="+")
    p.add_argument("--n", type=int, default=12)
    a = p.parse_args()
    qs = load_questions("hotpotqa")
    qs = qs[:: max(1, len(qs) // a.n)][: a.n]  # spread over the domains
    print("| model | questions | format adherence (all steps) | adherence by step | finished | EM | s / trajectory "
          "| prompt tokens computed |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in a.specs:
        r = measure(spec, qs)
        print(f"| {r['model']} | {r['n']} | {r['adherence']:.0%} | {r['by_step']} | {r['finished']}/{r['n']} "
              f"| {r['em']}/{r['n']} | {r['s_per_traj']:.1f} | {r['computed_share']:.1%} |", flush=True)


if __name__ == "__main__":
    main()
