"""Numba kernels of the expected game length under optimal play, two seats,
the rounds ending.

:mod:`designer.engine.rounds_length` has the mathematics. The win tables
are solved already, so every win probability is a number and every
decision is taken from it with the solve's tie rules
(:mod:`designer.engine._rounds_kernels`); only the expected actions are
unknown, and only at a pair's two feedback starts, where each in-turn
length is carried as three numbers ``c + e_own y_own + e_oth y_oth`` in its
side's own coordinates. The outcomes are read in the solve's packed form.
"""

import numpy as np

from designer._jit import kernel
from designer.engine._linear import two_rows
from designer.engine._rounds_kernels import (OP_CHOICE, OP_END, OP_MOVE, OP_SKIP, OQ_AUX,
                                             OQ_GAIN, OQ_NEXT, OQ_OP)


@kernel
def _pair_sweep(a, b, G, C, min_bank, forced, tie, fbh, blk_ptr, blk_states, blk_tmax, tmin, tlen,
                cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, opt_hh,
                hand_h, pass_ok, hidx, Xf, Zf, LXf, LZf, Xw, tc0, sw_l, sw_bu, W, WL, BL):
    """Both sides' turns of pair ``(a, b)``, block by block as the solve's
    sweep (:func:`designer.engine._rounds_kernels._sweep`, its decisions at
    the solved values): side 0 is seat 1 at ``(a, b)`` (its turn to the
    cap ``C``), side 1 seat 2 at ``(b, a)`` after seat 1 ended its turn
    with nothing. ``Xf``, ``Zf``: the solved tables flat (``X[a, b', h]``
    with ``Xw`` columns, 0 from ``b' = G`` on; ``Z[b, A, h]``, the final
    round from ``A = G`` on), ``LXf``, ``LZf`` the lengths alike. Seat 1
    holds from total ``tc0`` on (its sure holds) and where it wins for sure
    (``sw_l``, ``sw_bu``: :func:`designer.engine.rounds._sure_wins`), as
    in the solve. Writes the starts' lengths, affine in the two feedback
    starts' own, to ``BL[side * H + h]``."""
    sw_a = max(G - a, min_bank)
    sw_d = b - a
    S = tmin.shape[0]
    H = BL.shape[0] // 2
    Tn = W.shape[0] // (2 * S)
    for blk in range(blk_ptr.shape[0] - 1):
        for side in range(2):
            # the other seat's table from this pair on (row 0: its turn
            # start in this pair)
            if side == 0:
                um = C - a
                tcap = tc0
                base = (b * (C + 1) + a) * H
                Tf = Zf
                Lf = LZf
                t_hi = max(sw_bu[blk, 0] + sw_d, sw_bu[blk, 1] + sw_a)
            else:
                um = max(G - b, min_bank)
                tcap = um
                base = (a * Xw + b) * H
                Tf = Xf
                Lf = LXf
                t_hi = tcap
            ws = side * S
            bw = side * H
            bt = (1 - side) * H
            for t in range(min(blk_tmax[blk], tcap - 1, t_hi), -1, -1):
                for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                    s = blk_states[q]
                    if t < tmin[s] or t >= tlen[s]:
                        continue
                    c0 = cont_start[s]
                    c1 = cont_start[s + 1]
                    hand_s = hand_h[s]
                    if side == 0 and t >= max(sw_a, sw_l[s] + sw_d):  # a sure win: a hold
                        r = (ws + s) * Tn + t
                        W[r] = 1.0
                        WL[r, 0] = 1.0 + Lf[base + t * H + hand_s]
                        WL[r, 1] = 0.0
                        WL[r, 2] = 0.0
                        continue
                    bv = 0.0
                    bA = 0.0
                    bO = 0.0
                    bT = 0.0
                    for c in range(c0, c1):
                        v = 0.0
                        lA = throws[c]
                        lO = 0.0
                        lT = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            op = oq[o, OQ_OP]
                            p = out_prob[o]
                            if op == OP_SKIP:
                                continue
                            if op == OP_MOVE or op == OP_CHOICE:
                                if op == OP_MOVE:
                                    k0 = -1
                                    tt = t + oq[o, OQ_GAIN]
                                    nx = oq[o, OQ_NEXT]
                                    hh = oq[o, OQ_AUX]
                                else:  # the best option, ties to the first listed
                                    k0 = -1
                                    uv = 0.0
                                    tt = 0
                                    nx = 0
                                    hh = 0
                                    for k in range(opt_start[o], opt_start[o + 1]):
                                        t2 = t + opt_gain[k]
                                        if t2 >= tcap:
                                            val = 1.0 - Tf[base + min(t2, um) * H + opt_hh[k]]
                                        else:
                                            val = W[(ws + opt_next[k]) * Tn + t2]
                                        if k0 < 0 or val > uv + tie:
                                            k0 = k
                                            uv = val
                                            tt = t2
                                            nx = opt_next[k]
                                            hh = opt_hh[k]
                                if tt >= tcap:  # the turn ends at once: a stop
                                    i = base + min(tt, um) * H + hh
                                    v += p * (1.0 - Tf[i])
                                    lA += p * (1.0 + Lf[i])
                                else:
                                    r = (ws + nx) * Tn + tt
                                    v += p * W[r]
                                    lA += p * WL[r, 0]
                                    lO += p * WL[r, 1]
                                    lT += p * WL[r, 2]
                                continue
                            h = oq[o, OQ_AUX]
                            if op == OP_END:
                                tot = t + oq[o, OQ_GAIN]
                                if tot > 0:
                                    i = base + min(tot, um) * H + h
                                    v += p * (1.0 - Tf[i])
                                    lA += p * Lf[i]
                                    continue
                            # a bust, or an end with nothing: the other
                            # side's turn start in this pair
                            v += p * (1.0 - Tf[base + h])
                            if h == fbh:
                                lT += p
                            else:
                                lA += p * BL[bt + h, 0]
                                lO += p * BL[bt + h, 2]
                                lT += p * BL[bt + h, 1]
                        if c == c0 or v > bv + tie:
                            bv = v
                            bA, bO, bT = lA, lO, lT
                    # stopping (a pass at t = 0)
                    if t > 0:
                        i = base + t * H + hand_s
                        sv = 1.0 - Tf[i]
                        sA, sO, sT = 1.0 + Lf[i], 0.0, 0.0
                        thr = tie
                    else:
                        sv = 1.0 - Tf[base + hand_s]
                        thr = -tie
                        if hand_s == fbh:
                            sA, sO, sT = 1.0, 0.0, 1.0
                        else:
                            sA = 1.0 + BL[bt + hand_s, 0]
                            sO = BL[bt + hand_s, 2]
                            sT = BL[bt + hand_s, 1]
                    if c1 == c0:  # nothing to throw: the turn ends
                        bv, bA, bO, bT = sv, sA, sO, sT
                    go = True
                    if t >= min_bank and (t > 0 or pass_ok[s]) and c1 > c0:
                        go = bv - sv - thr > 0.0
                    h_s = hidx[s]
                    if t == 0 and h_s >= 0 and forced:  # a turn starts with a roll or draw
                        BL[bw + h_s, 0] = bA
                        BL[bw + h_s, 1] = bO
                        BL[bw + h_s, 2] = bT
                    if not go:
                        bv, bA, bO, bT = sv, sA, sO, sT
                    r = (ws + s) * Tn + t
                    W[r] = bv
                    WL[r, 0] = bA
                    WL[r, 1] = bO
                    WL[r, 2] = bT
                    if t == 0 and h_s >= 0 and not forced:
                        BL[bw + h_s, 0] = bA
                        BL[bw + h_s, 1] = bO
                        BL[bw + h_s, 2] = bT


