"""The figures of a worlds benchmark as Markdown: what the README and the notebooks show, never typed by hand.

`benchmarks/worlds_eval.py` writes ``data/runs/worlds/SPLIT/summary.json``; `markdown` turns it into the tables a
reader sees. The README's block between the two `MARKERS` is this text for the committed summary (a test compares
them, and ``worlds_eval.py --parts readme`` rewrites it), and notebooks 10 and 16 display the same tables.

Each figure carries its n and its 95% interval, and each table the answers that need no reading beside it:

    >>> b = {"n": 4, "em": 0.5, "ci95": [0.15, 0.85], "baselines": {"always yes": 0.25, "always no": 0.0}}
    >>> cell(b)
    '0.500 [0.150, 0.850] n=4'
    >>> part = {"pooled": b, "worlds": {"7": b}, "spread": [0.5, 0.5], "by_type": {"yesno": b}}
    >>> print(methods_table({"methods": {"react": {"trained": part}}}))
    | method | trained wording | held-out wording | worlds, lowest to highest (trained) | always "yes" / "no" |
    |---|---|---|---|---|
    | ReAct | 0.500 [0.150, 0.850] n=4 | - | 0.500 to 0.500 (1 worlds) | 0.250 / 0.000 |
"""
from __future__ import annotations

import json

from react_teach.data import data_dir
from .stats import p_text

MARKERS = ("<!-- worlds_eval summary: begin (python benchmarks/worlds_eval.py --parts readme) -->",
           "<!-- worlds_eval summary: end -->")
NAMES = {"react": "ReAct", "act": "Act", "cot": "CoT", "standard": "Standard"}
TYPES = {"bridge2": "bridge, 2 hops", "bridge3": "bridge, 3 hops", "comparison": "comparison", "yesno": "yes/no"}
# the three shapes a comparison comes in (data version 2): one figure for all three would hide the weakest
COMPARISONS = {"first": "which came first", "both": "are both", "gap": "how many years apart"}


def summary(split: str) -> dict:
    """The committed summary of one split ("dev" or "test") of `benchmarks/worlds_eval.py`."""
    return json.loads((data_dir() / "runs" / "worlds" / split / "summary.json").read_text())


def cell(b: dict | None) -> str:
    """EM, interval and n of one figure; a dash where the run does not exist."""
    if not b:
        return "-"
    lo, hi = b["ci95"]
    return f"{b['em']:.3f} [{lo:.3f}, {hi:.3f}] n={b['n']}"


def _floor(b: dict | None) -> str:
    return f"{b['baselines']['always yes']:.3f} / {b['baselines']['always no']:.3f}" if b else "-"


def methods_table(s: dict) -> str:
    """Every method's pooled EM in both wordings, the spread of its worlds, and what the constant answers score on
    the same questions (each row its own: the methods may have run on different numbers of questions)."""
    rows = ['| method | trained wording | held-out wording | worlds, lowest to highest (trained) | always "yes" / "no" |',
            "|---|---|---|---|---|"]
    ms = s.get("methods", {})
    for m in (m for m in NAMES if m in ms):
        tr, ho = ms[m].get("trained"), ms[m].get("heldout")
        spread = f"{tr['spread'][0]:.3f} to {tr['spread'][1]:.3f} ({len(tr['worlds'])} worlds)" if tr else "-"
        rows.append(f"| {NAMES[m]} | {cell(tr and tr['pooled'])} | {cell(ho and ho['pooled'])} | {spread} | "
                    f"{_floor((tr or ho)['pooled'])} |")
    return "\n".join(rows)


def types_table(s: dict, method: str = "react") -> str:
    """One method's EM by question type, in both wordings, with always "yes" beside each type; below comparison,
    each of its shapes where the summary has them.

        >>> b = {"n": 2, "em": 0.5, "ci95": [0.1, 0.9], "baselines": {"always yes": 0.0, "always no": 0.0}}
        >>> part = {"by_type": {"comparison": b}, "by_shape": {"gap": {**b, "em": 0.0}}}
        >>> print(types_table({"methods": {"react": {"trained": part}}}).splitlines()[-1])
        | comparison: how many years apart | 0.000 [0.100, 0.900] n=2 | - | 0.000 |
    """
    m = s["methods"][method]
    rows = [f"| {NAMES[method]}, by type | trained wording | held-out wording | always \"yes\" |", "|---|---|---|---|"]

    def row(key: str, t: str, name: str) -> None:
        tr, ho = (m.get(w, {}).get(key, {}).get(t) for w in ("trained", "heldout"))
        if tr or ho:
            rows.append(f"| {name} | {cell(tr)} | {cell(ho)} | {(tr or ho)['baselines']['always yes']:.3f} |")

    for t, name in TYPES.items():
        row("by_type", t, name)
        for shape, what in COMPARISONS.items() if t == "comparison" else ():
            row("by_shape", shape, f"comparison: {what}")
    return "\n".join(rows)


