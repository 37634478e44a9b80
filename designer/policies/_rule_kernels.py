"""One interpreter kernel for every rule, and the table builders over it.

A rule arrives encoded as two small int64 arrays (:meth:`Rule.encode`):
conditions ``(clause, feature, op, rhs feature or -1, const)`` and actions
``(code, a, b)``. Interpreting them costs a few comparisons per state, and
the kernels compile once (``cache=True``) for every rule, where compiling a
function per rule would cost seconds each.
"""

import numpy as np

from designer._jit import kernel


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
def rule_decide(C, A, p, i, j, k, w_rem, c_rem, s, goal, pips, busts):
    """True = draw (roll) at the state, for the rule encoded in ``C``, ``A``."""
    nc = C.shape[0]
    n = 0
    for cl in range(A.shape[0] - 1):
        ok = True
        while n < nc and C[n, 0] == cl:
            if ok:
                x = _feature(C[n, 1], p, i, j, k, w_rem, c_rem, s, goal)
                y = C[n, 4]
                if C[n, 3] >= 0:
                    y += _feature(C[n, 3], p, i, j, k, w_rem, c_rem, s, goal)
                ok = _compare(x, C[n, 2], y)
            n += 1
        if ok:
            return _act(A[cl, 0], A[cl, 1], A[cl, 2], i, j, k, w_rem, c_rem, pips, busts)
    last = A.shape[0] - 1
    return _act(A[last, 0], A[last, 1], A[last, 2], i, j, k, w_rem, c_rem, pips, busts)


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
def deck_table(C, A, bad, good, goal, out):
    """Compact table ``out[i, j, w, c0]`` of a rule (policies/_kernels convention)."""
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
                    while t < stop:
                        if not rule_decide(C, A, zero, i, j, t, bad - w, left - t, zero, goal, zero,
                                           zero):
                            break
                        t += 1
                    out[i, j, w, c0] = t


@kernel
def deck_block(C, A, i, bad, good, goal, out):
    """Decision block ``out[j, w, c, k]`` of a rule for mover score ``i``."""
    out[:] = False
    zero = np.int64(0)
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                out[j, w, c, 0] = True
                for k in range(1, min(c, goal - 1 - i) + 1):
                    out[j, w, c, k] = rule_decide(C, A, zero, i, j, k, bad - w, good - c, zero,
                                                  goal, zero, zero)


@kernel
def dice_table(C, A, goal, pips, busts, out):
    """Roll table ``out[i, j, k]`` (entries with ``i + k >= goal`` False)."""
    out[:] = False
    zero, none = np.int64(0), np.int64(-1)
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                out[i, j, k] = rule_decide(C, A, zero, i, j, k, none, none, zero, goal, pips, busts)


@kernel
def zombie_table(C, A, goal, out):
    """Decision table ``out[p, i, j, b, s]`` (``p`` 0/1 for seats 1/2)."""
    zero = np.int64(0)
    for p in range(out.shape[0]):
        for i in range(out.shape[1]):
            for j in range(out.shape[2]):
                for b in range(out.shape[3]):
                    for s in range(out.shape[4]):
                        out[p, i, j, b, s] = rule_decide(C, A, p + 1, i, j, b, zero, zero, s, goal,
                                                         zero, zero)


def warm():
    """Compile (or load) every kernel once on a tiny rule."""
    C = np.zeros((0, 5), dtype=np.int64)
    A = np.array([[2, 1, 0]], dtype=np.int64)
    deck_table(C, A, 1, 1, 2, np.zeros((2, 2, 1, 2), dtype=np.int16))
    deck_block(C, A, 0, 1, 1, 2, np.zeros((2, 1, 2, 2), dtype=np.bool_))
    dice_table(C, A, 2, 1, 1, np.zeros((2, 2, 2), dtype=np.bool_))
    zombie_table(C, A, 2, np.zeros((2, 2, 2, 2, 1), dtype=np.bool_))
