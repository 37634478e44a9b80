"""Arithmetic comparisons in rules: ``c_rem * (need + opp_need) > 2 * w_rem * k * opp_need``.

A :class:`Comparison` is ``LEFT OP RIGHT`` where each side is a small
arithmetic expression over the features a player sees (the names of
:mod:`designer.policies.rules`), integer or one-decimal constants, ``+ - *
/``, ``min(a, b)``, ``max(a, b)`` and squares (``x**2``). A rule uses one as a
condition (``... -> action``) or as an action, ``while COMPARISON``: keep
drawing (rolling) while it holds.

Arithmetic on what a player sees costs nothing in a rule's size: a
comparison's size is its numeric constants (the exponent of a square
excepted), plus one when it is a condition. What it does cost is work at
the table, counted by :attr:`Comparison.ops`: every ``+ - * /``, ``min``,
``max``, square, sign change and the comparison itself.

Values are computed in 64-bit floating point, in the order written, by the
Python evaluator here and by the compiled decision alike, so the two agree
bit for bit. A division by zero gives an infinite value of the numerator's
sign (``0 / 0``: not a number, and then every comparison is false), as IEEE
arithmetic does.

Encoding for the compiled decision: each side is a postfix program of rows
``(opcode, value)`` (:data:`PUSH_FEATURE` with the feature's code,
:data:`PUSH_CONST` with the constant, or an operator).
"""

import ast
import math
from dataclasses import dataclass

import numpy as np

#: Opcodes of the postfix programs (see the module docstring).
PUSH_FEATURE, PUSH_CONST, ADD, SUB, MUL, DIV, MIN, MAX, SQUARE, NEG = range(10)
_BINOPS = {ast.Add: (ADD, "+"), ast.Sub: (SUB, "-"), ast.Mult: (MUL, "*"), ast.Div: (DIV, "/")}
_CMPOPS = {ast.GtE: ">=", ast.LtE: "<=", ast.Eq: "==", ast.Lt: "<", ast.Gt: ">",
           ast.NotEq: "!="}
#: Binding strength of each operator when written back (higher binds tighter).
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}

#: Most nodes an expression side may have (a rule is read at the table).
MAX_NODES = 40


class ExpressionError(ValueError):
    """An expression outside the grammar; the message says what is allowed."""


@dataclass(frozen=True)
class Node:
    """One node: ``kind`` is ``"f"`` (feature ``value``), ``"c"`` (constant
    ``value``), an operator ``+ - * /``, ``min``, ``max``, ``sq`` or ``neg``."""

    kind: str
    value: object = None
    args: tuple = ()