def lines(s: dict) -> list[str]:
    """The figures that are not tables: the paired wordings and the held-out templates that lose most, the
    real-subject transfer, the prose dev set, the loss ablation and the thought edits, each where the summary has
    it."""
    out = []
    if p := s.get("methods", {}).get("react", {}).get("paired"):
        out.append(f"- The same {p['n']} questions in both wordings: right in both {p['both']}, only in the trained "
                   f"wording {p['trained_only']}, only in the held-out one {p['heldout_only']}, in neither "
                   f"{p['neither']}" + (f" (sign test {p_text(p['p'])})." if "p" in p else "."))
        if worst := [x for x in p.get("by_template", []) if x["trained"] > x["heldout"]][:3]:
            out.append("- Where the held-out wording loses most, right in the trained wording against the held-out "
                       "one, over the questions that use the template: " + "; ".join(
                           f"`{x['template']}` {x['trained']} against {x['heldout']} of {x['n']}" for x in worst)
                       + ".")
    for key, what in (("course", "the course's real-subject questions"), ("prose", "the prose dev questions")):
        if b := s.get(key):
            out.append(f"- ReAct on {what}: {cell(b)} (always \"yes\" {b['baselines']['always yes']:.3f}, always "
                       f"\"no\" {b['baselines']['always no']:.3f}).")
    if x := s.get("ablation"):
        out.append(f"- ReAct trained with the loss on every token, observations included (the paper's choice), on "
                   f"{x['paired']['n']} of the same questions in the trained wording: {cell(x['paired']['all'])}, "
                   f"against {cell(x['paired']['model'])} with the loss on the model's own turns"
                   + (f"; right only with every token {x['paired']['all_only']}, only with the model's turns "
                      f"{x['paired']['model_only']} (sign test {p_text(x['paired']['p'])})"
                      if "p" in x["paired"] else "")
                   + (f" (the ft-react trained beside it, adapter {x['adapters']['react']}, since retrained: the "
                      "tables above are the retrained one's)." if x.get("react_is_current") is False else "."))
    if r := s.get("rescue"):
        for kind, what in (("plan", "says only what to read next"), ("conclusion", "states the conclusion")):
            if (x := r.get(kind)) and x["failures"]:
                out.append(f"- An edit that {what} rescues {x['rescued']} of {x['failures']} failures ({x['share']:.3f} "
                           f"[{x['ci95'][0]:.3f}, {x['ci95'][1]:.3f}]).")
    return out


def markdown(s: dict) -> str:
    """The whole report of one summary: where it comes from, the methods, ReAct by type, and the other figures."""
    head = (f"{s['split'].capitalize()} worlds {', '.join(map(str, s['seeds']))}, up to {s['n_per_world']} questions "
            f"each, world generator version {s['version']}:")
    parts = [head]
    if s.get("methods"):
        parts.append(methods_table(s))
    if "react" in s.get("methods", {}):
        parts.append(types_table(s))
    if more := lines(s):
        parts.append("\n".join(more))
    return "\n\n".join(parts)


def replace_block(text: str, s: dict) -> str:
    """`text` (the README) with its block between the `MARKERS` replaced by `markdown(s)`.

    >>> s = {"split": "dev", "seeds": [1], "n_per_world": 2, "version": 2, "methods": {}}
    >>> replace_block("a\\n" + MARKERS[0] + "\\nold\\n" + MARKERS[1] + "\\nb", s).splitlines()[2]
    'Dev worlds 1, up to 2 questions each, world generator version 2:'
    """
    begin, end = (text.index(m) for m in MARKERS)  # ValueError names a missing marker
    return text[:begin + len(MARKERS[0])] + "\n" + markdown(s) + "\n" + text[end:]


def block(text: str) -> str:
    """The text between the `MARKERS` of `text`, as `replace_block` writes it."""
    begin, end = (text.index(m) for m in MARKERS)
    return text[begin + len(MARKERS[0]):end].strip("\n")
