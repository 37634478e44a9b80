"""Numba kernels of the expected game length under max-n play, 2-4 seats, race.

:mod:`designer.engine.seat_length` has the mathematics. The win table is
solved already, so inside a rotation class every win probability is a
number and every decision is taken from it; only the expected actions are
unknown at the feedback starts of the class's rotations, and each in-turn
length is carried as ``K + 1`` numbers, ``c + sum_k e_k y_k`` (``K = N
|F|``: rotation ``r``'s feedback start ``f`` is unknown ``r |F| + f``).
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._kernels import (bust_score, OC_KIND, OC_POINTS, OP_CHOICE,
                                      OP_GENERAL, OP_MOVE, ST_BASE, ST_C0, ST_C1, ST_HAND,
                                      ST_LEN, ST_PASS, ST_START, settings)
from designer.engine._linear import gauss_jordan

# mirrors of designer.engine.model (module constants are frozen in at compile time)
_END = 2


@kernel
def _sweep(rep, n, cf, tie, st, out_start, out_prob, throws, oq, oc, opt_start, opt_gain,
           opt_nb, fb, blk_ptr, blk_states, blk_tmax, V, L, W, WL, BL, pr, cacc, bacc):
    """One backward sweep over every rotation's turns of the class of
    ``rep`` (score indices; rotation ``r`` has seat ``rep[r]`` moving, the
    others after it in seat order): in-turn win probabilities of the mover
    into ``W`` from the solved table, the decisions they give (the solver's
    tie rules), and under them the expected actions left, affine in the
    unknowns, into ``WL[r * nodes + node]`` and the turn starts ``BL[r * H
    + h]``. The tables are held as ``V[prefix, h, last, seat]`` and
    ``L[prefix, h, last]`` (``prefix``: the flat index of a tuple's first
    ``N - 1`` scores, ``last`` its last one), so that the stops of one
    state at ``t = 0, 1, 2, ...``, which read the next mover's tuple with
    this mover's score last, read neighbours in memory. A turn start of the
    next rotation (the same scores, the next seat moving) is added where
    it is met: an unknown at a feedback state, else its row (not through a
    helper: a call that passes arrays costs atomic reference counts)."""
    N = rep.shape[0]
    nodes = W.shape[0] // N
    H = BL.shape[0] // N
    nF = (cacc.shape[0] - 1) // N
    K1 = cacc.shape[0]
    goal, lo, min_bank, forced = settings(cf)
    # pr[r]: the prefix of the tuples the next mover sees after rotation r
    # (every other seat's score, this mover's new score last)
    for r in range(N):
        g = 0
        for a in range(1, N):
            g = g * n + rep[(r + a) % N]
        pr[r] = g
    for blk in range(blk_ptr.shape[0] - 1):
        for r in range(N):
            ma = rep[r]
            r2 = (r + 1) % N  # the next mover's rotation
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
                    bestv = -np.inf
                    for k in range(K1):
                        bacc[k] = 0.0
                    for c in range(st[s, ST_C0], st[s, ST_C1]):
                        v = 0.0
                        for k in range(K1):
                            cacc[k] = 0.0
                        cacc[0] = throws[c]  # the throw or draw (rolls folded away too)
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE or op == OP_CHOICE:
                                if op == OP_MOVE:
                                    tt = t + oq[o, 1]
                                    row = wo + oq[o, 2] + tt
                                else:  # the option of the best win, ties to the first
                                    bv = -np.inf
                                    row = -1
                                    tt = 0
                                    for k in range(opt_start[o], opt_start[o + 1]):
                                        t2 = t + opt_gain[k]
                                        val = 1.0 if t2 >= tcap else W[wo + opt_nb[k] + t2]
                                        if val > bv:
                                            bv = val
                                            tt = t2
                                            row = wo + opt_nb[k] + t2
                                if tt >= tcap:  # a winning stop follows
                                    v += p
                                    cacc[0] += p
                                else:
                                    v += p * W[row]
                                    for k in range(K1):
                                        cacc[k] += p * WL[row, k]
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
                                        cacc[0] += p * L[pr[r], h, ma + tot]
                                        continue
                                else:
                                    ns = bust_score(oc, o, mi, lo)
                            v += p * V[pr[r], h, ns - lo, N - 1]
                            if ns != mi:  # another class
                                cacc[0] += p * L[pr[r], h, ns - lo]
                            elif fb[h] >= 0:  # the next rotation's start: an unknown
                                cacc[1 + r2 * nF + fb[h]] += p
                            else:  # or its row
                                for k in range(K1):
                                    cacc[k] += p * BL[r2 * H + h, k]
                        if v > bestv:
                            bestv = v
                            for k in range(K1):
                                bacc[k] = cacc[k]
                    go = bestv > -np.inf
                    if t == 0 and h_s >= 0 and forced:  # a turn starts with a roll or draw
                        for k in range(K1):
                            BL[r * H + h_s, k] = bacc[k]
                    if t >= min_bank and (t > 0 or st[s, ST_PASS] != 0):  # stopping is allowed
                        sv = V[pr[r], hand_s, ma + t, N - 1]
                        thr = tie if t > 0 else -tie  # t = 0: a pass
                        if not (go and bestv - sv > thr):
                            go = False
                            for k in range(K1):
                                bacc[k] = 0.0
                            bacc[0] = 1.0  # the stop
                            if t > 0:
                                bacc[0] += L[pr[r], hand_s, ma + t]
                            elif fb[hand_s] >= 0:  # a pass: the next rotation's start
                                bacc[1 + r2 * nF + fb[hand_s]] += 1.0
                            else:
                                for k in range(K1):
                                    bacc[k] += BL[r2 * H + hand_s, k]
                            bestv = sv
                    W[nd] = bestv
                    for k in range(K1):
                        WL[nd, k] = bacc[k]
                    if t == 0 and h_s >= 0 and not forced:
                        for k in range(K1):
                            BL[r * H + h_s, k] = bacc[k]


@kernel
def _store(rep, n, fh, BL, M, y, L):
    """Solve the unknowns' rows ``y = u + B y`` read from ``BL`` at the
    feedback starts, then write every rotation's turn starts into ``L``.
    Returns the largest change of a stored length (relative), or -1 when
    the system is singular (turns that never end)."""
    N = rep.shape[0]
    nF = fh.shape[0]
    H = BL.shape[0] // N
    K = N * nF
    for k in range(K):
        row = (k // nF) * H + fh[k % nF]
        for j in range(K):
            M[k, j] = -BL[row, 1 + j]
        M[k, k] += 1.0
        M[k, K] = BL[row, 0]
    if not gauss_jordan(M, y, 1e-14):
        return -1.0
    change = 0.0
    for r in range(N):
        # rotation r's tuple: its first N - 1 scores, then its last
        g = 0
        for a in range(N - 1):
            g = g * n + rep[(r + a) % N]
        last = rep[(r + N - 1) % N]
        for h in range(H):
            v = BL[r * H + h, 0]
            for k in range(K):
                v += BL[r * H + h, 1 + k] * y[k]
            change = max(change, abs(v - L[g, h, last]) / max(1.0, abs(v)))
            L[g, h, last] = v
    return change


@parallel_kernel
def length_classes(reps, groups, n, nt, nF, cf, tie, st, out_start, out_prob, throws, oq, oc,
                   opt_start, opt_gain, opt_nb, fb, fh, blk_ptr, blk_states, blk_tmax, V, L,
                   nodes, out):
    """The lengths of every class of ``reps`` (by decreasing score sum;
    ``groups`` bound the sums). The classes of one sum read only classes of
    larger sums, so they run side by side on ``nt`` threads. Where scores
    can fall a class also reads classes of smaller sums, which run after
    it: it reads them as the last pass left them, whatever the threads.
    ``out[m]``: the class's largest change, -1 if
    its turns never end."""
    N = reps.shape[1]
    K1 = N * nF + 1
    H = L.shape[1]
    # each thread's rows, PAD numbers apart: the small ones are written at
    # every position, and two threads' rows in one cache line made two
    # threads three times slower than one (the line went back and forth)
    PAD = 16
    W = np.zeros((nt, N * nodes + PAD))
    WL = np.zeros((nt, N * nodes + PAD, K1))
    BL = np.zeros((nt, N * H + PAD, K1))
    M = np.zeros((nt, K1 - 1 + PAD, K1))
    y = np.zeros((nt, K1 - 1 + PAD))
    pr = np.zeros((nt, N + PAD), dtype=np.int64)
    cacc = np.zeros((nt, K1 + PAD))
    bacc = np.zeros((nt, K1 + PAD))
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            w = numba.get_thread_id()
            _sweep(reps[m], n, cf, tie, st, out_start, out_prob, throws, oq, oc, opt_start,
                   opt_gain, opt_nb, fb, blk_ptr, blk_states, blk_tmax, V, L, W[w, :N * nodes],
                   WL[w, :N * nodes], BL[w, :N * H], pr[w, :N], cacc[w, :K1], bacc[w, :K1])
            out[m] = _store(reps[m], n, fh, BL[w, :N * H], M[w, :K1 - 1], y[w, :K1 - 1], L)
