"""Checkers for the notebook "editing thoughts": what the model reads after an edit, a model that follows it, and
a prediction of how many model calls an edit costs.

What each exercise exists to catch:
1. the cue: believing the model writes a new thought after the edit, or continues after an Observation label,
   when the harness puts the edited thought in and cues the action (`Action 2:`).
2. the follower: a script whose first completion after the edit is a whole thought-and-action step, or that
   answers without reading the page the thought points to.
3. the prediction: believing an edit re-runs the trajectory from the start (it replays the environment, not the
   model), or that it calls no model at all (it asks the model for the action under your thought).
"""
from react_teach.exercises import exercise, expect
from react_teach.checks.forms import predicted_count
from react_teach.agent import Agent
from react_teach.llm import LLMError, Recorder, ScriptLLM
from react_teach.score import exact_match
from react_teach.wiki import LocalWiki

NB = "editing_thoughts"

QUESTION = ("Aside from the Apple Remote, what other device can control the program Apple Remote was originally "
            "designed to interact with?")
GOLD = "keyboard function keys"
STEP1 = " I need to search Apple Remote and find the program it was designed for.\nAction 1: Search[Apple Remote]"
THOUGHT = "The Apple Remote was designed for Front Row. I need to search Front Row (software)."


def _edited(completions):
    """Step 1 by script, then edit(2, THOUGHT) and run on: the completions after the edit are the learner's."""
    class Recording(ScriptLLM):
        prompts: list = []

        def complete(self, prompt, **kw):
            self.prompts.append(prompt)
            return super().complete(prompt, **kw)

    model = Recording([STEP1] + list(completions))
    model.prompts = []
    agent = Agent(QUESTION, llm=model, wiki=LocalWiki.course(), prefix="")
    agent.step()
    return agent, model


@exercise(NB, 1, "the end of the prompt after an edit")
def cue(text):
    """The last two lines of the prompt the model continues right after `edit(2, THOUGHT)`."""
    agent, model = _edited([])
    try:
        agent.edit(2, THOUGHT)
    except LLMError:
        pass  # the script is empty on purpose: we only want the prompt of the call the edit makes
    tail = model.prompts[-1].split("\n")[-2:]
    expect(isinstance(text, str), "give the two lines as one string with a \\n between them")
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]  # trailing spaces and newlines do not matter
    expect(not lines[-1].startswith("Observation"), "the model never writes after an Observation label: the "
           "harness writes observations")
    expect(len(lines) == 2, f"give exactly two lines; yours has {len(lines)}")
    expect(lines[0] == tail[0].rstrip() or lines[1] != tail[0].rstrip(),
           "your last line is the thought itself: after it the harness writes one more line, the label the model "
           "continues")
    expect(lines[0] == tail[0].rstrip(), "the line before the cue is the edited thought, as Thought 2 with its label")
    expect(lines[1] == tail[1].rstrip(), "the edit asks the model for the rest of step 2: what label does the "
           "model continue after?")


@exercise(NB, 2, "a model that follows the edit")
def follower(completions):
    """Completions (a list of strings) for a scripted model that, after the edit, reaches the gold answer."""
    expect(isinstance(completions, list) and all(isinstance(c, str) for c in completions),
           "give a list of completions (strings), as for ScriptLLM")
    agent, _ = _edited(completions)
    try:
        agent.edit(2, THOUGHT)
        t = agent.run()
    except LLMError:
        expect(False, "your script ran out before the agent finished: each call takes one completion, and the "
               "first one after an edit is the action alone")
    expect(t.steps[1].action.lower().startswith("search[front row"), "the first completion after the edit is "
           "Action 2 alone: make it the search your thought asks for")
    expect(exact_match(t.answer, GOLD), f"the agent finished with {t.answer!r}: read the Front Row observation")


SECTION_4 = [" I need to search Apple Remote.\nAction 1: Search[Apple Remote]",
             " It was made for Front Row, so the answer is Front Row.\nAction 2: Finish[Front Row]",
             " Search[Front Row (software)]",
             " It can be controlled by the keyboard function keys, so the answer is keyboard function keys.\n"
             "Action 3: Finish[keyboard function keys]"]


def section_4_calls() -> int:
    """The model calls of the notebook's section 4: run, edit(2, ...), run again, on a recorded script."""
    me = Recorder(ScriptLLM(list(SECTION_4)))
    agent = Agent(QUESTION, llm=me, wiki=LocalWiki.course(), prefix="")
    agent.run()
    agent.edit(2, "Front Row is the program. I need to search Front Row (software).")
    agent.run()
    return len(me.requests)


@exercise(NB, 3, "a prediction: the calls an edit costs")
def edit_calls(count):
    """How many model calls section 4 makes in all: the first run, the edit, and the run after it."""
    predicted_count(count, section_4_calls(),
                    fewer="the edit itself calls the model once: it asks for Action 2 under your thought",
                    more="the edit replays step 1 from the environment: it does not ask the model for step 1 again")
