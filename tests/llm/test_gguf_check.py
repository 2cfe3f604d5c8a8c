"""Issue 21, cases 6, 7 and 11: llama.cpp never sees a file it would crash on, a cached answer belongs to one
model's bytes, and a stored usage that is not a number is a miss.

The bad files are real (a torn copy of the shipped adapter, GGUF + junk, the base model given as the adapter, a
torn model) and each is given to the real CLI in a child process: a crash of llama.cpp (exit 139) is a failed
test, not a dead test run. On 4edbc7c each of them crashes."""
import json
import shutil
import subprocess
import sys

import pytest

from react_teach.llm import CachedLLM, LLMError, ScriptLLM, bundled_path, from_spec, request_key
from react_teach.llm.adapters import models_dir


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("gguf")
    adapter = (models_dir() / "ft-react.gguf").read_bytes()
    (d / "torn-adapter.gguf").write_bytes(adapter[: len(adapter) // 2])
    (d / "junk.gguf").write_bytes(b"GGUF" + bytes(range(256)) * 40)
    (d / "header-only.gguf").write_bytes(adapter[:4096])
    shutil.copyfile(bundled_path(), d / "base-as-adapter.gguf")
    (d / "torn-model.gguf").write_bytes(bundled_path().read_bytes()[:50_000_000])
    return d


def ask(spec: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "react_teach", "ask", "Who wrote Hamlet?", "--method", "standard",
                           "--llm", spec], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("name", ["torn-adapter", "junk", "header-only", "base-as-adapter"])
def test_a_bad_adapter_gets_one_line_never_a_crash(bad_files, name):  # case 6
    r = ask(f"local:+{bad_files / name}.gguf", bad_files)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])  # 139 was llama.cpp's segfault
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and f"{name}.gguf" in r.stderr, r.stderr


def test_a_torn_model_gets_one_line_never_a_crash(bad_files):  # case 6, local:PATH.gguf
    r = ask(f"local:{bad_files / 'torn-model.gguf'}", bad_files)
    assert r.returncode == 2 and "truncated or corrupt" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    adapter_as_model = ask(f"local:{models_dir() / 'ft-react.gguf'}", bad_files)
    assert adapter_as_model.returncode == 2 and "is a LoRA adapter, not a model" in adapter_as_model.stderr


@pytest.mark.slow
def test_a_good_adapter_still_loads_in_llama_cpp(bad_files):
    """The check lets through what llama.cpp loads: the shipped adapter, by path, in a child process."""
    r = ask(f"local:+{models_dir() / 'ft-react.gguf'}", bad_files)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr[-500:]


@pytest.mark.parametrize("which", ["adapter", pytest.param("model", marks=pytest.mark.slow)])  # gguf takes 15 s
def test_our_reader_agrees_with_the_gguf_package(which):
    gguf = pytest.importorskip("gguf")  # the training extra; the check itself does not need it
    from react_teach.llm import gguf_file
    for path in [bundled_path() if which == "model" else models_dir() / "ft-react.gguf"]:
        theirs = {t.name: (tuple(int(x) for x in t.shape), t.tensor_type.name, int(t.n_bytes))
                  for t in gguf.GGUFReader(str(path)).tensors}
        ours = {t.name: (t.shape, t.type, t.nbytes) for t in gguf_file.read(path).tensors.values()}
        assert ours == theirs


def test_an_adapter_for_another_base_is_refused(tmp_path):
    """Every tensor's shape against the base: ft-react's pairs with one dimension changed are another model's."""
    data = bytearray((models_dir() / "ft-react.gguf").read_bytes())
    # in the table, a tensor's name is followed by its number of dimensions (uint32) and its dimensions (uint64):
    # swapped, lora_a keeps its size (so its data still fits) but no longer fits the base's attn_q
    name = b"blk.0.attn_q.weight.lora_a"
    at = data.index(name) + len(name) + 4
    data[at:at + 16] = data[at + 8:at + 16] + data[at:at + 8]
    other = tmp_path / "other-base.gguf"
    other.write_bytes(bytes(data))
    with pytest.raises(LLMError, match="another base model|not inside the file"):
        from_spec(f"local:+{other}", cache=False)


@pytest.mark.slow
def test_a_cache_key_and_a_run_header_name_the_model_by_its_bytes(tmp_path):  # case 7
    """Two different GGUF files under one name (one byte of a norm weight changed): no shared cache entry, and
    a run made with one is not continued with the other."""
    from react_teach.runs import RunFileError, run

    a, b = tmp_path / "a" / "model.gguf", tmp_path / "b" / "model.gguf"
    for p in (a, b):
        p.parent.mkdir()
        shutil.copyfile(bundled_path(), p)
    from react_teach.llm import gguf_file

    norm = gguf_file.read(b).tensors["output_norm.weight"]
    with open(b, "r+b") as f:  # a real, loadable, different model: one float of the final norm changed
        f.seek(_data_start(b) + norm.offset)
        f.write(b"\x00\x00\x80\x3f")
    la, lb = from_spec(f"local:{a}", cache=False), from_spec(f"local:{b}", cache=False)
    assert la.name == lb.name and la.identity != lb.identity
    cache = tmp_path / "cache"
    first = CachedLLM(la, cache)
    first.complete("Question: 2 + 2?\nAnswer:", stop=["\n"], max_tokens=5)
    second = CachedLLM(lb, cache)
    second.complete("Question: 2 + 2?\nAnswer:", stop=["\n"], max_tokens=5)
    assert second.hits == 0 and len(list(cache.rglob("*.json"))) == 2
    qs = [{"id": "q1", "question": "Who wrote Hamlet?", "answer": "William Shakespeare"}]
    out = tmp_path / "r.jsonl"
    run("standard", qs, out, llm=la, progress=False, max_steps=1)
    with pytest.raises(RunFileError, match="model"):
        run("standard", qs + [{"id": "q2", "question": "Who wrote Faust?", "answer": "Goethe"}], out, llm=lb,
            progress=False)


def _data_start(path) -> int:
    """Where the tensor data begins: the end of the table, aligned (what gguf_file checks every offset against)."""
    import gguf
    return int(gguf.GGUFReader(str(path)).data_offset)


def test_a_cached_usage_that_is_not_a_number_is_a_miss(tmp_path):  # case 11
    inner = ScriptLLM(["fresh"])
    cache = CachedLLM(inner, tmp_path)
    key = request_key(inner.name, "Q?", None, 0.0, 100, 1)
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir()
    for usage in ({"prompt_tokens": "many"}, {"completion_tokens": None}, {"seconds": True}):
        path.write_text(json.dumps([{"text": "stale", "usage": usage, "finish_reason": "stop"}]))
        inner.calls, inner.completions = 0, ["fresh"]
        assert cache.complete("Q?")[0].text == "fresh" and inner.calls == 1 and cache.hits == 0


def test_a_cassette_usage_that_is_not_a_number_is_one_line(tmp_path):  # case 11
    from react_teach.llm import Cassette

    tape = tmp_path / "tape.jsonl"
    Cassette(tape, ScriptLLM(["x"])).complete("p")
    line = json.loads(tape.read_text())
    line["completions"][0]["usage"]["prompt_tokens"] = "ten"  # a count a cost table would add up later
    tape.write_text(json.dumps(line) + "\n")
    with pytest.raises(LLMError, match=r"tape.jsonl:1: not a cassette line"):
        Cassette(tape).complete("p")
