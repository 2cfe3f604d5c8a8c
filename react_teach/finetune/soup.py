"""One adapter as the mean of several: train each on its own part of the data, then average them in weight space.

Two fine-tunes of the same base on data of the same kind differ by their seed as much as by anything they learned
(3 to 5 points of EM on dev, issue 19's notes). Their mean is a known way to keep what they share and drop what
chance put in one of them. A LoRA adapter adds ``(alpha / r) * B @ A`` to each matrix it touches. Stacking the
parents' ``A`` along the rank axis, and their ``B`` likewise, gives one adapter of the summed rank whose ``B @ A``
is the sum of theirs; the right ``alpha`` and a factor on each ``B`` make it their exact mean, which llama.cpp
then loads like any other adapter.

`part` cuts the training examples into interleaved parts, so that each part holds every world and every shape, and
the runs together cost what one run on all of the data costs.

    >>> part(list("abcdefg"), 1, 2), part(list("abcdefg"), 2, 2)
    (['a', 'c', 'e', 'g'], ['b', 'd', 'f'])
"""
from __future__ import annotations

import json
from pathlib import Path

from react_teach.data import check_target, write_atomic
from react_teach.llm.adapters import file_hash, is_adapter

from . import _is_provenance, _provenance, train

# Provenance figures that add up over the parts: the soup's cost is the sum of its runs'.
SUMMED = ("examples", "steps", "tokens", "learned_tokens", "minutes")


def part(items: list, k: int, n: int) -> list:
    """The `k`-th of `n` interleaved parts of `items` (k from 1): every n-th item from the k-th on.

    Interleaved, not cut in blocks: the examples come round-robin over the worlds and then the course prose, so
    each part keeps the same mix. A course question weighed twice lands once in each of two parts whenever its
    two copies sit an odd distance apart.
    """
    for name, value, least in (("n", n, 1), ("k", k, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"part {name} must be a whole number >= {least}, not {value!r}")
    if k > n:
        raise ValueError(f"there is no part {k} of {n}")
    return items[k - 1::n]


def train_parts(texts: list[str], method: str, out: str | Path, parts: int, *, seed: int = 0,
                meta: dict | None = None, **kw) -> dict:
    """Train `parts` adapters, the k-th on ``part(texts, k, parts)`` with seed ``seed + k - 1``, then write their
    mean to `out` (`average`). Returns the mean's provenance.

    The parts live in ``OUT.parts/`` beside `out`, each with its provenance and checkpoints: a rerun of the same
    command resumes the part it was in and re-exports the finished ones in seconds (`train` resumes from its own
    last checkpoint), so an interrupted soup loses at most `save_every` steps. `kw` goes to `train` as it is.
    """
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 2:
        raise ValueError(f"a soup needs 2 parts or more, not {parts!r}")
    out = Path(out)
    folder = out.with_suffix(".parts")
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for k in range(1, parts + 1):
        path = folder / f"{out.stem}.part{k}of{parts}.gguf"
        train(part(texts, k, parts), method, path, seed=seed + k - 1, meta={**(meta or {}), "part": f"{k}/{parts}"},
              **kw)
        done.append(path)
    return average(done, out, meta=meta)


def average(adapters: list, out: str | Path, meta: dict | None = None) -> dict:
    """Write to `out` the adapter whose change to every matrix is the mean of the `adapters`' changes, with a
    provenance file beside it: the parents' figures that agree are kept, their costs (`SUMMED`) added, and each
    parent named with its hash and command. Returns the provenance dict.

    The parents must share the base, the method and the matrices they touch; anything else is refused before a
    byte is written. The mean of rank-r adapters has rank r times their number: twice the LoRA work a token for
    two parents, and twice the file.

        >>> from react_teach.llm.adapters import models_dir
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as d:
        ...     prov = average([models_dir() / "ft-react.gguf"] * 2, Path(d) / "mean.gguf")
        >>> prov["rank"], prov["alpha"], len(prov["soup_of"])
        (16, 16.0, 2)
    """
    import numpy as np

    from .torch_llama import read_lora, write_lora  # the training extra, as `train` needs it

    paths = [Path(p) for p in adapters]
    if len(paths) < 2:
        raise ValueError("a mean needs two adapters or more")
    provs = []
    for p in paths:
        if not is_adapter(p):
            raise ValueError(f"{p} is not a GGUF LoRA adapter")
        prov = _provenance(p.with_suffix(".json"))
        if prov is None or prov.get("adapter_sha256") != file_hash(p):
            raise ValueError(f"{p} has no provenance file that matches it ({p.with_suffix('.json').name}): "
                             "a mean must say what it is made of")
        provs.append(prov)
    for key in ("method", "base_sha256"):
        if len({json.dumps(pr.get(key)) for pr in provs}) > 1:
            raise ValueError(f"the adapters differ in {key} ({', '.join(str(pr.get(key)) for pr in provs)}): "
                             "only adapters of one method on one base can be averaged")
    out = check_target(out, ours=is_adapter, what="GGUF adapter file")
    prov_path = check_target(out.with_suffix(".json"), ours=_is_provenance, what="provenance file")
    loras = [read_lora(p) for p in paths]
    names = list(loras[0][1])
    if any(list(t) != names for _, t in loras):
        raise ValueError("the adapters touch different matrices: they cannot be averaged")
    n = len(loras)
    ranks = [t[names[0]].shape[0] for _, t in loras]  # lora_a comes first: [rank, in]
    rank = sum(ranks)
    # llama.cpp scales the stacked product by alpha / rank; the first parent's B keeps its values, the others'
    # are put on the same scale, and every change counts 1/n: the sum below is then the exact mean
    alpha = rank * loras[0][0] / (ranks[0] * n)
    scale = [(a / r) / (alpha / rank) / n for (a, _), r in zip(loras, ranks)]
    stacked = {}
    for name in names:
        if name.endswith("lora_a"):
            stacked[name] = np.concatenate([t[name] for _, t in loras], axis=0)
        else:
            stacked[name] = np.concatenate([c * t[name] for c, (_, t) in zip(scale, loras)], axis=1)

    write_lora(out, alpha, stacked)
    shared = {k: v for k, v in provs[0].items()
              if k not in (*SUMMED, "losses", "adapter", "adapter_sha256", "command", "seed", "data_sha256",
                           "first_loss", "final_loss")
              and all(json.dumps(pr.get(k)) == json.dumps(v) for pr in provs[1:])}

    def mean(key):  # each part's loss is on its own part: their mean stands for the soup's (`refuse_weaker`)
        values = [pr.get(key) for pr in provs]
        return round(sum(values) / n, 4) if all(isinstance(x, (int, float)) for x in values) else None

    prov = {**shared, **(meta or {}),
            **{k: round(sum(pr.get(k) or 0 for pr in provs), 1 if k == "minutes" else None) for k in SUMMED},
            "rank": rank, "alpha": alpha,
            "first_loss": mean("first_loss"), "final_loss": mean("final_loss"),
            "soup_of": [{k: pr.get(k) for k in ("adapter", "adapter_sha256", "data_sha256", "seed", "steps",
                                                 "minutes", "final_loss", "part", "command")} for pr in provs],
            "adapter": out.name, "adapter_sha256": file_hash(out)}
    write_atomic(prov_path, json.dumps(prov, indent=1) + "\n", ours=_is_provenance, what="provenance file")
    return prov
