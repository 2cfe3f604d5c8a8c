"""Table 2 of the paper as a tool: why did a trajectory succeed, and why did it fail?

The authors read 50 correct and 50 wrong HotpotQA trajectories of ReAct and of CoT and sorted each into one of six
types by hand. `label` sorts a trajectory automatically, from signals anyone can check in the transcript (a repeated
action, a failed search, an answer no observation contains), and says which steps it read them from:

    >>> lost = Trajectory("Who wrote Hamlet?", [
    ...     Step("I need to search Hamlet.", "Search[Hamlet play]", "Could not find Hamlet play. Similar: []."),
    ...     Step("Let me try again.", "Search[hamlet  play]", "Could not find Hamlet play. Similar: []."),
    ...     Step("I will guess.", "Finish[Marlowe]", "Episode finished.")], answer="Marlowe")
    >>> lab = label(lost, "William Shakespeare")
    >>> lab.category
    'search result error'
    >>> print("\\n".join(lab.evidence))
    2 of 2 tool calls failed or came back empty, and no observation contains the gold answer
    step 1 Search[Hamlet play] -> "Could not find Hamlet play. Similar: []."
    step 2 Search[hamlet  play] -> "Could not find Hamlet play. Similar: []."
    also: step 2 repeats step 1: search[hamlet play]
    also: step 3 finished with "Marlowe" before any observation contained the gold "William Shakespeare"
    also: answer "Marlowe" appears in none of observations 1, 2

These are heuristics, not the paper's judgement. How often they agree with people is a number to measure (label a
`sample` yourself, keep the labels in a `LabelStore`, compare with `cohen_kappa`), never something to assume.
"""
from __future__ import annotations

import json
import os
import random
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .score import exact_match, f1, normalize_answer
from .trajectory import FINISH, Step, Trajectory, parse

# --------------------------------------------------------------------------------------------- the six types
TRUE_POSITIVE = "true positive"
FALSE_POSITIVE = "false positive"
REASONING_ERROR = "reasoning error"
SEARCH_RESULT_ERROR = "search result error"
HALLUCINATION = "hallucination"
LABEL_AMBIGUITY = "label ambiguity"
SUCCESS = (TRUE_POSITIVE, FALSE_POSITIVE)
FAILURE = (REASONING_ERROR, SEARCH_RESULT_ERROR, HALLUCINATION, LABEL_AMBIGUITY)
CATEGORIES = SUCCESS + FAILURE
DEFINITIONS = {
    TRUE_POSITIVE: "success: correct reasoning trace and facts",
    FALSE_POSITIVE: "success: correct answer, but hallucinated reasoning or facts",
    REASONING_ERROR: "failure: wrong reasoning, including repeating earlier thoughts or actions in a loop",
    SEARCH_RESULT_ERROR: "failure: the searches returned nothing, or nothing useful",
    HALLUCINATION: "failure: invented reasoning or facts",
    LABEL_AMBIGUITY: "failure: the right answer, worded differently from the label",
}
UNREADABLE, UNSCORED = "unreadable", "unscored"  # rows of `label_file` that have no place in Table 2

# The paper's Table 2 (PaLM-540B), in percent within the success group and within the failure group.
# None is the paper's "–": CoT never searches, so it cannot have a search result error.
PAPER_TABLE2 = {
    "react": {TRUE_POSITIVE: 94, FALSE_POSITIVE: 6,
              REASONING_ERROR: 47, SEARCH_RESULT_ERROR: 23, HALLUCINATION: 0, LABEL_AMBIGUITY: 29},
    "cot": {TRUE_POSITIVE: 86, FALSE_POSITIVE: 14,
            REASONING_ERROR: 16, SEARCH_RESULT_ERROR: None, HALLUCINATION: 56, LABEL_AMBIGUITY: 28},
}

