"""Numba kernels of a match between two fixed policies under the rounds
ending where a bust can lower a banked score (two seats);
:mod:`designer.engine.rounds_falls_match` has the mathematics.

A turn is the rounds match's (:func:`designer.engine._rounds_match_kernels.turn`)
with plain numbers (no unknowns: :func:`_turn1`), its ends read from the
match's own tables; the optimal mover decides from the same ends at the
falls solve's tables, in the same sweep over a continuation's outcomes.
Outcomes are read from the rounds layout's packed ``oq``
(:mod:`designer.engine._rounds_kernels`), as the solve reads them; a bust
that lowers the score reads column ``H + k`` of row 0 of the ends (``k``:
the falling outcome's rank, where its ``OQ_AUX`` points), which holds what
the turn is worth after that bust, as in the falls solve.
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._match_kernels import OPTIMAL, TABLE, _option
from designer.engine._rounds_falls_kernels import (fallen, _round_end, claim, pair_result,
                                                   pass_changes, remember, reset,
                                                   round_settled, solved)
from designer.engine._rounds_kernels import (OP_CHOICE, OP_END, OP_MOVE, OP_SKIP, OQ_AUX,
                                             OQ_GAIN, OQ_NEXT, OQ_OP)
from designer.engine._rounds_match_kernels import _pick_opt, fixed_decision


@kernel
def _ends1(a, b, C, lo, Tcl, fall_eff, fall_pen, fall_h, YW, YL, Ys, stopW, stopL, stopO):
    """Seat 1's turn ends at ``(a, b)``: a stop at total ``u`` is worth
    ``1 - Y[b, min(a + u, C)]`` (the score held at the cap ``C``), a fall
    ``1 - Y[b, f(a)]``; ``stopO`` the same at the solve's ``Ys``."""
    H = YW.shape[2]
    for u in range(Tcl + 1):
        A = min(a + u, C) - lo
        for h in range(H):
            stopW[u, h] = 1.0 - YW[b - lo, A, h]
            stopL[u, h] = YL[b - lo, A, h]
            stopO[u, h] = 1.0 - Ys[b - lo, A, h]
    for k in range(fall_eff.shape[0]):
        na = fallen(a, fall_eff[k], fall_pen[k], lo) - lo
        stopW[0, H + k] = 1.0 - YW[b - lo, na, fall_h[k]]
        stopL[0, H + k] = YL[b - lo, na, fall_h[k]]
        stopO[0, H + k] = 1.0 - Ys[b - lo, na, fall_h[k]]


@kernel
def _ends2(a, b, G, lo, replay, Tcl, fall_eff, fall_pen, fall_h, XW, XL, Xs, stopW, stopL,
           stopO):
    """Seat 2's turn ends at ``b`` once seat 1 ended at ``a``: the round's
    end at ``(a, b + u)`` (a fall: at ``(a, f(b))``); ``stopO`` the same at
    the solve's ``Xs``."""
    H = XW.shape[2]
    for u in range(Tcl + 1):
        for h in range(H):
            stopW[u, h], stopL[u, h] = _round_end(a, b + u, h, G, lo, replay, XW, XL)
            stopO[u, h] = _round_end(a, b + u, h, G, lo, replay, Xs, Xs)[0]
    for k in range(fall_eff.shape[0]):
        nb = fallen(b, fall_eff[k], fall_pen[k], lo)
        stopW[0, H + k], stopL[0, H + k] = _round_end(a, nb, fall_h[k], G, lo, replay, XW,
                                                      XL)
        stopO[0, H + k] = _round_end(a, nb, fall_h[k], G, lo, replay, Xs, Xs)[0]


