"""Slow reference: an N-seat race game where every seat plays a fixed policy.

Written from the rules of the deck and dice games and of the N-player race, with no score classes, no affine algebra
and no numba: Gauss-Seidel evaluation over every state ``(S, m, k, ...)``
with the scores ``S`` in absolute seat order (seat 0 first) and ``m`` the
seat to move, until no value moves. Values are tuples of win probabilities
in absolute seat order. ``draws(m, S, k, w, c)`` / ``rolls(m, S, k)`` give
each seat's decision. Only for tiny games.
"""

import itertools

from gauss_seidel import blocked_passes


def _iterate(states, update, tol=1e-14, limit=200000):
    """Gauss-Seidel until a whole pass moves no value by more than ``tol``.

    A pass takes the states of one score tuple together (a draw or roll
    reads its own tuple, a bust the next seat's turn at the same tuple), the
    tuples from the largest sum down (a hold reads a larger sum), each block
    with its turn totals from the largest down, swept until it agrees."""
    blocks = {}
    for x in states:
        blocks.setdefault(x[0], []).append(x)
    order = [sorted(blocks[S], key=lambda x: -x[2]) for S in sorted(blocks, key=lambda S: -sum(S))]
    blocked_passes(order, update, tol, limit, limit, "reference evaluation")


def _raise(S, m, k):
    return S[:m] + (S[m] + k,) + S[m + 1:]


def _evaluate(states, step, N, goal):
    """Generic fixed-policy evaluation: ``step(x)`` lists ``(p, y, won)``
    successors (``won``: the mover reached the goal; ``y`` a state)."""
    P = {x: (1.0 / N,) * N for x in states}
    L = {x: 0.0 for x in states}

    def value(x):
        new = [0.0] * N
        for p, y, won in step(x):
            if won:
                new[x[1]] += p
            else:
                for a in range(N):
                    new[a] += p * P[y][a]
        d = max(abs(a - b) for a, b in zip(new, P[x]))
        P[x] = tuple(new)
        return d

    def length(x):
        new = 1.0
        for p, y, won in step(x):
            new += p * (1.0 if won else L[y])  # the winning hold is an action
        d = abs(new - L[x])
        L[x] = new
        return d

    _iterate(states, value)
    _iterate(states, length, tol=1e-12)
    return P, L


def profile_deck_reference(bad, good, goal, N, draws):
    """``(P, L)`` keyed by ``(S, m, k, w, c)`` (``k`` included in ``c``)."""
    tuples = list(itertools.product(range(goal), repeat=N))
    states = [(S, m, k, w, c) for S in tuples for m in range(N) for w in range(bad)
              for c in range(good + 1) for k in range(c + 1) if S[m] + k < goal]

    def step(x):
        S, m, k, w, c = x
        nxt = (m + 1) % N
        if k > 0 and not draws(m, S, k, w, c):
            return [(1.0, (_raise(S, m, k), nxt, 0, w, c), False)]
        w_rem, c_rem = bad - w, good - c
        out = []
        if c_rem:
            won = S[m] + k + 1 >= goal
            out.append((c_rem / (w_rem + c_rem), None if won else (S, m, k + 1, w, c + 1), won))
        deck = (w + 1, c) if w + 1 < bad else (0, 0)  # the last bad item reshuffles
        out.append((w_rem / (w_rem + c_rem), (S, nxt, 0) + deck, False))
        return out

    return _evaluate(states, step, N, goal)


def profile_dice_reference(faces, bust_faces, goal, N, rolls):
    """``(P, L)`` keyed by ``(S, m, k)``."""
    tuples = list(itertools.product(range(goal), repeat=N))
    states = [(S, m, k) for S in tuples for m in range(N) for k in range(goal - S[m])]
    scoring = [f for f in range(1, faces + 1) if f not in bust_faces]

    def step(x):
        S, m, k = x
        nxt = (m + 1) % N
        if not rolls(m, S, k):  # a hold (at k = 0: a pass)
            return [(1.0, (_raise(S, m, k), nxt, 0), False)]
        out = [(len(bust_faces) / faces, (S, nxt, 0), False)]
        for f in scoring:
            won = S[m] + k + f >= goal
            out.append((1.0 / faces, None if won else (S, m, k + f), won))
        return out

    return _evaluate(states, step, N, goal)