# ------------------------------------------------------------------------------------------------- signals
ACTION = re.compile(r"^\s*(\w+)\s*\[(.*)\]\s*$", re.DOTALL)
# Failed tool calls, in our wiki's words, the official wikienv's, and LangChain's (as reflexion's runs use it).
FAILED = re.compile(r"^(could not find|no more results|no results|invalid action|the tool failed)", re.IGNORECASE)
RESULT_PREFIX = re.compile(r"^\(Result \d+ ?/ ?\d+\)\s*")
UNQUOTABLE = {"", "yes", "no", "noanswer"}  # no page ever quotes a yes/no answer: containment says nothing
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
NUMBER = re.compile(r"\b\d[\d,]*\b")  # whole numbers only: not the 2 of "WW2", not "53rd"


def _norm(text) -> str:
    """For spotting loops: case-insensitive, whitespace collapsed, nothing else changed."""
    return " ".join(str(text or "").lower().split())


def _action_key(action: str) -> tuple[str, str]:
    """('search', 'viva media ag') for ``Search[VIVA  Media AG]``; ('', text) for an action that is no call."""
    m = ACTION.match(action)
    return (m.group(1).lower(), _norm(m.group(2))) if m else ("", _norm(action))


def _contains(text: str, answer: str) -> bool:
    """Word-bounded containment of one normalised string in another ("no" is not in "norway")."""
    return bool(answer) and f" {answer} " in f" {text} "


def failed_search(observation: str | None) -> bool:
    """A tool call that came back with nothing: not found, no (more) results, invalid action, or empty."""
    text = RESULT_PREFIX.sub("", (observation or "").strip())
    return not text or bool(FAILED.match(text))


def _quote(text, width: int = 80) -> str:
    text = " ".join(str(text).split())
    return '"' + (text if len(text) <= width else text[: width - 1] + "…") + '"'


def _steps(numbers) -> str:
    return ", ".join(map(str, numbers))


def _numbers(text) -> set[str]:
    """Numbers as written in digits, thousands separators dropped: "1,800 ft in 1998." -> {"1800", "1998"}."""
    return {n.replace(",", "") for n in NUMBER.findall(text or "")}


def _singular(answer: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in answer.split())


@dataclass
class Label:
    category: str
    evidence: list[str] = field(default_factory=list)  # why, for a person: step numbers and the text quoted
    signals: dict = field(default_factory=dict)  # what was measured, JSON-ready


