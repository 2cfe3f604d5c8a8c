# %% [markdown]
# # 02 · A weak Wikipedia
#
# In this notebook you will
# - use the paper's tool exactly as its code behaves: `search[entity]`, `lookup[keyword]`, `finish[answer]`;
# - see why it is weak **on purpose**: exact titles, five sentences at a time, Ctrl+F for the rest;
# - meet the strings a model will read, down to the doubled period, because the model copies what it reads;
# - see how the same tool runs offline (our encyclopedia) and online (live Wikipedia).
#
# The paper (section 3.1) gives the model "a simple Wikipedia web API" with three actions. It is much weaker than a
# modern retriever, and that is the point: when the tool cannot find things for you, the *reasoning* has to decide
# what to look for next.

# %%
from react_teach import check
from react_teach.wiki import LocalWiki, WikiEnv, sentences

wiki = LocalWiki.course()  # 394 articles written for this course, indexed once in SQLite
env = WikiEnv(wiki)
len(wiki.titles())

# %% [markdown]
# ## 1. search[entity]: the exact title, or a list of near misses
#
# If a page has exactly that title (any case, or a redirect), the observation is its first five sentences.

# %%
# NBVAL_CHECK_OUTPUT
env.step("search[Front Row (software)]")

# %% [markdown]
# `step` returns the observation and whether the episode is over. If no page has that title, the tool says so and
# lists up to five similar titles, as a Python list: the model has to pick one and search again.

# %%
# NBVAL_CHECK_OUTPUT
env.step("search[Front Row software]")

# %% [markdown]
# Some titles are ambiguous. A disambiguation page ("... may refer to:") makes the official code search again with
# the entity in square brackets, which fails, so the model sees a `Could not find [...]` line with candidates. That is
# why the paper's prompt contains `Could not find [Adam Clayton Powell]`.

# %%
# NBVAL_CHECK_OUTPUT
env.step("search[Adam Clayton Powell]")

# %% [markdown]
# ## 2. lookup[keyword]: Ctrl+F, one sentence at a time
#
# The five sentences rarely hold everything. `lookup` walks through the sentences of the *current* page that contain
# the keyword, one per call, telling you where you are: `(Result k / n)`.

# %%
# NBVAL_CHECK_OUTPUT
env.step("search[Colorado orogeny]")
[env.step("lookup[eastern sector]")[0] for _ in range(2)]

# %% [markdown]
# The keyword is matched without regard to case, and a new keyword starts a new list. The lookup only knows the
# page you searched last: it cannot jump to another page.

# %% [markdown]
# ## 3. The strings, exactly
#
# The official code splits the page on newlines, then on `". "`, and puts a period back on every piece. So the
# last sentence of a paragraph ends with two periods, and an abbreviation such as "U.S. " would split a sentence in
# two. We keep this: an exemplar that shows a string our tool never produces would teach the model the wrong thing.

# %%
# NBVAL_CHECK_OUTPUT
sentences("The Colorado orogeny was an episode of mountain building. It happened long ago.")

# %%
# NBVAL_CHECK_OUTPUT
env.step("think[I might need the High Plains page next]"), env.step("Search[High Plains]"), env.step("finish[yes]")

# %% [markdown]
# `think[...]` answers `Nice thought.` (the official code accepts it; notebook 12's household has its own
# `think: ...`, answered `OK.`), an action the tool does not know is
# an observation `Invalid action: ...`, never an exception, and `finish[...]` ends the episode. Note `Search[...]`
# with a capital S is invalid *for the tool*: the harness lower-cases the first letter before calling it (notebook 04).

# %% [markdown]
# ## 4. Why weak is a design choice
#
# A question about the High Plains' elevation cannot be answered by one search: the model must search the orogeny,
# look up its eastern sector, notice the disambiguation, and search the right page. Each of those moves is decided in
# language. Our question set tags a question *easy* when one search on a title named in the question shows the
# answer, and *hard* when it needs a second hop or a lookup.

# %%
from collections import Counter

from react_teach.data import load_questions

questions = load_questions("hotpotqa")
# NBVAL_CHECK_OUTPUT
Counter(q["level"] for q in questions), Counter(q["type"] for q in questions)

# %% [markdown]
# ## 5. Local and live
#
# `LocalWiki` is SQLite with a full-text index (FTS5): exact titles first, BM25-ranked similar titles when there is
# no exact hit. When you are online, `LiveWiki` gives the same observations from real Wikipedia through the
# `wikipedia` package, and keeps every page it fetches in a local database, so a run made online replays offline:
#
# ```python
# from react_teach.wiki import LiveWiki
# live = LiveWiki("my_run.db")                 # live Wikipedia, pages cached into my_run.db
# WikiEnv(live).step("search[Colorado orogeny]")
# WikiEnv(LocalWiki("my_run.db")).step("search[Colorado orogeny]")   # later, offline: the same string
# ```
#
# From the command line: `python -m react_teach ask "..." --wiki live`, and
# `python -m react_teach wiki build --from-hotpotqa hotpot_dev_distractor_v1.json --out hotpot.db` turns the
# paragraphs of an official HotpotQA file into a local wiki.
#
# The tool now lives in `react_teach.wiki`.

# %% [markdown]
# ## Summary
# - `search` needs the exact title and shows five sentences; a miss lists five similar titles.
# - `lookup` is Ctrl+F on the current page, one sentence per call, with a counter.
# - Every failure is an observation, so the model can read it and change course.
# - Weak retrieval moves work into reasoning, which is what ReAct is about.
#
# ## Exercises
# Each exercise ends with a checker: `✓` when your answer is right, `✗` and a hint when it is not, `not yet` while
# the `...` is still there.

# %%
from react_teach import exercises

ex = exercises.of("a_weak_wikipedia")
env = WikiEnv(wiki)  # a fresh environment to experiment with
next(q["question"] for q in questions if q["id"] == "hq003")

# %% [markdown]
# **1.** Answer the hard question above by hand with `env.step(...)`, then write down the actions you used, in
# order, ending with `finish[...]`. The checker replays them: the answer must be right *and* must have appeared in
# an observation before you finished (a right guess is still a guess). How many actions did you need?

# %%
my_actions = [...]  # e.g. ["search[...]", ..., "finish[...]"]

ex[1](my_actions)

# %% [markdown]
# **2.** Search `Milhouse Van Houten`. Which `lookup` keyword finds the sentence that says whom he was named after?
# Try `lookup[named after]` first, and explain what you see.

# %%
my_keyword = ...  # a string

ex[2](my_keyword)

# %% [markdown]
# **3.** Which of these searches show a page, and which say `Could not find`? Predict first, then try them.
# What does the tool forgive: case, a typo, a missing pair of brackets?

# %%
candidates = ["milhouse van houten", "Milhouse Van Hoten", "High Plains", "Front Row software", "front row (software)"]
my_pages = [...]  # the candidates that show a page

ex[3](my_pages)
