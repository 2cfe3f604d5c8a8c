"""Checkers for the notebook "format failures": the FEVER stop list, what it changes on the recorded FEVER run,
and the runs that copy an exemplar. Expected values are computed here from data/runs, never typed in."""
import re

from react_teach.exercises import call, exercise, expect
from react_teach.llm import cut_at_stop
from react_teach.data import data_dir, load_exemplars, read_jsonl
from react_teach.score import fever_correct

NB = "format_failures"
MARKER = "\nClaim:"


def _fever_runs() -> list[dict]:
    return read_jsonl(data_dir() / "runs" / "fever_react.jsonl")


def _ran_past(row) -> int | None:
    return next((i for i, s in enumerate(row["steps"], 1) if MARKER in (s["action"] or "")), None)


@exercise(NB, 1, "the stop list of a FEVER step")
def fever_stops(fn):
    for row in _fever_runs():
        for i, s in enumerate(row["steps"], 1):
            if not s["action"] or "\n" in (s["thought"] or ""):
                continue
            written = f" {s['thought']}\nAction {i}: {s['action']}\nObservation {i}: (invented)"
            want = f" {s['thought']}\nAction {i}: {s['action'].split(MARKER)[0]}"
            stop = call(fn, i)
            expect(isinstance(stop, (list, tuple)) and all(isinstance(x, str) and x for x in stop),
                   f"my_fever_stops({i}) must return a list of non-empty strings")
            kept, _ = cut_at_stop(written, stop)
            expect(f"\nAction {i}:" in kept, f"{row['id']} step {i}: your stops cut before the action line")
            expect("(invented)" not in kept, f"{row['id']} step {i}: the invented observation survives")
            expect(kept.rstrip() == want.rstrip(), f"{row['id']} step {i}: your stops keep {kept[-80:]!r}; what "
                                                   "follows the Finish is not the model's to write")


def fever_counts() -> tuple[int, int, int]:
    runs, after = _fever_runs(), 0
    for row in runs:
        k = _ran_past(row)
        if k is None:
            after += bool(row["correct"])
            continue
        m = re.fullmatch(r"[Ff]inish\[(.*)\]", row["steps"][k - 1]["action"].split(MARKER)[0].strip())
        after += bool(m and fever_correct(m.group(1), row["gold"]))
    return sum(_ran_past(r) is not None for r in runs), sum(bool(r["correct"]) for r in runs), after


@exercise(NB, 2, "what the second stop changes on FEVER")
def measured(counts):
    expect(isinstance(counts, (list, tuple)) and len(counts) == 3,
           "write three numbers: (ran past Finish, correct as recorded, correct with the second stop)")
    past, before, after = fever_counts()
    expect(counts[0] == past, "count the FEVER runs with an action that holds '\\nClaim:' (ran_past with that marker)")
    expect(counts[1] == before, "count the rows whose `correct` is true")
    expect(counts[2] == after, "replay each run with the marker '\\nClaim:' and compare its answer with `gold`")


def fever_copied() -> list[str]:
    def sentences(text):
        return [s.strip() for s in re.split(r"(?<=\.) ", text or "") if len(s.split()) >= 5]
    shown = {s for e in load_exemplars("fever") for st in e["steps"] for s in sentences(st.get("thought"))}
    return [r["id"] for r in _fever_runs() if any(s in shown for st in r["steps"] for s in sentences(st["thought"]))]


@exercise(NB, 3, "FEVER runs that copy an exemplar")
def copying(ids):
    expect(isinstance(ids, (list, tuple, set)) and all(isinstance(i, str) for i in ids), "write a list of run ids")
    want = fever_copied()
    missing, extra = sorted(set(want) - set(ids)), sorted(set(ids) - set(want))
    expect(not extra, f"{extra[:3]} copy no exemplar sentence of five words or more")
    expect(not missing, f"{len(missing)} more run(s) copy one: did you use task='fever' for the exemplars?")
