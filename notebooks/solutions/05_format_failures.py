"""Reference solutions for the notebook "format failures"; `wrong` lists answers the checkers must refuse.

Computed the notebook's way (its `ran_past`, `replay` and `copied`, written again here), independently of the
checker's own code."""
import re

from react_teach.data import data_dir, load_exemplars, read_jsonl

fever = read_jsonl(data_dir() / "runs" / "fever_react.jsonl")


def stops(i):
    return [f"\nObservation {i}:", "\nClaim:"]


def ran_past(row, marker="\nClaim:"):
    return next((i for i, s in enumerate(row["steps"], 1) if marker in (s["action"] or "")), None)


def replayed_answer(row, marker="\nClaim:"):
    k = ran_past(row, marker)
    if k is None:
        return row["answer"] or ""
    m = re.fullmatch(r"[Ff]inish\[(.*)\]", row["steps"][k - 1]["action"].split(marker)[0].strip())
    return m.group(1) if m else ""


def sentences_of(text):
    return [s.strip() for s in re.split(r"(?<=\.) ", text or "") if len(s.split()) >= 5]


shown = {s for e in load_exemplars("fever") for st in e["steps"] for s in sentences_of(st.get("thought"))}
copied = [r["id"] for r in fever if any(s in shown for st in r["steps"] for s in sentences_of(st["thought"]))]
counts = (sum(ran_past(r) is not None for r in fever), sum(r["correct"] for r in fever),
          sum(replayed_answer(r) == r["gold"] for r in fever))

# Each wrong count is a misconception computed on the data, kept only where it differs from the right answer (the
# second stop may leave the number of correct runs as it was, so "nothing changes" can be right).
misread = [
    (sum(ran_past(r, "\nQuestion:") is not None for r in fever), counts[1],  # HotpotQA's marker on FEVER
     sum(replayed_answer(r, "\nQuestion:") == r["gold"] for r in fever)),
    (counts[0], counts[1], sum(bool(replayed_answer(r)) for r in fever)),  # finished counted as correct
    (sum("\nClaim:" in (s["action"] or "") for r in fever for s in r["steps"]), counts[1], counts[2]),  # steps
    (len(fever), counts[1], counts[2]),  # every run counted as having run past
]

solutions = {1: stops, 2: counts, 3: copied}
wrong = {
    1: [lambda i: [f"\nObservation {i}:"], lambda i: [f"\nObservation {i}:", "\nQuestion:"], lambda i: ["\n"]],
    2: [w for w in misread if w != counts],
    3: [[], copied[:-1], copied + ["fv001"]],
}
