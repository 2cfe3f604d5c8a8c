"""Fine-tuning: training text in the agent's own format, our torch model against llama.cpp, a smoke training whose
adapter llama.cpp loads, resuming, the shipped adapters' provenance, and every bad input with a clear message."""
import collections
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from react_teach.llm import adapters
from react_teach import finetune, llm as llm_mod
from react_teach.agent import Agent, prompt_prefix
from react_teach.llm import LLMError, ScriptLLM, bundled_path

ROOT = Path(__file__).resolve().parents[2]
REACT = ("Question: Who directed Labake?\nThought 1: I need to search Labake.\nAction 1: Search[Labake]\n"
         "Observation 1: Labake is a film directed by Badrorun Lukon.\nThought 2: So the answer is Badrorun Lukon.\n"
         "Action 2: Finish[Badrorun Lukon]\nObservation 2: Episode finished, reward = 1\n")


def test_segments_learn_exactly_what_the_model_writes_at_inference():
    segs = finetune.segments(REACT, "react")
    learned = "".join(s for s, learn in segs if learn)
    assert learned == (" I need to search Labake.\nAction 1: Search[Labake]\nObservation 1:"
                       " So the answer is Badrorun Lukon.\nAction 2: Finish[Badrorun Lukon]\nObservation 2:")
    assert "".join(s for s, _ in segs) == REACT  # nothing lost, nothing added
    every = finetune.segments(REACT, "react", loss="all")
    assert "".join(s for s, learn in every if learn) == REACT[REACT.index(" I need"):]
    with pytest.raises(ValueError, match="loss must be"):
        finetune.segments(REACT, "react", loss="some")


def test_training_text_is_the_deleted_lines_of_the_react_trajectory():
    from react_teach.trajectory import parse

    t = parse(REACT)
    assert finetune.training_text(t, "react") == REACT
    assert "Thought" not in finetune.training_text(t, "act")
    assert finetune.training_text(t, "standard") == "Question: Who directed Labake?\nAnswer: Badrorun Lukon\n"
    cot = finetune.training_text(t, "cot")
    assert cot.startswith("Question: Who directed Labake?\nThought: Let's think step by step.")
    assert cot.endswith("\nAnswer: Badrorun Lukon\nQuestion:")  # ends at the stop the CoT runner uses
    with pytest.raises(ValueError, match="no fine-tuning format"):
        finetune.training_text(t, "cot-sc")


@pytest.mark.parametrize("method", ["react", "act"])
def test_the_oracle_training_texts_teach_the_stop_after_finish(method):
    # The texts the next adapters train on, not a hand-written one: a Finish with no observation line after it
    # leaves the model nothing to learn there, and a model trained on that runs on past its answer at inference.
    import re
    texts = finetune.world_texts(method, 20, version=2) + finetune.course_texts(method, 5)
    for text in texts:
        last = [s for s, learn in finetune.segments(text, method) if learn][-1]
        assert re.search(r"Finish\[[^\]]*\]\nObservation \d+:$", last), last[-80:]
    # version 1 stays as the shipped adapters learned it (their data hash is checked below): no line after Finish
    assert finetune.world_texts(method, 3)[0].rstrip("\n").split("\n")[-1].startswith("Action")


def test_a_fine_tuned_model_is_prompted_zero_shot_and_a_prompted_one_with_exemplars():
    class FineTuned(ScriptLLM):
        zero_shot = True

    assert prompt_prefix(FineTuned([]), "react", "hotpotqa") == ""
    assert prompt_prefix(ScriptLLM([]), "react", "hotpotqa").count("Question:") == 6
    agent = Agent("Who directed Labake?", llm=FineTuned([]), wiki=object())
    assert agent.transcript() == "Question: Who directed Labake?\n"


def test_a_model_that_writes_its_checks_out_gets_the_room_it_asks_for_and_the_paper_setup_keeps_100():
    from react_teach.llm.cassette import Recorder

    class Written(ScriptLLM):
        zero_shot, step_tokens = True, 200

    step = [" I know.\nAction 1: Finish[x]"]
    for llm, room in ((Written(step), 200), (ScriptLLM(step), 100)):
        rec = Recorder(llm)
        Agent("Who directed Labake?", llm=rec, wiki=object(), prefix="").think_act()
        assert [kw["max_tokens"] for _, kw in rec.requests] == [room]
    rec = Recorder(Written(step))  # an explicit budget wins over the model's
    Agent("Who?", llm=rec, wiki=object(), max_tokens=30).think_act()
    assert rec.requests[0][1]["max_tokens"] == 30


@pytest.mark.slow
def test_a_local_adapter_asks_for_200_tokens_a_step_and_the_bare_model_for_100():
    from react_teach.llm import LocalLLM

    assert LocalLLM(lora=adapters.models_dir() / "ft-react.gguf", n_ctx=256).step_tokens == 200
    assert LocalLLM(n_ctx=256).step_tokens == 100


