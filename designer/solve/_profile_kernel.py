"""Exact values of an N-seat race game under a fixed policy profile.

Every seat plays a fixed deterministic policy, not necessarily the same one,
so the value of a position depends on which seat moves and the tables are
kept in *absolute* seat coordinates: ``W[F, m, <turn start>, a]`` is the win
probability of seat ``a`` at the turn start of mover ``m`` with the scores
``S`` (seat order, seat 0 first; ``F`` their flat index, digits base
``goal``, seat 0 first) and ``Lt[F, m, <turn start>]`` the expected remaining
actions.

Seat ``m`` reads its decisions from one of two tables, chosen by
``kinds[m]``:

* ``0``: an N-player table in the solver's own coordinates (scores in seat
  order from the mover, :func:`designer.solve._classes.flat_index`), the
  max-n optimal policy of :func:`designer.solve.race.solve_race`;
* ``1``: a two-player table ``[i, j, ...]`` read at ``i = S[m]`` and ``j``
  the highest score of the other seats (the two-player abstraction).

Decks: int16 good draws before the mover holds, at every turn start
``(w, c0)``. Dice: bool roll at every turn total ``k``.

Scores never fall, so the only cycle is a round of turns that score nothing:
the ``N`` turn starts ``X_m`` of one score tuple after a bust (dice) or a
reshuffle (decks). Every other value of the tuple is affine in them,
``v = c + sum_r b_r X_r`` with scalar weights shared by every component (a
chance step mixes vectors without moving seats), so one backward sweep per
tuple and the ``N x N`` system ``(I - B) [X | Y] = [C | c_L]`` give the
exact values (no iteration: the policy is fixed). Tuples of equal score sum
are independent: :func:`designer.solve.by_sum.run_by_sum` runs them on
threads (these kernels release the GIL and compile quickly; ``prange``
would cost a long parallel compilation on a cold cache).
"""

import numpy as np

from designer._jit import kernel
from designer.solve._classes import solve_fixed_point


@kernel
def _system_scratch(nt, N):
    """Per-thread score digits ``S`` and the tuple's system ``B, C`` and
    solution ``sol`` (values and lengths)."""
    return (np.empty((nt, N), dtype=np.int64), np.empty((nt, N, N)), np.empty((nt, N, N + 1)),
            np.empty((nt, N, N + 1)))


@kernel
def _digits(F, N, goal, S):
    for a in range(N - 1, -1, -1):
        S[a] = F % goal
        F //= goal


@kernel
def _reader(S, m, N, goal):
    """The N-player table index (scores from mover ``m``) and the highest
    score of the other seats (the two-player table's opponent)."""
    idx = 0
    hi = 0
    for a in range(N):
        idx = idx * goal + S[(m + a) % N]
        if a != m and S[a] > hi:
            hi = S[a]
    return idx, hi


@kernel
def _finish(B, C, sol, st):
    """Solve the tuple's fixed point; ``st[3] = 2`` when the tuple's round
    never ends under the profile (a singular system)."""
    if not solve_fixed_point(B, C, sol):
        st[3] = 2.0
        return False
    return True


@kernel
def _dice_tuple(faces, pips, goal, F, kinds, OPT, TWO, W, Lt, S, bV, bB, bL, B, C, sol, st):
    N = S.shape[0]
    _digits(F, N, goal, S)
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    for m in range(N):
        need = goal - S[m]
        nxt = (m + 1) % N
        stride = goal ** (N - 1 - m)
        idx, hi = _reader(S, m, N, goal)
        for k in range(need - 1, -1, -1):
            roll = OPT[idx, k] if kinds[m] == 0 else TWO[S[m], hi, k]
            if roll:
                for a in range(N):
                    bV[m, k, a] = 0.0
                    bB[m, k, a] = 0.0
                bB[m, k, nxt] = pb
                bL[m, k] = 1.0
                for f in range(pips.shape[0]):
                    kk = k + pips[f]
                    if kk >= need:  # reaches the goal: the winning hold is one action
                        bV[m, k, m] += pf
                        bL[m, k] += pf
                    else:
                        for a in range(N):
                            bV[m, k, a] += pf * bV[m, kk, a]
                            bB[m, k, a] += pf * bB[m, kk, a]
                        bL[m, k] += pf * bL[m, kk]
            elif k == 0:  # holding nothing passes: the next turn start
                for a in range(N):
                    bV[m, k, a] = 0.0
                    bB[m, k, a] = 0.0
                bB[m, k, nxt] = 1.0
                bL[m, k] = 1.0
            else:
                h = F + k * stride
                for a in range(N):
                    bV[m, k, a] = W[h, nxt, a]
                    bB[m, k, a] = 0.0
                bL[m, k] = 1.0 + Lt[h, nxt]
        for r in range(N):
            B[m, r] = bB[m, 0, r]
            C[m, r] = bV[m, 0, r]
        C[m, N] = bL[m, 0]
    if not _finish(B, C, sol, st):
        return
    for m in range(N):
        for a in range(N):
            W[F, m, a] = sol[m, a]
        Lt[F, m] = sol[m, N]


