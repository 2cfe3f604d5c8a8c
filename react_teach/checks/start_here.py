"""Checkers for the notebook "start here": a stop list, and which usage number the KV cache changes."""
from react_teach.exercises import exercise, expect
from react_teach.llm import cut_at_stop

NB = "start_here"

# Continuations a model might write after "Question: What is the capital of Italy?\nAnswer:" (ours, not a model's:
# the checker must not depend on what this CPU's model happens to write).
RUN_ON = [" Rome\nQuestion: What is the capital of Spain?\nAnswer: Madrid",
          " Rome\n\nQuestion: What is the capital of Peru?\nAnswer: Lima",
          " Rome\nAnswer: Rome is the capital of Italy."]


@exercise(NB, 1, "a stop list that keeps only the answer")
def one_answer(stop):
    expect(isinstance(stop, (list, tuple)) and all(isinstance(s, str) and s for s in stop),
           "write a list of non-empty strings, e.g. [\"...\"]")
    for text in RUN_ON:
        kept, _ = cut_at_stop(text, stop)
        expect("Question" not in kept, f"on {text!r} your stops keep the next question: {kept!r}")
        expect(kept.strip() == "Rome", f"on {text!r} your stops keep {kept!r}; only the answer should stay")


@exercise(NB, 2, "the usage number the KV cache changes")
def kv_field(name):
    fields = ("prompt_tokens", "cached_tokens", "completion_tokens", "seconds")
    expect(name in fields, f"answer with one of the field names {fields}, as a string")
    expect(name != "prompt_tokens", "the prompt is the same length both times: how much of it was read again?")
    expect(name != "completion_tokens", "the model writes the same answer both times")
    expect(name != "seconds", "time changes too, but it is noisy; which token count explains it?")
