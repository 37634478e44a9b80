"""In-turn values of a deck game, rebuilt from the solved turn-start table.

A turn that starts at ``(i, j, w, c0)`` visits only ``(i, j, t, w, c0 + t)``
after ``t`` good draws; given the turn-start win table of every state, one
backward pass along ``t`` gives, at each ``t``, the value of drawing ``D``
and of holding ``H``. The optimal decision, the in-turn value and
what is at stake (``|D - H|``) all follow from them, so every user of
in-turn values (per-state look-ups, the optimal decisions at every state,
neural-network training) calls this one kernel.
"""

import numpy as np

from designer._jit import TIE, kernel


@kernel
def chain_draw_hold(bad, good, goal, win, i, j, w, c0, tie, D, H):
    """Draw and hold values along the chain from turn start ``(i, j, w, c0)``.

    Parameters
    ----------
    win : ndarray, shape (goal, goal, bad, good + 1)
        Solved turn-start win probabilities of the mover.
    tie : float
        Drawing is chosen only if it beats holding by more than ``tie``.
    D, H : ndarray of float64, length >= min(goal, good) + 1
        Out: ``D[t]`` the value of drawing after ``t`` good draws, ``H[t]``
        the value of holding (``H[0] = -1``: the first draw is forced).

    Returns
    -------
    int
        The last ``t`` of the chain (``min(goal - i - 1, good - c0)``).
    """
    need = goal - i
    left = good - c0
    if need <= left:
        last = need - 1
        nv = 1.0  # one more good draw reaches the goal
    else:
        last = left
        nv = 0.0  # no good item left: a draw busts for sure
    w_rem = bad - w
    nw = w + 1 if w + 1 < bad else 0
    for t in range(last, -1, -1):
        c = c0 + t
        c_rem = good - c
        pg = c_rem / (w_rem + c_rem)
        nc = c if w + 1 < bad else 0
        d = pg * nv + (1.0 - pg) * (1.0 - win[j, i, nw, nc])
        D[t] = d
        if t == 0:
            H[t] = -1.0
            nv = d
        else:
            h = 1.0 - win[j, i + t, w, c]
            H[t] = h
            nv = d if d > h + tie else h
    return last


def chain_values(game, win, i, j, w, c0):
    """Win probability of the mover after ``t = 0 .. last`` good draws of the
    turn that started at ``(i, j, w, c0)`` (ties hold)."""
    n = min(game.goal, game.good) + 1
    D = np.empty(n)
    H = np.empty(n)
    last = chain_draw_hold(game.bad, game.good, game.goal, win, i, j, w, c0, TIE, D, H)
    D, H = D[: last + 1], H[: last + 1]
    return np.where(D > H + TIE, D, H)
