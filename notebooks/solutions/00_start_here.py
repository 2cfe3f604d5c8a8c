"""Reference solutions for the notebook "start here"; `wrong` lists answers the checkers must refuse."""
solutions = {
    1: ["\n"],  # ["\nQuestion:", "\nAnswer:"] also passes: any list that keeps the answer line alone
    2: "cached_tokens",
}
wrong = {
    1: [[], ["Answer:"], ["Question:"], "\n"],
    2: ["prompt_tokens", "seconds", "tokens"],
}
