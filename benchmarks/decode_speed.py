"""Seconds a question of `local:ft-react` with llama.cpp's flash attention off (the default) and on, in one run.

    python benchmarks/decode_speed.py --n 25              # the first 25 questions of dev worlds 1000 and 1001

Both models are loaded side by side, with the same threads, and answer the same dev questions turn about (one
question off, the same question on), with no cache: whatever else the machine does falls on both. It prints the
seconds a question of each, their ratio, each EM, and how many trajectories are not the same text: flash
attention sums in half precision, so it is a faster model only if it is the same model. On dev worlds 1000 and
1001 (n = 50, two threads) it was 0.92x the seconds and 10 of 50 trajectories differed, so it stays off
(`LocalLLM(flash_attn=...)`); with the version-7 ft-react, 2.72 s a question off, 0.93x on, 9 of 50 differed.
Dev worlds only: a speed setting is a choice.
"""
import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # finetune_eval's summary, as worlds_eval takes it
from finetune_eval import summary  # noqa: E402

from react_teach import world  # noqa: E402
from react_teach.llm import bundled_path  # noqa: E402
from react_teach.llm.adapters import shipped  # noqa: E402
from react_teach.llm.local import LocalLLM  # noqa: E402
from react_teach.runs import run  # noqa: E402


def said(row: dict) -> list[tuple[str, str]]:
    """What the model wrote in a results row: its thoughts and actions (the seconds differ on every run)."""
    return [(s["thought"], s["action"]) for s in row["steps"]]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=25, help="questions per dev world")
    p.add_argument("--worlds", type=int, default=2, help="the first K dev worlds")
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args(argv)
    lora = shipped("ft-react", bundled_path())
    models = {on: LocalLLM(lora=lora, n_threads=a.threads, flash_attn=on) for on in (False, True)}
    rows = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in world.DEV_SEEDS[: a.worlds]:
            w = world.generate(seed, world.SIZE, 2, "trained")
            wiki = world.wiki(w)
            for q in w.questions[: a.n]:
                for on, llm in models.items():  # turn about: the same question, one setting then the other
                    out = Path(tmp) / f"{seed}_{int(on)}.jsonl"
                    rows[on].append(run("react", [q], out, llm=llm, wiki=wiki, progress=False)[0])
    differ = sum(said(x) != said(y) for x, y in zip(rows[False], rows[True]))
    got = {k: summary(v) for k, v in rows.items()}
    for k, label in ((False, "flash attention off"), (True, "flash attention on ")):
        print(f"{label}  {got[k]['seconds_per_question']:.2f} s a question  EM {got[k]['em']:.3f} {got[k]['ci95']} "
              f"n={got[k]['n']}")
    ratio = got[True]["seconds_per_question"] / got[False]["seconds_per_question"]
    print(f"ratio on/off {ratio:.3f}; trajectories not the same text: {differ} of {len(rows[False])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
