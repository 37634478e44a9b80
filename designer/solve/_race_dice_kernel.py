"""N-player race solver for dice games (SPEC 1.2, 1.5 and 3).

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

and the unknowns are the turn-start vectors ``X_rho = v(rho, 0)``.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.solve._classes import (CLASS_RESIDUAL, CLASS_SETTLED, CLASS_STATUS, CLASS_SWEEPS,
                                     flat_index, solve_fixed_point)


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
            m0 = rV[rho] - tie
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
def _rows(N, bV, bB, bL, Bm, Cm):
    for rho in range(N):
        for r in range(N):
            Bm[rho, r] = bB[rho, 0, r]
            Cm[rho, r] = bV[rho, 0, r]
        Cm[rho, N] = bL[rho, 0]


@kernel
def _residual(N, Bm, Cm, X):
    res = 0.0
    for rho in range(N):
        for a in range(N):
            v = Cm[rho, a] - X[rho, a]
            for r in range(N):
                v += Bm[rho, r] * X[r, a]
            res = max(res, abs(v))
    return res


@kernel
def _warm(canon, V, goal, X):
    """As :func:`designer.solve._race_deck_kernel._warm`."""
    N = canon.shape[0]
    for rho in range(N):
        f = -1
        for r in range(N):
            if canon[(rho + r) % N] + 1 < goal:
                f = flat_index(canon, rho, N, goal)
                step = 1
                for _ in range(N - 1 - r):
                    step *= goal
                f += step
                break
        for a in range(N):
            X[rho, a] = V[f, (a - rho) % N] if f >= 0 else 1.0 / N


@kernel
def _solve_class(faces, pips, goal, canon, V, L, R, tol, tie, max_rounds, bV, bB, bL, bR, mg,
                 rV, rB, X, Xbest, Bm, Cm, sol, out):
    """Solve one rotation class (convergence rule: :mod:`designer.solve._classes`)."""
    N = canon.shape[0]
    _warm(canon, V, goal, X)
    best = np.inf
    rounds = 0
    settled = False
    while True:
        _sweep(faces, pips, goal, canon, X, V, L, tie, bV, bB, bL, bR, mg, rV, rB)
        rounds += 1
        _rows(N, bV, bB, bL, Bm, Cm)
        res = _residual(N, Bm, Cm, X)
        if res < best:
            best = res
            Xbest[:, :] = X
        if not solve_fixed_point(Bm, Cm, sol):
            out[CLASS_STATUS] = 2.0
            return
        holds = _policy_holds(goal, canon, sol[:, :N], mg, bR)
        X[:, :] = sol[:, :N]
        if holds:
            res = _residual(N, Bm, Cm, X)
            if res <= tol:
                settled = True
                break
        if rounds >= max_rounds:
            break
    if not settled:
        X[:, :] = Xbest
        _sweep(faces, pips, goal, canon, X, V, L, tie, bV, bB, bL, bR, mg, rV, rB)
        rounds += 1
        _rows(N, bV, bB, bL, Bm, Cm)
        if not solve_fixed_point(Bm, Cm, sol):
            out[CLASS_STATUS] = 2.0
            return
        res = best
    for rho in range(N):
        f = flat_index(canon, rho, N, goal)
        for a in range(N):
            v = bV[rho, 0, a]
            for r in range(N):
                v += bB[rho, 0, r] * X[r, a]
            V[f, (a - rho) % N] = v
        lv = bL[rho, 0]
        for r in range(N):
            lv += bB[rho, 0, r] * sol[r, N]
        L[f] = lv
        for k in range(goal - canon[rho]):
            R[f, k] = bR[rho, k]
    out[CLASS_RESIDUAL] = res
    out[CLASS_SWEEPS] = rounds
    out[CLASS_SETTLED] = 1.0 if settled else 0.0
    out[CLASS_STATUS] = 0.0


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
    vec = np.empty((nt, 2, N))
    XX = np.empty((nt, 2, N, N))
    Bm = np.empty((nt, N, N))
    Cm = np.empty((nt, N, N + 1))
    sol = np.empty((nt, N, N + 1))
    for g in range(groups.shape[0] - 1):
        for n in prange(groups[g], groups[g + 1]):
            tid = numba.get_thread_id()
            _solve_class(faces, pips, goal, reps[n], V, L, R, tol, tie, max_rounds,
                         bV[tid], bB[tid], bL[tid], bR[tid], mg[tid], vec[tid, 0], vec[tid, 1],
                         XX[tid, 0], XX[tid, 1], Bm[tid], Cm[tid], sol[tid], cstats[n])
