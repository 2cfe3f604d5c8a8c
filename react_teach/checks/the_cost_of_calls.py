"""Checkers for the notebook "the cost of calls": the prompt tokens of 100 questions, and the share computed."""
from react_teach.exercises import exercise, expect
from react_teach.data import data_dir, read_jsonl

NB = "the_cost_of_calls"


def _react():
    return read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")


@exercise(NB, 1, "prompt tokens for 100 questions")
def hundred(tokens):
    """Prompt tokens that 100 text-ReAct questions send, estimated from the committed run's mean per question."""
    rows = _react()
    per_question = sum(r["usage"]["prompt_tokens"] for r in rows) / len(rows)
    per_call = sum(r["usage"]["prompt_tokens"] for r in rows) / sum(r["n_calls"] for r in rows)
    expect(isinstance(tokens, (int, float)) and tokens > 0, "give a number of tokens")
    expect(abs(tokens - 100 * per_call) > 0.01 * 100 * per_call or abs(tokens - 100 * per_question) < 0.01 * tokens,
           "that is 100 calls, not 100 questions: each question makes several calls")
    expect(abs(tokens - 100 * per_question) <= 0.01 * 100 * per_question,
           "multiply the mean prompt tokens per question (the *prompt* column of react) by 100")


@exercise(NB, 2, "the share actually computed")
def computed_share(share):
    """The fraction of the ReAct run's prompt tokens the local model computed (not taken from its cache)."""
    rows = _react()
    prompt = sum(r["usage"]["prompt_tokens"] for r in rows)
    cached = sum(r["usage"]["cached_tokens"] for r in rows)
    expect(isinstance(share, float) and 0 <= share <= 1, "give a fraction between 0 and 1")
    expect(abs(share - cached / prompt) > 1e-6 or abs(share - (prompt - cached) / prompt) < 1e-6,
           "that is the share read from the cache; the question asks for the rest")
    expect(abs(share - (prompt - cached) / prompt) < 1e-6, "(prompt - cached) / prompt, summed over the run")
