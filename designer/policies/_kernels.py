"""Kernels that turn deck-game policies into arrays.

Two views of a deterministic deck policy are needed:

* the compact table ``T[i, j, w, c0]`` (good draws after which the mover
  holds, from the turn start ``(i, j, w, c0)``), which is all an exact
  evaluation or a replay needs, and
* the per-state decision block ``D[j, w, c, k]`` for one mover score ``i``:
  True = draw at ``(i, j, k, w, c)``. It covers every state, including those
  beyond the first hold of a turn that no play from that turn start reaches,
  which the compact table cannot tell. Only entries with ``k <= c`` and
  ``i + k < goal`` are meaningful; the others are False.

The compact table follows the solver's convention: ``T >= goal - i`` means
"draws to the goal" and ``T > good - c0`` means "never holds", so it is
``t`` for the first ``t = 1, 2, ...`` at which the policy holds, otherwise
``goal - i`` (when the goal is within the chain) or ``good - c0 + 1``.

Rule codes for the built-in rule policies are the module constants below.
"""

import math

import numpy as np

from designer._jit import kernel
from designer.solve.deck_chain import chain_draw_hold

#: Rule codes of :func:`rule_draws`.
MAX_SCORE = 0
HOLD_AT = 1


@kernel
def rule_draws(kind, param, i, j, k, w, c, bad, good, goal):
    """Decision of a built-in rule at ``(i, j, k, w, c)``; True = draw.

    ``MAX_SCORE``: draw iff ``k == 0`` or ``c_rem > w_rem * k``.
    ``HOLD_AT``: draw iff ``k < param``.
    """
    if k == 0:
        return True
    if kind == MAX_SCORE:
        return (good - c) > (bad - w) * k
    return k < param


@kernel
def rule_table(kind, param, bad, good, goal, out):
    """Compact table of a built-in rule (see module docstring)."""
    for i in range(goal):
        need = goal - i
        for j in range(goal):
            for w in range(bad):
                for c0 in range(good + 1):
                    left = good - c0
                    stop = need if need <= left else left + 1
                    t = 1
                    while t < stop:
                        if not rule_draws(kind, param, i, j, t, w, c0 + t, bad, good, goal):
                            break
                        t += 1
                    out[i, j, w, c0] = t


@kernel
def rule_block(kind, param, i, bad, good, goal, out):
    """Decision block ``out[j, w, c, k]`` of a built-in rule for mover score ``i``."""
    out[:] = False
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                for k in range(min(c, goal - 1 - i) + 1):
                    out[j, w, c, k] = rule_draws(kind, param, i, j, k, w, c, bad, good, goal)


@kernel
def optimal_block(i, bad, good, goal, win, tie, out):
    """Optimal decisions ``out[j, w, c, k]`` for mover score ``i``.

    Rebuilds the in-turn values of every chain ``(i, j, w, c0)`` from the
    solved turn-start win table (:func:`designer.solve.deck_chain.chain_draw_hold`):
    draw iff the draw value beats holding by more than ``tie`` (ties hold);
    ``k = 0`` draws.
    """
    out[:] = False
    n = min(goal, good) + 1
    D = np.empty(n)
    H = np.empty(n)
    for j in range(goal):
        for w in range(bad):
            for c0 in range(good + 1):
                last = chain_draw_hold(bad, good, goal, win, i, j, w, c0, tie, D, H)
                out[j, w, c0, 0] = True
                for t in range(1, last + 1):
                    out[j, w, c0 + t, t] = D[t] > H[t] + tie


@kernel
def table_from_block(i, bad, good, goal, block, out):
    """Fill ``out[j, w, c0]`` (the compact row of mover score ``i``) from a block."""
    need = goal - i
    for j in range(goal):
        for w in range(bad):
            for c0 in range(good + 1):
                left = good - c0
                stop = need if need <= left else left + 1
                t = 1
                while t < stop:
                    if not block[j, w, c0 + t, t]:
                        break
                    t += 1
                out[j, w, c0] = t


@kernel
def block_agreement(i, bad, good, goal, a, b):
    """``(same, total)`` over decision states ``1 <= k <= c``, ``i + k < goal``."""
    same = 0
    total = 0
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                for k in range(1, min(c, goal - 1 - i) + 1):
                    total += 1
                    if a[j, w, c, k] == b[j, w, c, k]:
                        same += 1
    return same, total


# -- the 7-13-1 logistic network (designer.policies.neural) -------------------

