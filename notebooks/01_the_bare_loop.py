# %% [markdown]
# # 01 · The bare loop
#
# In this notebook you will
# - write an agent loop in under a dozen lines: a policy, a tool, and a context that only grows;
# - play the model yourself: read the context, type the next move, read what the tool answers;
# - add a *thought*: an action that changes nothing in the world and only adds to the context;
# - swap seats and play the environment, writing the observations a model reads;
# - hand the pen to the bundled model, then check that the course's `Agent` runs exactly the loop you wrote.
#
# The paper's formal setting (section 2): at step $t$ the agent has seen the context
# $c_t = (o_1, a_1, \dots, a_{t-1}, o_t)$ and picks an action $a_t \sim \pi(a_t \mid c_t)$. With a language model
# as the policy, the context *is* the prompt: text in, one more line out.

# %% [markdown]
# ## 1. A tiny world
#
# Two tools over a few facts. Each takes one argument in square brackets, the way the paper writes actions.

# %%
import re

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
# ## 2. The loop
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
# ## 3. You are the model, with moves written in advance
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
# Those moves were fixed before the loop started: the script never read an observation. That is an *open* loop,
# and it only works because we knew every answer in advance. A policy earns its name by reading the context.
#
# ## 4. You are the policy
#
# Below, the context is on screen and the pen is yours. Type the next line and press **Send**: an action such as
# `country_of[Ottawa]` is answered by `tool`, a line that starts with `Thought:` is only appended. Finish with
# `finish[...]`. Orange lines are yours to write, green ones the world's (across the course, blue marks what a
# model wrote, green the environment and orange you).
#
# The cell plays two moves for you, so that it runs unattended; delete the `.play([...])` to start from nothing.

# %%
from react_teach.ui.seats import EnvironmentSeat, PolicySeat

seat = PolicySeat("On which continent is the country whose capital is Ottawa?", tool)
seat.play(["Thought: Ottawa is a capital; its country first, then that country's continent.",
           "country_of[Ottawa]"])  # the scripted default: delete this line and play yourself
seat

# %% [markdown]
# Whatever you typed, the context is plain text that only grows. (The widget above is live only in a running
# notebook; this cell prints the text it holds.)

# %%
print(seat.context)

# %% [markdown]
# ## 5. A thought is an action without an observation
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
# ## 6. You are the environment
#
# Now swap seats. The model writes each action (here a scripted one, so the cell runs anywhere) and you write the
# observation it will read. Nothing forces you to tell the truth: the model cannot tell your line from a tool's.

# %%
actor = llm.from_spec("script:", completions=[" country_of[Ottawa]", " continent[Canada]", " finish[North America]"])
world = EnvironmentSeat("On which continent is the country whose capital is Ottawa?", actor)
world.play(["Canada", "North America"])  # the scripted default: delete this line and answer yourself
print(world.context)

# %% [markdown]
# With a real model the next action depends on what you wrote. Try
# `EnvironmentSeat(question, llm.default(), prefix=example)` after the next section has defined `example`, and
# answer `continent[Canada]` with `Asia`: does the model finish with your lie? That is why, in ReAct, the harness
# and never the model writes the observation (notebook 04).

# %% [markdown]
# ## 7. Now the bundled model plays
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

# %%
# NBVAL_CHECK_OUTPUT
pairs = re.findall(r"^Action \d+: (.*)\nObservation \d+: (.*)$", trace, re.MULTILINE)
check(all(o == tool(a) for a, o in pairs), "every observation above is what `tool` answers to its action")
check(pairs[-1][0].startswith("finish[") or len(pairs) == 5, "the loop ended at finish or at the step limit")

# %% [markdown]
# Whatever the model wrote, the *loop* did its job: every observation above came from `tool`, never from the
# model, and the loop ended at `finish` or at the step limit. Getting the *policy* right is the model's job, and
# the rest of the course is about how the prompt, the tool and the harness help or hinder it.

