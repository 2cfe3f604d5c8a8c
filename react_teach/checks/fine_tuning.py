"""Checkers for the notebook "fine-tuning": which tokens a fine-tuned model learns, what it is prompted with, and
a prediction of which fine-tuned formats beat guessing.

What each exercise exists to catch:
1. the learned tokens: training on the observations too, or leaving out the actions or the stop sequence.
2. the zero-shot prompt: the ReAct cue (or the exemplars) for every format.
3. the prediction: believing fine-tuning alone lifts every format, when Standard and CoT cannot know a world they
   never read and score what guessing scores; only the formats that look things up rise clearly above the floor.
"""

from react_teach.exercises import call, exercise, expect
from react_teach.checks.forms import words
from react_teach.runs.report import summary
from react_teach.finetune import METHODS, segments
from react_teach import world

NB = "fine_tuning"
SAMPLE = ("Question: Where was the author of Marrow born?\nThought 1: I need to search Marrow.\n"
          "Action 1: Search[Marrow]\nObservation 1: Marrow is a novel written by Teno Varis.\n"
          "Thought 2: Marrow was written by Teno Varis. I need to search Teno Varis.\nAction 2: Search[Teno Varis]\n"
          "Observation 2: Teno Varis was born in Kelby.\nThought 3: So the answer is Kelby.\n"
          "Action 3: Finish[Kelby]\nObservation 3: Episode finished, reward = 1\n")


@exercise(NB, 1, "the tokens that carry the loss")
def learned_spans(fn):
    want = [s for s, learn in segments(SAMPLE, "react") if learn]
    got = call(fn, SAMPLE)
    expect(isinstance(got, list) and all(isinstance(s, str) for s in got), "return a list of strings")
    expect(not any("Episode finished" in s or "born in Kelby" in s for s in got),
           "an observation is written by the environment: the model never has to produce it")
    expect(not any(s.startswith("Thought") or s.startswith("Question") for s in got),
           "the harness writes the cue `Thought i:`; the model's part starts right after it")
    expect(len(got) == len(want), f"a trajectory of 3 steps has 3 model turns; you returned {len(got)}")
    expect(all(s.rstrip().endswith(":") for s in got),
           "each model turn runs up to and including the stop sequence `\\nObservation i:`: that is how it "
           "learns to hand the pen back")
    expect(got == want, "compare your pieces with the text character by character: spaces and newlines count")


@exercise(NB, 2, "the zero-shot prompt")
def zero_shot(fn):
    q = "Who directed Labake?"
    cues = {"react": "Thought 1:", "act": "Action 1:", "cot": "Thought:", "standard": "Answer:"}
    for method, cue in cues.items():
        got = call(fn, q, method)
        expect(isinstance(got, str), "return the prompt as a string")
        expect("Here are some examples" not in got and got.count("Question:") == 1,
               "a fine-tuned model gets no instruction and no exemplars: only its own question")
        expect(got == f"Question: {q}\n{cue}", f"for {method}, what cue does the harness append after the "
               "question? (look at which line the model writes first in that format)")


def summary_floor(s: dict, method: str, wording: str = "trained") -> float:
    """The guessing floor (`world.floor`) of exactly the questions `method` answered in a worlds summary `s`: the
    first n of each world it lists, in `wording`."""
    worlds = s["methods"][method][wording]["worlds"]
    return world.floor([q for seed, b in worlds.items()
                        for q in world.generate(int(seed), world.SIZE, s["version"], wording).questions[: b["n"]]])


def above_floor() -> set[str]:
    """The fine-tuned formats whose whole 95% interval, pooled over the test worlds (trained wording), lies above
    the guessing floor of the same questions."""
    s = summary("test")
    return {m for m, r in s["methods"].items()
            if r.get("trained") and r["trained"]["pooled"]["ci95"][0] > summary_floor(s, m)}


@exercise(NB, 3, "a prediction: which fine-tuned formats beat guessing")
def beat_guessing(names):
    """The fine-tuned formats ("react", "act", "cot", "standard") whose 95% interval lies above the guessing floor."""
    try:
        said = {words(n) for n in ([names] if isinstance(names, str) else names)}
    except TypeError:
        said = {None}
    expect(said and said <= set(METHODS), f"give a list of format names from {list(METHODS)}")
    want = above_floor()
    expect(not (said - want) & {"standard", "cot"}, "Standard and CoT cannot know a world they never read: "
           "fine-tuned, they learn the form of an answer and guess; compare their intervals with the floor")
    expect(said <= want, f"{', '.join(sorted(said - want))}: its interval reaches down to the floor")
    expect(said >= want, f"{', '.join(sorted(want - said))} also clears the floor with its whole interval")
