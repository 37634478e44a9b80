"""In-turn values of a deck game, rebuilt from the solved turn-start tables.

A turn that starts at ``(i, j, w, c0)`` visits only ``(i, j, t, w, c0 + t)``;
given the turn-start tables of every state, one backward pass along ``t``
recovers the value and expected remaining actions of each of them (SPEC 1.1).
Plain Python: it serves single look-ups (play, reports), not solves.
"""

import numpy as np

from designer._jit import TIE


def chain_values(game, win, actions, i, j, w, c0):
    """Values and expected remaining actions after ``t`` good draws.

    Returns
    -------
    values, lengths : ndarray
        Indexed by ``t = 0 .. min(goal - i, good - c0)``.
    """
    bad, good, goal = game.bad, game.good, game.goal
    last = min(goal - i, good - c0)
    values = np.empty(last + 1)
    lengths = np.empty(last + 1)
    w_rem = bad - w
    for t in range(last, -1, -1):
        if i + t >= goal:
            values[t], lengths[t] = 1.0, 1.0
            continue
        c = c0 + t
        c_rem = good - c
        pg, pb = c_rem / (w_rem + c_rem), w_rem / (w_rem + c_rem)
        nw, nc = (w + 1, c) if w + 1 < bad else (0, 0)
        nv = values[t + 1] if t < last else 0.0
        nl = lengths[t + 1] if t < last else 0.0
        d = pg * nv + pb * (1.0 - win[j, i, nw, nc])
        dl = 1.0 + pg * nl + pb * actions[j, i, nw, nc]
        if t > 0:
            h = 1.0 - win[j, i + t, w, c]
            if not d > h + TIE:
                values[t], lengths[t] = h, 1.0 + actions[j, i + t, w, c]
                continue
        values[t], lengths[t] = d, dl
    return values, lengths