@kernel
def _cont(c, t, kind, Tend, Tcl, tie, out_start, out_prob, throws, oq, opt_start, opt_gain,
          opt_next, hand_h, pick, E, Tc, stopW, stopL, stopO, W, LW, WO):
    """Continuation ``c`` at total ``t`` of a mover playing ``kind``, in one
    sweep of its outcomes (read from the layout's packed ``oq``, as the
    solve reads them): the match's win and actions (the throw counted) and,
    for the optimal mover, its value at the solve's tables, what it decides
    by (0 for a fixed policy). A choice's option: :func:`_pick_opt` at the
    solve's tables for the optimal mover, else
    :func:`~designer.engine._match_kernels._option`."""
    opt = kind == OPTIMAL
    v = 0.0
    w = 0.0
    n = throws[c]
    for o in range(out_start[c], out_start[c + 1]):
        p = out_prob[o]
        op = oq[o, OQ_OP]
        if op == OP_MOVE or op == OP_CHOICE:
            if op == OP_MOVE:  # one option
                u = t + oq[o, OQ_GAIN]
                s2 = oq[o, OQ_NEXT]
            else:
                if opt:
                    r = _pick_opt(o, t, Tend, Tcl, tie, opt_start, opt_gain, opt_next, hand_h,
                                  stopO, WO)
                else:
                    r = _option(o, t, kind, opt_start, opt_gain, opt_next, E, Tc, pick)
                u = t + opt_gain[r]
                s2 = opt_next[r]
            if u >= Tend:  # the turn ends there with a stop
                uc = min(u, Tcl)
                h2 = hand_h[s2]
                if opt:
                    v += p * stopO[uc, h2]
                w += p * stopW[uc, h2]
                n += p * stopL[uc, h2]
                n += p
            else:
                if opt:
                    v += p * WO[s2, u]
                w += p * W[s2, u]
                n += p * LW[s2, u]
        elif op != OP_SKIP:  # an end with points, or a bust (a fall: its own column)
            uc = min(t + oq[o, OQ_GAIN], Tcl) if op == OP_END else 0
            h2 = oq[o, OQ_AUX]
            if opt:
                v += p * stopO[uc, h2]
            w += p * stopW[uc, h2]
            n += p * stopL[uc, h2]
    return v, w, n


