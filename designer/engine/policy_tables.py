"""Policies of rules games written as a rule or a Python function, as tables.

A rule (``rule:...``) or a function (``py:FILE.py:FUNCTION``) decides from
what a player sees (:mod:`designer.engine.features`): the scores, the turn
total, the goal and the turn state's own numbers, all in points where they
are points. Before a match both are turned into one decision table over the
positions the match visits, ``D[a, b, node]`` for the mover's score ``lo +
a``, the opponent's ``lo + b`` (units) and the in-turn node ``node =
node_base[s] + t`` of the solver's plan (:func:`designer.engine.solve.plan`):

* ``0``: stop (bank the turn total; at ``t = 0``: pass);
* ``c >= 1``: go on with the ``c``-th way to continue at state ``s`` (a
  rule's ``roll``: the first).

The match reads the table only where the rules let the mover choose: where
stopping is not allowed (below the minimum bank, the forced first throw) a
``0`` goes on with the first continuation, at a turn total that wins the
game the mover banks, and a state with nothing to throw stops. Inside a
throw, which scoring dice to keep is the option that gains most (ties: the
first listed), as for ``hold-at``.

Rules are evaluated with numpy over a whole mover's score at a time, in the
rule language's arithmetic (:mod:`designer.policies.expressions`: 64-bit
floats, ``min``/``max`` as ``a if a <= b else b``, halves rounded to even);
functions are compiled with numba and called at every position.
"""

import inspect
import re

import numba
import numpy as np

from designer.engine.features import POSITION
from designer.errors import DesignError
from designer.policies.rules import ExprCondition

#: The comparisons of the rule language.
_OPS = {">=": np.greater_equal, "<=": np.less_equal, "==": np.equal, "<": np.less,
        ">": np.greater, "!=": np.not_equal}


def layout(p):
    """Each node's state and turn total, from the plan ``p``."""
    node_len = p["node_len"]
    node_s = np.repeat(np.arange(len(node_len)), node_len)
    node_t = np.arange(int(node_len.sum())) - np.repeat(p["node_base"], node_len)
    return node_s, node_t


def table_bytes(p):
    """Bytes of one decision table over the plan ``p``."""
    return p["n"] * p["n"] * max(int(p["nodes"]), 1)


def _env(model, goal, unit, i, j, k, s):
    """What a rule sees (points; arrays broadcast): scores ``i``, ``j``, turn
    total ``k`` in units, turn states ``s``."""
    i, j, k = (np.asarray(x, dtype=np.float64) * unit for x in (i, j, k))
    g = np.float64(goal * unit)
    env = {"i": i, "j": j, "k": k, "goal": g, "need": g - i, "opp_need": g - j, "diff": j - i,
           "max_ij": np.maximum(i, j), "sum_ij": i + j, "i2": i + k}
    for f, name in enumerate(model.feature_names):
        env[name] = model.features[s, f].astype(np.float64)
    return env


def _goes(rule, env, shape):
    """Where the decision list says go on (the first clause whose conditions
    all hold decides)."""
    go = np.zeros(shape, dtype=bool)
    open_ = np.ones(shape, dtype=bool)  # not yet decided by an earlier clause
    for cl in rule.clauses:
        here = open_.copy()
        for c in cl.conditions:
            here &= np.broadcast_to(_condition(c, env), shape)
        go |= here & np.broadcast_to(_action(cl.action, env), shape)
        open_ &= ~here
    return go


def _holds(comparison, env):
    left, right = comparison.values(env)  # the rule language's arithmetic, over arrays
    with np.errstate(invalid="ignore"):
        return _OPS[comparison.op](left, right)


def _condition(c, env):
    if isinstance(c, ExprCondition):
        return _holds(c.comparison, env)
    rhs = np.float64(c.const) + (env[c.rhs] if c.rhs is not None else 0.0)
    return _OPS[c.op](env[c.feature], rhs)


def _action(action, env):
    """Where the action says go on."""
    i, j, k = env["i"], env["j"], env["k"]
    a = action.args
    kind = action.kind
    if kind == "while":
        return _holds(action.comparison, env)
    if kind == "roll":
        return np.True_
    if kind == "hold":
        return np.False_
    if kind == "below":
        return k < a[0]
    if kind == "pace":
        return k < a[0] + np.round((j - i) / a[1])
    if kind == "reach":
        return i + k < a[0]
    if kind == "reachmax":
        return i + k < np.maximum(a[0], j + a[1])
    return i + k < j + a[0]  # lead


def rule_table(rule, model, goal, unit, p):
    """The decision table (module docstring) of ``rule`` (family
    ``"rules"``) over the plan ``p`` of ``model`` to ``goal`` (units)."""
    n, lo = p["n"], p["lo"]
    node_s, node_t = layout(p)
    out = np.zeros((n, n, max(len(node_s), 1)), dtype=np.int8)
    j = (lo + np.arange(n))[:, None]
    for a in range(n):
        env = _env(model, goal, unit, lo + a, j, node_t[None, :], node_s[None, :])
        out[a, :, :len(node_s)] = _goes(rule, env, (n, len(node_s)))
    return out


def rule_goes(rule, model, goal, unit, i, j, s, t):
    """Whether ``rule`` goes on at one position (scores ``i``, ``j`` and turn
    total ``t`` in units, turn state ``s``): what its table says there."""
    return bool(_goes(rule, _env(model, goal, unit, i, j, t, s), ())[()])


