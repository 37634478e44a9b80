"""Numba kernels of a fixed policy at one seat of a 2-4 seat game under the
rounds ending, the other seats playing the max-n optimum, exactly.

:mod:`designer.engine.seat_rounds_match` has the mathematics. Rows are
those of :mod:`designer.engine._seat_rounds_kernels` (the solve's table
``A``, every seat's win at every turn start); the evaluation writes its
own table ``Z`` of the same rows, every seat's win under the fixed play.
A turn is swept block by block, each from its largest total down, as the
solve sweeps it. An optimal mover's decisions are the solve's: the argmax
of its own win over ``A`` (one number per in-turn position, ``Wv``), with
the solver's ties; the policy mover's come from its rule. ``Z`` follows the
decisions taken: a row of ``N`` wins, and in an open round ``K`` weights
on the unknown turn starts of the tuple, solved exactly at the end of the
sweep.
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._match_kernels import HOLD_AT, TABLE, _option
from designer.engine._sync import fetch_add
from designer.engine._seat_rounds_kernels import (G_C, G_FL, G_G, G_N, G_OPEN, _BUST, _END,
                                                  _fixed_point, _lines, job_turn, new_bar, rot,
                                                  srow_open, write_starts)

# entries of the packed policy settings ``pc``
PC_KIND = 0
PC_HOLD = 1
PC_TC = 2
PC_LEN = 3


@kernel
def _policy(kind, hold, Tc, s, t, c0, c1, allowed, mstop, mcont, dec, tnb, tnl):
    """``(stop, continuation)`` of the fixed policy at state ``s``, total
    ``t``: ``hold-at`` stops once ``t >= hold`` where it may and goes on
    with the first continuation; ``max-score`` follows its one-turn table
    below ``Tc`` and stops from ``Tc`` on; a table policy reads its
    decision ``dec[tnb[s] + t]`` at the mover's scores (0: stop, ``c``:
    the ``c``-th way to go on; past the totals tabled, ``tnl[s]``, a
    stop). A state with no continuation stops."""
    has = c1 > c0
    if kind == HOLD_AT:
        return (not has) or (allowed and t >= hold), (c0 if has else -1)
    if kind == TABLE:
        v = dec[tnb[s] + t] if t < tnl[s] else 0
        return (not has) or (allowed and v == 0), ((c0 + v - 1 if v > 0 else c0) if has else -1)
    if t < Tc:
        cc = mcont[s, t]
        if cc < 0 and has:
            cc = c0
        return (not has) or mstop[s, t], cc
    return (not has) or allowed, (c0 if has else -1)


@kernel
def last_seat_row(ext, geo, Tm, B, s):
    """Row of the last seat's final-round turn from score ``s`` against the
    bar ``B`` held by ``Tm``, by both scores: a table policy at the last
    seat reads them (the solve's rows go by the lead ``B - s`` alone)."""
    G, C = geo[G_G], geo[G_C]
    return ext + (Tm * (C - G + 1) + B - G) * G + s


@kernel
def _by_scores(srow, T, geo, s_last, ext):
    """Point the entries of ``srow`` (a turn of the seat before the last)
    that start the last seat's final round at its rows by both scores
    (:func:`last_seat_row`), the last seat at ``s_last``."""
    N, C = geo[G_N], geo[G_C]
    fl = geo[G_FL]
    top = fl + (1 << (N - 1)) * (C + 1)
    for u in range(T + 1):
        r = srow[u]
        if fl <= r < top:
            Tm = (r - fl) // (C + 1)
            srow[u] = last_seat_row(ext, geo, Tm, (r - fl) % (C + 1) + s_last, s_last)


@kernel
def level_row(lout, geo, L, M):
    """Row of the tie round among the seats (or a round's positions) of
    ``M`` at the level ``L`` (their common score, held at the cap), where
    a table policy reads the scores: the rows by level start at ``lout``."""
    N, G, C = geo[G_N], geo[G_G], geo[G_C]
    return lout + (min(L, C) - G) * (1 << N) + M


@kernel
def _tied(M):
    """Whether the set ``M`` holds two or more seats."""
    return M & (M - 1) != 0


@kernel
def _by_level(zrow, srow, kind, job, geo, lout, level, T):
    """Point the entries of ``srow`` that end in a tie round (a turn of the
    last seat of a final round, or of the last position of a tie round at
    ``level``) at the tie round's row by level (:func:`level_row`): a
    table policy taking part in it reads its level. The rounds of a final
    round go by the lead (``job[3]``, the last seat at ``job[6]``), a tie
    round's by the gain over its level."""
    for u in range(T + 1):
        zrow[u] = srow[u]
    if kind == 1:  # the last seat: bar, holders, mover, its score
        bar, Tm, pos, base = job[3], job[4], geo[G_N] - 1, job[6]
    elif job[4] == job[3] - 1:  # the last position of a tie round
        bar, Tm, pos, base = job[5], job[6], job[4], level
    else:
        return
    for u in range(T + 1):
        B2, T2 = new_bar(u, bar, Tm, pos, True)
        if _tied(T2):
            zrow[u] = level_row(lout, geo, base + B2, T2)


@kernel
def _best_option(o, t, T, mv, rowT, A, Wv, tie, opt_start, opt_gain, opt_next, hand_h):
    """The option an optimal mover keeps at choice outcome ``o`` and its
    win (the first of the best, as the solve)."""
    bo = -1
    bn = 0.0
    for j in range(opt_start[o], opt_start[o + 1]):
        u = t + opt_gain[j]
        s2 = opt_next[j]
        n = A[rowT, hand_h[s2], mv] if u >= T else Wv[s2, u]
        if bo < 0 or n > bn + tie:
            bo = j
            bn = n
    return bo, bn


@kernel
def _cont_win(c, t, T, mv, srow, A, Wv, tie, out_start, out_prob, out_kind, out_points, out_h,
              opt_start, opt_gain, opt_next, hand_h, pk):
    """An optimal mover's own win from continuation ``c`` at total ``t``;
    the option it keeps at each choice outcome ``o`` into ``pk[o]``."""
    v = 0.0
    for o in range(out_start[c], out_start[c + 1]):
        p = out_prob[o]
        if p <= 0.0:
            continue
        k = out_kind[o]
        if k == _BUST or (k == _END and t + out_points[o] == 0):
            v += p * A[srow[0], out_h[o], mv]
        elif k == _END:
            v += p * A[srow[min(t + out_points[o], T)], out_h[o], mv]
        else:
            j, n = _best_option(o, t, T, mv, srow[T], A, Wv, tie, opt_start, opt_gain, opt_next,
                                hand_h)
            pk[o] = j
            v += p * n
    return v


@kernel
def _block(b, mv, pol, pc, T, srow, zrow, opn, D, A, Z, Zs, uk_m, Rows, Wv, Wz, bz, acc, pk, tie,
           blk_ptr,
           blk_states, blk_tmax, lo, hi, cont_start, out_start, out_prob, out_kind, out_points,
           out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, pick, E,
           mstop, mcont, dec, tnb, tnl):
    """Block ``b`` of the mover ``mv``'s turn (``T``: the total at which it
    ends at once; ``srow``: the rows it ends at, ``srow[0]`` a pass or a
    bust). Fills the mover's own win ``Wv`` (an optimal mover) and every
    seat's ``Wz`` under the decisions taken (``pol``: the policy's). A
    pass or a bust reads the next seat's start ``Zs[next]`` in an open
    round (``opn``: affine rows of ``D`` numbers, ``N`` wins then the
    weights, in rows padded to whole cache lines), else the
    row ``Z[srow[0]]``; a turn start's value goes to ``Zs[mv, h]``, or to
    ``Rows[uk_m[h]]`` where it is an unknown. ``pk``: the options the
    optimal mover keeps (each outcome's, written as its continuations are
    weighed, so that they are not sought again for the one taken). ``dec``:
    a table policy's decisions at the mover's scores (:func:`_policy`).
    ``zrow``: the rows of ``Z`` the turn ends at (``srow``, or where the
    last seat's final rounds go by both scores, those rows: the optimal
    movers decide on ``A``'s rows, ``srow``, and their values follow
    ``Z``'s)."""
    N = Z.shape[2]
    mn = (mv + 1) % N
    kind, hold, Tc = pc[PC_KIND], pc[PC_HOLD], pc[PC_TC]
    top = min(blk_tmax[b], T - 1)
    for t in range(top, -1, -1):
        for q in range(blk_ptr[b], blk_ptr[b + 1]):
            s = blk_states[q]
            if t > hi[s] or t < lo[s]:
                continue
            c0, c1 = cont_start[s], cont_start[s + 1]
            can = pass_ok[s] if t == 0 else t >= min_bank
            hh = hand_h[s]
            start = t == 0 and hidx[s] >= 0
            if pol:
                stop, cc = _policy(kind, hold, Tc, s, t, c0, c1, can, mstop, mcont, dec, tnb,
                                   tnl)
                stop = stop and (can or cc < 0)
            else:
                cc = -1
                bestn = 0.0
                for c in range(c0, c1):
                    n = _cont_win(c, t, T, mv, srow, A, Wv, tie, out_start, out_prob, out_kind,
                                  out_points, out_h, opt_start, opt_gain, opt_next, hand_h, pk)
                    if cc < 0 or n > bestn + tie:
                        cc = c
                        bestn = n
                stop = False
                sv = 0.0
                if can:
                    sv = A[srow[t], hh, mv]
                    stop = not (cc >= 0 and (bestn > sv + tie if t > 0 else bestn > sv - tie))
                Wv[s, t] = sv if stop else bestn
            if cc >= 0 and (not stop or (start and forced)):
                for d in range(D):
                    acc[d] = 0.0
                for o in range(out_start[cc], out_start[cc + 1]):
                    p = out_prob[o]
                    if p <= 0.0:
                        continue
                    k = out_kind[o]
                    if k == _BUST or (k == _END and t + out_points[o] == 0):
                        h2 = out_h[o]
                        if opn:
                            for d in range(D):
                                acc[d] += p * Zs[mn, h2, d]
                        else:
                            for r in range(N):
                                acc[r] += p * Z[zrow[0], h2, r]
                    elif k == _END:
                        rw = zrow[min(t + out_points[o], T)]
                        h2 = out_h[o]
                        for r in range(N):
                            acc[r] += p * Z[rw, h2, r]
                    else:
                        if pol:
                            j = _option(o, t, kind, opt_start, opt_gain, opt_next, E, Tc, pick)
                        else:
                            j = pk[o]
                        u = t + opt_gain[j]
                        s2 = opt_next[j]
                        if u >= T:  # the turn ends there: a stop
                            rw = zrow[T]
                            h2 = hand_h[s2]
                            for r in range(N):
                                acc[r] += p * Z[rw, h2, r]
                        else:
                            for d in range(D):
                                acc[d] += p * Wz[s2, u, d]
                for d in range(D):
                    bz[s, d] = acc[d]
            if not stop:
                for d in range(D):
                    Wz[s, t, d] = bz[s, d]
            elif t == 0 and opn:  # a pass: the next seat's start
                for d in range(D):
                    Wz[s, t, d] = Zs[mn, hh, d]
            else:
                rw = zrow[t]
                for r in range(N):
                    Wz[s, t, r] = Z[rw, hh, r]
                for d in range(N, D):
                    Wz[s, t, d] = 0.0
            if start:
                h = hidx[s]
                src = bz[s] if forced else Wz[s, 0]
                if uk_m[h] >= 0:
                    for d in range(D):
                        Rows[uk_m[h], d] = src[d]
                else:
                    for d in range(D):
                        Zs[mv, h, d] = src[d]


@parallel_kernel
def eval_rows(kind, jobs, geo, toff, nt, a, pc, A, Z, tie, blk_ptr, blk_states, blk_tmax, lo,
              hi, cont_start, out_start, out_prob, out_kind, out_points, out_h, opt_start,
              opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, pick, E, mstop, mcont,
              tab, tnb, tnl, ext, Tn, lout, level):
    """The rows of the final (``kind`` 1) or tie (``kind`` 0) rounds of
    ``jobs`` (as :func:`~designer.engine._seat_rounds_kernels.solve_rows`),
    the mover ``a`` (a seat, or a tie round's position; -1: none) playing
    the policy: every seat's win under that play into ``Z``. A table
    policy ``tab[i, j]`` reads a final round's mover score ``i`` and the
    bar ``j`` (the highest score), in a tie round at ``level`` the level
    and the level plus the largest gain so far (both held at the cap); at
    the last seat its jobs are by both scores (``jobs[j, 6]`` the mover's
    score, ``jobs[j, 3]`` the lead), and with ``ext >= 0`` the seat before
    the last reads them (:func:`_by_scores`). With ``lout >= 0`` (a table
    policy where ties are replayed) a turn ending in a tie reads the tie
    round's row by level (:func:`_by_level`)."""
    S, H, N = lo.shape[0], A.shape[1], Z.shape[2]
    claim = np.zeros(1, dtype=np.int64)
    none = np.full(H, -1, dtype=np.int64)
    for w in prange(nt):
        Wv = np.zeros((S, max(Tn, 1)))
        Wz = np.zeros((S, max(Tn, 1), N))
        bz = np.zeros((S, N))
        acc = np.zeros(N + 16)  # padded: two workers' never share a cache line
        Zs = np.zeros((N, H, N))
        Rows = np.zeros((1, N))
        pk = np.zeros(out_start[-1] + 16, dtype=np.int64)
        srow = np.zeros(Tn + 2, dtype=np.int64)
        zrow = np.zeros(Tn + 2, dtype=np.int64)
        while True:
            j = fetch_add(claim, 0, 1)
            if j >= jobs.shape[0]:
                break
            rw, mv, T = job_turn(kind, jobs, j, geo, toff, srow)
            ti, tj = 0, 0
            if kind == 1 and tab.shape[0] > 1:
                if mv == N - 1:
                    ti, tj = jobs[j, 6], jobs[j, 3] + jobs[j, 6]
                else:
                    ti, tj = jobs[j, 5], jobs[j, 3]
            elif kind == 0 and tab.shape[0] > 1 and level >= 0:
                ti, tj = level, min(level + jobs[j, 5], geo[G_C])
            zr = srow
            if lout >= 0 and (kind == 0 or mv == N - 1):
                _by_level(zrow, srow, kind, jobs[j], geo, lout, level, T)
                zr = zrow
            elif kind == 1 and ext >= 0 and mv == N - 2:
                zrow[:] = srow
                _by_scores(zrow, T, geo, jobs[j, 6], ext)
                zr = zrow
            dec = tab[ti, tj]
            for b in range(blk_ptr.shape[0] - 1):
                _block(b, mv, mv == a, pc, T, srow, zr, np.bool_(False), N, A, Z, Zs, none, Rows, Wv, Wz, bz,
                       acc, pk, tie, blk_ptr, blk_states, blk_tmax, lo, hi, cont_start, out_start,
                       out_prob, out_kind, out_points, out_h, opt_start, opt_gain, opt_next,
                       hand_h, hidx, pass_ok, min_bank, forced, pick, E, mstop, mcont, dec, tnb,
                       tnl)
            for h in range(H):
                for r in range(N):
                    Z[rw, h, r] = Zs[mv, h, r]


@kernel
def _open_tuple(geo, S, fl, uk, ukm, a, pc, tie, A, Z, blk_ptr, blk_states, blk_tmax, lo, hi,
                cont_start, out_start, out_prob, out_kind, out_points, out_h, opt_start, opt_gain,
                opt_next, hand_h, hidx, pass_ok, min_bank, forced, pick, E, mstop, mcont, tab, tnb,
                tnl, ext, Tm, srow, zrow, Wv, Wz, bz, acc, pk, Zs, Rows, M, R, y):
    """Every seat's turn at the open scores ``S`` under the fixed play:
    one sweep with the unknown turn starts as weights, then their exact
    values; writes every seat's turn starts to ``Z``. False if the play
    has rounds that never end (``I - B`` singular)."""
    N, G, C = geo[G_N], geo[G_G], geo[G_C]
    GN = 1
    for _ in range(N):
        GN *= G
    K = ukm.shape[0]
    H = uk.shape[1]
    D = N + K
    for m in range(N):
        T = G - S[m] if m == N - 1 else C - S[m]
        T = max(T, min_bank)
        Tm[m] = T
        srow_open(geo, S, fl, m, T, srow[m])
        mn = (m + 1) % N
        srow[m, 0] = geo[G_OPEN] + mn * GN + rot(S, mn, G)  # a pass: the next seat's start
        zrow[m, :] = srow[m]
        if ext >= 0 and m == N - 2:
            _by_scores(zrow[m], T, geo, S[N - 1], ext)
        for h in range(H):
            if uk[m, h] >= 0:
                for d in range(D):
                    Zs[m, h, d] = 0.0
                Zs[m, h, N + uk[m, h]] = 1.0
    # a table policy (at seat a) reads its own score and the highest other
    ti, tj = 0, 0
    if tab.shape[0] > 1 and a >= 0:
        ti = S[a]
        for q in range(N):
            if q != a and S[q] > tj:
                tj = S[q]
    dec = tab[ti, tj]
    for b in range(blk_ptr.shape[0] - 1):
        for m in range(N - 1, -1, -1):
            _block(b, m, m == a, pc, Tm[m], srow[m], zrow[m], np.bool_(True), D, A, Z, Zs, uk[m], Rows, Wv[m],
                   Wz[m], bz, acc, pk, tie, blk_ptr, blk_states, blk_tmax, lo, hi, cont_start, out_start,
                   out_prob, out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h,
                   hidx, pass_ok, min_bank, forced, pick, E, mstop, mcont, dec, tnb, tnl)
    ok = True
    if K > 0:
        ok = _fixed_point(Rows, N, M, R, y)
    write_starts(geo, S, uk, Rows, Zs, y, Z)
    return ok


@parallel_kernel
def eval_open(geo, flat, tuples, groups, uk, ukm, a, pc, tie, A, Z, blk_ptr, blk_states,
              blk_tmax, lo, hi, cont_start, out_start, out_prob, out_kind, out_points, out_h,
              opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, min_bank, forced, pick, E,
              mstop, mcont, tab, tnb, tnl, ext, Tn, nt, status):
    """The open rounds under the fixed play, score tuples by decreasing sum
    (``groups``: runs of equal sum, each shared by ``nt`` workers);
    ``status[w]`` becomes ``1 + i`` where the play's rounds at tuple ``i``
    never end."""
    N = geo[G_N]
    K = ukm.shape[0]
    S_, H = lo.shape[0], uk.shape[1]
    D = N + K
    PAD = 16
    Dp = (D + 7) // 8 * 8  # rows of whole cache lines from a cache line on
    Tm = np.zeros((nt, N + PAD), dtype=np.int64)
    srow = np.zeros((nt, N, Tn + 2), dtype=np.int64)
    zrow = np.zeros((nt, N, Tn + 2), dtype=np.int64)
    Wv = np.zeros((nt, N, S_, max(Tn, 1)))
    Wz = _lines(nt * N * S_ * max(Tn, 1) * Dp).reshape((nt, N, S_, max(Tn, 1), Dp))
    bz = _lines(nt * S_ * Dp).reshape((nt, S_, Dp))
    acc = _lines(nt * (Dp + PAD)).reshape((nt, Dp + PAD))
    Zs = _lines(nt * N * H * Dp).reshape((nt, N, H, Dp))
    Rows = _lines(nt * max(K, 1) * Dp).reshape((nt, max(K, 1), Dp))
    pk = np.zeros((nt, out_start[-1] + 16), dtype=np.int64)
    M = np.zeros((nt, K, K))
    R = np.zeros((nt, K, N))
    y = np.zeros((nt, K, N))
    claim = np.zeros(groups.shape[0], dtype=np.int64)
    for gi in range(groups.shape[0] - 1):
        for w in prange(nt):
            while True:
                i = groups[gi] + fetch_add(claim, gi, 1)
                if i >= groups[gi + 1] or status[w] != 0:
                    break
                ok = _open_tuple(geo, tuples[i], flat[i], uk, ukm, a, pc, tie, A, Z, blk_ptr,
                                 blk_states, blk_tmax, lo, hi, cont_start, out_start, out_prob,
                                 out_kind, out_points, out_h, opt_start, opt_gain, opt_next,
                                 hand_h, hidx, pass_ok, min_bank, forced, pick, E, mstop, mcont,
                                 tab, tnb, tnl, ext, Tm[w], srow[w], zrow[w], Wv[w], Wz[w], bz[w],
                                 acc[w],
                                 pk[w],
                                 Zs[w],
                                 Rows[w], M[w], R[w], y[w])
                if not ok:
                    status[w] = 1 + i
