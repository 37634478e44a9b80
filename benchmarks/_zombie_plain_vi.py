"""Baseline for benchmarks/zombie.py: plain value iteration over every state.

The same capped model as ``designer.solve._zombie_kernel`` (forced first
roll, player 2's winning hold, the cap, tie rounds restarting at
``(goal, goal)``), but no layers, no affine unknowns and no division by the
all-footprint self-loop: keep a value for every state ``(p, i, j, b, s)``
and sweep them all in place (Gauss-Seidel, scores in decreasing order, the
favourable order) until no value moves by more than ``tol``. Values only (no
lengths, no policy table), so the comparison flatters the baseline.

``full=True`` sweeps the whole box ``0 <= i, j <= cap``, ``i + b <= cap``
(what a plain implementation of the state ``(p, i, j, b, s)`` does);
``full=False`` only the states the layered solver covers (rounds below the
goal and the tie round for player 1, player 2's turns that can follow).
"""

import numpy as np
from numba import njit


@njit(cache=True)
def _hold(V, G, cap, p, i, j, b):
    if p == 0:
        return 1.0 - V[1, j, i + b, 0, 0]
    one = j
    two = i + b
    if one >= G or two >= G:
        if two > one:
            return 1.0
        if two < one:
            return 0.0
        return 1.0 - V[0, G, G, 0, 0]
    return 1.0 - V[0, one, two, 0, 0]


@njit(cache=True)
def plain_value_iteration(G, cap, K, OB, OS, OP, full, tol, max_iter):
    n = cap + 1
    V = np.full((2, n, n, n, K), 0.5)
    top = cap if full else G
    for it in range(1, max_iter + 1):
        delta = 0.0
        for i in range(top, -1, -1):
            for j in range(cap, -1, -1):
                for p in range(2):
                    if not full:
                        if p == 0 and not ((i < G and j < G) or (i == G and j == G)):
                            continue
                        if p == 1 and i == G and j < G:
                            continue
                    for b in range(cap - i, -1, -1):
                        if i + b >= cap or (p == 1 and i + b >= G and i + b > j):
                            continue  # forced hold: not a state of its own
                        for s in range(K - 1, -1, -1):
                            r = 0.0
                            for o in range(OB.shape[0]):
                                if s + OS[o] >= K:
                                    r += OP[o] * _hold(V, G, cap, p, i, j, 0)
                                else:
                                    nb = min(b + OB[o], cap - i)
                                    if i + nb >= cap or (p == 1 and i + nb >= G and i + nb > j):
                                        r += OP[o] * _hold(V, G, cap, p, i, j, nb)
                                    else:
                                        r += OP[o] * V[p, i, j, nb, s + OS[o]]
                            v = r
                            if b > 0 or s > 0:
                                h = _hold(V, G, cap, p, i, j, b)
                                if h >= v:
                                    v = h
                            d = abs(v - V[p, i, j, b, s])
                            if d > delta:
                                delta = d
                            V[p, i, j, b, s] = v
        if delta < tol:
            return V[0, :, :, 0, 0], it
    return V[0, :, :, 0, 0], -1
