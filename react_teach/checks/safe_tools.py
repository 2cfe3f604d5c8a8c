"""Checkers for the notebook "safe tools": an arithmetic-only test written with `ast`, and which inputs are refused."""
from react_teach.exercises import call, exercise, expect
from react_teach.tools.calculator import calculate

NB = "safe_tools"

EXPRESSIONS = ["2 ** 10", "9 ** 9 ** 9", "1 / 0", "(2 ** 100) ** 100", "abs(-3)", "0.1 + 0.2", "-(3)",
               "(1).__class__"]

ACCEPT = ["1 + 2", "2 * (3 + 4) ** 2", "-7 / 2", "1.5e3 - 2", "7 // 2 % 3"]
REFUSE = ["__import__('os').getcwd()", "(1).__class__", "x + 1", "'a' * 3", "[1, 2]", "(lambda: 1)()",
          "1 if 2 else 3", "print(1)"]


@exercise(NB, 1, "arithmetic only")
def is_arithmetic(fn):
    """`fn(expression)` is True only for numbers joined by arithmetic operators and parentheses."""
    for text in ACCEPT:
        expect(call(fn, text) is True, f"{text!r} is plain arithmetic and should be accepted")
    for text in REFUSE:
        expect(call(fn, text) is False, f"{text!r} should be refused: walk the syntax tree (ast.parse(..., "
               "mode='eval')) and accept only the node types arithmetic needs; never run the text to find out")


@exercise(NB, 2, "which inputs calculate refuses")
def refused(indices):
    """The positions (0-based) in EXPRESSIONS of the inputs `calculate` refuses."""
    def refuses(text):
        try:
            calculate(text)
        except ValueError:
            return True
        return False

    want = {i for i, text in enumerate(EXPRESSIONS) if refuses(text)}
    expect(isinstance(indices, (list, set, tuple)) and all(isinstance(i, int) for i in indices),
           "give a list of positions, e.g. [0, 3]")
    missing, extra = want - set(indices), set(indices) - want
    expect(not extra, f"calculate accepts {', '.join(repr(EXPRESSIONS[i]) for i in sorted(extra))}: try it")
    expect(not missing, f"{len(missing)} refused input(s) missing: size and exponent limits refuse some inputs "
           "that are perfectly good arithmetic")
