"""Numba kernels of the rounds ending for two to four seats where a bust can
lower a banked score; :mod:`designer.engine.seat_rounds_falls` has the
game, the rows and the order of a pass.

One table of rows
-----------------
``A[row, h, r]``: seat ``r``'s win probability (``r < N``) and, at ``r =
N``, the expected actions left, at a turn start from start state ``h``.
A row is one of (``g = G - lo`` scores below the goal, ``nb = C - G + 1``
at or above it; a tuple code lists scores from ``lo`` in base ``g``, the
earlier seat the higher digit):

``WIN`` (rows ``0 .. N - 1``)
    seat ``q`` has won: the unit vector, no actions left;
``TIE`` (replay, ``tie_off[mask] + B - G``)
    the seats of ``mask`` (two to ``N - 1`` of them) level at ``B`` play on
    alone: the values of that smaller game, filled before the solve;
``OA`` (``oa + m g^N + code``)
    seat ``m`` to move, every score below the goal (seats before ``m``
    have moved this round);
``FA`` (``fa_off[m] + ((B - G) 2^m + mask) g^(N - m) + code``)
    seat ``m`` to move, the seats of ``mask`` (before ``m``) ended their
    turns at the round's highest score ``B >= G``; ``code`` the scores of
    seats ``m .. N - 1``, below the goal (the scores below ``B`` of the
    seats before ``m`` no longer matter: the round is the last);
``OB`` (replay, ``ob_off[m] + (B0 - G) g^m + code``)
    every seat was level at ``B0 >= G`` at the round's start (a tie played
    on), seat ``m`` to move, the seats before ``m`` below the goal now
    (``code``); ``OB[0][B0]`` is that round's start;
``FB`` (replay, ``fb_off[m] + ((B0 - G) nb + B - G) 2^m + mask``)
    as ``OB`` once a seat before ``m`` ended at or above the goal.

A turn of seat ``m`` from score ``s`` ends at a new score ``x`` (``s`` plus
its total, held at the cap ``C`` unless ``m`` is the round's last seat,
which stops as soon as its stop wins; or the score a falling bust leaves):
:func:`next_row` gives the row the game goes to, and :func:`fill_stops`
copies those rows into the turn's stop values, one column per start state
and one more per falling outcome (column ``H + k``), over which
:func:`turn` sweeps the turn with one row of numbers per position. Every
seat maximises its own win (max-n); ties go to stopping (at a total of 0
to going on), among continuations and options to the one listed first.
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._match_kernels import MAX_SCORE, TABLE, _option
from designer.engine._rounds_falls_kernels import fallen, pass_changes, reset, solved
from designer.engine._rounds_kernels import (OP_CHOICE, OP_END, OP_MOVE, OP_SKIP, OQ_AUX, OQ_GAIN,
                                             OQ_NEXT, OQ_OP)
from designer.engine._rounds_match_kernels import fixed_decision
from designer.engine._sync import fetch_add, load_acquire

# kinds of a job
K_OA, K_FA, K_OB, K_FB = 0, 1, 2, 3
# geometry: geo[...]
G_N, G_G, G_C, G_LO, G_REPLAY, G_OA, G_MB, G_FORCED = 0, 1, 2, 3, 4, 5, 6, 7
# a fixed policy's numbers: pol[0][...] (kind -1: every seat max-n; F0: the
# first number of a row a pass writes, the others held)
P_KIND, P_SEAT, P_HOLD, P_TC, P_F0 = 0, 1, 2, 3, 4
#: "never": no stop is forced by a fixed policy's own win test (the turn's
#: end ``T`` stops the last seat where a stop wins, as it stops every seat)
_NEVER = np.int64(1) << 62
#: A tuple whose round comes back to it in ``ENDLESS_ROUNDS`` rounds more
#: after its wins agree, its lengths still growing, has no expected length
#: (play passes for ever): ``flags[0]``.
ENDLESS_ROUNDS = 200
#: Rounds of an open tuple before its turns' values are averaged with their
#: last (three or more seats, whose decisions can cycle).
PLAIN_ROUNDS = 100


@kernel
def _bar(B, mask, x, m, replay):
    """The round's highest score and the seats holding it once seat ``m``
    ends its turn at ``x``."""
    if x > B:
        return x, np.int64(1) << m
    if x == B and replay:
        return B, mask | (np.int64(1) << m)
    return B, mask


@kernel
def _result(B, mask, N, G, ob_off, tie_off):
    """The row of a round's end at the highest score ``B >= G`` held by the
    seats of ``mask``: one seat's win, or the tied seats playing on."""
    if mask & (mask - 1) == 0:
        q = 0
        while (mask >> q) & 1 == 0:
            q += 1
        return np.int64(q)
    if mask == (np.int64(1) << N) - 1:
        return ob_off[0] + B - G
    return tie_off[mask] + B - G


