# %% [markdown]
# # 03 · A world no one has read
#
# In this notebook you will
# - ask the same kind of question of the course encyclopedia and of a world generated from a seed;
# - read the world's articles through the same weak Wikipedia tool (see "A weak Wikipedia");
# - read an oracle trajectory: a correct ReAct run whose every observation is real tool output;
# - see why a world that no model has read is a fair test of *acting*: chain-of-thought can only guess there,
#   while ReAct can look things up.
#
# The course encyclopedia is about real things. A model trained on web text may have read that the African National
# Congress was founded in Bloemfontein, so when it answers correctly we cannot tell whether it reasoned, looked it up,
# or remembered.
# The paper's argument for acting is about grounding: facts come from observations, not from memory. To test that in
# its purest form, we need facts that are in no model's memory. PhantomWiki (Gong et al., 2025) generates such
# universes on demand; `react_teach.world` does the same, small enough to build in under a second.

# %%
from collections import Counter

from react_teach import world
from react_teach.ablate import to_act, to_cot, to_standard
from react_teach.data import load_questions
from react_teach.wiki import WikiEnv

w = world.generate(world.HELDOUT_SEED, world.SIZE)  # the held-out world: no model is ever trained on it
course_q = next(q for q in load_questions("hotpotqa") if q["id"] == "hq072")
world_q = next(q for q in w.questions if q["question"].startswith("In what year was the town where"))
# NBVAL_CHECK_OUTPUT
course_q["question"], world_q["question"]

# %% [markdown]
# The two questions have the same shape: a bridge through an organisation to where or when something was founded
# (a person's party, then the city it was founded in; a studio's town, then the year that town was founded). The
# first is about the real world; the second about a town nobody has ever written about before this seed.
#
# ## Asking without looking
#
# Here is the bundled model with chain-of-thought and no tool: `solve("cot", question)` runs it (we build CoT from the
# ReAct exemplars in notebook 06, and run every method over the course questions in notebook 07; here we only use
# it). Its answer to the course question comes from the course's committed CoT run; the world question it answers
# now. (Your CPU may print a different text: the point is not what it says, but that on the world question
# *nothing* it says can come from memory.)

# %%
from react_teach import check
from react_teach.methods import solve
from react_teach.data import data_dir, read_jsonl
from react_teach.score import exact_match

committed = next(r for r in read_jsonl(data_dir() / "runs" / "hotpotqa_cot.jsonl") if r["id"] == course_q["id"])
t = solve("cot", world_q["question"])
for q, thought, answer in ((course_q, committed["steps"][0]["thought"], committed["answer"]),
                           (world_q, t.steps[0].thought, t.answer)):
    print(f"{q['question']}\n  {thought}\n  model: {answer!r}   gold: {q['answer']!r}\n")
check(not committed["em"] and not exact_match(t.answer, world_q["answer"]), "both answers are wrong")
check(committed["answer"] == "African National Congress", "the course answer is the party, one hop short of the city")

# %% [markdown]
# Both answers are wrong, but differently so. On the course question the model names the right party, a fact it
# may have read, and then stops one hop short of the city; a bigger model may well *remember* the city too. No model
# can remember when the world's town was founded, so whatever facts the second thought states, it made up.

# %% [markdown]
# ## A world from a seed
#
# `world.generate(seed, size)` builds people, towns, works (novels, films, albums) and organisations, writes an
# article for each in the course corpus format, and asks `size` questions about them. Names are spelled from
# syllable tables, checked against every word of the course corpus and a list of famous names. The same seed always
# gives the same bytes.

# %%
# NBVAL_CHECK_OUTPUT
len(w.articles), len(w.questions), len(w.claims), world.generate(world.HELDOUT_SEED, world.SIZE).articles == w.articles

# %% [markdown]
# The articles are short and plain on purpose: the first five sentences, which is what `search` shows, hold the key
# facts in about 60 to 70 tokens of a small model's tokenizer. For some entities one key fact sits further down, so
# that only `lookup` reaches it; and some works share a name, so a disambiguation page sends the search to
# `Could not find [Name]`, exactly as on real Wikipedia.

# %%
# NBVAL_CHECK_OUTPUT
wiki = world.wiki(w)  # a LocalWiki over the world's articles, the same class as the course encyclopedia
env = WikiEnv(wiki)
town = world_q["supporting_facts"][1][0]
env.step(f"search[{town}]")

# %% [markdown]
# ## The oracle
#
# `world.oracle(w, question)` plays ReAct perfectly: it knows the plan, but it still has to *act*. Every action goes
# through the real `WikiEnv`, and every observation is what the tool returned. Its thoughts follow the paper's
# style (decompose the question, pick out the fact, recover from a failed search, conclude), and each one says what
# it will do next, so the action follows from the thought.

# %%
# NBVAL_CHECK_OUTPUT
print(world.oracle(w, world_q, wiki).render())

