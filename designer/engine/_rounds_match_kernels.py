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
from designer.engine._linear import gauss_jordan
from designer.engine._match_kernels import HOLD_AT, OPTIMAL, _option

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
def turn(kind, hold_n, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
         cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start, opt_gain,
         opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, stopW, stopL, stopO, W, LW,
         WO, cacc, clacc, resW, resL, resO):
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
    where stopping wins. The turn's start values go to ``resW[h]``,
    ``resL[h]`` and, for optimal play, ``resO[h]``."""
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
                elif kind == HOLD_AT:
                    cc = c0 if has else -1
                    stop_me = not has or (allowed and (t >= hold_n or t >= twin))
                else:
                    # (t < Tc: a fixed policy's turn ends from Tc on)
                    cc = mcont[s, t]
                    if cc < 0 and has:
                        cc = c0
                    stop_me = not has or mstop[s, t] or (allowed and t >= twin)
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
    LW, WO`` (``S`` states, ``Tmax`` totals) and two accumulators."""
    return (np.zeros((nt, Tcl + 1, H, K1)), np.zeros((nt, Tcl + 1, H, K1)),
            np.zeros((nt, Tcl + 1, H)), np.zeros((nt, S, Tmax, K1)), np.zeros((nt, S, Tmax, K1)),
            np.zeros((nt, S, Tmax)), np.zeros((nt, K1)), np.zeros((nt, K1)))


@kernel
def _final_one(d, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie, blk_ptr,
               blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points,
               out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
               mcont, tvO, stopW, stopL, stopO, W, LW, WO, cacc, clacc, FW, FL, FO):
    """Seat 2 (policy ``kind``) at the start of a final-round turn ``d``
    points behind, ``d = 0 .. D`` (``d = 0``: a tie round's second turn):
    ``FW[d, h]``, ``FL[d, h]`` affine in the tie round's start values
    (replay: a tie is worth ``1 - T[h]`` to seat 2, and ``T[h]``'s actions
    follow; earlier-seat: nothing), ``FO[d, h]`` at the solve's values
    (``tvO[h]``: the solve's value of a tie to seat 2)."""
    H = FW.shape[1]
    K1 = FW.shape[2]
    if kind == OPTIMAL:
        Tend = max(d + 1, min_bank)
        Tcl = Tend
    else:
        Tend = Tfix
        if bank_wins:
            Tend = min(Tend, max(d + 1, min_bank, 1))
        Tcl = Tend - 1 + gmax
    for u in range(Tcl + 1):
        for hh in range(H):
            for k in range(K1):
                stopW[u, hh, k] = 0.0
                stopL[u, hh, k] = 0.0
            if u > d:
                stopW[u, hh, 0] = 1.0
                stopO[u, hh] = 1.0
            elif u == d:
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
         mcont, stopW, stopL, stopO, W, LW, WO, cacc, clacc, FW[d], FL[d], FO[d])


@parallel_kernel
def final_round(D, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie, blk_ptr,
                blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points,
                out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
                mcont, tvO, S, Tmax, Tcl, nt, FW, FL, FO):
    """Seat 2's final-round turns for every ``d = 0 .. D``
    (:func:`_final_one`), taken by ``nt`` threads side by side (each ``d``
    reads only the tie round's unknowns), each with its own scratch
    (``S`` states, ``Tmax`` turn totals, ``Tcl`` ends)."""
    H = FW.shape[1]
    K1 = FW.shape[2]
    stopW, stopL, stopO, W, LW, WO, cacc, clacc = _turn_tables(nt, S, Tmax, Tcl, H, K1)
    for d in prange(D + 1):
        t = numba.get_thread_id()
        _final_one(d, replay, kind, hold_n, Tfix, bank_wins, gmax, min_bank, forced, tie,
                   blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
                   out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick,
                   E, Tc, mstop, mcont, tvO, stopW[t], stopL[t], stopO[t], W[t], LW[t], WO[t],
                   cacc[t], clacc[t], FW, FL, FO)


