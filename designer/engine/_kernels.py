"""Numba kernels of the engine: one score pair at a time, any turn model.

Arrays in, preallocated arrays out; the plan they follow (which start
values are the pair's unknowns, the order of the sweep) is made in Python
by :mod:`designer.engine.solve`, whose docstring has the mathematics.

Affine values
-------------
Inside a pair every value is carried as an affine function of the pair's
``K`` unknowns ``x`` (start values of the feedback states, both sides):
a vector ``v`` of length ``K + 1`` whose value at ``x`` is
``v[0] + sum_k v[1 + k] x[k]``. Decisions are taken at the current
estimate ``x``; for that fixed policy the unknowns' rows give the linear
system ``x = u + M x``.
"""

import numba
import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel

# kinds and effects (mirrors of designer.engine.model: kernels take no globals
# but module-level integer constants are frozen in at compile time)
_BUST = 0
_CHOOSE = 1
_END = 2
_NONE = 0
_ZERO = 1


@kernel
def _at(v, x):
    """Value of the affine vector ``v`` at ``x``."""
    r = v[0]
    for k in range(x.shape[0]):
        r += v[1 + k] * x[k]
    return r


@kernel
def _add_other(acc, p, B, other, h, fb, nF):
    """``acc += p * (1 - value of the other side's turn start at h)``."""
    f = fb[h]
    acc[0] += p
    if f >= 0:  # a feedback state: its value is an unknown
        acc[1 + other * nF + f] -= p
    else:
        v = B[other, h]
        for k in range(acc.shape[0]):
            acc[k] -= p * v[k]


