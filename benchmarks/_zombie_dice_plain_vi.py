"""Baseline for benchmarks/zombie_full.py: plain value iteration over every
state of full Zombie Dice.

The capped model of ``designer.solve._zombie_kernel`` over the dice
configurations ``k`` of :mod:`designer.solve.zombie_dice_states`: forced
first roll (``b = 0`` and no shotgun), player 2's winning hold, the cap, tie
rounds restarting at ``(goal, goal)``; but no layers, no affine unknowns and
no division by the self-loop (a hand of footprint dice rolling footprints
again is an ordinary transition back to the same state). A value is kept
for every ``(p, i, j, b, k)`` the layered solver covers and all are swept in
place (Gauss-Seidel, scores and turn totals in decreasing order, the
favourable order) until no value moves by more than ``tol``. Values only (no
lengths, no policy table), so the comparison flatters the baseline.
"""

import numpy as np
from _zombie_plain_vi import _hold  # the same hold values: V[p, i, j, b, turn state]
from numba import njit


@njit(cache=True)
def plain_value_iteration(G, cap, NXT, GAIN, PROB, STAY, SHOT, BMIN, tol, max_iter):
    n = cap + 1
    NC = NXT.shape[0]
    V = np.full((2, G + 1, n, n, NC), 0.5)
    for it in range(1, max_iter + 1):
        delta = 0.0
        for i in range(G, -1, -1):
            for j in range(cap, -1, -1):
                for p in range(2):
                    if p == 0 and not ((i < G and j < G) or (i == G and j == G)):
                        continue
                    if p == 1 and i == G and j < G:
                        continue
                    for b in range(cap - i, -1, -1):
                        if i + b >= cap or (p == 1 and i + b >= G and i + b > j):
                            continue  # forced hold: not a state of its own
                        for k in range(NC - 1, -1, -1):
                            if b < BMIN[k]:
                                continue  # fewer brains than the dice set aside show
                            r = STAY[k] * V[p, i, j, b, k]
                            for o in range(NXT.shape[1]):
                                nk = NXT[k, o]
                                if nk == -2:
                                    break
                                if nk == -1:
                                    r += PROB[k, o] * _hold(V, G, cap, p, i, j, 0)
                                    continue
                                nb = min(b + GAIN[k, o], cap - i)
                                if i + nb >= cap or (p == 1 and i + nb >= G and i + nb > j):
                                    r += PROB[k, o] * _hold(V, G, cap, p, i, j, nb)
                                else:
                                    r += PROB[k, o] * V[p, i, j, nb, nk]
                            v = r
                            if b > 0 or SHOT[k] > 0:
                                h = _hold(V, G, cap, p, i, j, b)
                                if h >= v:
                                    v = h
                            d = abs(v - V[p, i, j, b, k])
                            if d > delta:
                                delta = d
                            V[p, i, j, b, k] = v
        if delta < tol:
            return V[0, :, :, 0, 0], it
    return V[0, :, :, 0, 0], -1
