"""The bundled model rebuilt in torch, read straight from its GGUF file, with LoRA adapters on its projections.

llama.cpp runs SmolLM2-135M for inference; to *train* an adapter we need gradients, so this file re-implements the
same network in about a hundred lines of torch (a Llama: RMSNorm, grouped-query attention with rotary positions,
a SwiGLU MLP, tied embeddings) and loads the very weights llama.cpp uses, dequantized from the GGUF. Nothing comes
from a model hub. A test checks that our logits agree with llama.cpp's on the same tokens.

Two details make the adapter portable back to llama.cpp without any conversion:

- GGUF stores the query and key weights permuted so that rotary positions turn *adjacent* pairs (x0, x1), (x2, x3)
  ... We rotate adjacent pairs too, so we train in the file's own layout.
- A LoRA delta is ``scale * B @ A`` on a weight ``W[out, in]``, with ``A[r, in]`` and ``B[out, r]``: exactly the
  ``.lora_a`` / ``.lora_b`` tensors llama.cpp reads, with ``scale = alpha / r``.

    >>> model = TorchLlama.from_gguf(bundled_path(), rank=4)            # doctest: +SKIP
    >>> ids = torch.tensor([tokenizer().tokenize(b"Question: 2 + 2?", add_bos=False, special=False)])  # doctest: +SKIP
    >>> model.logits(ids).shape                                          # doctest: +SKIP
    torch.Size([1, 7, 49152])
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

try:
    import gguf
    import torch
    import torch.nn.functional as F
except ImportError as e:  # the training stack is an optional extra; the course itself never needs it
    raise ImportError("fine-tuning needs the training extra: pip install 'react_teach[train]' "
                      "(torch, CPU build, and gguf)") from e

from react_teach.data import write_atomic
from react_teach.llm import bundled_path  # noqa: F401  (re-exported for the worked example above)
from react_teach.llm.adapters import is_adapter

TARGETS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")


@dataclass
class Config:
    n_layers: int
    dim: int
    hidden: int
    n_heads: int
    n_kv_heads: int
    rope_base: float
    eps: float
    vocab: int

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads


def _field(reader, key):
    return reader.fields[key].contents()


def read_gguf(path: str | Path) -> tuple[Config, dict[str, "torch.Tensor"]]:
    """The architecture and every tensor of a llama GGUF file, dequantized to float32."""
    reader = gguf.GGUFReader(str(path))
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise ValueError(f"{Path(path).name} is a {arch!r} model; this trainer knows the llama architecture only")
    cfg = Config(n_layers=_field(reader, "llama.block_count"), dim=_field(reader, "llama.embedding_length"),
                 hidden=_field(reader, "llama.feed_forward_length"),
                 n_heads=_field(reader, "llama.attention.head_count"),
                 n_kv_heads=_field(reader, "llama.attention.head_count_kv"),
                 rope_base=float(_field(reader, "llama.rope.freq_base")),
                 eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
                 vocab=len(reader.fields["tokenizer.ggml.tokens"].data))
    weights = {}
    for t in reader.tensors:
        array = gguf.quants.dequantize(t.data, t.tensor_type)
        weights[t.name] = torch.from_numpy(array.astype("float32").reshape(array.shape))
    return cfg, weights


def tokenizer(path: str | Path | None = None):
    """llama.cpp's own tokenizer for the file (vocab only: loads in a blink), so training sees inference's tokens."""
    from llama_cpp import Llama

    return Llama(model_path=str(path or bundled_path()), vocab_only=True, verbose=False)


class TorchLlama(torch.nn.Module):
    """A frozen llama with trainable LoRA pairs on the projections named in `targets`, in every layer.

    The top layers alone would train faster (backward could stop at the lowest adapted one), but they do not read:
    on the top 14 of 30 the ReAct adapter trained in 44 min instead of 66 and fell on the dev worlds from 0.793 to
    0.607 (trained wording) and 0.683 to 0.470 (held-out), yes/no from 0.80 to 0.50 (tryAK).
    The top 22 took 53 min and kept the trained wording (0.773) but not a new one: 0.600 (tryAM). Issue 19's notes
    keep both tries' figures.
    """

    def __init__(self, cfg: Config, weights: dict, *, rank: int = 8, alpha: float = 16.0,
                 targets: tuple[str, ...] = TARGETS, seed: int = 0):
        super().__init__()
        self.cfg, self.rank, self.alpha, self.targets = cfg, rank, alpha, tuple(targets)
        self.w = {k: v.requires_grad_(False) for k, v in weights.items()}
        self.scale = alpha / rank
        g = torch.Generator().manual_seed(seed)
        self.lora = torch.nn.ParameterDict()
        for n in range(cfg.n_layers):
            for t in self.targets:
                out_f, in_f = self.w[f"blk.{n}.{t}.weight"].shape
                # A random and B zero: the adapter starts as the identity, as in the LoRA paper
                a = torch.randn(rank, in_f, generator=g) / math.sqrt(in_f)
                self.lora[f"blk_{n}_{t}_a"] = torch.nn.Parameter(a)
                self.lora[f"blk_{n}_{t}_b"] = torch.nn.Parameter(torch.zeros(out_f, rank))
        half = cfg.head_dim // 2
        self.inv_freq = cfg.rope_base ** (-torch.arange(half, dtype=torch.float32) / half)

    @classmethod
    def from_gguf(cls, path: str | Path, **kw) -> "TorchLlama":
        cfg, weights = read_gguf(path)
        return cls(cfg, weights, **kw)

    def _linear(self, x, n: int, name: str):
        y = x @ self.w[f"blk.{n}.{name}.weight"].T
        if name in self.targets:
            y = y + self.scale * ((x @ self.lora[f"blk_{n}_{name}_a"].T) @ self.lora[f"blk_{n}_{name}_b"].T)
        return y

    def _norm(self, x, weight):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.cfg.eps) * weight

    def _rope(self, x):  # x: [batch, time, heads, head_dim]; rotate adjacent pairs, as GGUF's layout expects
        angles = torch.arange(x.shape[1], dtype=torch.float32)[:, None] * self.inv_freq[None, :]
        cos, sin = angles.cos()[None, :, None, :], angles.sin()[None, :, None, :]
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)

    def hidden(self, ids: "torch.Tensor") -> "torch.Tensor":
        """The final normalised hidden states, [batch, time, dim]."""
        cfg, w = self.cfg, self.w
        b, t = ids.shape
        x = w["token_embd.weight"][ids]
        for n in range(cfg.n_layers):
            h = self._norm(x, w[f"blk.{n}.attn_norm.weight"])
            q = self._rope(self._linear(h, n, "attn_q").view(b, t, cfg.n_heads, cfg.head_dim))
            k = self._rope(self._linear(h, n, "attn_k").view(b, t, cfg.n_kv_heads, cfg.head_dim))
            v = self._linear(h, n, "attn_v").view(b, t, cfg.n_kv_heads, cfg.head_dim)
            repeat = cfg.n_heads // cfg.n_kv_heads  # grouped-query attention: each key head serves `repeat` queries
            k, v = k.repeat_interleave(repeat, dim=2), v.repeat_interleave(repeat, dim=2)
            att = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                 is_causal=True)
            x = x + self._linear(att.transpose(1, 2).reshape(b, t, cfg.dim), n, "attn_output")
            h = self._norm(x, w[f"blk.{n}.ffn_norm.weight"])
            x = x + self._linear(F.silu(self._linear(h, n, "ffn_gate")) * self._linear(h, n, "ffn_up"), n, "ffn_down")
        return self._norm(x, w["output_norm.weight"])

    def logits(self, ids: "torch.Tensor") -> "torch.Tensor":
        return self.hidden(ids) @ self.w["token_embd.weight"].T  # tied embeddings: SmolLM2 has no output matrix

    def loss(self, ids: "torch.Tensor", mask: "torch.Tensor") -> "torch.Tensor":
        """Mean next-token loss over the positions where `mask` is 1 (the tokens the model must learn to write).

        The vocabulary projection is the costliest single matrix here, so it runs only at those positions.
        """
        h = self.hidden(ids[:, :-1])
        keep = mask[:, 1:].bool()
        logits = h[keep] @ self.w["token_embd.weight"].T
        return F.cross_entropy(logits, ids[:, 1:][keep])


def write_lora(path: str | Path, alpha: float, tensors: dict) -> Path:
    """Write LoRA tensors (name -> numpy array: ``lora_a`` as [rank, in], ``lora_b`` as [out, rank]) as a GGUF
    adapter file in float16, which llama.cpp loads with ``Llama(base, lora_path=...)``. Atomic: a half-written
    adapter never sits under the real name, and only an adapter is ever replaced."""
    def write(tmp: Path) -> None:
        writer = gguf.GGUFWriter(str(tmp), "llama")
        writer.add_string("general.type", "adapter")
        writer.add_string("adapter.type", "lora")
        writer.add_float32("adapter.lora.alpha", float(alpha))  # llama.cpp scales by alpha / rank, as we do
        for name, array in tensors.items():
            # GGUF reverses numpy's order of dimensions into its own ne[] convention
            writer.add_tensor(name, array.astype("float16"))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()

    write_atomic(path, write, ours=is_adapter, what="GGUF adapter file")
    return Path(path)


def read_lora(path: str | Path) -> tuple[float, dict]:
    """(alpha, {tensor name: float32 numpy array}) of a GGUF LoRA file: the inverse of `write_lora`."""
    reader = gguf.GGUFReader(str(path))
    field = reader.fields.get("adapter.lora.alpha")
    if field is None:
        raise ValueError(f"{path} has no adapter.lora.alpha: not a LoRA adapter of ours")
    return float(field.parts[field.data[0]][0]), {
        t.name: gguf.quants.dequantize(t.data, t.tensor_type).astype("float32") for t in reader.tensors}


def export_gguf(model: TorchLlama, path: str | Path) -> Path:
    """Write the model's adapter as a GGUF LoRA file (`write_lora`)."""
    return write_lora(path, model.alpha, {
        f"blk.{n}.{t}.weight.lora_{part}": model.lora[f"blk_{n}_{t}_{part}"].detach().numpy()
        for n in range(model.cfg.n_layers) for t in model.targets for part in ("a", "b")})


def load_adapter(model: TorchLlama, path: str | Path) -> TorchLlama:
    """Read a GGUF LoRA file back into `model` (the inverse of `export_gguf`): to check or continue an adapter."""
    for name, array in read_lora(path)[1].items():
        block, rest = name.split(".", 2)[1], name.split(".", 2)[2]  # blk.N.attn_q.weight.lora_a
        target, part = rest.split(".")[0], rest.rsplit("_", 1)[1]
        model.lora[f"blk_{block}_{target}_{part}"].data = torch.from_numpy(array)
    return model
