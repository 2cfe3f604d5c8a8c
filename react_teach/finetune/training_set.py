"""Which oracle trajectories of the generated worlds a fine-tuning run learns: never a dev or test world, never a
held-out wording, and optionally some question shapes weighed up (`pick`), or the questions whose fact only a
lookup reaches (``lookup``, `LOOKUP`).

    >>> ts = oracle_trajectories(4, (1, 2))
    >>> len(ts), all(t.steps[-1].action.startswith("Finish[") for t in ts)
    (4, True)
"""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from react_teach import world
from react_teach.trajectory import Trajectory
from react_teach.world.oracle import needs_lookup
from react_teach.world.wordings import is_in

# A weigh key that is no shape: the questions the oracle answers with a Lookup (`world.oracle.needs_lookup`). They are
# one in seven, and a model trained on that share never looked up on dev (0 of the 20 dev questions that need it).
LOOKUP = "lookup"
# Training data version -> the world version its questions come from. 3 asks version 2's questions and differs
# only in how the oracle's last thought checks (written out: see `world.varied.conclude`).
# 6 is version 3 with each thought after a read opened by what the read was for (`world.oracle.aimed`); 7 is 6
# with a late fact looked up by the relation's usual word, and by a second where no sentence has it.
# Tried on dev and dropped (issue 19's notes keep each one's figures): 4, wider trained wordings; 5, miscopied
# titles; 8, a ladder of lookup words; 9, more trained templates for a bridge; 10, a first thought that copies a
# bridge's clauses one by one before their goals (on held-out wordings it got the clauses of 55 of 136 bridges
# wrong, and answered 4 of those 55); 11, version 7 with the course prose written aim first (more lookups, prose
# dev 0.247 against 0.273); 12, version 7 with the prose's late facts looked up by the first word of the question
# that the shown sentences lack (prose dev 0.325 against 0.273, p = 0.48, yet its lookups reached the fact no
# more often; on 160 dev questions a wording, held-out 0.613 against 0.650 and trained yes/no 0.66 against 0.78).
DATA_VERSIONS = {1: 1, 2: 2, 3: 2, 6: 2, 7: 2}


def oracle_options(version: int) -> dict:
    """How the oracle writes a training data version's trajectories (`world.oracle`'s switches): the one place
    that says it, for the training text and for anyone who shows how a shipped adapter's data was written
    (notebook 16 does, from the adapter's provenance).

        >>> oracle_options(3), oracle_options(7)["second_word"]
        ({'written': True, 'aim_first': False, 'second_word': False}, True)
    """
    if version not in DATA_VERSIONS:
        raise ValueError(f"no training data version {version!r}: there are {', '.join(map(str, DATA_VERSIONS))}")
    return {"written": version >= 3, "aim_first": version in (6, 7), "second_word": version == 7}


def pick(shapes: list[str], n: int, weigh: tuple = ()) -> list[int]:
    """Which of the questions, given in the order they would be taken, to take: the first `n`; or, with `weigh`
    (pairs (shape, k)), each shape's share of all the questions times k, the shares scaled to `n`, each filled with
    the first questions of that shape, the whole in the given order.

    It lets the shapes a model fails most weigh more without new questions: the others give way.

        >>> shapes = ["a", "b", "a", "b", "a", "b", "a", "b"]
        >>> pick(shapes, 4), pick(shapes, 4, (("a", 3),))
        ([0, 1, 2, 3], [0, 1, 2, 4])
    """
    if not weigh:
        return list(range(min(n, len(shapes))))
    share = Counter(shapes)
    for shape, k in weigh:
        if shape not in share or isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"weigh takes a shape of these questions ({', '.join(sorted(share))}) and a whole "
                             f"number >= 1, not {shape}={k}")
        share[shape] *= k
    total = sum(share.values())
    exact = {shape: n * v / total for shape, v in share.items()}
    quota = {shape: math.floor(x) for shape, x in exact.items()}
    # the places rounding down left over go to the largest remainders, so that the quotas add up to n exactly
    for shape in sorted(exact, key=lambda s: (quota[s] - exact[s], s))[:n - sum(quota.values())]:
        quota[shape] += 1
    out = []
    for shape, k in quota.items():
        where = [i for i, s in enumerate(shapes) if s == shape][:k]
        if len(where) < k:
            raise ValueError(f"the training worlds have {len(where)} {shape} questions; {n} weighed by "
                             f"{dict(weigh)} needs {k}")
        out += where
    return sorted(out)


@lru_cache(maxsize=4)
def oracle_trajectories(n: int, seeds: tuple = (), version: int = 1, wording: str = "trained", weigh: tuple = ()
                        ) -> tuple[Trajectory, ...]:
    """The first `n` oracle trajectories, round-robin over the training worlds (version 1: the first 12, as the
    shipped adapters read them); the four formats share them. `weigh` (version 2 and up) changes which questions
    are taken, not their order (`pick`). Data `version` 3 is version 2's worlds and questions with every check
    written out before its verdict (``world.oracle(..., written=True)``): the same questions, other last thoughts.

        >>> a, b = (oracle_trajectories(20, (1,), v) for v in (2, 3))
        >>> [t.question for t in a] == [t.question for t in b]
        True
        >>> [t.steps[-1].thought for t in b if "minus" in t.steps[-1].thought][0].split(": ")[1][:28]
        'units 1 - 9, borrow, 11 - 9 '
    """
    options = oracle_options(version)  # refuses an unknown version before any world is built
    if weigh and version == 1:  # refused before any world is built
        raise ValueError("weigh needs data version 2 or later: version 1 is the shipped adapters' data, as it was")
    seeds = seeds or (world.TRAIN_SEEDS if version > 1 else world.TRAIN_SEEDS[:world.V1_TRAIN_WORLDS])
    world.check_trainable(seeds, wording)
    # n < len(seeds) reads n worlds
    worlds = [world.generate(s, world.SIZE, DATA_VERSIONS[version], wording) for s in seeds[:n]]
    plans = [w.plans[q["id"]] for w in worlds for q in w.questions]
    if any("spec" in p and not is_in(p["spec"], p["choice"], "trained") for p in plans):  # a second lock
        raise ValueError("a training question is worded in a held-out template: never train on it")
    wikis = [world.wiki(w) for w in worlds]
    order = [(w, wk, w.questions[k]) for k in range(world.SIZE) for w, wk in zip(worlds, wikis)]
    # with ``lookup`` weighed, a question the oracle answers by a lookup counts as that, whatever its shape
    by_lookup = any(k == LOOKUP for k, _ in weigh)
    chosen = pick([LOOKUP if by_lookup and needs_lookup(w, q) else q.get("shape", "") for w, _, q in order], n, weigh)
    return tuple(world.oracle(w, q, wk, **options) for w, wk, q in (order[i] for i in chosen))
