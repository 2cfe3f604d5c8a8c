# %% [markdown]
# # 04 · The stop token
#
# In this notebook you will
# - let a real model write past its Thought and Action, and read the Observation it invents;
# - write one ReAct step yourself: stop, split, and re-prompt when the action line is missing;
# - check that the course's `Agent` does exactly what you wrote, then run it on the bundled model;
# - measure format adherence step by step over the course questions, and the cost of N+1 calls for N steps.
#
# A language model continues text. The ReAct prompt is a transcript in which `Observation` lines follow every
# `Action` line, so a model that has just written an action will happily write the observation too. It has not
# searched anything: the observation is invented. The official code prevents this with a stop sequence.

# %%
from react_teach import ablate, check, llm
from react_teach.agent import Agent
from react_teach.wiki import LocalWiki

model = llm.default()
wiki = LocalWiki.course()
prefix = ablate.prompt("react")  # our instruction and six exemplars, in the paper's format
APPLE = ("Aside from the Apple Remote, what other device can control the program Apple Remote was originally "
         "designed to interact with?")
print(prefix[:700], "...")

# %% [markdown]
# ## 1. Without the stop sequence
#
# `use_stop=False` calls the model on `prompt + "Thought 1:"` with no stop and twice the usual token budget. The
# harness then cuts the text where `Observation 1:` begins, and keeps what came after it as `invented`.

# %%
agent = Agent(APPLE, llm=model, wiki=wiki, prefix=prefix, use_stop=False)
step = agent.step()
print("MODEL     Thought 1:", step.thought)
print("MODEL     Action 1:", step.action)
print("MODEL     invented Observation 1:", step.invented if step.invented is not None else "(none this time)")
print("ENVIRONMENT  Observation 1:", step.observation)
check(step.invented is not None, "the model wrote an Observation 1 of its own")

# %% [markdown]
# Compare the two observations. The model's is written in the tool's voice, but nothing was looked up, and it does
# not stop at one: the model goes on writing the steps after it as well. It is the "hallucination" the paper's
# Table 2 counts for CoT, arriving here through the back door. Left in the prompt, every later step would build
# on it.

# %% [markdown]
# ## 2. Stop, split, re-prompt: one step in plain code
#
# The official loop calls the model on `prompt + f"Thought {i}:"` with `stop=[f"\nObservation {i}:"]`, so the
# model never gets to write an observation. It splits the text on `f"\nAction {i}: "`. When that split does not
# give exactly two parts (no action line, or two of them), it counts a *bad call*, keeps the first line as the
# thought, and asks again on `... Thought i: {thought}\nAction i:` with the stop `"\n"`, for the action alone.

# %%
def think_act(prompt: str, i: int, model) -> tuple[str, str, bool]:
    """One step's thought and action, and whether the re-prompt was needed."""
    text = model.complete(prompt + f"Thought {i}:", stop=[f"\nObservation {i}:"], max_tokens=100)[0].text
    parts = text.strip().split(f"\nAction {i}: ")
    if len(parts) == 2:
        return parts[0].strip(), parts[1].strip(), False
    thought = text.strip().split("\n")[0].strip()
    again = model.complete(prompt + f"Thought {i}: {thought}\nAction {i}:", stop=["\n"], max_tokens=100)[0]
    return thought, again.text.strip(), True


# %% [markdown]
# The loop around it is notebook 01's: run the action (its first letter lower-cased, `Search[x]` becomes
# `search[x]`, as the official harness does), append the three lines, stop at `finish` or after seven steps.

# %%
from react_teach.wiki import WikiEnv


def my_react(question: str, model, prefix: str = "", max_steps: int = 7) -> tuple[str, int]:
    env, context, bad = WikiEnv(wiki), f"Question: {question}\n", 0
    for i in range(1, max_steps + 1):
        thought, action, reprompted = think_act(prefix + context, i, model)
        bad += reprompted
        observation, done = env.step(action[:1].lower() + action[1:])
        context += f"Thought {i}: {thought}\nAction {i}: {action}\nObservation {i}: {observation}\n"
        if done:
            break
    return context, bad


# %% [markdown]
# Play the model with a script whose first move invents an observation, whose second forgets the action line, and
# whose last finishes. Then give the same script to `react_teach.agent.Agent`, record the prompts both loops send,
# and compare.

