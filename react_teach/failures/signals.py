"""The signals: what anyone can check in a transcript, measured once, before any decision is made.

    >>> t = Trajectory("Was Stephen Cook born before Leonid Levin?", [
    ...     Step("I need to search Stephen Cook.", "Search[Stephen Cook]", "Stephen Cook was born in 1939."),
    ...     Step("Leonid Levin studied at Moscow State University.", "Finish[yes]", "Episode finished.")],
    ...     answer="yes")
    >>> s = measure(t, "yes", exemplars=["Leonid Levin studied at Moscow State University."])
    >>> s.correct, s.acting, s.copied_thoughts, s.unseen_names
    (True, True, [2], ['Leonid Levin'])
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from react_teach.score import exact_match, f1, normalize_answer
from react_teach.trajectory import Step, Trajectory

ACTION = re.compile(r"^\s*(\w+)\s*\[(.*)\]\s*$", re.DOTALL)
# Failed tool calls, in our wiki's words, the official wikienv's, and LangChain's (as reflexion's runs use it).
FAILED = re.compile(r"^(could not find|no more results|no results|invalid action|the tool failed)", re.IGNORECASE)
RESULT_PREFIX = re.compile(r"^\(Result \d+ ?/ ?\d+\)\s*")
YES_NO = {"yes", "no"}  # no page ever quotes a yes/no answer: containment says nothing
UNQUOTABLE = YES_NO | {"", "noanswer"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
NUMBER = re.compile(r"\b\d[\d,]*\b")  # whole numbers only: not the 2 of "WW2", not "53rd"
NAME = re.compile(r"(?:[A-Z][\w'.-]*)(?: (?:[A-Z][\w'.-]*|of|the|de|van|von))*(?<! of)(?<! the)")
COPY_WORDS = 6  # a sentence this long, word for word in an exemplar, was copied rather than reasoned


def norm(text) -> str:
    """For spotting loops: case-insensitive, whitespace collapsed, nothing else changed."""
    return " ".join(str(text or "").lower().split())


def action_key(action: str) -> tuple[str, str]:
    """('search', 'viva media ag') for ``Search[VIVA  Media AG]``; ('', text) for an action that is no call."""
    m = ACTION.match(action)
    return (m.group(1).lower(), norm(m.group(2))) if m else ("", norm(action))


def contains(text: str, answer: str) -> bool:
    """Word-bounded containment of one normalised string in another ("no" is not in "norway")."""
    return bool(answer) and f" {answer} " in f" {text} "


def failed_search(observation: str | None) -> bool:
    """A tool call that came back with nothing: not found, no (more) results, invalid action, or empty."""
    text = RESULT_PREFIX.sub("", (observation or "").strip())
    return not text or bool(FAILED.match(text))


def numbers(text) -> set[str]:
    """Numbers as written in digits, thousands separators dropped: "1,800 ft in 1998." -> {"1800", "1998"}."""
    return {n.replace(",", "") for n in NUMBER.findall(text or "")}


def names(question: str) -> list[str]:
    """The proper names a question asks about: runs of capitalised words after its first word.

    >>> names("Are the Laleli Mosque and Esma Sultan Mansion located in the same neighborhood?")
    ['Laleli Mosque', 'Esma Sultan Mansion']
    """
    body = question.split(" ", 1)[1] if " " in question else ""
    return [n.strip(".'") for n in NAME.findall(body)]


def sentences(thoughts) -> set[str]:
    """The long sentences of some thoughts, normalised: what a copy would repeat word for word."""
    out = set()
    for text in thoughts:
        for s in SENTENCE_END.split(str(text or "")):
            s = normalize_answer(s)
            if len(s.split()) >= COPY_WORDS:
                out.add(s)
    return out


def _singular(answer: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in answer.split())


@dataclass
class Signals:
    correct: bool | None
    acting: bool  # it called a tool (an action other than Finish and think); without one it is judged like CoT
    n_steps: int
    finished: bool
    finish_at: int | None = None
    repeated_actions: list = field(default_factory=list)  # [earlier, later]: the same call, the same result
    repeated_thoughts: list = field(default_factory=list)  # [earlier, later]: the same thought
    step_limit: bool = False  # acting, and no Finish: the steps ran out
    no_answer: bool = False
    tool_calls: int = 0
    failed_searches: list = field(default_factory=list)  # steps whose call came back with nothing
    search_failure_rate: float = 0.0
    gold_in_observations: bool | None = None  # None: cannot be checked (yes/no gold, or no tool call)
    premature_stop: bool | None = None  # finished before any observation contained the gold
    support: str = "none"  # what claims are checked against: "observations", "supporting facts" or "none"
    answer_supported: bool | None = None  # the answer is in those texts (None for yes/no: no text quotes it)
    supported_by: int | None = None  # which text holds it
    unsupported_numbers: list = field(default_factory=list)  # [step, number] in no checked text
    answer_in_reasoning: bool | None = None  # (support "none") the reasoning reaches the answer, not only says it
    reached_in: str | None = None  # the sentence that reaches it
    copied_thoughts: list = field(default_factory=list)  # steps whose thought repeats an exemplar's sentence
    unseen_names: list | None = None  # (yes/no answer, acting) names in the question no observation mentions
    f1: float = 0.0
    label_ambiguity: bool = False  # wrong by EM, but F1 >= 0.5 or one answer contains the other
    texts: dict = field(default_factory=dict, repr=False)  # the checked texts, by observation or fact number

    def to_json(self) -> dict:
        d = asdict(self)
        for k in ("texts", "finish_at", "supported_by", "reached_in"):  # for the explanation, not for the file
            d.pop(k)
        return d


def measure(trajectory: Trajectory, gold: str | None, *, supporting_facts: list[str] | None = None,
            correct: bool | None = None, exemplars=()) -> Signals:
    """Every signal of one trajectory. `correct` is the run's own verdict, used only without a gold answer;
    `exemplars` are the prompt's thoughts, to catch a thought copied from them."""
    steps, pred = trajectory.steps, trajectory.answer or ""
    p, g = normalize_answer(pred), normalize_answer(gold)
    keys = [action_key(s.action) if s.action else None for s in steps]
    finish_at = next((i for i, k in enumerate(keys, 1) if k and k[0] == "finish"), None)
    tools = [(i, s) for i, (s, k) in enumerate(zip(steps, keys), 1) if k and k[0] not in ("finish", "think")]
    s = Signals(exact_match(pred, gold) if g else correct, bool(tools), len(steps), finish_at is not None, finish_at)
    s.repeated_actions, s.repeated_thoughts = _loops(steps, keys, tools)
    s.step_limit, s.no_answer = s.acting and finish_at is None, not p
    s.tool_calls, s.failed_searches = len(tools), [i for i, st in tools if failed_search(st.observation)]
    s.search_failure_rate = round(len(s.failed_searches) / len(tools), 3) if tools else 0.0
    if g not in UNQUOTABLE and s.acting:  # the Finish step's observation is the harness's reply: never read
        s.gold_in_observations = any(contains(normalize_answer(st.observation), g) for _, st in tools)
        s.premature_stop = None if finish_at is None else not s.gold_in_observations
    if s.acting:
        s.support, s.texts = "observations", {i: st.observation or "" for i, st in tools}
    else:
        s.support = "supporting facts" if supporting_facts else "none"
        s.texts = dict(enumerate(supporting_facts or [], 1))
    _support(s, steps, p, trajectory.question)
    copied = sentences(exemplars)
    s.copied_thoughts = [i for i, st in enumerate(steps, 1) if sentences([st.thought]) & copied]
    s.f1 = round(f1(pred, gold), 4) if g else 0.0
    sp, sg = _singular(p), _singular(g)
    s.label_ambiguity = bool(p and g and not s.correct and (s.f1 >= 0.5 or contains(sp, sg) or contains(sg, sp)))
    return s