def label(trajectory: Trajectory, gold: str | None, *, supporting_facts: list[str] | None = None,
          correct: bool | None = None) -> Label:
    """One Table 2 type for one trajectory, with the evidence and the signals it was decided from.

    `correct` is the run's own verdict, used only when there is no gold answer to compare with.
    Signals (in ``Label.signals``):

    - ``acting``: it called a tool (an action other than Finish and think); without one it is judged like CoT.
      The Finish step's observation ("Episode finished", "Answer is CORRECT") is the harness's reply, not
      evidence, and is never read.
    - ``repeated_actions`` / ``repeated_thoughts``: [earlier step, later step] pairs with the same (verb, argument)
      or the same thought, compared case-insensitively with whitespace collapsed: the paper's loops, LLMCompiler's
      "repeated calls". A repeated Lookup that brought a new sentence is no loop: that is how Lookup pages.
    - ``step_limit``: an acting trajectory with no Finish: the steps ran out. ``no_answer``: no answer at all.
    - ``premature_stop``: it finished before any observation contained the gold answer, LLMCompiler's stopping on
      partial results (None when that cannot be checked: a yes/no gold, or no tool call).
    - ``failed_searches``: steps whose observation is "Could not find ...", "No more results.", "Invalid action
      ...", or empty; ``search_failure_rate`` is their share of the tool calls.
    - ``gold_in_observations``: some observation contains the normalised gold answer (None as above).
    - ``support``: what claims are checked against: "observations" (acting), "supporting facts" (CoT given
      `supporting_facts`), or "none" (CoT without them).
    - ``answer_supported``: the normalised answer appears in one of those texts; with "none" nothing outside the
      model can support it, so False. None for a yes/no answer, which no text quotes.
    - ``unsupported_numbers``: [step, number] for numbers in the thoughts (a year, a count) that neither the
      question nor any of those texts contains: invented facts that an answer check cannot see.
    - ``answer_in_reasoning`` (support "none" only): the answer appears in a sentence of the thoughts without the
      word "answer": the reasoning reached it rather than only announcing it at the end.
    - ``label_ambiguity``: wrong by exact match, but F1 >= 0.5, or one normalised answer contains the other
      (a plural -s aside: "authors" for "author").

    Priority. Success (correct): with support "none", true positive if ``answer_in_reasoning`` else false
    positive; otherwise false positive if the answer is unsupported or a number is, else true positive.
    Failure: label ambiguity; then search result error (over half the tool calls failed and no observation had
    the gold); then reasoning error (a loop, the step limit, no answer, a premature stop); then hallucination
    (unsupported answer or number); else reasoning error (the evidence was there and the reasoning missed it).
    """
    steps, pred = trajectory.steps, trajectory.answer or ""
    p, g = normalize_answer(pred), normalize_answer(gold)
    correct = exact_match(pred, gold) if g else correct
    keys = [_action_key(s.action) if s.action else None for s in steps]
    finish_at = next((i for i, k in enumerate(keys, 1) if k and k[0] == "finish"), None)
    tools = [(i, s) for i, (s, k) in enumerate(zip(steps, keys), 1) if k and k[0] not in ("finish", "think")]
    acting = bool(tools)
    notes: dict[str, list[str]] = {}  # signal -> sentences for a person; the decision picks which come first
    sig = {"correct": correct, "acting": acting, "n_steps": len(steps), "finished": finish_at is not None}
    sig.update(_loops(steps, keys, tools, notes))

    sig["step_limit"], sig["no_answer"] = acting and finish_at is None, not p
    if sig["step_limit"]:
        notes["stop"] = [f"no Finish in {len(steps)} steps: the step limit ran out"]
    elif not p:
        notes["stop"] = ["no answer was given"]

    failed = [i for i, s in tools if failed_search(s.observation)]
    sig["tool_calls"], sig["failed_searches"] = len(tools), failed
    sig["search_failure_rate"] = rate = round(len(failed) / len(tools), 3) if tools else 0.0
    if failed:
        notes["search"] = [f"{len(failed)} of {len(tools)} tool calls failed or came back empty"] + [
            f"step {i} {steps[i - 1].action} -> {_quote(steps[i - 1].observation or '')}" for i in failed]
    seen = [normalize_answer(s.observation) for _, s in tools]
    gold_seen = None if g in UNQUOTABLE or not acting else any(_contains(o, g) for o in seen)
    premature = None if gold_seen is None or finish_at is None else not gold_seen
    sig["gold_in_observations"], sig["premature_stop"] = gold_seen, premature
    if premature:
        notes["premature"] = [f"step {finish_at} finished with {_quote(pred)} before any observation contained "
                              f"the gold {_quote(gold)}"]

    if acting:
        source, texts = "observations", {i: s.observation or "" for i, s in tools}
    else:
        source = "supporting facts" if supporting_facts else "none"
        texts = dict(enumerate(supporting_facts or [], 1))
    sig.update(_support(steps, pred, trajectory.question, source, texts, notes))

    f1_score = f1(pred, gold) if g else 0.0
    sp, sg = _singular(p), _singular(g)
    ambiguous = bool(p and g and not correct and (f1_score >= 0.5 or _contains(sp, sg) or _contains(sg, sp)))
    sig["f1"], sig["label_ambiguity"] = round(f1_score, 4), ambiguous
    if ambiguous:
        notes["ambiguity"] = [f"wrong by exact match, but {_quote(pred)} and the gold {_quote(gold)} overlap "
                              f"(F1 = {f1_score:.2f})"]

    # the decision, in the documented order; `why` names the notes that decided it
    claims = ["support"] * (sig["answer_supported"] is False) + ["numbers"] * bool(sig["unsupported_numbers"])
    if correct is None:
        category, why = UNSCORED, ["unscored"]
        notes["unscored"] = ["no gold answer and no recorded score: success or failure is unknown"]
    elif correct and source == "none":
        category = FALSE_POSITIVE if sig["answer_in_reasoning"] is False else TRUE_POSITIVE
        why = ["support" if sig["answer_in_reasoning"] is None else "reasoning"]
    elif correct:
        category, why = (FALSE_POSITIVE, claims) if claims else (TRUE_POSITIVE, ["support"])
    elif ambiguous:
        category, why = LABEL_AMBIGUITY, ["ambiguity"]
    elif acting and rate > 0.5 and not gold_seen:
        category, why = SEARCH_RESULT_ERROR, ["search"]
        notes["search"][0] += ", and no observation contains the gold answer"
    elif sig["repeated_actions"] or sig["repeated_thoughts"] or sig["step_limit"] or not p or premature:
        category, why = REASONING_ERROR, ["loop", "stop", "premature"]
    elif claims:
        category, why = HALLUCINATION, claims
    else:
        category, why = REASONING_ERROR, ["support"]
        notes.setdefault("support", []).append("wrong, with no loop, failed search or unsupported claim to blame")
    evidence = [n for k in why for n in notes.get(k, [])]
    evidence += ["also: " + n for k, ns in notes.items() if k not in why for n in ns]
    return Label(category, evidence, sig)


