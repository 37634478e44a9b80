"""N-player race solver for deck games.

Tables are indexed ``[f, w, c]`` where ``f`` is the flat index of the score
tuple in seat order from the mover (digits base ``goal``, mover first, see
:func:`designer.solve._classes.flat_index`) and ``(w, c)`` the deck at the
turn start; ``V[f, w, c, r]`` is the win probability of the seat ``r``
places after the mover (``r = 0``: the mover), ``L`` the expected remaining
actions and ``T`` the compact policy (good draws before the mover holds, as
in :mod:`designer.solve._deck_kernel`).

Inside rotation class ``canon`` the mover of rotation ``rho`` is canonical
position ``rho``, with ``m = canon[rho]`` points. In the class's own seat
coordinates (component ``a``: canonical position ``a``), with
``p_g = c_rem / (w_rem + c_rem)`` and ``e_a`` the unit vector:

.. math::

    v(\\rho, k, w, c) &= e_\\rho \\quad (m + k \\ge goal) \\\\
    D &= p_g\\, v(\\rho, k+1, w, c+1) + (1 - p_g)\\, v(\\rho+1, 0, w', c') \\\\
    H &= \\text{the solved value at } (s_{\\rho+1}, \\ldots, s_{\\rho-1},
         m + k) \\text{ and deck } (w, c) \\\\
    v &= D \\text{ at } k = 0, \\text{ else } D \\text{ if } D_\\rho > H_\\rho
         + tie \\text{ else } H

with ``(w', c') = (w + 1, c)``, or the fresh deck ``(0, 0)`` after the last
bad item; the values of rotation ``rho + 1`` at the fresh deck are the
class's unknowns ``X``. See :mod:`designer.solve._classes` for the affine
sweep and the convergence rule.
"""

import numba
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.solve._classes import (chain_scratch, chains_hold, class_accept, deck_chances, class_begin, class_length,
                                     class_scratch, class_round,
                                     class_rows, class_fill, class_warm, flat_index, store_start)


@kernel
def _sweep(bad, good, goal, canon, X, PG, V, L, tie, cV, cB, cL, cT, mg, dec, lim, nV, nB):
    """One backward sweep over every turn chain of the class at estimate ``X``.

    Writes the affine form (``cV`` constant vector, ``cB`` weights on the
    unknowns, ``cL`` constant of the lengths) of every turn start, the compact
    policy ``cT``, and for each decision its affine margin ``mg`` (constant,
    then the weights on ``X[r, rho]``) and the choice ``dec``; ``lim`` is the
    last decision of each chain.
    """
    N = canon.shape[0]
    for w in range(bad - 1, -1, -1):
        for rho in range(N):
            m = canon[rho]
            need = goal - m
            nxt = (rho + 1) % N
            # flat index of the tuple after a hold of t: next mover first,
            # this mover last with m + t points
            base = flat_index(canon, rho + 1, N, goal)
            for c0 in range(good + 1):
                left = good - c0
                for a in range(N):
                    nV[a] = 0.0
                    nB[a] = 0.0
                if need <= left:
                    t = need - 1
                    nV[rho] = 1.0  # one good draw more reaches the goal
                    nL = 1.0       # ... and the winning hold
                    tcur = need
                else:
                    t = left       # no good item left: p_g = 0 there
                    nL = 0.0
                    tcur = left + 1
                lim[rho, w, c0] = t
                while t >= 0:
                    c = c0 + t
                    pg = PG[w, c]
                    pb = 1.0 - pg
                    # draw: good -> the chain one step on (nV, nB, nL);
                    # bad -> the next rotation's turn start
                    if w + 1 < bad:
                        for a in range(N):
                            nV[a] = pg * nV[a] + pb * cV[nxt, w + 1, c, a]
                            nB[a] = pg * nB[a] + pb * cB[nxt, w + 1, c, a]
                        dL = 1.0 + pg * nL + pb * cL[nxt, w + 1, c]
                    else:  # the last bad item: reshuffle, unknown X[nxt]
                        for a in range(N):
                            nV[a] = pg * nV[a]
                            nB[a] = pg * nB[a]
                        nB[nxt] += pb
                        dL = 1.0 + pg * nL
                    if t == 0:
                        nL = dL
                    else:
                        idx = base + t
                        h = V[idx, w, c, N - 1]  # the mover's own component
                        m0 = nV[rho] - h - tie
                        margin = m0
                        mg[rho, w, c0, t, 0] = m0
                        for r in range(N):
                            mg[rho, w, c0, t, 1 + r] = nB[r]
                            margin += nB[r] * X[r, rho]
                        draw = margin > 0.0
                        dec[rho, w, c0, t] = draw
                        if draw:
                            nL = dL
                        else:
                            for a in range(N):
                                nV[a] = V[idx, w, c, (a - rho - 1) % N]
                                nB[a] = 0.0
                            nL = 1.0 + L[idx, w, c]
                            tcur = t
                    t -= 1
                store_start(cV, cB, cL, cT, rho, w, c0, nV, nB, nL, tcur)


