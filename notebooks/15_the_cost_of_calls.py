# %% [markdown]
# # 15 · The cost of calls
#
# In this notebook you will
# - count what text ReAct costs: one model call per step, each over a prompt that only grows;
# - see how much of that a key-value cache (or an API's prompt caching) turns into reuse;
# - measure what tool calling removes (the exemplars) and what it keeps (one call per action).

# %%
from statistics import mean

from react_teach import check
from react_teach.data import data_dir, load_exemplars, read_jsonl

# %% [markdown]
# ## 1. Calls and tokens per question
#
# A text-ReAct trajectory that takes N tool actions and then answers costs N + 1 model calls, plus one more for
# every re-prompt (notebook "the stop token"). Every call sends the instruction, the six exemplars, the question and
# all the steps so far, so the prompt grows at every step and the exemplars are read again every time. The one-call
# methods pay once: Standard and CoT make one call. CoT-SC makes one *request* that asks for 21 samples of the same
# prompt: the run counts it as one call, but its usage counts the prompt once per sample, so its *prompt* column is
# about 21 times CoT's. A local backend reads that prompt once and samples 21 times, which is why nearly all of it
# is *cached*; an API that bills per sample charges all 21.
#
# **Predict first** (exercise 3). A text-ReAct trajectory searches twice and then answers; in step 2 the model
# writes its thought but no action line, so the harness asks again for the action alone. How many model calls is
# that? Write your number before you run the next cell.

# %%
from react_teach import exercises
from react_teach.checks.the_cost_of_calls import SCRIPT, scripted_calls

ex = exercises.of("the_cost_of_calls")
my_calls = ...  # your prediction: a whole number of model calls

# %%
print(f"{scripted_calls()} model calls for {len(SCRIPT)} completions")
ex[3](my_calls)

# %% [markdown]
#
# Below, the committed runs of the course, whichever methods are in `data/runs/` at the moment, averaged per
# question. *cached* counts prompt tokens whose key-value state the local backend reused from an earlier call
# instead of computing again; *computed* is the rest.

# %%
files = sorted((data_dir() / "runs").glob("hotpotqa_*.jsonl"))
runs = {f.stem.removeprefix("hotpotqa_"): read_jsonl(f) for f in files}
runs = {method: rows for method, rows in runs.items() if rows}  # a run that has only just started has no rows


def cost_row(name, rows):
    """Per-question means of one run: steps, calls, prompt / cached / computed / completion tokens."""
    n = len(rows)
    steps, calls = sum(len(r["steps"]) for r in rows) / n, sum(r["n_calls"] for r in rows) / n
    prompt = sum(r["usage"]["prompt_tokens"] for r in rows) / n
    cached = sum(r["usage"]["cached_tokens"] for r in rows) / n
    completion = sum(r["usage"]["completion_tokens"] for r in rows) / n
    share = f"{cached / prompt:.0%}" if prompt else "-"
    return (f"{name:14} {n:>4} {steps:>6.1f} {calls:>6.1f} {prompt:>9,.0f} {prompt / calls:>9,.0f} {cached:>9,.0f} "
            f"{prompt - cached:>9,.0f} {completion:>10,.0f} {share:>6}")


print(f"{'method':14} {'n':>4} {'steps':>6} {'calls':>6} {'prompt':>9} {'per call':>9} {'cached':>9} "
      f"{'computed':>9} {'completion':>10} {'cache':>6}")
for method, rows in runs.items():
    print(cost_row(method, rows))

# %%
# NBVAL_CHECK_OUTPUT
if "cot-sc" in runs:  # the sentence above on CoT-SC: one call, and its prompt counted once per sample
    sc = runs["cot-sc"]
    check(all(r["n_calls"] == 1 and r["usage"]["prompt_tokens"] % len(r["samples"]) == 0 for r in sc),
          "CoT-SC: one call per question, its prompt tokens a whole multiple of its samples")
    check(all(len(r["samples"]) == 21 for r in sc), "CoT-SC: 21 samples per question")
    if "cot" in runs:
        ratio = mean(r["usage"]["prompt_tokens"] for r in sc) / mean(r["usage"]["prompt_tokens"] for r in runs["cot"])
        check(20 <= ratio <= 22, "CoT-SC: its prompt column about 21 times CoT's")
    check(sum(r["usage"]["cached_tokens"] for r in sc) >= 0.9 * sum(r["usage"]["prompt_tokens"] for r in sc),
          "CoT-SC: nearly all of its prompt tokens cached")
