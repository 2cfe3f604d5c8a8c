"""A calculator that is safe to hand a model: arithmetic on numbers, and nothing else (notebook 14).

An agent's tool gets text the model wrote, and the model's input may come from a page an attacker wrote. ``eval``
on that text runs any Python it contains; `calculate` walks the syntax tree and allows only arithmetic.

    >>> calculate("2 * (3 + 4) ** 2")
    98
    >>> calculate("__import__('os').system('ls')")
    Traceback (most recent call last):
    ...
    ValueError: the calculator accepts numbers and + - * / // % ** ( ) only, not Call
    >>> calculator_tool("calculate[1/0]")
    'Calculator error: division by zero'
"""
from __future__ import annotations

import ast
import operator
import re

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
        ast.USub: operator.neg, ast.UAdd: operator.pos}
MAX_INPUT, MAX_EXPONENT, MAX_MAGNITUDE = 200, 100, 10 ** 100


def calculate(expression: str):
    """Arithmetic on numbers, and nothing else: no names, no attributes, no calls, no imports.

    An agent's tool gets text the model wrote, and the model's input may come from a web page an attacker wrote.
    ``eval`` on that text runs any Python it contains; this walks the syntax tree and allows only arithmetic.
    """
    if len(expression) > MAX_INPUT:
        raise ValueError(f"the expression is {len(expression)} characters long; the limit is {MAX_INPUT}")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise ValueError(f"not an arithmetic expression: {expression!r}") from None

    def checked(value):
        # (-8) ** 0.5 is complex, 1e308 * 10 and 1e400 are inf: not answers a reader can check
        if not isinstance(value, (int, float)) or value != value or abs(value) > MAX_MAGNITUDE:
            raise ValueError("the result is too large" if isinstance(value, (int, float)) and value == value
                             else "the result is not a real number")
        return value

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return checked(node.value)  # a literal too: 1e400 is read as inf
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
                raise ValueError(f"exponent {right} is too large (the limit is {MAX_EXPONENT})")
            try:
                value = _OPS[type(node.op)](left, right)
            except ZeroDivisionError:
                raise ValueError("division by zero") from None
            except OverflowError:  # 1e200 ** 2 no longer fits a float
                raise ValueError("the result is too large") from None
            return checked(value)
        raise ValueError(f"the calculator accepts numbers and + - * / // % ** ( ) only, not {type(node).__name__}")

    return ev(tree)


def calculator_tool(action: str) -> str:
    """``calculate[2+2]`` as an environment would answer it: a result or an error, always a string."""
    m = re.fullmatch(r"calculate\[(.*)\]", action.strip(), re.DOTALL)
    if not m:
        return f"Invalid action: {action}"
    try:
        return str(calculate(m.group(1)))
    except ValueError as e:
        return f"Calculator error: {e}"