@kernel
def _pair_sweep_simple(a, b, G, C, min_bank, forced, tie, fbh, blk_states, tmin, tlen, cont_start,
                       out_start, out_prob, throws, oq, hand_h, pass_ok, hidx, Xf, Zf, LXf, LZf,
                       Xw, tc0, sw_l, sw_bu, W, WL, BL):
    """:func:`_pair_sweep` for a turn model of simple states (a deck's: one
    state a block, one continuation of busts to turn starts and at most one
    move): the busts' part, the same at every turn total of a state, summed
    once per state and side (as the solve's
    :func:`~designer.engine._rounds_kernels._sweep_simple`). The stop and
    the decision are written out as in :func:`_pair_sweep`: one helper for
    both made Fowl Play's length 15% slower."""
    S = tmin.shape[0]
    H = BL.shape[0] // 2
    Tn = W.shape[0] // (2 * S)
    sw_a = max(G - a, min_bank)
    sw_d = b - a
    for blk in range(blk_states.shape[0]):
        s = blk_states[blk]
        c = cont_start[s]
        hand_s, h_s = hand_h[s], hidx[s]
        win = max(sw_a, sw_l[s] + sw_d)
        mp = 0.0
        mgain = 0
        mnext = 0
        mh = 0
        for o in range(out_start[c], out_start[c + 1]):
            if oq[o, OQ_OP] == OP_MOVE:
                mp, mgain, mnext, mh = out_prob[o], oq[o, OQ_GAIN], oq[o, OQ_NEXT], oq[o, OQ_AUX]
        for side in range(2):
            if side == 0:
                um = C - a
                tcap = tc0
                base = (b * (C + 1) + a) * H
                Tf = Zf
                Lf = LZf
                t_hi = max(sw_bu[blk, 0] + sw_d, sw_bu[blk, 1] + sw_a)
            else:
                um = max(G - b, min_bank)
                tcap = um
                base = (a * Xw + b) * H
                Tf = Xf
                Lf = LXf
                t_hi = tcap
            ws = side * S
            bw = side * H
            bt = (1 - side) * H
            # the busts: the other side's turn starts in this pair
            kv = 0.0
            kA = throws[c]
            kO = 0.0
            kT = 0.0
            for o in range(out_start[c], out_start[c + 1]):
                if oq[o, OQ_OP] == OP_MOVE:
                    continue
                p = out_prob[o]
                h = oq[o, OQ_AUX]
                kv += p * (1.0 - Tf[base + h])
                if h == fbh:
                    kT += p
                else:
                    kA += p * BL[bt + h, 0]
                    kO += p * BL[bt + h, 2]
                    kT += p * BL[bt + h, 1]
            for t in range(min(tlen[s] - 1, tcap - 1, t_hi), tmin[s] - 1, -1):
                r = (ws + s) * Tn + t
                if side == 0 and t >= win:  # a sure win: a hold
                    W[r] = 1.0
                    WL[r, 0] = 1.0 + Lf[base + t * H + hand_s]
                    WL[r, 1] = 0.0
                    WL[r, 2] = 0.0
                    continue
                v = kv
                lA, lO, lT = kA, kO, kT
                if mp > 0.0:
                    tt = t + mgain
                    if tt >= tcap:  # the turn ends at once: a stop
                        i = base + min(tt, um) * H + mh
                        v += mp * (1.0 - Tf[i])
                        lA += mp * (1.0 + Lf[i])
                    else:
                        rr = (ws + mnext) * Tn + tt
                        v += mp * W[rr]
                        lA += mp * WL[rr, 0]
                        lO += mp * WL[rr, 1]
                        lT += mp * WL[rr, 2]
                if t > 0:
                    i = base + t * H + hand_s
                    sv = 1.0 - Tf[i]
                    sA, sO, sT = 1.0 + Lf[i], 0.0, 0.0
                    thr = tie
                else:
                    sv = 1.0 - Tf[base + hand_s]
                    thr = -tie
                    if hand_s == fbh:
                        sA, sO, sT = 1.0, 0.0, 1.0
                    else:
                        sA = 1.0 + BL[bt + hand_s, 0]
                        sO = BL[bt + hand_s, 2]
                        sT = BL[bt + hand_s, 1]
                go = True
                if t >= min_bank and (t > 0 or pass_ok[s]):
                    go = v - sv - thr > 0.0
                if t == 0 and h_s >= 0 and forced:  # a turn starts with a draw
                    BL[bw + h_s, 0] = lA
                    BL[bw + h_s, 1] = lO
                    BL[bw + h_s, 2] = lT
                if not go:
                    v, lA, lO, lT = sv, sA, sO, sT
                W[r] = v
                WL[r, 0] = lA
                WL[r, 1] = lO
                WL[r, 2] = lT
                if t == 0 and h_s >= 0 and not forced:
                    BL[bw + h_s, 0] = lA
                    BL[bw + h_s, 1] = lO
                    BL[bw + h_s, 2] = lT


