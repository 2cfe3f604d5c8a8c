"""react_teach: the ReAct agent loop (Yao et al., ICLR 2023), built from the bare loop up.

One module per idea of the paper: `llm` (the model), `wiki` (the tool), `trajectory` (the transcript), `ablate`
(baselines as deleted lines), `agent` (the loops), `score`, `runs`, `failures`, `widgets`, `plots`, `household`.
"""
__version__ = "0.1.0"


def check(ok: bool, what: str) -> None:
    """The notebooks' exercise checker: prints ✓ or ✗ before a one-line description.

    >>> check(1 + 1 == 2, "one plus one")
    ✓ one plus one
    """
    print(("✓ " if ok else "✗ ") + what)
