"""Numba kernels of the rounds ending for two to four seats, any turn model.

Arrays in, preallocated arrays out; :mod:`designer.engine.seat_rounds` has
the game, the tables and the order of the solve.

One table of rows
-----------------
Every value the solve stores is a row ``A[row, h, r]``: seat (or tie-round
position) ``r``'s win probability at a turn start from start state ``h``,
``r < N``; when the game length is asked, one more number ``A[row, h, N]``:
the expected actions left (each throw or draw, each stop; a stop forced by
the cap or won by the last seat of a round counts one), carried along the
same decisions, which read the win probabilities alone.
A turn of the mover ``mv`` is described by ``srow``: ``srow[u]`` is the row
the next turn starts from when the turn ends with total ``u`` (``u = 0``:
a pass, a bust or an empty end; ``u = T``: any total ``>= T``, where the
turn ends at once). :func:`turn_plain` sweeps such a turn when every row it
reads is known (final and tie rounds); :func:`solve_open` solves the open
rounds, where a turn that ends with nothing starts the next seat's turn at
the same scores (the only cycle).

Affine values of an open score tuple
------------------------------------
The unknowns of a tuple are turn-start vectors ``X_k`` of some seats at
some feedback states (``uk[m, h] >= 0``); under a fixed policy every value
of the tuple is ``c + sum_k b_k X_k`` (``N`` numbers and ``K`` scalar
weights, a row of ``D = N + K``), since a chance step averages vectors
without mixing their components. The weights are chances of reaching an
unknown. A comparison of the mover ``m`` between two rows moves, when the
unknowns' components ``m`` move by at most ``e``, by at most ``e`` times
the sum of the differences of the two rows' weights (with one unknown,
by exactly ``e`` times the difference of their weights); so each
comparison bounds how far they may move before it flips, and the
intersection of those bounds, per mover, is where the policy swept stays
greedy (:func:`_bound`, :func:`_open_tuple`).
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._sync import fetch_add
from designer.solve._rounds_common import lin_solve

# mirrors of designer.engine.model (module-level integers are frozen in at
# compile time)
_BUST = 0
_END = 2

# columns of a worker's report
R_RESIDUAL = 0
R_SWEEPS = 1
R_UNSETTLED = 2
R_UNSETTLED_RES = 3
R_STATUS = 4
REPORT = 5

# geometry: geo[...]
G_N, G_G, G_C, G_REPLAY, G_OUT, G_FL, G_OPEN, G_FF = 0, 1, 2, 3, 4, 5, 6, 7


@kernel
def new_bar(f, B, Tm, pos, replay):
    """Bar and mask after ``pos`` ends at ``f`` against bar ``B`` held by
    the seats in ``Tm``: a new bar, a tie at the bar (replay: the seat joins
    the mask; earlier-seat: the earlier seat keeps it), or below."""
    if f > B or Tm == 0:
        return f, 1 << pos
    if f == B and replay:
        return B, Tm | (1 << pos)
    return B, Tm


@kernel
def rot(S, m, G):
    """Flat index of the scores ``S`` in seat ``m``'s open table: base
    ``G``, seat ``m`` most significant, then ``m + 1``, ..., ``m - 1``
    (so the totals of seat ``m - 1``'s turn read consecutive rows)."""
    N = S.shape[0]
    v = 0
    for q in range(N):
        v = v * G + S[(m + q) % N]
    return v


@kernel
def final_row(geo, m, B, Tm, tail):
    """Row of the final round's state: seat ``m >= 1`` to move, bar ``B``
    held by the seats of ``Tm``, ``tail`` the scores of seats ``m .. N-1``
    (base ``G``, seat ``m`` most significant)."""
    N, G, C = geo[G_N], geo[G_G], geo[G_C]
    if m == N - 1:
        return geo[G_FL] + Tm * (C + 1) + B - tail
    P = 1
    for _ in range(N - m):
        P *= G
    return geo[G_FF + m] + (Tm * P + tail) * (C - G + 1) + B - G


@kernel
def srow_open(geo, S, fl, m, T, srow):
    """``srow`` of seat ``m``'s turn in the open round at scores ``S``
    (flat index ``fl``); ``srow[0]`` is unused (the same tuple)."""
    N, G, C = geo[G_N], geo[G_G], geo[G_C]
    GN = 1
    for _ in range(N):
        GN *= G
    stride = 1
    for _ in range(N - 1 - m):
        stride *= G
    srow[0] = -1
    for u in range(1, T + 1):
        f = S[m] + u
        if m == N - 1:
            srow[u] = geo[G_OUT] + (1 << m) if f >= G else geo[G_OPEN] + fl + u
        elif f < G:
            srow[u] = geo[G_OPEN] + (m + 1) * GN + rot(S, m + 1, G) + u
        else:
            srow[u] = final_row(geo, m + 1, min(f, C), 1 << m, fl % stride)


@kernel
def srow_final(geo, m, B, Tm, s, tail, T, srow):
    """``srow`` of seat ``m`` in a final round (bar ``B``, mask ``Tm``, the
    mover at ``s``, ``tail`` the scores of the seats after it); the last
    seat's score is not capped (it stops once it passes the bar)."""
    N, C, replay = geo[G_N], geo[G_C], geo[G_REPLAY] == 1
    last = m == N - 1
    for u in range(T + 1):
        f = s + u if last else min(s + u, C)
        B2, T2 = new_bar(f, B, Tm, m, replay)
        if last:
            srow[u] = geo[G_OUT] + T2
        else:
            srow[u] = final_row(geo, m + 1, B2, T2, tail)


@kernel
def srow_tie(geo, toff, t, p, Bg, Tm, T, srow):
    """``srow`` of position ``p`` of a tie round among ``t`` seats (bar gain
    ``Bg`` held by the positions of ``Tm``; gains capped at ``C - G``
    except for the last position, which stops once it passes the bar)."""
    Cg = geo[G_C] - geo[G_G]
    last = p == t - 1
    for u in range(T + 1):
        g = u if last else min(u, Cg)
        B2, T2 = new_bar(g, Bg, Tm, p, True)
        if last:
            srow[u] = geo[G_OUT] + T2
        else:
            srow[u] = toff[t, p + 1] + B2 * (1 << (p + 1)) + T2


@kernel
def turn_plain(mv, nw, T, srow, A, tie, order, lo, hi, cont_start, out_start, out_prob, throws,
               out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h, pass_ok,
               min_bank, forced, starts, W, best, acc, res):
    """One turn of the mover ``mv`` whose ends read known rows (``srow``,
    module doc), swept backwards over totals ``T - 1 .. 0`` and the states
    in ``order``; ``res[h]`` receives the start value from ``starts[h]``.
    ``nw``: the win numbers of a row (the seats); with ``throws`` (each
    continuation's throws, else None) a row carries the actions left too."""
    NA = A.shape[2]
    for t in range(T - 1, -1, -1):
        for q in range(order.shape[0]):
            s = order[q]
            if t > hi[s] or t < lo[s]:
                continue
            have = False
            bestn = 0.0
            for c in range(cont_start[s], cont_start[s + 1]):
                for r in range(NA):
                    acc[r] = 0.0
                for o in range(out_start[c], out_start[c + 1]):
                    p = out_prob[o]
                    if p <= 0.0:
                        continue
                    k = out_kind[o]
                    if k == _BUST:
                        rw = srow[0]
                        hh = out_h[o]
                        for r in range(NA):
                            acc[r] += p * A[rw, hh, r]
                    elif k == _END:
                        rw = srow[min(t + out_points[o], T)]
                        hh = out_h[o]
                        for r in range(NA):
                            acc[r] += p * A[rw, hh, r]
                    else:
                        bo = -1
                        bn = 0.0
                        for j in range(opt_start[o], opt_start[o + 1]):
                            u = t + opt_gain[j]
                            s2 = opt_next[j]
                            n = A[srow[T], hand_h[s2], mv] if u >= T else W[s2, u, mv]
                            if bo < 0 or n > bn + tie:
                                bo = j
                                bn = n
                        u = t + opt_gain[bo]
                        s2 = opt_next[bo]
                        if u >= T:  # the turn ends there: a stop
                            rw = srow[T]
                            hh = hand_h[s2]
                            for r in range(NA):
                                acc[r] += p * A[rw, hh, r]
                            if throws is not None:
                                acc[nw] += p
                        else:
                            for r in range(NA):
                                acc[r] += p * W[s2, u, r]
                if throws is not None:
                    acc[nw] += throws[c]  # the throw or draw (rolls folded away too)
                n = acc[mv]
                if not have or n > bestn + tie:
                    have = True
                    bestn = n
                    for r in range(NA):
                        best[s, r] = acc[r]
            can = pass_ok[s] if t == 0 else t >= min_bank
            go = True
            rw = srow[t]
            hh = hand_h[s]
            if can:
                sv = A[rw, hh, mv]
                go = have and (bestn > sv + tie if t > 0 else bestn > sv - tie)
            if go:
                for r in range(NA):
                    W[s, t, r] = best[s, r]
            else:
                for r in range(NA):
                    W[s, t, r] = A[rw, hh, r]
                if throws is not None:
                    W[s, t, nw] += 1.0  # the stop
    for h in range(starts.shape[0]):
        s = starts[h]
        for r in range(NA):
            res[h, r] = best[s, r] if forced else W[s, 0, r]


@kernel
def job_turn(kind, jobs, j, geo, toff, srow):
    """Job ``j`` of :func:`solve_rows`: fills its turn's ``srow`` and
    returns ``(row written, mover, T)``."""
    row, mv, T = jobs[j, 0], jobs[j, 1], jobs[j, 2]
    if kind == 1:
        srow_final(geo, mv, jobs[j, 3], jobs[j, 4], jobs[j, 5], jobs[j, 6], T, srow)
    else:
        srow_tie(geo, toff, jobs[j, 3], jobs[j, 4], jobs[j, 5], jobs[j, 6], T, srow)
    return (row if row >= 0 else -row - 1), mv, T


@parallel_kernel
def solve_rows(kind, jobs, geo, toff, nt, A, tie, order, lo, hi, cont_start, out_start, out_prob,
               throws, out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h,
               pass_ok, min_bank, forced, starts, Tn):
    """Solve independent rows of the final (``kind`` 1) or tie (``kind`` 0)
    rounds on ``nt`` workers: ``jobs[j] = (row, mover, T, a, b, c, d)``
    with ``(a, b, c, d) = (B, Tm, s, tail)`` (final) or ``(t, p, Bg, Tm)``
    (tie); ``row < 0``: the tie round's start (written to ``A``'s
    ``-row - 1``)."""
    S, H, NA = order.shape[0], starts.shape[0], A.shape[2]
    nw = geo[G_N]
    claim = np.zeros(1, dtype=np.int64)  # jobs are claimed one at a time
    for w in prange(nt):
        W = np.zeros((S, max(Tn, 1), NA))
        best = np.zeros((S, NA))
        # written at every outcome: padded, so that two workers' never
        # share a cache line
        acc = np.zeros(NA + 16)
        res = np.zeros((H, NA))
        srow = np.zeros(Tn + 2, dtype=np.int64)
        while True:
            j = fetch_add(claim, 0, 1)
            if j >= jobs.shape[0]:
                break
            rw, mv, T = job_turn(kind, jobs, j, geo, toff, srow)
            turn_plain(mv, nw, T, srow, A, tie, order, lo, hi, cont_start, out_start, out_prob,
                       throws, out_kind, out_points, out_h, opt_start, opt_gain, opt_next,
                       hand_h, pass_ok, min_bank, forced, starts, W, best, acc, res)
            for h in range(H):
                for r in range(NA):
                    A[rw, h, r] = res[h, r]


@kernel
def _num(v, x, mv, N, K):
    """The mover's component of the affine row ``v`` at the estimate ``x``."""
    n = v[mv]
    for k in range(K):
        n += v[N + k] * x[k, mv]
    return n


@kernel
def _dist(a, b, N, K):
    """How a comparison of the rows ``a`` and ``b`` moves with the
    unknowns: with one unknown the difference of their weights, with more
    the sum of the differences' magnitudes."""
    if K == 1:
        return a[N] - b[N]
    d = 0.0
    for k in range(K):
        d += abs(a[N + k] - b[N + k])
    return d


@kernel
def _wsum(a, N, K):
    """:func:`_dist` of ``a`` and a constant row."""
    if K == 1:
        return a[N]
    d = 0.0
    for k in range(K):
        d += abs(a[N + k])
    return d


@kernel
def _bound(rad, m, margin, d, K):
    """Narrow the interval ``rad[m]`` within which mover ``m``'s unknowns
    may move before a comparison whose outcome is ``margin > 0`` flips: with
    one unknown the margin at the move ``e`` is ``margin + d e`` exactly,
    with more it moves by at most ``d max |e|``."""
    if d == 0.0:
        return
    if K == 1:
        e = -margin / d
        if (margin > 0.0) == (d > 0.0):
            if e > rad[m, 0]:
                rad[m, 0] = e
        elif e < rad[m, 1]:
            rad[m, 1] = e
        return
    r = abs(margin) / abs(d)
    if r < rad[m, 1]:
        rad[m, 1] = r
    if -r > rad[m, 0]:
        rad[m, 0] = -r


@kernel
def _sweep(geo, S, fl, x, uk, tie, Tm, srow, A, blk_ptr, blk_states, blk_tmax, lo, hi,
           cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start,
           opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, Wa, Wv, besta, acc, Start,
           Rows, rad):
    """One backward sweep of every seat's turn at the scores ``S``, greedy
    at the estimate ``x``: the affine turn starts go to ``Start`` (and the
    unknowns' own rows to ``Rows``), each mover's own value at ``x`` to
    ``Wv``; ``rad[m]``: how far mover ``m``'s components of the unknowns
    may move before one of its comparisons flips (module doc). A row is
    ``NA`` constants (the seats' wins, then the actions left if asked) and
    ``K`` weights: the actions are carried when ``throws`` (each
    continuation's throws) is given, else it is None. That choice is made
    at compile time, so that a table of wins alone compiles as tight as it
    would without the actions (with the seat count read from the table, the
    sweep measured 1.0-1.6 times slower on one thread)."""
    NA = A.shape[2]
    N = NA if throws is None else NA - 1
    K = x.shape[0]
    D = NA + K
    for m in range(N):
        rad[m, 0] = -np.inf
        rad[m, 1] = np.inf
    for b in range(blk_ptr.shape[0] - 1):
        for m in range(N - 1, -1, -1):
            T = Tm[m]
            mn = (m + 1) % N
            top = min(blk_tmax[b], T - 1)
            for t in range(top, -1, -1):
                for q in range(blk_ptr[b], blk_ptr[b + 1]):
                    s = blk_states[q]
                    if t > hi[s] or t < lo[s]:
                        continue
                    have = False
                    bestn = 0.0
                    for c in range(cont_start[s], cont_start[s + 1]):
                        for d in range(D):
                            acc[d] = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            if p <= 0.0:
                                continue
                            k = out_kind[o]
                            if k == _BUST or (k == _END and t + out_points[o] == 0):
                                hh = out_h[o]
                                for d in range(D):
                                    acc[d] += p * Start[mn, hh, d]
                            elif k == _END:
                                rw = srow[m, min(t + out_points[o], T)]
                                hh = out_h[o]
                                for r in range(NA):
                                    acc[r] += p * A[rw, hh, r]
                            else:
                                bo = -1
                                bn = 0.0
                                for j in range(opt_start[o], opt_start[o + 1]):
                                    u = t + opt_gain[j]
                                    s2 = opt_next[j]
                                    if u >= T:
                                        n = A[srow[m, T], hand_h[s2], m]
                                    else:
                                        n = Wv[m, s2, u]
                                    if bo >= 0 and K > 0:
                                        ub = t + opt_gain[bo]
                                        if u >= T and ub >= T:
                                            dd = 0.0
                                        elif u >= T:
                                            dd = -_wsum(Wa[m, opt_next[bo], ub], NA, K)
                                        elif ub >= T:
                                            dd = _wsum(Wa[m, s2, u], NA, K)
                                        else:
                                            dd = _dist(Wa[m, s2, u], Wa[m, opt_next[bo], ub],
                                                       NA, K)
                                        _bound(rad, m, n - bn - tie, dd, K)
                                    if bo < 0 or n > bn + tie:
                                        bo = j
                                        bn = n
                                u = t + opt_gain[bo]
                                s2 = opt_next[bo]
                                if u >= T:  # the turn ends there: a stop
                                    rw = srow[m, T]
                                    hh = hand_h[s2]
                                    for r in range(NA):
                                        acc[r] += p * A[rw, hh, r]
                                    if throws is not None:
                                        acc[N] += p
                                else:
                                    for d in range(D):
                                        acc[d] += p * Wa[m, s2, u, d]
                        if throws is not None:
                            acc[N] += throws[c]  # the throw or draw (rolls folded away too)
                        n = _num(acc, x, m, NA, K)
                        if have:
                            _bound(rad, m, n - bestn - tie, _dist(acc, besta[m, s], NA, K), K)
                        if not have or n > bestn + tie:
                            have = True
                            bestn = n
                            for d in range(D):
                                besta[m, s, d] = acc[d]
                    can = pass_ok[s] if t == 0 else t >= min_bank
                    go = True
                    hh = hand_h[s]
                    sv = 0.0
                    if can:
                        if t == 0:
                            sv = _num(Start[mn, hh], x, m, NA, K)
                            if have:
                                _bound(rad, m, bestn - sv + tie,
                                       _dist(besta[m, s], Start[mn, hh], NA, K), K)
                            go = have and bestn > sv - tie
                        else:
                            sv = A[srow[m, t], hh, m]
                            if have:
                                _bound(rad, m, bestn - sv - tie, _wsum(besta[m, s], NA, K), K)
                            go = have and bestn > sv + tie
                    if go:
                        Wv[m, s, t] = bestn
                        for d in range(D):
                            Wa[m, s, t, d] = besta[m, s, d]
                    elif t == 0:  # a pass
                        Wv[m, s, t] = sv
                        for d in range(D):
                            Wa[m, s, t, d] = Start[mn, hh, d]
                        if throws is not None:
                            Wa[m, s, t, N] += 1.0
                    else:
                        Wv[m, s, t] = sv
                        rw = srow[m, t]
                        for r in range(NA):
                            Wa[m, s, t, r] = A[rw, hh, r]
                        for d in range(NA, D):
                            Wa[m, s, t, d] = 0.0
                        if throws is not None:
                            Wa[m, s, t, N] += 1.0  # the stop
                    if t == 0 and hidx[s] >= 0:
                        h = hidx[s]
                        src = besta[m, s] if forced else Wa[m, s, 0]
                        if uk[m, h] >= 0:
                            for d in range(D):
                                Rows[uk[m, h], d] = src[d]
                        else:
                            for d in range(D):
                                Start[m, h, d] = src[d]


@kernel
def _guess(geo, S, ukm, ukh, A, x):
    """A first estimate of the unknowns from solved tuples of larger sum:
    along the two seats with the lowest scores, a quadratic through the
    tuples up to two points above (else bilinear, one step, 1/N at the
    top), clipped to [0, 1]; the actions left, if carried, from 0 (they are
    solved exactly once the decisions settle)."""
    N, G = S.shape[0], geo[G_G]
    GN = 1
    for _ in range(N):
        GN *= G
    a = 0
    for q in range(N):
        if S[q] < S[a]:
            a = q
    b = -1
    for q in range(N):
        if q != a and (b < 0 or S[q] < S[b]):
            b = q
    for k in range(ukm.shape[0]):
        mk, h = ukm[k], ukh[k]
        base = geo[G_OPEN] + mk * GN + rot(S, mk, G)
        ea = 1
        for _ in range(N - 1 - (a - mk) % N):
            ea *= G
        eb = 1
        for _ in range(N - 1 - (b - mk) % N):
            eb *= G
        for r in range(N):
            if S[a] + 2 < G and S[b] + 2 < G:
                v = (1.5 * (A[base + ea, h, r] + A[base + eb, h, r])
                     - 2.0 * A[base + ea + eb, h, r]
                     - 0.5 * (A[base + 2 * ea, h, r] + A[base + 2 * eb, h, r])
                     + 0.5 * (A[base + 2 * ea + eb, h, r] + A[base + ea + 2 * eb, h, r]))
            elif S[a] + 1 < G and S[b] + 1 < G:
                v = A[base + ea, h, r] + A[base + eb, h, r] - A[base + ea + eb, h, r]
            elif S[a] + 1 < G:
                v = A[base + ea, h, r]
            else:
                v = 1.0 / N
            x[k, r] = min(1.0, max(0.0, v))
        for r in range(N, x.shape[1]):
            x[k, r] = 0.0


@kernel
def _fixed_point(Rows, NA, M, R, y):
    """The unknowns ``y = c + B y`` of the policy swept (``Rows[k]``: the
    ``NA`` constants ``c`` of unknown ``k``'s own row, then its weights
    ``B[k]``), solved exactly into ``y``; False if ``I - B`` is singular."""
    K = M.shape[0]
    for k in range(K):
        for j in range(K):
            M[k, j] = -Rows[k, NA + j]
        M[k, k] += 1.0
        for r in range(NA):
            R[k, r] = Rows[k, r]
    return lin_solve(M, R, y)


@kernel
def _open_tuple(geo, S, fl, uk, ukm, ukh, tie, tol, pi_sweeps, pi_exact, limit, A, blk_ptr,
                blk_states, blk_tmax, lo, hi, cont_start, out_start, out_prob, throws, out_kind,
                out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok,
                min_bank, forced, Tn, Tm, srow, Wa, Wv, besta, acc, Start, Rows, x, y, g, bestx,
                M, R, rad, rep):
    """Solve the open round at the scores ``S``: policy iteration for
    ``pi_sweeps`` sweeps, then half greedy backups, accepted once the
    policy's fixed point lies within the sweep's radius or one backup moves
    the estimate by at most ``tol`` (from the ``pi_exact``-th sweep on); not
    accepted within ``limit`` sweeps: unsettled, the iterate of least
    residual kept. Writes every seat's turn starts to ``A``. The actions
    left, if carried, do not steer the decisions: once they settle, one
    linear solve under them gives the unknowns' actions exactly (NaN where
    that play has turns that never end)."""
    N, G = geo[G_N], geo[G_G]
    NA = A.shape[2]
    K = ukm.shape[0]
    for m in range(N):
        T = G - S[m] if m == N - 1 else geo[G_C] - S[m]
        T = max(T, min_bank)
        Tm[m] = T
        srow_open(geo, S, fl, m, T, srow[m])
    # the unknowns' unit rows
    for m in range(N):
        for h in range(uk.shape[1]):
            if uk[m, h] >= 0:
                for d in range(NA + K):
                    Start[m, h, d] = 0.0
                Start[m, h, NA + uk[m, h]] = 1.0
    _guess(geo, S, ukm, ukh, A, x)
    sweeps = 0
    best_res = np.inf
    settled = False
    res = 0.0
    while True:
        _sweep(geo, S, fl, x, uk, tie, Tm, srow, A, blk_ptr, blk_states, blk_tmax, lo, hi,
               cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start,
               opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, Wa, Wv, besta, acc,
               Start, Rows, rad)
        sweeps += 1
        if K == 0:
            settled = True
            res = 0.0
            break
        r0 = 0.0  # over the wins only
        for k in range(K):
            for r in range(NA):
                v = Rows[k, r]
                for j in range(K):
                    v += Rows[k, NA + j] * x[j, r]
                g[k, r] = v
                if r < N:
                    r0 = max(r0, abs(v - x[k, r]))
        if r0 < best_res:
            best_res = r0
            bestx[:, :] = x
        if sweeps <= pi_sweeps:
            ok = _fixed_point(Rows, NA, M, R, y)
            if ok:
                stay = True
                for r in range(N):
                    if K == 1:
                        e = y[0, r] - x[0, r]
                        if not (rad[r, 0] < e < rad[r, 1]):
                            stay = False
                    else:
                        dx = 0.0
                        for k in range(K):
                            dx = max(dx, abs(y[k, r] - x[k, r]))
                        if not (rad[r, 0] < -dx and dx < rad[r, 1]):
                            stay = False
                if stay:
                    x[:, :] = y
                    res = 0.0
                    for k in range(K):
                        for r in range(N):
                            v = Rows[k, r]
                            for j in range(K):
                                v += Rows[k, NA + j] * x[j, r]
                            res = max(res, abs(v - x[k, r]))
                    settled = True
                    break
            if r0 <= tol and sweeps >= pi_exact:
                res = r0
                settled = True
                break
            if ok:
                x[:, :] = y
            else:
                for k in range(K):
                    for r in range(NA):
                        x[k, r] += 0.5 * (g[k, r] - x[k, r])
        else:
            if r0 <= tol:
                res = r0
                settled = True
                break
            if sweeps >= limit:
                break
            for k in range(K):
                for r in range(NA):
                    x[k, r] += 0.5 * (g[k, r] - x[k, r])
    if not settled:
        x[:, :] = bestx
        _sweep(geo, S, fl, x, uk, tie, Tm, srow, A, blk_ptr, blk_states, blk_tmax, lo, hi,
               cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start,
               opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, Wa, Wv, besta, acc,
               Start, Rows, rad)
        sweeps += 1
        res = best_res
        rep[R_UNSETTLED] += 1
        rep[R_UNSETTLED_RES] = max(rep[R_UNSETTLED_RES], res)
    else:
        rep[R_RESIDUAL] = max(rep[R_RESIDUAL], res)
    rep[R_SWEEPS] += sweeps
    if NA > N and K > 0:
        # the actions left under the last sweep's decisions (those of x)
        if _fixed_point(Rows, NA, M, R, y):
            for k in range(K):
                x[k, N] = y[k, N]
        else:
            for k in range(K):
                x[k, N] = np.nan
    write_starts(geo, S, uk, Rows, Start, x, A)
    return settled


@kernel
def write_starts(geo, S, uk, Rows, Start, x, A):
    """Every seat's turn starts of the open tuple ``S`` into its rows of
    ``A``: each affine row (``Rows[uk[m, h]]`` where it is an unknown, else
    ``Start[m, h]``: constants, then weights) at the unknowns' values
    ``x``."""
    N, G = geo[G_N], geo[G_G]
    NA, K, H = A.shape[2], x.shape[0], uk.shape[1]
    GN = 1
    for _ in range(N):
        GN *= G
    for m in range(N):
        rw = geo[G_OPEN] + m * GN + rot(S, m, G)
        for h in range(H):
            src = Rows[uk[m, h]] if uk[m, h] >= 0 else Start[m, h]
            for r in range(NA):
                v = src[r]
                for j in range(K):
                    v += src[NA + j] * x[j, r]
                A[rw, h, r] = v


@kernel
def _lines(n):
    """``n`` zeros from a 64-byte boundary (a cache line) on."""
    buf = np.zeros(n + 8)
    off = (64 - buf.ctypes.data % 64) % 64 // 8
    return buf[off:off + n]


@parallel_kernel
def solve_open(geo, flat, tuples, groups, uk, ukm, ukh, tie, tol, pi_sweeps, pi_exact, limit,
               strict, A, blk_ptr, blk_states, blk_tmax, lo, hi, cont_start, out_start, out_prob,
               throws, out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx,
               pass_ok, min_bank, forced, Tn, nt, report):
    """The open rounds: score tuples by decreasing sum (``groups`` bound
    the runs of equal sum, which read only larger sums), each run shared by
    ``nt`` workers (its tuples claimed one by one); ``report[w]`` gathers
    worker ``w``'s figures. With
    ``strict`` (two seats) a tuple that does not settle stops the solve
    (``R_STATUS``)."""
    N = geo[G_N]
    NA = A.shape[2]  # the wins, and the actions left if asked
    K = ukm.shape[0]
    S_, H = lo.shape[0], uk.shape[1]
    D = NA + K
    # each worker's scratch; the small rows padded apart, as a cache line
    # shared by two threads' accumulators costs several times their work
    PAD = 16
    # with the actions a row no longer fits 32 bytes (the arrays' alignment):
    # rows of a whole number of cache lines, from a cache line on, so that
    # none straddles two (measured: rows of 5 numbers took 1.5-2 times as
    # long as rows of 4, varying from run to run with where they landed)
    Dp = D if throws is None else (D + 7) // 8 * 8
    Tm = np.zeros((nt, N + PAD), dtype=np.int64)
    srow = np.zeros((nt, N, Tn + 2), dtype=np.int64)
    Wa = _lines(nt * N * S_ * max(Tn, 1) * Dp).reshape((nt, N, S_, max(Tn, 1), Dp))
    Wv = np.zeros((nt, N, S_, max(Tn, 1)))
    rad = np.zeros((nt, N + PAD, 2))
    besta = _lines(nt * N * S_ * Dp).reshape((nt, N, S_, Dp))
    acc = _lines(nt * (Dp + PAD)).reshape((nt, Dp + PAD))
    Start = _lines(nt * N * H * Dp).reshape((nt, N, H, Dp))
    Rows = _lines(nt * max(K, 1) * Dp).reshape((nt, max(K, 1), Dp))
    x = np.zeros((nt, K, NA))
    y = np.zeros((nt, K, NA))
    g = np.zeros((nt, K, NA))
    bestx = np.zeros((nt, K, NA))
    M = np.zeros((nt, K, K))
    R = np.zeros((nt, K, NA))
    # each run's tuples are claimed one at a time from a shared counter, so
    # that a worker the system keeps off its core holds up at most one
    claim = np.zeros(groups.shape[0], dtype=np.int64)
    for gi in range(groups.shape[0] - 1):
        for w in prange(nt):
            rep = report[w]
            while True:
                i = groups[gi] + fetch_add(claim, gi, 1)
                if i >= groups[gi + 1] or rep[R_STATUS] != 0.0:
                    break
                ok = _open_tuple(geo, tuples[i], flat[i], uk, ukm, ukh, tie, tol, pi_sweeps,
                                 pi_exact, limit, A, blk_ptr, blk_states, blk_tmax, lo, hi,
                                 cont_start, out_start, out_prob, throws, out_kind, out_points,
                                 out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok,
                                 min_bank, forced, Tn, Tm[w], srow[w], Wa[w], Wv[w], besta[w], acc[w],
                                 Start[w], Rows[w], x[w], y[w], g[w], bestx[w], M[w], R[w],
                                 rad[w], rep)
                if strict and not ok:
                    rep[R_STATUS] = 1.0 + i
