"""Checkers for the notebook "fact checking": ReAct on the REFUTES claims, a constant-label baseline, a prediction
of which method wins, and a paired comparison of two methods on the same claims.

What each exercise exists to catch:
1. the count: counting the REFUTES answers ReAct gave (some on other claims), or the REFUTES claims themselves.
2. the constant label: scoring what the model answered instead of the gold label a constant answer would meet.
3. the prediction: expecting grounding to win on a small model because it wins in the paper.
4. the paired comparison: comparing two totals, or pairing results by their position in the files, or counting
   claims where the two answers differ instead of the claims where exactly one method is right.
"""
from react_teach.exercises import call, exercise, expect
from react_teach.checks.forms import real, whole, words
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import baselines, scored
from react_teach.score import FEVER_LABELS

NB = "fact_checking"


def _run(method):
    return scored(read_jsonl(data_dir() / "runs" / f"fever_{method}.jsonl"))


def _react():
    return _run("react")


@exercise(NB, 1, "ReAct on the REFUTES claims")
def refutes_right(count):
    """How many scored REFUTES claims ReAct labelled correctly."""
    rows = _react()
    right = sum(r["correct"] for r in rows if r["gold"] == "REFUTES")
    said = sum((r["answer"] or "").strip() == "REFUTES" for r in rows)
    n = whole(count)
    expect(n is not None, "give a whole number of claims")
    expect(n == right or n != said, "that counts the REFUTES answers ReAct gave; some were on other claims")
    expect(n == right or n != sum(r["gold"] == "REFUTES" for r in rows),
           "that is how many REFUTES claims there are: how many did ReAct get right?")
    expect(n == right, "filter `runs[\"react\"]` on the gold label, then count the correct ones")


@exercise(NB, 2, "what a constant label scores")
def constant(fn):
    """`fn(rows, label)`: the accuracy of answering `label` to every claim in `rows`."""
    for name in ("fever_react", "fever_cot"):
        rows = read_jsonl(data_dir() / "runs" / f"{name}.jsonl")
        want = baselines([r["gold"] for r in rows], "fever")
        for label in FEVER_LABELS:
            got = real(call(fn, rows, label))
            expect(got is not None, "return a fraction between 0 and 1")
            expect(abs(got - want[f"always {label}"]) < 1e-9,
                   f"for {label} on {name} you get {got:.3f}: a constant answer is right exactly when the claim's "
                   "gold label is that label; what the model answered does not matter")


def winner() -> str:
    """"react", "cot" or "tie": which method labels more of the scored claims correctly."""
    react, cot = (sum(bool(r["correct"]) for r in _run(m)) for m in ("react", "cot"))
    return "react" if react > cot else "cot" if cot > react else "tie"


@exercise(NB, 3, "a prediction: ReAct or CoT?")
def prediction(text):
    """Which method labels more of the course claims correctly: "react", "cot" or "tie"."""
    said = words(text)
    said = {"re act": "react", "chain of thought": "cot", "chain-of-thought": "cot", "a tie": "tie",
            "neither": "tie", "same": "tie"}.get(said, said)
    expect(said in ("react", "cot", "tie"), 'answer "react", "cot" or "tie"')
    want = winner()
    react, cot = (sum(bool(r["correct"]) for r in _run(m)) for m in ("react", "cot"))
    expect(said == want, f"on these claims ReAct is right {react} times and CoT {cot}: the paper's ranking does "
           "not carry over to a 135M model by itself; section 3 shows where they differ")


def paired(a, b):
    """(claims only `a` gets right, claims only `b` gets right), over the claims both runs scored, matched by id."""
    ok_a, ok_b = ({r["id"]: bool(r["correct"]) for r in rows} for rows in (a, b))
    common = ok_a.keys() & ok_b.keys()
    return sum(ok_a[i] and not ok_b[i] for i in common), sum(ok_b[i] and not ok_a[i] for i in common)


def _row(i, correct, answer="SUPPORTS"):
    return {"id": i, "correct": correct, "answer": answer, "gold": "SUPPORTS" if correct else "REFUTES"}


# Two small runs that tell the misconceptions apart: a claim scored by one run only (f5), the claims in another
# order in the second file, and two different wrong answers to the same claim (f4). Paired, the answer is (2, 1);
# by position in the files it is (1, 0); the totals are (3, 1).
_A = [_row("f1", True), _row("f2", True), _row("f3", False), _row("f4", False, "REFUTES"), _row("f5", True)]
_B = [_row("f3", True), _row("f4", False, "NOT ENOUGH INFO"), _row("f1", False), _row("f2", False)]


def _by_position(a, b):
    pairs = list(zip(a, b))
    return (sum(x["correct"] and not y["correct"] for x, y in pairs),
            sum(y["correct"] and not x["correct"] for x, y in pairs))


@exercise(NB, 4, "a paired comparison")
def differ(fn):
    """`fn(a, b)` -> (only a right, only b right): two runs on the same claims, matched claim by claim."""
    for a, b in ((_A, _B), (_run("react"), _run("cot")), (_run("cot"), _run("act"))):
        got = call(fn, a, b)
        expect(isinstance(got, (tuple, list)) and len(got) == 2 and all(whole(x) is not None for x in got),
               "return two whole numbers: (claims only the first run gets right, claims only the second gets right)")
        got, want = tuple(whole(x) for x in got), paired(a, b)
        total_a, total_b = sum(bool(r["correct"]) for r in a), sum(bool(r["correct"]) for r in b)
        expect(got == want or got not in ((total_a, total_b), (total_a - total_b, total_b - total_a)),
               "those are the two totals (or their difference): a paired comparison looks at each claim in turn")
        expect(got == want or got != _by_position(a, b),
               "match the results by claim id, not by their position in the file: the two files list the claims "
               "in different orders")
        expect(got == want, f"on runs of {len(a)} and {len(b)} results you get {got}: count a claim only if both "
               "runs scored it, and only if exactly one of them is right (two different wrong answers do not count)")
