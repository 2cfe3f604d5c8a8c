"""react_teach: the ReAct agent loop (Yao et al., ICLR 2023), built from the bare loop up.

The paper's mechanism sits flat on top, one idea a file, in the order data flows:

- `trajectory`: Step, Trajectory, Usage; the transcript rendered and parsed (imports nothing of ours);
- `files`: the one way to write a file, the one JSONL reader, the cache folder;
- `data`: what ships in data/, and the official formats;
- `score`: exact match and F1 by the official rules, FEVER accuracy;
- `ablate`: Standard, CoT and Act as lines deleted from the ReAct exemplars;
- `loop`: the one step-wise loop every agent shares (pause, edit, resume);
- `agent`: `react()`, the paper's loop in one screen; `Agent` (ReAct and Act); the one-call baselines;
- `methods`: the one table of methods, the back-off hybrids, `solve`;
- `exercises` and `checks/`: the notebooks' exercises and one checker module per notebook.

The course machinery is in folders named for their role, each layer importing only those below it (the contract
is in pyproject.toml, checked by `lint-imports`):

- `llm/` (the model) and `wiki/` (the tool), which never import each other;
- `world/` (a generated world no model has read), `household/` (sparse thoughts), `tools/` (tool calling, a safe
  calculator), `runs/` (resumable run files, records, intervals and baselines);
- `finetune/` (section 3.3 in miniature), `failures/` (Table 2 as a tool);
- `ui/` (every widget and figure) and `cli/` (`python -m react_teach`).
"""
__version__ = "0.1.0"


def check(ok: bool, what: str) -> None:
    """The notebooks' exercise checker: prints ✓ or ✗ before a one-line description.

    >>> check(1 + 1 == 2, "one plus one")
    ✓ one plus one
    """
    print(("✓ " if ok else "✗ ") + what)
