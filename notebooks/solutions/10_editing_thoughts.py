"""Reference solutions for the notebook "editing thoughts"; `wrong` lists answers the checkers must refuse."""
from react_teach.checks.editing_thoughts import THOUGHT

solutions = {
    1: f"Thought 2: {THOUGHT}\nAction 2:",
    2: [" Search[Front Row (software)]",
        " Front Row can be controlled by the keyboard function keys.\nAction 3: Finish[keyboard function keys]"],
}
wrong = {
    1: [f"Thought 2: {THOUGHT}", f"Thought 2: {THOUGHT}\nObservation 2:", f"Action 2:\nThought 2: {THOUGHT}"],
    2: [[" Search[Front Row (software)]"],
        [" Search[Apple Remote]", " It says keyboard function keys.\nAction 3: Finish[keyboard function keys]"],
        [" Search[Front Row (software)]", " So the answer is Front Row.\nAction 3: Finish[Front Row]"]],
}
