"""One interpreter kernel for every rule, and the table builders over it.

A rule arrives encoded as small arrays (:meth:`Rule.encode`): conditions
``(clause, feature, op, rhs feature or -1, const)`` and actions ``(code, a,
b)`` (int64), and the arithmetic comparisons it holds
(:mod:`designer.policies.expressions`) as postfix programs ``X`` (float64
rows ``(opcode, value)``) indexed by ``E``; a condition with feature
:data:`EXPR` and an action with code :data:`WHILE` name comparison ``e`` of
``E``. Interpreting them costs a few comparisons per state, and
the kernels compile once (``cache=True``) for every rule, where compiling a
function per rule would cost seconds each.
"""

import numpy as np

from designer._jit import kernel

#: Condition feature code of an arithmetic comparison (its ``const`` is the
#: comparison's index in ``E``).
EXPR = -2
#: Action code of ``while COMPARISON`` (its ``a`` is the comparison's index).
WHILE = 11


@kernel
def _feature(f, p, i, j, k, w_rem, c_rem, s, goal):
    if f == 0:
        return i
    if f == 1:
        return j
    if f == 2:
        return k
    if f == 3:
        return w_rem
    if f == 4:
        return c_rem
    if f == 5:
        return goal - i
    if f == 6:
        return goal - j
    if f == 7:
        return j - i
    if f == 8:
        return max(i, j)
    if f == 9:
        return s
    if f == 10:
        return p
    if f == 12:
        return i + j
    return i + k


@kernel
def _compare(x, op, y):
    if op == 0:
        return x >= y
    if op == 1:
        return x <= y
    if op == 2:
        return x == y
    if op == 3:
        return x < y
    if op == 4:
        return x > y
    return x != y


@kernel
def _pace(a, d, i, j):
    # Python's round (halves to even), as the rule's text says
    return a + round((j - i) / d)


@kernel
def _features(p, i, j, k, w_rem, c_rem, s, goal, fv):
    """Every feature at the state, by code, into ``fv`` (floats)."""
    fv[0] = i
    fv[1] = j
    fv[2] = k
    fv[3] = w_rem
    fv[4] = c_rem
    fv[5] = goal - i
    fv[6] = goal - j
    fv[7] = j - i
    fv[8] = max(i, j)
    fv[9] = s
    fv[10] = p
    fv[11] = i + k
    fv[12] = i + j


@kernel
def _divide(a, b):
    """``a / b`` in IEEE arithmetic (numba's own raises on a zero divisor)."""
    if b != 0.0:
        return a / b
    if a > 0.0:
        return np.inf
    if a < 0.0:
        return -np.inf
    return np.nan


@kernel
def _apply(code, a, b):
    """Binary operator ``code`` of :mod:`designer.policies.expressions`."""
    if code == 2:
        return a + b
    if code == 3:
        return a - b
    if code == 4:
        return a * b
    if code == 5:
        return _divide(a, b)
    if code == 6:
        return a if a <= b else b
    return a if a >= b else b


@kernel
def _run(X, start, end, FV, n, S, base):
    """Run the postfix program ``X[start:end]`` on ``n`` states at once:
    ``FV[u, f]`` is feature ``f`` of state ``u``, the stack is ``S[base:]``
    (one row per level, one column per state) and the value is left in
    ``S[base, :n]``. Running a block of states per instruction keeps the
    interpreter's cost per state small."""
    top = base
    for r in range(start, end):
        code = np.int64(X[r, 0])
        if code == 0:
            f = np.int64(X[r, 1])
            for u in range(n):
                S[top, u] = FV[u, f]
            top += 1
        elif code == 1:
            c = X[r, 1]
            for u in range(n):
                S[top, u] = c
            top += 1
        elif code == 8:
            for u in range(n):
                S[top - 1, u] = S[top - 1, u] * S[top - 1, u]
        elif code == 9:
            for u in range(n):
                S[top - 1, u] = -S[top - 1, u]
        else:
            for u in range(n):
                S[top - 2, u] = _apply(code, S[top - 2, u], S[top - 1, u])
            top -= 1


