"""A soup: adapters trained on interleaved parts of the data, and their exact mean in weight space, which llama.cpp
loads like any adapter. The shipped adapters are the real parents; the mean is checked matrix by matrix."""
import json
import shutil

import numpy as np
import pytest

from react_teach.llm import adapters

gguf = pytest.importorskip("gguf")  # the training extra: average reads and writes GGUF tensors
soup = pytest.importorskip("react_teach.finetune.soup")

MODELS = adapters.models_dir()


def deltas(path) -> dict:
    """What an adapter adds to each matrix, (alpha / rank) * B @ A, read straight from the file."""
    reader = gguf.GGUFReader(str(path))
    field = reader.fields["adapter.lora.alpha"]
    alpha = float(field.parts[field.data[0]][0])
    t = {x.name: np.asarray(x.data, dtype=np.float32).reshape([int(d) for d in reversed(x.shape)])
         for x in reader.tensors}
    out = {}
    for name in t:
        if name.endswith("lora_a"):
            a, b = t[name], t[name[:-1] + "b"]
            out[name[:-7]] = (alpha / a.shape[0]) * b @ a
    return out


def test_the_parts_are_interleaved_and_together_are_the_whole():
    items = list(range(2796))
    one, two = soup.part(items, 1, 2), soup.part(items, 2, 2)
    assert sorted(one + two) == items and not set(one) & set(two)
    assert one[:3] == [0, 2, 4] and two[:3] == [1, 3, 5]
    # a course question weighed twice sits 423 places after its first copy: one copy in each part
    assert all(((1950 + j) in one) != ((1950 + 423 + j) in one) for j in range(423))
    for k, n in ((0, 2), (3, 2), (1, 0), (True, 2)):
        with pytest.raises(ValueError, match="part"):
            soup.part(items, k, n)


def test_the_mean_adds_exactly_the_mean_of_the_parents_changes(tmp_path):
    react, every = MODELS / "ft-react.gguf", MODELS / "ft-react-all.gguf"
    prov = soup.average([react, every], tmp_path / "mean.gguf", meta={"command": "test"})
    a, b, mean = deltas(react), deltas(every), deltas(tmp_path / "mean.gguf")
    assert len(mean) == len(a) == 210
    worst = max(np.abs(mean[k] - (a[k] + b[k]) / 2).max() for k in a)
    biggest = max(np.abs(a[k]).max() for k in a)
    assert worst < 1e-3 * biggest, (worst, biggest)  # float16 storage, nothing more
    # not a copy of either parent: they differ, and the mean sits between them
    assert max(np.abs(mean[k] - a[k]).max() for k in a) > 100 * worst
    parents = [json.loads((MODELS / f"{n}.json").read_text()) for n in ("ft-react", "ft-react-all")]
    assert prov["rank"] == 16 and prov["minutes"] == round(sum(p["minutes"] for p in parents), 1)
    assert prov["steps"] == sum(p["steps"] for p in parents)
    assert [p["adapter_sha256"] for p in prov["soup_of"]] == [p["adapter_sha256"] for p in parents]
    assert "loss" not in prov  # the parents disagree on it (the model's turns, every token): it is not claimed
    assert prov["method"] == "react" and prov["adapter_sha256"] == adapters.file_hash(tmp_path / "mean.gguf")
    # parents of other ranks: the mean of a rank-16 mean and a rank-8 adapter is still the exact mean
    prov2 = soup.average([tmp_path / "mean.gguf", react], tmp_path / "mean2.gguf")
    again = deltas(tmp_path / "mean2.gguf")
    assert prov2["rank"] == 24
    assert max(np.abs(again[k] - ((a[k] + b[k]) / 2 + a[k]) / 2).max() for k in a) < 1e-3 * biggest


def test_what_cannot_be_averaged_is_refused_before_a_byte_is_written(tmp_path):
    out = tmp_path / "mean.gguf"
    with pytest.raises(ValueError, match="differ in method"):
        soup.average([MODELS / "ft-react.gguf", MODELS / "ft-act.gguf"], out)
    with pytest.raises(ValueError, match="two adapters"):
        soup.average([MODELS / "ft-react.gguf"], out)
    bare = tmp_path / "bare.gguf"
    shutil.copy(MODELS / "ft-react.gguf", bare)  # an adapter with no provenance: its mean could not say what it is
    with pytest.raises(ValueError, match="no provenance"):
        soup.average([MODELS / "ft-react.gguf", bare], out)
    notes = tmp_path / "notes.gguf"
    notes.write_text("a learner's notes\n")
    with pytest.raises(ValueError):
        soup.average([MODELS / "ft-react.gguf", MODELS / "ft-react-all.gguf"], notes)
    assert notes.read_text() == "a learner's notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bare.gguf", "notes.gguf"]


@pytest.mark.slow
def test_llama_cpp_reads_the_mean_of_an_adapter_with_itself_as_that_adapter(tmp_path):
    from react_teach import llm as llm_mod

    soup.average([MODELS / "ft-react.gguf"] * 2, tmp_path / "twice.gguf")
    prompt = "Question: Which city is the capital of the country where Labake was filmed?\nThought 1:"
    texts = [llm_mod.from_spec(spec, cache=False).complete(prompt, stop=["\nObservation 1:"], max_tokens=48)[0].text
             for spec in ("local:ft-react", f"local:+{tmp_path / 'twice.gguf'}", "local")]
    assert texts[0] == texts[1] != texts[2], texts


@pytest.mark.slow
def test_a_soup_trains_its_parts_resumes_and_ships_one_adapter(tmp_path, capsys):
    pytest.importorskip("torch")
    from react_teach.cli import main

    out = tmp_path / "soup.gguf"
    argv = ["finetune", "--method", "standard", "--n", "8", "--soup", "2", "--max-steps", "2", "--batch-tokens",
            "64", "--threads", "1", "--out", str(out)]
    assert main(argv) == 0
    prov = json.loads(out.with_suffix(".json").read_text())
    parts = [json.loads((tmp_path / "soup.parts" / f"soup.part{k}of2.json").read_text()) for k in (1, 2)]
    assert [p["part"] for p in parts] == ["1/2", "2/2"] and [p["seed"] for p in parts] == [0, 1]
    assert parts[0]["data_sha256"] != parts[1]["data_sha256"] and [p["examples"] for p in parts] == [4, 4]
    assert prov["examples"] == 8 and prov["steps"] == sum(p["steps"] for p in parts) and prov["rank"] == 16
    assert prov["command"] == "python -m react_teach " + " ".join(argv)
    assert [p["adapter_sha256"] for p in prov["soup_of"]] == [p["adapter_sha256"] for p in parts]
    # a rerun of the same command resumes each finished part from its checkpoint: no step is trained again
    assert main(argv) == 0
    assert [json.loads((tmp_path / "soup.parts" / f"soup.part{k}of2.json").read_text())["losses"]
            for k in (1, 2)] == [p["losses"] for p in parts]
    capsys.readouterr()
