"""The two seats of notebook "the bare loop", driven as a learner drives them: type in the box, click Send."""
from react_teach.llm import Recorder, ScriptLLM
from react_teach.ui.seats import EnvironmentSeat, PolicySeat

COUNTRY_OF = {"Tokyo": "Japan", "Ottawa": "Canada"}


def tool(action):
    name, _, arg = action.partition("[")
    arg = arg.removesuffix("]")
    if name == "country_of":
        return COUNTRY_OF.get(arg, f"No city called {arg}.")
    return "Episode finished." if name == "finish" else f"Invalid action: {action}"


def type_and_send(seat, text):
    seat.box.value = text
    seat.send.click()


def test_a_thought_grows_the_context_and_calls_no_tool():
    calls = []
    seat = PolicySeat("Q?", lambda a: calls.append(a) or "obs")
    type_and_send(seat, "Thought: plan first.")
    assert seat.context == "Question: Q?\nThought: plan first.\n" and calls == [] and seat.steps == 0
    type_and_send(seat, "   ")  # an empty line is ignored, not sent as an action
    assert calls == [] and seat.box.value == ""


def test_the_policy_reads_each_observation_before_the_next_move():
    seat = PolicySeat("Where is Ottawa?", tool)
    type_and_send(seat, "country_of[Ottawa]")
    assert seat.context.endswith("Action: country_of[Ottawa]\nObservation: Canada\n")
    assert "Canada" in seat.view.value and not seat.done
    type_and_send(seat, "Action: fly[home]")  # a bad action is an observation, not an exception
    assert "Observation: Invalid action: fly[home]" in seat.context
    type_and_send(seat, "finish[Canada]")
    assert seat.done and seat.box.disabled and seat.send.disabled
    before = seat.context
    type_and_send(seat, "country_of[Tokyo]")  # nothing more after the end of the episode
    assert seat.context == before


def test_the_policy_seat_stops_at_its_step_limit():
    seat = PolicySeat("Q?", tool, max_steps=2).play(["fly[a]", "Thought: hm", "fly[b]"])
    assert seat.done and seat.steps == 2


def test_the_environment_seat_gives_the_model_what_you_wrote():
    model = Recorder(ScriptLLM([" country_of[Ottawa]", " continent[Canada]", " finish[North America]"]))
    seat = EnvironmentSeat("Continent of Ottawa?", model, prefix="EXAMPLES\n")
    assert seat.pending == "country_of[Ottawa]" and model.requests[0] == (
        "EXAMPLES\nQuestion: Continent of Ottawa?\nAction 1:", {"stop": ["\n"], "max_tokens": 30})
    type_and_send(seat, "Canada")
    assert model.requests[1][0].endswith("Action 1: country_of[Ottawa]\nObservation 1: Canada\nAction 2:")
    seat.play(["North America"])
    assert seat.done and seat.pairs[-1] == ("finish[North America]", "Episode finished.")
    assert [o for _, o in seat.pairs] == ["Canada", "North America", "Episode finished."]
    assert seat.box.disabled and len(model.requests) == 3


def test_the_environment_seat_ends_at_its_step_limit_without_asking_again():
    model = ScriptLLM([" fly[a]", " fly[b]"])
    seat = EnvironmentSeat("Q?", model, max_steps=2).play(["no", "still no", "ignored"])
    assert seat.done and seat.pending is None and len(seat.pairs) == 2 and model.calls == 2


def test_a_seat_loads_neither_matplotlib_nor_the_agent():
    """Notebook 01's first widget: importing it must not pull in the plotting stack or the loop it teaches."""
    import subprocess
    import sys

    code = ("import sys, react_teach.ui.seats; "
            "print(sorted(m for m in ('matplotlib', 'react_teach.agent', 'react_teach.llm') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
