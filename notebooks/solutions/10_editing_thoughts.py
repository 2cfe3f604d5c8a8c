"""Reference solutions for the notebook "editing thoughts"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import numpy as np

from react_teach.checks.editing_thoughts import THOUGHT

solutions = {
    1: f"Thought 2: {THOUGHT}\nAction 2:",
    2: [" Search[Front Row (software)]",
        " Front Row can be controlled by the keyboard function keys.\nAction 3: Finish[keyboard function keys]"],
    3: 4,
}
valid = {
    1: [f"Thought 2: {THOUGHT}\nAction 2: ", f"Thought 2: {THOUGHT}\nAction 2:\n", f"Thought 2: {THOUGHT} \nAction 2:"],
    2: [[" search[Front Row (software)]",  # the paper's capital or not, and a lookup before the answer
         " The page is Front Row. I need to look up keyboard.\nAction 3: Lookup[keyboard]",
         " So the answer is keyboard function keys.\nAction 4: Finish[Keyboard function keys]"]],
    3: [np.int64(4), 4.0],
}
wrong = {
    # no cue; the model continuing after an Observation; the cue before the thought; a new thought cued
    1: [f"Thought 2: {THOUGHT}", f"Thought 2: {THOUGHT}\nObservation 2:", f"Action 2:\nThought 2: {THOUGHT}",
        f"Observation 1: The Apple Remote is a remote control.\nThought 2:"],
    2: [[" Search[Front Row (software)]"],
        [" Search[Apple Remote]", " It says keyboard function keys.\nAction 3: Finish[keyboard function keys]"],
        [" Search[Front Row (software)]", " So the answer is Front Row.\nAction 3: Finish[Front Row]"]],
    # the edit calls no model; the edit re-runs step 1 through the model
    3: [3, 5, 6],
}
