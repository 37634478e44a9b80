"""N-player race solver for dice games.

Tables are indexed by ``f``, the flat index of the score tuple in seat order
from the mover (see :mod:`designer.solve._race_deck_kernel`):
``V[f, r]`` is the win probability of the seat ``r`` places after the mover
at the turn start, ``L[f]`` the expected remaining actions and ``R[f, k]``
(bool) the optimal choice to roll at turn total ``k``.

In the class's own seat coordinates, for rotation ``rho`` with
``m = canon[rho]`` points, bust probability ``p_b`` and ``p_f = 1/faces``
for each scoring face ``f``:

.. math::

    R &= p_b X_{\\rho+1} + \\sum_f p_f\\, v(\\rho, k + f) \\qquad
         (v = e_\\rho \\text{ once } m + k + f \\ge goal) \\\\
    H &= X_{\\rho+1} \\text{ at } k = 0 \\text{ (a pass), else the solved
         value at } (s_{\\rho+1}, \\ldots, s_{\\rho-1}, m + k) \\\\
    v(\\rho, k) &= R \\text{ if } R_\\rho > H_\\rho + tie \\text{ else } H

except at ``k = 0``, where holding passes and a tie goes to rolling
(``R_rho > H_rho - tie``), and the unknowns are the turn-start vectors ``X_rho = v(rho, 0)``.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.solve._classes import (class_accept, class_begin, class_length,
                                     class_scratch, class_round,
                                     class_rows, class_fill, class_warm, flat_index)


@kernel
def _sweep(faces, pips, goal, canon, X, V, L, tie, bV, bB, bL, bR, mg, rV, rB):
    """Backward sweep over each rotation's turn at estimate ``X``."""
    N = canon.shape[0]
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    for rho in range(N):
        m = canon[rho]
        need = goal - m
        nxt = (rho + 1) % N
        base = flat_index(canon, rho + 1, N, goal)
        for k in range(need - 1, -1, -1):
            for a in range(N):
                rV[a] = 0.0
                rB[a] = 0.0
            rB[nxt] = pb
            rL = 1.0
            for f in range(pips.shape[0]):
                kk = k + pips[f]
                if kk >= need:
                    rV[rho] += pf
                    rL += pf
                else:
                    for a in range(N):
                        rV[a] += pf * bV[rho, kk, a]
                        rB[a] += pf * bB[rho, kk, a]
                    rL += pf * bL[rho, kk]
            # ties go to holding, except at k = 0, where holding passes: a
            # tie goes to rolling there (passes answered by passes would
            # never end the game)
            m0 = rV[rho] + (tie if k == 0 else -tie)
            if k == 0:  # holding passes: the next rotation's turn start
                margin = m0
                mg[rho, k, 0] = m0
                for r in range(N):
                    d = rB[r] - (1.0 if r == nxt else 0.0)
                    mg[rho, k, 1 + r] = d
                    margin += d * X[r, rho]
            else:
                idx = base + k
                m0 -= V[idx, N - 1]
                margin = m0
                mg[rho, k, 0] = m0
                for r in range(N):
                    mg[rho, k, 1 + r] = rB[r]
                    margin += rB[r] * X[r, rho]
            roll = margin > 0.0
            bR[rho, k] = roll
            if roll:
                for a in range(N):
                    bV[rho, k, a] = rV[a]
                    bB[rho, k, a] = rB[a]
                bL[rho, k] = rL
            elif k == 0:
                for a in range(N):
                    bV[rho, k, a] = 0.0
                    bB[rho, k, a] = 0.0
                bB[rho, k, nxt] = 1.0
                bL[rho, k] = 1.0
            else:
                for a in range(N):
                    bV[rho, k, a] = V[idx, (a - rho - 1) % N]
                    bB[rho, k, a] = 0.0
                bL[rho, k] = 1.0 + L[idx]


@kernel
def _policy_holds(goal, canon, X, mg, bR):
    """True if every decision of the last sweep is still greedy at ``X``."""
    N = canon.shape[0]
    for rho in range(N):
        for k in range(goal - canon[rho]):
            m = mg[rho, k, 0]
            for r in range(N):
                m += mg[rho, k, 1 + r] * X[r, rho]
            if (m > 0.0) != bR[rho, k]:
                return False
    return True


@kernel
def _solve_class(faces, pips, goal, canon, V, L, R, tol, tie, max_rounds, bV, bB, bL, bR, mg,
                 rV, rB, X, Xbest, Bm, Cm, sol, st, out):
    """Solve one rotation class (convergence rule: :mod:`designer.solve._classes`)."""
    N = canon.shape[0]
    class_warm(canon, V, goal, X)
    class_begin(st)
    while st[2] > 0.0:
        _sweep(faces, pips, goal, canon, X, V, L, tie, bV, bB, bL, bR, mg, rV, rB)
        class_rows(bV[:, 0], bB[:, 0], bL[:, 0], Bm, Cm)
        if class_round(Bm, Cm, X, Xbest, sol, st, out):
            class_accept(Bm, Cm, X, Xbest, sol, st, _policy_holds(goal, canon, sol[:, :N], mg, bR),
                         max_rounds, tol, out)
    if st[2] < 0.0:
        return
    for rho in range(N):
        f = flat_index(canon, rho, N, goal)
        class_fill(bV[rho, 0], bB[rho, 0], X, V[f], rho)
        L[f] = class_length(bL[rho, 0], bB[rho, 0], sol)
        for k in range(goal - canon[rho]):
            R[f, k] = bR[rho, k]


@parallel_kernel
def solve_race_dice(faces, pips, goal, reps, groups, V, L, R, tol, tie, max_rounds, nt, cstats):
    """Solve an N-player race dice game (``N = reps.shape[1]``).

    ``V`` has shape (goal**N, N), ``L`` (goal**N,), ``R`` (bool)
    (goal**N, goal); ``cstats`` as in
    :func:`designer.solve._race_deck_kernel.solve_race_deck`.
    """
    N = reps.shape[1]
    bV = np.empty((nt, N, goal, N))
    bB = np.empty((nt, N, goal, N))
    bL = np.empty((nt, N, goal))
    bR = np.zeros((nt, N, goal), dtype=np.bool_)
    mg = np.empty((nt, N, goal, N + 1))
    vec, XX, Bm, Cm, sol, st = class_scratch(nt, N)
    for g in range(groups.shape[0] - 1):
        for n in prange(groups[g], groups[g + 1]):
            tid = numba.get_thread_id()
            _solve_class(faces, pips, goal, reps[n], V, L, R, tol, tie, max_rounds,
                         bV[tid], bB[tid], bL[tid], bR[tid], mg[tid], vec[tid, 0], vec[tid, 1],
                         XX[tid, 0], XX[tid, 1], Bm[tid], Cm[tid], sol[tid], st[tid], cstats[n])
