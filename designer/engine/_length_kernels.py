"""Numba kernels of the expected game length under optimal play (two seats, race).

:mod:`designer.engine.length` has the mathematics. The win table is solved
already, so inside a pair of scores every win probability is a number and
every decision is taken from it; only the expected actions are unknown at
the two sides' feedback start, and each in-turn length is carried as three
numbers ``c + e_own y_own + e_oth y_oth`` in its side's own coordinates
(the layout of :func:`designer.engine._kernels._sweep2`).
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._kernels import (bust_score, OC_KIND, OC_POINTS, OP_CHOICE,
                                      OP_FEEDBACK, OP_GENERAL, OP_MOVE, ST_BASE, ST_C0, ST_C1,
                                      ST_HAND, ST_LEN, ST_PASS, ST_START, await_inputs,
                                      settings)
from designer.engine._linear import two_rows
from designer.engine._sync import cycles, fetch_add, load_acquire, store_release

# mirrors of designer.engine.model (module constants are frozen in at compile time)
_END = 2


@kernel
def _sweep(a, b, cf, tie, st, out_start, out_prob, throws, oq, oc, opt_start, opt_gain, opt_nb,
           fbh, blk_ptr, blk_states, blk_tmax, V, L, Lf, W, WL, BL):
    """One backward sweep over both sides' turns of pair ``(a, b)`` (score
    indices; side 0 moves at ``(a, b)``, side 1 at ``(b, a)``): in-turn win
    probabilities into ``W`` from the solved table ``V[i, j, h]``, the
    optimal decisions they give (the solver's tie rules), and under them
    the expected actions left, affine in the feedback starts' unknowns,
    into ``WL[side * nodes + node, :3]`` and ``BL[side * H + h, :3]``.
    ``L[i, j, h]``: the lengths of the pairs this one reads."""
    nodes = W.shape[0] // 2
    H = BL.shape[0] // 2
    goal, lo, min_bank, forced = settings(cf)
    for blk in range(blk_ptr.shape[0] - 1):
        for side in range(2):
            ma, mb = (a, b) if side == 0 else (b, a)
            wo = side * nodes
            bw = side * H
            bt = (1 - side) * H
            mi = ma + lo
            tcap = max(goal - mi, min_bank)
            for t in range(min(blk_tmax[blk], tcap - 1), -1, -1):
                for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                    s = blk_states[q]
                    if t >= st[s, ST_LEN]:
                        continue
                    nd = wo + st[s, ST_BASE] + t
                    hand_s, h_s = st[s, ST_HAND], st[s, ST_START]
                    bestv = -np.inf
                    bA = bO = bT = 0.0
                    for c in range(st[s, ST_C0], st[s, ST_C1]):
                        v = 0.0
                        lA = throws[c]  # the throw or draw (rolls folded away too)
                        lO = 0.0
                        lT = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE or op == OP_CHOICE:
                                if op == OP_MOVE:
                                    tt = t + oq[o, 1]
                                    r = wo + oq[o, 2] + tt
                                else:  # the option of the best win, ties to the first
                                    bv = -np.inf
                                    r = -1
                                    tt = 0
                                    for k in range(opt_start[o], opt_start[o + 1]):
                                        t2 = t + opt_gain[k]
                                        val = 1.0 if t2 >= tcap else W[wo + opt_nb[k] + t2]
                                        if val > bv:
                                            bv = val
                                            tt = t2
                                            r = wo + opt_nb[k] + t2
                                if tt >= tcap:  # a winning stop follows
                                    v += p
                                    lA += p
                                else:
                                    v += p * W[r]
                                    lA += p * WL[r, 0]
                                    lO += p * WL[r, 1]
                                    lT += p * WL[r, 2]
                                continue
                            h = oq[o, 3]
                            ns = mi
                            if op == OP_GENERAL:
                                if oc[o, OC_KIND] == _END:
                                    tot = t + oc[o, OC_POINTS]
                                    if mi + tot >= goal:  # a win: the game is over
                                        v += p
                                        continue
                                    if tot > 0:
                                        v += p * (1.0 - V[mb, ma + tot, h])
                                        lA += p * L[mb, ma + tot, h]
                                        continue
                                else:
                                    ns = bust_score(oc, o, mi, lo)
                            if ns != mi:
                                v += p * (1.0 - V[mb, ns - lo, h])
                                lA += p * Lf[mb, ns - lo, h]
                                continue
                            # the opponent's turn start in this pair
                            v += p * (1.0 - V[mb, ma, h])
                            if op == OP_FEEDBACK or h == fbh:
                                lT += p
                            else:
                                lA += p * BL[bt + h, 0]
                                lO += p * BL[bt + h, 2]
                                lT += p * BL[bt + h, 1]
                        if v > bestv:
                            bestv = v
                            bA, bO, bT = lA, lO, lT
                    go = bestv > -np.inf
                    if t >= min_bank and (t > 0 or st[s, ST_PASS] != 0):  # stopping is allowed
                        sO = 0.0
                        sT = 0.0
                        if t > 0:
                            sv = 1.0 - V[mb, ma + t, hand_s]
                            sA = 1.0 + L[mb, ma + t, hand_s]
                            thr = tie
                        else:  # a pass: the opponent starts from the hand-over
                            sv = 1.0 - V[mb, ma, hand_s]
                            thr = -tie
                            if hand_s == fbh:
                                sA, sT = 1.0, 1.0
                            else:
                                sA = 1.0 + BL[bt + hand_s, 0]
                                sO = BL[bt + hand_s, 2]
                                sT = BL[bt + hand_s, 1]
                        if not (go and bestv - sv > thr):
                            go = False
                    if t == 0 and h_s >= 0 and forced:  # a turn starts with a roll or draw
                        BL[bw + h_s, 0] = bA
                        BL[bw + h_s, 1] = bO
                        BL[bw + h_s, 2] = bT
                    if go:
                        W[nd] = bestv
                        WL[nd, 0] = bA
                        WL[nd, 1] = bO
                        WL[nd, 2] = bT
                    else:
                        W[nd] = sv
                        WL[nd, 0] = sA
                        WL[nd, 1] = sO
                        WL[nd, 2] = sT
                    if t == 0 and h_s >= 0 and not forced:
                        BL[bw + h_s, 0] = WL[nd, 0]
                        BL[bw + h_s, 1] = WL[nd, 1]
                        BL[bw + h_s, 2] = WL[nd, 2]


@kernel
def _sweep_simple(a, b, cf, tie, st, out_start, out_prob, throws, oq, fbh, blk_states, V, L, W,
                  WL, BL):
    """:func:`_sweep` for a turn model of simple states (a deck's: one
    continuation, whose outcomes are turn starts and at most one move; the
    solver's plan says ``simple``): the turn starts' part of the
    continuation, the same at every turn total of a state, is summed once
    per state and side (as :func:`designer.engine._kernels._sweep2s` does
    for the solve), so each turn total reads one move and one stop."""
    nodes = W.shape[0] // 2
    H = BL.shape[0] // 2
    goal, lo, min_bank, forced = settings(cf)
    for q in range(blk_states.shape[0]):
        s = blk_states[q]
        c0 = st[s, ST_C0]
        nb, pass_s, hand_s = st[s, ST_BASE], st[s, ST_PASS] != 0, st[s, ST_HAND]
        h_s, lenh = st[s, ST_START], st[s, ST_LEN]
        w = throws[c0]
        for side in range(2):
            ma, mb = (a, b) if side == 0 else (b, a)
            wo = side * nodes
            bw = side * H
            bt = (1 - side) * H
            mi = ma + lo
            tcap = max(goal - mi, min_bank)
            if min(lenh, tcap) <= 0:
                continue
            # the turn starts' part (wins before and after the move, as the
            # general sweep adds them) and the move
            kv = 0.0
            zv = 0.0
            kA = w
            kO = 0.0
            kT = 0.0
            after = False
            mp = 0.0
            mgain = tcap  # no move: nothing to read (its probability 0)
            mrow = wo
            for o in range(out_start[c0], out_start[c0 + 1]):
                p = out_prob[o]
                if oq[o, 0] == OP_MOVE:
                    mp = p
                    mgain = oq[o, 1]
                    mrow = wo + oq[o, 2]
                    after = True
                    continue
                h = oq[o, 3]
                if after:
                    zv += p * (1.0 - V[mb, ma, h])
                else:
                    kv += p * (1.0 - V[mb, ma, h])
                if h == fbh:
                    kT += p
                else:
                    kA += p * BL[bt + h, 0]
                    kO += p * BL[bt + h, 2]
                    kT += p * BL[bt + h, 1]
            for t in range(min(lenh, tcap) - 1, -1, -1):
                tt = t + mgain
                if tt >= tcap:  # a winning stop follows
                    v = kv + mp
                    lA, lO, lT = kA + mp, kO, kT
                else:
                    r = mrow + tt
                    v = kv + mp * W[r]
                    lA = kA + mp * WL[r, 0]
                    lO = kO + mp * WL[r, 1]
                    lT = kT + mp * WL[r, 2]
                v += zv
                nd = wo + nb + t
                if t == 0 and h_s >= 0 and forced:  # a turn starts with a draw
                    BL[bw + h_s, 0] = lA
                    BL[bw + h_s, 1] = lO
                    BL[bw + h_s, 2] = lT
                if t > 0 and t >= min_bank:  # a stop banks
                    sv = 1.0 - V[mb, ma + t, hand_s]
                    if not v - sv > tie:
                        v = sv
                        lA, lO, lT = 1.0 + L[mb, ma + t, hand_s], 0.0, 0.0
                elif t == 0 and min_bank == 0 and pass_s:  # a pass
                    sv = 1.0 - V[mb, ma, hand_s]
                    if not v - sv > -tie:
                        v = sv
                        if hand_s == fbh:
                            lA, lO, lT = 1.0, 0.0, 1.0
                        else:
                            lA = 1.0 + BL[bt + hand_s, 0]
                            lO = BL[bt + hand_s, 2]
                            lT = BL[bt + hand_s, 1]
                W[nd] = v
                WL[nd, 0] = lA
                WL[nd, 1] = lO
                WL[nd, 2] = lT
                if t == 0 and h_s >= 0 and not forced:
                    BL[bw + h_s, 0] = lA
                    BL[bw + h_s, 1] = lO
                    BL[bw + h_s, 2] = lT


@kernel
def _pair(a, b, simple, cf, tie, st, out_start, out_prob, throws, oq, oc, opt_start, opt_gain,
          opt_nb, fbh, blk_ptr, blk_states, blk_tmax, V, L, Lf, W, WL, BL, out):
    """Lengths of pair ``(a, b)``: one sweep, then the two unknowns from
    their own rows ``y0 = u0 + u1 y0 + u2 y1``, ``y1 = v0 + v1 y1 + v2 y0``.
    ``out``: the largest change of a stored length (for passes where
    scores fall) and 1 in ``out[1]`` if the pair never ends."""
    if simple:
        _sweep_simple(a, b, cf, tie, st, out_start, out_prob, throws, oq, fbh, blk_states, V, L,
                      W, WL, BL)
    else:
        _sweep(a, b, cf, tie, st, out_start, out_prob, throws, oq, oc, opt_start, opt_gain,
               opt_nb, fbh, blk_ptr, blk_states, blk_tmax, V, L, Lf, W, WL, BL)
    H = BL.shape[0] // 2
    y0 = 0.0
    y1 = 0.0
    if fbh >= 0:
        _, _, y0, y1, ok = two_rows(BL, fbh, 0.0, 0.0)
        if not ok:
            out[1] = 1.0
            return
    change = 0.0
    for h in range(H):
        l0 = BL[h, 0] + BL[h, 1] * y0 + BL[h, 2] * y1
        l1 = BL[H + h, 0] + BL[H + h, 1] * y1 + BL[H + h, 2] * y0
        change = max(change, abs(l0 - Lf[a, b, h]) / max(1.0, abs(l0)),
                     abs(l1 - Lf[b, a, h]) / max(1.0, abs(l1)))
        L[a, b, h] = l0
        L[b, a, h] = l1
    out[0] = max(out[0], change)


@parallel_kernel
def length_pairs(pairs, groups, simple, cf, tie, st, out_start, out_prob, throws, oq, oc,
                 opt_start, opt_gain, opt_nb, fbh, blk_ptr, blk_states, blk_tmax, V, L, Lf, nodes,
                 nt, out):
    """The lengths of every pair of ``pairs`` (decreasing score sum) on
    ``nt`` workers (``simple``: the plan's, :func:`_sweep_simple`): each
    claims the next pair from a shared counter and waits until the pairs it
    reads are done, or takes over an input another worker is slow on.
    Where scores fall, a pair's reads below its own score sum and its
    change go to ``Lf``, the lengths as the last pass left them (as the
    solve's :func:`designer.engine._kernels.solve_pairs` does); else
    ``Lf`` is ``L``. ``out[m]``: pair ``m``'s report (:func:`_pair`)."""
    H = V.shape[2]
    W = np.zeros((nt, 2 * nodes))
    WL = np.zeros((nt, 2 * nodes, 3))
    BL = np.zeros((nt, 2 * H, 3))
    n = V.shape[0]
    npairs = pairs.shape[0]
    claim = np.zeros(1, dtype=np.int64)
    done = np.zeros(npairs, dtype=np.int64)
    for w in prange(nt):
        t = numba.get_thread_id()
        spent = 0  # cycles this worker spent on its pairs
        solved = 0
        while True:
            m = fetch_add(claim, 0, 1)
            if m >= npairs:
                break
            # wait for the inputs, or take them over as the solve does
            # (designer.engine._kernels.solve_pairs): a worker kept off
            # its core by another process must not hold this one up
            patience = 2 * spent // max(solved, 1) + 20_000
            while True:
                d = await_inputs(m, pairs, n, groups, done, patience)
                if d < 0:
                    break
                if load_acquire(done, d) == 0:
                    _pair(pairs[d, 0], pairs[d, 1], simple, cf, tie, st, out_start,
                          out_prob, throws, oq, oc, opt_start, opt_gain, opt_nb, fbh,
                          blk_ptr, blk_states, blk_tmax, V, L, Lf, W[t], WL[t], BL[t],
                          out[d])
                    store_release(done, d, 1)
            t0 = cycles()
            _pair(pairs[m, 0], pairs[m, 1], simple, cf, tie, st, out_start, out_prob, throws,
                  oq, oc, opt_start, opt_gain, opt_nb, fbh, blk_ptr, blk_states, blk_tmax, V, L,
                  Lf, W[t], WL[t], BL[t], out[m])
            store_release(done, m, 1)
            spent += cycles() - t0
            solved += 1