# %%
moves = [" I need to find the program the Apple Remote was made for.\nAction 1: Search[Apple Remote]\n"
         "Observation 1: The Apple Remote controls Front Row.",
         " It was made for Front Row. Its keys may be the answer.", " Search[Front Row (software)]",
         " Front Row can also be controlled by the keyboard function keys.\nAction 3: Finish[keyboard function keys]"]
ours, theirs = llm.Recorder(llm.from_spec("script:", completions=moves)), \
    llm.Recorder(llm.from_spec("script:", completions=moves))
mine, bad = my_react(APPLE, ours)
module = Agent(APPLE, llm=theirs, wiki=wiki, prefix="").run()
print(mine)
# NBVAL_CHECK_OUTPUT
check(mine == module.render(), "think_act + my_react write the context Agent writes")
check([(p, kw["stop"]) for p, kw in ours.requests] == [(p, kw["stop"]) for p, kw in theirs.requests],
      "with the same prompts and the same stops, call for call")
check((bad, len(ours.requests)) == (module.n_badcalls, module.n_calls), "and count the same bad calls")

# %% [markdown]
# The invented `Observation 1` never reached the context: the stop cut it off, and the tool wrote the real one.
# From here on the course uses `Agent`, which adds what a person needs around the same step: pausing between
# thought and observation, editing a thought (notebook 10), and `use_stop=False`, the teaching mode of section 1.

# %% [markdown]
# ## 3. With the stop sequence, on the bundled model
#
# The same step, on the real model: the harness stops it, and every observation is the tool's.

# %%
agent = Agent(APPLE, llm=model, wiki=wiki, prefix=prefix)
trace = agent.run()
print(trace.render())
print("answer:", repr(trace.answer), "| calls:", trace.n_calls, "| bad calls:", trace.n_badcalls)

# %% [markdown]
# Whether this tiny model reaches the right answer (the keyboard function keys) or not, every `Observation` line
# above came from the tool. Its failures are now *honest* failures: wrong searches, loops, early finishes, which
# notebook 09 counts.
#
# The same cell on a capable model is one change: `model = llm.from_spec("openai:gpt-4o-mini")` (with
# `OPENAI_API_KEY` set) or `llm.from_spec("openai-compatible:http://localhost:11434/v1#llama3.1")` for Ollama.

# %% [markdown]
# ## 4. The re-prompt, exactly
#
# Here you play the model to see the exact prompts of a step whose first call writes no action line.

# %%
me = llm.Recorder(llm.from_spec("script:", completions=[
    " I need to find the program the Apple Remote was made for.", " Search[Apple Remote]",
    " It was made for Front Row.\nAction 2: Finish[Front Row]"]))
agent = Agent(APPLE, llm=me, wiki=wiki, prefix="")
t = agent.run()
# NBVAL_CHECK_OUTPUT
[(p[-60:], kw["stop"]) for p, kw in me.requests[:2]], (t.n_calls, t.n_badcalls)

# %% [markdown]
# ## 5. Format adherence, step by step
#
# One might expect a model to follow the format better as the trajectory grows, since each step adds one more
# example of the pattern to its context (the paper does not measure this). Does our small model? The cell below
# reads the committed run of ReAct on the course's run sample (40 HotpotQA questions, none about an exemplar's
# subject), made with
# `python -m react_teach run --method react --sample --llm local --out data/runs/hotpotqa_react.jsonl` on the
# bundled model (2 cores), and counts, at each step number, the share of steps that needed no re-prompt.

# %%
import matplotlib.pyplot as plt

from react_teach.data import data_dir, read_jsonl
from react_teach.runs.stats import model_of

rows = read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")
reached = [sum(len(r["steps"]) >= i for r in rows) for i in range(1, 8)]
clean = [sum(len(r["steps"]) >= i and i not in r.get("bad_steps", []) for r in rows) for i in range(1, 8)]
adherence = [c / n if n else float("nan") for c, n in zip(clean, reached)]
fig, ax = plt.subplots(figsize=(6, 3))
ax.bar(range(1, 8), [100 * a for a in adherence], color="#1f5fa8")
for i, n in enumerate(reached, 1):
    ax.text(i, 2, f"n={n}", ha="center", color="white", fontsize=8)
ax.set_xlabel("step number")
ax.set_ylabel("steps with an action line (%)")
ax.set_title(f"Format adherence by step, {model_of(data_dir() / 'runs' / 'hotpotqa_react.jsonl')}, "
             f"{len(rows)} questions")
