"""Numba kernels of a match between two fixed policies under the rounds
ending (two seats).

Arrays in, preallocated arrays out; :mod:`designer.engine.rounds_match`
has the mathematics. Every value is carried as an affine function of a
few unknowns (a vector of ``K1`` numbers: a constant, then one coefficient
per unknown), win probabilities and expected actions side by side; the
optimal mover's decisions are taken at the same positions from one
number per position, read from the rounds solve's tables.

A turn is swept as the rounds solver sweeps it: block by block (the
strongly connected components of the moves within a turn, successors
first), each block from its largest total down.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._kernels import _at
from designer.engine._linear import gauss_jordan
from designer.engine._match_kernels import HOLD_AT, OPTIMAL, TABLE, _option

# kinds (mirrors of designer.engine.model)
_BUST = 0
_CHOOSE = 1
_END = 2


@kernel
def _pick_opt(o, t, Tend, Tcl, tie, opt_start, opt_gain, opt_next, hand_h, stopO, WO):
    """The option optimal play takes at choice outcome ``o`` from total
    ``t``: the first listed unless another beats it by more than ``tie``,
    at the solve's values (a total from ``Tend`` on ends the turn)."""
    bo = -1
    bn = 0.0
    for r in range(opt_start[o], opt_start[o + 1]):
        u = t + opt_gain[r]
        s2 = opt_next[r]
        n = stopO[min(u, Tcl), hand_h[s2]] if u >= Tend else WO[s2, u]
        if bo < 0 or n > bn + tie:
            bo = r
            bn = n
    return bo


@kernel
def _cont_opt(c, t, Tend, Tcl, tie, out_start, out_prob, out_kind, out_points, out_h, opt_start,
              opt_gain, opt_next, hand_h, stopO, WO):
    """Continuation ``c``'s value at ``(s, t)`` at the solve's values."""
    v = 0.0
    for o in range(out_start[c], out_start[c + 1]):
        p = out_prob[o]
        k = out_kind[o]
        if k == _CHOOSE:
            r = _pick_opt(o, t, Tend, Tcl, tie, opt_start, opt_gain, opt_next, hand_h, stopO, WO)
            u = t + opt_gain[r]
            s2 = opt_next[r]
            v += p * (stopO[min(u, Tcl), hand_h[s2]] if u >= Tend else WO[s2, u])
        elif k == _END:
            v += p * stopO[min(t + out_points[o], Tcl), out_h[o]]
        else:
            v += p * stopO[0, out_h[o]]
    return v


@kernel
def fixed_decision(kind, s, t, c0, has, allowed, hold_n, twin, dec, node_base, node_len, mstop,
                   mcont):
    """A fixed policy's decision at ``(s, t)``: ``(cc, stop)``, the
    continuation it takes (its first, or the ``c``-th of a table's, or
    ``max-score``'s; -1 where the state has none) and whether it stops
    (:func:`turn` says when)."""
    if kind == HOLD_AT:
        cc = c0 if has else -1
        stop = not has or (allowed and (t >= hold_n or t >= twin))
    elif kind == TABLE:
        v = dec[node_base[s] + t] if t < node_len[s] else 0
        cc = (c0 + v - 1 if v > 0 else c0) if has else -1
        stop = not has or (allowed and (v == 0 or t >= twin))
    else:  # max-score (t < Tc: its turn ends from Tc on)
        cc = mcont[s, t]
        if cc < 0 and has:
            cc = c0
        stop = not has or mstop[s, t] or (allowed and t >= twin)
    return cc, stop


