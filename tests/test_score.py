"""HotpotQA EM/F1 by the official rules, FEVER accuracy, run summaries."""
import pytest

from react_teach.score import exact_match, f1, normalize_answer, samples_curves, summarize, summary_line


@pytest.mark.parametrize("pred,gold,em,f", [
    ("The Louvre", "louvre", True, 1.0),                          # articles and case
    ("Arthur's Magazine!", "Arthurs Magazine", True, 1.0),        # punctuation
    ("  1,800  to 7,000 ft ", "1800 to 7000 ft", True, 1.0),      # whitespace and commas
    ("director, screenwriter", "director, screenwriter, actor", False, 0.8),
    ("yes", "no", False, 0.0),
    ("yes", "yes it is", False, 0.0),                             # yes/no/noanswer: F1 only when equal
    ("noanswer", "noanswer", True, 1.0),
    ("", "Paris", False, 0.0),
    (None, "Paris", False, 0.0),
    ("an apple a day", "the apple", False, 2 * (1 / 2 * 1) / (1 / 2 + 1)),  # a/an/the dropped: {apple, day} vs {apple}
])
def test_official_hotpotqa_rules(pred, gold, em, f):
    assert exact_match(pred, gold) is em
    assert f1(pred, gold) == pytest.approx(f)


def test_normalisation_keeps_non_ascii_punctuation_like_the_official_script():
    assert normalize_answer("Kaurismäki’s") == "kaurismäki’s"  # only string.punctuation is removed


def test_summaries_and_the_last_line():
    rows = [{"method": "react", "em": True, "f1": 1.0, "n_calls": 3, "n_badcalls": 1, "level": "easy",
             "usage": {"prompt_tokens": 100, "cached_tokens": 90, "completion_tokens": 10}, "seconds": 1.0},
            {"method": "react", "em": False, "f1": 0.5, "n_calls": 7, "n_badcalls": 0, "level": "hard",
             "usage": {"prompt_tokens": 300, "cached_tokens": 280, "completion_tokens": 30}, "seconds": 2.5}]
    s = summarize(rows)["react"]
    assert (s["n"], s["em"], s["f1"], s["calls"], s["badcalls"], s["cached_tokens"]) == (2, 0.5, 0.75, 10, 1, 370)
    assert summary_line("react", s) == "react n=2 em=0.500 f1=0.750"
    assert summarize(rows, by="level")[("react", "hard")]["em"] == 0.0
    assert summary_line("react", summarize([{"method": "react", "correct": True}])["react"]) == "react n=1 acc=1.000"


def _official_em_f1(prediction: str, gold: str) -> tuple[bool, float]:
    """HotpotQA's rules, written out again independently of react_teach.score, to check it against."""
    import re
    import string
    from collections import Counter

    def norm(s):
        s = "".join(ch for ch in s.lower() if ch not in set(string.punctuation))
        return " ".join(re.sub(r"\b(a|an|the)\b", " ", s).split())

    p, g = norm(prediction), norm(gold)
    if (p in ("yes", "no", "noanswer") or g in ("yes", "no", "noanswer")) and p != g:
        return p == g, 0.0
    common = sum((Counter(p.split()) & Counter(g.split())).values())
    if common == 0:
        return p == g, 0.0
    precision, recall = common / len(p.split()), common / len(g.split())
    return p == g, 2 * precision * recall / (precision + recall)


# The hybrids' curves against the number of CoT-SC samples follow the paper's rules to the vote.
def rows(samples, react_answer="R", finished=True, gold="A"):
    react = [{"id": "q1", "answer": react_answer, "finished": finished}]
    cot_sc = [{"id": "q1", "samples": samples, "gold": gold}]
    return react, cot_sc


def test_cotsc_react_backs_off_only_below_half_the_votes_not_at_half():
    # k = 2: "A" and "B" tie, "A" wins with 1 vote = k/2, which is not fewer than k/2: CoT-SC's answer stands
    # k = 3: "A" has 1 of 3 votes < 1.5: ReAct's answer "R" is used
    curves = samples_curves(*rows(["A", "B", "C", "A"]))
    assert curves["cot-sc"] == [1.0, 1.0, 1.0, 1.0]
    assert curves["cotsc-react"] == [1.0, 1.0, 0.0, 1.0]


def test_react_cotsc_backs_off_exactly_when_react_did_not_finish():
    assert samples_curves(*rows(["A"], finished=True))["react-cotsc"] == [0.0]  # ReAct's wrong "R" stands
    assert samples_curves(*rows(["A"], finished=False))["react-cotsc"] == [1.0]  # CoT-SC's "A" is used
