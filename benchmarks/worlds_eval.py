"""Fine-tuned agents over many unseen worlds, in trained and held-out wordings: the figures that cannot flatter.

    python benchmarks/worlds_eval.py --dev                       # every choice is made on these numbers
    python benchmarks/worlds_eval.py --dev --worlds 2 --n 40 --methods react --parts worlds
    python benchmarks/worlds_eval.py --test                      # the reported figures; never for a choice

The successor of `finetune_eval.py` (one held-out world, one wording). For each world of the split
(`world.DEV_SEEDS` or `world.TEST_SEEDS`) the same questions are asked twice, in a trained and in a held-out
wording (`world.generate(seed, size, version, wording)`: same facts, same gold, question wordings and article
phrasings that no training world uses). Parts:

- worlds:  each method on its adapter (`local:ft-METHOD`, or --llm), both wordings, every world of the split;
- course:  ReAct on the course's 126 real-subject questions (test only: they are a test set too);
- prose:   ReAct on the 77 dev questions of the hand-written prose set (`finetune.course_data`, dev only): real
           sentences, for choices about prose that never look at the 126;
- rescue:  ReAct failures in the trained wording get the oracle's thought at their first wrong step
           (`Agent.edit`), split into "plan" edits (what to read next) and "conclusion" edits (the answer);
- ablation: the ReAct adapter trained with the loss on every token, observations included (the paper's choice,
           `data/models/ft-react-all.gguf`), in the trained wording, beside `local:ft-react` on the same questions;
- files:   no model at all: the summary of whatever results files are already under --out/SPLIT/ (a run that
           was stopped early still reports what it has, world by world); with --against OTHER, each method's runs
           beside OTHER/SPLIT/'s on the same questions, with a sign test (how a dev try is judged against the
           shipped adapter: `python benchmarks/worlds_eval.py --dev --parts files --out TRY --against BASE`);
- readme:  no model either: the README's figures block becomes the summary's tables (`runs.report`), so that no
           figure in it is typed by hand (`--parts files,readme` after a run).

The summary (--out/SPLIT/summary.json) gives, per method: EM pooled over the worlds with its Wilson 95% interval,
each world's EM and the spread, trained against held-out wording on the same questions (and how many flip), EM by
type (bridge 2 hops, bridge 3 hops, comparison, yes/no), with always-yes and always-no beside every pooled figure,
how many runs end without an answer or repeat a call for the same result (`stuck`), and the held-out wording's
score template by template beside the same questions' trained one (`by_template`).
Every run is a resumable results file under --out/SPLIT/ (a rerun skips what is done).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # finetune_eval's summary and rescue, not a copy
from finetune_eval import constant, rescue, share, summary  # noqa: E402

from react_teach import world  # noqa: E402
from react_teach.data import read_jsonl, write_atomic  # noqa: E402
from react_teach.failures.signals import measure  # noqa: E402
from react_teach.runs.records import read_header  # noqa: E402
from react_teach.runs.report import replace_block  # noqa: E402
from react_teach.runs.stats import p_text, rate, sign_test  # noqa: E402
from react_teach.trajectory import Trajectory  # noqa: E402
from react_teach.world.wordings import SPLITS, templates  # noqa: E402

METHODS = ("standard", "cot", "act", "react")
ABLATION = "local:+data/models/ft-react-all.gguf"  # the same data as ft-react, every token learned


def kind(q: dict) -> str:
    """The reporting type of a question: bridge2, bridge3, comparison or yesno."""
    return f"bridge{q['hops']}" if q["type"] == "bridge" else q["type"]


def brief(rows: list[dict]) -> dict:
    """n, EM and its interval, and what always "yes" and always "no" score on the same questions."""
    r = rate(rows)
    return {"n": r["n"], "em": round(r["p"], 3), "ci95": [round(r["lo"], 3), round(r["hi"], 3)],
            "baselines": constant(x["gold"] for x in rows)}


def stuck(rows: list[dict]) -> dict:
    """How many runs end without an answer (the steps ran out), and how many make the same call again for the same
    result: the Table 2 loop, as `failures.signals` finds it (a Lookup that pages to its next result is no loop).
    The shipped version-7 adapter: 27 and 31 of its 300 held-out dev runs.

        >>> step = lambda a, o: {"thought": "", "action": a, "observation": o}
        >>> stuck([{"question": "Q", "steps": [step("Lookup[wife]", "No more results."),
        ...                                    step("Lookup[wife]", "No more results.")], "extra": {"finished": False}},
        ...        {"question": "Q", "steps": [step("Search[X]", "X is ..."), step("Finish[yes]", None)],
        ...         "extra": {"finished": True}}])
        {'unfinished': 1, 'repeated_call': 1}
    """
    # the runner records whether a run ended by answering (a Standard run answers with no step at all)
    return {"unfinished": sum(not (r.get("extra") or {}).get("finished") for r in rows),
            "repeated_call": sum(bool(measure(Trajectory.from_json(r), r.get("gold")).repeated_actions) for r in rows)}


def report(runs: dict, questions: dict, held: dict | None = None) -> dict:
    """One method's figures from its rows: runs[(seed, wording)] = rows; questions[(seed, id)] = the question;
    held[(seed, id)], if given, the templates of its held-out wording (`by_template`)."""
    out = {}
    for wording in SPLITS:
        rows = [r for (s, wd), rs in runs.items() if wd == wording for r in rs]
        if not rows:
            continue
        worlds = {str(s): brief(rs) for (s, wd), rs in runs.items() if wd == wording}
        ems = [v["em"] for v in worlds.values()]
        types, shapes = {}, {}
        for (s, wd), rs in runs.items():
            for r in rs if wd == wording else ():
                q = questions[(s, r["id"])]
                types.setdefault(kind(q), []).append(r)
                if "shape" in q:  # data version 2: a type hides its shapes (comparison is three of them)
                    shapes.setdefault(q["shape"], []).append(r)
        out[wording] = {"pooled": {**brief(rows), "seconds_per_question": summary(rows)["seconds_per_question"],
                                   **stuck(rows)},
                        "worlds": worlds, "spread": [min(ems), max(ems)],
                        "by_type": {k: brief(v) for k, v in sorted(types.items())},
                        **({"by_shape": {k: brief(v) for k, v in sorted(shapes.items())}} if shapes else {})}
    if len(out) == 2:  # the same questions side by side: which ones the wording alone turns
        pairs = [(s, a, b) for s in {s for s, _ in runs} if (s, "trained") in runs and (s, "heldout") in runs
                 for a, b in _paired(runs[(s, "trained")], runs[(s, "heldout")])]
        out["paired"] = _counts([(a["em"], b["em"]) for _, a, b in pairs], "trained", "heldout")
        if held:
            out["paired"]["by_template"] = by_template([(held[(s, b["id"])], a["em"], b["em"]) for s, a, b in pairs])
    return out


def by_template(rows: list[tuple]) -> list[dict]:
    """The held-out wording's score by template, beside the same questions in the trained wording, the widest gap
    first: rows are (templates, trained em, held-out em), one a question, counted under each template it uses.
    A pooled held-out figure hides where it is lost: on the test worlds, the questions with one phrase in a middle
    slot ("the native town of") get 52 fewer right than in their trained wording, the whole wording 123 fewer.

        >>> by_template([(["ask born: When did {x} come into the world?"], 1, 0),
        ...              (["ask born: When did {x} come into the world?", "describe spouse: whoever is married to {x}"],
        ...               1, 1)])[0]
        {'template': 'ask born: When did {x} come into the world?', 'n': 2, 'trained': 2, 'heldout': 1, 'gap': 0.5}
    """
    count = {}
    for names, trained, heldout in rows:
        for name in names:
            c = count.setdefault(name, [0, 0, 0])
            c[0] += 1
            c[1] += bool(trained)
            c[2] += bool(heldout)
    out = [{"template": k, "n": n, "trained": t, "heldout": h, "gap": round((t - h) / n, 3)}
           for k, (n, t, h) in count.items()]
    return sorted(out, key=lambda x: (-(x["trained"] - x["heldout"]), x["template"]))


def ablation(all_runs: dict, react_runs: dict, questions: dict, spec: str = ABLATION) -> dict:
    """The loss-on-every-token adapter's figures (trained wording), and ft-react's on exactly the same questions."""
    pairs = _matched(all_runs, react_runs)
    return {"llm": spec, "loss": "all", **report(all_runs, questions)["trained"],
            "paired": {**_counts([(x["em"], y["em"]) for x, y in pairs], "all", "model"),
                       "all": brief([x for x, _ in pairs]), "model": brief([y for _, y in pairs])}}


def versus(mine: dict, theirs: dict) -> dict:
    """One method's runs beside another's (each runs[(seed, wording)] = rows), per wording, on the questions both
    answered: the counts of `_counts`, with the sign test, and each side's EM on exactly those questions."""
    out = {}
    for wording in SPLITS:
        pairs = [(x["em"], y["em"]) for x, y in _matched({k: v for k, v in mine.items() if k[1] == wording}, theirs)]
        if pairs:
            c = _counts(pairs, "this", "other")
            out[wording] = {**c, "this_em": round((c["both"] + c["this_only"]) / c["n"], 3),
                            "other_em": round((c["both"] + c["other_only"]) / c["n"], 3)}
    return out