@kernel
def turn(kind, hold_n, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
         cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start, opt_gain,
         opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, dec,
         rec, stopW, stopL, stopO, W, LW, WO, cacc, clacc, resW, resL, resO):
    """One turn of a mover playing policy ``kind``, swept backwards.

    ``stopW[u, h]``, ``stopL[u, h]`` (affine, ``K1`` numbers): the mover's
    win and the game's actions left after the turn ends with total ``u``
    (``u <= Tcl``; a larger total reads ``Tcl``: the solve's cap) and the
    next turn starts from start ``h``; a stop adds one action. Positions
    from total ``Tend`` on end the turn at once (a stop). ``stopO[u, h]``:
    the same end at the solve's values, from which optimal play decides
    (``kind`` OPTIMAL; ``WO`` its in-turn values). A fixed policy stops at
    ``(s, t)`` where stopping is allowed and ``t >= hold_n`` (``hold-at``),
    or where ``mstop`` says so (``max-score``), and also, from ``twin`` on,
    where stopping wins. A table policy (``TABLE``) reads its decision at
    ``(s, t)`` from ``dec[node_base[s] + t]`` (the mover's slice of its
    table at the scores of this turn: 0 stop, ``c`` the ``c``-th way to go
    on) where stopping is allowed, and goes on with the first way where it
    is not. The turn's start values go to ``resW[h]``, ``resL[h]`` and, for
    optimal play, ``resO[h]``; optimal play also records its decision at
    ``(s, t)`` in ``rec[node_base[s] + t]`` (0 stop, ``c`` the ``c``-th way
    to go on) where ``t < node_len[s]``, unless ``rec`` is empty."""
    K1 = stopW.shape[2]
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
                bn = 0.0
                if opt:
                    cc = -1
                    for c in range(c0, c1):
                        v = _cont_opt(c, t, Tend, Tcl, tie, out_start, out_prob, out_kind,
                                      out_points, out_h, opt_start, opt_gain, opt_next, hand_h,
                                      stopO, WO)
                        if cc < 0 or v > bn + tie:
                            cc = c
                            bn = v
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
                    for k in range(K1):
                        cacc[k] = 0.0
                        clacc[k] = 0.0
                    clacc[0] = throws[cc]  # the throw or draw (rolls folded away too)
                    for o in range(out_start[cc], out_start[cc + 1]):
                        p = out_prob[o]
                        ok = out_kind[o]
                        if ok == _CHOOSE:
                            if opt:
                                r = _pick_opt(o, t, Tend, Tcl, tie, opt_start, opt_gain,
                                              opt_next, hand_h, stopO, WO)
                            else:
                                r = _option(o, t, kind, opt_start, opt_gain, opt_next, E, Tc,
                                            pick)
                            u = t + opt_gain[r]
                            s2 = opt_next[r]
                            if u >= Tend:  # the turn ends there with a stop
                                uc = min(u, Tcl)
                                h2 = hand_h[s2]
                                for k in range(K1):
                                    cacc[k] += p * stopW[uc, h2, k]
                                    clacc[k] += p * stopL[uc, h2, k]
                                clacc[0] += p
                            else:
                                for k in range(K1):
                                    cacc[k] += p * W[s2, u, k]
                                    clacc[k] += p * LW[s2, u, k]
                        else:
                            uc = min(t + out_points[o], Tcl) if ok == _END else 0
                            h2 = out_h[o]
                            for k in range(K1):
                                cacc[k] += p * stopW[uc, h2, k]
                                clacc[k] += p * stopL[uc, h2, k]
                if stop_me:
                    for k in range(K1):
                        W[s, t, k] = stopW[tc, hs, k]
                        LW[s, t, k] = stopL[tc, hs, k]
                    LW[s, t, 0] += 1.0  # the stop
                else:
                    for k in range(K1):
                        W[s, t, k] = cacc[k]
                        LW[s, t, k] = clacc[k]
                if start:
                    h = hidx[s]
                    src_c = forced and cc >= 0
                    for k in range(K1):
                        resW[h, k] = cacc[k] if src_c else W[s, t, k]
                        resL[h, k] = clacc[k] if src_c else LW[s, t, k]
                    if opt:
                        resO[h] = bn if (forced and has) else WO[s, t]


@kernel
def _solve_small(R, x):
    """``x = R[:, 0] + R[:, 1:] x`` by Gaussian elimination with partial
    pivoting; False when singular (turns that never end)."""
    H = x.shape[0]
    M = np.zeros((H, H + 1))
    for i in range(H):
        for j in range(H):
            M[i, j] = -R[i, 1 + j]
        M[i, i] += 1.0
        M[i, H] = R[i, 0]
    return gauss_jordan(M, x, 1e-14)


@kernel
def _turn_tables(nt, S, Tmax, Tcl, H, K1):
    """Each of ``nt`` threads' scratch for :func:`turn`: the turn's ends
    ``stopW, stopL, stopO`` (totals ``0 .. Tcl``), its in-turn values ``W,
    LW, WO`` (``S`` states, ``Tmax`` totals) and two accumulators. The
    accumulators, written at every outcome, are padded to a cache line of
    their own per thread: side by side, two threads writing them took five
    times as long as one (Farkle to 2,000, a chasing rule)."""
    pad = K1 + 16
    return (np.zeros((nt, Tcl + 1, H, K1)), np.zeros((nt, Tcl + 1, H, K1)),
            np.zeros((nt, Tcl + 1, H)), np.zeros((nt, S, Tmax, K1)), np.zeros((nt, S, Tmax, K1)),
            np.zeros((nt, S, Tmax)), np.zeros((nt, pad)), np.zeros((nt, pad)))


