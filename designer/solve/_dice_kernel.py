"""Layered solver kernels for dice games.

Turn-start tables are indexed ``[player, i, j]``; in-turn states ``(i, j, k)``
are rebuilt in each sweep from ``k = goal - i - 1`` down to 0. With ``p_b``
the bust probability and ``p_f = 1/faces`` for each scoring face ``f``:

.. math::

    R &= p_b (1 - P(j, i, 0)) + \\sum_f p_f P(i, j, k + f) \\\\
    H &= 1 - P(j, i + k, 0) \\quad (k = 0 \\text{ passes: } 1 - P(j, i, 0)) \\\\
    P(i, j, k) &= \\max(R, H), \\qquad P = 1 \\text{ when } i + k \\ge goal.

Ties go to holding (rolling must beat holding by more than ``tie``),
except at ``k = 0``, where holding passes and a tie goes to rolling
(passes answered by passes would never end the game).
The unknowns of the pair are ``x = P(i, j, 0)`` and ``y = P(j, i, 0)``.
Policies are boolean tables ``roll[player, i, j, k]``.

``players`` is 1 for optimal self-play, 2 for a match between two fixed
policies, or for the two seats of the rounds ending (``rounds``),
whose open rounds have the same pair structure (table 0 seat 1, table 1
seat 2). Seat 2 moves last and holds at the goal to win, as in the race.
Seat 1 may roll past the goal: a hold at ``a + k >= goal`` starts the final
round, seat 2 to move at ``(b, a + k)``, whose value is given in table 1
beyond the goal (its second score axis runs to the cap ``C``, where seat 1
must hold). Seat 1's chain need not run to the cap. With ``F(d)`` seat 2's
win probability in a final round ``d`` points behind, ``y`` its value after
seat 1 busts and ``H(T) = 1 - F(T - b)`` seat 1's hold at total ``T``: if
seat 1 holds at every total above ``T``, rolling at ``T`` is worth
``p_b (1 - y) + sum_f p_f H(min(T + f, C))``, which is at most ``H(T)``
exactly when

.. math::

    M_b(T) = F(T - b) - \\sum_f p_f F(\\min(T + f, C) - b) \\le p_b y .

By induction down from the cap, holding is optimal at every total from the
first ``T^* >= goal`` with ``max_{T' >= T^*} M_b(T') <= p_b y`` on; the chain
starts there (:func:`_reach`; the suffix maxima are given as ``Mmax[b, T -
goal]``). A turn total above ``T^*`` is then held, which is what the
chain's tail would have chosen: the values are the same.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel, threads
from designer.solve._classes import (affine_solve, pair_begin, pair_next, pair_plan, pair_side, pair_solve,
                                     reduce_pair_stats)


@kernel
def _reach(goal, cap, mi, mj, yo, pb, Mmax):
    """Seat 1's chain in the rounds ending (module doc): its length
    ``T^* - mi``, with ``T^* >= goal`` the first total from which holding is
    sure to be optimal while the opponent's value after a bust stays above
    the returned threshold (the estimate ``yo`` with a margin, so that the
    next estimate rarely undoes it), or the cap (threshold -1: the cap's
    hold is the rule, not a bound)."""
    bound = 0.9 * pb * yo
    lo = goal if pb > 0.0 else cap  # a die that never busts: no bound
    hi = cap
    while lo < hi:  # the suffix maxima fall with the total: bisect for the first
        mid = (lo + hi) // 2
        if Mmax[mj, mid - goal] <= bound:
            hi = mid
        else:
            lo = mid + 1
    return lo - mi, Mmax[mj, lo - goal] / pb if lo < cap else -1.0


@kernel
def _sweep(faces, pips, goal, i, j, p, q, x, y, V, L, R, optimize, tie, bP, bL, bR, mg, rounds,
           Mmax, need, thr):
    """Backward sweep over both sides' turns; turn-start coefficients land in
    ``bP[side, 0]`` and ``bL[side, 0]``, decisions in ``bR[side, k]`` and,
    when optimising, their affine margins (roll minus hold minus tie) in
    ``mg[side, k]``, to check the policy at new unknowns without a sweep.
    ``need[side]`` receives each chain's length; with ``rounds``, seat 1's
    chain ends in a hold (:func:`_reach`), valid while the opponent's value
    stays above ``thr[side]``."""
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    cap = V.shape[2] - 1
    for side in range(2):
        mi, mj, me, opp = pair_side(side, i, j, p, q)
        if side == 0:
            uA, uX, uY = 1.0, 0.0, -1.0  # 1 - y: the opponent at turn start
            vX, vY = 0.0, 1.0            # L of the opponent at turn start
        else:
            uA, uX, uY = 1.0, -1.0, 0.0
            vX, vY = 1.0, 0.0
        held = rounds and me == 0
        if held:
            nd, th = _reach(goal, cap, mi, mj, y if side == 0 else x, pb, Mmax)
        else:
            nd, th = goal - mi, -1.0
        need[side] = nd
        thr[side] = th
        for k in range(nd - 1, -1, -1):
            rA = pb * uA
            rX = pb * uX
            rY = pb * uY
            eA = 1.0
            eX = pb * vX
            eY = pb * vY
            for f in range(pips.shape[0]):
                kk = k + pips[f]
                if kk >= nd:
                    if held:  # seat 1 holds there (at the cap at the latest)
                        top = min(mi + kk, cap)
                        rA += pf * (1.0 - V[opp, mj, top])
                        eA += pf * (1.0 + L[opp, mj, top])
                    else:  # the goal: a winning hold
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
                # roll minus hold, less the tie (ties go to holding), except
                # at k = 0 where holding passes: there a tie goes to rolling
                # (passes answered by passes would never end the game). The
                # decision is the sign of the margin computed exactly as
                # _policy_holds computes it, so the two always agree at the
                # same estimate.
                mg[side, k, 0] = rA - hA + (tie if k == 0 else -tie)
                mg[side, k, 1] = rX - hX
                mg[side, k, 2] = rY - hY
                roll = mg[side, k, 0] + mg[side, k, 1] * x + mg[side, k, 2] * y > 0.0
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
def _policy_holds(x, y, mg, bR, need, thr):
    """True if every decision of the last sweep is still greedy at (x, y)
    and every chain's end still holds (``thr``, :func:`_reach`)."""
    if y < thr[0] or x < thr[1]:
        return False
    for side in range(2):
        for k in range(need[side]):
            m = mg[side, k, 0] + mg[side, k, 1] * x + mg[side, k, 2] * y
            if (m > 0.0) != bR[side, k]:
                return False
    return True


