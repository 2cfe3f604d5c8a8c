"""One loop for every agent: the same step-wise API, the same edit, the same call accounting."""
import inspect

import pytest

from react_teach.agent import Agent
from react_teach.household import HouseholdAgent, Task
from react_teach.llm import Completion, ScriptLLM, Usage
from react_teach.loop import Loop
from react_teach.wiki import LocalWiki

TASK = Task("pick", "cd", "drawer 1", (("desk 1", ("cd 1",)), ("drawer 1", ())))


@pytest.fixture(scope="module")
def wiki():
    return LocalWiki.from_articles([{"title": "Hamlet", "sentences": ["Hamlet is a play by Shakespeare."]}])


def agents(wiki, script):
    return [Agent("Who wrote Hamlet?", llm=ScriptLLM(script["dense"]), wiki=wiki, prefix=""),
            HouseholdAgent(TASK, llm=ScriptLLM(script["sparse"]), prefix="")]


def test_both_agents_are_the_one_loop_with_one_edit_signature():
    for cls in (Agent, HouseholdAgent):
        assert issubclass(cls, Loop)
        for name in ("think_act", "observe", "step", "run", "edit", "call", "transcript"):
            assert getattr(cls, name) is getattr(Loop, name), f"{cls.__name__}.{name} is its own copy"
    assert str(inspect.signature(Loop.edit)) == "(self, k: 'int', thought: 'str | None' = None, " \
                                                "action: 'str | None' = None) -> 'Step'"


class Priced(ScriptLLM):
    """A script whose every completion reports 10 prompt tokens (8 cached) and 2 completion tokens."""

    def complete(self, prompt, **kw):
        return [Completion(c.text, Usage(10, 8, 2)) for c in super().complete(prompt, **kw)]


def test_calls_tokens_and_the_pending_step_are_counted_once_for_both(wiki):
    script = {"dense": [" Search it.\nAction 1: Search[Hamlet]", " So.\nAction 2: Finish[Shakespeare]"],
              "sparse": [" go to desk 1", " take cd 1 from desk 1"]}
    for agent in agents(wiki, script):
        agent.llm = Priced(agent.llm.completions)
        assert agent.think_act() is agent.think_act()  # asking twice before observe costs one call
        agent.observe()
        agent.step()
        t = agent.trajectory
        assert (t.n_calls, t.usage.prompt_tokens, t.usage.cached_tokens, t.usage.completion_tokens) == (2, 20, 16, 4)
        assert t.seconds > 0 and len(t.steps) == 2 and agent.pending is None


def test_an_edit_on_either_agent_replays_the_environment_and_branches(wiki):
    script = {"dense": [" Search it.\nAction 1: Search[Hamlet]", " So.\nAction 2: Finish[Marlowe]",
                        " I read it.\nAction 2: Finish[Shakespeare]"],
              "sparse": [" go to drawer 1", " open drawer 1",  # lost: the cd is on the desk
                         " take cd 1 from desk 1", " go to drawer 1", " open drawer 1", " put cd 1 in/on drawer 1"]}
    dense, sparse = agents(wiki, script)
    dense.run()
    first = dense.trajectory
    step = dense.edit(2, "Hamlet is a play by Shakespeare.", "Finish[Shakespeare]")
    assert step.author == "human" and dense.trajectory.answer == "Shakespeare" and first.answer == "Marlowe"
    sparse.max_steps = 2
    lost = sparse.run()
    sparse.max_steps = 8
    assert sparse.edit(2, action="go to desk 1").observation.startswith("You arrive at desk 1.")
    assert sparse.env.is_open["drawer 1"] is False  # step 2 opened it; the replay stopped before step 2
    assert sparse.run().answer == "success" and lost.answer == "" and len(lost.steps) == 2
