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


def provenance(name: str) -> dict:
    """How a shipped adapter was made: base and data hashes, steps, learning rate, rank, loss, minutes, command."""
    path = models_dir() / f"{name}.json"
    if not path.exists():
        raise AdapterError(f"no provenance for {name} in data/models/ (expected {path.name})")
    return json.loads(path.read_text())


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
    return adapter


def check_file(adapter: Path) -> None:
    """Refuse, before llama.cpp sees it, a file that is not a GGUF LoRA adapter (llama.cpp would only say 'failed')."""
    if not adapter.exists():
        raise AdapterError(f"no adapter file at {adapter}")
    with open(adapter, "rb") as f:
        head = f.read(4)
    if head != b"GGUF":
        raise AdapterError(f"{adapter.name} is not a GGUF file (it starts with {head!r})")