@kernel
def evaluate_dice(faces, pips, goal, N, kinds, OPT, TWO, W, Lt, flat, st):
    """Fill the rows of the score tuples ``flat`` (in order) of ``W``
    (goal**N, N, N) and ``Lt`` (goal**N, N) for a dice game.

    ``OPT``: bool (goal**N, goal), ``TWO``: bool (goal, goal, goal). Every
    tuple of a larger sum must be done (:func:`designer.solve.by_sum.run_by_sum`
    runs the tuples of one sum on threads). ``st[3]`` becomes 2 if some
    tuple's round never ends under the profile (a singular system).
    """
    S, B, C, sol = _system_scratch(1, N)
    bV = np.empty((N, goal, N))
    bB = np.empty((N, goal, N))
    bL = np.empty((N, goal))
    for q in range(flat.shape[0]):
        _dice_tuple(faces, pips, goal, flat[q], kinds, OPT, TWO, W, Lt, S[0], bV, bB, bL, B[0],
                    C[0], sol[0], st)
        if st[3] > 0.0:
            return


@kernel
def _deck_tuple(bad, good, goal, F, kinds, OPT, TWO, W, Lt, S, cV, cB, cL, nV, nB, B, C, sol, st):
    N = S.shape[0]
    _digits(F, N, goal, S)
    for w in range(bad - 1, -1, -1):
        for m in range(N):
            need = goal - S[m]
            nxt = (m + 1) % N
            stride = goal ** (N - 1 - m)
            idx, hi = _reader(S, m, N, goal)
            for c0 in range(good + 1):
                T = OPT[idx, w, c0] if kinds[m] == 0 else TWO[S[m], hi, w, c0]
                left = good - c0
                for a in range(N):
                    nV[a] = 0.0
                    nB[a] = 0.0
                if need <= left:  # one good draw more reaches the goal, then the winning hold
                    t = need - 1
                    nV[m] = 1.0
                    nL = 1.0
                else:  # no good item left at the top: the draw there is bad for sure
                    t = left
                    nL = 0.0
                while t >= 0:
                    c = c0 + t
                    pg = (good - c) / (bad - w + good - c)
                    pb = 1.0 - pg
                    if t == 0 or t < T:  # draw (the first draw of a turn is forced)
                        if w + 1 < bad:
                            for a in range(N):
                                nV[a] = pg * nV[a] + pb * cV[nxt, w + 1, c, a]
                                nB[a] = pg * nB[a] + pb * cB[nxt, w + 1, c, a]
                            nL = 1.0 + pg * nL + pb * cL[nxt, w + 1, c]
                        else:  # the last bad item: reshuffle, the unknown X[nxt]
                            for a in range(N):
                                nV[a] = pg * nV[a]
                                nB[a] = pg * nB[a]
                            nB[nxt] += pb
                            nL = 1.0 + pg * nL
                    else:  # hold t points: the next mover's turn start, deck (w, c)
                        h = F + t * stride
                        for a in range(N):
                            nV[a] = W[h, nxt, w, c, a]
                            nB[a] = 0.0
                        nL = 1.0 + Lt[h, nxt, w, c]
                    t -= 1
                for a in range(N):
                    cV[m, w, c0, a] = nV[a]
                    cB[m, w, c0, a] = nB[a]
                cL[m, w, c0] = nL
    for m in range(N):
        for r in range(N):
            B[m, r] = cB[m, 0, 0, r]
            C[m, r] = cV[m, 0, 0, r]
        C[m, N] = cL[m, 0, 0]
    if not _finish(B, C, sol, st):
        return
    for m in range(N):
        for w in range(bad):
            for c0 in range(good + 1):
                y = cL[m, w, c0]
                for r in range(N):
                    y += cB[m, w, c0, r] * sol[r, N]
                Lt[F, m, w, c0] = y
                for a in range(N):
                    v = cV[m, w, c0, a]
                    for r in range(N):
                        v += cB[m, w, c0, r] * sol[r, a]
                    W[F, m, w, c0, a] = v


@kernel
def evaluate_deck(bad, good, goal, N, kinds, OPT, TWO, W, Lt, flat, st):
    """Fill the rows of the score tuples ``flat`` of ``W`` (goal**N, N, bad,
    good+1, N) and ``Lt`` (goal**N, N, bad, good+1) for a deck game.

    ``OPT``: int16 (goal**N, bad, good+1), ``TWO``: int16 (goal, goal, bad,
    good+1); ``flat`` and ``st`` as for :func:`evaluate_dice`.
    """
    S, B, C, sol = _system_scratch(1, N)
    cV = np.empty((N, bad, good + 1, N))
    cB = np.empty((N, bad, good + 1, N))
    cL = np.empty((N, bad, good + 1))
    nV = np.empty(N)
    nB = np.empty(N)
    for q in range(flat.shape[0]):
        _deck_tuple(bad, good, goal, flat[q], kinds, OPT, TWO, W, Lt, S[0], cV, cB, cL, nV, nB,
                    B[0], C[0], sol[0], st)
        if st[3] > 0.0:
            return
