"""Plain value iteration for two-player race games at large goals.

Written from the rules, for games too large for the dictionary references
of :mod:`tests.reference`: every state of a score pair holds its own value
and is swept in place until no value moves by more than ``tol``; no policy,
no affine unknowns, no tie rule (values only, so ties cannot matter).
Scores never fall and a hold raises the score sum, so pairs are visited in
decreasing order of ``i + j``; inside a pair the values of both movers are
swept together until they settle. Compiled with numba because the games
checked here have millions of states; the loops are the equations.

Deck (bad and good items, the deck persists, reshuffled after the last bad
item), with ``w`` bad and ``c`` good items drawn since the shuffle::

    P(i,j,k,w,c) = 1                                    if i + k >= goal
    D = pg * P(i,j,k+1,w,c+1) + pb * (1 - P(j,i,0,w',c'))
    P = D at k = 0 (the first draw is forced), else max(D, 1 - P(j,i+k,0,w,c))

Dice (one die, bust faces lose the turn total, others add their pips)::

    R = pb * (1 - P(j,i,0)) + sum_f (1/faces) * P(i,j,k+f)   (1 at the goal)
    P(i,j,k) = max(R, 1 - P(j,i+k,0))     (at k = 0 holding passes: 1 - P(j,i,0))
"""

import numpy as np
from numba import njit


@njit(cache=True)
def _pairs(goal):
    """Score pairs ``(i, j)``, ``i >= j``, by decreasing ``i + j``: a hold
    raises the sum, so each pair needs only pairs listed before it."""
    out = []
    for s in range(2 * goal - 2, -1, -1):
        for i in range(min(goal - 1, s), (s - 1) // 2, -1):
            out.append((i, s - i))
    return out


@njit(cache=True)
def deck_plain_vi(bad, good, goal, tol=1e-15):
    """Turn-start win probabilities ``S[i, j, w, c]`` of a deck game (the
    mover has ``i``, the opponent ``j``), and the most sweeps one pair needed.

    Values inside a turn (``k > 0``) are read only within their own pair,
    so they live in a per-pair table ``Q[side, k, w, c]``; turn starts are
    kept for every pair."""
    S = np.zeros((goal, goal, bad, good + 1))
    Q = np.zeros((2, good + 1, bad, good + 1))
    most = 0
    for i, j in _pairs(goal):
        Q[:] = 0.0
        sweeps = 0
        while True:
            sweeps += 1
            delta = 0.0
            for side in range(2):
                a, b = (i, j) if side == 0 else (j, i)
                for w in range(bad - 1, -1, -1):
                    for c in range(good, -1, -1):
                        w_rem = bad - w
                        c_rem = good - c
                        pg = c_rem / (w_rem + c_rem)
                        pb = w_rem / (w_rem + c_rem)
                        if w + 1 < bad:
                            bust = 1.0 - S[b, a, w + 1, c]
                        else:
                            bust = 1.0 - S[b, a, 0, 0]
                        for k in range(min(c, goal - 1 - a), -1, -1):
                            if c_rem == 0:
                                nxt = 0.0
                            elif a + k + 1 >= goal:
                                nxt = 1.0
                            else:
                                nxt = Q[side, k + 1, w, c + 1]
                            v = pg * nxt + pb * bust
                            if k > 0:
                                v = max(v, 1.0 - S[b, a + k, w, c])
                            delta = max(delta, abs(v - Q[side, k, w, c]))
                            Q[side, k, w, c] = v
                            if k == 0:
                                S[a, b, w, c] = v
            if delta < tol:
                break
        most = max(most, sweeps)
    return S, most


@njit(cache=True)
def dice_plain_vi(faces, bust, goal, tol=1e-15):
    """Turn-start win probabilities ``P[i, j]`` of a one-die game; ``bust``
    is a bool array over faces ``1..faces`` (index ``f - 1``)."""
    P = np.zeros((goal, goal, goal))  # [i, j, k]
    pf = 1.0 / faces
    pb = 0.0
    for f in range(faces):
        if bust[f]:
            pb += pf
    most = 0
    for i, j in _pairs(goal):
        sweeps = 0
        while True:
            sweeps += 1
            delta = 0.0
            for side in range(2):
                a, b = (i, j) if side == 0 else (j, i)
                for k in range(goal - 1 - a, -1, -1):
                    r = pb * (1.0 - P[b, a, 0])
                    for f in range(1, faces + 1):
                        if not bust[f - 1]:
                            r += pf * (1.0 if a + k + f >= goal else P[a, b, k + f])
                    h = 1.0 - P[b, a + k, 0]  # at k = 0: the pass
                    v = max(r, h)
                    delta = max(delta, abs(v - P[a, b, k]))
                    P[a, b, k] = v
            if delta < tol:
                break
        most = max(most, sweeps)
    return P[:, :, 0].copy(), most
