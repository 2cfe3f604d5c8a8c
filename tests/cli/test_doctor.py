"""`doctor`: every check reports ok or FAIL in one line, and the exit status says whether all passed."""
from react_teach.cli.doctor import doctor


def test_doctor_passes_with_a_working_model(tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_text('" Rome\\nQuestion: more"\n" there was a test."\n')
    assert doctor(f"script:{script}") == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:-1]] == ["ok"] * (len(out) - 1) and out[-1] == "all checks passed"
    assert any("stops at '\\n': ' Rome'" in line for line in out)  # the stop sequence was applied
    assert any(line.startswith("ok    hotpotqa: ") and "replay byte for byte" in line for line in out)


def test_doctor_reports_a_broken_model_and_still_runs_the_other_checks(tmp_path, capsys):
    assert doctor(f"local:{tmp_path / 'missing.gguf'}") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL  model: LLMError: no model file at")
    assert any(line.startswith("ok    wiki: ") for line in out) and out[-1] == "1 check(s) failed"
