"""Fine-tune the bundled model on trajectories: the paper's section 3.3 (Figure 3) in miniature.

The package holds `torch_llama` (the bundled model ported to torch, with LoRA, and the GGUF export),
`course_data` (hand-written questions over the course corpus, apart from its test), `course_oracle` (their
walks), `training_set` (which generated worlds' oracle trajectories are learned), `checkpoint` (what a run
resumes from, and the weights its tail mean averages) and `soup` (adapters trained on parts of the data, and their
mean in weight space); here are the training text, the loss masks and `train`.

Prompted with six exemplars, a 135M model does not do ReAct. The paper's answer for small models is to fine-tune
them on correct trajectories and prompt them *zero-shot*: ``Question: ...`` and nothing else. This file turns
trajectories into training text in the exact format the agent will later prompt with, trains a LoRA adapter on
the bundled GGUF base (torch, CPU), and writes the adapter as a GGUF file that llama.cpp loads on the quantized
base (``local:BASE.gguf+ADAPTER.gguf``, or ``local:ft-react`` for the shipped ones).

Which tokens carry the loss is the one real design choice. The model writes the thoughts and actions; the
environment writes the observations. By default only the model's part is learned (``loss="model"``); the paper
decoded whole trajectories, observations included (``loss="all"``), which we measure as an ablation.

    >>> segs = segments("Question: Who wrote Hamlet?\\nThought 1: Search it.\\nAction 1: Search[Hamlet]\\n"
    ...                 "Observation 1: A play by Shakespeare.\\n", "react")
    >>> [(text, learn) for text, learn in segs]
    [('Question: Who wrote Hamlet?\\nThought 1:', False), (' Search it.\\nAction 1: Search[Hamlet]\\nObservation 1:', True), (' A play by Shakespeare.\\n', False)]
    >>> segments("Question: Who wrote Hamlet?\\nAnswer: Shakespeare\\n", "standard")[1]
    (' Shakespeare\\n', True)
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import time
from pathlib import Path

from tqdm.auto import tqdm

from react_teach import ablate
from react_teach.llm import bundled_path, gguf_file
from react_teach.llm.adapters import file_hash, is_adapter
from react_teach.data import check_target, read_text, write_atomic
from react_teach.trajectory import Trajectory

from . import checkpoint, course_data, course_oracle
from .training_set import oracle_trajectories, pick  # noqa: F401 (pick: finetune.pick, as callers know it)

# Where the model starts writing (the cue the harness appends) and where the harness stops it, per format:
# the same cues and stop sequences the agent uses at inference, so training text and prompts agree byte for byte.
FORMATS = {
    "react": (r"Thought \d+:", r"\nObservation \d+:"),
    "act": (r"Action \d+:", r"\nObservation \d+:"),
    "cot": (r"Thought:", r"\nQuestion:"),
    "standard": (r"Answer:", r"\n"),
}
METHODS = tuple(FORMATS)


def training_text(t: Trajectory | dict, method: str) -> str:
    """One oracle ReAct trajectory in a method's zero-shot format: the deleted lines of notebook 06, no exemplars.

    The finish step's observation line stays in the ReAct and Act text: its ``\\nObservation k:`` is the stop
    sequence, and the model must learn to reach it rather than run on. CoT and Standard end where their stop is.
    (Version-1 oracle trajectories, the shipped adapters' data, have no observation after their Finish, so their
    texts end at the Finish line; version 2 and the prose set record the tool's reply there.)
    """
    t = Trajectory.from_json(t) if isinstance(t, dict) else t
    react = t.render()
    if method == "react":
        return react
    if method == "act":
        return ablate.to_act(react)
    if method == "cot":
        return ablate.to_cot(react).rstrip("\n") + "\nQuestion:"
    if method == "standard":
        return ablate.to_standard(react)
    raise ValueError(f"no fine-tuning format for {method!r}; choose one of {', '.join(METHODS)}")


def segments(text: str, method: str, loss: str = "model") -> list[tuple[str, bool]]:
    """Split training text into (text, learn?) pieces: the model's turns are learned, the harness's are not.

    With ``loss="all"`` everything after the first cue is learned, observations included (the paper's choice).
    """
    cue, stop = (re.compile(p) for p in FORMATS[method])
    out, pos = [], 0
    while (m := cue.search(text, pos)) is not None:
        end = stop.search(text, m.end())
        end_at = end.end() if end else len(text)
        out.append((text[pos:m.end()], False))
        out.append((text[m.end():end_at], True))
        pos = end_at
    if pos < len(text):
        out.append((text[pos:], False))
    if loss == "all":
        out = [(s, i > 0) for i, (s, _) in enumerate(out)]
    elif loss != "model":
        raise ValueError(f"loss must be 'model' or 'all', not {loss!r}")
    return [(s, learn) for s, learn in out if s]


def encode(tok, segs: list[tuple[str, bool]]) -> tuple[list[int], list[int]]:
    """Token ids and a 0/1 loss mask. Each piece is tokenized alone, as inference does: the prompt is tokenized up
    to the cue, and the model's tokens start fresh after it."""
    ids, mask = [], []
    for text, learn in segs:
        piece = tok.tokenize(text.encode(), add_bos=False, special=False)
        ids += piece
        mask += [int(learn)] * len(piece)
    return ids, mask


def data_hash(texts: list[str]) -> str:
    return hashlib.sha256("\x00".join(texts).encode()).hexdigest()


def batches(lengths: list[int], batch_tokens: int) -> list[list[int]]:
    """Group examples of similar length (little padding), each batch at most `batch_tokens` padded tokens.

    >>> batches([5, 9, 6, 2], 12)
    [[3, 0], [2], [1]]
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    out, cur = [], []
    for i in order:
        if cur and (len(cur) + 1) * lengths[i] > batch_tokens:
            out.append(cur)
            cur = []
        cur.append(i)
    return out + [cur] if cur else out


def order(plan: list[list[int]], epochs: int, seed: int, max_steps: int | None = None) -> list[list[int]]:
    """Every step's batch, fixed up front from the seed: a resumed run takes the very same batches.

    >>> order([[0], [1], [2]], epochs=2, seed=0)
    [[1], [2], [0], [1], [2], [0]]
    """
    rng, steps = random.Random(seed), []
    for _ in range(epochs):
        steps += rng.sample(plan, len(plan))
    return steps[:max_steps] if max_steps else steps


def train(texts: list[str], method: str, out: str | Path, *, base: str | Path | None = None, rank: int = 8,
          alpha: float = 16.0, lr: float = 2e-3, epochs: int = 1, batch_tokens: int = 2048, loss: str = "model",
          seed: int = 0, workdir: str | Path | None = None, save_every: int = 20, threads: int | None = None,
          meta: dict | None = None, progress: bool = True, max_steps: int | None = None,
          force: bool = False, tail: int = 1) -> dict:
    """Train one adapter on `texts` (see `training_text`) and write it to `out` (GGUF) with `out`.json provenance.

    Resumable: every `save_every` steps the adapter, the optimizer and the step are saved in `workdir`; a rerun of
    the same command with the same data continues from there. Returns the provenance dict.

    With `tail` > 1 the adapter written is the mean of the weights at `tail` steps, `save_every` apart, ending at
    the last (`checkpoint.tail_steps`), each matrix of A and of B averaged on its own: the same rank and size, at
    no extra step. Each of those steps is also a checkpoint, and its adapter stays in `workdir` (``tail-STEP.pt``,
    hashed in the checkpoint), so a resumed run averages the same weights.

    Nothing is unpickled (see `checkpoint`), and a checkpoint's settings are compared with this run's before its
    tensors are opened. An adapter that has a provenance (a shipped one) is replaced only by one trained on as much
    and ending with a loss as low, unless `force`; anything at `out` that is not an adapter is refused before
    training starts.
    """
    # torch is the optional training extra: the course imports this module without it (`world_texts`, checks)
    import torch

    from .torch_llama import TorchLlama, export_gguf, tokenizer

    if not texts:
        raise ValueError("no training texts: an adapter trained on nothing would replace a good one with noise")
    for name, value in (("rank", rank), ("epochs", epochs), ("batch_tokens", batch_tokens), ("save_every", save_every),
                        ("threads", threads or 1), ("max_steps", max_steps or 1), ("tail", tail)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number of 1 or more, not {value!r}")
    if not (lr > 0 and alpha > 0):
        raise ValueError(f"lr and alpha must be above 0, not {lr} and {alpha}")
    base = Path(base) if base else bundled_path()
    gguf_file.check_model(base)  # llama.cpp's tokenizer reads it next: a torn file would crash the process
    out = check_target(out, ours=is_adapter, what="GGUF adapter file")
    prov_path = check_target(out.with_suffix(".json"), ours=_is_provenance, what="provenance file")
    workdir = Path(workdir) if workdir else out.with_suffix(".ckpt")
    torch.manual_seed(seed)
    if threads:
        torch.set_num_threads(threads)
    tok = tokenizer(base)
    data = [encode(tok, segments(t, method, loss)) for t in texts]
    schedule = order(batches([len(ids) for ids, _ in data], batch_tokens), epochs, seed, max_steps)
    settings = dict(method=method, rank=rank, alpha=alpha, lr=lr, epochs=epochs, batch_tokens=batch_tokens,
                    loss=loss, seed=seed, steps=len(schedule), data_sha256=data_hash(texts),
                    base_sha256=file_hash(base))
    keep = checkpoint.tail_steps(len(schedule), save_every, tail) if tail > 1 else []
    if keep:  # recorded only when used, so that a plain run's settings (and its checkpoints) stay as they were
        settings["tail"] = keep
    old = refuse_weaker(out, len(texts), len(schedule), force)
    resume = checkpoint.read(workdir, settings)  # checked against the settings before the model is even loaded
    model = TorchLlama.from_gguf(base, rank=rank, alpha=alpha, seed=seed)
    opt = torch.optim.AdamW(model.lora.parameters(), lr=lr, weight_decay=0.0)
    warm = max(1, len(schedule) // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) *
                                              max(0.1, 1 - s / max(1, len(schedule))))
    state = {"step": 0, "losses": [], "seconds": 0.0, "tails": {}}
    if resume is not None:
        tensors, state = resume
        try:
            model.lora.load_state_dict(tensors["lora"])
            opt.load_state_dict(tensors["opt"])
            sched.load_state_dict(tensors["sched"])
        except (KeyError, TypeError, ValueError, RuntimeError) as e:
            raise ValueError(f"the checkpoint in {workdir} does not fit this model ({type(e).__name__}); delete "
                             f"{workdir} to restart") from None

    bf16 = torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported()
    bar = tqdm(total=len(schedule), initial=state["step"], disable=not progress, desc=f"fine-tune {method}")
    while state["step"] < len(schedule):
        started = time.perf_counter()
        batch = [data[i] for i in schedule[state["step"]]]
        width = max(len(ids) for ids, _ in batch)
        ids = torch.tensor([ids + [0] * (width - len(ids)) for ids, _ in batch])
        mask = torch.tensor([m + [0] * (width - len(m)) for _, m in batch])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):  # about twice as fast where the CPU has it
            value = model.loss(ids, mask)
        opt.zero_grad()
        value.backward()
        torch.nn.utils.clip_grad_norm_(model.lora.parameters(), 1.0)
        opt.step()
        sched.step()
        state["step"] += 1
        state["losses"].append(round(value.item(), 4))
        state["seconds"] += time.perf_counter() - started
        bar.update(1)
        bar.set_postfix(loss=f"{value.item():.3f}")
        if state["step"] % save_every == 0 or state["step"] == len(schedule) or state["step"] in keep:
            checkpoint.save(workdir, settings, state, model, opt, sched, keep)
    bar.close()
    if keep:
        checkpoint.average_tail(model, workdir, keep, state["tails"])
    late = state["losses"][-10:]
    final = round(sum(late) / max(1, len(late)), 4)
    if old and not force and isinstance(old.get("final_loss"), (int, float)) and final > old["final_loss"]:
        kept = out.with_name(f"{out.stem}.new.gguf")  # the new adapter is kept, beside, never over the better one
        export_gguf(model, kept)
        raise ValueError(f"the new adapter ends at loss {final}, worse than {out.name}'s {old['final_loss']}: "
                         f"{out.name} is kept and the new one is in {kept.name}; --force to replace it anyway")
    export_gguf(model, out)
    prov = {**settings, **(meta or {}), "examples": len(texts), "tokens": sum(len(i) for i, _ in data),
            "learned_tokens": sum(sum(m) for _, m in data), "first_loss": state["losses"][0] if late else None,
            "final_loss": final, "minutes": round(state["seconds"] / 60, 1),
            "threads": torch.get_num_threads(), "bf16": bf16, "torch": torch.__version__, "adapter": out.name,
            "adapter_sha256": file_hash(out), "losses": state["losses"]}
    write_atomic(prov_path, json.dumps(prov, indent=1) + "\n", ours=_is_provenance, what="provenance file")
    return prov


def refuse_weaker(out: Path, examples: int, steps: int | None = None, force: bool = False) -> dict | None:
    """The provenance of the adapter at `out`, if any; ValueError if the new run is smaller (fewer examples or
    steps) and would replace it with a weaker one without `force`. The CLI asks before it builds the worlds."""
    old = _provenance(Path(out).with_suffix(".json")) if Path(out).exists() else None
    if old is None or force:
        return old
    had_n, had_steps = old.get("examples"), old.get("steps")
    fewer = (isinstance(had_n, int) and examples < had_n) or (
        steps is not None and isinstance(had_steps, int) and steps < had_steps)
    if fewer:
        raise ValueError(f"{Path(out).name} was trained on {had_n} examples in {had_steps} steps; {examples} examples"
                         f"{f' in {steps} steps' if steps is not None else ''} would replace it with a weaker "
                         "adapter: give another --out, or --force")
    return old


def _provenance(path: Path) -> dict | None:
    try:
        prov = json.loads(read_text(path))
    except (OSError, ValueError, RecursionError):
        return None
    return prov if isinstance(prov, dict) else None


def _is_provenance(path: Path) -> bool:
    prov = _provenance(path)
    return prov is not None and "adapter_sha256" in prov


def world_texts(method: str, n: int, seeds=None, version: int = 1, wording: str = "trained", course: int = 0,
                course_times: int = 1, weigh: tuple = ()) -> list[str]:
    """Training text for `method` from the oracle trajectories of the training worlds (never a dev or test one).

    Questions are taken round-robin across the seeds, so that a small `n` still sees every world. `version` 1 is
    the first generator's data; `version` 2 the varied data (`world.generate(..., version=2)`); `version` 3 the same
    questions as 2 with each check written out before its verdict (`training_set.oracle_trajectories`). A shipped
    adapter's provenance names its version and hashes its data. Only the trained wordings may be learned: any other
    is refused.
    `course` > 0 adds the first `course` hand-written questions over the course corpus (`course_data`, natural
    prose from articles the course's test does not use) after the world ones; 0, the default, adds nothing, so
    the shipped adapters' data stays the same bytes. `course_times` > 1 weighs the prose up: each of those
    questions comes that many times, each time in other thoughts (`course_oracle.oracle`'s variants).
    `weigh`, pairs (shape, k), multiplies those shapes' share of the `n` world questions by k (see `pick`).
    """
    texts = [training_text(t, method) for t in oracle_trajectories(n, tuple(seeds or ()), version, wording,
                                                                    tuple(weigh))]
    return texts + course_texts(method, course, course_times)


def course_texts(method: str, k: int, times: int = 1) -> list[str]:
    """Training text for `method` from the first `k` course-corpus questions (see `course_data`), `times` times
    over: variant 0 of all `k`, then variant 1, and so on.

    >>> course_texts("standard", 1)
    ['Question: Which country won the first FIFA World Cup in 1930?\\nAnswer: Uruguay\\n']
    >>> a, b = course_texts("react", 1, times=2)
    >>> a.splitlines()[:1] == b.splitlines()[:1], a != b
    (True, True)
    """
    for name, value, least in (("course", k, 0), ("course_times", times, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number >= {least}, not {value!r}")
    if not k:
        return []
    n = len(course_data.questions("train"))  # loaded and checked once; the oracle runs only for the variants read
    if k > n:
        raise ValueError(f"course asks for {k} questions; the course-corpus set has {n} (its training split)")
    return [training_text(t, method) for v in range(times) for t in course_oracle.trajectories("train", v)[:k]]
