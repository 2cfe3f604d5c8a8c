"""Reference solutions for the notebook "safe tools"; `wrong` lists answers the checkers must refuse and
`valid` other valid ways to write the answer, which they must accept."""
import ast
import re

import numpy as np

ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.Div,
           ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd)


def is_arithmetic(expression):
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    return all(isinstance(node, ALLOWED) and (not isinstance(node, ast.Constant) or type(node.value) in (int, float))
               for node in ast.walk(tree))


class Arithmetic(ast.NodeVisitor):
    """The same whitelist as a visitor: any node without a visit_ method is refused."""

    def generic_visit(self, node):
        raise ValueError(type(node).__name__)

    def visit_Expression(self, node):
        self.visit(node.body)

    def visit_BinOp(self, node):
        if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
            raise ValueError("operator")
        self.visit(node.left)
        self.visit(node.right)

    def visit_UnaryOp(self, node):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise ValueError("operator")
        self.visit(node.operand)

    def visit_Constant(self, node):
        if type(node.value) not in (int, float):
            raise ValueError("constant")


def is_arithmetic_visitor(expression):
    try:
        Arithmetic().visit(ast.parse(expression.strip(), mode="eval"))
    except (SyntaxError, ValueError):
        return False
    return np.True_  # a numpy bool is still a yes


def blacklist(expression):
    """Refuses the dangers it lists, and lets through everything it forgot: tuples, comparisons, bytes ..."""
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    banned = (ast.Name, ast.Attribute, ast.Call, ast.List, ast.Lambda, ast.IfExp)
    return not any(isinstance(n, banned) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
                   for n in ast.walk(tree))


def by_eval(expression):
    try:
        eval(expression, {"__builtins__": {}})
        return True
    except Exception:
        return False


solutions = {1: is_arithmetic, 2: [1, 2, 3, 4, 7]}
valid = {1: [is_arithmetic_visitor], 2: [{1, 2, 3, 4, 7}, (7, 4, 3, 2, 1), np.array([1, 2, 3, 4, 7])]}
wrong = {
    1: [lambda e: bool(re.fullmatch(r"[\d\s+\-*/().%]+", e)), by_eval, lambda e: True, blacklist,
        lambda e: 1 if is_arithmetic(e) else 0],
    # only what is not arithmetic; arithmetic that parses taken for safe; 0.1 + 0.2 taken for an error
    2: [[1, 4, 7], [4, 7], [1, 2, 3, 4, 5, 7], [0, 1, 2, 3, 4, 5, 6, 7]],
}
