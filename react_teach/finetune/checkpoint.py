"""A training run's checkpoints: what an interrupted run resumes from, and the weights `--tail` averages.

A run keeps its checkpoint in a folder of its own (`workdir`): ``checkpoint-STEP.pt`` holds the adapter, the
optimizer and the schedule, and ``checkpoint.json`` names that file with its hash, beside the run's settings and
its state (step, losses, seconds, and the hashes of the ``tail-STEP.pt`` weights kept for the tail mean). The JSON
is written after the tensors it names, so it is the commit: a kill between the two leaves the previous pair whole.

Nothing is unpickled. A tensors file is read only once its hash is the one recorded, and then only as plain
tensors (``weights_only=True``): a planted or torn file is refused in one line and never runs code.

Which steps a run averages, with ``--tail 5`` and a checkpoint every 20 steps:

    >>> tail_steps(281, 20, 5), tail_steps(281, 20, 1), tail_steps(40, 20, 9)
    ([201, 221, 241, 261, 281], [281], [20, 40])
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from react_teach.data import read_text, write_atomic
from react_teach.llm.adapters import file_hash

CHECKPOINT = "checkpoint.json"  # settings, state and the hash of the tensors file it names
TENSORS = re.compile(r"checkpoint-\d+\.pt")


def tail_steps(steps: int, save_every: int, tail: int) -> list[int]:
    """The steps whose weights a run of `steps` steps averages into its adapter: the last step and the `tail` - 1
    steps every `save_every` before it (never before the first). With ``tail=1``, the last alone: the plain run.

    Late in the run the learning rate has come down, so the weights there circle one region of the loss, and their
    mean sits nearer its floor than any one step does.
    """
    return [s for s in range(steps - (tail - 1) * save_every, steps + 1, save_every) if s >= 1]


def save(workdir: Path, settings: dict, state: dict, model, opt, sched, keep: list[int]) -> None:
    """Checkpoint the run at ``state["step"]``; at a step in `keep`, keep its adapter for the tail mean too."""
    import torch

    step = state["step"]
    if step in keep:
        kept = workdir / f"tail-{step}.pt"
        write_atomic(kept, lambda tmp: torch.save(model.lora.state_dict(), tmp), what="checkpoint")
        state["tails"][str(step)] = file_hash(kept)  # committed by the JSON below, with the rest of the state
    name = f"checkpoint-{step}.pt"
    write_atomic(workdir / name, lambda tmp: torch.save({"lora": model.lora.state_dict(), "opt": opt.state_dict(),
                                                         "sched": sched.state_dict()}, tmp), what="checkpoint")
    write_atomic(workdir / CHECKPOINT, json.dumps({"settings": settings, "state": state, "tensors": name,
                                                   "sha256": file_hash(workdir / name)}) + "\n", what="checkpoint")
    for older in workdir.glob("checkpoint-*.pt"):
        if older.name != name:
            older.unlink(missing_ok=True)


def read(workdir: Path, settings: dict):
    """(tensors, state) of the run in `workdir`, or None if it has none; ValueError if it is another run's (its
    settings differ, compared before any tensor is opened) or is damaged."""
    path = workdir / CHECKPOINT
    if not path.exists():
        return None
    restart = f"delete {workdir} to restart"
    try:
        meta = json.loads(read_text(path))
    except (ValueError, RecursionError):
        raise ValueError(f"{path} is not a checkpoint of ours (not JSON); {restart}") from None
    if not isinstance(meta, dict) or meta.get("settings") != settings:
        raise ValueError(f"{path} belongs to another run (other data or settings); {restart}")
    state, name = meta.get("state"), meta.get("tensors")
    if not (isinstance(state, dict) and isinstance(state.get("step"), int) and isinstance(state.get("losses"), list)
            and isinstance(state.get("seconds"), (int, float)) and isinstance(state.get("tails", {}), dict)
            and isinstance(name, str) and TENSORS.fullmatch(name)):
        raise ValueError(f"{path} is damaged (no step, losses, tail hashes or tensors file); {restart}")
    state.setdefault("tails", {})  # a checkpoint written before --tail existed is a plain run's: it resumes
    return _tensors(workdir / name, meta.get("sha256"), restart), state


def average_tail(model, workdir: Path, keep: list[int], hashes: dict) -> None:
    """Set `model`'s LoRA weights to the mean of the ``tail-STEP.pt`` files of `workdir` at the steps in `keep`
    (`hashes`: step → the hash its checkpoint recorded), each matrix of A and of B averaged on its own."""
    import torch

    means, restart = None, f"delete {workdir} to restart"
    for step in keep:
        path = workdir / f"tail-{step}.pt"
        saved = _tensors(path, hashes.get(str(step)), restart)
        if set(saved) != set(model.lora.keys()):
            raise ValueError(f"{path} is not this model's adapter; {restart}")
        means = {k: v / len(keep) for k, v in saved.items()} if means is None else {
            k: means[k] + saved[k] / len(keep) for k in means}
    with torch.no_grad():
        for k, v in means.items():
            model.lora[k].copy_(v)


def _tensors(path: Path, sha256, restart: str) -> dict:
    """The dict of tensors saved at `path`, read only if its hash is `sha256`; ValueError, ending in `restart`,
    for anything else."""
    import torch

    if not path.is_file() or file_hash(path) != sha256:
        raise ValueError(f"{path} is missing or changed since it was saved (a truncated or changed file is never "
                         f"read); {restart}")
    try:
        saved = torch.load(path, weights_only=True, map_location="cpu")
    except Exception as e:  # not plain tensors (a pickle with code in it), or torn: refused, never run
        raise ValueError(f"{path} cannot be read as plain tensors ({type(e).__name__}); {restart}") from None
    if not isinstance(saved, dict):
        raise ValueError(f"{path} is not a checkpoint of ours; {restart}")
    return saved
