"""Numba kernels of a policy at one seat of a 2-4 seat race, the others
playing the max-n optimum, exactly.

:mod:`designer.engine.seat_match` has the mathematics. The solved win
table fixes every optimal seat's decision; the policy seat decides by its
rule. Values are every seat's win, held per class in the seats of the
class's representative tuple (``rep``'s positions), so that the
probabilities of a turn are plain numbers and each value is affine in the
unknowns: ``c + sum_k e_k y_k`` with ``c`` and each ``y_k`` a vector of
``N`` wins and ``e_k`` a number (``K = N |F|`` unknowns: rotation ``r``'s
feedback start ``f`` is unknown ``r |F| + f``).
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._kernels import (bust_score, OC_KIND, OC_POINTS, OP_CHOICE,
                                      OP_GENERAL, OP_MOVE, ST_BASE, ST_C0, ST_C1, ST_HAND,
                                      ST_LEN, ST_PASS, ST_START, settings)
from designer.engine._linear import gauss_jordan
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE

# mirrors of designer.engine.model (module constants are frozen in at compile time)
_END = 2

# entries of the packed policy settings ``pc``
PC_KIND = 0
PC_HOLD = 1
PC_TC = 2
PC_LEN = 3


@kernel
def _sweep(rep, c, n, cf, pc, tie, st, out_start, out_prob, oq, oc, opt_start, opt_gain,
           opt_next, opt_nb, fb, blk_ptr, blk_states, blk_tmax, V, Z, pick, E, mstop, mcont, tab, W, D,
           PK, tp, WC, WE, BC, BE, pr, bC, bE):
    """One backward sweep over every rotation's turns of the class of
    ``rep`` with the policy at ``rep``'s position ``c``: in each rotation
    ``r`` (``rep[r]`` moving) an optimal mover's in-turn win into ``W``
    (from the solved ``V[prefix, h, last, seat]``, the solver's ties) and
    its decisions, the policy mover's decisions from its rule, and under
    them every seat's win, affine in the unknowns, into ``WC``/``WE`` (per
    node) and ``BC``/``BE`` (per turn start, ``r * H + h``). Other classes'
    values are read from ``Z[prefix, h, last, d, q]`` (``d``: the policy
    seat's place after the mover, ``q``: the seat ``q`` places after the
    mover). An optimal mover's decisions are the same in every cycle:
    found from the wins in the first cycle where it is not the policy seat
    (scalars only), kept in ``D[node] = (decision, continuation)`` with the
    option it takes at each outcome of that continuation (``PK[node, o]``,
    ``tp`` the row being tried), and the vectors are summed for the action
    taken alone."""
    N = rep.shape[0]
    nodes = W.shape[0] // N
    H = BC.shape[0] // N
    nF = bE.shape[0] // N
    K = bE.shape[0]
    goal, lo, min_bank, forced = settings(cf)
    kind, hold, Tc = pc[PC_KIND], pc[PC_HOLD], pc[PC_TC]
    for r in range(N):
        g = 0
        for a in range(1, N):
            g = g * n + rep[(r + a) % N]
        pr[r] = g
    for blk in range(blk_ptr.shape[0] - 1):
        for r in range(N):
            ma = rep[r]
            r2 = (r + 1) % N  # the next mover's rotation
            d2 = (c - r2 + N) % N  # the policy seat's place after the next mover
            mine = r == c and kind != OPTIMAL
            # an optimal mover decides the same in every cycle: in the first
            # cycle where it is not the policy seat (W, D then hold its turn)
            first = c == 0 if r > 0 else c <= 1
            mx = -1  # the highest other score (what a policy reads as the opponent's)
            for a in range(N):
                if a != r and rep[a] > mx:
                    mx = rep[a]
            wo = r * nodes
            mi = ma + lo
            tcap = max(goal - mi, min_bank)
            for t in range(min(blk_tmax[blk], tcap - 1), -1, -1):
                for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                    s = blk_states[q]
                    if t >= st[s, ST_LEN]:
                        continue
                    nd = wo + st[s, ST_BASE] + t
                    hand_s, h_s = st[s, ST_HAND], st[s, ST_START]
                    c0, c1 = st[s, ST_C0], st[s, ST_C1]
                    allowed = t >= min_bank and (t > 0 or st[s, ST_PASS] != 0)
                    start = t == 0 and h_s >= 0
                    # the decision (-1 stop) and the continuation to go on with: the
                    # policy's by its rule; an optimal mover's from its own wins,
                    # scalars only (the vectors are summed for the action taken alone)
                    dd, cc = -1, -1
                    if mine:
                        has = c1 > c0
                        if kind == HOLD_AT:
                            cc = c0 if has else -1
                            dd = -1 if allowed and (t >= hold or not has) else cc
                        elif kind == TABLE:
                            v8 = tab[ma, mx, st[s, ST_BASE] + t]
                            cc = (c0 + v8 - 1 if v8 > 0 else c0) if has else -1
                            dd = -1 if allowed and (v8 == 0 or not has) else cc
                        else:
                            cc = mcont[s, t]
                            dd = -1 if mstop[s, t] else cc
                    elif not first:  # decided in an earlier cycle of this class
                        dd, cc = D[nd, 0], D[nd, 1]
                    else:
                        bestv = -np.inf
                        for cont in range(c0, c1):
                            v = 0.0
                            o0 = out_start[cont]
                            for o in range(o0, out_start[cont + 1]):
                                p = out_prob[o]
                                op = oq[o, 0]
                                if op == OP_MOVE:
                                    tt = t + oq[o, 1]
                                    v += p if tt >= tcap else p * W[wo + oq[o, 2] + tt]
                                    continue
                                if op == OP_CHOICE:  # the option of the best win, kept
                                    bv = -np.inf
                                    kk = -1
                                    for k in range(opt_start[o], opt_start[o + 1]):
                                        t2 = t + opt_gain[k]
                                        val = 1.0 if t2 >= tcap else W[wo + opt_nb[k] + t2]
                                        if val > bv:
                                            bv = val
                                            kk = k
                                    tp[o - o0] = kk
                                    v += p * bv
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
                                            v += p * V[pr[r], h, ma + tot, N - 1]
                                            continue
                                    else:
                                        ns = bust_score(oc, o, mi, lo)
                                v += p * V[pr[r], h, ns - lo, N - 1]
                            if v > bestv:  # ties to the continuation listed first
                                bestv = v
                                cc = cont
                                for k in range(out_start[cont + 1] - o0):
                                    PK[nd, k] = tp[k]
                        dd = cc
                        if allowed:
                            sv = V[pr[r], hand_s, ma + t, N - 1]
                            thr = tie if t > 0 else -tie  # t = 0: a pass
                            if not (cc >= 0 and bestv - sv > thr):
                                dd = -1
                                bestv = sv
                        W[nd] = bestv
                        D[nd, 0], D[nd, 1] = dd, cc
                    for k in range(N):
                        bC[k] = 0.0
                    for k in range(K):
                        bE[k] = 0.0
                    if cc >= 0 and (dd >= 0 or (start and forced)):
                        for o in range(out_start[cc], out_start[cc + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE or op == OP_CHOICE:
                                if op == OP_MOVE:
                                    tt = t + oq[o, 1]
                                    row = wo + oq[o, 2] + tt
                                elif mine:
                                    kk = pick[o]
                                    if kind == MAX_SCORE:  # the best expected points banked
                                        bv = -np.inf
                                        for k in range(opt_start[o], opt_start[o + 1]):
                                            t2 = t + opt_gain[k]
                                            val = E[opt_next[k], t2] if t2 < Tc else float(t2)
                                            if val > bv:
                                                bv = val
                                                kk = k
                                    tt = t + opt_gain[kk]
                                    row = wo + opt_nb[kk] + tt
                                else:  # the option the decision kept
                                    kk = PK[nd, o - out_start[cc]]
                                    tt = t + opt_gain[kk]
                                    row = wo + opt_nb[kk] + tt
                                if tt >= tcap:  # a winning stop follows
                                    bC[r] += p
                                else:
                                    for k in range(N):
                                        bC[k] += p * WC[row, k]
                                    for k in range(K):
                                        bE[k] += p * WE[row, k]
                                continue
                            h = oq[o, 3]
                            ns = mi
                            if op == OP_GENERAL:
                                if oc[o, OC_KIND] == _END:
                                    tot = t + oc[o, OC_POINTS]
                                    if mi + tot >= goal:  # a win: the game is over
                                        bC[r] += p
                                        continue
                                    if tot > 0:
                                        for k in range(N):
                                            bC[(r2 + k) % N] += p * Z[pr[r], h, ma + tot, d2, k]
                                        continue
                                else:
                                    ns = bust_score(oc, o, mi, lo)
                            if ns != mi:  # another class
                                for k in range(N):
                                    bC[(r2 + k) % N] += p * Z[pr[r], h, ns - lo, d2, k]
                            elif fb[h] >= 0:  # the next rotation's start: an unknown
                                bE[r2 * nF + fb[h]] += p
                            else:  # or its row
                                for k in range(N):
                                    bC[k] += p * BC[r2 * H + h, k]
                                for k in range(K):
                                    bE[k] += p * BE[r2 * H + h, k]
                    if start and forced:  # a turn starts with a roll or draw
                        for k in range(N):
                            BC[r * H + h_s, k] = bC[k]
                        for k in range(K):
                            BE[r * H + h_s, k] = bE[k]
                    if dd < 0 and allowed:  # a stop (t = 0: a pass)
                        for k in range(N):
                            bC[k] = 0.0
                        for k in range(K):
                            bE[k] = 0.0
                        if t > 0:
                            for k in range(N):
                                bC[(r2 + k) % N] = Z[pr[r], hand_s, ma + t, d2, k]
                        elif fb[hand_s] >= 0:  # a pass: the next rotation's start
                            bE[r2 * nF + fb[hand_s]] = 1.0
                        else:
                            for k in range(N):
                                bC[k] = BC[r2 * H + hand_s, k]
                            for k in range(K):
                                bE[k] = BE[r2 * H + hand_s, k]
                    for k in range(N):
                        WC[nd, k] = bC[k]
                    for k in range(K):
                        WE[nd, k] = bE[k]
                    if start and not forced:
                        for k in range(N):
                            BC[r * H + h_s, k] = bC[k]
                        for k in range(K):
                            BE[r * H + h_s, k] = bE[k]


@kernel
def _store(rep, c, n, fh, BC, BE, M, y, Y, Z):
    """Solve the unknowns' rows ``Y_k = C_k + sum_j E_kj Y_j`` read from
    ``BC``/``BE`` at the feedback starts (one right-hand side per seat),
    then write every rotation's turn starts of cycle ``c`` into ``Z``.
    Returns the largest change of a stored win, or -1 when the system is
    singular (turns that never end)."""
    N = rep.shape[0]
    nF = fh.shape[0]
    H = BC.shape[0] // N
    K = N * nF
    for a in range(N):
        for k in range(K):
            row = (k // nF) * H + fh[k % nF]
            for j in range(K):
                M[k, j] = -BE[row, j]
            M[k, k] += 1.0
            M[k, K] = BC[row, a]
        if not gauss_jordan(M, y, 1e-14):
            return -1.0
        for k in range(K):
            Y[k, a] = y[k]
    change = 0.0
    for r in range(N):
        g = 0
        for a in range(N - 1):
            g = g * n + rep[(r + a) % N]
        last = rep[(r + N - 1) % N]
        d = (c - r + N) % N
        for h in range(H):
            for q in range(N):
                a = (r + q) % N
                v = BC[r * H + h, a]
                for k in range(K):
                    v += BE[r * H + h, k] * Y[k, a]
                change = max(change, abs(v - Z[g, h, last, d, q]))
                Z[g, h, last, d, q] = v
    return change


@parallel_kernel
def profile_classes(reps, groups, n, nt, nF, cf, pc, tie, st, out_start, out_prob, oq, oc,
                    opt_start, opt_gain, opt_next, opt_nb, fb, fh, blk_ptr, blk_states,
                    blk_tmax, V, Z, pick, E, mstop, mcont, tab, nodes, mo, out):
    """Every class of ``reps`` (by decreasing score sum; ``groups`` bound
    the sums), each with the policy at each of its ``N`` positions in turn.
    The classes of one sum read only classes of larger sums, so they run
    side by side on ``nt`` threads. Where scores can fall a class also
    reads classes of smaller sums, which run after it: it reads them as
    the last pass left them, whatever the threads. ``out[m]``: the class's largest
    change, -1 if its turns never end. ``mo``: the most outcomes of one
    continuation."""
    N = reps.shape[1]
    K = N * nF
    H = Z.shape[1]
    PAD = 16  # each thread's small rows apart (a shared cache line costs 3x)
    W = np.zeros((nt, N * nodes + PAD))
    D = np.zeros((nt, N * nodes + PAD, 2), dtype=np.int64)
    PK = np.zeros((nt, N * nodes + PAD, max(mo, 1)), dtype=np.int64)
    tp = np.zeros((nt, max(mo, 1) + PAD), dtype=np.int64)
    WC = np.zeros((nt, N * nodes + PAD, N))
    WE = np.zeros((nt, N * nodes + PAD, max(K, 1)))
    BC = np.zeros((nt, N * H + PAD, N))
    BE = np.zeros((nt, N * H + PAD, max(K, 1)))
    M = np.zeros((nt, K + PAD, K + 1))
    y = np.zeros((nt, K + PAD))
    Y = np.zeros((nt, K + PAD, N))
    pr = np.zeros((nt, N + PAD), dtype=np.int64)
    bC = np.zeros((nt, N + PAD))
    bE = np.zeros((nt, K + PAD))
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            w = numba.get_thread_id()
            worst = 0.0
            for c in range(N):
                _sweep(reps[m], c, n, cf, pc, tie, st, out_start, out_prob, oq, oc, opt_start,
                       opt_gain, opt_next, opt_nb, fb, blk_ptr, blk_states, blk_tmax, V, Z,
                       pick, E, mstop, mcont, tab, W[w, :N * nodes], D[w, :N * nodes],
                       PK[w, :N * nodes], tp[w], WC[w, :N * nodes],
                       WE[w, :N * nodes, :K], BC[w, :N * H], BE[w, :N * H, :K], pr[w, :N],
                       bC[w, :N], bE[w, :K])
                ch = _store(reps[m], c, n, fh, BC[w, :N * H], BE[w, :N * H, :K], M[w, :K],
                            y[w, :K], Y[w, :K], Z)
                if ch < 0:
                    worst = -1.0
                    break
                worst = max(worst, ch)
            out[m] = worst
