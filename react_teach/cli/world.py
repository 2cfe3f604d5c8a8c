"""The command line of the generated world and of the models fine-tuned on it: ``world build`` and ``finetune``.

    python -m react_teach world build --seed 1 --size 300 --out world1
    python -m react_teach world build --seed 1000 --version 2 --wording heldout --out dev1000
    python -m react_teach finetune --method react            # data/models/ft-react.gguf and its provenance

Kept apart from `cli` so that the course's own verbs stay on one page; `cli.parser` calls `add`.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add(sub)
    >>> sorted(sub.choices)
    ['finetune', 'world']
"""
from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from react_teach import world
from react_teach.llm.adapters import models_dir


def cmd_world(a) -> int:
    seed, size = world.parse_seed(a.seed, "--seed"), world.parse_seed(a.size, "--size")
    world.check_seed(seed, size)
    started = time.perf_counter()
    counts = world.build(seed, size, a.out, a.version, a.wording)
    # the questions only make sense beside the same world's articles: say which --wiki opens them
    print(" ".join(f"{k}={v}" for k, v in counts.items()) + f" -> {a.out} in {time.perf_counter() - started:.2f} s"
          f" (its wiki: --wiki {world.spec(seed, size, a.version, a.wording)})")
    return 0


def parse_weigh(text: str) -> tuple[str, int]:
    """``--weigh bridge3=2`` as ("bridge3", 2); anything else is refused in one line.

    >>> parse_weigh("yesno=3")
    ('yesno', 3)
    """
    from react_teach.finetune.training_set import LOOKUP  # here: the command line's start does not load finetune

    shape, _, k = text.partition("=")
    if shape not in (*world.SHAPES, LOOKUP) or not k.isdigit() or int(k) < 1:
        raise ValueError(f"--weigh takes SHAPE=K, a shape of {', '.join(world.SHAPES)} (or {LOOKUP}, the questions "
                         f"answered by a lookup) and a whole number >= 1, not {text!r}")
    return shape, int(k)


def cmd_finetune(a) -> int:
    # refused up front, before torch is imported or a world generated: one line and exit 2
    for name in ("n", "rank", "epochs", "batch_tokens", "max_steps", "threads", "course_times", "soup", "tail"):
        value = getattr(a, name)
        if value is not None and value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be 1 or more, not {value}")
    for name in ("lr", "alpha"):
        if not getattr(a, name) > 0:
            raise ValueError(f"--{name} must be above 0, not {getattr(a, name)}")
    weigh = tuple(parse_weigh(w) for w in a.weigh or ())
    if weigh and a.data == 1:
        raise ValueError("--weigh needs --data 2 or later: data version 1 is the first generator's data, as it was")
    try:  # torch is the optional training extra: only this verb needs it, and `--help` must not load it
        from react_teach import finetune
        from react_teach.finetune.torch_llama import torch
    except ImportError as e:  # the training extra is missing: say how to install it, in one line
        raise ValueError(str(e)) from None

    if a.threads:
        torch.set_num_threads(a.threads)
    out = Path(a.out) if a.out else models_dir() / f"ft-{a.method}{'' if a.loss == 'model' else '-' + a.loss}.gguf"
    # before minutes of world building (train checks it again); the course questions are examples too
    finetune.refuse_weaker(out, a.n + a.course * a.course_times, force=a.force)
    texts = finetune.world_texts(a.method, a.n, version=a.data, course=a.course, course_times=a.course_times,
                                 weigh=weigh)
    command = "python -m react_teach " + " ".join(a.argv)
    if a.soup > 1:
        from react_teach.finetune import soup  # the parts, then their mean (one adapter, one provenance)

        run = partial(soup.train_parts, parts=a.soup)
    else:
        run = finetune.train
    prov = run(texts, a.method, out, rank=a.rank, alpha=a.alpha, lr=a.lr, epochs=a.epochs,
              batch_tokens=a.batch_tokens, loss=a.loss, seed=a.seed, max_steps=a.max_steps,
              threads=a.threads, force=a.force, tail=a.tail,
              meta={"data": f"oracle trajectories, first {a.n} questions of training worlds"
                            + ("" if a.data == 1 else f", data version {a.data}")
                            + (f", then {a.course} course-corpus questions" if a.course else "")
                            + (f" {a.course_times} times over" if a.course and a.course_times > 1 else "")
                            + "".join(f", {s} weighed x{k}" for s, k in weigh)
                            + (f"; the mean of {a.soup} adapters, each trained on one of {a.soup} interleaved parts of "
                               "them" if a.soup > 1 else ""),
                    "data_version": a.data, "course_questions": a.course,
                    **({"course_times": a.course_times} if a.course_times > 1 else {}),
                    **({"weigh": dict(weigh)} if weigh else {}),
                    "command": command})
    print(f"{out}: {prov['steps']} steps, loss {prov['first_loss']} -> {prov['final_loss']}, "
          f"{prov['minutes']} min")
    return 0


