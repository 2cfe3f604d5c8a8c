"""Checkers for the notebook "fine-tuning": which tokens a fine-tuned model learns, and what it is prompted with."""
from react_teach.exercises import call, exercise, expect
from react_teach.finetune import segments

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
