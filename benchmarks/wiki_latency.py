"""Search latency of the local wiki: p50 and p95 over hits and misses, on the course corpus or a HotpotQA file.

    python benchmarks/wiki_latency.py                                   # the course encyclopedia
    python benchmarks/wiki_latency.py --hotpotqa distractor_dev.json    # a wiki built from HotpotQA contexts

Searches every title once (exact hits) and every title with its last word dropped (mostly misses, which run the
BM25 query for similar titles), each through WikiEnv so the timing includes building the observation string.
"""
import argparse
import statistics
import tempfile
import time

from react_teach.data import hotpotqa_articles
from react_teach.wiki import LocalWiki, WikiEnv


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--hotpotqa")
    args = a.parse_args()
    started = time.perf_counter()
    if args.hotpotqa:
        wiki = LocalWiki.build(hotpotqa_articles(args.hotpotqa), tempfile.mkdtemp() + "/hp.db")
    else:
        wiki = LocalWiki.course()
    built = time.perf_counter() - started
    titles = wiki.titles()
    for name, queries in (("exact hits", titles), ("near misses", [" ".join(t.split()[:-1]) or t + "x"
                                                                   for t in titles])):
        times = []
        for q in queries:
            env = WikiEnv(wiki)
            t0 = time.perf_counter()
            env.step(f"search[{q}]")
            times.append(1000 * (time.perf_counter() - t0))
        times.sort()
        print(f"{name:12} n={len(times):5}  p50 {statistics.median(times):.3f} ms  "
              f"p95 {times[int(0.95 * len(times))]:.3f} ms")
    print(f"{len(titles)} pages, index ready in {built:.2f} s")


if __name__ == "__main__":
    main()