def _loops(steps: list[Step], keys: list, tools: list, notes: dict) -> dict:
    """The same call again (with the same result, for Lookup), and the same thought again."""
    actions, last = [], {}
    for i, s in tools:
        k, j = keys[i - 1], last.get(keys[i - 1])
        paging = j is not None and k[0] == "lookup" and _norm(s.observation) != _norm(steps[j - 1].observation)
        if j is not None and not paging:
            actions.append([j, i])
            notes.setdefault("loop", []).append(f"step {i} repeats step {j}: {k[0]}[{k[1]}]")
        last[k] = i
    thoughts, first = [], {}
    for i, s in enumerate(steps, 1):
        if (s.thought or "").strip():
            j = first.setdefault(_norm(s.thought), i)
            if j != i:
                thoughts.append([j, i])
                notes.setdefault("loop", []).append(f"thought {i} repeats thought {j}: {_quote(s.thought)}")
    return {"repeated_actions": actions, "repeated_thoughts": thoughts}


def _support(steps: list[Step], pred: str, question: str, source: str, texts: dict, notes: dict) -> dict:
    """Is the answer, and is every number the thoughts state, in the texts the claims are checked against?"""
    p, q = normalize_answer(pred), _quote(pred)
    place = "observations" if source == "observations" else "supporting facts"
    out = {"support": source, "answer_supported": None, "unsupported_numbers": [], "answer_in_reasoning": None}
    if p in UNQUOTABLE:
        notes["support"] = [f"answer {q}: no text quotes a yes/no answer, so its support is not checked" if p
                            else "no answer to check"]
    else:
        where = [k for k, t in texts.items() if _contains(normalize_answer(t), p)]
        out["answer_supported"] = bool(where)
        if where:
            notes["support"] = [f"answer {q} is in {place[:-1]} {where[0]}: {_quote(texts[where[0]])}"]
        elif source == "none":
            notes["support"] = [f"nothing outside the model can support {q}: no observations, no supporting facts"]
        else:
            notes["support"] = [f"answer {q} appears in none of {place} {_steps(texts)}"]
    if source != "none":  # numbers are the one kind of claim a string check can verify
        known = _numbers(question).union(*map(_numbers, texts.values()))
        for i, s in enumerate(steps, 1):
            for n in sorted(_numbers(s.thought) - known):
                out["unsupported_numbers"].append([i, n])
                notes.setdefault("numbers", []).append(f"thought {i} states {n}, which neither the question nor "
                                                       f"the {place} contain: {_quote(s.thought)}")
    elif p not in UNQUOTABLE:
        reasoning = " ".join(s.thought or "" for s in steps)
        reached = [x for x in SENTENCE_END.split(reasoning) if "answer" not in x.lower()
                   and _contains(normalize_answer(x), p)]
        out["answer_in_reasoning"] = bool(reached)
        notes["reasoning"] = [f"the reasoning reaches {q} before announcing it: {_quote(reached[0])}" if reached
                              else f"the reasoning only announces {q}, never reaches it"]
    return out


# ------------------------------------------------------------------------------------------------ reading files
def _text(value) -> str | None:
    return None if value is None else str(value)