@kernel
def next_row(kind, m, s, x, p0, p1, p2, geo, pw, fa_off, ob_off, fb_off, tie_off):
    """The row the game goes to when seat ``m`` of a job ``(kind, p0, p1,
    p2)`` (module doc) ends its turn, begun at score ``s``, at score
    ``x``."""
    N, G, lo, replay, oa = geo[G_N], geo[G_G], geo[G_LO], geo[G_REPLAY] != 0, geo[G_OA]
    nb = geo[G_C] - G + 1
    last = m == N - 1
    tail = pw[N - 1 - m]
    if kind == K_OA:  # p0: the scores' code
        if x < G:
            code = p0 + (x - s) * tail
            return oa + (0 if last else (m + 1) * pw[N]) + code
        if last:
            return m
        return fa_off[m + 1] + ((x - G) * (np.int64(2) << m) + (np.int64(1) << m)) * tail \
            + p0 % tail
    if kind == K_FA:  # p0: B, p1: mask, p2: the code of seats m ..
        B2, M2 = _bar(p0, p1, x, m, replay)
        if last:
            return _result(B2, M2, N, G, ob_off, tie_off)
        return fa_off[m + 1] + ((B2 - G) * (np.int64(2) << m) + M2) * tail + p2 % tail
    if kind == K_OB:  # p0: B0, p1: the code of seats before m
        if x < G:
            code = p1 * (G - lo) + x - lo
            if last:
                return oa + code
            return ob_off[m + 1] + (p0 - G) * pw[m + 1] + code
        if last:
            return m
        return fb_off[m + 1] + ((p0 - G) * nb + x - G) * (np.int64(2) << m) + (np.int64(1) << m)
    # K_FB: p0: B0, p1: B, p2: mask
    B2, M2 = _bar(p1, p2, x, m, replay)
    if last:
        return _result(B2, M2, N, G, ob_off, tie_off)
    return fb_off[m + 1] + ((p0 - G) * nb + B2 - G) * (np.int64(2) << m) + M2


