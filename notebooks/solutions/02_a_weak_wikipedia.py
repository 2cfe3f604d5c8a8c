"""Reference solutions for the notebook "a weak Wikipedia"; `wrong` lists answers the checkers must refuse."""
solutions = {
    1: ["search[Leonid Levin]", "lookup[1980]", "search[Boston University]", "finish[1839]"],
    2: "named",  # "Nixon" and "name" work too; "named after" does not (no sentence contains those two words)
    3: ["milhouse van houten", "front row (software)"],
}
misconception = {
    1: "a right answer is a right answer, whether or not an observation showed it (a guess is not a lookup)",
    2: "lookup searches for the words anywhere on the page, like a search engine, not letter for letter in one sentence",
    3: "search forgives what a person would (a typo, a missing bracket) as well as what it does forgive (case)",
}
valid = {
    1: [["Search[Leonid Levin]", "Lookup[1980]", "Search[Boston University]", "Finish[1839]"],  # the paper's capitals
        [" search[Leonid Levin]", "search[Boston University]", "finish[1839] "]],
    2: ["Nixon", " named ", "NAMED"],
    3: [("front row (software)", "milhouse van houten"), {"milhouse van houten ", "front row (software)"}],
}
wrong = {
    1: [["finish[1839]"], ["search[Leonid Levin]", "finish[1839]"], ["search[Leonid Levin]", "finish[Boston University]"],
        ["search[Boston University]", "finish[1839]", "search[Leonid Levin]"], ["Finish[1839]"]],
    2: ["named after", "Groening's choice", "", "Simpsons"],
    3: [["milhouse van houten", "front row (software)", "High Plains"], ["milhouse van houten"]],
}