def test_batches_group_similar_lengths_within_the_token_budget():
    assert finetune.batches([5, 9, 6, 2], 12) == [[3, 0], [2], [1]]
    plan = finetune.batches([30, 10, 20, 400, 25], 100)
    assert sorted(i for b in plan for i in b) == [0, 1, 2, 3, 4]
    assert all(len(b) * max([30, 10, 20, 400, 25][i] for i in b) <= 100 or len(b) == 1 for b in plan)


def test_the_held_out_world_is_refused_as_training_data():
    from react_teach import world

    with pytest.raises(ValueError, match="dev world: never train on it"):
        finetune.world_texts("react", 5, seeds=(1, world.HELDOUT_SEED))


def test_weigh_gives_a_shape_more_of_the_same_questions_and_is_refused_where_it_cannot_hold(capsys):
    from react_teach import world
    from react_teach.world.oracle import needs_lookup
    from react_teach.cli import main

    plain = finetune.oracle_trajectories(40, (1, 2), 2)
    heavy = finetune.oracle_trajectories(40, (1, 2), 2, "trained", (("bridge3", 3),))
    worlds = [world.generate(s, world.SIZE, 2) for s in (1, 2)]
    order = [w.questions[k] for k in range(world.SIZE) for w in worlds]  # round-robin, as the training takes them
    asked = {q["question"]: q["shape"] for q in order}
    shapes = lambda ts: collections.Counter(asked[t.question] for t in ts)  # noqa: E731
    assert len(heavy) == 40 and shapes(heavy)["bridge3"] >= 2 * shapes(plain)["bridge3"] > 0
    for shape, k in shapes(heavy).items():  # each shape's first questions, and the whole in the training's order
        assert [t.question for t in heavy if asked[t.question] == shape] == \
            [q["question"] for q in order if q["shape"] == shape][:k]
    assert finetune.world_texts("react", 40, seeds=(1, 2), version=2, weigh=()) == \
        [finetune.training_text(t, "react") for t in plain]  # off, the data is the same bytes
    # lookup is no shape: the questions whose fact only a lookup reaches, whatever their shape, weighed up
    looks = lambda ts: sum(any(s.action.startswith("Lookup[") for s in t.steps) for t in ts)  # noqa: E731
    more = finetune.oracle_trajectories(40, (1, 2), 2, "trained", (("lookup", 3),))
    assert len(more) == 40 and looks(more) >= 2 * looks(plain) > 0
    late = [q["question"] for k in range(world.SIZE) for w in worlds if needs_lookup(w, q := w.questions[k])]
    assert [t.question for t in more if looks([t])] == late[:looks(more)]  # the first of them, in the training's order
    with pytest.raises(ValueError, match="have 4 a questions; 6 weighed by .* needs 5"):
        finetune.pick(["a", "b"] * 4, 6, (("a", 9),))
    with pytest.raises(ValueError, match="weigh needs data version 2"):
        finetune.oracle_trajectories(4, (1,), 1, "trained", (("bridge3", 2),))
    for args, message in ((["--weigh", "bridge4=2", "--data", "2"], "--weigh takes SHAPE=K"),
                          (["--weigh", "yesno=0", "--data", "2"], "--weigh takes SHAPE=K"),
                          (["--weigh", "lookup=0", "--data", "2"], "or lookup, the questions answered by a lookup"),
                          (["--weigh", "yesno=2"], "--weigh needs --data 2")):
        with pytest.raises(SystemExit) as e:
            main(["finetune", *args])
        assert e.value.code == 2 and message in capsys.readouterr().err


def test_adapter_files_are_checked_before_llama_cpp_sees_them(tmp_path):
    with pytest.raises(LLMError, match="no adapter file"):
        llm_mod.from_spec(f"local:+{tmp_path / 'missing.gguf'}")
    bad = tmp_path / "notes.gguf"
    bad.write_text("not a model")
    with pytest.raises(LLMError, match="not a GGUF file"):
        llm_mod.from_spec(f"local:+{bad}")


def test_a_shipped_adapter_that_does_not_match_its_provenance_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(adapters, "models_dir", lambda: tmp_path)
    with pytest.raises(LLMError, match="not in data/models"):
        llm_mod.from_spec("local:ft-act")
    (tmp_path / "ft-act.gguf").write_bytes(b"GGUF corrupted")
    (tmp_path / "ft-act.json").write_text(json.dumps({"adapter_sha256": "0" * 64, "base_sha256": "0" * 64}))
    with pytest.raises(LLMError, match="corrupt"):
        llm_mod.from_spec("local:ft-act")
    prov = {"adapter_sha256": adapters.file_hash(tmp_path / "ft-act.gguf"), "base_sha256": "0" * 64}
    (tmp_path / "ft-act.json").write_text(json.dumps(prov))
    with pytest.raises(LLMError, match="another base model"):
        llm_mod.from_spec("local:ft-act")


