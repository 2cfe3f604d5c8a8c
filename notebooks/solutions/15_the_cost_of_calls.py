"""Reference solutions for the notebook "the cost of calls"; `wrong` lists answers the checkers must refuse."""
from react_teach.data import data_dir, read_jsonl

rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
prompt = sum(r["usage"]["prompt_tokens"] for r in rows)
cached = sum(r["usage"]["cached_tokens"] for r in rows)
calls = sum(r["n_calls"] for r in rows)

solutions = {1: 100 * prompt / len(rows), 2: (prompt - cached) / prompt}
wrong = {
    1: [100 * prompt / calls, 100 * (prompt - cached) / len(rows), prompt / len(rows)],
    2: [cached / prompt, 0.5],
}
