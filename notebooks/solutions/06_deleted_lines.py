"""Reference solutions for the notebook "deleted lines"; `wrong` lists answers the checkers must refuse."""
import re

from react_teach.ablate import to_act


def to_reasoning_only(text):
    return "".join(line for line in text.splitlines(keepends=True)
                   if not re.match(r"(Action|Observation) \d+:", line))


def to_standard(text):
    out = []
    for line in text.splitlines():
        if line.startswith(("Question: ", "Claim: ")):
            out.append(line)
        m = re.match(r"Action \d+: Finish\[(.*)\]$", line)
        if m:
            out.append(f"Answer: {m.group(1)}")
    return "\n".join(out) + "\n"


def standard_without_header(text):
    return "".join(line[len("Action 1: "):] + "\n" for line in text.splitlines() if "Finish[" in line)


solutions = {1: to_reasoning_only, 2: to_standard, 3: ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]}
wrong = {
    1: [to_act, lambda text: text, lambda text: re.sub(r"(?m)^Observation \d+:.*\n", "", text)],
    2: [to_act, standard_without_header],
    3: [["NOT ENOUGH INFO", "REFUTES", "SUPPORTS"], ["SUPPORTS", "REFUTES"], ["supports", "refutes", "not enough info"]],
}
