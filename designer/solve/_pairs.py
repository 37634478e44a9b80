"""Kernels shared by every layered solver.

Each score pair ``{(i, j), (j, i)}`` has two unknowns, the two turn-start
values ``x`` and ``y`` that the pair's cycles feed back into. Every other value
in the pair is carried as an affine function ``a + b x + c y`` through one
backward sweep; the fixed point then solves

.. math::

    x = a_1 + b_1 x + c_1 y, \\qquad y = a_2 + b_2 x + c_2 y .
"""

import numpy as np

from designer._jit import kernel


@kernel
def solve2(a1, b1, c1, a2, b2, c2):
    """Solve the 2 x 2 fixed point above; returns ``(x, y, ok)``.

    ``ok`` is False when the system is singular (a policy under which the
    game never ends), in which case ``x = y = nan``.
    """
    m11 = 1.0 - b1
    m22 = 1.0 - c2
    det = m11 * m22 - c1 * b2
    if abs(det) < 1e-300:
        return float("nan"), float("nan"), False
    x = (a1 * m22 + c1 * a2) / det
    y = (m11 * a2 + b2 * a1) / det
    return x, y, True


@kernel
def affine_step(u, v, x, y):
    """One policy-iteration step on a pair's two unknowns.

    ``u`` and ``v`` are the affine coefficients ``(a, b, c)`` of the two
    unknowns as swept at the estimate ``(x, y)``. Returns ``(nx, ny, res,
    ok)``: the fixed point of the affine system, the Bellman residual at
    the estimate, and False when the system is singular (an endless game).
    """
    res = max(abs(u[0] + u[1] * x + u[2] * y - x), abs(v[0] + v[1] * x + v[2] * y - y))
    nx, ny, ok = solve2(u[0], u[1], u[2], v[0], v[1], v[2])
    return nx, ny, res, ok


@kernel
def affine_solve(u, v):
    """The fixed point ``(x, y, ok)`` of the affine system with rows ``u``, ``v``."""
    return solve2(u[0], u[1], u[2], v[0], v[1], v[2])


@kernel
def pair_order(goal):
    """Score pairs ``(i, j)`` with ``i >= j`` in decreasing ``i + j``.

    A hold always lands in a pair of larger score sum, so this order solves
    every pair after all the pairs it depends on.
    """
    n = goal * (goal + 1) // 2
    out = np.empty((n, 2), dtype=np.int64)
    m = 0
    for s in range(2 * (goal - 1), -1, -1):
        i = min(goal - 1, s)
        while i >= 0:
            j = s - i
            if j > i:
                break
            out[m, 0] = i
            out[m, 1] = j
            m += 1
            i -= 1
    return out