# %% [markdown]
# About four questions in ten make the oracle recover from something. Here is one of each kind: a name worded as
# in the question that misses, a disambiguation page, and a fact past the fifth sentence.

# %%
# NBVAL_CHECK_OUTPUT
for kind in ("miss", "disambig", "lookup"):
    q = next(q for q in w.questions if q["recovery"] == [kind] and q["type"] == "bridge")
    print(f"--- {kind}\n" + world.oracle(w, q, wiki).render())
recovering = sum(bool(q["recovery"]) for q in w.questions) / len(w.questions)
check(0.35 <= recovering < 0.45, f"about four questions in ten make the oracle recover ({recovering:.0%})")

# %% [markdown]
# The paper's baselines come from the same trajectory by deleting lines: Act keeps the actions and observations,
# Standard only the question and answer, and CoT merges the thoughts that state facts. We build `to_act`,
# `to_standard` and `to_cot` in notebook 06; here they only show what the oracle's trajectory turns into.

# %%
# NBVAL_CHECK_OUTPUT
text = world.oracle(w, world_q, wiki).render()
print(to_cot(text) + "\n" + to_standard(text))

# %% [markdown]
# Look at that CoT exemplar: its facts were read from observations. Without the tool, a model imitating it has to
# invent them.
#
# ## Why this is a fair test of acting
#
# How far can a model get with no knowledge at all? Yes/no questions and "which came first" questions have two
# options, so a guesser that always says "yes" and always names the first option scores on some of them. Nothing
# can be guessed on a bridge question: its answer is a name or a year that appears nowhere but in the world.

# %%
def guess(q: dict) -> str:
    """The best answer without looking: 'yes', or the first option of 'which ... first, A or B?'."""
    if q["question"].startswith(("Which", "Who was born first")) and " or " in q["question"]:
        first = q["question"].split(", ", 1)[1].split(" or ")[0]
        return first.split(" ", 2)[2] if first.startswith("the ") else first
    return "yes"


right = Counter(q["type"] for q in w.questions if guess(q) == q["answer"])
total = Counter(q["type"] for q in w.questions)
# NBVAL_CHECK_OUTPUT
{t: f"{right[t]} / {total[t]}" for t in total}, f"floor: {sum(right.values()) / len(w.questions):.1%}"

# %% [markdown]
# That floor is the score of a model that read nothing and looked nothing up. A method that beats it on the bridge
# questions must have looked the facts up: in this world there is no other way to know them. On the course
# encyclopedia, a higher score could also come from memory. This is the paper's grounding argument with memory
# taken out, and it is why the next steps of the course train and test on worlds like this one: training seeds
# `world.TRAIN_SEEDS` and the held-out seed `world.HELDOUT_SEED`.
#
# From the command line, a world is one folder (corpus, questions, claims, and oracle trajectories with their Act,
# CoT and Standard versions), and `--wiki world:SEED` opens it wherever a wiki is accepted:
#
# ```
# python -m react_teach world build --seed 1 --size 300 --out world1
# python -m react_teach ask "..." --wiki world:1000
# python -m react_teach run --method react --questions world1/questions.jsonl --wiki world:1:300 --out r.jsonl
# ```

# %% [markdown]
# ## Summary
# - A world generated from a seed is an encyclopedia no model has read: same tool, same format, new facts.
# - Its questions come with gold answers and supporting facts, in fixed shares of type and level.
# - The oracle writes correct ReAct trajectories through the real tool, with the recoveries a model must learn.
# - Without the tool, a model can only guess: the floor is what guessing yes/no and two-option questions gives.
#
# ## Exercises
# 1. Answer `exercise_q` by hand: put the actions you would take in `my_actions` (strings such as
#    `"search[Name]"`, `"lookup[word]"`, `"finish[answer]"`). The checker replays them in a fresh `WikiEnv`: the
#    answer must be right *and* have appeared in one of your observations (notebook 02's rule).
# 2. `miss_obs` is what the tool said after a search that missed. Write the next thought in `my_thought`: it must
#    say which title you will search next, in the words "search TITLE".
# 3. Without running `guess`, estimate the floor for the training world of seed 1 as a fraction in `my_floor`.

# %%
from react_teach import exercises
from react_teach.checks.a_world_no_one_has_read import miss_question, task_question

ex = exercises.of("a_world_no_one_has_read")
exercise_q = task_question()  # the first bridge question of this world that needs no recovery
miss_obs = world.oracle(w, miss_question(), wiki).steps[0].observation
print(exercise_q["question"], "\n", miss_obs, sep="")

# %%
my_actions = []  # exercise 1: your actions, in order
ex[1](my_actions)

# %%
my_thought = ""  # exercise 2: your next thought after miss_obs
ex[2](my_thought)

# %%
my_floor = ...  # exercise 3: a number between 0 and 1
ex[3](my_floor)
