# %% [markdown]
# # 13 · Tool calling
#
# In this notebook you will
# - describe the weak Wikipedia as JSON tool schemas, and play a tool-calling model yourself;
# - run the bundled model through the same loop with structured tool calls instead of `Action i:` lines (same tool,
#   same budget of seven actions), with a grammar standing in for a tool-calling API;
# - compare its trajectories with text ReAct side by side, and name the failure modes that survive the change.
#
# The pattern from the paper spread quickly, and much of it has since moved out of the prompt: model APIs now return
# tool calls as data. This notebook shows that the loop you built in the notebooks "the bare loop" and "the stop
# token" is still there underneath.

# %%
import json

from IPython.display import HTML

from react_teach import check
from react_teach.tools.calling import TOOLS, local_chat, tool_calling, trained_chat
from react_teach.data import data_dir, load_exemplars, load_questions, read_jsonl
from react_teach.llm import Usage
from react_teach.trajectory import Trajectory
from react_teach.ui.trace import LEGEND, trace_html
from react_teach.wiki import LocalWiki

wiki = LocalWiki.course()
questions = {q["id"]: q for q in load_questions("hotpotqa")}

# %% [markdown]
# ## 1. Tools as JSON schemas
#
# In text ReAct the model writes `Action 3: Search[Front Row (software)]` and the harness finds the action by
# splitting the text. A tool-calling API moves that parsing to the other side. You send the tools as JSON schemas
# beside the messages, the model answers with a structured call (a function name and its arguments as JSON), you run
# the call, and you send the result back as a message whose role is `tool`. Here is our weak Wikipedia described
# that way:

# %%
# NBVAL_CHECK_OUTPUT
[t["function"]["name"] for t in TOOLS], TOOLS[0]


# %% [markdown]
# The loop is `react_teach.tools.calling.tool_calling`. Read it beside `Agent.step` from notebook "the stop token": ask
# the model, turn
# its call into the same `search[...]` string, run it in the same `WikiEnv`, append the result, and stop at `finish`
# or after seven calls. A chat model here is any function that takes the messages and the tools and returns one
# assistant message, so you can play the model yourself, as in notebook "the bare loop".

