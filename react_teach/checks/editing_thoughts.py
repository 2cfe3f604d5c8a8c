"""Checkers for the notebook "editing thoughts": what the model reads after an edit, and a model that follows it."""
from react_teach.exercises import exercise, expect
from react_teach.agent import Agent
from react_teach.llm import LLMError, ScriptLLM
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
    tail = "\n".join(model.prompts[-1].split("\n")[-2:])
    expect(isinstance(text, str), "give the two lines as one string with a \\n between them")
    expect("Observation" not in text.split("\n")[-1], "the model never writes after an Observation label: the "
           "harness writes observations")
    expect(text == tail, "the edit puts your thought in as Thought 2 and asks the model for the rest of step 2: "
           "what label does the model continue after?")


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
