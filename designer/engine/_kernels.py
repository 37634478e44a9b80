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


# The helpers below index the 3-d tables instead of taking row views: a
# view in an inner loop costs numba a reference count each time.

@kernel
def _at3(T, a, b, x):
    """Value of the affine vector ``T[a, b]`` at ``x``."""
    r = T[a, b, 0]
    for k in range(x.shape[0]):
        r += T[a, b, 1 + k] * x[k]
    return r


#: Decisions that flip once the unknowns move by less than this are kept
#: (their affine margins) and checked one by one at a new estimate; the
#: others only bound how far it may move.
NEAR = 1e-2


@kernel
def _decision(r, u, v, thr, x, mg, mgs, cnt):
    """Note one decision between the affine values ``u`` (the one taken
    when its margin ``u - v`` at ``x`` exceeds ``thr``) and ``v``; returns
    the new radius ``r``: how far (largest change of one unknown) the
    estimate may move before a decision not kept in ``mg`` flips. A
    decision whose margin keeps its sign within ``margin / sum_k |u_k -
    v_k|`` goes into ``r`` unless that distance is below :data:`NEAR`;
    then its margin (less ``thr``) is kept in ``mg[cnt[0]]`` and its
    outcome in ``mgs``, while room remains."""
    slope = 0.0
    for k in range(1, u.shape[0]):
        slope += abs(u[k] - v[k])
    if slope == 0.0:  # the unknowns cannot change this decision
        return r
    m = _at(u, x) - _at(v, x) - thr
    dist = abs(m) / slope
    if dist < NEAR and cnt[0] < mg.shape[0]:
        c = cnt[0]
        for k in range(u.shape[0]):
            mg[c, k] = u[k] - v[k]
        mg[c, 0] -= thr
        mgs[c] = m > 0.0
        cnt[0] = c + 1
        return r
    return min(r, dist)


@kernel
def _kept_hold(mg, mgs, cnt, y):
    """True if every kept decision (:func:`_decision`) comes out the same at ``y``."""
    for c in range(cnt[0]):
        if (_at(mg[c], y) > 0.0) != mgs[c]:
            return False
    return True


@kernel
def _add_other(acc, p, B, other, h, fb, nF):
    """``acc += p * (1 - value of the other side's turn start at h)``."""
    f = fb[h]
    acc[0] += p
    if f >= 0:  # a feedback state: its value is an unknown
        acc[1 + other * nF + f] -= p
    else:
        for k in range(acc.shape[0]):
            acc[k] -= p * B[other, h, k]


@kernel
def _option_decisions(rad, bo, o, t, tcap, opt_start, opt_gain, opt_next, node_base, W, side,
                      x, u, v, mg, mgs, cnt):
    """:func:`_decision` for the options of outcome ``o`` against the best,
    ``bo`` (``u, v``: scratch vectors)."""
    K1 = u.shape[0]
    tb = t + opt_gain[bo]
    for k in range(K1):
        u[k] = (1.0 if k == 0 else 0.0) if tb >= tcap else W[side, node_base[opt_next[bo]] + tb, k]
    for r in range(opt_start[o], opt_start[o + 1]):
        if r != bo:
            tt = t + opt_gain[r]
            for k in range(K1):
                v[k] = ((1.0 if k == 0 else 0.0) if tt >= tcap
                        else W[side, node_base[opt_next[r]] + tt, k])
            # (an exact tie, which the first listed wins, is kept as a
            # flip and so re-checked by a sweep: rare, and safe)
            rad = _decision(rad, u, v, 0.0, x, mg, mgs, cnt)
    return rad


@kernel
def _sweep(a, b, x, goal, lo, min_bank, forced_first, tie,
           cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
           out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, nF,
           blk_ptr, blk_states, blk_tmax, node_base, node_len, V, W, B, acc, cb, u, v, mg, mgs,
           cnt):
    """One backward sweep over both sides' turns of pair ``(a, b)`` (score
    indices; side 0 is the mover at ``(a, b)``, side 1 at ``(b, a)``),
    deciding at ``x``. Writes in-turn values to ``W[side, node]`` and turn
    starts to ``B[side, h]``, all affine in the unknowns. Returns how far
    the unknowns may move (largest change of one) with every decision of
    the sweep not kept in ``mg`` still greedy (:func:`_decision`)."""
    K1 = acc.shape[0]
    rad = np.inf
    cnt[0] = 0
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
                                bo = opt_start[o]
                                bv = -np.inf
                                for r in range(opt_start[o], opt_start[o + 1]):
                                    tt = t + opt_gain[r]
                                    if tt >= tcap:
                                        val = 1.0
                                    else:
                                        val = _at3(W, side, node_base[opt_next[r]] + tt, x)
                                    if val > bv:
                                        bv = val
                                        bo = r
                                if opt_start[o + 1] - opt_start[o] > 1:
                                    rad = _option_decisions(rad, bo, o, t, tcap, opt_start,
                                                            opt_gain, opt_next, node_base, W, side,
                                                            x, u, v, mg, mgs, cnt)
                                tt = t + opt_gain[bo]
                                if tt >= tcap:  # stopping there wins
                                    acc[0] += p
                                else:
                                    nd = node_base[opt_next[bo]] + tt
                                    for k in range(K1):
                                        acc[k] += p * W[side, nd, k]
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
                        val = _at(acc, x)
                        if c > cont_start[s]:  # a later continuation must beat the best
                            rad = _decision(rad, acc, cb, 0.0, x, mg, mgs, cnt)
                        if val > bestv:
                            bestv = val
                            for k in range(K1):
                                cb[k] = acc[k]
                    nd = node_base[s] + t
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
                        thr = -tie if t == 0 else tie
                        go = bestv - sv > thr
                        if cont_start[s + 1] > cont_start[s]:
                            rad = _decision(rad, cb, acc, thr, x, mg, mgs, cnt)
                    if go:
                        for k in range(K1):
                            W[side, nd, k] = cb[k]
                    else:
                        for k in range(K1):
                            W[side, nd, k] = acc[k]
                    if t == 0 and hidx[s] >= 0:
                        h = hidx[s]
                        if forced_first:
                            for k in range(K1):
                                B[side, h, k] = cb[k]
                        else:
                            for k in range(K1):
                                B[side, h, k] = W[side, nd, k]
    return rad


