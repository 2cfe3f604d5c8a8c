"""A GGUF file read completely, header and tensor table, before llama.cpp is allowed to see it.

llama.cpp trusts the file it is given: a truncated adapter, ``GGUF`` followed by junk, or a whole model passed as
an adapter crash the process (in a notebook, the kernel), where we owe the learner one line. So every file is
read here first, in plain Python, by the format's own rules (github.com/ggml-org/ggml, docs/gguf.md):

    magic "GGUF", version (uint32), tensor count (uint64), key-value count (uint64),
    the key-values (a string key, a uint32 type, a value), then per tensor: name, number of dimensions (uint32),
    the dimensions (uint64 each), the ggml type (uint32) and the data offset (uint64), and after the table, aligned
    to ``general.alignment`` (32 by default), the tensor data.

Nothing is trusted: every count is bounded by the bytes that are left, every type is one we know, every tensor's
data must lie inside the file. The training extra's ``gguf`` package reads the same table (a test checks that we
agree); it is not needed here, so the course install checks files without it.

    >>> from react_teach.llm import bundled_path
    >>> info = read(bundled_path())
    >>> info.fields["general.architecture"], info.tensors["token_embd.weight"].shape[1] == len(info.fields[
    ...     "tokenizer.ggml.tokens"])
    ('llama', True)
    >>> import tempfile, pathlib
    >>> torn = pathlib.Path(tempfile.mkdtemp()) / "torn.gguf"
    >>> _ = torn.write_bytes(bundled_path().read_bytes()[:100_000])
    >>> read(torn)
    Traceback (most recent call last):
    ...
    react_teach.llm.gguf_file.GGUFError: torn.gguf is truncated or corrupt: ...
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path


class GGUFError(ValueError):
    """A file that is not a complete, well-formed GGUF file; the message says what is wrong and where."""


# ggml type -> (elements per block, bytes per block), from ggml's type traits. A type not listed is refused.
GGML_TYPES = {
    0: ("F32", 1, 4), 1: ("F16", 1, 2), 2: ("Q4_0", 32, 18), 3: ("Q4_1", 32, 20), 6: ("Q5_0", 32, 22),
    7: ("Q5_1", 32, 24), 8: ("Q8_0", 32, 34), 9: ("Q8_1", 32, 36), 10: ("Q2_K", 256, 84), 11: ("Q3_K", 256, 110),
    12: ("Q4_K", 256, 144), 13: ("Q5_K", 256, 176), 14: ("Q6_K", 256, 210), 15: ("Q8_K", 256, 292),
    16: ("IQ2_XXS", 256, 66), 17: ("IQ2_XS", 256, 74), 18: ("IQ3_XXS", 256, 98), 19: ("IQ1_S", 256, 50),
    20: ("IQ4_NL", 32, 18), 21: ("IQ3_S", 256, 110), 22: ("IQ2_S", 256, 82), 23: ("IQ4_XS", 256, 136),
    24: ("I8", 1, 1), 25: ("I16", 1, 2), 26: ("I32", 1, 4), 27: ("I64", 1, 8), 28: ("F64", 1, 8),
    29: ("IQ1_M", 256, 56), 30: ("BF16", 1, 2), 34: ("TQ1_0", 256, 54), 35: ("TQ2_0", 256, 66),
}
FLOAT_TYPES = {"F32", "F16", "BF16"}
# key-value types: uint8 int8 uint16 int16 uint32 int32 float32 bool string array uint64 int64 float64
SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
STRING, ARRAY = 8, 9
MAX_DIMS = 4  # ggml's GGML_MAX_DIMS


@dataclass
class Tensor:
    name: str
    shape: tuple[int, ...]  # GGUF's own order: ne[0] (the row length) first
    type: str
    offset: int  # from the start of the data section
    nbytes: int


@dataclass
class GGUFInfo:
    path: Path
    version: int
    fields: dict = field(default_factory=dict)  # key -> value (an array as a list)
    tensors: dict[str, Tensor] = field(default_factory=dict)  # in file order


class _Cursor:
    """Reads the file front to back; only the header and the table are read, never the tensor data."""

    def __init__(self, f, size: int, name: str):
        self.f, self.size, self.pos, self.name = f, size, 0, name

    def left(self) -> int:
        return self.size - self.pos

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or n > self.left():
            raise GGUFError(f"{self.name} is truncated or corrupt: {what} at byte {self.pos} runs past the end of "
                            f"the file ({self.size} bytes)")
        out = self.f.read(n)
        if len(out) != n:
            raise GGUFError(f"{self.name} changed while it was read")
        self.pos += n
        return out

    def unpack(self, fmt: str, what: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]

    def string(self, what: str) -> str:
        raw = self.take(self.unpack("<Q", what), what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise GGUFError(f"{self.name}: {what} at byte {self.pos - len(raw)} is not UTF-8") from None

    def value(self, kind: int, what: str, depth: int = 0):
        if kind in SCALARS:
            return self.unpack(SCALARS[kind], what)
        if kind == STRING:
            return self.string(what)
        if kind == ARRAY and depth == 0:
            item, count = self.unpack("<I", what), self.unpack("<Q", what)
            if count > self.left():  # every item takes a byte at least: a huge count is a lie
                raise GGUFError(f"{self.name} is corrupt: {what} claims {count} items, more than the file holds")
            return [self.value(item, what, depth + 1) for _ in range(count)]
        raise GGUFError(f"{self.name} is corrupt: {what} has the unknown value type {kind}")


def read(path: str | Path) -> GGUFInfo:
    """Read and check a GGUF file's header, metadata and tensor table; GGUFError names what is wrong."""
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise GGUFError(f"cannot read {path}: {e.strerror or e}") from None
    return _cached(path, st.st_size, st.st_mtime_ns)  # a model's vocabulary takes a quarter second to read