# %% [markdown]
# ## 8. The same loop, from the module
#
# The loop now lives in `react_teach.agent.Agent`, with the paper's exact prompt format, its tool, and a way to
# step through it one line at a time. `Agent` takes any environment with a `step(action)` method that returns the
# observation and whether the episode is over. Give it our tiny world, the Act format (no thoughts) and the same
# scripted moves, and record every prompt each loop sends to the model: the two loops should be indistinguishable.

# %%
from react_teach.agent import Agent


class TinyWorld:
    """`tool` as an environment: an observation, and whether the episode is over."""
    answer = None

    def step(self, action):
        if action.startswith("finish["):
            self.answer = action[len("finish["):-1]
        return tool(action), action.startswith("finish[")

    def reset(self):
        self.answer = None


moves = [" country_of[Rome]", " continent[Italy]", " finish[Europe]"]
question = "On which continent is the country whose capital is Rome?"
ours = llm.Recorder(llm.from_spec("script:", completions=moves))
theirs = llm.Recorder(llm.from_spec("script:", completions=moves))
mine = bare_loop(question, policy_of(ours))
agent = Agent(question, llm=theirs, env=TinyWorld(), method="act", prefix="")
module = agent.run().render()
# NBVAL_CHECK_OUTPUT
check(mine == module, "bare_loop and Agent write the same context")
check([p for p, _ in ours.requests] == [p for p, _ in theirs.requests], "and send the model the same prompts")
agent.trajectory.answer

# %% [markdown]
# One difference hides in the stop: `bare_loop` stops the model at `"\n"`, `Agent` at `"\nObservation i:"` and
# then keeps the action's first line, which is the same thing for a one-line move. For the two-line moves of ReAct
# (a thought, then an action) that difference is the whole story of notebook 04.

# %% [markdown]
# ## Summary
# - An agent is a loop: a policy reads the context and writes an action; the environment writes an observation.
# - With a language model, the context is the prompt, and it only grows.
# - A policy reads its observations before it acts (closed loop); moves fixed in advance are not a policy.
# - A thought is an action in language: no tool runs, no observation comes back, the context grows by one line.
# - The model cannot tell who wrote an observation, which is why the environment's seat is never the model's.
#
# ## Exercises
# Each exercise ends with a checker: `✓` when your answer is right, `✗` and a hint when it is not, `not yet` while
# the `...` is still there.

# %%
from react_teach import exercises

ex = exercises.of("the_bare_loop")

# %% [markdown]
# **1.** Write a policy that *reads*: `my_policy(context)` gets the context so far (it ends with `Action t:`) and
# returns the next action. It must answer "On which continent is the country whose capital is X?" for any city
# in `COUNTRY_OF`, in three actions. The checker runs it in `bare_loop` on four cities, then on the same cities in
# a world whose facts differ from `COUNTRY_OF` and `CONTINENT`: only a policy that reads its observations passes.

# %%
def my_policy(context: str) -> str:
    ...  # your code here: find the city in the question, then read the Observation lines


ex[1](my_policy)

# %% [markdown]
# **2.** Add a third tool, `capital_of[country]`, to a copy of `tool`: `capital_of[Japan]` answers `Tokyo`, an
# unknown country answers a message that names it, and every other action answers as before.

# %%
def my_tool(action: str) -> str:
    ...  # your code here


ex[2](my_tool)

# %% [markdown]
# **3.** You are the environment. The model wrote these five actions, in order: `country_of[Rome]`,
# `continent[Italy]`, `fly[Rome]`, `continent[Mars]`, `finish[Europe]`. Write the observation `tool` would return
# for each, to the letter.

# %%
my_observations = [..., ..., ..., ..., ...]

ex[3](my_observations)

# %% [markdown]
# **4.** Give `bare_loop` a policy that never says `finish`. What stops it, and what would stop it if `max_steps`
# were gone?