def _bool(value) -> bool | None:
    """A recorded score as a bool: True, 1, "True", "true", "1" and "yes" all count (files disagree on types)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
    return words.get(str(value).strip().lower())  # anything else ("maybe"): unknown, not False


def _step(s) -> Step:
    if isinstance(s, dict):
        return Step(_text(s.get("thought")), _text(s.get("action")), _text(s.get("observation")))
    return Step(thought=_text(s))  # a bare string in a steps list: keep it where a person can read it


def read_trajectory(rec: dict) -> Trajectory | None:
    """Our result lines (``steps``), scratchpads, the official ``traj``/``prompt``, or LoggingWrapper's lists."""
    if isinstance(rec.get("steps"), list):  # the official info dict has "steps" too, but as a number
        steps = [_step(s) for s in rec["steps"]]
        finish = [m.group(1).strip() for s in steps if s.action and (m := FINISH.match(s.action))]
        return Trajectory(str(rec.get("question") or ""), steps, finish[-1] if finish else None)
    for key in ("scratchpad", "traj", "prompt"):
        if isinstance(rec.get(key), str):
            text = rec[key]
            # the official traj is the whole prompt: instruction and six exemplars first, our question last
            heads = list(re.finditer(r"^(Question|Claim):", text, re.MULTILINE))
            return parse(text[heads[-1].start():] if heads and key != "scratchpad" else text)
    if isinstance(rec.get("actions"), list) and isinstance(rec.get("observations"), list):
        obs = [str(o) for o in rec["observations"]]  # observations[0] is the question itself
        return Trajectory(obs[0] if obs else "", [Step(None, str(a), o) for a, o in zip(rec["actions"], obs[1:])])
    return None


def _guess_method(t: Trajectory) -> str:
    if any(s.action and _action_key(s.action)[0] not in ("finish", "think") for s in t.steps):
        return "react" if any(s.thought for s in t.steps) else "act"
    return "cot" if t.steps else "standard"


def _row(rec, facts: dict | None) -> dict:
    if not isinstance(rec, dict):
        return _unreadable(f"a JSON {type(rec).__name__}, not an object")
    t = read_trajectory(rec)
    if t is None:
        return _unreadable("no steps, scratchpad, traj, prompt or actions field: no trajectory to read")
    t.question = question = _text(rec.get("question") or rec.get("claim")) or t.question
    gold = next((str(rec[k]) for k in ("gold", "gt_answer") if rec.get(k) not in (None, "")), None)
    pred = rec.get("pred", rec.get("answer"))
    t.answer = _text(pred) if pred is not None else t.answer
    sentences = (facts or {}).get(question)
    if sentences is None and isinstance(rec.get("context"), str) and rec["context"].strip():
        sentences = SENTENCE_END.split(rec["context"].strip())  # CoT given the gold paragraphs as its context
    lab = label(t, gold, supporting_facts=sentences, correct=_bool(rec.get("em", rec.get("correct"))))
    return {"id": rec.get("id", rec.get("_id", rec.get("question_idx"))),
            "method": _text(rec.get("method")) or _guess_method(t), "question": question, "gold": gold,
            "pred": t.answer, "correct": lab.signals["correct"], "category": lab.category,
            "evidence": lab.evidence, "signals": lab.signals}


def _unreadable(why: str) -> dict:
    return {"id": None, "method": None, "question": None, "gold": None, "pred": None, "correct": None,
            "category": UNREADABLE, "evidence": [why], "signals": {}}


def read_records(text: str) -> list:
    """JSONL (one record a line, blank lines skipped), or one JSON array (the official LoggingWrapper's files)."""
    if text.lstrip().startswith("["):
        try:
            whole = json.loads(text)
            if isinstance(whole, list):
                return whole
        except ValueError:
            pass  # not one array: read it line by line like any JSONL
    out = []
    for line in text.splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError as e:
                out.append(ValueError(f"not JSON ({e}): {_quote(line)}"))
    return out