@kernel
def own_score(kind, m, p0, p2, geo, pw):
    """Seat ``m``'s score at the start of its turn in a job."""
    N, lo = geo[G_N], geo[G_LO]
    g = geo[G_G] - lo
    if kind == K_OA:
        return (p0 // pw[N - 1 - m]) % g + lo
    if kind == K_FA:
        return p2 // pw[N - 1 - m] + lo
    return p0


@kernel
def turn_end(kind, m, s, p0, p1, geo):
    """``T``: the total from which the turn ends at once (seat ``m`` at the
    cap, or the round's last seat winning by a stop)."""
    N, G, C, mb = geo[G_N], geo[G_G], geo[G_C], geo[G_MB]
    if m < N - 1:
        return max(C - s, 0)
    if kind == K_OA or kind == K_OB:
        return max(G - s, mb, 0)
    bar = p0 if kind == K_FA else p1
    return max(bar + 1 - s, mb, 0)


@kernel
def fill_stops(kind, m, s, T, p0, p1, p2, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff,
               fall_pen, fall_h, A, stopv):
    """The stop values of seat ``m``'s turn: ``stopv[u, h]``, the row the
    game goes to when the turn ends with total ``u`` (``u = T``: any total
    from ``T`` on) with the next turn from start ``h``; ``stopv[0, H + k]``
    after the ``k``-th falling bust."""
    N, C, lo = geo[G_N], geo[G_C], geo[G_LO]
    H, NA = A.shape[1], A.shape[2]
    last = m == N - 1
    for u in range(T + 1):
        x = s + u if last else min(s + u, C)
        rw = next_row(kind, m, s, x, p0, p1, p2, geo, pw, fa_off, ob_off, fb_off, tie_off)
        for h in range(H):
            for r in range(NA):
                stopv[u, h, r] = A[rw, h, r]
    for k in range(fall_eff.shape[0]):
        x = fallen(s, fall_eff[k], fall_pen[k], lo)
        rw = next_row(kind, m, s, x, p0, p1, p2, geo, pw, fa_off, ob_off, fb_off, tie_off)
        for r in range(NA):
            stopv[0, H + k, r] = A[rw, fall_h[k], r]


@kernel
def _add(acc, p, src, NA):
    for r in range(NA):
        acc[r] += p * src[r]


@kernel
def _fixed(pol, dec, s, t, c0, has, min_bank):
    """The fixed policy's decision at ``(s, t)``: ``(cc, stop)``, as the
    two-seat match decides (:func:`~designer.engine._rounds_match_kernels.fixed_decision`);
    max-score's turn ends from its horizon on."""
    pint, pass_ok, mstop, mcont, node_base, node_len = pol[0], pol[1], pol[4], pol[5], pol[6], \
        pol[7]
    kind = pint[P_KIND]
    if kind == MAX_SCORE and t >= pint[P_TC]:
        return (c0 if has else np.int64(-1)), True
    allowed = t >= min_bank and (t > 0 or pass_ok[s])
    return fixed_decision(kind, s, t, c0, has, allowed, pint[P_HOLD], _NEVER, dec, node_base,
                          node_len, mstop, mcont)


@kernel
def _cont_fixed(c, t, T, pol, stopv, out_start, out_prob, throws, oq, opt_start, opt_gain,
                opt_next, hand_h, W, acc):
    """Continuation ``c`` at total ``t`` of the fixed policy's seat into
    ``acc``: every number of the turn (a throw counted), an option at a
    choice the policy's own (:func:`~designer.engine._match_kernels._option`).
    :func:`turn` writes the max-n mover's continuations out in its own loop
    (a call that passes arrays costs numba reference counts: through this
    helper the solve took 1.45 times as long)."""
    NA = W.shape[2]
    L = NA - 1
    pint = pol[0]
    for r in range(NA):
        acc[r] = 0.0
    acc[L] = throws[c]
    for o in range(out_start[c], out_start[c + 1]):
        op = oq[o, OQ_OP]
        p = out_prob[o]
        if op == OP_MOVE or op == OP_CHOICE:
            if op == OP_MOVE:
                u = t + oq[o, OQ_GAIN]
                s2 = oq[o, OQ_NEXT]
            else:
                k = _option(o, t, pint[P_KIND], opt_start, opt_gain, opt_next, pol[3],
                            pint[P_TC], pol[2])
                u = t + opt_gain[k]
                s2 = opt_next[k]
            if u >= T:
                _add(acc, p, stopv[T, hand_h[s2]], NA)
                acc[L] += p
            else:
                _add(acc, p, W[s2, u], NA)
        elif op == OP_END:
            _add(acc, p, stopv[min(t + oq[o, OQ_GAIN], T), oq[o, OQ_AUX]], NA)
        elif op != OP_SKIP:  # a bust
            _add(acc, p, stopv[0, oq[o, OQ_AUX]], NA)


@kernel
def turn(T, mv, stopv, min_bank, forced, tie, pol, dec, starts, blk_ptr, blk_states, cont_start,
         out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, W,
         acc, best, res):
    """Seat ``mv``'s turn over the stop values ``stopv`` (:func:`fill_stops`),
    one row per position (``W[s, t]``): every number of a row (the wins,
    the actions left) under ``mv``'s decisions (a stop, the stop at ``T``
    included, is one action, a throw or draw ``throws[c]``, an end of the
    turn by a roll none). Start values go to ``res[h]``. With ``T = 0`` the
    turn ends at once: a pass, or under a forced first roll that roll,
    every total it reaches being the end.

    The mover decides by its own number ``mv`` (max-n), or, where it is
    the seat of the fixed policy ``pol`` (:func:`_fixed`; ``dec`` its
    table's slice at the scores of this turn), by that policy: the other
    numbers of a row follow the same decisions, so a table whose first
    numbers hold the solve's wins and whose next hold a policy's
    evaluation is swept by one kernel."""
    NA = res.shape[1]
    L = NA - 1
    fixed = pol[0][P_KIND] >= 0 and mv == pol[0][P_SEAT]
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(max(T, 1) - 1, -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t < tmin[s]:
                    continue
                c0, c1 = cont_start[s], cont_start[s + 1]
                hs = hand_h[s]
                stop = stopv[t, hs, mv]
                if fixed:
                    cc, stop_me = _fixed(pol, dec, s, t, c0, c1 > c0, min_bank)
                    have = cc >= 0 and (not stop_me or (forced and t == 0 and hidx[s] >= 0))
                    if have:
                        _cont_fixed(cc, t, T, pol, stopv, out_start, out_prob, throws, oq,
                                    opt_start, opt_gain, opt_next, hand_h, W, best)
                    go = have and not stop_me and t < T
                else:
                    have = False
                    for c in range(c0, c1):
                        for r in range(NA):
                            acc[r] = 0.0
                        acc[L] = throws[c]
                        for o in range(out_start[c], out_start[c + 1]):
                            op = oq[o, OQ_OP]
                            p = out_prob[o]
                            if op == OP_MOVE:
                                u = t + oq[o, OQ_GAIN]
                                if u >= T:
                                    _add(acc, p, stopv[T, oq[o, OQ_AUX]], NA)
                                    acc[L] += p
                                else:
                                    _add(acc, p, W[oq[o, OQ_NEXT], u], NA)
                            elif op == OP_END:
                                _add(acc, p, stopv[min(t + oq[o, OQ_GAIN], T), oq[o, OQ_AUX]],
                                     NA)
                            elif op == OP_CHOICE:
                                bk = -1
                                bn = 0.0
                                for k in range(opt_start[o], opt_start[o + 1]):
                                    u = t + opt_gain[k]
                                    if u >= T:
                                        n = stopv[T, hand_h[opt_next[k]], mv]
                                    else:
                                        n = W[opt_next[k], u, mv]
                                    if bk < 0 or n > bn + tie:
                                        bk = k
                                        bn = n
                                u = t + opt_gain[bk]
                                if u >= T:
                                    _add(acc, p, stopv[T, hand_h[opt_next[bk]]], NA)
                                    acc[L] += p
                                else:
                                    _add(acc, p, W[opt_next[bk], u], NA)
                            elif op != OP_SKIP:  # a bust
                                _add(acc, p, stopv[0, oq[o, OQ_AUX]], NA)
                        if not have or acc[mv] > best[mv] + tie:
                            have = True
                            for r in range(NA):
                                best[r] = acc[r]
                    go = have and t < T  # (T = 0: a stop, or the forced roll below)
                    if go and t >= min_bank:
                        go = best[mv] > stop + tie if t > 0 else best[mv] > stop - tie
                if go:
                    for r in range(NA):
                        W[s, t, r] = best[r]
                else:
                    for r in range(NA):
                        W[s, t, r] = stopv[t, hs, r]
                    W[s, t, L] += 1.0
                if t == 0 and hidx[s] >= 0:
                    h = hidx[s]
                    for r in range(NA):
                        res[h, r] = best[r] if forced and have else W[s, 0, r]


@kernel
def _changes(res, A, rw, f0):
    """Largest change of a win (numbers ``f0 ..`` but the last) and
    relative change of the length (the last) between ``res`` and row
    ``rw``."""
    d = 0.0
    ld = 0.0
    L = res.shape[1] - 1
    for h in range(res.shape[0]):
        for r in range(f0, L):
            d = max(d, abs(res[h, r] - A[rw, h, r]))
        ld = max(ld, abs(res[h, L] - A[rw, h, L]) / max(1.0, abs(res[h, L])))
    return d, ld


@kernel
def highest_other(kind, m, p0, p1, p2, geo, pw):
    """The highest score of the seats other than ``m`` at the start of its
    turn in a job (the scores of the seats before ``m`` below the round's
    bar no longer matter once a seat ended at or above the goal, and are
    below it)."""
    N, lo = geo[G_N], geo[G_LO]
    g = geo[G_G] - lo
    if kind == K_OA:
        top = np.int64(-1) << 40
        for q in range(N):
            if q != m:
                top = max(top, (p0 // pw[N - 1 - q]) % g + lo)
        return top
    if kind == K_FA:
        return p0
    if kind == K_FB:
        return max(p1, p0) if m < N - 1 else p1
    if m < N - 1:  # K_OB: the seats after m still at the level
        return p0
    top = np.int64(-1) << 40
    for q in range(m):
        top = max(top, (p1 // pw[m - 1 - q]) % g + lo)
    return top


@kernel
def one_turn(kind, m, p0, p1, p2, rw, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff,
             fall_pen, fall_h, A, tie, pol, starts, blk_ptr, blk_states, cont_start, out_start,
             out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv, W,
             acc, best, res):
    """Seat ``m``'s turn of a job, written to row ``rw`` (its numbers from
    ``pol``'s first written one on); returns its changes
    (:func:`_changes`)."""
    pint = pol[0]
    f0 = pint[P_F0]
    s = own_score(kind, m, p0, p2, geo, pw)
    T = turn_end(kind, m, s, p0, p1, geo)
    fill_stops(kind, m, s, T, p0, p1, p2, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff,
               fall_pen, fall_h, A, stopv)
    tab = pol[8]
    dec = tab[0, 0]
    if pint[P_KIND] == TABLE and m == pint[P_SEAT]:  # the rule's decisions at these scores
        lo, top = geo[G_LO], tab.shape[0] - 1
        dec = tab[min(s - lo, top), min(highest_other(kind, m, p0, p1, p2, geo, pw) - lo, top)]
    turn(T, m, stopv, geo[G_MB], geo[G_FORCED] != 0, tie, pol, dec, starts, blk_ptr, blk_states,
         cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
         tmin, W, acc, best, res)
    d, ld = _changes(res, A, rw, f0)
    for h in range(res.shape[0]):
        for r in range(f0, res.shape[1]):
            A[rw, h, r] = res[h, r]
    return d, ld


@kernel
def _copy(dst, src):
    for h in range(src.shape[0]):
        for r in range(src.shape[1]):
            dst[h, r] = src[h, r]


@kernel
def _secant(A, rw, sec, it, f0):
    """The secant step of a round that can come back to its start ``rw``
    (one start state): its values out against in (``sec[2]``, kept at the
    round's start) are affine, one factor ``rho`` for every number, while
    the decisions stay; from the second round on row ``rw`` is set to the
    fixed point of the line through the last two rounds (``sec[0]``,
    ``sec[1]``: the last round's in and out), which the next round
    checks. Numbers before ``f0`` are held (not written by a pass)."""
    NA = A.shape[2]
    if it == 0:
        for r in range(NA):
            sec[0, r] = sec[2, r]
            sec[1, r] = A[rw, 0, r]
        return
    j = f0
    for r in range(f0, NA):
        if abs(sec[2, r] - sec[0, r]) > abs(sec[2, j] - sec[0, j]):
            j = r
    dx = sec[2, j] - sec[0, j]
    if dx == 0.0:
        return
    rho = (A[rw, 0, j] - sec[1, j]) / dx
    for r in range(NA):
        sec[0, r] = sec[2, r]
        sec[1, r] = A[rw, 0, r]
    if 0.0 <= rho < 0.999999:
        for r in range(f0, NA):
            A[rw, 0, r] = (A[rw, 0, r] - rho * sec[0, r]) / (1.0 - rho)


@kernel
def _group(p0, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen, fall_h, A, tie, pol, tol,
           max_inner, starts, blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq,
           opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv, W, acc, best, res, old, sec,
           flags, unsettled):
    """Every seat's turn at the scores of code ``p0``, all below the goal,
    seats ``N - 1`` down to ``0``, in rounds until one round moves no win
    (and no length, relatively) by more than ``tol``: a round in which no
    seat changes its score comes back to them. With one start state the
    round's start values after a round are affine in those before it
    (:func:`_secant`). With three or more seats decisions can
    cycle (max-n is not always well posed): after :data:`PLAIN_ROUNDS`
    rounds each turn's new values are averaged with its last (half
    backups), and a tuple not settled in ``max_inner`` rounds keeps the
    iterate of least change seen, counted in ``flags[2]`` and its change
    in ``unsettled[0]``. Returns the changes over the pass (the values
    before against after), -1 for the wins where two seats did not
    settle. ``old``: scratch, the values before (``old[:N]``), the least
    change's (``old[N:2N]``), a turn's last (``old[2N]``)."""
    N, oa = geo[G_N], geo[G_OA]
    H, NA = A.shape[1], A.shape[2]
    for m in range(N):
        _copy(old[m], A[oa + m * pw[N] + p0])
    settled = False
    calm = 0
    least = np.inf
    for it in range(max_inner):
        d = 0.0
        ld = 0.0
        half = it >= PLAIN_ROUNDS and N > 2
        for r in range(NA):
            sec[2, r] = A[oa + p0, 0, r]
        for m in range(N - 1, -1, -1):
            rw = oa + m * pw[N] + p0
            if half:
                _copy(old[2 * N], A[rw])
            dm, ldm = one_turn(K_OA, m, p0, 0, 0, rw, geo, pw, fa_off, ob_off, fb_off, tie_off,
                               fall_eff, fall_pen, fall_h, A, tie, pol, starts, blk_ptr, blk_states,
                               cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain,
                               opt_next, hand_h, hidx, tmin, stopv, W, acc, best, res)
            if half:
                for h in range(H):
                    for r in range(NA):
                        A[rw, h, r] = 0.5 * (A[rw, h, r] + old[2 * N, h, r])
            d = max(d, dm)
            ld = max(ld, ldm)
        if d <= tol:
            if ld <= tol:
                settled = True
                break
            calm += 1
            if calm > ENDLESS_ROUNDS:  # the wins stand, the lengths grow: play passes for ever
                flags[0] = 1
                settled = True
                break
        if half and d < least:
            least = d
            for m in range(N):
                _copy(old[N + m], A[oa + m * pw[N] + p0])
        if H == 1 and not half:
            _secant(A, oa + p0, sec, it, pol[0][P_F0])
    if not settled and N > 2:
        for m in range(N):
            _copy(A[oa + m * pw[N] + p0], old[N + m])
        fetch_add(flags, 2, 1)
        unsettled[0] = max(unsettled[0], least)
        settled = True
    d = 0.0
    ld = 0.0
    for m in range(N):
        dm, ldm = _changes(old[m], A, oa + m * pw[N] + p0, pol[0][P_F0])
        d = max(d, dm)
        ld = max(ld, ldm)
    return (d if settled else -1.0), ld


@kernel
def decode(kind, m, i, geo, pw):
    """Row ``i`` of block ``kind`` of seat ``m`` (module doc) as a job's
    ``(p0, p1, p2)``; ``p1`` = -1 for a row no game reaches (no seat, or
    under ``earlier-seat`` several, holding the bar)."""
    N, G = geo[G_N], geo[G_G]
    nb = geo[G_C] - G + 1
    replay = geo[G_REPLAY] != 0
    if kind == K_OB:
        return i // pw[m] + G, i % pw[m], np.int64(0)
    if kind == K_FA:
        lc = i % pw[N - m]
        rest = i // pw[N - m]
        mask = rest % (np.int64(1) << m)
        B = rest // (np.int64(1) << m) + G
        if mask == 0 or (not replay and mask & (mask - 1) != 0):
            return B, np.int64(-1), lc
        return B, mask, lc
    mask = i % (np.int64(1) << m)  # K_FB
    rest = i // (np.int64(1) << m)
    if mask == 0:
        return rest // nb + G, np.int64(-1), mask
    return rest // nb + G, rest % nb + G, mask


@kernel
def row_turn(kind, m, i, base, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen,
             fall_h, A, tie, pol, starts, blk_ptr, blk_states, cont_start, out_start, out_prob, throws,
             oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv, W, acc, best, res):
    """The turn of row ``base + i`` of block ``kind`` of seat ``m``; its
    changes (none for a row no game reaches)."""
    p0, p1, p2 = decode(kind, m, i, geo, pw)
    if (kind == K_FA or kind == K_FB) and p1 < 0:
        return 0.0, 0.0
    return one_turn(kind, m, p0, p1, p2, base + i, geo, pw, fa_off, ob_off, fb_off, tie_off,
                    fall_eff, fall_pen, fall_h, A, tie, pol, starts, blk_ptr, blk_states, cont_start,
                    out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                    tmin, stopv, W, acc, best, res)


@kernel
def _rows_worker(w, claim, kind, m, base, count, geo, pw, fa_off, ob_off, fb_off, tie_off,
                 fall_eff, fall_pen, fall_h, A, tie, pol, starts, blk_ptr, blk_states, cont_start,
                 out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                 tmin, stopv, W, acc, best, res, deltas, ldeltas):
    """Worker ``w``'s share of a block's rows (``count`` from ``base``),
    which read only rows of other blocks: it claims them one at a time."""
    while True:
        i = fetch_add(claim, 0, 1)
        if i >= count:
            break
        d, ld = row_turn(kind, m, i, base, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff,
                         fall_pen, fall_h, A, tie, pol, starts, blk_ptr, blk_states, cont_start,
                         out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h,
                         hidx, tmin, stopv, W, acc, best, res)
        deltas[w] = max(deltas[w], d)
        ldeltas[w] = max(ldeltas[w], ld)


@kernel
def tie_rounds(blocks, every, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen, fall_h,
               A, tie, pol, tol, max_inner, starts, blk_ptr, blk_states, cont_start, out_start,
               out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv, W,
               acc, best, res, sec, flags):
    """The rounds of seats level at ``B0`` at or above the goal, ``B0``
    from the cap down: the blocks ``blocks[k] = (kind, m, base, count)``
    (the turns once a seat ended at or above the goal, seats ``N - 1`` down
    to 1, then the rounds' starts), their rows of one ``B0`` swept in turn
    until one sweep moves no win (and no length, relatively) by more than
    ``tol`` (such a round can end level at ``B0`` again: the secant step
    with one start state, :func:`_secant`), or the wins stand while the
    lengths grow for :data:`ENDLESS_ROUNDS` sweeps (every seat passes, the
    round starts level again for ever: ``flags[0]``); a round that ends level higher
    reads what this sweep gave, lower (a fall that stays at or above the
    goal) the last sweep's, so the levels are swept again until none
    moves. A round ends level only where every seat before the mover holds
    the bar; the other final turns read only wins and smaller games'
    starts, and are swept once (the first sweep, where ``every``). Returns
    the sum over the sweeps of the largest change of one level (a bound on
    the change over the pass; -1 for the wins where it did not settle)
    and of the lengths'."""
    G, C = geo[G_G], geo[G_C]
    nb = C - G + 1
    H, NA = A.shape[1], A.shape[2]
    total = 0.0
    ltotal = 0.0
    for sweep in range(max_inner):
        sd = 0.0
        sld = 0.0
        smax = 0.0
        slmax = 0.0
        for b0 in range(nb - 1, -1, -1):
            rw0 = ob_off[0] + b0
            moved = 0.0
            lmoved = 0.0
            settled = False
            calm = 0
            for it in range(max_inner):
                for r in range(NA):
                    sec[2, r] = A[rw0, 0, r]
                d = 0.0
                ld = 0.0
                for k in range(blocks.shape[0]):
                    kind, m, base = blocks[k, 0], blocks[k, 1], blocks[k, 2]
                    if kind == K_FB:
                        per = nb << m
                        step = np.int64(1)
                        i0 = b0 * per
                        if not (every and sweep == 0 and it == 0):
                            step = np.int64(1) << m  # every seat before m holds the bar
                            i0 += step - 1
                        i1 = (b0 + 1) * per
                    else:  # the level round's start
                        step = np.int64(1)
                        i0 = b0
                        i1 = b0 + 1
                    for i in range(i0, i1, step):
                        dj, ldj = row_turn(kind, m, i, base, geo, pw, fa_off, ob_off, fb_off,
                                           tie_off, fall_eff, fall_pen, fall_h, A, tie, pol, starts,
                                           blk_ptr, blk_states, cont_start, out_start, out_prob,
                                           throws, oq, opt_start, opt_gain, opt_next, hand_h,
                                           hidx, tmin, stopv, W, acc, best, res)
                        d = max(d, dj)
                        ld = max(ld, ldj)
                moved += d
                lmoved += ld
                if it == 0:
                    sd = max(sd, d)
                    sld = max(sld, ld)
                if d <= tol:
                    if ld <= tol or flags[0] != 0:  # (lengths said to have no limit)
                        settled = True
                        break
                    calm += 1
                    if calm > ENDLESS_ROUNDS:  # the wins stand, the lengths grow: every
                        flags[0] = 1  # seat passes for ever (or the round starts level again)
                        settled = True
                        break
                if H == 1:
                    _secant(A, rw0, sec, it, pol[0][P_F0])
            if not settled:
                return -1.0, lmoved
            smax = max(smax, moved)
            slmax = max(slmax, lmoved)
        total += smax
        ltotal += slmax
        if sd <= tol and (sld <= tol or flags[0] != 0):
            return total, ltotal
    return -1.0, ltotal


@kernel
def _claim_open(first, order, pos, geo, pw, window, state, done):
    """The next open tuple for a worker: ``(k, first)``, ``k`` the first
    tuple of ``order`` (decreasing score sum) from ``first`` on that no
    worker has claimed and whose neighbours one point up in each seat's
    score are done (each waited for its own, so every tuple of a larger sum
    it reads is done), -1 when every ready one is in another worker's
    hands, -2 when all are done."""
    N, g = geo[G_N], geo[G_G] - geo[G_LO]
    end = order.shape[0]
    while first < end and load_acquire(done, first) != 0:
        first += 1
    if first >= end:
        return -2, first
    for k in range(first, min(end, first + window)):
        if load_acquire(state, k) != 0:
            continue
        code = order[k]
        ready = True
        for q in range(N):
            step = pw[N - 1 - q]
            if (code // step) % g + 1 < g and load_acquire(done, pos[code + step]) == 0:
                ready = False
                break
        if ready and fetch_add(state, k, 1) == 0:
            return k, first
    return -1, first


@kernel
def _open_worker(w, order, pos, window, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff,
                 fall_pen, fall_h, A, tie, pol, tol, max_inner, starts, blk_ptr, blk_states, cont_start,
                 out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                 tmin, stopv, W, acc, best, res, old, sec, flags, unsettled, state, done, deltas,
                 ldeltas):
    """Worker ``w``'s share of the open tuples: each the next whose inputs
    of the pass are done (:func:`_claim_open`)."""
    first = np.int64(0)
    while True:
        k, first = _claim_open(first, order, pos, geo, pw, window, state, done)
        if k == -2:
            break
        if k < 0:
            continue  # every ready tuple is in another worker's hands
        d, ld = _group(order[k], geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen,
                       fall_h, A, tie, pol, tol, max_inner, starts, blk_ptr, blk_states, cont_start,
                       out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h,
                       hidx, tmin, stopv, W, acc, best, res, old, sec, flags, unsettled)
        solved(w, k, d, ld, done, deltas, ldeltas)


@parallel_kernel
def run(mode, blocks, k, nt, order, pos, window, geo, pw, fa_off, ob_off, fb_off, tie_off,
        fall_eff, fall_pen, fall_h, A, tie, pol, tol, max_inner, starts, blk_ptr, blk_states,
        cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
        tmin, stopv, W, acc, best, res, old, sec, flags, unsettled, state, done, deltas, ldeltas):
    """One step of a pass (one entry, so that numba compiles the turn
    once): ``mode`` 0, the rows of block ``blocks[k] = (kind, m, base,
    count)``, which read only rows of other blocks, on ``nt`` workers that
    claim them in turn; 1, the level rounds' blocks ``blocks`` on one
    thread (:func:`tie_rounds`, every row at first where ``k`` is 1); 2, every open tuple (:func:`_group`) on
    ``nt`` workers, each taking the next tuple whose inputs of the pass are
    done (:func:`_claim_open`): a tuple reads tuples of larger sums it
    waited for and, through a fall, tuples of smaller sums, which wait for
    it and so still hold the last pass's values, so the numbers do not
    depend on the threads. Returns the largest change of a win (-1 where
    something did not settle) and of a length, relatively; in mode 2
    ``flags[2]`` counts the tuples that did not settle and ``unsettled[w]``
    holds worker ``w``'s largest change among them."""
    reset(state, done, deltas, ldeltas)
    if mode == 1:
        return tie_rounds(blocks, k == 1, geo, pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen,
                          fall_h, A, tie, pol, tol, max_inner, starts, blk_ptr, blk_states, cont_start,
                          out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h,
                          hidx, tmin, stopv[0], W[0], acc[0], best[0], res[0], sec[0], flags)
    if mode == 2:
        flags[2] = 0
        unsettled[:, 0] = 0.0
    claim = np.zeros(1, dtype=np.int64)
    for w in prange(nt):
        wi = np.int64(w)
        if mode == 0:
            _rows_worker(wi, claim, blocks[k, 0], blocks[k, 1], blocks[k, 2], blocks[k, 3], geo,
                         pw, fa_off, ob_off, fb_off, tie_off, fall_eff, fall_pen, fall_h, A, tie, pol,
                         starts, blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq,
                         opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv[wi], W[wi],
                         acc[wi], best[wi], res[wi], deltas, ldeltas)
        else:
            _open_worker(wi, order, pos, window, geo, pw, fa_off, ob_off, fb_off, tie_off,
                         fall_eff, fall_pen, fall_h, A, tie, pol, tol, max_inner, starts, blk_ptr,
                         blk_states, cont_start, out_start, out_prob, throws, oq, opt_start,
                         opt_gain, opt_next, hand_h, hidx, tmin, stopv[wi], W[wi], acc[wi],
                         best[wi], res[wi], old[wi], sec[wi], flags, unsettled[wi], state, done,
                         deltas, ldeltas)
    if mode == 0:
        return deltas.max(), ldeltas.max()
    return pass_changes(deltas, ldeltas)
