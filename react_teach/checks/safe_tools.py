"""Checkers for the notebook "safe tools": an arithmetic-only test written with `ast`, and a prediction of which
inputs the calculator refuses.

What each exercise exists to catch:
1. arithmetic only: a blacklist (refuse names, calls, attributes ...) instead of a whitelist; whatever it forgets
   (a tuple, a comparison, bytes, a boolean operator) goes through. And running the text to find out.
2. the prediction: believing that arithmetic that parses is always safe to evaluate, when size, exponent and
   division by zero refuse some of it; or that `abs(-3)` is arithmetic (it is a call).
"""
from react_teach.exercises import call, exercise, expect
from react_teach.checks.forms import truth, whole
from react_teach.tools.calculator import calculate

NB = "safe_tools"

EXPRESSIONS = ["2 ** 10", "9 ** 9 ** 9", "1 / 0", "(2 ** 100) ** 100", "abs(-3)", "0.1 + 0.2", "-(3)",
               "(1).__class__"]

ACCEPT = ["1 + 2", "2 * (3 + 4) ** 2", "-7 / 2", "1.5e3 - 2", "7 // 2 % 3", "+(2)", "3 ** -1"]
# what a blacklist tends to forget comes after the obvious ones: a tuple, comparisons, bytes, boolean operators,
# a set, a subscript, a starred name in a call
REFUSE = ["__import__('os').getcwd()", "(1).__class__", "x + 1", "'a' * 3", "[1, 2]", "(lambda: 1)()",
          "1 if 2 else 3", "print(1)", "(1, 2)", "1 < 2", "b'ab' * 2", "1 and 2", "not 1", "{1, 2}",
          "(1, 2)[0]", "1 +"]


@exercise(NB, 1, "arithmetic only")
def is_arithmetic(fn):
    """`fn(expression)` is True only for numbers joined by arithmetic operators and parentheses."""
    for text in ACCEPT:
        got = truth(call(fn, text))
        expect(got is not None, f"return True or False; for {text!r} you returned something else")
        expect(got, f"{text!r} is plain arithmetic and should be accepted")
    for text in REFUSE:
        got = truth(call(fn, text))
        expect(got is not None, f"return True or False; for {text!r} you returned something else")
        expect(not got, f"{text!r} should be refused. A list of what is forbidden always misses something: accept "
               "only the node types arithmetic needs (numbers, the operators, unary minus) and refuse the rest")


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
    try:
        said = {whole(i) for i in indices} if not isinstance(indices, (str, bytes)) else {None}
    except TypeError:
        said = {None}
    expect(None not in said and said <= set(range(len(EXPRESSIONS))), "give a list of positions, e.g. [0, 3]")
    missing, extra = want - said, said - want
    expect(not extra, f"calculate accepts {', '.join(repr(EXPRESSIONS[i]) for i in sorted(extra))}: try it")
    syntax = {i for i in missing if not _arithmetic_syntax(EXPRESSIONS[i])}
    expect(not syntax, f"{len(syntax)} refused input(s) missing that are not arithmetic at all: a call or an "
           "attribute is refused before anything runs")
    expect(not missing, f"{len(missing)} refused input(s) missing, each perfectly good arithmetic: the calculator "
           "also refuses what evaluating it would do (too large a number, division by zero)")


def _arithmetic_syntax(text: str) -> bool:
    """Numbers and arithmetic operators only, by the syntax tree (the calculator's first test)."""
    import ast
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop)
    return all(isinstance(n, allowed) for n in ast.walk(ast.parse(text, mode="eval")))