def adapter_of(path: Path) -> str | None:
    """The first 12 hex digits of the adapter a results file was run with (its header), or None.

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = f.write_text(json.dumps({"react_teach_results": 1, "model": "local sha256:ab lora sha256:5b407467f361aa"}))
    >>> adapter_of(f)
    '5b407467f361'
    """
    head = read_header(path) if path.exists() else None
    model = (head or {}).get("model") or ""
    return model.split("lora sha256:")[1][:12] if "lora sha256:" in model else None


def _counts(pairs: list[tuple], a: str, b: str) -> dict:
    """How many (right under a, right under b) pairs are right in both, only under a, only under b, in neither, and
    the sign test's p on the two "only" counts (`stats.sign_test`)."""
    a_only, b_only = sum(x and not y for x, y in pairs), sum(y and not x for x, y in pairs)
    return {"n": len(pairs), "both": sum(x and y for x, y in pairs), f"{a}_only": a_only, f"{b}_only": b_only,
            "neither": sum(not x and not y for x, y in pairs), "p": sign_test(a_only, b_only)}


def _read(path: Path) -> list[dict]:
    return read_jsonl(path) if path.exists() else []  # a results file's header is skipped by read_jsonl


def _done(path: Path, n: int | None = None) -> list[dict]:
    """The first `n` answered rows of a results file (a question that raised is not a result)."""
    return [r for r in _read(path) if "error" not in r][:n]