@kernel
def _solve_class(bad, good, goal, canon, PG, V, L, T, tol, tie, max_rounds, cV, cB, cL, cT, mg,
                 dec, lim, nV, nB, X, Xbest, Bm, Cm, sol, st, out):
    """Solve one rotation class and write its rows of ``V``, ``L``, ``T``.

    Policy iteration under the rule of :mod:`designer.solve._classes`: the
    fixed point of a policy still greedy there, or from the fourth sweep on
    an estimate whose Bellman residual is within ``tol``, else (a max-n
    cycle) the iterate of least residual after ``max_rounds``.

    ``out`` receives the class report (:data:`~designer.solve._classes.CLASS_COLUMNS`).
    """
    N = canon.shape[0]
    class_warm(canon, V[:, 0, 0], goal, X)
    class_begin(st)
    while st[2] > 0.0:
        _sweep(bad, good, goal, canon, X, PG, V, L, tie, cV, cB, cL, cT, mg, dec, lim, nV, nB)
        class_rows(cV[:, 0, 0], cB[:, 0, 0], cL[:, 0, 0], Bm, Cm)
        if class_round(Bm, Cm, X, Xbest, sol, st, out):
            # policy iteration: the sweep's policy is exact at the new
            # estimate if it is still greedy there
            holds = chains_hold(sol[:, :N], mg, dec, lim)
            class_accept(Bm, Cm, X, Xbest, sol, st, holds, max_rounds, tol, out)
    if st[2] < 0.0:
        return
    for rho in range(N):
        f = flat_index(canon, rho, N, goal)
        for w in range(bad):
            for c in range(good + 1):
                class_fill(cV[rho, w, c], cB[rho, w, c], X, V[f, w, c], rho)
                L[f, w, c] = class_length(cL[rho, w, c], cB[rho, w, c], sol)
                T[f, w, c] = cT[rho, w, c]


@parallel_kernel
def solve_race_deck(bad, good, goal, reps, groups, V, L, T, tol, tie, max_rounds, nt, cstats):
    """Solve an N-player race deck game (``N = reps.shape[1]``).

    Parameters
    ----------
    reps, groups : int64 arrays
        Rotation classes and their equal-sum groups
        (:func:`designer.solve._classes.rotation_classes`).
    V : float64, shape (goal**N, bad, good + 1, N)
    L : float64, shape (goal**N, bad, good + 1)
    T : int16, shape (goal**N, bad, good + 1)
        Outputs (see the module docstring).
    nt : int
        Threads that may run a class (``numba.config.NUMBA_NUM_THREADS``):
        one set of scratch arrays each. (Passed in: ``numba.get_num_threads``
        inside a kernel would make it uncacheable.)
    cstats : float64, shape (n_classes, CLASS_COLUMNS)
        Out: the report of every class.
    """
    N = reps.shape[1]
    PG = deck_chances(bad, good)
    # scratch per thread (classes of one group run side by side)
    cV, cB, cL, cT, mg, dec, lim = chain_scratch(nt, N, bad, good, min(good, goal) + 1)
    vec, XX, Bm, Cm, sol, st = class_scratch(nt, N)
    for g in range(groups.shape[0] - 1):
        for n in prange(groups[g], groups[g + 1]):
            tid = numba.get_thread_id()
            _solve_class(bad, good, goal, reps[n], PG, V, L, T, tol, tie, max_rounds,
                         cV[tid], cB[tid], cL[tid], cT[tid], mg[tid], dec[tid], lim[tid],
                         vec[tid, 0], vec[tid, 1], XX[tid, 0], XX[tid, 1], Bm[tid], Cm[tid],
                         sol[tid], st[tid], cstats[n])
