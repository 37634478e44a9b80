"""Layered solver kernels for dice games (SPEC 1.2 and 3).

Turn-start tables are indexed ``[player, i, j]``; in-turn states ``(i, j, k)``
are rebuilt in each sweep from ``k = goal - i - 1`` down to 0. With ``p_b``
the bust probability and ``p_f = 1/faces`` for each scoring face ``f``:

.. math::

    R &= p_b (1 - P(j, i, 0)) + \\sum_f p_f P(i, j, k + f) \\\\
    H &= 1 - P(j, i + k, 0) \\quad (k = 0 \\text{ passes: } 1 - P(j, i, 0)) \\\\
    P(i, j, k) &= \\max(R, H), \\qquad P = 1 \\text{ when } i + k \\ge goal.

The unknowns of the pair are ``x = P(i, j, 0)`` and ``y = P(j, i, 0)``.
Policies are boolean tables ``roll[player, i, j, k]``.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel, threads
from designer.solve._classes import (affine_solve, pair_begin, pair_next, pair_plan, pair_side, pair_solve,
                                     reduce_pair_stats)


@kernel
def _sweep(faces, pips, goal, i, j, p, q, x, y, V, L, R, optimize, tie, bP, bL, bR, mg):
    """Backward sweep over both sides' turns; turn-start coefficients land in
    ``bP[side, 0]`` and ``bL[side, 0]``, decisions in ``bR[side, k]`` and,
    when optimising, their affine margins (roll minus hold minus tie) in
    ``mg[side, k]``, to check the policy at new unknowns without a sweep."""
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    for side in range(2):
        mi, mj, me, opp = pair_side(side, i, j, p, q)
        if side == 0:
            uA, uX, uY = 1.0, 0.0, -1.0  # 1 - y: the opponent at turn start
            vX, vY = 0.0, 1.0            # L of the opponent at turn start
        else:
            uA, uX, uY = 1.0, -1.0, 0.0
            vX, vY = 1.0, 0.0
        need = goal - mi
        for k in range(need - 1, -1, -1):
            rA = pb * uA
            rX = pb * uX
            rY = pb * uY
            eA = 1.0
            eX = pb * vX
            eY = pb * vY
            for f in range(pips.shape[0]):
                kk = k + pips[f]
                if kk >= need:
                    rA += pf
                    eA += pf
                else:
                    rA += pf * bP[side, kk, 0]
                    rX += pf * bP[side, kk, 1]
                    rY += pf * bP[side, kk, 2]
                    eA += pf * bL[side, kk, 0]
                    eX += pf * bL[side, kk, 1]
                    eY += pf * bL[side, kk, 2]
            if k == 0:
                hA, hX, hY = uA, uX, uY
                gA, gX, gY = 1.0, vX, vY
            else:
                hA = 1.0 - V[opp, mj, mi + k]
                hX = 0.0
                hY = 0.0
                gA = 1.0 + L[opp, mj, mi + k]
                gX = 0.0
                gY = 0.0
            if optimize:
                mg[side, k, 0] = rA - hA - tie
                mg[side, k, 1] = rX - hX
                mg[side, k, 2] = rY - hY
                roll = rA + rX * x + rY * y > hA + hX * x + hY * y + tie
            else:
                roll = R[me, mi, mj, k]
            bR[side, k] = roll
            if not roll:
                rA, rX, rY = hA, hX, hY
                eA, eX, eY = gA, gX, gY
            # written in place: a view bP[side, k] would cost a reference count
            bP[side, k, 0], bP[side, k, 1], bP[side, k, 2] = rA, rX, rY
            bL[side, k, 0], bL[side, k, 1], bL[side, k, 2] = eA, eX, eY


@kernel
def _policy_holds(goal, i, j, x, y, mg, bR):
    """True if every decision of the last sweep is still greedy at (x, y)."""
    for side in range(2):
        for k in range(goal - (i if side == 0 else j)):
            m = mg[side, k, 0] + mg[side, k, 1] * x + mg[side, k, 2] * y
            if (m > 0.0) != bR[side, k]:
                return False
    return True


@kernel
def _solve_pair(faces, pips, goal, i, j, V, L, R, optimize, tol, tie, max_sweeps, bP, bL, bR, mg,
                st, out):
    """Solve score pair ``(i, j)``; ``out`` as in :mod:`designer.solve._deck_kernel`."""
    players = V.shape[0]
    for p in range(players):
        if players == 2 and i == j and p == 1:
            continue
        q = players - 1 - p
        x = V[p, i + 1, j] if i + 1 < goal else 1.0
        pair_begin(st, x, V[q, j + 1, i] if j + 1 < goal else 1.0)
        while st[3] > 0.0:
            _sweep(faces, pips, goal, i, j, p, q, st[0], st[1], V, L, R, optimize, tie, bP, bL, bR,
                   mg)
            ok = pair_solve(bP[0, 0], bP[1, 0], st)
            holds = not optimize or _policy_holds(goal, i, j, st[4], st[5], mg, bR)
            pair_next(bP[0, 0], bP[1, 0], st, ok, holds, max_sweeps, tol, out)
        if st[3] < 0.0:
            return
        lx, ly, ok = affine_solve(bL[0, 0], bL[1, 0])
        if not ok:
            out[3] = 2.0
            return
        V[p, i, j] = st[0]
        V[q, j, i] = st[1]
        L[p, i, j] = lx
        L[q, j, i] = ly
        if optimize:
            for k in range(goal - i):
                R[p, i, j, k] = bR[0, k]
            for k in range(goal - j):
                R[q, j, i, k] = bR[1, k]


@parallel_kernel
def solve_dice_threads(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, nt, stats):
    """:func:`solve_dice` with the scratch of ``nt`` threads given explicitly."""
    bP = np.zeros((nt, 2, goal, 3))
    bL = np.zeros((nt, 2, goal, 3))
    bR = np.zeros((nt, 2, goal), dtype=np.bool_)
    mg = np.zeros((nt, 2, goal, 3))
    order, groups, out, st = pair_plan(goal, nt)
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            t = numba.get_thread_id()
            _solve_pair(faces, pips, goal, order[m, 0], order[m, 1], V, L, R, optimize, tol, tie,
                        max_sweeps, bP[t], bL[t], bR[t], mg[t], st[t], out[m])
    reduce_pair_stats(out, stats)


def solve_dice(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, stats):
    """Solve all score pairs in dependency order (see :func:`solve_deck`).

    ``V, L`` have shape (players, goal, goal); ``R`` (bool) has shape
    (players, goal, goal, goal) and is written when ``optimize``. Pairs of
    one score sum are solved in parallel on numba's threads.
    """
    solve_dice_threads(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, threads(), stats)