# -- functions ---------------------------------------------------------------

#: How the compiled caller computes each position's number (points).
_EXPR = {"i": "i", "j": "j", "k": "t * unit", "goal": "goal * unit", "need": "goal * unit - i",
         "opp_need": "goal * unit - j", "diff": "j - i", "max_ij": "max(i, j)",
         "sum_ij": "i + j", "i2": "i + t * unit"}

_TEMPLATE = """
def caller(f, lo, unit, goal, node_s, node_t, SF, out, bad):
    n = out.shape[0]
    for a in range(n):
        i = (lo + a) * unit
        for b in range(n):
            j = (lo + b) * unit
            for q in range(node_s.shape[0]):
                s = node_s[q]
                t = node_t[q]
                v = f({args})
                if not (v >= 0 and v <= 127 and v == int(v)):  # NaN fails too
                    bad[0] = a
                    bad[1] = b
                    bad[2] = q
                    bad[3] = v
                    return
                out[a, b, q] = v
"""

_CALLERS = {}


def _caller(arity_key):
    """A compiled loop calling the user's function with ``arity_key``'s
    arguments (one compile per argument list and process)."""
    if arity_key not in _CALLERS:
        args = ", ".join(_EXPR[a] if a in _EXPR else f"SF[s, {a}]" for a in arity_key)
        scope = {}
        exec(compile(_TEMPLATE.format(args=args), "<designer policy caller>", "exec"), scope)
        _CALLERS[arity_key] = numba.njit(nogil=True)(scope["caller"])
    return _CALLERS[arity_key]


def _short(exc):
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("Failed in nopython mode")] or lines
    return lines[0] if lines else type(exc).__name__


class FunctionTable:
    """A Python function as a rules game's policy.

    Its parameters are named after what it reads: any of the position's
    numbers (``i, j, k, goal, need, opp_need, diff, max_ij, sum_ij, i2``)
    and the game's own (``dice_left``, ``w_rem``, ...), in any order. It
    returns ``False``/``0`` to stop, ``True``/``1`` to go on with the first
    way to continue, ``c`` for the ``c``-th.
    """

    def __init__(self, func, name, feature_names):
        from designer.policies.user import _compile

        self.name = name
        try:
            params = list(inspect.signature(func).parameters.values())
        except (TypeError, ValueError):
            raise DesignError(f"policy function {name!r}: cannot read its parameters") from None
        allowed = list(POSITION) + list(feature_names)
        key = []
        for prm in params:
            if prm.kind not in (prm.POSITIONAL_ONLY, prm.POSITIONAL_OR_KEYWORD):
                raise DesignError(f"policy function {name!r}: parameter {prm.name!r} must be a "
                                  f"plain parameter named after a feature ({', '.join(allowed)})")
            if prm.name not in allowed:
                raise DesignError(f"policy function {name!r}: parameter {prm.name!r} is not a "
                                  f"feature of this game (allowed {', '.join(allowed)})")
            key.append(prm.name if prm.name in POSITION else feature_names.index(prm.name))
        self.args = tuple(key)
        self.func = _compile(func)

    def table(self, model, goal, unit, p):
        """The decision table over the plan ``p`` (module docstring)."""
        n = p["n"]
        node_s, node_t = layout(p)
        out = np.zeros((n, n, max(len(node_s), 1)), dtype=np.int8)
        bad = np.full(4, -1.0)
        caller = _caller(self.args)
        try:
            caller(self.func, p["lo"], unit, goal, node_s, node_t, model.features, out, bad)
        except numba.core.errors.TypingError as exc:
            raise DesignError(f"policy function {self.name!r} does not compile for integer "
                              f"arguments returning True, False or an integer (numba says: "
                              f"{_short(exc)})") from None
        except Exception as exc:  # errors raised by the function
            raise DesignError(f"policy function {self.name!r} failed: "
                              f"{type(exc).__name__}: {_short(exc)}") from None
        if bad[0] >= 0:
            a, b, q = (int(x) for x in bad[:3])
            v = float(bad[3])
            v = int(v) if v.is_integer() else v
            raise DesignError(f"policy function {self.name!r} returned {v} at "
                              f"{_where(model, p, unit, a, b, node_s[q], node_t[q])}: allowed "
                              f"0 or False (stop), 1 or True (go on), an integer c for the c-th "
                              f"way to go on")
        return out


def _where(model, p, unit, a, b, s, t):
    lo = p["lo"]
    return (f"i={(lo + a) * unit}, j={(lo + b) * unit}, k={t * unit}, "
            f"{model.describe(int(s))}")


def check_table(table, model, p, unit, name):
    """Refuse a table that names a continuation a state does not have.

    A state with none (the mover must stop) reads 0 whatever the table says."""
    node_s, node_t = layout(p)
    ncont = np.diff(model.cont_start)[node_s]
    body = table[:, :, :len(node_s)]
    body[:, :, ncont == 0] = 0
    over = body > ncont[None, None, :]
    if np.any(over):
        a, b, q = (int(x) for x in np.argwhere(over)[0])
        raise DesignError(f"policy {name!r} chose way {int(body[a, b, q])} to go on at "
                          f"{_where(model, p, unit, a, b, node_s[q], node_t[q])}, which has "
                          f"{int(ncont[q])}")
    return table


__all__ = ["FunctionTable", "check_table", "layout", "rule_goes", "rule_table", "table_bytes"]