@kernel
def _final_one(d, tcap, tend, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie,
               blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
               out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E,
               Tc, mstop, mcont, node_base, node_len, dec, norec, tvO, stopW, stopL, stopO, W,
               LW, WO, cacc, clacc, fw, fl, fo):
    """Seat 2 (policy ``kind``) at the start of a final-round turn ``d``
    points behind (``d = 0``: a tie round's second turn): ``fw[h]``,
    ``fl[h]`` affine in the tie round's start values (replay: a tie is
    worth ``1 - T[h]`` to seat 2, and ``T[h]``'s actions follow;
    earlier-seat: nothing), ``fo[h]`` at the solve's values (``tvO[h]``:
    the solve's value of a tie to seat 2). The turn ends at the latest at
    total ``tcap`` (seat 2's score at the cap), a table policy's from
    ``tend`` on (past its last "go on" at these scores)."""
    H = fw.shape[0]
    K1 = fw.shape[1]
    if kind == OPTIMAL:
        Tend = min(max(d + 1, min_bank), tcap)
        Tcl = Tend
    else:
        Tend = min(tcap, Tfix) if kind != TABLE else min(tcap, tend)
        if bank_wins:
            Tend = min(Tend, max(d + 1, min_bank, 1))
        Tcl = Tend - 1 + gmax
    for u in range(Tcl + 1):
        uc = min(u, tcap)  # seat 2's score stops at the cap
        for hh in range(H):
            for k in range(K1):
                stopW[u, hh, k] = 0.0
                stopL[u, hh, k] = 0.0
            if uc > d:
                stopW[u, hh, 0] = 1.0
                stopO[u, hh] = 1.0
            elif uc == d:
                stopO[u, hh] = tvO[hh]
                if replay:
                    stopW[u, hh, 0] = 1.0
                    stopW[u, hh, 1 + hh] = -1.0
                    stopL[u, hh, 1 + hh] = 1.0
            else:
                stopO[u, hh] = 0.0
    twin = d + 1 if bank_wins else 1 << 62
    turn(kind, hold_n, twin, Tend, Tcl, min_bank, forced, tie,
         blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points,
         out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
         mcont, node_base, node_len, dec, norec, stopW, stopL, stopO, W, LW, WO, cacc, clacc, fw,
         fl, fo)


@parallel_kernel
def final_round(D, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie, blk_ptr,
                blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points,
                out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
                mcont, node_base, node_len, tab, tvO, S, Tmax, Tcl, nt, FW, FL, FO):
    """Seat 2's final-round turns for every ``d = 0 .. D``
    (:func:`_final_one`), taken by ``nt`` threads side by side (each ``d``
    reads only the tie round's unknowns), each with its own scratch
    (``S`` states, ``Tmax`` turn totals, ``Tcl`` ends)."""
    H = FW.shape[1]
    K1 = FW.shape[2]
    stopW, stopL, stopO, W, LW, WO, cacc, clacc = _turn_tables(nt, S, Tmax, Tcl, H, K1)
    norec = np.zeros(0, dtype=np.int8)  # nothing recorded in a final round
    for d in prange(D + 1):
        t = numba.get_thread_id()
        # int64 arguments, not prange's index type or literal constants:
        # _final_one compiles once for both of its callers
        _final_one(np.int64(d), np.int64(1 << 62), np.int64(1 << 62), replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced,
                   tie, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws,
                   out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx,
                   pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab[0, 0], norec,
                   tvO, stopW[t], stopL[t], stopO[t], W[t], LW[t], WO[t], cacc[t], clacc[t], FW[d],
                   FL[d], FO[d])