@lru_cache(maxsize=16)
def _cached(path: Path, size: int, mtime_ns: int) -> GGUFInfo:  # size and mtime in the key: a changed file is read again
    try:
        with open(path, "rb") as f:
            return _read(path, f, os.fstat(f.fileno()).st_size)
    except OSError as e:
        raise GGUFError(f"cannot read {path}: {e.strerror or e}") from None


def _read(path: Path, f, size: int) -> GGUFInfo:
    c = _Cursor(f, size, path.name)
    magic = f.read(4)
    if magic != b"GGUF":
        raise GGUFError(f"{path.name} is not a GGUF file (it starts with {magic!r})")
    c.pos = 4
    version = c.unpack("<I", "the version")
    if version not in (2, 3):
        raise GGUFError(f"{path.name} is GGUF version {version}; llama.cpp reads versions 2 and 3")
    n_tensors, n_kv = c.unpack("<Q", "the tensor count"), c.unpack("<Q", "the key-value count")
    if n_tensors > size or n_kv > size:
        raise GGUFError(f"{path.name} is corrupt: it claims {n_tensors} tensors and {n_kv} keys")
    info = GGUFInfo(path, version)
    for k in range(n_kv):
        key = c.string(f"key {k}")
        if key in info.fields:
            raise GGUFError(f"{path.name} is corrupt: the key {key!r} appears twice")
        info.fields[key] = c.value(c.unpack("<I", f"the type of {key}"), f"the value of {key}")
    for k in range(n_tensors):
        name = c.string(f"the name of tensor {k}")
        n_dims = c.unpack("<I", f"the dimensions of {name}")
        if not 1 <= n_dims <= MAX_DIMS:
            raise GGUFError(f"{path.name} is corrupt: tensor {name!r} has {n_dims} dimensions")
        shape = tuple(c.unpack("<Q", f"the shape of {name}") for _ in range(n_dims))
        kind, offset = c.unpack("<I", f"the type of {name}"), c.unpack("<Q", f"the offset of {name}")
        if kind not in GGML_TYPES:
            raise GGUFError(f"{path.name}: tensor {name!r} has the unknown ggml type {kind}")
        type_name, block, block_bytes = GGML_TYPES[kind]
        elements = 1
        for d in shape:
            elements *= d
        if elements == 0 or shape[0] % block:
            raise GGUFError(f"{path.name} is corrupt: tensor {name!r} has the shape {list(shape)} for type {type_name}")
        if name in info.tensors:
            raise GGUFError(f"{path.name} is corrupt: the tensor {name!r} appears twice")
        info.tensors[name] = Tensor(name, shape, type_name, offset, elements // block * block_bytes)
    alignment = info.fields.get("general.alignment", 32)
    if not isinstance(alignment, int) or alignment < 1 or alignment & (alignment - 1):
        raise GGUFError(f"{path.name} is corrupt: general.alignment is {alignment!r}")
    start = -(-c.pos // alignment) * alignment
    for t in info.tensors.values():
        if t.offset % alignment or start + t.offset + t.nbytes > size:
            raise GGUFError(f"{path.name} is truncated or corrupt: the data of tensor {t.name!r} "
                            f"(bytes {start + t.offset}..{start + t.offset + t.nbytes}) is not inside the file "
                            f"of {size} bytes")
    spans = sorted((t.offset, t.offset + t.nbytes, t.name) for t in info.tensors.values())
    for (_, end, a), (begin, _, b) in zip(spans, spans[1:]):
        if begin < end:
            raise GGUFError(f"{path.name} is corrupt: the data of tensors {a!r} and {b!r} overlap")
    return info


def check_model(path: str | Path) -> GGUFInfo:
    """A model file llama.cpp can load without crashing: a complete GGUF with an architecture, its block count,
    a vocabulary, and the token embedding; an adapter given as a model is refused."""
    info = read(path)
    name, f = Path(path).name, info.fields
    arch = f.get("general.architecture")
    if f.get("general.type") == "adapter":
        raise GGUFError(f"{name} is a LoRA adapter, not a model: give it after the base, as local:BASE.gguf+{name}")
    if not isinstance(arch, str) or not arch:
        raise GGUFError(f"{name} names no architecture (general.architecture): it is not a model llama.cpp knows")
    tokens = f.get("tokenizer.ggml.tokens")
    if not isinstance(f.get(f"{arch}.block_count"), int) or not isinstance(tokens, list) or not tokens:
        raise GGUFError(f"{name} lacks {arch}.block_count or a vocabulary (tokenizer.ggml.tokens): not a whole model")
    embd = info.tensors.get("token_embd.weight")
    if embd is None or len(embd.shape) != 2 or embd.shape[1] != len(tokens):
        raise GGUFError(f"{name}: the token embedding does not match its vocabulary of {len(tokens)} tokens")
    return info


def check_adapter(adapter: str | Path, base: str | Path) -> GGUFInfo:
    """A LoRA adapter that fits `base`: every tensor a ``W.lora_a`` / ``W.lora_b`` pair of a weight W of the base,
    of a float type, shaped as llama.cpp requires (A: [in, r], B: [r, out] for W: [in, out], in GGUF's order)."""
    info, model = read(adapter), check_model(base)
    name, f = Path(adapter).name, info.fields
    if f.get("general.type") != "adapter" or f.get("adapter.type") != "lora":
        what = "a whole model" if "tokenizer.ggml.tokens" in f else "not a LoRA adapter"
        raise GGUFError(f"{name} is {what} (general.type {f.get('general.type')!r}, adapter.type "
                        f"{f.get('adapter.type')!r}); an adapter comes from `python -m react_teach finetune`")
    arch = model.fields["general.architecture"]
    if f.get("general.architecture") != arch:
        raise GGUFError(f"{name} is an adapter for {f.get('general.architecture')!r}, and {Path(base).name} is "
                        f"{arch!r}")
    if not info.tensors:
        raise GGUFError(f"{name} holds no tensors: an empty adapter")
    pairs: dict[str, dict] = {}
    for t in info.tensors.values():
        weight, dot, part = t.name.rpartition(".")
        if not dot or part not in ("lora_a", "lora_b"):
            raise GGUFError(f"{name}: the tensor {t.name!r} is not a LoRA tensor (W.lora_a or W.lora_b)")
        if t.type not in FLOAT_TYPES or len(t.shape) != 2:
            raise GGUFError(f"{name}: {t.name} is {t.type} {list(t.shape)}; an adapter tensor is a float matrix")
        pairs.setdefault(weight, {})[part] = t
    for weight, pair in pairs.items():
        w = model.tensors.get(weight)
        if w is None or len(w.shape) != 2:
            raise GGUFError(f"{name}: {weight} is not a weight matrix of {Path(base).name}: another base model")
        if set(pair) != {"lora_a", "lora_b"}:
            raise GGUFError(f"{name}: {weight} has only {', '.join(pair)}; LoRA needs both lora_a and lora_b")
        a, b = pair["lora_a"].shape, pair["lora_b"].shape
        if a[0] != w.shape[0] or b[1] != w.shape[1] or a[1] != b[0]:
            raise GGUFError(f"{name}: {weight} is {list(w.shape)} in {Path(base).name}, and its adapter pair is "
                            f"lora_a {list(a)}, lora_b {list(b)}: another base model, or a broken file")
    return info
