"""Wall time of `run --concurrency 1` against `--concurrency 4` on the loopback llama.cpp server, in one go.

    python benchmarks/concurrency.py --n 8

Starts `python -m llama_cpp.server` with the bundled model on a free loopback port, runs ReAct on the first n
course questions at each concurrency into fresh files (no cache), and prints both wall times and their ratio.
"""
import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from react_teach.llm import bundled_path
from react_teach.llm.local import SERVER


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--n", type=int, default=8)
    a.add_argument("--threads", type=int, default=2)
    args = a.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, *SERVER, "--model", str(bundled_path()),
                               "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
                               "--n_ctx", "8192", "--n_threads", str(args.threads), "--verbose", "False"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(base + "/models", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        tmp = Path(tempfile.mkdtemp())
        times = {}
        for k in (1, 4):
            env = dict(os.environ, REACT_TEACH_CACHE=str(tmp / f"cache{k}"))
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "react_teach", "run", "--method", "react", "--task", "hotpotqa",
                            "--n", str(args.n), "--llm", f"openai-compatible:{base}#smollm2", "--concurrency", str(k),
                            "--out", str(tmp / f"c{k}.jsonl")], env=env, check=True, capture_output=True)
            times[k] = time.perf_counter() - started
            print(f"--concurrency {k}: {times[k]:.1f} s for {args.n} questions", flush=True)
        print(f"ratio concurrency 4 / concurrency 1: {times[4] / times[1]:.2f}")
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