def _matched(mine: dict, theirs: dict) -> list[tuple[dict, dict]]:
    """The row pairs of two runs[(seed, wording)] = rows, over every world and wording that `mine` has."""
    return [pair for k, rows in mine.items() for pair in _paired(rows, theirs.get(k, []))]


def _paired(a: list[dict], b: list[dict]):
    by = {r["id"]: r for r in b}
    return [(r, by[r["id"]]) for r in a if r["id"] in by]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--dev", action="store_true", help="the dev worlds: for every choice")
    g.add_argument("--test", action="store_true", help="the test worlds: the reported figures, never a choice")
    p.add_argument("--worlds", type=int, help="only the first K worlds of the split")
    p.add_argument("--n", type=int, default=world.SIZE, help="questions per world (default all)")
    p.add_argument("--version", type=int, default=2, choices=world.VERSIONS, help="data version of the worlds")
    p.add_argument("--wordings", default=",".join(SPLITS))
    p.add_argument("--parts", default="worlds,course,prose,rescue")
    p.add_argument("--methods", default="react")
    p.add_argument("--llm", help="one spec for every method (default local:ft-METHOD)")
    p.add_argument("--threads", type=int, default=1, help="llama.cpp threads (default 1: the cores are shared)")
    p.add_argument("--out", default="data/runs/worlds")
    p.add_argument("--against", help="with --parts files: another --out whose runs of the same split to pair "
                                     "these with, question by question")
    p.add_argument("--readme", default=str(Path(__file__).resolve().parents[1] / "README.md"),
                   help="the file whose figures block --parts readme rewrites (default the README)")
    a = p.parse_args(argv)
    split = "dev" if a.dev else "test"
    seeds = (world.DEV_SEEDS if a.dev else world.TEST_SEEDS)[: a.worlds]
    parts, methods, wordings = a.parts.split(","), a.methods.split(","), a.wordings.split(",")
    bad = [m for m in methods if m not in METHODS] + [w for w in wordings if w not in SPLITS]
    if bad or (a.version == 1 and wordings != ["trained"]):
        p.error(f"unknown method or wording {bad[0]!r}" if bad else "version 1 has one wording: --wordings trained")
    if a.against and "files" not in parts:
        p.error("--against pairs results files already run: use it with --parts files")
    if "course" in parts and a.dev:
        parts.remove("course")  # the course questions are a test set: they never inform a choice
        print("course: skipped on --dev (the 126 real-subject questions are a test set)", file=sys.stderr)
    if "prose" in parts and not a.dev:
        parts.remove("prose")  # the prose dev questions made choices: a test figure never comes from them
    if "ablation" in parts and a.llm is None:
        from react_teach.llm.adapters import provenance
        if provenance("ft-react-all")["data_sha256"] != provenance("ft-react")["data_sha256"]:
            # a loss ablation compares two adapters of the same data; paired with a retrained ft-react it would
            # measure the data too. Refused before any model runs; the entry measured beside its own ft-react
            # stays in the summary until both are retrained.
            parts.remove("ablation")
            print("ablation: skipped, ft-react-all and ft-react learned different data (retrain ft-react-all)",
                  file=sys.stderr)
    os.environ["REACT_TEACH_THREADS"] = str(a.threads)
    from react_teach import llm as llm_mod
    from react_teach.data import load_questions
    from react_teach.runs import run
    from react_teach.wiki import LocalWiki

    out = Path(a.out) / split
    out.mkdir(parents=True, exist_ok=True)
    path = out / "summary.json"
    result = json.loads(path.read_text()) if path.exists() else {}
    result.update({"split": split, "seeds": list(seeds), "n_per_world": a.n, "version": a.version})
    specs = {m: a.llm or f"local:ft-{m}" for m in methods}
    react_spec = specs.get("react", "local:ft-react")  # the course and prose parts run ReAct whatever --methods says
    worlds = {(s, wd): world.generate(s, world.SIZE, a.version, wd) for s in seeds for wd in wordings}
    questions = {(s, q["id"]): q for (s, _), w in worlds.items() for q in w.questions}
    held = {(s, k): templates(p["spec"], p["choice"]) for (s, wd), w in worlds.items() if wd == "heldout"
            for k, p in w.plans.items() if "spec" in p}  # version 1 has one wording and no templates

    def save() -> None:
        write_atomic(path, json.dumps(result, indent=1) + "\n")

    def results(m: str, s: int, wd: str = "trained") -> Path:  # one results file: a method, a world, a wording
        return out / f"{m}_v{a.version}_w{s}_{wd}.jsonl"

    def ablate(runs: dict) -> None:  # the run and the files part both end here: ft-react's rows beside each world's
        result["ablation"] = ablation(runs, {k: _done(results("react", k[0])) for k in runs}, questions,
                                      a.llm or ABLATION)
        # which two adapters were compared, from the files' headers: a retrained ft-react is not the one the
        # every-token adapter was trained beside, and the report must say so rather than pair them silently
        result["ablation"]["adapters"] = {m: adapter_of(results(m, seeds[0])) for m in ("react-all", "react")}

    def done(m: str, folder: Path = out) -> dict:  # what a folder's results files hold: runs[(seed, wording)]
        return {(s, wd): rows for (s, wd) in worlds if (rows := _done(folder / results(m, s, wd).name, a.n))}

    if "files" in parts:
        mine = {m: done(m) for m in methods}
        for m, runs in mine.items():
            if runs:
                result.setdefault("methods", {})[m] = {"llm": specs[m], "from_files": True,
                                                       **report(runs, questions, held)}
        if "ablation" in parts and (runs := {(s, "trained"): rows for s in seeds
                                             if (rows := _done(results("react-all", s)))}):
            ablate(runs)
        if a.against:  # a try against a base: the same questions, so the questions that differ decide
            base = Path(a.against) / split
            result["against"] = {"out": str(base), "methods": {}}
            for m in methods:
                result["against"]["methods"][m] = by = versus(mine[m], done(m, base))
                if not by:
                    print(f"{m}: no question answered both here and in {base}", file=sys.stderr)
                for wd, c in by.items():
                    print(f"{m} {wd}: n={c['n']}, this {c['this_em']} against {c['other_em']}; right only here "
                          f"{c['this_only']}, only there {c['other_only']}; sign test {p_text(c['p'])}")
        if x := result.get("ablation"):  # is the ablation's ft-react the one the tables above report?
            x["react_is_current"] = x.get("adapters", {}).get("react") == adapter_of(results("react", seeds[0]))
        save()
        print(json.dumps(result.get("methods", {}), indent=1))
        return readme(result, Path(a.readme)) if "readme" in parts else 0
    models = {}
    for m in methods if "worlds" in parts or "rescue" in parts else ():
        models[m] = llm_mod.from_spec(specs[m])
        runs = {}
        for (s, wd), w in worlds.items():
            started = time.perf_counter()
            runs[(s, wd)] = rows = run(m, w.questions[: a.n], results(m, s, wd),
                                       llm=models[m], wiki=world.wiki(w), progress=False)
            print(f"{m:8s} world {s} {wd:8s} {rate(rows)['text']} ({time.perf_counter() - started:.0f} s)",
                  flush=True)
        result.setdefault("methods", {})[m] = {"llm": specs[m], **report(runs, questions, held)}
        save()
    if "course" in parts:
        course = load_questions("hotpotqa")
        rows = run("react", course, out / "course_react.jsonl", llm=llm_mod.from_spec(react_spec),
                   wiki=LocalWiki.course(), progress=False)
        result["course"] = {"llm": react_spec, **brief(rows)}
        print(f"course   {rate(rows)['text']} baselines {result['course']['baselines']}")
        save()
    if "prose" in parts:
        from react_teach.finetune import course_data
        rows = run("react", course_data.questions("dev"), out / "prose_react.jsonl",
                   llm=llm_mod.from_spec(react_spec), wiki=LocalWiki.course(), progress=False)
        result["prose"] = {"llm": react_spec, **brief(rows)}
        print(f"prose    {rate(rows)['text']} baselines {result['prose']['baselines']}")
        save()
    if "rescue" in parts and "react" in models:
        cases = []
        for (s, wd), w in worlds.items():
            if wd == "trained":
                wk = world.wiki(w)
                rows = run("react", w.questions[: a.n], results("react", s, wd), llm=models["react"], wiki=wk,
                           progress=False)
                cases += rescue(rows, w, wk, models["react"])["cases"]
        parts_out = {k: share([c for c in cases if c["kind"] == k]) for k in ("plan", "conclusion")}
        result["rescue"] = {**share(cases), **parts_out, "cases": cases}
        for k, v in (("all", result["rescue"]), *parts_out.items()):
            print(f"edit rescue ({k}): {v['rescued']} of {v['failures']} ({v['share']}, ci95 {v['ci95']})")
        save()
    if "ablation" in parts:
        llm, runs = llm_mod.from_spec(a.llm or ABLATION), {}
        for s in seeds:
            w = worlds[(s, "trained")]
            runs[(s, "trained")] = rows = run("react", w.questions[: a.n], results("react-all", s), llm=llm,
                                              wiki=world.wiki(w), progress=False)
            print(f"react-all world {s} trained  {rate(rows)['text']}", flush=True)
        ablate(runs)
        x = result["ablation"]["paired"]
        print(f"ablation: on the same {x['n']} questions, every token {x['all']['em']} against the model's turns "
              f"{x['model']['em']}")
        save()
    return readme(result, Path(a.readme)) if "readme" in parts else 0


def readme(summary: dict, path: Path) -> int:
    """Write `summary`'s tables into the figures block of `path` (the README)."""
    write_atomic(path, replace_block(path.read_text(), summary))
    print(f"{path.name}: the figures block now shows the {summary['split']} summary")
    return 0


if __name__ == "__main__":
    sys.exit(main())