@parallel_kernel
def final_level(A, C, b0, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie,
                blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
                out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E,
                Tc, mstop, mcont, node_base, node_len, tab, tends, tvO, S, Tmax, Tcl, nt, FW, FL,
                FO):
    """Seat 2's final-round turns against seat 1 at score ``A`` for every
    score ``b = b0 .. min(A, C - 1)`` of its own, by absolute scores:
    ``FW[b]``, ``FL[b]``, ``FO[b]`` as :func:`_final_one` with ``d = A - b``,
    seat 2's score stopping at the cap ``C`` and a table policy reading
    ``tab[b, A]`` (its turn over from ``tends[b, A]`` on). The ``nt``
    threads take every ``nt``-th ``b``, each with its own scratch."""
    H = FW.shape[1]
    K1 = FW.shape[2]
    stopW, stopL, stopO, W, LW, WO, cacc, clacc = _turn_tables(nt, S, Tmax, Tcl, H, K1)
    norec = np.zeros(0, dtype=np.int8)  # nothing recorded in a final round
    n = min(A, C - 1) + 1 - b0
    # interleaved: a small b is a long chase, a large one short
    for t in prange(nt):
        for q in range(t, n, nt):
            b = b0 + q
            dec = tab[b, A] if kind == TABLE else tab[0, 0]
            te = tends[b, A] if kind == TABLE else 1 << 62
            _final_one(A - b, C - b, te, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank,
                       forced, tie, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob,
                       throws, out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h,
                       hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, dec, norec,
                       tvO, stopW[t], stopL[t], stopO[t], W[t], LW[t], WO[t], cacc[t], clacc[t], FW[b],
                       FL[b], FO[b])


@kernel
def _open_pair(a, b, G, C, absolute, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced,
               tie, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
               out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E,
               Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1, tends2, OD, Xs, Ys, Fs,
               FW, FL, XW, XL, YW, YL, fb, nF, chained, passes, stopW, stopL, stopO, W, LW, WO,
               cacc, clacc, y2W, y2L, y2O, rW, rL, rO, aW, aL, MW, ML, x, lx):
    """Pair ``(a, b)`` of :func:`open_rounds` (its inputs, the pairs of larger
    sums, evaluated); False when its turns never end.

    The unknowns are the start values at the pair's ``nF`` feedback states
    (``fb[h]``: the index of start ``h`` among them, or -1): seat 1's, and
    with ``chained`` seat 2's too. Without ``chained`` every turn that
    scores nothing hands over at a feedback state: seat 2's turn is swept
    first, affine in seat 1's unknowns, then seat 1's, which reads seat 2's
    rows. With ``chained`` (such a turn can hand over elsewhere: a deck's
    bust before its last bad item) a turn that scores nothing hands the
    other seat either an unknown (a feedback state) or that seat's row:
    seat 2's of this pass, seat 1's ``aW[h], aL[h]`` of the previous pass
    (0 at the first). The two turns are swept ``passes`` times: the
    feedback states cut every cycle of such turns, so each pass settles one
    more link of their chains (the count:
    :func:`designer.engine.rounds_match.open_unknowns`). ``MW, ML``: the
    unknowns' own rows."""
    rec_on = OD.shape[3] > 0
    rec1 = OD[0, a, b] if rec_on and k1 == OPTIMAL else OD[0, 0, 0, :0]
    rec2 = OD[1, b, a] if rec_on and k2 == OPTIMAL else OD[0, 0, 0, :0]
    H = XW.shape[2]
    K1 = rW.shape[1]
    big = np.int64(1 << 62)  # int64, not a literal: one compilation of turn
    for h in range(H):
        for k in range(K1):
            aW[h, k] = 0.0
            aL[h, k] = 0.0
    for _ in range(passes):
        _open_turns(a, b, G, C, absolute, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank,
                    forced, tie, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob,
                    throws, out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h,
                    hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1, tab2,
                    tends1, tends2, Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, fb, nF, chained, rec1,
                    rec2, big, stopW, stopL, stopO, W, LW, WO, cacc, clacc, y2W, y2L, y2O, rW,
                    rL, rO, aW, aL)
        for h in range(H):
            for k in range(K1):
                aW[h, k] = rW[h, k]
                aL[h, k] = rL[h, k]
    # the unknowns' own rows (seat 1, then seat 2, at the feedback states)
    for h in range(H):
        f = fb[h]
        if f < 0:
            continue
        for k in range(K1):
            MW[f, k] = rW[h, k]
            ML[f, k] = rL[h, k]
            if chained:
                MW[nF + f, k] = y2W[h, k]
                ML[nF + f, k] = y2L[h, k]
    if not _solve_small(MW, x) or not _solve_small(ML, lx):
        return False
    for h in range(H):
        XW[a, b, h] = _at(rW[h], x)
        XL[a, b, h] = _at(rL[h], lx)
        YW[b, a, h] = _at(y2W[h], x)
        YL[b, a, h] = _at(y2L[h], lx)
    return True


