"""Reference solutions for the notebook "the cost of calls"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import numpy as np

from react_teach.checks.the_cost_of_calls import scripted_calls
from react_teach.data import data_dir, read_jsonl

rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
prompt = sum(r["usage"]["prompt_tokens"] for r in rows)
cached = sum(r["usage"]["cached_tokens"] for r in rows)
calls = sum(r["n_calls"] for r in rows)
per_question, computed = prompt / len(rows), (prompt - cached) / prompt
n = scripted_calls()

solutions = {1: 100 * per_question, 2: computed, 3: n}
valid = {
    # the mean per question as the table prints it (rounded to a token), times 100; a numpy mean
    1: [100 * round(per_question), np.mean([r["usage"]["prompt_tokens"] for r in rows]) * 100],
    # read off the table: its per-question means, or 1 minus its cache column, to the precision shown
    2: [round(computed, 3), round(1 - round(cached / prompt, 2), 2), np.float32(computed)],
    3: [np.int64(n), float(n)],
}
wrong = {
    1: [100 * prompt / calls, 100 * (prompt - cached) / len(rows), prompt / len(rows)],
    2: [cached / prompt, 0.5, 100 * computed],
    3: [n - 1, n - 2, n + 1],  # the answer's call or the re-prompt forgotten; a re-prompt taken for a new step
}