@kernel
def nn_features(i, j, k, w, c, bad, good, lo, hi, x):
    """The seven scaled inputs of state ``(i, j, k, w, c)`` into ``x``.

    Raw inputs: i, j, k, w_rem, c_rem, c_rem / (w_rem + c_rem),
    k * w_rem / (w_rem + c_rem); each mapped linearly from ``[lo, hi]`` to
    ``[-1, 1]`` (a constant input, ``hi == lo``, maps to 0).
    """
    w_rem = bad - w
    c_rem = good - c
    n = w_rem + c_rem
    x[0] = i
    x[1] = j
    x[2] = k
    x[3] = w_rem
    x[4] = c_rem
    x[5] = c_rem / n
    x[6] = k * w_rem / n
    for f in range(7):
        span = hi[f] - lo[f]
        if span > 0.0:
            x[f] = 2.0 * (x[f] - lo[f]) / span - 1.0
        else:
            x[f] = 0.0


@kernel
def sigmoid(z):
    """The logistic function (``exp`` overflow gives the right limit, 0)."""
    return 1.0 / (1.0 + math.exp(-z))


@kernel
def _hidden_in(W1, b1, u, x):
    """Pre-activation of hidden unit ``u``, grouped as the tables group it:
    (bias + score inputs) + (turn and deck inputs)."""
    a = b1[u] + W1[u, 0] * x[0] + W1[u, 1] * x[1]
    q = W1[u, 2] * x[2] + W1[u, 3] * x[3] + W1[u, 4] * x[4] + W1[u, 5] * x[5] + W1[u, 6] * x[6]
    return a + q


@kernel
def nn_forward(W1, b1, W2, b2, x, h):
    """Output of the network for scaled inputs ``x``; hidden activations in ``h``."""
    z = b2
    for u in range(W1.shape[0]):
        h[u] = sigmoid(_hidden_in(W1, b1, u, x))
        z += W2[u] * h[u]
    return sigmoid(z)


@kernel
def _nn_parts(W1, b1, lo, hi, bad, good, goal):
    """Precomputed pre-activation parts: ``A[i, j, u]`` (bias + score inputs)
    and ``Q[k, w, c, u]`` (turn and deck inputs), exactly as ``_hidden_in``."""
    nh = W1.shape[0]
    kmax = min(good, goal - 1)
    x = np.empty(7)
    A = np.empty((goal, goal, nh))
    Q = np.zeros((kmax + 1, bad, good + 1, nh))
    for i in range(goal):
        for j in range(goal):
            nn_features(i, j, 1, 0, 1, bad, good, lo, hi, x)
            for u in range(nh):
                A[i, j, u] = b1[u] + W1[u, 0] * x[0] + W1[u, 1] * x[1]
    for w in range(bad):
        for c in range(good + 1):
            for k in range(1, min(c, kmax) + 1):
                nn_features(0, 0, k, w, c, bad, good, lo, hi, x)
                for u in range(nh):
                    Q[k, w, c, u] = (W1[u, 2] * x[2] + W1[u, 3] * x[3] + W1[u, 4] * x[4]
                                     + W1[u, 5] * x[5] + W1[u, 6] * x[6])
    return A, Q


@kernel
def _nn_says_draw(A, Q, W2, b2, i, j, k, w, c):
    z = b2
    for u in range(W2.shape[0]):
        z += W2[u] * sigmoid(A[i, j, u] + Q[k, w, c, u])
    return sigmoid(z) > 0.5


@kernel
def nn_table(W1, b1, W2, b2, lo, hi, bad, good, goal, out):
    """Compact table of the network: each chain is walked up to its first hold."""
    A, Q = _nn_parts(W1, b1, lo, hi, bad, good, goal)
    for i in range(goal):
        need = goal - i
        for j in range(goal):
            for w in range(bad):
                for c0 in range(good + 1):
                    left = good - c0
                    stop = need if need <= left else left + 1
                    t = 1
                    while t < stop:
                        if not _nn_says_draw(A, Q, W2, b2, i, j, t, w, c0 + t):
                            break
                        t += 1
                    out[i, j, w, c0] = t


@kernel
def nn_block(W1, b1, W2, b2, lo, hi, i, bad, good, goal, out):
    """Decision block ``out[j, w, c, k]`` of the network for mover score ``i``."""
    A, Q = _nn_parts(W1, b1, lo, hi, bad, good, goal)
    out[:] = False
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                out[j, w, c, 0] = True
                for k in range(1, min(c, goal - 1 - i) + 1):
                    out[j, w, c, k] = _nn_says_draw(A, Q, W2, b2, i, j, k, w, c)
