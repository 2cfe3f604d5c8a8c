# %% [markdown]
# # 01 · The bare loop
#
# In this notebook you will
# - write an agent loop in a dozen lines: a policy, a tool, and a context that only grows;
# - play the model yourself, one line at a time;
# - add a *thought*: an action that changes nothing in the world and only adds to the context;
# - hand the pen to the bundled model and watch what a 135M-parameter model does with it.
#
# The paper's formal setting (section 2): at step $t$ the agent has seen the context
# $c_t = (o_1, a_1, \dots, a_{t-1}, o_t)$ and picks an action $a_t \sim \pi(a_t \mid c_t)$. With a language model
# as the policy, the context *is* the prompt: text in, one more line out.

# %% [markdown]
# ## A tiny world
#
# Two tools over a few facts. Each takes one argument in square brackets, the way the paper writes actions.

# %%
from react_teach import check, llm

COUNTRY_OF = {"Tokyo": "Japan", "Paris": "France", "Rome": "Italy", "Ottawa": "Canada"}
CONTINENT = {"Japan": "Asia", "France": "Europe", "Italy": "Europe", "Canada": "North America"}


def tool(action: str) -> str:
    """The environment: read an action, answer with an observation (always a string, never an exception)."""
    name, _, arg = action.partition("[")
    arg = arg.removesuffix("]")
    if name == "country_of":
        return COUNTRY_OF.get(arg, f"No city called {arg}.")
    if name == "continent":
        return CONTINENT.get(arg, f"No country called {arg}.")
    if name == "finish":
        return "Episode finished."
    return f"Invalid action: {action}"


# NBVAL_CHECK_OUTPUT
tool("country_of[Tokyo]"), tool("continent[Mars]"), tool("fly[home]")

# %% [markdown]
# ## The loop
#
# The policy reads the context and writes the next action. The environment answers. Both lines are appended, and
# the loop goes round again. That is all an agent is.

# %%
def bare_loop(question: str, policy, max_steps: int = 5) -> str:
    context = f"Question: {question}\n"
    for t in range(1, max_steps + 1):
        action = policy(context + f"Action {t}:")  # a_t ~ pi(a_t | c_t)
        observation = tool(action)  # o_{t+1}, written by the world, not by the policy
        context += f"Action {t}: {action}\nObservation {t}: {observation}\n"
        if action.startswith("finish["):
            break
    return context


# %% [markdown]
# ## You are the model
#
# The `script` backend answers each call with the next line you wrote. Here are three moves that answer the
# question; the harness cuts each at the stop sequence `"\n"`, exactly as it would cut a real model.

# %%
me = llm.from_spec("script:", completions=[" country_of[Tokyo]", " continent[Japan]", " finish[Asia]"])


def policy_of(model):
    return lambda context: model.complete(context, stop=["\n"])[0].text.strip()


# NBVAL_CHECK_OUTPUT
print(bare_loop("On which continent is the country whose capital is Tokyo?", policy_of(me)))

# %% [markdown]
# ## A thought is an action without an observation
#
# ReAct widens the action space with language: $\hat{A} = A \cup L$. An action in $L$ is a thought. It calls no
# tool and the world does not answer; the only thing that changes is the context, $c_{t+1} = (c_t, \hat{a}_t)$.
# In the loop that is one `if`: a thought is appended and the loop goes on without calling the tool.

# %%
def loop_with_thoughts(question: str, policy, max_steps: int = 6) -> str:
    context = f"Question: {question}\n"
    for t in range(1, max_steps + 1):
        line = policy(context)
        if line.startswith("Thought:"):
            context += line + "\n"  # nothing happens in the world; the context grows by one line
            continue
        action = line.removeprefix("Action:").strip()
        context += f"Action: {action}\nObservation: {tool(action)}\n"
        if action.startswith("finish["):
            break
    return context


me = llm.from_spec("script:", completions=[
    "Thought: Tokyo is a capital, so first I need its country, then that country's continent.",
    "Action: country_of[Tokyo]", "Action: continent[Japan]",
    "Thought: Japan is in Asia, so the answer is Asia.", "Action: finish[Asia]"])
# NBVAL_CHECK_OUTPUT
print(loop_with_thoughts("On which continent is the country whose capital is Tokyo?", policy_of(me)))

# %% [markdown]
# The thought cost a model call and produced no observation. What it bought is a plan written into the context,
# which every later step can read. Whether that helps depends on the model reading it: that is the paper's bet.

# %% [markdown]
# ## Now the bundled model plays
#
# We give the model one worked example (a *few-shot* prompt) and the same loop. It sees the example, then the new
# question, and must write each action. A 135M-parameter model is small: read what it does, whatever it is.

# %%
example = ("Question: On which continent is the country whose capital is Paris?\n"
           "Action 1: country_of[Paris]\nObservation 1: France\n"
           "Action 2: continent[France]\nObservation 2: Europe\n"
           "Action 3: finish[Europe]\nObservation 3: Episode finished.\n")
model = llm.default()


def few_shot(context: str) -> str:
    return model.complete(example + context, stop=["\n"], max_tokens=30)[0].text.strip()


trace = bare_loop("On which continent is the country whose capital is Ottawa?", few_shot)
print(trace)

# %% [markdown]
# Whatever the model wrote, the *loop* did its job: every observation above came from `tool`, never from the
# model, and the loop ended at `finish` or at the step limit. Getting the *policy* right is the model's job, and
# the rest of the course is about how the prompt, the tool and the harness help or hinder it.
#
# The loop now lives in `react_teach.agent.Agent`, with the paper's exact prompt format, its tool, and a way to
# step through it one line at a time.

# %% [markdown]
# ## Summary
# - An agent is a loop: a policy reads the context and writes an action; the environment writes an observation.
# - With a language model, the context is the prompt, and it only grows.
# - A thought is an action in language: no tool runs, no observation comes back, the context grows by one line.
#
# ## Exercises
# 1. Play the model badly: script a move `fly[Tokyo]`. What does the loop append? Does it crash?
# 2. Give `bare_loop` a policy that never says `finish`. What stops it?
# 3. Add a third tool, `capital_of[country]`, and a question that needs it.

# %%
# NBVAL_CHECK_OUTPUT
bad = llm.from_spec("script:", completions=[" fly[Tokyo]"] * 3)
run = bare_loop("Where?", policy_of(bad), max_steps=3)
check("Invalid action: fly[Tokyo]" in run, "a bad action becomes an observation, not an exception")
check(run.count("\nAction") + run.startswith("Action") == 3, "the step limit ends a loop that never finishes")