def test_without_the_training_extra_the_message_names_the_install_command():
    code = ("import sys; sys.modules['torch'] = None\n"
            "from react_teach.cli import main\n"
            "sys.exit(main(['finetune', '--method', 'standard', '--n', '2']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2
    assert "pip install 'react_teach[train]'" in r.stderr and "Traceback" not in r.stderr


def shipped(name: str) -> dict:
    prov_path = adapters.models_dir() / f"{name}.json"
    if not prov_path.exists():
        pytest.skip(f"{name} is not trained yet")
    return json.loads(prov_path.read_text())


@pytest.mark.parametrize("name", sorted(adapters.SHIPPED))
def test_each_shipped_adapter_matches_its_provenance(name):
    prov = shipped(name)
    assert adapters.file_hash(adapters.models_dir() / prov["adapter"]) == prov["adapter_sha256"]
    assert adapters.file_hash(bundled_path()) == prov["base_sha256"]
    assert prov["method"] == adapters.SHIPPED[name] and prov["command"].startswith("python -m react_teach finetune ")
    assert (adapters.models_dir() / prov["adapter"]).stat().st_size < 10 * 2**20  # the issue's budget: under 10 MB
    for key in ("steps", "lr", "rank", "final_loss", "minutes", "command"):
        assert prov[key] not in (None, ""), key


@pytest.mark.slow  # version 2's data is 24 worlds and the prose set, rebuilt: minutes, not the everyday loop
@pytest.mark.parametrize("name", sorted(adapters.SHIPPED))
def test_each_shipped_adapter_was_trained_on_the_data_its_provenance_names(name):
    prov = shipped(name)
    course = prov.get("course_questions", 0)  # the course-corpus questions come after the world ones
    times = prov.get("course_times", 1)
    texts = finetune.world_texts(prov["method"], prov["examples"] - course * times,
                                 version=prov.get("data_version", 1), course=course, course_times=times,
                                 weigh=tuple(prov.get("weigh", {}).items()))
    assert finetune.data_hash(texts) == prov["data_sha256"]


# ---------------------------------------------------------------------------------------------- with torch
torch = pytest.importorskip("torch")


@pytest.mark.slow
def test_our_torch_model_computes_what_llama_cpp_computes():
    from react_teach.llm.local import llama

    Llama = llama()  # as the course loads it: on a CPU with AMX, the plain buffers

    from react_teach.finetune.torch_llama import TorchLlama, tokenizer

    ids = tokenizer().tokenize(REACT.encode(), add_bos=False, special=False)[:60]
    with torch.no_grad():
        ours = TorchLlama.from_gguf(bundled_path(), rank=2).logits(torch.tensor([ids]))[0].numpy()
    ref = Llama(model_path=str(bundled_path()), logits_all=True, n_ctx=256, verbose=False)
    ref.eval(ids)
    theirs = np.array(ref.scores[: len(ids)])
    # the GGUF holds 4-bit weights that llama.cpp multiplies in its own kernels: close, not bit-equal
    assert np.corrcoef(ours.ravel(), theirs.ravel())[0, 1] > 0.99
    assert (ours.argmax(-1) == theirs.argmax(-1)).mean() > 0.9


@pytest.mark.slow
def test_smoke_training_lowers_the_loss_and_llama_cpp_loads_the_adapter(tmp_path):
    from react_teach.llm.local import llama

    Llama = llama()  # as the course loads it: on a CPU with AMX, the plain buffers

    from react_teach.finetune.torch_llama import TorchLlama, load_adapter, tokenizer

    texts = finetune.world_texts("react", 4)
    out = tmp_path / "smoke.gguf"
    prov = finetune.train(texts, "react", out, epochs=4, batch_tokens=1024, lr=3e-3, progress=False)
    losses = prov["losses"]
    assert np.mean(losses[-2:]) < 0.7 * np.mean(losses[:2]), losses
    assert json.loads(out.with_suffix(".json").read_text())["adapter_sha256"] == adapters.file_hash(out)
    # llama.cpp applies the adapter exactly as our torch model does: the changes in the logits agree
    ids = tokenizer().tokenize(texts[0].encode(), add_bos=False, special=False)[:48]
    with torch.no_grad():
        model = TorchLlama.from_gguf(bundled_path(), rank=8)
        base = model.logits(torch.tensor([ids]))[0].numpy()
        tuned = load_adapter(model, out).logits(torch.tensor([ids]))[0].numpy()
    cpp = Llama(model_path=str(bundled_path()), lora_path=str(out), logits_all=True, n_ctx=256, verbose=False)
    cpp.eval(ids)
    delta_cpp = np.array(cpp.scores[: len(ids)]) - base
    assert np.corrcoef((tuned - base).ravel(), delta_cpp.ravel())[0, 1] > 0.9
    # and through the course's own spec, the completion changes
    prompt = texts[0].split("\nThought 1:")[0] + "\nThought 1:"
    before = llm_mod.from_spec("local", cache=False).complete(prompt, stop=["\nObservation 1:"], max_tokens=40)
    after = llm_mod.from_spec(f"local:+{out}", cache=False).complete(prompt, stop=["\nObservation 1:"],
                                                                     max_tokens=40)
    assert before[0].text != after[0].text


@pytest.mark.slow
def test_an_interrupted_training_resumes_from_its_last_checkpoint(tmp_path, monkeypatch):
    texts = finetune.world_texts("standard", 6)
    out, calls = tmp_path / "std.gguf", {"n": 0}
    real_step = torch.optim.AdamW.step

    def dies_on_third(self, *a, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # as if the learner pressed Ctrl-C during step 3
        return real_step(self, *a, **kw)

    kw = dict(epochs=4, batch_tokens=64, save_every=1, progress=False, max_steps=4)
    monkeypatch.setattr(torch.optim.AdamW, "step", dies_on_third)
    with pytest.raises(KeyboardInterrupt):
        finetune.train(texts, "standard", out, **kw)
    assert not out.exists()
    monkeypatch.setattr(torch.optim.AdamW, "step", real_step)
    first_two = json.loads((out.with_suffix(".ckpt") / "checkpoint.json").read_text())["state"]["losses"]
    prov = finetune.train(texts, "standard", out, **kw)
    assert len(first_two) == 2 and prov["losses"][:2] == first_two and len(prov["losses"]) == 4
    with pytest.raises(ValueError, match="another run"):
        finetune.train(texts[:3], "standard", out, force=True, **kw)  # other data, same folder: refused, not mixed


@pytest.mark.slow
def test_a_tail_mean_ships_the_mean_of_the_last_weights_and_resumes_to_the_same(tmp_path, monkeypatch):
    from react_teach.finetune.torch_llama import TorchLlama, read_lora

    texts = finetune.world_texts("standard", 6)
    kw = dict(epochs=4, batch_tokens=64, save_every=1, progress=False, max_steps=4, threads=1)
    plain = finetune.train(texts, "standard", tmp_path / "plain.gguf", **kw)
    out = tmp_path / "tail.gguf"
    real_step, calls = torch.optim.AdamW.step, {"n": 0}

    def dies_on_fourth(self, *a, **k):  # after steps 2 and 3 are saved: the resumed run must reuse them
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_step(self, *a, **k)

    monkeypatch.setattr(torch.optim.AdamW, "step", dies_on_fourth)
    with pytest.raises(KeyboardInterrupt):
        finetune.train(texts, "standard", out, tail=3, **kw)
    monkeypatch.setattr(torch.optim.AdamW, "step", real_step)
    ckpt = out.with_suffix(".ckpt")
    assert sorted(p.name for p in ckpt.glob("tail-*.pt")) == ["tail-2.pt", "tail-3.pt"] and not out.exists()
    prov = finetune.train(texts, "standard", out, tail=3, **kw)
    assert prov["tail"] == [2, 3, 4] and prov["losses"] == plain["losses"]  # the same run, only averaged

    # the adapter is the mean of the three steps' weights, matrix by matrix, and not the last step's weights
    steps = [torch.load(ckpt / f"tail-{s}.pt", weights_only=True) for s in (2, 3, 4)]
    _, got = read_lora(out)
    _, last = read_lora(tmp_path / "plain.gguf")
    name = "blk.3.attn_q.weight.lora_b"
    mean = sum(s["blk_3_attn_q_b"] for s in steps).numpy() / 3
    close = dict(rtol=2e-3, atol=1e-6)  # the file holds float16: three decimal digits
    assert np.allclose(got[name], mean, **close)
    assert np.allclose(last[name], steps[-1]["blk_3_attn_q_b"].numpy(), **close)
    assert not np.allclose(got[name], last[name], **close)

    # a kept step changed after it was saved: refused in one line, never averaged in
    (ckpt / "tail-3.pt").write_bytes((ckpt / "tail-2.pt").read_bytes())
    hashes = json.loads((ckpt / "checkpoint.json").read_text())["state"]["tails"]
    with pytest.raises(ValueError, match="tail-3.pt is missing or changed"):
        finetune.checkpoint.average_tail(TorchLlama.from_gguf(bundled_path()), ckpt, [2, 3, 4], hashes)
