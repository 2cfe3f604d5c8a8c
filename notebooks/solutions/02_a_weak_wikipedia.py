"""Reference solutions for the notebook "a weak Wikipedia"; `wrong` lists answers the checkers must refuse."""
solutions = {
    1: ["search[Leonid Levin]", "lookup[1980]", "search[Boston University]", "finish[1839]"],
    2: "named",  # "Nixon" and "name" work too; "named after" does not (no sentence contains those two words)
    3: ["milhouse van houten", "front row (software)"],
}
wrong = {
    1: [["finish[1839]"], ["search[Leonid Levin]", "finish[1839]"], ["search[Leonid Levin]", "finish[Boston University]"],
        ["search[Boston University]", "finish[1839]", "search[Leonid Levin]"]],
    2: ["named after", "Groening's choice", ""],
    3: [["milhouse van houten", "front row (software)", "High Plains"], ["milhouse van houten"]],
}
