"""Slow reference for N-player race games (deck and dice games).

Value iteration over every state (Gauss-Seidel, a score tuple with its
rotations at a time), straight from the rules: no affine algebra, no numba. A value is a tuple of N win
probabilities, entry ``r`` for the seat ``r`` places after the mover; the
mover draws (rolls) only when that beats holding in its OWN entry (max-n),
ties go to hold. Every value starts at ``1/N``. Only for tiny games.
"""

from gauss_seidel import blocked_passes

TIE = 1e-12  # near-ties (rounding) resolve to hold, as in the package


def _turn(N, values):
    """A value seen by the next mover, re-expressed for the current mover.

    ``values[r]`` belongs to the seat ``r`` places after the NEXT mover,
    i.e. ``r + 1`` places after the current one.
    """
    return tuple(values[(r - 1) % N] for r in range(N))


def _iterate(states, update, tol, limit, inner=10):
    """Gauss-Seidel until a whole pass moves no value by more than ``tol``.

    A pass takes a score tuple's states with those of its rotations (a bust
    hands the same scores to the next mover), from the largest sum down (a
    hold reads a larger sum), the turn totals of each from the largest down,
    and sweeps the block until it agrees (at most ``inner`` times: where
    max-n best replies cycle, the next pass goes on)."""
    blocks = {}
    for x in states:
        s = x[0]
        blocks.setdefault(min(s[r:] + s[:r] for r in range(len(s))), []).append(x)
    order = [sorted(blocks[b], key=lambda x: -x[1]) for b in sorted(blocks, key=lambda b: -sum(b))]
    blocked_passes(order, update, tol, limit, inner, "reference value iteration")


def race_deck_reference(bad, good, goal, N, tol=1e-14, limit=100000):
    """Return ``(P, L)`` for an N-player deck race game.

    ``P[(scores, k, w, c)]``: value vector at a state (``scores`` in seat
    order from the mover, points scored; ``k`` the turn total; ``w``, ``c``
    bad and good items drawn since the shuffle, ``k <= c``). ``L``: expected
    remaining actions under the policy found (the winning hold counts 1).
    """
    import itertools

    tuples = list(itertools.product(range(goal), repeat=N))
    states = [(s, k, w, c) for s in tuples for w in range(bad) for c in range(good + 1)
              for k in range(c + 1) if s[0] + k < goal]
    win = tuple(1.0 if r == 0 else 0.0 for r in range(N))
    P = {x: (1.0 / N,) * N for x in states}

    def value(s, k, w, c):
        return win if s[0] + k >= goal else P[(s, k, w, c)]

    def options(x):
        s, k, w, c = x
        w_rem, c_rem = bad - w, good - c
        pg, pb = c_rem / (w_rem + c_rem), w_rem / (w_rem + c_rem)
        nxt = s[1:] + s[:1]
        deck = (w + 1, c) if w + 1 < bad else (0, 0)  # the last bad item reshuffles
        bust = _turn(N, value(nxt, 0, *deck))
        up = value(s, k + 1, w, c + 1) if c_rem else (0.0,) * N
        draw = tuple(pg * up[r] + pb * bust[r] for r in range(N))
        hold = None if k == 0 else _turn(N, value(s[1:] + (s[0] + k,), 0, w, c))
        return draw, hold

    def choose(x):
        draw, hold = options(x)
        return draw if hold is None or draw[0] > hold[0] + TIE else hold

    def update(x):
        new = choose(x)
        d = max(abs(a - b) for a, b in zip(new, P[x]))
        P[x] = new
        return d

    _iterate(states, update, tol, limit)

    L = {x: 0.0 for x in states}

    def length(s, k, w, c):
        return 1.0 if s[0] + k >= goal else L[(s, k, w, c)]

    def update_l(x):
        s, k, w, c = x
        draw, hold = options(x)
        if hold is None or draw[0] > hold[0] + TIE:
            w_rem, c_rem = bad - w, good - c
            pg, pb = c_rem / (w_rem + c_rem), w_rem / (w_rem + c_rem)
            deck = (w + 1, c) if w + 1 < bad else (0, 0)
            new = 1.0 + pb * length(s[1:] + s[:1], 0, *deck)
            if c_rem:
                new += pg * length(s, k + 1, w, c + 1)
        else:
            new = 1.0 + length(s[1:] + (s[0] + k,), 0, w, c)
        d = abs(new - L[x])
        L[x] = new
        return d

    _iterate(states, update_l, 1e-11, limit)
    return P, L


def race_dice_reference(faces, bust_faces, goal, N, tol=1e-14, limit=100000):
    """Return ``(P, L)`` for an N-player dice race game; states ``(scores, k)``."""
    import itertools

    tuples = list(itertools.product(range(goal), repeat=N))
    states = [(s, k) for s in tuples for k in range(goal - s[0])]
    scoring = [f for f in range(1, faces + 1) if f not in bust_faces]
    pb = len(bust_faces) / faces
    win = tuple(1.0 if r == 0 else 0.0 for r in range(N))
    P = {x: (1.0 / N,) * N for x in states}

    def value(s, k):
        return win if s[0] + k >= goal else P[(s, k)]

    def options(x):
        s, k = x
        nxt = _turn(N, value(s[1:] + s[:1], 0))
        roll = [pb * nxt[r] for r in range(N)]
        for f in scoring:
            up = value(s, k + f)
            for r in range(N):
                roll[r] += up[r] / faces
        hold = nxt if k == 0 else _turn(N, value(s[1:] + (s[0] + k,), 0))  # k = 0 passes
        return tuple(roll), hold

    def rolls(x):
        roll, hold = options(x)
        return roll[0] > hold[0] + TIE

    def update(x):
        roll, hold = options(x)
        new = roll if roll[0] > hold[0] + TIE else hold
        d = max(abs(a - b) for a, b in zip(new, P[x]))
        P[x] = new
        return d

    _iterate(states, update, tol, limit)
    L = {x: 0.0 for x in states}

    def length(s, k):
        return 1.0 if s[0] + k >= goal else L[(s, k)]

    def update_l(x):
        s, k = x
        if rolls(x):
            new = 1.0 + pb * length(s[1:] + s[:1], 0)
            new += sum(length(s, k + f) for f in scoring) / faces
        else:
            new = 1.0 + length(s[1:] + (s[0] + k,), 0) if k else 1.0 + length(s[1:] + s[:1], 0)
        d = abs(new - L[x])
        L[x] = new
        return d

    _iterate(states, update_l, 1e-11, limit)
    return P, L