check(all(r["n_calls"] == 1 for m in ("standard", "cot") for r in runs.get(m, [])), "Standard and CoT: one call each")

# %% [markdown]
# Read the *per call* column first: the prompt of a single text-ReAct call is already thousands of tokens, nearly
# all of it exemplars, and the *prompt* column multiplies it by the number of calls. The *cache* column is what
# makes that affordable locally: almost all of each call's prompt was already read by the call before it. Hosted
# APIs offer the same idea as *prompt caching*, billing a reused prefix at a discount, and it works only if the
# prompt grows by appending. Text ReAct's prompt does exactly that.

# %%
# NBVAL_CHECK_OUTPUT
react = runs["react"]
per_call = sum(r["usage"]["prompt_tokens"] for r in react) / sum(r["n_calls"] for r in react)
check(per_call >= 2000, "text ReAct: thousands of prompt tokens per call")
check(sum(r["usage"]["cached_tokens"] for r in react) >= 0.9 * sum(r["usage"]["prompt_tokens"] for r in react),
      "text ReAct: almost all of its prompt tokens cached")

# %% [markdown]
# ## 2. What tool calling removes
#
# A tool-calling request carries the tool list and the conversation, and no exemplars. Count the first request of
# each kind with the bundled model's tokenizer (only its vocabulary is loaded: this takes a second): text ReAct's
# first call for a question, and the first request `local_chat` (notebook "tool calling") builds for the same one.

# %%
import json

from llama_cpp import Llama

from react_teach.ablate import INSTRUCTIONS, prompt
from react_teach.tools.calling import SYSTEM, TOOLS
from react_teach.llm import bundled_path

vocab = Llama(model_path=str(bundled_path()), vocab_only=True, verbose=False)


def tokens(text):
    return len(vocab.tokenize(text.encode("utf-8"), add_bos=False))


question = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")[0]["question"]
text_react = prompt("react") + f"Question: {question}\nThought 1:"
listing = "\n".join(f"- {t['function']['name']}: {t['function']['description']}" for t in TOOLS)
tool_request = (f"<|im_start|>system\n{SYSTEM}\nTools:\n{listing}\nReply with one JSON tool call.<|im_end|>\n"
                f"<|im_start|>user\n{question}<|im_end|>\n<|im_start|>assistant\n")
first = {"text ReAct": tokens(text_react), "tool calling": tokens(tool_request)}
first

# %% [markdown]
# Both prompts then grow by the same steps: an action and its observation per call. Tool calling did not remove
# the N + 1 calls: each call still returns one action, and the model needs to see its result before it writes the
# next. What it removed is the exemplars. Later systems attack the calls themselves: LLMCompiler, for one, plans
# several calls at once and runs the independent ones in parallel.
#
# ## Summary
# - Text ReAct makes N + 1 calls for N actions, each over a growing prompt that re-reads the exemplars.
# - A KV cache (or an API's prompt caching) turns most of that reading into reuse, because the prompt only grows by
#   appending.
# - Tool calling drops the exemplars from every call but keeps one call per action.
#
# ## Exercises
#
# Each exercise prints ✓, or ✗ with a hint, or "not yet" while the answer is still `...`. Reference solutions are
# in `notebooks/solutions/`.
#
# 1. **A hundred questions.** From the ReAct run (`runs["react"]`), estimate how many prompt tokens 100 text-ReAct
#    questions send to the model.

# %%
hundred = ...  # your answer
ex[1](hundred)

# %% [markdown]
# 2. **What the cache saves.** What fraction of the ReAct run's prompt tokens did the local model actually compute
#    (the rest it took from its cache)? A model without a KV cache computes all of them.

# %%
computed_share = ...  # your answer, a fraction
ex[2](computed_share)

# %% [markdown]
# 3. **How many calls**: your prediction in section 1.

# %%
# NBVAL_CHECK_OUTPUT
check(all(r["n_calls"] >= len(r["steps"]) for r in runs["react"]), "text ReAct never makes fewer calls than steps")
check(first["tool calling"] < first["text ReAct"], "a tool-calling request is shorter than a text-ReAct call")
check(len(load_exemplars("hotpotqa")) == 6, "text ReAct's prompt carries six exemplars")
exemplar_tokens = tokens(prompt("react")) - tokens(INSTRUCTIONS["hotpotqa"])
check(exemplar_tokens >= 0.8 * per_call, "nearly all of a text-ReAct call's prompt is exemplars (section 1)")