def add(sub) -> None:
    """Register ``world`` and ``finetune`` on the subcommands of the course's parser."""
    q = sub.add_parser("world", help="build a generated world no model has read")
    wsub = q.add_subparsers(dest="world_cmd", required=True)
    b = wsub.add_parser("build")
    b.add_argument("--seed", required=True, help="a whole number >= 0")
    b.add_argument("--size", default="200", help="questions in the world (default 200)")
    b.add_argument("--out", required=True, help="a folder that does not exist yet")
    b.add_argument("--version", type=int, default=1, choices=(1, 2),
                   help="1, the generator of the shipped adapters; 2, many wordings (open it as world:SEED:SIZE:v2)")
    b.add_argument("--wording", default="trained", choices=world.SPLITS,
                   help="version 2 only: heldout, wordings no training world uses (world:SEED:SIZE:v2:heldout)")
    q.set_defaults(fn=cmd_world)

    q = sub.add_parser("finetune", help="train a LoRA adapter on oracle trajectories (needs the [train] extra)")
    q.add_argument("--method", default="react", choices=("react", "act", "cot", "standard"))
    q.add_argument("--n", type=int, default=1200, help="training questions (default 1200)")
    q.add_argument("--data", type=int, default=1, choices=(1, 2, 3, 6, 7),
                   help="data version: 1, the first generator's data; 2, many wordings; 3, version 2 with each check "
                        "written out (differences column by column, years digit by digit); 6, version 3 with each "
                        "thought after a read opened by what it looked for; 7, version 6 with a late fact looked up by "
                        "the relation's usual word, then by a second where no sentence has it")
    q.add_argument("--course", type=int, default=0,
                   help="add this many hand-written course-corpus questions (natural prose, training split: "
                        "the first 423 read the course's own pages, the next 437 pages written for training alone, "
                        "the last 54 are bridges of three pages; default 0, none)")
    q.add_argument("--course-times", type=int, default=1,
                   help="train on each of those course questions this many times, in other thoughts each time "
                        "(weighs the prose up; default 1)")
    q.add_argument("--weigh", action="append", metavar="SHAPE=K",
                   help="data 2 or 3: multiply the share of one question shape by K (bridge3=2; repeat for others), "
                        "or of the questions answered by a lookup (lookup=2)")
    q.add_argument("--loss", default="model", choices=("model", "all"),
                   help="learn the model's tokens only (default) or the observations too (the paper's choice)")
    q.add_argument("--rank", type=int, default=8)
    q.add_argument("--alpha", type=float, default=16.0)
    q.add_argument("--lr", type=float, default=2e-3)
    q.add_argument("--epochs", type=int, default=1)
    q.add_argument("--batch-tokens", type=int, default=4096)
    q.add_argument("--max-steps", type=int, help="stop after this many steps (smoke tests)")
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--soup", type=int, default=1, metavar="N",
                   help="train N adapters, the k-th on every Nth example from the k-th on with seed SEED+k-1, and "
                        "ship their mean (rank N x RANK); the parts stay in OUT.parts/ (default 1: one adapter)")
    q.add_argument("--tail", type=int, default=1, metavar="K",
                   help="ship the mean of the weights at the last K checkpoints (one every 20 steps and the last "
                        "step), at the same rank and no extra step (default 1: the last weights)")
    q.add_argument("--threads", type=int, help="torch threads (default: all cores)")
    q.add_argument("--out", help="adapter file (default data/models/ft-METHOD.gguf)")
    q.add_argument("--force", action="store_true",
                   help="replace an adapter even with one trained on less, or ending with a higher loss")
    q.set_defaults(fn=cmd_finetune, argv=None)
