"""Reference solutions for the notebook "fine-tuning"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import re

from react_teach.checks.fine_tuning import above_floor


def learned_spans(text):
    # each model turn: from just after a `Thought i:` cue to the end of the next `\nObservation i:`
    return [m.group(1) for m in re.finditer(r"Thought \d+:(.*?\nObservation \d+:)", text, re.DOTALL)]


def zero_shot(question, method):
    cue = {"react": "Thought 1:", "act": "Action 1:", "cot": "Thought:", "standard": "Answer:"}[method]
    return f"Question: {question}\n{cue}"


def zero_shot_if(question, method):
    if method == "react":
        return "Question: " + question + "\nThought 1:"
    if method == "act":
        return "Question: " + question + "\nAction 1:"
    return "Question: " + question + "\n" + ("Thought:" if method == "cot" else "Answer:")


beaters = sorted(above_floor())
solutions = {1: learned_spans, 2: zero_shot, 3: beaters}
valid = {2: [zero_shot_if], 3: [{m.upper() for m in beaters}, tuple(reversed(beaters))]}
wrong = {
    1: [lambda text: re.findall(r"Thought \d+: .*", text),                      # thoughts only, no actions
        lambda text: [s for s in text.split("Thought")[1:]],                     # observations included
        lambda text: [m.group(1) for m in re.finditer(r"Thought \d+:(.*?)\nObservation", text, re.DOTALL)]],
    2: [lambda q, m: f"Question: {q}\nThought 1:",                              # the ReAct cue for every format
        lambda q, m: f"Question: {q}\n"],
    # fine-tuning lifts every format; only the best one; Standard taken for above the floor
    3: [["react", "act", "cot", "standard"], ["react"], beaters + ["standard"], "react, act"],
}
