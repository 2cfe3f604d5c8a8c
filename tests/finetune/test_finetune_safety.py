"""Issue 21, cases 3, 11 and 13: a planted checkpoint never runs code, a torn one or a provenance without its hash
is one line, bad numbers are refused up front, and a shipped adapter is never replaced by a weaker one.

Real files, the real CLI, real training for the checkpoint cases (slow)."""
import hashlib
import json
import pickle
import shutil

import pytest

from react_teach import finetune, llm as llm_mod
from react_teach.cli import main
from react_teach.llm import LLMError, adapters


def cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize("flag, value", [("--rank", "0"), ("--threads", "-1"), ("--n", "0"), ("--epochs", "0"),
                                         ("--batch-tokens", "0"), ("--lr", "0"), ("--alpha", "-1")])
def test_numbers_a_training_cannot_use_are_refused_up_front(capsys, tmp_path, flag, value):  # cases 11, 13
    code, err = cli(capsys, "finetune", "--method", "standard", "--n", "2", flag, value,
                    "--out", str(tmp_path / "a.gguf"))
    assert code == 2 and err.count("\n") == 1 and flag in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_shipped_adapter_is_never_replaced_by_a_weaker_one(capsys):  # case 13
    shipped = adapters.models_dir() / "ft-react.gguf"
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    code, err = cli(capsys, "finetune", "--method", "react", "--n", "5")
    assert code == 2 and "would replace it with a weaker adapter" in err and "--force" in err
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before
    assert not shipped.with_suffix(".ckpt").exists()
    # the course questions count: 1,949 world questions and 423 course ones twice are 2,795 examples, one short
    # of the shipped 2,796 (counting the world questions alone refused a run as large as the shipped one)
    code, err = cli(capsys, "finetune", "--method", "react", "--n", "1949", "--course", "423", "--course-times", "2")
    assert code == 2 and "; 2795 examples would replace it" in err, err


def test_a_foreign_file_at_out_is_refused_before_training(tmp_path):
    pytest.importorskip("torch")
    notes = tmp_path / "notes.txt"
    notes.write_text("not an adapter")
    with pytest.raises(ValueError, match="notes.txt is not a GGUF adapter file of ours"):
        finetune.train(["Question: x\nAnswer: y\n"], "standard", notes, progress=False)
    assert notes.read_text() == "not an adapter" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_provenance_without_its_hash_is_one_line(tmp_path, monkeypatch, capsys):  # case 11
    shutil.copyfile(adapters.models_dir() / "ft-act.gguf", tmp_path / "ft-act.gguf")
    monkeypatch.setattr(adapters, "models_dir", lambda: tmp_path)
    for prov in ({"base_sha256": "0" * 64}, [1, 2], "not json"):
        (tmp_path / "ft-act.json").write_text(prov if isinstance(prov, str) else json.dumps(prov))
        with pytest.raises(LLMError, match="ft-act.json (has no adapter_sha256|is not a provenance file)"):
            llm_mod.from_spec("local:ft-act")
    code, err = cli(capsys, "ask", "Who?", "--llm", "local:ft-act")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


# ------------------------------------------------------------------------------------- real training (slow)
class Planted:
    """A pickle that, when unpickled, writes a marker file: the proof that code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.mark.slow
def test_a_planted_or_torn_checkpoint_never_runs_and_is_one_line(tmp_path):  # cases 3 and 11
    torch = pytest.importorskip("torch")
    texts = finetune.world_texts("standard", 3)
    out, marker = tmp_path / "a.gguf", tmp_path / "code-ran"
    kw = dict(epochs=1, batch_tokens=64, save_every=1, progress=False, max_steps=2, threads=1)
    ckpt = out.with_suffix(".ckpt")
    ckpt.mkdir()
    (ckpt / "checkpoint.pt").write_bytes(pickle.dumps(Planted(marker)))  # where 4edbc7c looked, and unpickled
    prov = finetune.train(texts, "standard", out, **kw)
    assert not marker.exists() and len(prov["losses"]) == 2
    meta = json.loads((ckpt / "checkpoint.json").read_text())
    tensors = ckpt / meta["tensors"]
    good = tensors.read_bytes()

    # a planted pickle under the name and hash the JSON gives: weights_only refuses it, nothing runs
    tensors.write_bytes(pickle.dumps({"lora": Planted(marker)}))
    meta["sha256"] = hashlib.sha256(tensors.read_bytes()).hexdigest()
    (ckpt / "checkpoint.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="cannot be read as plain tensors"):
        finetune.train(texts, "standard", out, **kw)
    assert not marker.exists()

    # a torn checkpoint: its hash does not match, refused before torch reads a byte of it
    tensors.write_bytes(good[: len(good) // 2])
    with pytest.raises(ValueError, match="truncated or changed"):
        finetune.train(texts, "standard", out, **kw)

    # another run's checkpoint: refused on its settings alone
    with pytest.raises(ValueError, match="another run"):
        finetune.train(texts[:2], "standard", out, force=True, **kw)  # force: past the weaker-adapter guard
    assert torch  # the training extra was here for the real runs above


def test_a_checkpoint_from_before_tail_resumes_and_a_damaged_state_is_one_line(tmp_path):  # case 3
    """`checkpoint.read` on files written by hand: a state with no tail hashes (as every checkpoint had before
    --tail) resumes as a plain run's; a state whose tail hashes are not a table is refused, tensors unopened."""
    torch = pytest.importorskip("torch")
    from react_teach.finetune import checkpoint

    settings = {"method": "standard", "steps": 4}
    torch.save({"lora": {"w": torch.ones(2)}}, tmp_path / "checkpoint-2.pt")
    sha = hashlib.sha256((tmp_path / "checkpoint-2.pt").read_bytes()).hexdigest()
    meta = {"settings": settings, "state": {"step": 2, "losses": [1.5, 1.2], "seconds": 3.0},
            "tensors": "checkpoint-2.pt", "sha256": sha}
    (tmp_path / "checkpoint.json").write_text(json.dumps(meta))
    tensors, state = checkpoint.read(tmp_path, settings)
    assert state == {"step": 2, "losses": [1.5, 1.2], "seconds": 3.0, "tails": {}}
    assert torch.equal(tensors["lora"]["w"], torch.ones(2))

    meta["state"]["tails"] = ["201"]
    (tmp_path / "checkpoint.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="is damaged .*tail hashes.*delete .* to restart"):
        checkpoint.read(tmp_path, settings)
    assert checkpoint.read(tmp_path / "none", settings) is None  # no checkpoint: a fresh run