@kernel
def _turn1(kind, hold_n, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
           cont_start, out_start, out_prob, throws, oq, opt_start,
           opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base,
           node_len, dec, rec, stopW, stopL, stopO, W, LW, WO, resW, resL):
    """:func:`designer.engine._rounds_match_kernels.turn` with one number per
    position (``stopW[u, h]``, ``W[s, t]``, ...): the same decisions, ties
    and actions, each continuation's outcomes swept once (for the optimal
    mover, its value at the solve's tables and the match's side by side)."""
    opt = kind == OPTIMAL
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(Tend - 1, -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t < tmin[s]:
                    continue
                c0 = cont_start[s]
                c1 = cont_start[s + 1]
                has = c1 > c0
                allowed = t >= min_bank and (t > 0 or pass_ok[s])
                start = t == 0 and hidx[s] >= 0
                hs = hand_h[s]
                tc = min(t, Tcl)
                cc = -1
                aw = 0.0
                al = 0.0
                if opt:
                    bn = 0.0
                    for c in range(c0, c1):
                        v, w, n = _cont(c, t, kind, Tend, Tcl, tie, out_start, out_prob, throws,
                                        oq, opt_start, opt_gain, opt_next, hand_h, pick, E, Tc,
                                        stopW, stopL, stopO, W, LW, WO)
                        if cc < 0 or v > bn + tie:
                            cc = c
                            bn = v
                            aw = w
                            al = n
                    so = stopO[tc, hs]
                    stop_me = not has
                    if allowed and has:
                        thr = tie if t > 0 else -tie
                        stop_me = not bn - so > thr
                    WO[s, t] = so if stop_me else bn
                    if rec.shape[0] > 0 and t < node_len[s]:
                        rec[node_base[s] + t] = 0 if stop_me else cc - c0 + 1
                else:
                    cc, stop_me = fixed_decision(kind, s, t, c0, has, allowed, hold_n, twin, dec,
                                                 node_base, node_len, mstop, mcont)
                    if cc >= 0 and (not stop_me or (start and forced)):
                        _, aw, al = _cont(cc, t, kind, Tend, Tcl, tie, out_start, out_prob,
                                          throws, oq, opt_start, opt_gain, opt_next, hand_h,
                                          pick, E, Tc, stopW, stopL, stopO, W, LW, WO)
                if stop_me:
                    W[s, t] = stopW[tc, hs]
                    LW[s, t] = stopL[tc, hs] + 1.0  # the stop
                else:
                    W[s, t] = aw
                    LW[s, t] = al
                if start:
                    h = hidx[s]
                    src_c = forced and cc >= 0
                    resW[h] = aw if src_c else W[s, t]
                    resL[h] = al if src_c else LW[s, t]


@kernel
def _move(kind, hold_n, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
          cont_start, out_start, out_prob, throws, oq, opt_start,
          opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base,
          node_len, dec, rec, stopW, stopL, stopO, W, LW, WO, resW, resL, rowv, rowl, tol):
    """One turn into ``rowv`` (wins) and ``rowl`` (expected actions) from
    its ends (:func:`_ends1`, :func:`_ends2`); returns the largest change of
    a win, plus 2 when a length moved by more than ``tol`` (relatively).
    A turn with no total to sweep (seat 1 at the cap) is a pass, or under
    a forced first throw that throw, every total it reaches an end."""
    H = rowv.shape[0]
    if Tend == 0 and not forced:
        for h in range(H):
            resW[h] = stopW[0, h]
            resL[h] = stopL[0, h] + 1.0  # the pass
    else:
        _turn1(kind, hold_n, twin, max(Tend, 1), Tcl, min_bank, forced, tie, blk_ptr, blk_states,
               tmin, cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
               hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, dec, rec,
               stopW, stopL, stopO, W, LW, WO, resW, resL)
    d = 0.0
    moved = False
    for h in range(H):
        d = max(d, abs(resW[h] - rowv[h]))
        if abs(resL[h] - rowl[h]) / max(1.0, abs(resL[h])) > tol:
            moved = True
        rowv[h] = resW[h]
        rowl[h] = resL[h]
    return d + 2.0 if moved else d


@kernel
def _pair(a, b, G, C, lo, replay, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced,
          tie, tol, max_inner, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob,
          throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
          pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1, tends2,
          OD, fall_eff, fall_pen, fall_h, Xs, Ys, XW, XL, YW, YL, stopW, stopL, stopO, W, LW, WO,
          resW, resL, old, flags):
    """Pair ``(a, b)`` of a pass: seat 2's turn (``Y[b, a]``, seat 2 playing
    ``k2``), then seat 1's (``X[a, b]``, ``k1``), iterated as the falls
    solve iterates them (a secant step with one start state); returns the
    largest change of a stored win (-1 when the pair did not settle within
    ``max_inner`` rounds) and of a length, relatively. ``flags[0]``: the
    wins agree while the lengths keep growing (play that passes for ever);
    ``flags[1]``: a length too long for double precision (as the falls
    solve's pairs: :func:`~designer.engine._rounds_falls_kernels.round_settled`)."""
    need_x = (a < G and b < G) or (replay and a == b)
    rec_on = OD.shape[3] > 0 and 0 <= a < G and 0 <= b < G
    rec1 = OD[0, a, b] if rec_on and k1 == OPTIMAL else OD[0, 0, 0, :0]
    rec2 = OD[1, b, a] if rec_on and k2 == OPTIMAL else OD[0, 0, 0, :0]
    big = np.int64(1 << 62)
    # seat 2's turn: optimal play stops once a stop wins (as the solve);
    # a fixed policy at its own end, or with bank_wins where a stop wins
    win2 = max(G - b, a + 1 - b, min_bank, 0)
    if k2 == OPTIMAL:
        Tend2 = win2
        Tcl2 = win2
    else:
        Tend2 = T2 if k2 != TABLE else tends2[b - lo, a - lo]
        if bank_wins:
            Tend2 = min(Tend2, max(win2, 1))
        Tcl2 = Tend2 - 1 + gmax
    twin = win2 if bank_wins else big
    dec2 = tab2[b - lo, a - lo] if k2 == TABLE else tab2[0, 0]
    # seat 1's turn: every score held at the cap
    if k1 == OPTIMAL:
        Tend1 = C - a
        Tcl1 = Tend1
    else:
        Tend1 = min(C - a, T1 if k1 != TABLE else tends1[a - lo, b - lo])
        Tcl1 = max(Tend1 - 1 + gmax, 0)
    dec1 = tab1[a - lo, b - lo] if k1 == TABLE else tab1[0, 0]
    remember(a, b, lo, XW, XL, YW, YL, old)
    memo = np.zeros(6)
    settled = False
    for it in range(max_inner):
        xin = XW[a - lo, b - lo, 0]
        lin = XL[a - lo, b - lo, 0]
        _ends2(a, b, G, lo, replay, Tcl2, fall_eff, fall_pen, fall_h, XW, XL, Xs, stopW, stopL,
               stopO)
        d = _move(k2, n2, twin, Tend2, Tcl2, min_bank, forced, tie, blk_ptr, blk_states, tmin,
                  cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
                  hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, dec2,
                  rec2, stopW, stopL, stopO, W, LW, WO, resW, resL, YW[b - lo, a - lo],
                  YL[b - lo, a - lo], tol)
        if need_x:
            _ends1(a, b, C, lo, Tcl1, fall_eff, fall_pen, fall_h, YW, YL, Ys, stopW, stopL,
                   stopO)
            d = max(d, _move(k1, n1, big, Tend1, Tcl1, min_bank, forced, tie, blk_ptr,
                             blk_states, tmin, cont_start, out_start, out_prob, throws, oq,
                             opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc,
                             mstop, mcont, node_base, node_len, dec1, rec1, stopW, stopL, stopO,
                             W, LW, WO, resW, resL, XW[a - lo, b - lo], XL[a - lo, b - lo],
                             tol))
        if not need_x or round_settled(it, d, tol, a, b, C, lo, XW, XL, YL, xin, lin,
                                       resW[0], resL[0], memo, flags):
            settled = True
            break
    return pair_result(settled, memo, flags, a, b, lo, need_x, XW, XL, YW, YL, old)


@kernel
def match_worker(w, pairs, row, G, C, lo, replay, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank,
                 forced, tie, tol, max_inner, blk_ptr, blk_states, tmin, cont_start, out_start,
                 out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick,
                 E, Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1, tends2, OD, fall_eff,
                 fall_pen, fall_h, Xs, Ys, XW, XL, YW, YL, stopW, stopL, stopO, W, LW, WO, resW,
                 resL, old, flags, state, done, deltas, ldeltas):
    """Worker ``w`` of a pass: as the falls solve's workers, it takes the
    next pair whose inputs of the pass are solved
    (:func:`designer.engine._rounds_falls_kernels.claim`) and evaluates it
    (:func:`_pair`) on its own scratch (``stopW[w]`` ...)."""
    first = 0
    while True:
        m, first = claim(first, pairs, row, lo, state, done)
        if m == -2:
            break
        if m < 0:
            continue  # every ready pair is in another worker's hands
        d, ld = _pair(pairs[m, 0], pairs[m, 1], G, C, lo, replay, k1, n1, T1, k2, n2, T2, bank_wins,
                      gmax, min_bank, forced, tie, tol, max_inner, blk_ptr, blk_states, tmin,
                      cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
                      hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1,
                      tab2, tends1, tends2, OD, fall_eff, fall_pen, fall_h, Xs, Ys, XW, XL, YW, YL,
                      stopW[w], stopL[w], stopO[w], W[w], LW[w], WO[w], resW[w], resL[w], old[w],
                      flags)
        solved(w, m, d, ld, done, deltas, ldeltas)


@parallel_kernel
def match_pass(nt, pairs, row, G, C, lo, replay, k1, n1, T1, k2, n2, T2, bank_wins, gmax,
               min_bank, forced, tie, tol, max_inner, blk_ptr, blk_states, tmin, cont_start,
               out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
               pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1,
               tends2, OD, fall_eff, fall_pen, fall_h, Xs, Ys, XW, XL, YW, YL, stopW, stopL,
               stopO, W, LW, WO, resW, resL, old, flags, state, done, deltas, ldeltas):
    """One Gauss-Seidel pass over every pair of scores (``pairs``, by
    decreasing sum) on ``nt`` workers (:func:`match_worker`), one to a
    thread, as the falls solve's passes: a pair reads the pairs of larger
    sums it waited for and, through a fall, pairs of smaller sums, which
    wait for it; the numbers do not depend on the threads. Returns the
    largest change of a stored win (-1 when a pair did not settle) and of
    a length, relatively."""
    reset(state, done, deltas, ldeltas)
    for w in prange(nt):
        # np.int64(w): one type for the worker (as the falls solve's pass)
        match_worker(np.int64(w), pairs, row, G, C, lo, replay, k1, n1, T1, k2, n2, T2, bank_wins,
                     gmax, min_bank, forced, tie, tol, max_inner, blk_ptr, blk_states, tmin,
                     cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
                     hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1,
                     tab2, tends1, tends2, OD, fall_eff, fall_pen, fall_h, Xs, Ys, XW, XL, YW, YL,
                     stopW, stopL, stopO, W, LW, WO, resW, resL, old, flags, state, done, deltas,
                     ldeltas)
    return pass_changes(deltas, ldeltas)
