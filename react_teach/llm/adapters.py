"""Fine-tuned adapters: the shipped ones, where they live, and the checks that they fit the base model.

``local:ft-react`` is the bundled SmolLM2-135M with ``data/models/ft-react.gguf`` on top, a LoRA adapter trained
on oracle ReAct trajectories of generated worlds (see `finetune`). A fine-tuned model has learned its format, so
it is prompted **zero-shot**: ``Question: ...`` and the cue, no instruction and no exemplars, as in the paper's
section 3.3. Each adapter ships with a provenance file that says how it was made and what its bytes hash to.

    >>> sorted(SHIPPED)
    ['ft-act', 'ft-cot', 'ft-react', 'ft-standard']
    >>> SHIPPED["ft-cot"]
    'cot'
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from react_teach.data import data_dir

from . import gguf_file

SHIPPED = {"ft-react": "react", "ft-act": "act", "ft-cot": "cot", "ft-standard": "standard"}  # spec -> format


class AdapterError(ValueError):
    """An adapter is missing, corrupt, or made for another base model; the message says which and what to do."""


def models_dir() -> Path:
    return data_dir() / "models"


@lru_cache(maxsize=None)
def sha256(path: Path, size: int, mtime: float) -> str:  # size and mtime in the key: a changed file is re-hashed
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_hash(path: str | Path) -> str:
    path = Path(path)
    st = path.stat()
    return sha256(path, st.st_size, st.st_mtime)


PROVENANCE_KEYS = ("adapter_sha256", "base_sha256")  # what `shipped` checks an adapter by


def provenance(name: str) -> dict:
    """How a shipped adapter was made: base and data hashes, steps, learning rate, rank, loss, minutes, command."""
    path = models_dir() / f"{name}.json"
    if not path.exists():
        raise AdapterError(f"no provenance for {name} in data/models/ (expected {path.name})")
    try:
        prov = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as e:
        raise AdapterError(f"data/models/{path.name} is not a provenance file (not JSON: {e}); restore it "
                           "(git checkout data/models) or retrain the adapter") from None
    bad = [k for k in PROVENANCE_KEYS if not isinstance(prov, dict) or not isinstance(prov.get(k), str)]
    if bad:
        raise AdapterError(f"data/models/{path.name} has no {' or '.join(bad)}: without it the adapter cannot be "
                           "checked; restore it (git checkout data/models) or retrain the adapter")
    return prov


def shipped(name: str, base: Path) -> Path:
    """The adapter file of a shipped spec such as ``ft-react``, checked against its provenance and the base."""
    adapter = models_dir() / f"{name}.gguf"
    if not adapter.exists():
        raise AdapterError(f"the adapter {name} is not in data/models/; train it with "
                           f"`python -m react_teach finetune --method {SHIPPED[name]}`")
    prov = provenance(name)
    if file_hash(adapter) != prov["adapter_sha256"]:
        raise AdapterError(f"data/models/{adapter.name} does not match its provenance hash: the file is corrupt or "
                           "was replaced; restore it (git checkout data/models) or retrain it")
    if file_hash(base) != prov["base_sha256"]:
        raise AdapterError(f"{name} was trained on another base model than {base.name}; load it on its own base "
                           f"(sha256 {prov['base_sha256'][:12]}…)")
    check_file(adapter, base)
    return adapter


def check_file(adapter: Path, base: Path) -> None:
    """Refuse, before llama.cpp sees it, a file that is not a LoRA adapter for `base`: llama.cpp trusts its input,
    and a truncated or foreign file would crash the process (a notebook's kernel) instead of raising."""
    if not Path(adapter).is_file():
        raise AdapterError(f"no adapter file at {adapter}")
    try:
        gguf_file.check_adapter(adapter, base)
    except gguf_file.GGUFError as e:
        raise AdapterError(str(e)) from None


def is_adapter(path: Path) -> bool:
    """Whether `path` is a GGUF LoRA adapter (the one kind of file `finetune` may replace)."""
    try:
        return gguf_file.read(path).fields.get("general.type") == "adapter"
    except gguf_file.GGUFError:
        return False
