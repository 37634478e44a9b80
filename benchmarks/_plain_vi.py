"""Baseline for benchmarks/solve.py: plain value iteration over every state.

This is the method of the original Fowl Play / Red Light analyses: keep a
value for every state (i, j, k, w, c) and sweep all of them in place
(Gauss-Seidel, scores in decreasing order, which is the favourable order)
until no value moves by more than ``tol``. Values only (no lengths, no
policy table), so the comparison flatters the baseline.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def plain_value_iteration(bad, good, goal, tol, max_iter):
    # P[i, j, k, w, c]; k <= c; entries with i + k >= goal are never read.
    P = np.full((goal, goal, good + 1, bad, good + 1), 0.5)
    for it in range(1, max_iter + 1):
        delta = 0.0
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                for w in range(bad - 1, -1, -1):
                    w_rem = bad - w
                    for c in range(good, -1, -1):
                        c_rem = good - c
                        pg = c_rem / (w_rem + c_rem)
                        pb = w_rem / (w_rem + c_rem)
                        if w + 1 < bad:
                            bust = 1.0 - P[j, i, 0, w + 1, c]
                        else:
                            bust = 1.0 - P[j, i, 0, 0, 0]
                        kmax = min(c, goal - 1 - i)
                        for k in range(kmax, -1, -1):
                            if c_rem > 0:
                                nxt = 1.0 if i + k + 1 >= goal else P[i, j, k + 1, w, c + 1]
                            else:
                                nxt = 0.0
                            v = pg * nxt + pb * bust
                            if k > 0:
                                h = 1.0 - P[j, i + k, 0, w, c]
                                if h >= v:
                                    v = h
                            d = abs(v - P[i, j, k, w, c])
                            if d > delta:
                                delta = d
                            P[i, j, k, w, c] = v
        if delta < tol:
            return P[:, :, 0], it
    return P[:, :, 0], -1