plt.show()
# NBVAL_CHECK_OUTPUT
print("steps with an action line, by step:", ", ".join(f"{i}: {a:.0%} (n={n})"
                                                       for i, (a, n) in enumerate(zip(adherence, reached), 1)))
check(len(rows) == 40, "the run covers the 40 questions of the run sample")
low = adherence.index(min(adherence[1:])) + 1
check(adherence[1] < adherence[0] and low == 4, "adherence falls after step 1, to its lowest at step 4")
check(all(a > adherence[3] for a in adherence[4:]) and max(reached[4:]) < 10,
      "steps 5 to 7 are all above step 4, on fewer than ten trajectories each")

# %% [markdown]
# The answer is no steady rise. The share printed above falls after step 1, to its lowest at step 4, and only
# then climbs back. Read the bars with their counts: few trajectories reach steps 5 to 7, and the ones that do are
# the ones that kept going, so the rise at the end reflects who survives at least as much as what the model learnt
# from its own context.

# %% [markdown]
# ## 6. The cost of N+1 calls
#
# Every step is a model call, plus one more whenever the re-prompt fires, and each call re-reads a prompt that
# only grows. The local backend reuses its key-value cache for the part of the prompt it has already read.

# %%
steps = sum(len(r["steps"]) for r in rows)
calls = sum(r["n_calls"] for r in rows)
prompt_tokens = sum(r["usage"]["prompt_tokens"] for r in rows)
cached = sum(r["usage"]["cached_tokens"] for r in rows)
print(f"{steps} steps, {calls} model calls ({calls / steps:.2f} calls per step)")
print(f"{prompt_tokens:,} prompt tokens read, {cached:,} of them reused from the cache "
      f"({(prompt_tokens - cached) / prompt_tokens:.1%} actually computed)")
check(calls == steps + sum(r["n_badcalls"] for r in rows), "one call per step, plus one per re-prompt")

# %% [markdown]
# The loop now lives in `react_teach.agent.Agent` (`use_stop=False` is the teaching mode you used above). To read
# it whole, open `react_teach.agent.react`: the paper's loop, stop and re-ask included, in one screen of about 30
# lines, in the style of the official `webthink`. A test pins it to `Agent`, call for call.
#
# ## Summary
# - Without a stop sequence a model writes its own observations: invented, fluent, and wrong in ways you cannot see.
# - `stop=["\nObservation i:"]` hands control to the harness, which writes the real observation.
# - When the model writes no action line, the official code re-prompts for the action alone and counts a bad call.
# - Text ReAct costs at least one model call per step, each over a growing prompt; a KV cache makes that affordable.
#
# ## Exercises
# Each exercise ends with a checker: `✓` when your answer is right, `✗` and a hint when it is not, `not yet` while
# the `...` is still there.

# %%
from react_teach import exercises

ex = exercises.of("the_stop_token")

# %% [markdown]
# **1.** Write `my_stop(i)`, the stop list for step `i`. The checker feeds it continuations in which the model
# writes past its action: the thought and the action must survive, the invented observation must not. Why is
# `["Observation"]` not enough, and why not `["\n"]`?

# %%
def my_stop(i: int) -> list[str]:
    ...  # your code here


ex[1](my_stop)

# %% [markdown]
# **2.** Predict, then run: a script whose first completion writes *two* `Action 1:` lines, on a one-step agent.
# How many model calls, and how many bad calls? Answer with the pair `(calls, bad_calls)`.
#
# ```python
# two = llm.from_spec("script:", completions=[" a\nAction 1: Search[X]\nAction 1: Search[Y]", " Search[X]"])
# t = Agent("Q?", llm=two, wiki=wiki, prefix="", max_steps=1).run()
# ```

# %%
my_counts = (..., ...)

ex[2](my_counts)

# %% [markdown]
# **3.** The paper's footnote: among *correct* ReAct trajectories, 0.84% used all 7 steps. That is P(7 steps |
# correct), not P(correct | 7 steps). Compute the same quantity's two counts from `rows`: how many trajectories are
# correct (`em`), and how many of those used all seven steps?

# %%
my_seven = (..., ...)  # (correct runs, correct runs that used all seven steps)

ex[3](my_seven)

# %% [markdown]
# **4.** Run the no-stop cell of section 1 on another question from `react_teach.data.load_questions()`. Is the
# invented observation ever right?
