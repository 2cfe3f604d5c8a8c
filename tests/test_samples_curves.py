"""The hybrids' curves against the number of CoT-SC samples follow the paper's rules to the vote."""
from react_teach.score import samples_curves


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