@kernel
def holds_block(E, X, FV, n, S, H):
    """``H[e, u]``: whether comparison ``e`` holds at state ``u < n`` (module
    docstring; ``S``: scratch rows of :data:`BLOCK` columns)."""
    for e in range(E.shape[0]):
        _run(X, E[e, 0], E[e, 1], FV, n, S, 0)
        _run(X, E[e, 2], E[e, 3], FV, n, S, 1)
        op = E[e, 4]
        for u in range(n):
            H[e, u] = _compare(S[0, u], op, S[1, u])


#: States evaluated together by the expression interpreter.
BLOCK = 8
#: Stack rows: deeper than any expression (two sides of at most 40 nodes).
DEPTH = 88


@kernel
def rule_decide(C, A, hv, p, i, j, k, w_rem, c_rem, s, goal, pips, busts):
    """True = draw (roll) at the state, for the rule encoded in ``C``, ``A``;
    ``hv[e]`` is whether the rule's arithmetic comparison ``e`` holds here
    (:func:`holds_block`)."""
    nc = C.shape[0]
    n = 0
    for cl in range(A.shape[0] - 1):
        ok = True
        while n < nc and C[n, 0] == cl:
            if ok:
                if C[n, 1] == EXPR:
                    ok = hv[C[n, 4]]
                else:
                    x = _feature(C[n, 1], p, i, j, k, w_rem, c_rem, s, goal)
                    y = C[n, 4]
                    if C[n, 3] >= 0:
                        y += _feature(C[n, 3], p, i, j, k, w_rem, c_rem, s, goal)
                    ok = _compare(x, C[n, 2], y)
            n += 1
        if ok:
            return _decide(A, cl, hv, i, j, k, w_rem, c_rem, pips, busts)
    return _decide(A, A.shape[0] - 1, hv, i, j, k, w_rem, c_rem, pips, busts)


@kernel
def _decide(A, cl, hv, i, j, k, w_rem, c_rem, pips, busts):
    if A[cl, 0] == WHILE:
        return hv[A[cl, 1]]
    return _act(A[cl, 0], A[cl, 1], A[cl, 2], i, j, k, w_rem, c_rem, pips, busts)


@kernel
def _act(code, a, b, i, j, k, w_rem, c_rem, pips, busts):
    if code == 0:
        return True
    if code == 1:
        return False
    if code == 2:
        return k < a
    if code == 3:
        return k < _pace(a, b, i, j)
    if code == 4:
        if w_rem < 0:  # dice: one roll's expected gain
            return pips > busts * k
        return c_rem > w_rem * k
    if code == 5:
        return c_rem > w_rem * (k - a)
    if code == 6:
        return c_rem > w_rem * (k - round((j - i) / a))
    if code == 7:
        return i + k < a
    if code == 8:
        return i + k < max(a, j + b)
    if code == 9:
        return i + k < j + a
    return c_rem > w_rem * (k - a - round((j - i) / b))


@kernel
def _one(E, X, FV, S, H, p, i, j, k, w_rem, c_rem, s, goal):
    """The comparisons' truth at one state, into ``H[:, 0]``."""
    if E.shape[0] > 0:
        _features(p, i, j, k, w_rem, c_rem, s, goal, FV[0])
        holds_block(E, X, FV, np.int64(1), S, H)