def label_file(path: str | Path, *, facts: dict[str, list[str]] | None = None) -> Iterator[dict]:
    """One row per record of a trajectories file: {index, id, method, question, gold, pred, correct, category,
    evidence, signals}. Never stops on odd input: a line it cannot read becomes an ``unreadable`` row saying why.

    `facts` maps a question to its supporting-fact sentences, for judging CoT (resolve HotpotQA's
    ``supporting_facts`` [title, sentence index] pairs against the question's context first).
    """
    records = read_records(Path(path).read_text(encoding="utf-8", errors="replace"))
    for index, rec in enumerate(records):
        try:
            row = _unreadable(str(rec)) if isinstance(rec, ValueError) else _row(rec, facts)
        except Exception as e:  # one strange record must not cost the rows after it
            row = _unreadable(f"{type(e).__name__}: {e}")
        yield {"index": index, **row}


# ---------------------------------------------------------------------------------- sampling and agreement
def sample(rows: list[dict], n: int = 50, seed: int = 0) -> list[dict]:
    """Up to n correct and n wrong rows per method, as the paper sampled them; in the input's order."""
    rng = random.Random(seed)
    groups: dict = {}
    for r in rows:
        if r.get("category") in CATEGORIES and r.get("correct") in (True, False):
            groups.setdefault((str(r.get("method")), r["correct"]), []).append(r)
    chosen = {id(r) for key in sorted(groups) for r in rng.sample(groups[key], min(n, len(groups[key])))}
    return [r for r in rows if id(r) in chosen]


def table2(rows: list[dict]) -> dict:
    """{category: percent}: success types as a share of the successes, failure types of the failures.

    Call it once per method, as the paper's columns are. A group with no rows gives None for its types.

    >>> table2([{"category": "true positive"}, {"category": "hallucination"}, {"category": "label ambiguity"}])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'true positive': 100.0, 'false positive': 0.0, 'reasoning error': 0.0, 'search result error': 0.0,
     'hallucination': 50.0, 'label ambiguity': 50.0}
    """
    counts = Counter(r.get("category") for r in rows)
    out = {}
    for group in (SUCCESS, FAILURE):
        total = sum(counts[c] for c in group)
        out.update({c: 100 * counts[c] / total if total else None for c in group})
    return out


def cohen_kappa(a: list[str], b: list[str]) -> float:
    """Agreement of two labellers beyond chance: (p_o - p_e) / (1 - p_e).

    p_o is the share of items they label alike; p_e the share expected by chance, sum over categories of
    (share of a's labels) x (share of b's labels). When p_e is 1 both gave every item one same label: they agree
    perfectly and chance explains it all, so kappa is undefined; we return 1.0 (p_o is then 1 too).

    >>> cohen_kappa(["tp", "tp", "fp", "fp"], ["tp", "fp", "fp", "fp"])
    0.5
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"need two label lists of the same non-zero length, got {len(a)} and {len(b)}")
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[c] * cb[c] for c in ca) / (n * n)
    if p_e >= 1.0:
        return 1.0
    return (p_o - p_e) / (1 - p_e)


# ------------------------------------------------------------------------------------------------ your labels
class LabelStore:
    """Human labels in a JSONL file, one {key, category, note} a line, written whole on every change.

    Each save writes a temporary file beside the real one and renames it over (`os.replace` is atomic), so a
    crash or a killed kernel leaves the old file or the new one, never half of one. Keys are trajectory indexes
    or ids, kept as given (JSON keeps 3 and "3" apart).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._labels: dict = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    d = json.loads(line)
                    self._labels[d["key"]] = {"category": d["category"], "note": d.get("note", "")}
                except (ValueError, KeyError, TypeError):
                    continue  # a line edited by hand into nonsense: skip it rather than lose the others

    def get(self, key: int | str) -> dict | None:
        return dict(self._labels[key]) if key in self._labels else None

    def set(self, key: int | str, category: str, note: str = "") -> None:
        if not isinstance(key, (int, str)) or isinstance(key, bool):  # JSON would bring any other key back changed
            raise TypeError(f"a label key is a trajectory index (int) or id (str), not {type(key).__name__}")
        if category not in CATEGORIES:
            raise ValueError(f"{category!r} is not a Table 2 type; use one of {', '.join(CATEGORIES)}")
        self._labels[key] = {"category": category, "note": note}
        self._save()

    def all(self) -> dict:
        return {k: dict(v) for k, v in self._labels.items()}

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                for k, v in self._labels.items():
                    f.write(json.dumps({"key": k, **v}, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        finally:
            Path(tmp).unlink(missing_ok=True)
