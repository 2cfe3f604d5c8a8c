"""react_teach: the ReAct agent loop (Yao et al., ICLR 2023), built from the bare loop up.

One module per idea of the paper: `llm` (the model), `wiki` (the tool), `trajectory` (the transcript), `ablate`
(baselines as deleted lines), `loop` (the step-wise loop every agent shares), `agent` (ReAct and Act on Wikipedia,
and the one-call baselines), `methods` (the table of methods), `score`, `runs`, `failures` (Table 2, built from
`failure_signals`, `failure_rules` and `failure_evidence`; `readers` and `labels` beside it), `views`, `widgets`
and `panels` (what a notebook shows), `plots`, and `household` (sparse thoughts, on `household_tasks` and
`household_env`).
"""
__version__ = "0.1.0"


def check(ok: bool, what: str) -> None:
    """The notebooks' exercise checker: prints ✓ or ✗ before a one-line description.

    >>> check(1 + 1 == 2, "one plus one")
    ✓ one plus one
    """
    print(("✓ " if ok else "✗ ") + what)