# %%
def me(messages, tools):
    """You, as a tool-calling model: three calls in a fixed order."""
    script = [("search", {"entity": "Intel"}), ("search", {"entity": "Microsoft"}),
              ("finish", {"answer": "Intel"})]
    name, args = script[sum(m["role"] == "tool" for m in messages)]
    me.seen = messages  # keep what the model was shown, to read it below
    call = {"id": f"call{len(messages)}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}, Usage()


# %%
# NBVAL_CHECK_OUTPUT
trace = tool_calling(questions["hq023"]["question"], me, wiki)
print(trace.render())
trace.answer, trace.n_calls

# %% [markdown]
# These are the messages the model was shown before its last call. The `tool` messages are the observations: the
# environment still writes them, and the model still cannot.

# %%
# NBVAL_CHECK_OUTPUT
for m in me.seen:
    body = m["content"] or json.dumps(m["tool_calls"][0]["function"])
    print(f"{m['role']:>9}: {body[:100]}")

# %% [markdown]
# Rendered in the paper's format, the trajectory has no Thought lines: it is an **Act** trajectory (notebook
# "deleted lines").
# A structured call has a slot for the action and none for the reasoning. A hosted model may write some text in
# `content` beside its call, and `tool_calling` keeps that text as the thought; our local version leaves no room
# for it.
#
# ## 2. Offline: a grammar instead of an API
#
# The bundled model has no tool-calling API, so `local_chat` builds one from llama.cpp's grammar-constrained
# sampling. A JSON schema becomes a grammar, and at every token the model may only pick tokens that keep the reply
# a valid `{"tool": ..., "argument": ...}` object. A malformed call is impossible, so the re-prompt of notebook
# "the stop token"
# has nothing to repair. A *useless* call is still possible: the grammar fixes the form and leaves the content to
# the model. The system prompt carries no exemplars, only the tool list.
#
# Two course questions, with the same budget as text ReAct, seven actions (one call each here; text ReAct spends an
# extra call on each re-prompt): the paper's Figure 1 question in our wording, and the next scored question of the
# committed ReAct run (so that section 3 can put the two side by side). Neither is an exemplar's question or about
# an exemplar's subject: `scored` leaves those out.
#
# **Predict first** (exercise 3). Suppose the model sends the same search on every turn, whatever it reads. How
# many calls will `tool_calling` make before it stops? Write your number now; the check runs after this section.

# %%
from react_teach import exercises

ex = exercises.of("tool_calling")
my_calls = ...  # your prediction: a whole number of calls

# %%
from react_teach.runs.stats import scored

run = {r["id"]: r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_react.jsonl")}
picked = ["hq001", next(r["id"] for r in scored(list(run.values())) if r["id"] != "hq001")]
chat = local_chat()  # the bundled SmolLM2-135M again, sampling under a JSON grammar
traces = {i: tool_calling(questions[i]["question"], chat, wiki, max_calls=7) for i in picked}
{i: (t.n_calls, t.answer) for i, t in traces.items()}

# %% [markdown]
# The two questions are hq001 and hq009, and neither run finishes: each spends all seven calls and the answer
# stays empty. The bundled model, prompted with only the tool list, sends the same call again after reading its
# result. On hq001 it searches a phrase of the question, "the media center program", and is told there is no such
# page; the titles it is offered instead include Front Row (software), the page it needs, and it never opens it:
# it ends sending one search again and again. (Which searches come in between differs from one CPU to another: a
# model's sampling is not the same on every machine, so the checks hold only what every run here showed.) On hq009 it searches the whole question, then copies the start of the reply ("Could not
# find ...") into its next search, and sends that one to the end of the budget. A grammar makes every call well
# formed; it cannot make the model decide it has read enough, or read what it was offered.

# %%
# NBVAL_CHECK_OUTPUT
t1, t2 = (traces[i] for i in picked)
check(picked == ["hq001", "hq009"], "the two questions are hq001 and hq009")
check(all(t.n_calls == 7 and not t.answer for t in traces.values()), "neither run finishes: seven calls, no answer")
check(t1.steps[0].action == "search[the media center program]" and "Front Row (software)" in t1.steps[0].observation
      and not any("front row" in (s.action or "").lower() for s in t1.steps)
      and t1.steps[-1].action == t1.steps[-2].action,
      "hq001: its first reply offers Front Row (software), never opened; the run ends repeating one search")
check(t2.steps[0].action == f"search[{questions['hq009']['question']}]"
      and len({s.action for s in t2.steps[1:]}) == 1 and t2.steps[1].action.startswith("search[Could not find"),
      "hq009: the whole question, then the reply's first words, sent to the end")

# %% [markdown]
# Your prediction, checked on a chat that repeats one search:

# %%
from react_teach.checks.tool_calling import repeating

print(tool_calling(questions["hq001"]["question"], repeating(), wiki, max_calls=7).n_calls, "calls")
ex[3](my_calls)

# %% [markdown]
# ## 2b. A run that finishes: a model trained on the format
#
# A hosted tool-calling model finishes because it was *trained* to write calls, and the server parses what it
# writes into `tool_calls`. We have such a model: the adapter `local:ft-react`, fine-tuned on ReAct trajectories
# of generated worlds (we build it in notebook 16). `trained_chat` is the server's half: it writes the messages out
# in the format the adapter learned, and parses its `Action k: Search[...]` back into a structured call, with the
# thought as the message's `content`. The adapter was trained on generated worlds, so we ask it a question of the
# held-out world, which it never saw in training.

# %%
from react_teach import world

held = world.generate(world.HELDOUT_SEED, world.SIZE)
held_q = held.questions[0]
trained = tool_calling(held_q["question"], trained_chat("local:ft-react"), world.wiki(held), max_calls=7)
print(trained.render())
print(f"{trained.n_calls} calls, answer {trained.answer!r}, gold {held_q['answer']!r}")

# %% [markdown]
# Here the structured call keeps a thought, because the model writes one before each action and the parser keeps
# it. The loop is the same one; what changed is a model that learned to act. (The environment's `reward = 0` only
# means it was not given the gold answer: the last line compares the answer with the gold one.)
#
# ## 3. Side by side with text ReAct, on the same budget
#
# On the left, text ReAct on the same question, read from the committed run of the course on its run sample
# (`data/runs/hotpotqa_react.jsonl`, made with
# `python -m react_teach run --method react --sample --llm local --out data/runs/hotpotqa_react.jsonl`, same model,
# six exemplars). On the right, tool calling on the bundled model. Blue lines were written by the model, green lines
# by the environment.

# %%
def side_by_side(i):
    """Text ReAct from the committed run (left) and grammar-constrained tool calling (right), on question i."""
    gold = questions[i]["answer"]
    left = trace_html(Trajectory.from_json(run[i]), gold=gold) if i in run else "(not in the committed run yet)"
    cell = "<td style='vertical-align:top;width:50%;text-align:left'>"
    return HTML(f"{LEGEND}<table><tr><th>text ReAct (committed run)</th><th>tool calling</th></tr>"
                f"<tr>{cell}{left}</td>{cell}{trace_html(traces[i], gold=gold)}</td></tr></table>")


side_by_side(picked[0])

# %%
side_by_side(picked[1])


# %% [markdown]
# Read what the model did on each side before you read on. Look for three things: whether every call on the right
# names a real tool with one argument (the grammar guarantees it), whether the model sends the same call again after
# reading its result, and where each side stops.
#
# If you see the same call repeated, you are looking at the first of two ReAct failure modes named by LLMCompiler
# (Kim et al., arXiv 2312.04511): **repeated calls** of the same function. The second is **premature stopping**: a
# `finish` after a partial result, before the observation that holds the answer. Both belong to the loop and to the
# model, not to the syntax, and the paper's Table 2 counts the first one under "reasoning error" for PaLM-540B.
# Small models fall out of the loop in other ways too. In text ReAct they finish early or write past their action;
# here a call can be cut off before its JSON closes, and `tool_calling` then records plain text and stops.

# %%
def repeats(t):
    """How many calls repeat the call just before them, argument and all."""
    actions = [s.action for s in t.steps]
    return sum(a is not None and a.lower() == (b or "").lower() for a, b in zip(actions[1:], actions))


for i, t in traces.items():
    r = run.get(i)
    if r:
        text = Trajectory.from_json(r)
        print(f"{i} text ReAct   : {r['n_calls']} calls, {r['usage']['prompt_tokens']:>6,} prompt tokens, "
              f"{repeats(text)} repeated, answer {r['answer'][:40]!r} (gold {r['gold']!r})")
    print(f"{i} tool calling : {t.n_calls} calls, {t.usage.prompt_tokens:>6,} prompt tokens, "
          f"{repeats(t)} repeated, answer {t.answer[:40]!r}")

# %% [markdown]
# On these two questions text ReAct fails the other way, by premature stopping. On hq001 it searches Apple Remote
# twice and finishes with "yes" without ever opening Front Row; on hq009 it finishes after a single search that
# found no page. Tool calling never finishes at all. Neither side gets an answer right.

# %%
# NBVAL_CHECK_OUTPUT
texts = {i: Trajectory.from_json(run[i]) for i in picked}
check(all(run[i]["finished"] and run[i]["n_calls"] < 7 and not run[i]["em"] for i in picked),
      "text ReAct finishes both, in fewer than seven calls, with a wrong answer")
check([s.action for s in texts["hq001"].steps[:2]] == ["Search[Apple Remote]"] * 2
      and run["hq001"]["answer"] == "yes" and not any("Front Row" in (s.action or "") for s in texts["hq001"].steps),
      "hq001, text: Apple Remote searched twice, Front Row never, answer 'yes'")
check(len(texts["hq009"].steps) == 2 and texts["hq009"].steps[0].observation.startswith("Could not find"),
      "hq009, text: one search that found no page, then finish")

# %% [markdown]
# Compare the prompt tokens too. Text ReAct re-reads its six exemplars at every call; a tool-calling request carries
# only the tool list. Hosted models are trained to emit tool calls, so they need no exemplars of the format (our
# tiny model gets the grammar instead). The notebook "the cost of calls" puts numbers on that cost.
#
# ## 4. Online: the same loop on a capable model
#
# Nothing in the loop changes; only the chat function does. With `OPENAI_API_KEY` set:
#
# ```python
# from react_teach.tools.calling import openai_chat
# chat = openai_chat("gpt-4o-mini")
# # chat = openai_chat("llama3.1", base_url="http://localhost:11434/v1")  # Ollama: no key needed
# traces = {i: tool_calling(questions[i]["question"], chat, wiki) for i in picked}
# ```
#
# For text ReAct on the same model, the left column, it is the usual one line:
# `solve("react", question, llm=llm.from_spec("openai:gpt-4o-mini"))` with `from react_teach.methods import solve` and
# `from react_teach import llm`.
#
# ## 5. The syntax changed, the loop did not
#
# | text ReAct (2022) | tool calling |
# |---|---|
# | six exemplars teach the format | tool schemas in `tools=`; the model was trained on the format |
# | `Action i: Search[X]`, found by splitting the text | `tool_calls[0]`, parsed by the server (or forced by a grammar) |
# | stop at `\nObservation i:` | the reply ends after the call |
# | `Observation i: ...` appended to the prompt | a `tool` message appended to `messages` |
# | `Thought i: ...` | nothing, or free text in `content` |
# | re-prompt when the action line is missing | no call at all: the model has left the loop |
# | at most 7 steps | at most 7 calls |
#
# Underneath, a `tool` message is still text in the model's context. `local_chat` shows it plainly, turning each
# one into a user turn that starts `Observation:`. The loop now lives in `react_teach.tools.calling.tool_calling`, with
# `local_chat` and `openai_chat` as its two chat functions.

# %% [markdown]
# ## Summary
# - Tool-calling APIs absorbed the ReAct loop. The action became a structured call, the observation became a `tool`
#   message, and the loop (call, run, append, repeat, stop at finish or a budget) stayed the same.
# - A structured call has a slot for the action and none for the thought: by default it is an Act trajectory.
# - A grammar or a trained format makes every call well formed. Whether a call is useful is still up to the model:
#   repeated calls and premature stopping survive the change of syntax.
#
# ## Exercises
#
# Each exercise prints ✓, or ✗ with a hint, or "not yet" while the answer is still `...`. Reference solutions are
# in `notebooks/solutions/`.
#
# 1. **From a call to an action.** Write `to_action(call)`: it takes one entry of an assistant message's
#    `tool_calls` (as `me` builds them) and returns the text action `WikiEnv` runs, such as `search[Front Row]`.

# %%
def to_action(call):
    ...  # your code here


ex[1](to_action)

# %% [markdown]
# 2. **You as the model, on the Figure 1 question.** Write a chat function like `me` that answers hq001
#    (`questions["hq001"]`) within the budget of seven calls. It must search before it finishes, and its answer must
#    match the gold one. Read the observations (try `tool_calling(..., your_chat, wiki).render()`) to choose calls.

# %%
def my_chat(messages, tools):
    ...  # your code here: return (assistant message, Usage())


ex[2](my_chat)

# %% [markdown]
# 3. **A model that repeats itself**: your prediction in section 2.
#
# 4. (Open) Run section 2 on a capable model with `openai_chat("gpt-4o-mini")`, and text ReAct on the same model.
#    Which one makes fewer calls? Does either repeat a call or stop early?

# %%
# NBVAL_CHECK_OUTPUT
names = {t["function"]["name"] for t in TOOLS}
check(all(s.action.split("[", 1)[0] in names for t in traces.values() for s in t.steps if s.action is not None),
      "every grammar-constrained call names a known tool")
check(all(t.n_calls <= 7 for t in traces.values()) and max(len(r["steps"]) for r in run.values()) <= 7,
      "tool calling keeps text ReAct's budget of seven actions")
check(len(load_exemplars("hotpotqa")) == 6, "text ReAct's prompt has six exemplars")
check(all(run[i]["usage"]["prompt_tokens"] > t.usage.prompt_tokens for i, t in traces.items()),
      "text ReAct sends more prompt tokens than tool calling on both questions (section 3)")
check(not any(t.extra["finished"] for t in traces.values()), "the bundled model finishes neither run (section 2)")
check(trained.extra["finished"], "the fine-tuned model's run finishes (section 2b)")
