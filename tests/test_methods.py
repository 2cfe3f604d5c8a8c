"""The method registry: one table that the command line, the runner, the plots and the panel all read."""
import pytest

from react_teach import cli, methods
from react_teach.llm import ScriptLLM
from react_teach.methods import Method, get, names, register, solve, unregister


def test_the_table_holds_the_papers_seven_methods_in_its_order():
    assert names() == ("standard", "cot", "cot-sc", "act", "react", "cotsc-react", "react-cotsc")
    assert [m for m in names() if methods.needs_wiki(m)] == ["act", "react", "cotsc-react", "react-cotsc"]
    assert {m: get(m).base for m in names()} == {"standard": "standard", "cot": "cot", "cot-sc": "cot",
                                                 "act": "act", "react": "react", "cotsc-react": "react",
                                                 "react-cotsc": "react"}
    with pytest.raises(ValueError, match="unknown method 'rect'; choose one of standard, cot"):
        get("rect")


def test_a_registered_method_reaches_the_cli_the_plots_and_runs_zero_shot(tmp_path):
    llm = ScriptLLM([" I know this.\nAction 1: Finish[Paris]"])
    register(Method("react-ft", "react", True, methods.step_agent, order=55, zero_shot=True))
    try:
        assert names().index("react-ft") == names().index("react") + 1
        assert "react-ft" in cli.parser()._subparsers._group_actions[0].choices["ask"].format_help()
        prefix = get("react-ft").prompt()
        assert prefix == ""  # the question alone: a fine-tuned model learned the format, as in the paper's 3.3
        t = solve("react-ft", "Capital of France?", llm=llm, wiki=object())
        assert (t.method, t.answer) == ("react-ft", "Paris")
        from react_teach.ui.plots import table1
        ticks = [x.get_text() for x in table1({"react-ft": 0.5, "cot": 0.1}).axes[0].get_xticklabels()]
        assert ticks == ["cot", "react-ft"]
    finally:
        unregister("react-ft")
    assert "react-ft" not in names()


def test_a_style_the_prompts_do_not_know_is_refused():
    with pytest.raises(ValueError, match="prompt style is one of act, standard, cot, react"):
        register(Method("odd", "socratic", False, methods.single_call))
