"""Tokens prefilled by CoT-SC with n samples, against one CoT call, each on a fresh local model.

    python benchmarks/cotsc_prefill.py --n 21

The samples share one prompt, so after the first sample the KV cache holds it and each further sample recomputes a
single token. Goal from the issue: CoT-SC-21 prefills at most 1.1x what one CoT call does.
"""
import argparse

from react_teach import llm
from react_teach.agent import cot_sc
from react_teach.methods import solve

QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--n", type=int, default=21)
    args = a.parse_args()
    one = solve("cot", QUESTION, llm=llm.LocalLLM())
    sc = cot_sc(QUESTION, llm.LocalLLM(), n=args.n)
    one_prefill = one.usage.prompt_tokens - one.usage.cached_tokens
    sc_prefill = sc.usage.prompt_tokens - sc.usage.cached_tokens
    print(f"one CoT call: {one_prefill} prompt tokens computed")
    print(f"CoT-SC n={args.n}: {sc.usage.prompt_tokens} prompt tokens asked, {sc.usage.cached_tokens} from the cache, "
          f"{sc_prefill} computed = {sc_prefill / one_prefill:.3f}x one call")


if __name__ == "__main__":
    main()
