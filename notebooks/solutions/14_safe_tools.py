"""Reference solutions for the notebook "safe tools"; `wrong` lists answers the checkers must refuse."""
import ast
import re

ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.Div,
           ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd)


def is_arithmetic(expression):
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    return all(isinstance(node, ALLOWED) and (not isinstance(node, ast.Constant) or type(node.value) in (int, float))
               for node in ast.walk(tree))


def by_eval(expression):
    try:
        eval(expression, {"__builtins__": {}})
        return True
    except Exception:
        return False


solutions = {1: is_arithmetic, 2: [1, 2, 3, 4, 7]}
wrong = {
    1: [lambda e: bool(re.fullmatch(r"[\d\s+\-*/().%]+", e)), by_eval, lambda e: True],
    2: [[1, 4, 7], [1, 2, 3, 4, 5, 7], [0, 1, 2, 3, 4, 5, 6, 7]],
}