@kernel
def _open_pair(a, b, G, C, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced, tie,
               blk_ptr, blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind,
               out_points, out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick,
               E, Tc, mstop, mcont, Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, stopW, stopL, stopO,
               W, LW, WO, cacc, clacc, y2W, y2L, y2O, rW, rL, rO, x, lx):
    """Pair ``(a, b)`` of :func:`open_rounds` (its inputs, the pairs of larger
    sums, evaluated); False when its turns never end."""
    H = XW.shape[2]
    K1 = H + 1
    big = 1 << 62
    # seat 2 after seat 1 scored nothing: unknowns x = X[a, b]
    if k2 == OPTIMAL:
        Tend = max(G - b, min_bank)
        Tcl = Tend
    else:
        Tend = T2
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
            elif u == 0:
                stopW[u, hh, 0] = 1.0
                stopW[u, hh, 1 + hh] = -1.0
                stopL[u, hh, 1 + hh] = 1.0
                stopO[u, hh] = 1.0 - Xs[a, b, hh]
            else:
                stopW[u, hh, 0] = 1.0 - XW[a, b + u, hh]
                stopL[u, hh, 0] = XL[a, b + u, hh]
                stopO[u, hh] = 1.0 - Xs[a, b + u, hh]
    twin = G - b if bank_wins else big
    turn(k2, n2, twin, Tend, Tcl, min_bank, forced, tie, blk_ptr,
         blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points, out_h,
         opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont,
         stopW, stopL, stopO, W, LW, WO, cacc, clacc, y2W, y2L, y2O)
    # seat 1 at (a, b)
    if k1 == OPTIMAL:
        Tend = C - a
        Tcl = Tend
    else:
        Tend = T1
        Tcl = Tend - 1 + gmax
    for u in range(Tcl + 1):
        A = a + u
        for hh in range(H):
            for k in range(K1):
                stopW[u, hh, k] = 0.0
                stopL[u, hh, k] = 0.0
            if u == 0:
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
                stopW[u, hh, 0] = 1.0 - FW[dd, hh]
                stopL[u, hh, 0] = FL[dd, hh]
                stopO[u, hh] = 1.0 - Fs[dd, hh]
    turn(k1, n1, big, Tend, Tcl, min_bank, forced, tie, blk_ptr, blk_states, tmin,
         cont_start, out_start, out_prob, throws, out_kind, out_points, out_h, opt_start,
         opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop, mcont, stopW,
         stopL, stopO, W, LW, WO, cacc, clacc, rW, rL, rO)
    if not _solve_small(rW, x) or not _solve_small(rL, lx):
        return False
    for h in range(H):
        XW[a, b, h] = x[h]
        XL[a, b, h] = lx[h]
        w = y2W[h, 0]
        la = y2L[h, 0]
        for k in range(H):
            w += y2W[h, 1 + k] * x[k]
            la += y2L[h, 1 + k] * lx[k]
        YW[b, a, h] = w
        YL[b, a, h] = la
    return True


@parallel_kernel
def open_rounds(G, C, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank, forced, tie, blk_ptr,
                blk_states, tmin, cont_start, out_start, out_prob, throws, out_kind, out_points,
                out_h, opt_start, opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
                mcont, Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, S, Tmax, Tcl, nt):
    """The open rounds (both scores below the goal) of one seating: seat 1
    plays policy ``k1`` (``hold-at`` threshold ``n1``, a fixed policy's
    turn ends from total ``T1`` on), seat 2 ``k2`` (``n2``, ``T2``). Pairs
    ``(a, b)`` by decreasing ``a + b`` (:func:`_open_pair`; the pairs of
    one sum read only larger sums, so ``nt`` threads take them side by
    side, each with its own scratch: ``S`` states, ``Tmax`` turn totals,
    ``Tcl`` ends): seat 2's turn after seat 1 scored nothing, affine in the
    pair's unknowns ``X[a, b, h]``, then seat 1's, and the unknowns' rows
    solved exactly. ``FW``, ``FL``: seat 2's final round (numbers), ``Xs``,
    ``Ys``, ``Fs``: the solve's tables (optimal play's decisions). Writes
    ``XW, XL`` (seat 1 at a round's start) and ``YW, YL`` (``[b, a]``: seat
    2 to move after seat 1 ended at ``a``). Returns -1, or the index ``a *
    G + b`` of a pair whose turns never end."""
    H = XW.shape[2]
    K1 = H + 1
    stopW, stopL, stopO, W, LW, WO, cacc, clacc = _turn_tables(nt, S, Tmax, Tcl, H, K1)
    y2W = np.zeros((nt, H, K1))
    y2L = np.zeros((nt, H, K1))
    y2O = np.zeros((nt, H))
    rW = np.zeros((nt, H, K1))
    rL = np.zeros((nt, H, K1))
    rO = np.zeros((nt, H))
    x = np.zeros((nt, H))
    lx = np.zeros((nt, H))
    bad = np.full(1, -1, dtype=np.int64)
    for total in range(2 * G - 2, -1, -1):
        a0 = max(0, total - (G - 1))
        for q in prange(min(total, G - 1) + 1 - a0):
            a = a0 + q
            b = total - a
            t = numba.get_thread_id()
            if not _open_pair(a, b, G, C, k1, n1, T1, k2, n2, T2, bank_wins, gmax, min_bank,
                              forced, tie, blk_ptr, blk_states, tmin, cont_start, out_start,
                              out_prob, throws, out_kind, out_points, out_h, opt_start,
                              opt_gain, opt_next, hand_h, hidx, pass_ok, pick, E, Tc, mstop,
                              mcont, Xs, Ys, Fs, FW, FL, XW, XL, YW, YL, stopW[t], stopL[t],
                              stopO[t], W[t], LW[t], WO[t], cacc[t], clacc[t], y2W[t], y2L[t],
                              y2O[t], rW[t], rL[t], rO[t], x[t], lx[t]):
                bad[0] = a * G + b
        if bad[0] >= 0:
            return bad[0]
    return -1
