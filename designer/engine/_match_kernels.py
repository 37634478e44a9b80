"""Numba kernels of a match between two fixed policies over any turn model.

Arrays in, preallocated arrays out; the layout (which start values are a
score pair's unknowns, the order of a sweep) is the solver's plan
(:func:`designer.engine.solve.plan`), and :mod:`designer.engine.match` has
the mathematics.

Affine values
-------------
With both policies fixed nothing is decided at an estimate: one backward
sweep over the two sides of a pair gives every value as an affine function
of the pair's ``K`` unknowns ``x`` (the start values of the feedback states,
both sides), a vector ``v`` of length ``K + 1`` worth ``v[0] + sum_k v[1 +
k] x[k]``; the unknowns' own rows ``x = u + M x`` are then solved exactly.
Win probabilities and expected actions are carried side by side (the same
rows, other constants).
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._kernels import (
    OP_CHOICE,
    OP_GENERAL,
    OP_MOVE,
    ST_BASE,
    ST_C0,
    ST_C1,
    ST_HAND,
    ST_LEN,
    ST_PASS,
    ST_START,
    settings,
)
from designer.engine._linear import gauss_jordan

# kinds and effects (mirrors of designer.engine.model)
_BUST = 0
_CHOOSE = 1
_END = 2
_NONE = 0
_ZERO = 1

#: Policy kinds (designer.engine.match sets them).
OPTIMAL = 0
HOLD_AT = 1
MAX_SCORE = 2
#: A decision table (a rule or a function: designer.engine.policy_tables).
TABLE = 3

# entries of the packed settings ``cf``
CF_GOAL = 0
CF_LO = 1
CF_MIN_BANK = 2
CF_FORCED = 3
CF_TC = 4
CF_KIND_A = 5
CF_KIND_B = 6
CF_HOLD_A = 7
CF_HOLD_B = 8
CF_TAB_A = 9
CF_TAB_B = 10
CF_LEN = 11


@kernel
def max_score_table(Tc, min_bank, tie, cont_start, out_start, out_prob, out_kind, out_points,
                    opt_start, opt_gain, opt_next, pass_ok, blk_ptr, blk_states, L, E, stop,
                    cont):
    """The one-turn problem of ``max-score``: ``E[s, t]`` the largest
    expected points banked from ``(s, t)``, ``t < Tc`` (``E = t + L[s]``
    from ``Tc`` on: there a turn only takes the continuations that never
    bust), by backward induction; ``stop[s, t]`` whether it stops,
    ``cont[s, t]`` its best continuation (-1: none).
    A bust banks 0, an end banks ``t + points``, a stop ``t``. Ties: as the
    solver's, with the tie scaled by the turn total (values are points)."""
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(Tc - 1, -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                bestv = -np.inf
                bc = -1
                for c in range(cont_start[s], cont_start[s + 1]):
                    v = 0.0
                    for o in range(out_start[c], out_start[c + 1]):
                        kind = out_kind[o]
                        if kind == _CHOOSE:
                            bv = -np.inf
                            for r in range(opt_start[o], opt_start[o + 1]):
                                tt = t + opt_gain[r]
                                val = E[opt_next[r], tt] if tt < Tc else tt + L[opt_next[r]]
                                if val > bv:
                                    bv = val
                            v += out_prob[o] * bv
                        elif kind == _END:
                            v += out_prob[o] * (t + out_points[o])
                    if v > bestv:
                        bestv = v
                        bc = c
                cont[s, t] = bc
                go = bc >= 0
                if t >= min_bank and (t > 0 or pass_ok[s]) and go:
                    thr = -tie if t == 0 else tie * max(1.0, float(t))
                    go = bestv - t > thr
                stop[s, t] = not go
                E[s, t] = bestv if go else float(t)


@kernel
def _opt_side(ma, mb, goal, lo, min_bank, tie, cont_start, out_start, out_prob, out_kind,
              out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h,
              pass_ok, blk_ptr, blk_states, blk_tmax, node_base, node_len, obase, V, Wo, Do, Co,
              Pk, oq):
    """Optimal play of the mover at score indices ``(ma, mb)`` from the
    solved start table ``V[i, h, j]`` (:func:`designer.engine.match.start_table`):
    in-turn values ``Wo[node]``, decisions
    ``Do[node]`` (-1 stop, else the continuation), best continuations
    ``Co[node]`` and the option picked at each choice outcome ``o`` of
    state ``s`` from ``t``, ``Pk[obase[s] + t * n_s + o - o_s]`` (``n_s``
    outcomes from ``o_s`` on), with the solver's tie rules.

    Outcomes are read through the plan's ``oq``: a move (one option) reads
    its node straight and records no pick (only choices of several options
    are read back), a bust that keeps the banked score reads the opponent's
    start at these scores; the rest take the general path."""
    mi = ma + lo
    tcap = max(goal - mi, min_bank)
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(blk_tmax[blk], -1, -1):
            if t >= tcap:
                continue
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t >= node_len[s]:
                    continue
                bestv = -np.inf
                bc = -1
                o0 = out_start[cont_start[s]]
                pk0 = obase[s] + t * (out_start[cont_start[s + 1]] - o0) - o0
                for c in range(cont_start[s], cont_start[s + 1]):
                    v = 0.0
                    for o in range(out_start[c], out_start[c + 1]):
                        p = out_prob[o]
                        op = oq[o, 0]
                        if op == OP_MOVE:
                            tt = t + oq[o, 1]
                            v += p * (1.0 if tt >= tcap else Wo[oq[o, 2] + tt])
                            continue
                        if op != OP_GENERAL and op != OP_CHOICE:  # a bust, the score kept
                            v += p * (1.0 - V[mb, oq[o, 3], ma])
                            continue
                        kind = out_kind[o]
                        if kind == _CHOOSE:
                            bv = -np.inf
                            bo = opt_start[o]
                            for r in range(opt_start[o], opt_start[o + 1]):
                                tt = t + opt_gain[r]
                                val = 1.0 if tt >= tcap else Wo[node_base[opt_next[r]] + tt]
                                if val > bv:
                                    bv = val
                                    bo = r
                            Pk[pk0 + o] = bo
                            v += p * bv
                        elif kind == _END:
                            tot = t + out_points[o]
                            if mi + tot >= goal:
                                v += p
                            else:
                                v += p * (1.0 - V[mb, out_h[o], ma + tot])
                        else:
                            e = out_effect[o]
                            if e == _NONE:
                                ns = mi
                            elif e == _ZERO:
                                ns = 0
                            else:
                                ns = max(mi - out_penalty[o], lo)
                            v += p * (1.0 - V[mb, out_h[o], ns - lo])
                    if v > bestv:
                        bestv = v
                        bc = c
                nd = node_base[s] + t
                Co[nd] = bc
                d = bc
                val = bestv
                if t >= min_bank and (t > 0 or pass_ok[s]):
                    sv = 1.0 - V[mb, hand_h[s], ma + t]
                    thr = -tie if t == 0 else tie
                    if bc < 0 or not bestv - sv > thr:
                        d = -1
                        val = sv
                Do[nd] = d
                Wo[nd] = val


@kernel
def _opt_simple(ma, mb, goal, lo, min_bank, tie, st, out_start, out_prob, oq, blk_states, V, Wo,
                Do, Co):
    """:func:`_opt_side` for a turn model of *simple* states (a deck's: one
    continuation each, whose outcomes are turn starts and at most one move;
    :func:`designer.engine.solve.plan`'s ``simple``). The turn starts' part
    of the continuation's value is the same at every turn total of a state,
    so it is summed once per state, and the loop over the turn totals reads
    the move's node and one stop value (as the solver's
    :func:`designer.engine._kernels._sweep2s`). The sums are those of
    :func:`_opt_side` in the same order (turn starts listed after the move,
    which no part lists, summed apart: a difference in rounding only);
    nothing is picked at a choice, for there is none."""
    mi = ma + lo
    tcap = max(goal - mi, min_bank)
    for q in range(blk_states.shape[0]):
        s = blk_states[q]
        c0 = st[s, ST_C0]
        nb, lenh, hand = st[s, ST_BASE], st[s, ST_LEN], st[s, ST_HAND]
        pass_s = st[s, ST_PASS] != 0
        kv = 0.0  # the turn starts before the move
        zv = 0.0  # and after it
        after = False
        mp = 0.0
        mgain = tcap  # no move: nothing to read (its probability 0)
        mrow = 0
        for o in range(out_start[c0], out_start[c0 + 1]):
            p = out_prob[o]
            if oq[o, 0] == OP_MOVE:
                mp = p
                mgain = oq[o, 1]
                mrow = oq[o, 2]
                after = True
            elif after:
                zv += p * (1.0 - V[mb, oq[o, 3], ma])
            else:
                kv += p * (1.0 - V[mb, oq[o, 3], ma])
        for t in range(min(lenh, tcap) - 1, -1, -1):
            tt = t + mgain
            v = kv + mp * (1.0 if tt >= tcap else Wo[mrow + tt])
            if after:
                v += zv
            nd = nb + t
            Co[nd] = c0
            d = c0
            if t >= min_bank and (t > 0 or pass_s):
                sv = 1.0 - V[mb, hand, ma + t]
                thr = -tie if t == 0 else tie
                if not v - sv > thr:
                    d = -1
                    v = sv
            Do[nd] = d
            Wo[nd] = v


@kernel
def _other(acc, lacc, p, B, BL, other, h, fb, nF):
    """``acc += p (1 - start value of the other side at h)`` and ``lacc +=
    p (its expected actions)``, in affine form."""
    f = fb[h]
    acc[0] += p
    if f >= 0:  # a feedback state: its values are unknowns
        acc[1 + other * nF + f] -= p
        lacc[1 + other * nF + f] += p
    else:
        for k in range(acc.shape[0]):
            acc[k] -= p * B[other, h, k]
            lacc[k] += p * BL[other, h, k]


@kernel
def _chain(a, b, pol0, cf, tie, cont_start, out_start, out_prob, throws, out_kind, out_points,
           out_h,
           out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb,
           nF, blk_ptr, blk_states, blk_tmax, node_base, node_len, pick, E, mstop, mcont, tabs,
           X, L, obase, Pk, Wo, Do, Co, Y, LY, B, BL, acc, lacc, cacc, clacc):
    """One backward sweep over both sides of pair ``(a, b)`` (score indices;
    side 0 is the mover at ``(a, b)`` playing policy ``pol0``, side 1 the
    mover at ``(b, a)`` playing the other), affine in the pair's unknowns:
    in-turn values into ``Y``/``LY`` (win, actions), turn starts into
    ``B``/``BL``. ``X[p, i, h, j]``, ``L[p, i, h, j]``: the solved turn starts of larger (or,
    where scores fall, other) pairs when the mover plays policy ``p``."""
    goal = cf[CF_GOAL]
    lo = cf[CF_LO]
    min_bank = cf[CF_MIN_BANK]
    forced = cf[CF_FORCED] != 0
    Tc = cf[CF_TC]
    K1 = acc.shape[0]
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(blk_tmax[blk], -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t >= node_len[s]:
                    continue
                nd = node_base[s] + t
                c0 = cont_start[s]
                has = cont_start[s + 1] > c0
                allowed = t >= min_bank and (t > 0 or pass_ok[s])
                start = t == 0 and hidx[s] >= 0
                for side in range(2):
                    ma = a if side == 0 else b
                    mb = b if side == 0 else a
                    other = 1 - side
                    pol = pol0 if side == 0 else 1 - pol0
                    opp = 1 - pol
                    kind = cf[CF_KIND_A + pol]
                    mi = ma + lo
                    tcap = max(goal - mi, min_bank)
                    if t >= tcap:
                        continue
                    # the policy's decision: -1 stop, else a continuation;
                    # cc: its continuation where it must continue
                    if kind == OPTIMAL:
                        d = Do[side, nd]
                        cc = Co[side, nd]
                    elif kind == HOLD_AT:
                        cc = c0 if has else -1
                        d = -1 if allowed and (t >= cf[CF_HOLD_A + pol] or not has) else cc
                    elif kind == TABLE:
                        v = tabs[cf[CF_TAB_A + pol], ma, mb, nd]
                        cc = (c0 + v - 1 if v > 0 else c0) if has else -1
                        d = -1 if allowed and (v == 0 or not has) else cc
                    else:
                        cc = mcont[s, t]
                        d = -1 if mstop[s, t] else cc
                    need_cont = cc >= 0 and (d >= 0 or (start and forced))
                    if need_cont:
                        for k in range(K1):
                            cacc[k] = 0.0
                            clacc[k] = 0.0
                        clacc[0] = throws[cc]  # the throw or draw (rolls folded away too)
                        for o in range(out_start[cc], out_start[cc + 1]):
                            p = out_prob[o]
                            ok = out_kind[o]
                            if ok == _CHOOSE:
                                if opt_start[o + 1] - opt_start[o] == 1:  # no choice
                                    r = opt_start[o]
                                elif kind == OPTIMAL:  # as _opt_side picked it
                                    o0 = out_start[c0]
                                    no = out_start[cont_start[s + 1]] - o0
                                    r = Pk[side, obase[s] + t * no + o - o0]
                                else:
                                    r = _option(o, t, kind, opt_start, opt_gain, opt_next, E,
                                                Tc, pick)
                                tt = t + opt_gain[r]
                                if tt >= tcap:  # a winning hold follows
                                    cacc[0] += p
                                    clacc[0] += p
                                else:
                                    n2 = node_base[opt_next[r]] + tt
                                    if K1 == 3:  # one feedback state (every shipped game)
                                        cacc[0] += p * Y[side, n2, 0]
                                        cacc[1] += p * Y[side, n2, 1]
                                        cacc[2] += p * Y[side, n2, 2]
                                        clacc[0] += p * LY[side, n2, 0]
                                        clacc[1] += p * LY[side, n2, 1]
                                        clacc[2] += p * LY[side, n2, 2]
                                    else:
                                        for k in range(K1):
                                            cacc[k] += p * Y[side, n2, k]
                                            clacc[k] += p * LY[side, n2, k]
                            elif ok == _END:
                                tot = t + out_points[o]
                                if mi + tot >= goal:
                                    cacc[0] += p
                                elif tot == 0:
                                    _other(cacc, clacc, p, B, BL, other, out_h[o], fb, nF)
                                else:
                                    cacc[0] += p * (1.0 - X[opp, mb, out_h[o], ma + tot])
                                    clacc[0] += p * L[opp, mb, out_h[o], ma + tot]
                            else:
                                e = out_effect[o]
                                if e == _NONE:
                                    ns = mi
                                elif e == _ZERO:
                                    ns = 0
                                else:
                                    ns = max(mi - out_penalty[o], lo)
                                if ns == mi:
                                    _other(cacc, clacc, p, B, BL, other, out_h[o], fb, nF)
                                else:
                                    cacc[0] += p * (1.0 - X[opp, mb, out_h[o], ns - lo])
                                    clacc[0] += p * L[opp, mb, out_h[o], ns - lo]
                    if d >= 0:
                        for k in range(K1):
                            Y[side, nd, k] = cacc[k]
                            LY[side, nd, k] = clacc[k]
                    else:
                        for k in range(K1):
                            acc[k] = 0.0
                            lacc[k] = 0.0
                        if t == 0:  # a pass: the opponent starts from the hand-over
                            _other(acc, lacc, 1.0, B, BL, other, hand_h[s], fb, nF)
                        else:
                            acc[0] = 1.0 - X[opp, mb, hand_h[s], ma + t]
                            lacc[0] = L[opp, mb, hand_h[s], ma + t]
                        lacc[0] += 1.0  # the stop
                        for k in range(K1):
                            Y[side, nd, k] = acc[k]
                            LY[side, nd, k] = lacc[k]
                    if start:
                        h = hidx[s]
                        if forced:
                            for k in range(K1):
                                B[side, h, k] = cacc[k]
                                BL[side, h, k] = clacc[k]
                        else:
                            for k in range(K1):
                                B[side, h, k] = Y[side, nd, k]
                                BL[side, h, k] = LY[side, nd, k]


@kernel
def _chain2(a, b, pol0, cf, tie, st, out_start, out_prob, throws, oq, out_kind, out_points,
            out_effect, out_penalty, opt_start, opt_gain, opt_next, opt_nb, fb, blk_ptr,
            blk_states, blk_tmax, pick, E, mstop, mcont, tabs, X, L, obase, Pk, Do, Co, Y, LY,
            B, BL):
    """:func:`_chain` with one feedback state (every shipped game): a value
    is three numbers ``c + e0 x0 + e1 x1`` (``x0``, ``x1``: the unknowns of
    sides 0 and 1), kept in scalars, win and actions side by side.

    Written out in one loop on purpose, as the solver's sweep
    (:func:`designer.engine._kernels._sweep2`): a call that passes arrays
    costs atomic reference counts, which on two threads meet on the same
    arrays and were most of a position's cost. Outcomes are read through
    the plan's ``oq`` (a move, the feedback start, another start at the
    same scores, or the general case), and every turn start of the other
    side, whatever led to it, is added by one piece of code at the end of
    the outcome loop. The sums are those of :func:`_chain`, in the same
    order. The policy's decision is written out here as in :func:`_chain`:
    a helper that reads it (its arrays passed at every position) made
    Fowl Play's match 1.6x and Pig's 1.35x slower on one thread
    (measured, alternated)."""
    goal, lo, min_bank, forced = settings(cf)
    Tc = cf[CF_TC]
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(blk_tmax[blk], -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t >= st[s, ST_LEN]:
                    continue
                nd = st[s, ST_BASE] + t
                c0 = st[s, ST_C0]
                has = st[s, ST_C1] > c0
                allowed = t >= min_bank and (t > 0 or st[s, ST_PASS] != 0)
                h_s = st[s, ST_START]
                hand_s = st[s, ST_HAND]
                start = t == 0 and h_s >= 0
                for side in range(2):
                    ma = a if side == 0 else b
                    mb = b if side == 0 else a
                    other = 1 - side
                    pol = pol0 if side == 0 else 1 - pol0
                    opp = 1 - pol
                    kind = cf[CF_KIND_A + pol]
                    mi = ma + lo
                    tcap = max(goal - mi, min_bank)
                    if t >= tcap:
                        continue
                    # the policy's decision: -1 stop, else a continuation;
                    # cc: its continuation where it must continue
                    if kind == OPTIMAL:
                        d = Do[side, nd]
                        cc = Co[side, nd]
                    elif kind == HOLD_AT:
                        cc = c0 if has else -1
                        d = -1 if allowed and (t >= cf[CF_HOLD_A + pol] or not has) else cc
                    elif kind == TABLE:
                        v = tabs[cf[CF_TAB_A + pol], ma, mb, nd]
                        cc = (c0 + v - 1 if v > 0 else c0) if has else -1
                        d = -1 if allowed and (v == 0 or not has) else cc
                    else:
                        cc = mcont[s, t]
                        d = -1 if mstop[s, t] else cc
                    need_cont = cc >= 0 and (d >= 0 or (start and forced))
                    # win (wA + w0 x0 + w1 x1) and actions (lA + l0 x0 + l1 x1)
                    wA, w0, w1 = 0.0, 0.0, 0.0
                    lA, l0, l1 = 0.0, 0.0, 0.0
                    if need_cont:
                        lA = throws[cc]  # the throw or draw (rolls folded away too)
                        for o in range(out_start[cc], out_start[cc + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            r = -1  # an in-turn node to read
                            if op == OP_MOVE:
                                tt = t + oq[o, 1]
                                if tt < tcap:
                                    r = oq[o, 2] + tt
                            elif op == OP_CHOICE:
                                if kind == OPTIMAL:  # as _opt_side picked it
                                    o0 = out_start[c0]
                                    no = out_start[st[s, ST_C1]] - o0
                                    k = Pk[side, obase[s] + t * no + o - o0]
                                elif kind == MAX_SCORE:
                                    k = _option(o, t, kind, opt_start, opt_gain, opt_next, E,
                                                Tc, pick)
                                else:
                                    k = pick[o]
                                tt = t + opt_gain[k]
                                if tt < tcap:
                                    r = opt_nb[k] + tt
                            if op == OP_MOVE or op == OP_CHOICE:
                                if r < 0:  # a winning hold follows
                                    wA += p
                                    lA += p
                                else:
                                    wA += p * Y[side, r, 0]
                                    w0 += p * Y[side, r, 1]
                                    w1 += p * Y[side, r, 2]
                                    lA += p * LY[side, r, 0]
                                    l0 += p * LY[side, r, 1]
                                    l1 += p * LY[side, r, 2]
                                continue
                            h = oq[o, 3]
                            if op == OP_GENERAL:
                                ns = mi
                                if out_kind[o] == _END:
                                    tot = t + out_points[o]
                                    if mi + tot >= goal:
                                        wA += p
                                        continue
                                    if tot > 0:
                                        wA += p * (1.0 - X[opp, mb, h, ma + tot])
                                        lA += p * L[opp, mb, h, ma + tot]
                                        continue
                                else:
                                    e = out_effect[o]
                                    if e == _ZERO:
                                        ns = 0
                                    elif e != _NONE:
                                        ns = max(mi - out_penalty[o], lo)
                                if ns != mi:
                                    wA += p * (1.0 - X[opp, mb, h, ns - lo])
                                    lA += p * L[opp, mb, h, ns - lo]
                                    continue
                            # the other side's turn start h at these scores (the
                            # plan's OP_START and OP_FEEDBACK, and the rest here)
                            wA += p
                            if fb[h] >= 0:  # its unknown
                                if other == 0:
                                    w0 -= p
                                    l0 += p
                                else:
                                    w1 -= p
                                    l1 += p
                            else:
                                wA -= p * B[other, h, 0]
                                w0 -= p * B[other, h, 1]
                                w1 -= p * B[other, h, 2]
                                lA += p * BL[other, h, 0]
                                l0 += p * BL[other, h, 1]
                                l1 += p * BL[other, h, 2]
                    if start and forced:
                        B[side, h_s, 0], B[side, h_s, 1], B[side, h_s, 2] = wA, w0, w1
                        BL[side, h_s, 0], BL[side, h_s, 1], BL[side, h_s, 2] = lA, l0, l1
                    if d < 0:  # a stop
                        if t == 0:  # a pass: the opponent starts from the hand-over
                            wA, w0, w1 = 1.0, 0.0, 0.0
                            lA, l0, l1 = 0.0, 0.0, 0.0
                            if fb[hand_s] >= 0:
                                if other == 0:
                                    w0, l0 = -1.0, 1.0
                                else:
                                    w1, l1 = -1.0, 1.0
                            else:
                                wA -= B[other, hand_s, 0]
                                w0 = -B[other, hand_s, 1]
                                w1 = -B[other, hand_s, 2]
                                lA, l0, l1 = BL[other, hand_s, 0], BL[other, hand_s, 1], \
                                    BL[other, hand_s, 2]
                        else:
                            wA, w0, w1 = 1.0 - X[opp, mb, hand_s, ma + t], 0.0, 0.0
                            lA, l0, l1 = L[opp, mb, hand_s, ma + t], 0.0, 0.0
                        lA += 1.0  # the stop
                    Y[side, nd, 0], Y[side, nd, 1], Y[side, nd, 2] = wA, w0, w1
                    LY[side, nd, 0], LY[side, nd, 1], LY[side, nd, 2] = lA, l0, l1
                    if start and not forced:
                        B[side, h_s, 0], B[side, h_s, 1], B[side, h_s, 2] = wA, w0, w1
                        BL[side, h_s, 0], BL[side, h_s, 1], BL[side, h_s, 2] = lA, l0, l1


@kernel
def _option(o, t, kind, opt_start, opt_gain, opt_next, E, Tc, pick):
    """The option ``hold-at`` (the largest gain, ``pick``) or ``max-score``
    (the best expected points banked) picks at choice outcome ``o`` from
    turn total ``t``; ties to the option listed first."""
    if kind != MAX_SCORE:  # hold-at and tables: the largest gain
        return pick[o]
    best = opt_start[o]
    bv = -np.inf
    for r in range(opt_start[o], opt_start[o + 1]):
        tt = t + opt_gain[r]
        val = E[opt_next[r], tt] if tt < Tc else float(tt)
        if val > bv:
            bv = val
            best = r
    return best


@kernel
def _solve_rows(B, fh, nF, M, y):
    """The fixed point of the unknowns' rows ``x = u + M x`` read from the
    turn starts ``B`` at the feedback states (Gaussian elimination with
    partial pivoting) into ``y``; False when singular (a pair whose turns
    never end under these policies)."""
    K = y.shape[0]
    for k in range(K):
        sd = k // nF
        h = fh[k % nF]
        for m in range(K):
            M[k, m] = -B[sd, h, 1 + m]
        M[k, k] += 1.0
        M[k, K] = B[sd, h, 0]
    return gauss_jordan(M, y, 1e-14)


@kernel
def _store(a, b, pol0, B, BL, x, lx, X, L):
    """Write the pair's turn starts at the solved unknowns; returns the
    largest change of a win probability and of an expected action count
    (relative)."""
    H = B.shape[1]
    K = x.shape[0]
    dw = 0.0
    dl = 0.0
    for side in range(2):
        ma = a if side == 0 else b
        mb = b if side == 0 else a
        pol = pol0 if side == 0 else 1 - pol0
        for h in range(H):
            w = B[side, h, 0]
            la = BL[side, h, 0]
            for k in range(K):
                w += B[side, h, 1 + k] * x[k]
                la += BL[side, h, 1 + k] * lx[k]
            dw = max(dw, abs(w - X[pol, ma, h, mb]))
            dl = max(dl, abs(la - L[pol, ma, h, mb]) / max(1.0, abs(la)))
            X[pol, ma, h, mb] = w
            L[pol, ma, h, mb] = la
    return dw, dl


@kernel
def _pair(a, b, need_opt, cf, tie, cont_start, out_start, out_prob, throws, out_kind, out_points,
          out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx,
          fb, fh, blk_ptr, blk_states, blk_tmax, node_base, node_len, obase, pick, E, mstop,
          mcont, tabs, V, X, L, Pk, Wo, Do, Co, Y, LY, B, BL, acc, lacc, cacc, clacc, M, x, lx,
          out, node_s, D, st, oq, opt_nb, simple):
    """Evaluate pair ``{a, b}``: both seatings (A at ``(a, b)`` against B at
    ``(b, a)``, and B at ``(a, b)`` against A at ``(b, a)``; one when ``a ==
    b``). ``out``: largest win change, largest relative actions change,
    status (0 ok, 1 a pair whose turns never end)."""
    goal = cf[CF_GOAL]
    lo = cf[CF_LO]
    min_bank = cf[CF_MIN_BANK]
    nF = fh.shape[0]
    if need_opt:
        for side in range(2):
            ma = a if side == 0 else b
            mb = b if side == 0 else a
            if simple:
                _opt_simple(ma, mb, goal, lo, min_bank, tie, st, out_start, out_prob, oq,
                            blk_states, V, Wo[side], Do[side], Co[side])
            else:
                _opt_side(ma, mb, goal, lo, min_bank, tie, cont_start, out_start, out_prob,
                          out_kind, out_points, out_h, out_effect, out_penalty, opt_start,
                          opt_gain, opt_next, hand_h, pass_ok, blk_ptr, blk_states, blk_tmax,
                          node_base, node_len, obase, V, Wo[side], Do[side], Co[side], Pk[side],
                          oq)
            if D.shape[0] > 1:  # record optimal play's decisions (the agreement's)
                _record(Do[side], cont_start, node_s, D[ma, mb])
    dw = 0.0
    dl = 0.0
    for pol0 in range(2):
        if pol0 == 1 and a == b:
            break
        if nF == 1:
            _chain2(a, b, pol0, cf, tie, st, out_start, out_prob, throws, oq, out_kind,
                    out_points, out_effect, out_penalty, opt_start, opt_gain, opt_next, opt_nb,
                    fb, blk_ptr, blk_states, blk_tmax, pick, E, mstop, mcont, tabs, X, L, obase,
                    Pk, Do, Co, Y, LY, B, BL)
        else:
            _chain(a, b, pol0, cf, tie, cont_start, out_start, out_prob, throws, out_kind,
                   out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
                   hand_h, pass_ok, hidx, fb, nF, blk_ptr, blk_states, blk_tmax, node_base,
                   node_len, pick, E, mstop, mcont, tabs, X, L, obase, Pk, Wo, Do, Co, Y, LY, B,
                   BL, acc, lacc, cacc, clacc)
        if not _solve_rows(B, fh, nF, M, x) or not _solve_rows(BL, fh, nF, M, lx):
            out[2] = 1.0
            return
        r1, r2 = _store(a, b, pol0, B, BL, x, lx, X, L)
        dw = max(dw, r1)
        dl = max(dl, r2)
    out[0] = dw
    out[1] = dl


@kernel
def _record(Do, cont_start, node_s, row):
    """Optimal decisions ``Do`` (-1 stop, else a continuation) as a decision
    table's row: 0 stop, ``c + 1`` the state's ``c``-th way to go on."""
    for nd in range(row.shape[0]):
        d = Do[nd]
        row[nd] = 0 if d < 0 else d - cont_start[node_s[nd]] + 1


@parallel_kernel
def match_pairs(pairs, groups, nt, need_opt, cf, tie, cont_start, out_start, out_prob, throws,
                out_kind, out_points, out_h, out_effect, out_penalty, opt_start, opt_gain,
                opt_next, hand_h, pass_ok, hidx, fb, fh, blk_ptr, blk_states, blk_tmax,
                node_base, node_len, obase, onodes, pick, E, mstop, mcont, tabs, V, X, L, nodes,
                out, node_s, D, st, oq, opt_nb, simple):
    """Evaluate every pair of ``pairs`` (rows ``(a, b)``, ``a <= b``, by
    decreasing score sum; ``groups`` bound the sums). The pairs of one sum
    read only pairs of larger sums, so they run side by side on ``nt``
    threads. Where scores can fall a pair also reads pairs of smaller
    sums, which run after it: it reads them as the last pass left them,
    whatever the threads. With ``D`` of more
    than one row, optimal play's decisions are recorded into it
    (:func:`optimal_decisions`' table, below the goal)."""
    nF = fh.shape[0]
    K1 = 2 * nF + 1
    H = X.shape[2]
    Wo = np.zeros((nt, 2, nodes))
    Pk = np.zeros((nt, 2, onodes), dtype=np.int64)
    Do = np.zeros((nt, 2, nodes), dtype=np.int64)
    Co = np.zeros((nt, 2, nodes), dtype=np.int64)
    Y = np.zeros((nt, 2, nodes, K1))
    LY = np.zeros((nt, 2, nodes, K1))
    # the small per-thread rows PAD numbers apart, so that two threads'
    # rows never share a cache line (a die's turn starts are one row)
    PAD = 16
    B = np.zeros((nt, 2, H + PAD, K1))
    BL = np.zeros((nt, 2, H + PAD, K1))
    acc = np.zeros((nt, K1 + PAD))
    lacc = np.zeros((nt, K1 + PAD))
    cacc = np.zeros((nt, K1 + PAD))
    clacc = np.zeros((nt, K1 + PAD))
    M = np.zeros((nt, K1 - 1 + PAD, K1))
    x = np.zeros((nt, K1 - 1 + PAD))
    lx = np.zeros((nt, K1 - 1 + PAD))
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            t = numba.get_thread_id()
            _pair(pairs[m, 0], pairs[m, 1], need_opt, cf, tie, cont_start, out_start, out_prob,
                  throws,
                  out_kind, out_points, out_h, out_effect, out_penalty, opt_start, opt_gain,
                  opt_next, hand_h, pass_ok, hidx, fb, fh, blk_ptr, blk_states, blk_tmax,
                  node_base, node_len, obase, pick, E, mstop, mcont, tabs, V, X, L, Pk[t], Wo[t],
                  Do[t], Co[t], Y[t],
                  LY[t], B[t, :, :H], BL[t, :, :H], acc[t, :K1], lacc[t, :K1], cacc[t, :K1],
                  clacc[t, :K1], M[t, :K1 - 1], x[t, :K1 - 1], lx[t, :K1 - 1], out[m], node_s, D,
                  st, oq, opt_nb, simple)


@parallel_kernel
def optimal_decisions(n, nt, goal, lo, min_bank, tie, cont_start, out_start, out_prob, out_kind,
                      out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
                      hand_h, pass_ok, blk_ptr, blk_states, blk_tmax, node_base, node_len, obase,
                      node_s, V, onodes, D, oq, st, simple):
    """Optimal play's decision at every position, ``D[a, b, node]``: 0 stop,
    ``c + 1`` its ``c``-th way to go on (the decision tables of
    :mod:`designer.engine.policy_tables`), from the solved start table
    ``V[i, h, j]`` with the solver's ties (:func:`_opt_side`), at every turn total
    below the goal (the rest of a row is left as it was). The pairs are
    independent: ``nt`` threads take them side by side."""
    nodes = D.shape[2]
    Wo = np.zeros((nt, nodes))
    Do = np.zeros((nt, nodes), dtype=np.int64)
    Co = np.zeros((nt, nodes), dtype=np.int64)
    Pk = np.zeros((nt, onodes), dtype=np.int64)
    for m in prange(n * n):
        t = numba.get_thread_id()
        ma = m // n
        mb = m - ma * n
        if simple:
            _opt_simple(ma, mb, goal, lo, min_bank, tie, st, out_start, out_prob, oq, blk_states,
                        V, Wo[t], Do[t], Co[t])
        else:
            _opt_side(ma, mb, goal, lo, min_bank, tie, cont_start, out_start, out_prob, out_kind,
                      out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
                      hand_h, pass_ok, blk_ptr, blk_states, blk_tmax, node_base, node_len, obase,
                      V, Wo[t], Do[t], Co[t], Pk[t], oq)
        _record(Do[t], cont_start, node_s, D[ma, mb])