@kernel
def deck_table(C, A, E, X, bad, good, goal, out):
    """Compact table ``out[i, j, w, c0]`` of a rule (policies/_kernels convention).

    The turn from ``(i, j, w, c0)`` is read :data:`BLOCK` draws at a time:
    the arithmetic comparisons of a block are evaluated together, then the
    decisions in order until the first hold."""
    FV = np.zeros((BLOCK, 16))
    S = np.empty((DEPTH, BLOCK))
    H = np.zeros((max(E.shape[0], 1), BLOCK), dtype=np.bool_)
    ne = E.shape[0]
    zero = np.int64(0)  # values, not literals: one compiled rule_decide for every table
    for i in range(goal):
        need = goal - i
        for j in range(goal):
            for w in range(bad):
                for c0 in range(good + 1):
                    left = good - c0
                    stop = need if need <= left else left + 1
                    t = np.int64(1)  # typed int64 from the start (as a literal 1 the first
                    # typing pass would compile rule_decide once more)
                    held = False
                    while t < stop and not held:
                        nb = min(BLOCK, stop - t)
                        if ne > 0:
                            for u in range(nb):
                                _features(zero, i, j, t + u, bad - w, left - t - u, zero, goal,
                                          FV[u])
                            holds_block(E, X, FV, nb, S, H)
                        for u in range(nb):
                            if not rule_decide(C, A, H[:, u], zero, i, j, t, bad - w, left - t,
                                               zero, goal, zero, zero):
                                held = True
                                break
                            t += 1
                    out[i, j, w, c0] = t


@kernel
def deck_block(C, A, E, X, i, bad, good, goal, out):
    """Decision block ``out[j, w, c, k]`` of a rule for mover score ``i``."""
    out[:] = False
    FV = np.zeros((1, 16))
    S = np.empty((DEPTH, 1))
    H = np.zeros((max(E.shape[0], 1), 1), dtype=np.bool_)
    zero = np.int64(0)
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                out[j, w, c, 0] = True
                for k in range(1, min(c, goal - 1 - i) + 1):
                    _one(E, X, FV, S, H, zero, i, j, k, bad - w, good - c, zero, goal)
                    out[j, w, c, k] = rule_decide(C, A, H[:, 0], zero, i, j, k, bad - w,
                                                  good - c, zero, goal, zero, zero)


@kernel
def dice_table(C, A, E, X, goal, pips, busts, out):
    """Roll table ``out[i, j, k]`` (entries with ``i + k >= goal`` False)."""
    out[:] = False
    FV = np.zeros((1, 16))
    S = np.empty((DEPTH, 1))
    H = np.zeros((max(E.shape[0], 1), 1), dtype=np.bool_)
    zero, none = np.int64(0), np.int64(-1)
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                _one(E, X, FV, S, H, zero, i, j, k, none, none, zero, goal)
                out[i, j, k] = rule_decide(C, A, H[:, 0], zero, i, j, k, none, none, zero, goal,
                                           pips, busts)


@kernel
def zombie_table(C, A, E, X, goal, out):
    """Decision table ``out[p, i, j, b, s]`` (``p`` 0/1 for seats 1/2)."""
    FV = np.zeros((1, 16))
    S = np.empty((DEPTH, 1))
    H = np.zeros((max(E.shape[0], 1), 1), dtype=np.bool_)
    zero = np.int64(0)
    for p in range(out.shape[0]):
        for i in range(out.shape[1]):
            for j in range(out.shape[2]):
                for b in range(out.shape[3]):
                    for s in range(out.shape[4]):
                        _one(E, X, FV, S, H, p + 1, i, j, b, zero, zero, s, goal)
                        out[p, i, j, b, s] = rule_decide(C, A, H[:, 0], p + 1, i, j, b, zero,
                                                         zero, s, goal, zero, zero)


def warm():
    """Compile (or load) every kernel once on a tiny rule."""
    C = np.zeros((0, 5), dtype=np.int64)
    A = np.array([[2, 1, 0]], dtype=np.int64)
    E = np.zeros((0, 5), dtype=np.int64)
    X = np.zeros((0, 2), dtype=np.float64)
    deck_table(C, A, E, X, 1, 1, 2, np.zeros((2, 2, 1, 2), dtype=np.int16))
    deck_block(C, A, E, X, 0, 1, 1, 2, np.zeros((2, 1, 2, 2), dtype=np.bool_))
    dice_table(C, A, E, X, 2, 1, 1, np.zeros((2, 2, 2), dtype=np.bool_))
    zombie_table(C, A, E, X, 2, np.zeros((2, 2, 2, 2, 1), dtype=np.bool_))