@kernel
def open_lengths(pairs, G, C, min_bank, forced, tie, fbh, blk_ptr, blk_states, blk_tmax, tmin,
                 tlen, cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
                 opt_hh, hand_h, pass_ok, hidx, Xf, Zf, LX, LZ, Q, bust_h, sw_l, sw_bu, simple,
                 W, WL, BL):
    """The open rounds' lengths, pair by pair in ``pairs``' order (each
    reads only pairs before it): one sweep (:func:`_pair_sweep`), then the
    two feedback starts' lengths solved exactly. ``LX[a, b', h]`` (0 from
    ``b' = G`` on: seat 2 has won) and ``LZ[b, A, h]`` (the final round's
    from ``A = G`` on) are filled in. Returns the first pair whose turns
    can go on for ever (a singular system), as ``a * G + b``, or -1. Seat
    1's turn is cut at its sure holds as the solve's is, at the solved
    values: from the first score ``A >= G`` with ``Q[b, A - G]`` at most the
    least of seat 2's turn starts a bust leads to (``bust_h``)."""
    H = BL.shape[0] // 2
    Xw = LX.shape[1]
    LXf = LX.reshape(-1)
    LZf = LZ.reshape(-1)
    for m in range(pairs.shape[0]):
        a = pairs[m, 0]
        b = pairs[m, 1]
        y = np.inf
        for i in range(bust_h.shape[0]):
            y = min(y, Zf[(b * (C + 1) + a) * H + bust_h[i]])
        tc0 = C - a
        for A in range(G, C):
            if Q[b, A - G] <= y:
                tc0 = min(C - a, max(A - a, min_bank))
                break
        if simple:
            _pair_sweep_simple(a, b, G, C, min_bank, forced, tie, fbh, blk_states, tmin, tlen,
                               cont_start, out_start, out_prob, throws, oq, hand_h, pass_ok, hidx,
                               Xf, Zf, LXf, LZf, Xw, tc0, sw_l, sw_bu, W, WL, BL)
        else:
            _pair_sweep(a, b, G, C, min_bank, forced, tie, fbh, blk_ptr, blk_states, blk_tmax,
                        tmin, tlen, cont_start, out_start, out_prob, throws, oq, opt_start,
                        opt_gain, opt_next, opt_hh, hand_h, pass_ok, hidx, Xf, Zf, LXf, LZf, Xw,
                        tc0, sw_l, sw_bu, W, WL, BL)
        _, _, y0, y1, ok = two_rows(BL, fbh, 0.0, 0.0)
        if not ok:
            return a * G + b
        for h in range(H):
            LX[a, b, h] = BL[h, 0] + BL[h, 1] * y0 + BL[h, 2] * y1
            LZ[b, a, h] = BL[H + h, 0] + BL[H + h, 1] * y1 + BL[H + h, 2] * y0
    return -1
