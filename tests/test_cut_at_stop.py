"""`cut_at_stop` cuts where a server would: at the FIRST stop sequence in the text, whichever stop it is."""
from react_teach.llm import cut_at_stop


def test_the_first_of_two_different_stops_wins_in_either_order():
    text = "Search[x]\nObservation 1: invented\nQuestion: another one"
    for stops in (["\nObservation 1:", "\nQuestion:"], ["\nQuestion:", "\nObservation 1:"]):
        assert cut_at_stop(text, stops) == ("Search[x]", True)


def test_a_stop_that_occurs_twice_cuts_at_its_first_occurrence():
    assert cut_at_stop("Finish[a]\nQuestion: b\nQuestion: c", ["\nQuestion:"]) == ("Finish[a]", True)


def test_no_stop_in_the_text_or_no_stops_at_all_keeps_it_whole():
    assert cut_at_stop("Finish[a]", ["\nQuestion:"]) == ("Finish[a]", False)
    assert cut_at_stop("Finish[a]\nQuestion: b", None) == ("Finish[a]\nQuestion: b", False)
    assert cut_at_stop("Finish[a]", ["", "\nQ"]) == ("Finish[a]", False)  # an empty stop never cuts
