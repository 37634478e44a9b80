"""Shared machinery of the rounds-ending kernels, N = 2..4 seats.

The model
---------
Seats ``0..N-1`` move in rounds. Values are N-vectors of win probabilities
(max-n: the mover compares its own component; ties between draw and hold go
to hold). Scores are unbounded, so the solver works with a cap ``C``:
a seat that is not the last to move in its round and whose score reaches
``C`` holds there (a dice roll past it stops at it). The last seat of a round
never needs the cap: it holds as soon as holding wins. Decks make the cap
exact: a turn gains at most ``good`` points, so with ``C = goal + good`` no
score ever reaches it (:func:`deck_cap`).

Three kinds of turn start, solved in this order:

``tie``
    A tie round among ``t`` tied players (``t = 2..N``). Once tied players
    hold the same score ``a >= goal`` every later comparison is between their
    scores, so the round depends only on the gains since ``a``: every tie
    round among ``t`` players is one generic round, solved once per ``t`` and
    mapped onto the tied seats (in seat order). State: position ``p < t`` to
    move, the bar ``Bg`` (largest gain of the positions that moved) and the
    mask ``Tm`` of positions ``< p`` at the bar (empty only at ``p = 0``,
    where ``Bg = 0``). Gains are capped at ``C - goal``. A round in which all
    positions end level starts the same generic round again: the only cycle.
    It is solved by iterating on the start values ``Y_t`` (one per deck
    state) with one backward sweep per iterate (positions from last to first
    given ``Y_t``), from ``Y_t = 1/t``: the contraction factor is the chance
    of a full tie, small, so a few dozen sweeps reach the tolerance.
``final``
    A round in which a seat ``< m`` already holds ``goal`` or more (so the
    round is the last one unless it ends in a tie). State: seat ``m >= 1`` to
    move, the bar ``B >= goal`` and the mask ``T`` of seats ``< m`` at it
    (seats below the bar are out), and the scores of seats ``m..N-1`` (all
    below the goal). No cycle: a turn leads to seat ``m + 1``, or for the
    last seat to the end of the game or a tie round, so seats are solved from
    ``N - 1`` down to 1 in one sweep each.
``open``
    No score has reached the goal yet: state ``(S, m)``, the N scores and the
    seat to move. A hold lands on a larger score sum (or in ``final``); only
    a bust (or a dice player's pass at ``k = 0``) stays at ``S``. Score tuples
    are solved in decreasing score sum; inside one tuple the unknowns are the
    N turn starts ``(S, m)`` at a fresh deck (reached after a reshuffle; for
    dice the single unknown ``(S, 0)``), every other value is carried as an
    affine function of them and the N x N system is solved directly (the
    affine trick: all N components share the same coefficients).
    Policy iteration: the greedy policy at the solution is checked from the
    stored affine margins; if it changed, sweep again.

Max-n with three or more players may not settle. The rule: at most
``max_sweeps`` sweeps per score tuple (or tie iterates); if the policy has not
settled then, the iterate with the smallest Bellman residual is kept, and the
tuple is counted in ``stats[4]`` with its residual folded into ``stats[0]``.

Every goal up to the solved one is answered: shifting all scores by the same
amount changes no comparison, so the game to goal ``g`` from scores ``K`` is
the solved game from ``K + (goal - g)``, with the cap's margin above the goal
unchanged.
"""

import numpy as np

from designer._jit import kernel
from designer.solve._classes import gauss_solve


def deck_cap(goal, good):
    """The exact cap for a deck game: no score or tie-round gain can reach it."""
    return goal + good


@kernel
def lin_solve(M, R, out):
    """Solve ``M X = R`` (``M`` n x n, ``R`` n x r) by Gaussian elimination
    with partial pivoting into ``out``; returns False if ``M`` is singular."""
    n = M.shape[0]
    A = np.empty((n, n + R.shape[1]))
    A[:, :n] = M
    A[:, n:] = R
    return gauss_solve(A, out)


@kernel
def rotations(S, G, rot):
    """``rot[m]``: flat index of the scores ``S`` in seat order m, m+1, ...,
    m-1 (the open table of seat m is stored in that order, so a hold of
    ``t`` by seat m-1 is ``rot[m] + t``: consecutive along a turn)."""
    N = S.shape[0]
    for m in range(N):
        v = 0
        for q in range(N):
            v = v * G + S[(m + q) % N]
        rot[m] = v


@kernel
def rot_stride(N, G, m, a):
    """Step of seat ``a``'s score in seat m's open table."""
    e = 1
    for _ in range(N - 1 - (a - m) % N):
        e *= G
    return e


@kernel
def lowest_two(S):
    """The seats with the lowest and the second lowest score (first seat
    on ties): the two directions of a warm start's guess."""
    a = 0
    for q in range(S.shape[0]):
        if S[q] < S[a]:
            a = q
    b = -1
    for q in range(S.shape[0]):
        if q != a and (b < 0 or S[q] < S[b]):
            b = q
    return a, b


