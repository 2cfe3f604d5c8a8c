"""Reference solutions for the notebook "fine-tuning"; `wrong` lists answers the checkers must refuse."""
import re


def learned_spans(text):
    # each model turn: from just after a `Thought i:` cue to the end of the next `\nObservation i:`
    return [m.group(1) for m in re.finditer(r"Thought \d+:(.*?\nObservation \d+:)", text, re.DOTALL)]


def zero_shot(question, method):
    cue = {"react": "Thought 1:", "act": "Action 1:", "cot": "Thought:", "standard": "Answer:"}[method]
    return f"Question: {question}\n{cue}"


solutions = {1: learned_spans, 2: zero_shot}
wrong = {
    1: [lambda text: re.findall(r"Thought \d+: .*", text),                      # thoughts only, no actions
        lambda text: [s for s in text.split("Thought")[1:]],                     # observations included
        lambda text: [m.group(1) for m in re.finditer(r"Thought \d+:(.*?)\nObservation", text, re.DOTALL)]],
    2: [lambda q, m: f"Question: {q}\nThought 1:",                              # the ReAct cue for every format
        lambda q, m: f"Question: {q}\n"],
}