def _const_text(v):
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def _parse_node(node, features, aliases):
    if isinstance(node, ast.Name):
        name = aliases.get(node.id, node.id)
        if name not in features:
            raise ExpressionError(f"unknown feature {node.id!r} (allowed {', '.join(features)})")
        return Node("f", name)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        v = node.value
        if isinstance(v, float) and (not math.isfinite(v) or round(v * 10) != v * 10):
            raise ExpressionError(f"constant {v!r}: integers or one decimal (like 2.5)")
        if abs(v) > 10**9:
            raise ExpressionError(f"constant {v!r}: at most 1,000,000,000 in size")
        return Node("c", float(v) if isinstance(v, float) and not v.is_integer() else int(v))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _parse_node(node.operand, features, aliases)
        if inner.kind == "c":
            return Node("c", -inner.value)
        return Node("neg", None, (inner,))
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            if not (isinstance(node.right, ast.Constant) and node.right.value == 2
                    and type(node.right.value) is int):
                raise ExpressionError("the only power is a square, x**2")
            return Node("sq", None, (_parse_node(node.left, features, aliases),))
        if type(node.op) not in _BINOPS:
            raise ExpressionError("operators are + - * / and x**2")
        return Node(_BINOPS[type(node.op)][1], None, (_parse_node(node.left, features, aliases),
                                                        _parse_node(node.right, features, aliases)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "min", "max"):
        if len(node.args) != 2 or node.keywords:
            raise ExpressionError(f"{node.func.id} takes two values")
        return Node(node.func.id, None, tuple(_parse_node(a, features, aliases)
                                              for a in node.args))
    raise ExpressionError("an expression holds features, numbers, + - * /, min(a, b), "
                          "max(a, b) and x**2")


def _walk(node):
    yield node
    for a in node.args:
        yield from _walk(a)


def _text(node, parent=0, right=False):
    """``node`` written back with the fewest parentheses that keep its order."""
    if node.kind == "f":
        return node.value
    if node.kind == "c":
        return _const_text(node.value)
    if node.kind in ("min", "max"):
        return f"{node.kind}({_text(node.args[0])}, {_text(node.args[1])})"
    if node.kind == "sq":
        inner = _text(node.args[0], 9)
        return f"{inner}**2"
    if node.kind == "neg":
        return f"-{_text(node.args[0], 9)}"
    p = _PREC[node.kind]
    s = f"{_text(node.args[0], p)} {node.kind} {_text(node.args[1], p, True)}"
    # a right operand of - or / (or any operand of a weaker parent) needs brackets
    if p < parent or (right and p == parent):
        return f"({s})"
    return s


def _f64(x):
    """``x`` in 64-bit floats: a scalar stays a scalar, an array an array."""
    return np.float64(x) if np.ndim(x) == 0 else np.asarray(x, dtype=np.float64)


def evaluate(node, env):
    """Value of ``node`` in 64-bit floats, as the compiled decision computes
    it; ``env`` maps feature names to numbers, or to arrays (that broadcast
    together) to evaluate many states at once."""
    k = node.kind
    if k == "f":
        return _f64(env[node.value])
    if k == "c":
        return np.float64(node.value)
    a = [evaluate(x, env) for x in node.args]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if k == "+":
            return a[0] + a[1]
        if k == "-":
            return a[0] - a[1]
        if k == "*":
            return a[0] * a[1]
        if k == "/":
            return _f64(a[0]) / _f64(a[1])
        if k == "min":  # a if a <= b else b (a NaN takes b, as compiled)
            return _f64(np.where(a[0] <= a[1], a[0], a[1]))
        if k == "max":
            return _f64(np.where(a[0] >= a[1], a[0], a[1]))
        if k == "sq":
            return a[0] * a[0]
    return -a[0]


_OPCODE = {"+": ADD, "-": SUB, "*": MUL, "/": DIV, "min": MIN, "max": MAX, "sq": SQUARE,
           "neg": NEG}


def _program(node, codes, out):
    for a in node.args:
        _program(a, codes, out)
    if node.kind == "f":
        out.append((PUSH_FEATURE, codes[node.value]))
    elif node.kind == "c":
        out.append((PUSH_CONST, float(node.value)))
    else:
        out.append((_OPCODE[node.kind], 0.0))


#: How each operator is said (``{0}``, ``{1}``: the operands' words).
_SAY = {"+": "{0} plus {1}", "-": "{0} minus {1}", "*": "{0} times {1}",
        "/": "{0} divided by {1}", "min": "the smaller of {0} and {1}",
        "max": "the larger of {0} and {1}", "sq": "the square of {0}", "neg": "minus {0}"}


def _words(node, nouns):
    """``node`` in words, bracketed where its formula is (and around a sum or
    product inside ``min``, ``max``, a square or a sign), so the sentence
    keeps the formula's order when read aloud."""
    if node.kind == "f":
        return nouns[node.value]
    if node.kind == "c":
        return _const_text(node.value)
    parts = []
    for n, a in enumerate(node.args):
        w = _words(a, nouns)
        if a.kind in _PREC:
            if node.kind not in _PREC:
                w = f"({w})"
            elif _PREC[a.kind] < _PREC[node.kind] or (n == 1 and _PREC[a.kind] == _PREC[
                    node.kind]):
                w = f"({w})"
        parts.append(w)
    return _SAY[node.kind].format(*parts)


@dataclass(frozen=True)
class Comparison:
    """``left op right``, both sides arithmetic expressions (module docstring)."""

    left: Node
    op: str
    right: Node

    @classmethod
    def parse(cls, text, features, aliases=None):
        """Parse ``text``; ``features`` are the names allowed (in order, for
        the message), ``aliases`` other spellings of them.

        Raises
        ------
        ExpressionError
            With what is allowed, for anything outside the grammar.
        """
        aliases = aliases or {}
        try:
            tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError:
            raise ExpressionError("not a comparison of two expressions, e.g. "
                                  "'c_rem * need > 2 * w_rem * k'") from None
        if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
            raise ExpressionError("a comparison is EXPRESSION OP EXPRESSION with one of "
                                  ">= <= == < > !=")
        op = _CMPOPS.get(type(tree.ops[0]))
        if op is None:
            raise ExpressionError("comparisons are >= <= == < > !=")
        left = _parse_node(tree.left, features, aliases)
        right = _parse_node(tree.comparators[0], features, aliases)
        for side in (left, right):
            if sum(1 for _ in _walk(side)) > MAX_NODES:
                raise ExpressionError(f"an expression has at most {MAX_NODES} parts")
        if not any(n.kind == "f" for side in (left, right) for n in _walk(side)):
            raise ExpressionError("a comparison needs at least one feature")
        return cls(left, op, right)

    # -- what it costs --------------------------------------------------------
    @property
    def constants(self):
        """The numeric constants (what the size counts)."""
        return sum(1 for side in (self.left, self.right) for n in _walk(side) if n.kind == "c")

    @property
    def ops(self):
        """Operations to evaluate it: operators, ``min``/``max``, squares,
        sign changes, and the comparison."""
        return 1 + sum(1 for side in (self.left, self.right) for n in _walk(side)
                       if n.kind not in ("f", "c"))

    @property
    def features(self):
        return {n.value for side in (self.left, self.right) for n in _walk(side)
                if n.kind == "f"}

    # -- what a person reads ----------------------------------------------------
    def text(self):
        return f"{_text(self.left)} {self.op} {_text(self.right)}"

    def phrase(self, nouns, verbs):
        """The comparison in words (``nouns[feature]``, ``verbs[op]``)."""
        return f"{_words(self.left, nouns)} {verbs[self.op].format(_words(self.right, nouns))}"

    # -- what a machine computes -------------------------------------------------
    def values(self, env):
        """The two sides' values at the state ``env`` (feature name -> value)."""
        return evaluate(self.left, env), evaluate(self.right, env)

    def holds(self, env):
        """Whether it holds at the state ``env`` (feature name -> value)."""
        a, b = self.values(env)
        return bool({">=": a >= b, "<=": a <= b, "==": a == b, "<": a < b, ">": a > b,
                     "!=": a != b}[self.op])

    def programs(self, codes):
        """``(left, right)`` postfix programs, lists of ``(opcode, value)``."""
        lp, rp = [], []
        _program(self.left, codes, lp)
        _program(self.right, codes, rp)
        return lp, rp


def encode_all(comparisons, codes, op_codes):
    """Pack comparisons for the kernel: ``(E, X)`` where ``X`` is every
    program's rows (float64, ``(n, 2)``) and ``E[e] = (left start, left end,
    right start, right end, op code)`` (int64)."""
    rows, index = [], []
    for c in comparisons:
        lp, rp = c.programs(codes)
        a = len(rows)
        rows += lp
        b = len(rows)
        rows += rp
        index.append((a, b, b, len(rows), op_codes[c.op]))
    X = np.array(rows, dtype=np.float64).reshape(-1, 2)
    E = np.array(index, dtype=np.int64).reshape(-1, 5)
    return E, X