@kernel
def _open_turns(a, b, G, C, absolute, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced,
                tie, blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws,
                out_kind, out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx,
                pass_ok, pick, E, Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1,
                tends2, Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, fb, nF, chained, rec1, rec2, big,
                stopW, stopL, stopO, W, LW, WO, cacc, clacc, y2W, y2L, y2O, rW, rL, rO, aW, aL):
    """One pass of :func:`_open_pair`: seat 2's turn after seat 1 scored
    nothing (into ``y2W, y2L, y2O``), then seat 1's (``rW, rL, rO``), each
    start's values affine in the unknowns."""
    H = rW.shape[0]
    K1 = rW.shape[1]
    # seat 2 after seat 1 scored nothing: unknowns x = X[a, b]
    if k2 == OPTIMAL:
        Tend = max(G - b, min_bank)
        Tcl = Tend
    else:
        Tend = min(C - b, tends2[b, a]) if k2 == TABLE else T2
        if bank_wins:
            Tend = min(Tend, max(G - b, min_bank, 1))
        Tcl = Tend - 1 + gmax
    for u in range(Tcl + 1):
        for hh in range(H):
            for k in range(K1):
                stopW[u, hh, k] = 0.0
                stopL[u, hh, k] = 0.0
            if b + u >= G:  # a hold at the goal wins
                stopW[u, hh, 0] = 1.0
                stopO[u, hh] = 1.0
            elif u == 0:  # the next round starts at hh: seat 1's value there
                f = fb[hh]
                if f >= 0:
                    stopW[u, hh, 0] = 1.0
                    stopW[u, hh, 1 + f] = -1.0
                    stopL[u, hh, 1 + f] = 1.0
                else:
                    for k in range(K1):
                        stopW[u, hh, k] = -aW[hh, k]
                        stopL[u, hh, k] = aL[hh, k]
                    stopW[u, hh, 0] += 1.0
                stopO[u, hh] = 1.0 - Xs[a, b, hh]
            else:
                stopW[u, hh, 0] = 1.0 - XW[a, b + u, hh]
                stopL[u, hh, 0] = XL[a, b + u, hh]
                stopO[u, hh] = 1.0 - Xs[a, b + u, hh]
    twin = G - b if bank_wins else big
    dec = tab2[b, a] if k2 == TABLE else tab2[0, 0]
    turn(k2, n2, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr,
         blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points, out_h,
         opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont,
         node_base, node_len, dec, rec2, stopW, stopL, stopO, W, LW, WO, cacc, clacc, y2W, y2L,
         y2O)
    # seat 1 at (a, b)
    if k1 == OPTIMAL:
        Tend = C - a
        Tcl = Tend
    elif k1 == TABLE:
        Tend = min(C - a, tends1[a, b])
        Tcl = Tend - 1 + gmax
    else:
        Tend = T1
        Tcl = Tend - 1 + gmax
    for u in range(Tcl + 1):
        A = a + u
        for hh in range(H):
            for k in range(K1):
                stopW[u, hh, k] = 0.0
                stopL[u, hh, k] = 0.0
            if u == 0:  # seat 2 moves at hh: an unknown (chained) or its row
                f = fb[hh]
                if chained and f >= 0:
                    stopW[u, hh, 0] = 1.0
                    stopW[u, hh, 1 + nF + f] = -1.0
                    stopL[u, hh, 1 + nF + f] = 1.0
                else:
                    for k in range(K1):
                        stopW[u, hh, k] = -y2W[hh, k]
                        stopL[u, hh, k] = y2L[hh, k]
                    stopW[u, hh, 0] += 1.0
                stopO[u, hh] = 1.0 - Ys[b, a, hh]
            elif A < G:
                stopW[u, hh, 0] = 1.0 - YW[b, A, hh]
                stopL[u, hh, 0] = YL[b, A, hh]
                stopO[u, hh] = 1.0 - Ys[b, A, hh]
            else:
                dd = min(A - b, C)
                if absolute:  # seat 1's score stops at the cap
                    stopW[u, hh, 0] = 1.0 - FW[min(A, C) - G, b, hh]
                    stopL[u, hh, 0] = FL[min(A, C) - G, b, hh]
                else:
                    stopW[u, hh, 0] = 1.0 - FW[dd, 0, hh]
                    stopL[u, hh, 0] = FL[dd, 0, hh]
                stopO[u, hh] = 1.0 - Fs[dd, hh]
    dec = tab1[a, b] if k1 == TABLE else tab1[0, 0]
    turn(k1, n1, big, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
         cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start,
         opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, node_base,
         node_len, dec, rec1, stopW, stopL, stopO, W, LW, WO, cacc, clacc, rW, rL, rO)


