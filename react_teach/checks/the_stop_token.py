"""Checkers for the notebook "the stop token": the stop list of step i, what the harness does with two action
lines, and a count from the committed run."""
import numbers

from react_teach.exercises import call, exercise, expect
from react_teach.llm import cut_at_stop
from react_teach.agent import Agent
from react_teach.data import data_dir, read_jsonl
from react_teach.llm import ScriptLLM
from react_teach.wiki import LocalWiki

NB = "the_stop_token"

# What a model might write after "Thought i:" with no stop at all (ours: a checker must not depend on a model).
RUN_ON = {
    2: (" I need to search X.\nAction 2: Search[X]\nObservation 2: X is a made-up thing.\nThought 3: done",
        " I need to search X.\nAction 2: Search[X]"),
    3: (" Observation 2 said nothing useful about Y.\nAction 3: Lookup[Y]\nObservation 3: (Result 1 / 1) Y.",
        " Observation 2 said nothing useful about Y.\nAction 3: Lookup[Y]"),
    5: (" So the answer is Z.\nAction 5: Finish[Z]\nObservation 5: Episode finished.",
        " So the answer is Z.\nAction 5: Finish[Z]"),
}


@exercise(NB, 1, "the stop list of step i")
def stop_for(fn):
    for i, (text, want) in RUN_ON.items():
        stop = call(fn, i)
        expect(isinstance(stop, (list, tuple)) and all(isinstance(s, str) and s for s in stop),
               f"my_stop({i}) must return a list of non-empty strings")
        kept, _ = cut_at_stop(text, stop)
        expect(f"\nAction {i}:" in kept, f"at step {i} your stops cut before the action line: {kept!r}")
        expect(kept == want, f"at step {i} your stops keep {kept!r}; the model's thought and action must stay, and "
                             "nothing after them")


def _two_actions() -> tuple[int, int]:
    two = ScriptLLM([" a\nAction 1: Search[X]\nAction 1: Search[Y]", " Search[X]"])
    t = Agent("Q?", llm=two, wiki=LocalWiki.course(), prefix="", max_steps=1).run()
    return t.n_calls, t.n_badcalls


@exercise(NB, 2, "two action lines")
def two_actions(counts):
    expect(isinstance(counts, (list, tuple)) and len(counts) == 2, "write a pair: (model calls, bad calls)")
    calls, bad = _two_actions()
    expect(counts[1] == bad, "how many bad calls? The split on the action line must give exactly two parts")
    expect(counts[0] == calls, "how many model calls? A bad call is followed by a second one, for the action alone")


def _seven() -> tuple[int, int]:
    """The footnote's counts: correct trajectories, and those among them that used all seven steps."""
    rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
    correct = [r for r in rows if r.get("em")]
    return len(correct), sum(len(r["steps"]) >= 7 for r in correct)


@exercise(NB, 3, "the footnote: seven steps among the correct runs")
def seven(counts):
    expect(isinstance(counts, (list, tuple)) and len(counts) == 2
           and all(isinstance(c, numbers.Integral) and not isinstance(c, bool) for c in counts),
           "write a pair of whole numbers: (correct runs, correct runs with 7 steps)")
    right, at_limit = _seven()
    rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
    used = [r for r in rows if len(r["steps"]) >= 7]
    inverse = (len(used), sum(bool(r.get("em")) for r in used))
    if tuple(counts) == inverse and inverse != (right, at_limit):
        expect(False, "that is P(correct | 7 steps): runs with seven steps, then the correct ones among them; the "
                      "footnote conditions the other way, on the correct runs")
    expect(counts[0] == right, "first count the rows whose `em` is true")
    expect(counts[1] == at_limit, "among those correct rows, count the ones whose `steps` list has seven entries")
