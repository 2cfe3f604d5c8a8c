"""Reference solutions for the notebook "the stop token"; `wrong` lists answers the checkers must refuse."""
import numpy as np

from react_teach.data import data_dir, read_jsonl


def stop(i):
    return [f"\nObservation {i}:"]


rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
seven = [r for r in rows if len(r["steps"]) == 7]
correct = [r for r in rows if r["em"]]
footnote = (len(correct), sum(len(r["steps"]) == 7 for r in correct))

solutions = {
    1: stop,
    2: (2, 1),  # the split gives three parts: a bad call, then a second call for the action alone
    3: footnote,
}
misconception = {
    1: "any stop containing 'Observation' will do (it must be this step's observation line, at a line start)",
    2: "a bad call is simply lost; the harness asks again, so it costs a second call",
    3: "P(correct | 7 steps) is the footnote's P(7 steps | correct)",
}
valid = {
    1: [lambda i: (f"\nObservation {i}:",), lambda i: [f"\nObservation {i}:", f"\nObservation {i}: "]],
    2: [[2, 1], (np.int64(2), np.int64(1))],
    3: [list(footnote), (np.int64(footnote[0]), np.int64(footnote[1]))],
}
wrong = {
    1: [lambda i: ["\n"], lambda i: ["Observation"], lambda i: ["\nObservation 1:"], lambda i: "\nObservation"],
    2: [(1, 1), (2, 0), (1, 0)],
    3: [*([(len(seven), sum(r["em"] for r in seven))] if (len(seven), sum(r["em"] for r in seven)) != footnote
          else []), (len(rows), footnote[1]), (footnote[0] + 1, footnote[1])],
}