@kernel
def popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@kernel
def final_offsets(N, G, C):
    """Start of each seat's block in the flat ``final`` table (index ``m``).

    The last seat's block is indexed by ``(T, d)`` with ``d = B - s`` in
    ``1..C``: it holds as soon as it passes the bar, so only the distance
    to the bar matters (and no cap). Earlier seats' blocks are indexed by
    ``(B - goal, T, s_m, ..., s_{N-1})``.
    """
    ncap = C - G + 1
    off = np.zeros(N + 1, dtype=np.int64)
    for m in range(1, N):
        if m == N - 1:
            off[m + 1] = off[m] + (1 << m) * C
        else:
            off[m + 1] = off[m] + ncap * (1 << m) * G ** (N - m)
    off[0] = off[N]  # total size, kept in slot 0 (seat 0 never moves in ``final``)
    return off


@kernel
def fidx(off, N, G, m, Bg, Tm, tail):
    """Flat index of ``final`` state (seat m, bar goal + Bg, mask Tm, scores
    of seats m..N-1 as the base-G number ``tail``)."""
    if m == N - 1:
        # span of one mask in the last block: C distances (see final_offsets)
        return off[m] + Tm * ((off[m + 1] - off[m]) >> m) + G + Bg - tail - 1
    P = 1
    for _ in range(N - m):
        P *= G
    return off[m] + (Bg * (1 << m) + Tm) * P + tail


@kernel
def final_states(N, G, C, off):
    """Every ``final`` state in solving order (seats ``N - 1`` down to 1).

    The last seat only needs ``d = B - s`` in ``1..C`` (one representative
    ``(B, s)`` per ``d``); earlier seats every ``(B, T, s_m..s_{N-1})``.
    Returns rows ``(m, Bg, Tm, s, rest, idx, top)``: seat, bar above the
    goal, mask, the mover's score, the base-G scores of the seats after it,
    the flat index (:func:`fidx`) and the gain that forces the hold (the
    cap, or for the last seat the first gain that passes the bar).
    """
    ncap = C - G + 1
    n = 0
    for m in range(N - 1, 0, -1):
        last = m == N - 1
        n += (C if last else ncap) * ((1 << m) - 1) * (1 if last else G ** (N - m))
    out = np.empty((n, 7), dtype=np.int64)
    row = 0
    for m in range(N - 1, 0, -1):
        last = m == N - 1
        P = G ** (N - m - 1)
        for u in range(C if last else ncap):
            for Tm in range(1, 1 << m):
                for v in range(1 if last else G ** (N - m)):
                    if last:
                        Bg = max(0, u + 1 - G)
                        tail = G + Bg - (u + 1)
                    else:
                        Bg = u
                        tail = v
                    s = tail // P
                    out[row, 0] = m
                    out[row, 1] = Bg
                    out[row, 2] = Tm
                    out[row, 3] = s
                    out[row, 4] = tail % P
                    out[row, 5] = fidx(off, N, G, m, Bg, Tm, tail)
                    out[row, 6] = (G + Bg + 1 - s) if last else (C - s)
                    row += 1
    return out


@kernel
def tie_states(toff, t, C, G):
    """Every state of the generic ``t``-player tie round in solving order
    (positions ``t - 1`` down to 0): rows ``(p, Bg, Tm, idx, top)`` with the
    gain ``top`` that forces the hold (the cap, or for the last position the
    first gain past the bar)."""
    ncap = C - G + 1
    n = 0
    for p in range(t - 1, -1, -1):
        n += (ncap if p > 0 else 1) * (((1 << p) - 1) if p > 0 else 1)
    out = np.empty((n, 5), dtype=np.int64)
    row = 0
    for p in range(t - 1, -1, -1):
        for Bg in range(ncap if p > 0 else 1):
            for Tm in range(1 if p > 0 else 0, (1 << p) if p > 0 else 1):
                out[row, 0] = p
                out[row, 1] = Bg
                out[row, 2] = Tm
                out[row, 3] = tidx(toff, t, p, Bg, Tm)
                out[row, 4] = Bg + 1 if p == t - 1 else C - G
                row += 1
    return out


@kernel
def state_row(S, row):
    """Row ``row`` of a state list (:func:`final_states`, :func:`tie_states`)
    as a tuple of ints."""
    if S.shape[1] == 5:
        return S[row, 0], S[row, 1], S[row, 2], S[row, 3], S[row, 4], 0, 0
    return S[row, 0], S[row, 1], S[row, 2], S[row, 3], S[row, 4], S[row, 5], S[row, 6]


@kernel
def tie_offsets(N, ncap):
    """Start of block ``(t, p)`` in the flat ``tie`` table, shape (N+1, N+1)."""
    off = np.zeros((N + 1, N + 1), dtype=np.int64)
    tot = 0
    for t in range(2, N + 1):
        for p in range(t):
            off[t, p] = tot
            tot += ncap * (1 << p)
    off[0, 0] = tot
    return off


@kernel
def tidx(toff, t, p, Bg, Tm):
    return toff[t, p] + Bg * (1 << p) + Tm


