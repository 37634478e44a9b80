"""Layered solver kernels for deck games.

Turn-start tables are indexed ``[player, i, j, w, c]``: the mover (``player``)
has ``i`` points, the opponent ``j``; ``w`` bad and ``c`` good items have been
drawn since the last shuffle. Inside a turn that started at ``(i, j, w, c0)``
the only reachable states are ``(i, j, t, w, c0 + t)`` after ``t`` good draws,
so a turn is a chain in ``t`` and a deterministic policy is exactly the
number of good draws ``T[i, j, w, c0]`` after which the mover holds (the
compact form; ``T > good - c0`` means "never holds", ``i + T >= goal`` means
"draws to the goal").

Win probability of the mover, with ``w_rem = bad - w``, ``c_rem = good - c``:

.. math::

    P(i,j,k,w,c) &= 1 \\quad (i + k \\ge goal) \\\\
    D &= \\frac{c_{rem}}{w_{rem}+c_{rem}} P(i,j,k+1,w,c+1)
       + \\frac{w_{rem}}{w_{rem}+c_{rem}} (1 - P(j,i,0,w',c')) \\\\
    H &= 1 - P(j, i+k, 0, w, c), \\qquad P = D \\text{ at } k = 0,
       \\ \\max(D, H) \\text{ otherwise}

with ``(w', c') = (w + 1, c)`` or ``(0, 0)`` after the last bad item. Expected
remaining actions ``L`` follow the same chain with 1 added per action and
``L = 1`` at ``i + k >= goal`` (the winning hold).

``players`` is 1 for optimal self-play (one table, both seats maximise) and 2
for a match between two fixed policies (table 0 and table 1), or for the
two seats of the rounds ending (``rounds``), whose open rounds have
the same pair structure: table 0 is seat 1 to move (``V[0, a, b]``, its
score ``a`` first), table 1 seat 2 (``V[1, b, a]``). Seat 2 moves last, so
it holds at the goal and wins, as in the race. Seat 1 may draw past the
goal: its hold at ``a + t >= goal`` starts the final round, seat 2 to move
at ``(b, a + t)``. Those final-round turn starts are given in table 1 beyond
the goal (its second score axis runs to ``goal + good // 2``), so the chains read
every hold the same way (:mod:`designer.solve._rounds_two_kernel` fills
them). At the goal, a lead larger than the good items left in the deck wins
for sure (seat 2 cannot catch up in its last turn): seat 1's chain stops
there as a race chain stops at the goal.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel, threads
from designer.solve._classes import (affine_solve, deck_chances, pair_begin, pair_next, pair_plan, pair_side, pair_solve,
                                     reduce_pair_stats)

#: Decisions whose margin at the sweep's estimate is within this of 0 are
#: kept for the policy check; the rest only bound how far the unknowns may
#: move (:func:`_policy_holds`).
NEAR = 1e-3


@kernel
def _sweep(bad, good, goal, i, j, p, q, x, y, V, L, T, optimize, tie, PG, cP, cL, cT, mg,
           dec, nmg, far, rounds):
    """One backward sweep over the turn chains of both sides of pair (i, j).

    Side 0 is player ``p`` moving at ``(i, j)`` (unknown ``x`` = its value at a
    fresh deck), side 1 is player ``q`` moving at ``(j, i)`` (unknown ``y``).
    Fills ``cP``/``cL`` with affine coefficients ``(a, b_x, b_y)`` of the
    turn-start values and ``cT`` with the draws-before-hold of each start.
    When optimising, the decisions whose margin ``D - H - tie`` at
    ``(x, y)`` is within :data:`NEAR` of 0 are listed: ``mg[k]`` their
    affine margins, ``dec[k]`` the decision taken, ``nmg[0]`` how many;
    ``far[0]`` is the smallest margin of the others. So the policy can be
    checked at new unknowns without another sweep (:func:`_policy_holds`).
    Expected lengths follow in ``cL``, each chain's after its values, from
    its first hold down: they follow the sweep's decisions, which are the
    final policy's in the sweep that is accepted (cheaper than a separate
    lengths sweep under the final policy, and the same sums). With
    ``rounds`` the mover of table 0 (seat 1) does not win at the goal: its
    chain runs on to its sure win (module doc) or the last good item.
    """
    k = 0
    fmin = np.inf
    for w in range(bad - 1, -1, -1):
        for side in range(2):
            mi, mj, me, opp = pair_side(side, i, j, p, q)
            other = 1 - side
            first_seat = rounds and me == 0
            for c0 in range(good + 1):
                left = good - c0
                need = goal - mi
                if first_seat:
                    # Seat 1 of the rounds ending holds for a sure win once it
                    # is at the goal and leads seat 2 by more than the good
                    # items left after its hold: seat 2 still plays its turn
                    # from that deck and cannot gain more (a final round
                    # there is worth exactly 0 to seat 2). After t draws the
                    # lead is mi + t - mj and the goods left are left - t.
                    need = max(need, (left + mj - mi) // 2 + 1)
                # Value one good draw further on: a sure win (one winning
                # hold) or nothing at all (no good item left).
                if need <= left:
                    t = need - 1
                    nA = 1.0
                    mA = 1.0
                    if first_seat:
                        mA += L[opp, mj, mi + need, w, c0 + need]
                    tcur = need
                else:
                    t = left
                    nA = 0.0
                    mA = 0.0
                    tcur = left + 1
                nX = 0.0
                nY = 0.0
                if not optimize:
                    # A fixed policy holds after T good draws: the chain's
                    # tail beyond T is never reached from this turn start.
                    hold_at = T[me, mi, mj, w, c0]
                    if 1 <= hold_at <= t:
                        c = c0 + hold_at
                        nA = 1.0 - V[opp, mj, mi + hold_at, w, c]
                        mA = 1.0 + L[opp, mj, mi + hold_at, w, c]
                        tcur = hold_at
                        t = hold_at - 1
                t_end = tcur  # the chain's end: its length is mA already
                # values and decisions, from the chain's end down
                while t >= 0:
                    c = c0 + t
                    pg = PG[w, c]
                    pb = 1.0 - pg
                    if w + 1 < bad:
                        bA = 1.0 - cP[other, w + 1, c, 0]
                        bX = -cP[other, w + 1, c, 1]
                        bY = -cP[other, w + 1, c, 2]
                    elif side == 0:  # reshuffle: opponent at a fresh deck (y)
                        bA = 1.0
                        bX = 0.0
                        bY = -1.0
                    else:
                        bA = 1.0
                        bX = -1.0
                        bY = 0.0
                    dA = pg * nA + pb * bA
                    dX = pg * nX + pb * bX
                    dY = pg * nY + pb * bY
                    if t == 0:
                        draw = True
                    elif optimize:
                        h = 1.0 - V[opp, mj, mi + t, w, c]
                        # the decision is the sign of the margin computed
                        # exactly as _policy_holds computes it, so that a
                        # check at the same estimate always agrees with it
                        a0 = dA - h - tie
                        m = a0 + dX * x + dY * y
                        draw = m > 0.0
                        m = abs(m)
                        if m < NEAR:
                            mg[k, 0] = a0
                            mg[k, 1] = dX
                            mg[k, 2] = dY
                            dec[k] = draw
                            k += 1
                        elif m < fmin:
                            fmin = m
                    else:
                        draw = t < T[me, mi, mj, w, c0]
                    if draw:
                        nA = dA
                        nX = dX
                        nY = dY
                    else:
                        nA = 1.0 - V[opp, mj, mi + t, w, c]
                        nX = 0.0
                        nY = 0.0
                        tcur = t
                    t -= 1
                # Lengths under the decisions just taken: only the first
                # hold (tcur) and the draws before it are ever played, so the
                # lengths table is read once per chain, not at every hold
                # (half the memory the chains stream; the same sums).
                if tcur != t_end:
                    mA = 1.0 + L[opp, mj, mi + tcur, w, c0 + tcur]
                mX = 0.0
                mY = 0.0
                for t in range(tcur - 1, -1, -1):
                    c = c0 + t
                    pg = PG[w, c]
                    pb = 1.0 - pg
                    if w + 1 < bad:
                        lA = cL[other, w + 1, c, 0]
                        lX = cL[other, w + 1, c, 1]
                        lY = cL[other, w + 1, c, 2]
                    elif side == 0:
                        lA = 0.0
                        lX = 0.0
                        lY = 1.0
                    else:
                        lA = 0.0
                        lX = 1.0
                        lY = 0.0
                    mA = 1.0 + pg * mA + pb * lA
                    mX = pg * mX + pb * lX
                    mY = pg * mY + pb * lY
                cP[side, w, c0, 0] = nA
                cP[side, w, c0, 1] = nX
                cP[side, w, c0, 2] = nY
                cL[side, w, c0, 0] = mA
                cL[side, w, c0, 1] = mX
                cL[side, w, c0, 2] = mY
                cT[side, w, c0] = tcur
    nmg[0] = k
    far[0] = fmin


@kernel
def _policy_holds(x, y, x0, y0, mg, dec, nmg, far):
    """True if every decision of the last sweep (taken at ``(x0, y0)``) is
    still greedy at ``(x, y)``.

    A margin is affine in the unknowns with coefficients of total size at
    most 1 (they are chances of reaching a fresh deck), so it moves by at
    most ``max(|x - x0|, |y - y0|)``: the decisions not listed (margins of
    at least ``far``) cannot change sign while that stays below
    ``far / 2`` (half, for rounding). Beyond it the answer is no, and
    another sweep decides.
    """
    if 2.0 * max(abs(x - x0), abs(y - y0)) >= far[0]:
        return False
    for k in range(nmg[0]):
        m = mg[k, 0] + mg[k, 1] * x + mg[k, 2] * y
        if (m > 0.0) != dec[k]:
            return False
    return True


@kernel
def _guess(V, p, i, j, goal):
    """Warm start for ``V[p, i, j, 0, 0]`` from solved pairs of larger sum.

    A least-squares quadratic through the seven neighbours (1,0), (0,1),
    (1,1), (2,0), (0,2), (2,1), (1,2) (weights 3/2, 3/2, -2, -1/2, -1/2,
    1/2, 1/2): its error is ~1e-5, against ~1e-3 for a bilinear guess,
    so the first sweep's policy is usually already the optimal one.
    """
    if i + 2 < goal and j + 2 < goal:
        g = (1.5 * (V[p, i + 1, j, 0, 0] + V[p, i, j + 1, 0, 0]) - 2.0 * V[p, i + 1, j + 1, 0, 0]
             - 0.5 * (V[p, i + 2, j, 0, 0] + V[p, i, j + 2, 0, 0])
             + 0.5 * (V[p, i + 2, j + 1, 0, 0] + V[p, i + 1, j + 2, 0, 0]))
    elif i + 1 < goal and j + 1 < goal:
        g = V[p, i + 1, j, 0, 0] + V[p, i, j + 1, 0, 0] - V[p, i + 1, j + 1, 0, 0]
    elif i + 1 < goal:
        g = V[p, i + 1, j, 0, 0]
    elif j + 1 < goal:
        g = V[p, i, j + 1, 0, 0]
    else:
        g = 1.0
    return min(1.0, max(0.0, g))


@kernel
def _solve_pair(bad, good, goal, i, j, V, L, T, optimize, tol, tie, max_sweeps, PG, mg, dec, nmg,
                far, cP, cL, cT, st, out, rounds):
    """Solve score pair ``(i, j)`` (both tables when ``players == 2``).

    Policy iteration by :func:`~designer.solve._classes.pair_next`; ``out``
    receives the pair's report ``(residual, sweeps, largest sweeps,
    status)`` with status 0.0 on success, 1.0 no convergence, 2.0 singular
    (endless) game.
    """
    players = V.shape[0]
    for p in range(players):
        if players == 2 and i == j and p == 1:
            continue  # the (0 at (i,i), 1 at (i,i)) system already covered it
        q = players - 1 - p
        # Warm start from the neighbouring, already solved pair.
        pair_begin(st, _guess(V, p, i, j, goal), _guess(V, q, j, i, goal))
        while st[3] > 0.0:
            _sweep(bad, good, goal, i, j, p, q, st[0], st[1], V, L, T, optimize, tie,
                   PG, cP, cL, cT, mg, dec, nmg, far, rounds)
            ok = pair_solve(cP[0, 0, 0], cP[1, 0, 0], st)
            holds = not optimize or _policy_holds(st[4], st[5], st[0], st[1], mg, dec, nmg, far)
            pair_next(cP[0, 0, 0], cP[1, 0, 0], st, ok, holds, max_sweeps, tol, out)
        if st[3] < 0.0:
            return
        x = st[0]
        y = st[1]
        if optimize:
            for side in range(2):
                mi, mj, me, _ = pair_side(side, i, j, p, q)
                for w in range(bad):
                    for c in range(good + 1):
                        T[me, mi, mj, w, c] = cT[side, w, c]
        lx, ly, ok = affine_solve(cL[0, 0, 0], cL[1, 0, 0])
        if not ok:
            out[3] = 2.0
            return
        for side in range(2):
            mi, mj, me, _ = pair_side(side, i, j, p, q)
            for w in range(bad):
                for c in range(good + 1):
                    V[me, mi, mj, w, c] = cP[side, w, c, 0] + cP[side, w, c, 1] * x + cP[side, w, c, 2] * y
                    L[me, mi, mj, w, c] = cL[side, w, c, 0] + cL[side, w, c, 1] * lx + cL[side, w, c, 2] * ly


@parallel_kernel
def solve_deck_threads(bad, good, goal, V, L, T, optimize, tol, tie, max_sweeps, nt, stats, rounds):
    """:func:`solve_deck` with the scratch of ``nt`` threads given explicitly."""
    # chance of a good item at deck state (w, c): c_rem / (w_rem + c_rem)
    PG = deck_chances(bad, good)
    # a chain runs to the goal, or in the rounds ending to the last good item
    span = good + 1 if rounds else min(good, goal) + 1
    # scratch per thread: the pairs of one score sum run side by side
    mg = np.zeros((nt, 2 * bad * (good + 1) * span, 3))
    dec = np.zeros((nt, 2 * bad * (good + 1) * span), dtype=np.bool_)
    nmg = np.zeros((nt, 1), dtype=np.int64)
    far = np.zeros((nt, 1))
    cP = np.zeros((nt, 2, bad, good + 1, 3))
    cL = np.zeros((nt, 2, bad, good + 1, 3))
    cT = np.zeros((nt, 2, bad, good + 1), dtype=np.int16)
    order, groups, out, st = pair_plan(goal, nt)
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            t = numba.get_thread_id()
            _solve_pair(bad, good, goal, order[m, 0], order[m, 1], V, L, T, optimize, tol, tie,
                        max_sweeps, PG, mg[t], dec[t], nmg[t], far[t], cP[t], cL[t], cT[t], st[t],
                        out[m], rounds)
    reduce_pair_stats(out, stats)


def solve_deck(bad, good, goal, V, L, T, optimize, tol, tie, max_sweeps, stats, rounds=False):
    """Solve all score pairs in dependency order, writing V, L (and T).

    Pairs of one score sum are solved in parallel on numba's threads.

    Parameters
    ----------
    V, L : float64 arrays, shape (players, goal, goal, bad, good + 1)
        Output win probabilities and expected remaining actions at turn start.
    T : int16 array, same shape
        The compact policy: written when ``optimize``, read otherwise.
    stats : float64 array, shape (4,)
        Out: max residual, total sweeps, largest sweeps in one pair, and
        0.0 on success / 1.0 no convergence / 2.0 singular (endless) game.
    rounds : bool
        The open rounds of the two-seat rounds ending: ``V`` (``L``, ``T``)
        has shape ``(2, goal, goal + good // 2 + 1, bad, good + 1)``, with
        seat 2's final-round turn starts filled in beyond the goal (module
        doc; seat 1's chains read no further).
    """
    solve_deck_threads(bad, good, goal, V, L, T, optimize, tol, tie, max_sweeps, threads(), stats,
                       rounds)