@kernel
def _fixed_point(B, fh, nF, x, M, y):
    """The fixed point of the unknowns' rows ``x = u + M x`` (Gaussian
    elimination with partial pivoting) into ``y``; False when singular
    (a policy under which the turns of the pair never end)."""
    K = x.shape[0]
    for k in range(K):
        sd = k // nF
        h = fh[k % nF]
        for m in range(K):
            M[k, m] = -B[sd, h, 1 + m]
        M[k, k] += 1.0
        M[k, K] = B[sd, h, 0]
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
def _guess(V, a, b, h, n):
    """Warm start for ``V[a, b, h]`` from the pairs of larger sum, solved:
    the least-squares quadratic through the neighbours (1,0), (0,1),
    (1,1), (2,0), (0,2), (2,1), (1,2) (weights 3/2, 3/2, -2, -1/2, -1/2,
    1/2, 1/2), bilinear or linear near the goal; so close (about 1e-5)
    that the first sweep's policy is usually the optimal one."""
    if a + 2 < n and b + 2 < n:
        g = (1.5 * (V[a + 1, b, h] + V[a, b + 1, h]) - 2.0 * V[a + 1, b + 1, h]
             - 0.5 * (V[a + 2, b, h] + V[a, b + 2, h])
             + 0.5 * (V[a + 2, b + 1, h] + V[a + 1, b + 2, h]))
    elif a + 1 < n and b + 1 < n:
        g = V[a + 1, b, h] + V[a, b + 1, h] - V[a + 1, b + 1, h]
    elif a + 1 < n:
        g = V[a + 1, b, h]
    elif b + 1 < n:
        g = V[a, b + 1, h]
    else:
        g = 1.0
    return min(1.0, max(0.0, g))


@kernel
def _solve_pair(a, b, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
                max_sweeps, warm,
                cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
                out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, fh,
                blk_ptr, blk_states, blk_tmax, node_base, node_len, V, W, B, acc, cb, u, v, mg,
                mgs, cnt, x, y, M, out):
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
        x[k] = V[ma, mb, h] if warm else _guess(V, ma, mb, h, n)
    sweeps = 0
    res = np.inf
    gap = np.inf
    while True:
        rad = _sweep(a, b, x, goal, lo, min_bank, forced_first, tie, cont_start, out_start,
                     out_prob, out_kind, out_points, out_h, out_effect, out_penalty, opt_start,
                     opt_gain, opt_next, hand_h, pass_ok, hidx, fb, nF, blk_ptr, blk_states,
                     blk_tmax, node_base, node_len, V, W, B, acc, cb, u, v, mg, mgs, cnt)
        sweeps += 1
        res = 0.0
        for k in range(K):
            res = max(res, abs(_at3(B, k // nF, fh[k % nF], x) - x[k]))
        pi = sweeps <= pi_sweeps and _fixed_point(B, fh, nF, x, M, y)
        if pi:
            gap = 0.0
            for k in range(K):
                gap = max(gap, abs(y[k] - x[k]))
            if gap < 0.5 * rad and _kept_hold(mg, mgs, cnt, y):
                # no decision of the sweep flips between x and its fixed
                # point y (half the radius: a margin for rounding; the
                # decisions near a tie checked one by one), so the sweep's
                # affine values at y are the exact values of a policy
                # greedy at them: accepted without another sweep
                for k in range(K):
                    x[k] = y[k]
                res = 0.0
                for k in range(K):
                    res = max(res, abs(_at3(B, k // nF, fh[k % nF], x) - x[k]))
                break
        if res <= tol:
            # accepted once the sweep's policy is the one x solves (its fixed
            # point is x itself), or from the pi_exact-th sweep on whatever
            # it is: decisions whose margins sit at the tie threshold can
            # flip from one iterate to the next without moving the values
            if not pi or sweeps >= pi_exact or gap <= 1e-15:
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
                y[k] = 0.5 * (x[k] + _at3(B, k // nF, fh[k % nF], x))
            for k in range(K):
                x[k] = y[k]
    change = 0.0
    for h in range(V.shape[2]):
        v0 = _at3(B, 0, h, x)
        v1 = _at3(B, 1, h, x)
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
    u = np.zeros((nt, K1))
    v = np.zeros((nt, K1))
    cap = 2 * nodes + 16  # decisions kept near a tie, per thread
    mg = np.zeros((nt, cap, K1))
    mgs = np.zeros((nt, cap), dtype=np.bool_)
    cnt = np.zeros((nt, 1), dtype=np.int64)
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
                        V, W[t], B[t], acc[t], cb[t], u[t], v[t], mg[t], mgs[t], cnt[t], x[t], y[t],
                        M[t], out[m])