@kernel
def _sweep(a, b, x, goal, lo, min_bank, forced_first, tie,
           cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
           out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, nF,
           blk_ptr, blk_states, blk_tmax, node_base, node_len, V, W, B, acc, cb):
    """One backward sweep over both sides' turns of pair ``(a, b)`` (score
    indices; side 0 is the mover at ``(a, b)``, side 1 at ``(b, a)``),
    deciding at ``x``. Writes in-turn values to ``W[side, node]`` and turn
    starts to ``B[side, h]``, all affine in the unknowns."""
    K1 = acc.shape[0]
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(blk_tmax[blk], -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t >= node_len[s]:
                    continue
                for side in range(2):
                    ma = a if side == 0 else b
                    mb = b if side == 0 else a
                    other = 1 - side
                    mi = ma + lo
                    tcap = max(goal - mi, min_bank)
                    if t >= tcap:
                        continue
                    # the best continuation (ties to the one listed first)
                    bestv = -np.inf
                    for c in range(cont_start[s], cont_start[s + 1]):
                        for k in range(K1):
                            acc[k] = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            kind = out_kind[o]
                            if kind == _CHOOSE:
                                bo = -1
                                bv = -np.inf
                                for r in range(opt_start[o], opt_start[o + 1]):
                                    tt = t + opt_gain[r]
                                    if tt >= tcap:
                                        v = 1.0
                                    else:
                                        v = _at(W[side, node_base[opt_next[r]] + tt], x)
                                    if v > bv:
                                        bv = v
                                        bo = r
                                tt = t + opt_gain[bo]
                                if tt >= tcap:  # stopping there wins
                                    acc[0] += p
                                else:
                                    w = W[side, node_base[opt_next[bo]] + tt]
                                    for k in range(K1):
                                        acc[k] += p * w[k]
                            elif kind == _END:
                                tot = t + out_points[o]
                                if mi + tot >= goal:
                                    acc[0] += p
                                elif tot == 0:
                                    _add_other(acc, p, B, other, out_h[o], fb, nF)
                                else:
                                    acc[0] += p * (1.0 - V[mb, ma + tot, out_h[o]])
                            else:
                                e = out_effect[o]
                                if e == _NONE:
                                    ns = mi
                                elif e == _ZERO:
                                    ns = 0
                                else:
                                    ns = max(mi - out_penalty[o], lo)
                                if ns == mi:
                                    _add_other(acc, p, B, other, out_h[o], fb, nF)
                                else:
                                    acc[0] += p * (1.0 - V[mb, ns - lo, out_h[o]])
                        v = _at(acc, x)
                        if v > bestv:
                            bestv = v
                            for k in range(K1):
                                cb[k] = acc[k]
                    node = W[side, node_base[s] + t]
                    go = True
                    if t >= min_bank and (t > 0 or pass_ok[s]):  # stopping is allowed
                        for k in range(K1):
                            acc[k] = 0.0
                        if t == 0:  # a pass: the opponent starts from the hand-over
                            _add_other(acc, 1.0, B, other, hand_h[s], fb, nF)
                        else:
                            acc[0] = 1.0 - V[mb, ma + t, hand_h[s]]
                        sv = _at(acc, x)
                        # ties go to stopping, except at a turn total of 0,
                        # where stopping passes: passes answered by passes
                        # would never end the game
                        go = bestv - sv > (-tie if t == 0 else tie)
                    src = cb if go else acc
                    for k in range(K1):
                        node[k] = src[k]
                    if t == 0 and hidx[s] >= 0:
                        start = B[side, hidx[s]]
                        src = cb if forced_first else node
                        for k in range(K1):
                            start[k] = src[k]


@kernel
def _fixed_point(B, fh, nF, x, M, y):
    """The fixed point of the unknowns' rows ``x = u + M x`` (Gaussian
    elimination with partial pivoting) into ``y``; False when singular
    (a policy under which the turns of the pair never end)."""
    K = x.shape[0]
    for k in range(K):
        row = B[k // nF, fh[k % nF]]
        for m in range(K):
            M[k, m] = -row[1 + m]
        M[k, k] += 1.0
        M[k, K] = row[0]
    for col in range(K):
        piv = col
        for r in range(col + 1, K):
            if abs(M[r, col]) > abs(M[piv, col]):
                piv = r
        if abs(M[piv, col]) < 1e-300:
            return False
        if piv != col:
            for m in range(K + 1):
                M[col, m], M[piv, m] = M[piv, m], M[col, m]
        for r in range(K):
            if r != col:
                f = M[r, col] / M[col, col]
                if f != 0.0:
                    for m in range(col, K + 1):
                        M[r, m] -= f * M[col, m]
    for k in range(K):
        y[k] = M[k, K] / M[k, k]
    return True


@kernel
def _solve_pair(a, b, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
                max_sweeps, warm,
                cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
                out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, fh,
                blk_ptr, blk_states, blk_tmax, node_base, node_len, V, W, B, acc, cb, x, y, M,
                out):
    """Solve pair ``(a, b)`` by policy iteration on its unknowns, then damped
    value iteration after ``pi_sweeps`` sweeps (or when the policy's system is
    singular); the estimate is accepted once one
    greedy backup moves it by at most ``tol``. ``out``: residual, sweeps,
    status (0 ok, 1 no convergence), largest change of a stored value."""
    n = V.shape[0]
    nF = fh.shape[0]
    K = 2 * nF
    for k in range(K):
        side = k // nF
        ma = a if side == 0 else b
        mb = b if side == 0 else a
        h = fh[k % nF]
        if warm:
            x[k] = V[ma, mb, h]
        else:  # one point more for the mover: a close, solved neighbour
            x[k] = V[ma + 1, mb, h] if ma + 1 < n else 1.0
    sweeps = 0
    res = np.inf
    while True:
        _sweep(a, b, x, goal, lo, min_bank, forced_first, tie, cont_start, out_start, out_prob,
               out_kind, out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
               hand_h, pass_ok, hidx, fb, nF, blk_ptr, blk_states, blk_tmax, node_base, node_len, V, W, B,
               acc, cb)
        sweeps += 1
        res = 0.0
        for k in range(K):
            res = max(res, abs(_at(B[k // nF, fh[k % nF]], x) - x[k]))
        pi = sweeps <= pi_sweeps and _fixed_point(B, fh, nF, x, M, y)
        if res <= tol:
            # accepted once the sweep's policy is the one x solves (its fixed
            # point is x itself), or from the pi_exact-th sweep on whatever
            # it is: decisions whose margins sit at the tie threshold can
            # flip from one iterate to the next without moving the values
            if not pi or sweeps >= pi_exact:
                break
            gap = 0.0
            for k in range(K):
                gap = max(gap, abs(y[k] - x[k]))
            if gap <= 1e-15:
                break
        if sweeps >= max_sweeps:
            out[2] = 1.0
            break
        if pi:
            for k in range(K):
                x[k] = y[k]
        else:
            # half a greedy backup: the backup never moves two estimates
            # further apart (each value is an average of 1 - x terms and
            # constants), and averaging it with the estimate converges even
            # where the backup alone would cycle, as when both movers pass
            # (x0 = 1 - x1, x1 = 1 - x0: any split of 1 is a fixed point)
            for k in range(K):
                y[k] = 0.5 * (x[k] + _at(B[k // nF, fh[k % nF]], x))
            for k in range(K):
                x[k] = y[k]
    change = 0.0
    for h in range(V.shape[2]):
        v0 = _at(B[0, h], x)
        v1 = _at(B[1, h], x)
        change = max(change, abs(v0 - V[a, b, h]), abs(v1 - V[b, a, h]))
        V[a, b, h] = v0
        V[b, a, h] = v1
    out[0] = res
    out[1] = sweeps
    out[3] = change


@parallel_kernel
def solve_pairs(pairs, groups, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
                max_sweeps,
                warm, cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
                out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, fh,
                blk_ptr, blk_states, blk_tmax, node_base, node_len, V, nt, nodes, out):
    """Solve every pair of ``pairs`` (rows ``(a, b)``, ``a <= b``), the
    groups ``groups[g] .. groups[g+1]-1`` one after the other (decreasing
    score sum) and the pairs of a group in parallel. ``out[m]`` receives
    pair ``m``'s report (:func:`_solve_pair`)."""
    K1 = 2 * fh.shape[0] + 1
    H = V.shape[2]
    W = np.zeros((nt, 2, nodes, K1))
    B = np.zeros((nt, 2, H, K1))
    acc = np.zeros((nt, K1))
    cb = np.zeros((nt, K1))
    x = np.zeros((nt, K1 - 1))
    y = np.zeros((nt, K1 - 1))
    M = np.zeros((nt, K1 - 1, K1))
    for g in range(groups.shape[0] - 1):
        for m in prange(groups[g], groups[g + 1]):
            t = numba.get_thread_id()
            _solve_pair(pairs[m, 0], pairs[m, 1], goal, lo, min_bank, forced_first, tie, tol,
                        pi_sweeps, pi_exact, max_sweeps, warm, cont_start, out_start, out_prob, out_kind,
                        out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
                        hand_h, pass_ok, hidx, fb, fh, blk_ptr, blk_states, blk_tmax, node_base, node_len,
                        V, W[t], B[t], acc[t], cb[t], x[t], y[t], M[t], out[m])
