"""Reference solutions for the notebook "self-consistency and back-off"; `wrong` lists answers to refuse."""
import numpy as np

from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored


def needs_react(votes, k):
    return votes < k / 2


def needs_react_numpy(votes, k):
    """The same rule through numpy: it returns numpy.bool_, which is a yes or a no all the same."""
    return np.less(votes, np.divide(k, 2))


def needs_react_doubled(votes, k):
    """Equivalent arithmetic, no division: votes < k/2 exactly when 2·votes < k."""
    return 2 * votes < k


sc = scored(read_jsonl(data_dir() / "runs" / "hotpotqa_cot-sc.jsonl"))
by_id = {r["id"]: r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")}
pairs = [(by_id[s["id"]], s) for s in sc if s["id"] in by_id]
react = [r for r, _ in pairs]
backoffs = sum(not (r.get("finished") and (r.get("answer") or "").strip()) for r in react)
only_sc = sum(bool(s["em"]) and not r["em"] for r, s in pairs)
only_react = sum(bool(r["em"]) and not s["em"] for r, s in pairs)
both = sum(bool(s["em"]) and bool(r["em"]) for r, s in pairs)

solutions = {1: needs_react, 2: backoffs, 3: (only_sc, only_react)}
misconception = {
    1: "a tie or k // 2 is a majority: the rule is votes < k/2, strictly, and k/2 need not be whole",
    2: "back off when ReAct is wrong (it cannot see the gold), or only when it hits the step limit (an empty "
       "finish[] returns no answer either)",
    3: "compare two methods by their totals; on the same questions the evidence is where they disagree",
}
valid = {
    1: [needs_react_numpy, needs_react_doubled],
    2: [np.int64(backoffs), int(backoffs)],
    3: [[only_sc, only_react], (np.int64(only_sc), np.int64(only_react))],
}
wrong = {
    1: [lambda v, k: v <= k / 2, lambda v, k: v < k // 2, lambda v, k: v > k / 2],
    2: [sum(not r["em"] for r in react) if sum(not r["em"] for r in react) != backoffs else backoffs + 1,
        *([sum(not r.get("finished") for r in react)] if sum(not r.get("finished") for r in react) != backoffs
          else []), len(react) + 1, -1],
    3: [(only_sc + both, only_react + both + 1), (only_sc + 1, only_react), "equal"],
}