@kernel
def _solve_pair(faces, pips, goal, i, j, V, L, R, optimize, tol, tie, max_sweeps, bP, bL, bR, mg,
                st, out, rounds, Mmax, need, thr):
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
                   mg, rounds, Mmax, need, thr)
            ok = pair_solve(bP[0, 0], bP[1, 0], st)
            holds = not optimize or _policy_holds(st[4], st[5], mg, bR, need, thr)
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
            for k in range(need[0]):
                R[p, i, j, k] = bR[0, k]
            for k in range(need[1]):
                R[q, j, i, k] = bR[1, k]


@parallel_kernel
def solve_dice_threads(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, nt, stats,
                       rounds, Mmax):
    """:func:`solve_dice` with the scratch of ``nt`` threads given explicitly."""
    span = V.shape[2]  # a chain runs to the goal, or for seat 1 of the rounds ending the cap
    bP = np.zeros((nt, 2, span, 3))
    bL = np.zeros((nt, 2, span, 3))
    bR = np.zeros((nt, 2, span), dtype=np.bool_)
    mg = np.zeros((nt, 2, span, 3))
    need = np.zeros((nt, 2), dtype=np.int64)
    thr = np.zeros((nt, 2))
    order, groups, out, st = pair_plan(goal, nt)
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            t = numba.get_thread_id()
            _solve_pair(faces, pips, goal, order[m, 0], order[m, 1], V, L, R, optimize, tol, tie,
                        max_sweeps, bP[t], bL[t], bR[t], mg[t], st[t], out[m], rounds, Mmax,
                        need[t], thr[t])
    reduce_pair_stats(out, stats)


def solve_dice(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, stats, Mmax=None):
    """Solve all score pairs in dependency order (see :func:`solve_deck`).

    ``V, L`` have shape (players, goal, goal); ``R`` (bool) has shape
    (players, goal, goal, goal) and is written when ``optimize``. Pairs of
    one score sum are solved in parallel on numba's threads.

    ``Mmax`` (given: the open rounds of the two-seat rounds ending, module
    doc) is ``max_{T' >= T} M_b(T')`` at ``[b, T - goal]`` for ``b <
    goal <= T < C`` (:func:`hold_margins`); ``V, L`` then have
    shape ``(2, goal, C + 1)`` with seat 2's final-round turn starts filled
    in beyond the goal, and ``R`` shape ``(2, goal, goal, C + 1)``.
    """
    rounds = Mmax is not None
    solve_dice_threads(faces, pips, goal, V, L, R, optimize, tol, tie, max_sweeps, threads(), stats,
                       rounds, Mmax if rounds else np.zeros((1, 1)))


def hold_margins(faces, pips, goal, F):
    """``Mmax[b, T - goal] = max_{T <= T' < C} M_b(T')`` (module doc) for
    seat 2 at ``b < goal`` and seat 1's totals ``goal <= T < C``, from the
    final round's ``F`` (length ``C + 1``, indexed by the distance)."""
    C = F.shape[0] - 1
    T = np.arange(goal, C)[None, :]
    b = np.arange(goal)[:, None]
    M = F[T - b].copy()
    for f in pips:
        M -= F[np.minimum(T + f, C) - b] / faces
    return np.ascontiguousarray(np.maximum.accumulate(M[:, ::-1], axis=1)[:, ::-1])
