"""Baseline for benchmarks/seats.py: plain max-n value iteration over every
state ``(scores, k)`` of an N-player dice race, in numba.

Gauss-Seidel sweeps over all states from ``1/N`` until no value moves by
more than ``tol``; no score classes, no affine algebra.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def plain_vi_dice(faces, pips, goal, N, tol, max_iter):
    """Return ``(V, sweeps)``; ``V[f, k, r]`` as in the race kernels, per turn total."""
    G = goal
    n = G ** N
    V = np.full((n, G, N), 1.0 / N)
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    roll = np.empty(N)
    hold = np.empty(N)
    digits = np.empty(N, dtype=np.int64)
    for it in range(max_iter):
        delta = 0.0
        for f in range(n - 1, -1, -1):
            rest = f
            for a in range(N - 1, -1, -1):
                digits[a] = rest % G
                rest //= G
            m = digits[0]
            # tuple after the turn passes (bust or pass): next mover first
            nxt = 0
            for a in range(1, N):
                nxt = nxt * G + digits[a]
            base = nxt * G  # + own score after the turn
            for k in range(G - m - 1, -1, -1):
                for r in range(N):
                    roll[r] = pb * V[base + m, 0, (r - 1) % N]
                for q in range(pips.shape[0]):
                    kk = k + pips[q]
                    if kk >= G - m:
                        roll[0] += pf
                    else:
                        for r in range(N):
                            roll[r] += pf * V[f, kk, r]
                for r in range(N):
                    hold[r] = V[base + m + k, 0, (r - 1) % N]
                take = roll if roll[0] > hold[0] + 1e-13 else hold
                for r in range(N):
                    d = abs(take[r] - V[f, k, r])
                    if d > delta:
                        delta = d
                    V[f, k, r] = take[r]
        if delta <= tol:
            return V, it + 1
    return V, max_iter