@kernel
def tie_value(toff, Vt, Lt, mask, w, c, out):
    """Fill ``out`` with the value of a tie round among the seats (or
    positions) in ``mask`` at deck state (w, c); returns its length."""
    cnt = popcount(mask)
    for r in range(out.shape[0]):
        out[r] = 0.0
    if cnt == 1:
        for r in range(out.shape[0]):
            if mask & (1 << r):
                out[r] = 1.0
        return 0.0
    base = toff[cnt, 0]
    rank = 0
    for r in range(out.shape[0]):
        if mask & (1 << r):
            out[r] = Vt[base, w, c, rank]
            rank += 1
    return Lt[base, w, c]


@kernel
def new_bar(f, B, Tm, pos):
    """Bar and mask after position ``pos`` ends at ``f`` against bar ``B``
    held by the positions in ``Tm``: a new bar, a tie at the bar, or below."""
    if f > B:
        return f, 1 << pos
    if f == B:
        return B, Tm | (1 << pos)
    return B, Tm


@kernel
def tie_after(toff, Wt, Lt, Y, YL, t, p, Bg, Tm, f, w, c, out):
    """Value (into ``out``) and length after position ``p`` of a generic
    t-player tie round ends its turn with gain ``f`` at deck (w, c)
    (dice: ``w = c = 0``). ``Y, YL``: the round's start values, per deck
    state."""
    B2, T2 = new_bar(f, Bg, Tm, p)
    if p < t - 1:
        idx = tidx(toff, t, p + 1, B2, T2)
        for r in range(out.shape[0]):
            out[r] = Wt[idx, w, c, r]
        return Lt[idx, w, c]
    if popcount(T2) == t:  # everyone level again: the same round (the cycle)
        for r in range(out.shape[0]):
            out[r] = Y[w, c, r]
        return YL[w, c]
    return tie_value(toff, Wt, Lt, T2, w, c, out)


@kernel
def final_after(off, Wf, Lf, toff, Wt, Lt, N, G, m, Bg, Tm, rest, f, w, c, out):
    """Value and length after seat ``m`` of a final round ends at score
    ``f``, at deck (w, c) (dice: ``w = c = 0``)."""
    B2, T2 = new_bar(f, G + Bg, Tm, m)
    if m < N - 1:
        idx = fidx(off, N, G, m + 1, B2 - G, T2, rest)
        for r in range(N):
            out[r] = Wf[idx, w, c, r]
        return Lf[idx, w, c]
    return tie_value(toff, Wt, Lt, T2, w, c, out)


@kernel
def tie_round(toff, t, C, G, Y, YL):
    """Set up the ``t``-player tie round: the first estimate of its start
    (``1/t`` each, in ``Y, YL``); returns its states (:func:`tie_states`)."""
    Y[:, :, :] = 0.0
    YL[:, :] = 0.0
    for r in range(t):
        Y[:, :, r] = 1.0 / t
    return tie_states(toff, t, C, G)


@kernel
def tie_update(Wt, Lt, toff, t, Y, YL, it, tol, max_iter, stats):
    """Take the swept start values ``Wt[s0], Lt[s0]`` as the next estimate
    ``Y, YL``; True when the iteration is done: the values moved by at most
    ``tol`` (lengths by 1e-12 relative), or after ``max_iter`` iterates
    (counted unsettled in ``stats[4]``, the last move in ``stats[5]``)."""
    s0 = tidx(toff, t, 0, 0, 0)
    diff = 0.0
    ldiff = 0.0
    for w in range(Y.shape[0]):
        for c in range(Y.shape[1]):
            for r in range(t):
                diff = max(diff, abs(Wt[s0, w, c, r] - Y[w, c, r]))
                Y[w, c, r] = Wt[s0, w, c, r]
            ldiff = max(ldiff, abs(Lt[s0, w, c] - YL[w, c]) / max(1.0, Lt[s0, w, c]))
            YL[w, c] = Lt[s0, w, c]
    stats[6] += 1
    if diff <= tol and ldiff <= 1e-12:
        return True
    if it >= max_iter:
        stats[4] += 1
        stats[5] = max(stats[5], diff)
        return True
    return False


def open_order(N, G):
    """All score tuples in ``[0, G)^N`` by decreasing sum.

    Returns ``(flat, tuples, groups)``: the flat base-G index and the scores
    of each tuple, and the bounds of the runs of equal sum (independent).
    """
    grids = np.indices((G,) * N).reshape(N, -1).T
    s = grids.sum(axis=1)
    order = np.argsort(-s, kind="stable")
    ss = s[order]
    groups = np.concatenate([[0], np.flatnonzero(np.diff(ss)) + 1, [len(ss)]])
    return order.astype(np.int64), grids[order].astype(np.int64), groups.astype(np.int64)


def table_bytes(N, G, C, deck_states, with_policy=True):
    """Bytes of the value, length and policy tables (for the memory guard)."""
    ncap = C - G + 1
    nopen = G ** N * N
    nfinal = sum(ncap * (1 << m) * G ** (N - m) for m in range(1, N - 1)) + (1 << (N - 1)) * C
    ntie = sum(ncap * (1 << p) for t in range(2, N + 1) for p in range(t))
    per = 8 * (N + 1) + (2 if with_policy else 0)
    return (nopen + nfinal + ntie) * deck_states * per + G ** N * N * 8