@parallel_kernel
def open_rounds(G, C, absolute, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced, tie,
                blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
                out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E,
                Tc, mstop, mcont, node_base, node_len, tab1, tab2, tends1, tends2, OD, Xs, Ys, Fs,
                FW, FL, XW, XL, YW, YL, fb, nF, chained, passes, S, Tmax, Tcl, nt):
    """The open rounds (both scores below the goal) of one seating: seat 1
    plays policy ``k1`` (``hold-at`` threshold ``n1``, a fixed policy's
    turn ends from total ``T1`` on; a table policy reads ``tab1[a, b]``,
    its turn over from ``tends1[a, b]`` on), seat 2 ``k2`` (``n2``, ``T2``,
    ``tab2[b, a]``, ``tends2[b, a]``). Pairs ``(a, b)`` by
    decreasing ``a + b`` (:func:`_open_pair`; the pairs of one sum read
    only larger sums, so ``nt`` threads take them side by side, each with
    its own scratch: ``S`` states, ``Tmax`` turn totals, ``Tcl`` ends):
    seat 2's turn after seat 1 scored nothing, affine in the pair's unknowns
    (seat 1's start values ``X[a, b, h]`` at the ``nF`` feedback states,
    ``fb[h] >= 0``; with ``chained`` seat 2's too, and ``passes`` sweeps so
    that the other starts settle), then seat 1's, and the unknowns' rows
    solved exactly.
    ``FW``, ``FL``: seat 2's final round (numbers), ``FW[d, 0]`` by seat
    1's lead, or with ``absolute`` ``FW[A - G, b]`` by both scores (seat 1's
    score stopping at the cap ``C``); ``Xs``, ``Ys``, ``Fs``: the solve's
    tables (optimal play's decisions). Writes ``XW, XL`` (seat 1 at a
    round's start) and ``YW, YL`` (``[b, a]``: seat 2 to move after seat 1
    ended at ``a``). Optimal play records its open-round decisions in
    ``OD[0, a, b]`` (seat 1 at ``a``, seat 2 at ``b``) and ``OD[1, b, a]``
    (seat 2 to move), over the table plan's nodes, unless ``OD``'s last
    axis is empty. Returns -1, or the index ``a * G + b`` of a pair whose
    turns never end."""
    H = XW.shape[2]
    K = 2 * nF if chained else nF
    K1 = K + 1
    stopW, stopL, stopO, W, LW, WO, cacc, clacc = _turn_tables(nt, S, Tmax, Tcl, H, K1)
    aW = np.zeros((nt, H, K1))
    aL = np.zeros((nt, H, K1))
    MW = np.zeros((nt, K, K1))
    ML = np.zeros((nt, K, K1))
    y2W = np.zeros((nt, H, K1))
    y2L = np.zeros((nt, H, K1))
    y2O = np.zeros((nt, H))
    rW = np.zeros((nt, H, K1))
    rL = np.zeros((nt, H, K1))
    rO = np.zeros((nt, H))
    x = np.zeros((nt, K))
    lx = np.zeros((nt, K))
    bad = np.full(1, -1, dtype=np.int64)
    for total in range(2 * G - 2, -1, -1):
        a0 = max(0, total - (G - 1))
        for q in prange(min(total, G - 1) + 1 - a0):
            a = a0 + q
            b = total - a
            t = numba.get_thread_id()
            if not _open_pair(a, b, G, C, absolute, k1, n1, T1, k2, n2, T2, bank_wins, gmax,
                              min_bank, forced, tie, blk_ptr, blk_states, tmin, cont_start,
                              out_start, out_prob, throws, out_kind, out_points, out_h,
                              opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc,
                              mstop, mcont, node_base, node_len, tab1, tab2, tends1, tends2, OD,
                              Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, fb, nF, chained, passes,
                              stopW[t], stopL[t], stopO[t], W[t], LW[t], WO[t], cacc[t],
                              clacc[t], y2W[t], y2L[t], y2O[t], rW[t], rL[t], rO[t], aW[t], aL[t],
                              MW[t], ML[t], x[t], lx[t]):
                bad[0] = a * G + b
        if bad[0] >= 0:
            return bad[0]
    return -1