def _loops(steps: list[Step], keys: list, tools: list) -> tuple[list, list]:
    """The same call again (with the same result, for Lookup: that is how Lookup pages), and the same thought."""
    actions, last = [], {}
    for i, s in tools:
        k, j = keys[i - 1], last.get(keys[i - 1])
        paging = j is not None and k[0] == "lookup" and norm(s.observation) != norm(steps[j - 1].observation)
        if j is not None and not paging:
            actions.append([j, i])
        last[k] = i
    thoughts, first = [], {}
    for i, s in enumerate(steps, 1):
        if (s.thought or "").strip():
            j = first.setdefault(norm(s.thought), i)
            if j != i:
                thoughts.append([j, i])
    return actions, thoughts


def _support(s: Signals, steps: list[Step], p: str, question: str) -> None:
    """Is the answer, and is every number the thoughts state, in the texts the claims are checked against?"""
    if p not in UNQUOTABLE:
        s.supported_by = next((k for k, t in s.texts.items() if contains(normalize_answer(t), p)), None)
        s.answer_supported = s.supported_by is not None
    elif p in YES_NO and s.acting:  # a yes/no answer is grounded only if the observations speak of every name
        # (not the supporting facts: they are the named pages' sentences, and say "He" or "It" for the name)
        seen = " ".join(normalize_answer(t) for k, t in s.texts.items() if not failed_search(t))
        s.unseen_names = [n for n in names(question) if not contains(seen, normalize_answer(n).split(" ")[-1])]
    if s.support != "none":  # numbers are the one kind of claim a string check can verify
        known = numbers(question).union(*map(numbers, s.texts.values()))
        s.unsupported_numbers = [[i, n] for i, st in enumerate(steps, 1) for n in sorted(numbers(st.thought) - known)]
    elif p not in UNQUOTABLE:
        reasoning = " ".join(st.thought or "" for st in steps)
        s.reached_in = next((x for x in SENTENCE_END.split(reasoning) if "answer" not in x.lower()
                             and contains(normalize_answer(x), p)), None)
        s.answer_in_reasoning = s.reached_in is not None
