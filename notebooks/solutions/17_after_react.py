"""Reference solutions for the notebook "after ReAct"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import numpy as np

from react_teach.checks.after_react import scripted_calls
from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import scored

every = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
rows = scored(every)
retried = sum(not r["em"] for r in rows)
n = scripted_calls()

solutions = {1: retried, 2: lambda c, k: c * k + k - 1, 3: n}
valid = {1: [np.int64(retried), float(retried)],
                2: [lambda c, k: k * (c + 1) - 1, lambda c, k: np.int64(sum(c for _ in range(k)) + max(k - 1, 0))],
                3: [np.int64(n)]}
wrong = {
    1: [sum(not r.get("finished") for r in rows), len(rows), len(every)],
    2: [lambda c, k: c * k, lambda c, k: (c + 1) * k, lambda c, k: c * k + k],
    3: [n - 1, n + 1],  # the reflection forgotten; a reflection after the trial that succeeded
}
