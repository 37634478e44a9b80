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
from designer.engine._linear import gauss_jordan, two_rows
from designer.engine._sync import cycles, fetch_add, load_acquire, store_release

# kinds and effects (mirrors of designer.engine.model: kernels take no globals
# but module-level integer constants are frozen in at compile time)
_BUST = 0
_CHOOSE = 1
_END = 2
_NONE = 0
_ZERO = 1

# what a sweep does with an outcome (designer.engine.solve.plan sets them):
# move to the one option's node, bust to the feedback start or to another
# turn start keeping the score, anything else (an end, a bust that changes
# the score) read from the packed outcome table, or choose among options
OP_MOVE = 0
OP_FEEDBACK = 1
OP_START = 2
OP_GENERAL = 3
OP_CHOICE = 4


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
           blk_ptr, blk_states, blk_tmax, node_base, node_len, V, Vf, W, B, acc, cb, u, v, mg,
           mgs, cnt):
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
                                    acc[0] += p * (1.0 - V[mb, out_h[o], ma + tot])
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
                                    acc[0] += p * (1.0 - Vf[mb, out_h[o], ns - lo])
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
                            acc[0] = 1.0 - V[mb, hand_h[s], ma + t]
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
    return gauss_jordan(M, y, 1e-300)


@kernel
def _guess(V, a, b, h, n):
    """Warm start for ``V[a, h, b]`` from the pairs of larger sum, solved:
    the least-squares quadratic through the neighbours (1,0), (0,1),
    (1,1), (2,0), (0,2), (2,1), (1,2) (weights 3/2, 3/2, -2, -1/2, -1/2,
    1/2, 1/2), bilinear or linear near the goal; so close (about 1e-5)
    that the first sweep's policy is usually the optimal one."""
    if a + 2 < n and b + 2 < n:
        g = (1.5 * (V[a + 1, h, b] + V[a, h, b + 1]) - 2.0 * V[a + 1, h, b + 1]
             - 0.5 * (V[a + 2, h, b] + V[a, h, b + 2])
             + 0.5 * (V[a + 2, h, b + 1] + V[a + 1, h, b + 2]))
    elif a + 1 < n and b + 1 < n:
        g = V[a + 1, h, b] + V[a, h, b + 1] - V[a + 1, h, b + 1]
    elif a + 1 < n:
        g = V[a + 1, h, b]
    elif b + 1 < n:
        g = V[a, h, b + 1]
    else:
        g = 1.0
    return min(1.0, max(0.0, g))


@kernel
def _solve_pair(a, b, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
                max_sweeps, warm,
                cont_start, out_start, out_prob, out_kind, out_points, out_h, out_effect,
                out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, fh,
                blk_ptr, blk_states, blk_tmax, node_base, node_len, V, Vf, W, B, acc, cb, u, v,
                mg, mgs, cnt, x, y, M, out):
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
        x[k] = Vf[ma, h, mb] if warm else _guess(V, ma, mb, h, n)
    sweeps = 0
    res = np.inf
    gap = np.inf
    while True:
        rad = _sweep(a, b, x, goal, lo, min_bank, forced_first, tie, cont_start, out_start,
                     out_prob, out_kind, out_points, out_h, out_effect, out_penalty, opt_start,
                     opt_gain, opt_next, hand_h, pass_ok, hidx, fb, nF, blk_ptr, blk_states,
                     blk_tmax, node_base, node_len, V, Vf, W, B, acc, cb, u, v, mg, mgs, cnt)
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
    for h in range(V.shape[1]):
        v0 = _at3(B, 0, h, x)
        v1 = _at3(B, 1, h, x)
        change = max(change, abs(v0 - Vf[a, h, b]), abs(v1 - Vf[b, h, a]))
        V[a, h, b] = v0
        V[b, h, a] = v1
    out[0] = res
    out[1] = sweeps
    out[3] = change



# -- two unknowns: the affine values in scalars --------------------------------
#
# Every game with one feedback state (a die, a deck, Farkle: all that ship)
# has two unknowns per pair, the start values of the feedback state on
# both sides. The kernels below carry each value as three numbers in
# registers instead of a scratch vector of run-time length, in the *own*
# coordinates of its side: ``(c, e_own, e_oth)`` is worth ``c + e_own
# x_own + e_oth x_oth``, with ``x_own`` the side's own unknown. The two
# sides' sweeps are then the same code with ``x_own, x_oth`` swapped, and
# the other side's value ``c' + e'_own x_oth + e'_oth x_own`` reads, in
# this side's coordinates, ``1 - (c', e'_oth, e'_own)`` when it is the
# opponent's win probability that counts.


# columns of the packed table of a state (ST_*) and of an outcome (OC_*)
ST_C0, ST_C1, ST_BASE, ST_PASS, ST_HAND, ST_START, ST_LEN = 0, 1, 2, 3, 4, 5, 6
OC_OP, OC_GAIN, OC_NODE, OC_H, OC_KIND, OC_POINTS, OC_EFFECT, OC_PENALTY = range(8)


@kernel
def bust_score(oc, o, mi, lo):
    """The mover's banked score after the bust outcome ``o`` from ``mi``:
    kept, set to 0, or lowered by the penalty, not below the floor ``lo``."""
    e = oc[o, OC_EFFECT]
    if e == _ZERO:
        return 0
    if e != _NONE:
        return max(mi - oc[o, OC_PENALTY], lo)
    return mi
# entries of the integer settings (CF_*)
CF_GOAL, CF_LO, CF_MIN_BANK, CF_FORCED, CF_SIMPLE = 0, 1, 2, 3, 4


@kernel
def settings(cf):
    """``(goal, lo, min_bank, forced)`` from the packed settings ``cf``."""
    return cf[CF_GOAL], cf[CF_LO], cf[CF_MIN_BANK], cf[CF_FORCED] != 0


@kernel
def _keep2(rad, m, slope, dA, dO, dT, thr, side, mg, cnt):
    """A decision of the two-unknown sweep whose margin ``m = dA + dO x_own
    + dT x_oth - thr`` (side ``side``'s own coordinates, ``slope = |dO| +
    |dT|``) may lower the radius ``rad`` (:func:`_decision`): kept, in the
    pair's coordinates ``(x0, x1)`` with its outcome (1 taken, 0 not) in
    ``mg[c, 3]``, if near a tie and room remains, else the new radius.

    The sweep calls this only when ``|m| < rad * slope``: rarely, once the
    radius is small, so the sweep's own loop passes no arrays to a
    function (numba counts references to an array at every call)."""
    am = abs(m)
    c = cnt[0]
    if am < NEAR * slope and c < mg.shape[0]:
        mg[c, 0] = dA - thr
        if side == 0:
            mg[c, 1] = dO
            mg[c, 2] = dT
        else:
            mg[c, 1] = dT
            mg[c, 2] = dO
        mg[c, 3] = 1.0 if m > 0.0 else 0.0
        cnt[0] = c + 1
        return rad
    return min(rad, am / slope)


@kernel
def _sweep2(a, b, x0, x1, cf, tie, st, out_start, out_prob, oq, oc, opt_start, opt_gain, opt_nb,
            fbh, blk_ptr, blk_states, blk_tmax, V, Vf, W, B, mg, cnt):
    """:func:`_sweep` with two unknowns ``x0, x1`` in scalars; values in
    ``W[side * nodes + node, :3]`` and ``B[side * H + h, :3]`` are in each
    side's own coordinates. The blocks are swept one side after the other: within a
    block the sides meet only through turn starts of earlier blocks.

    Written out in one loop on purpose: numba does not inline a call to
    another kernel, and a call that passes arrays costs reference counts
    (atomic operations) that would dwarf a position's arithmetic. A block
    of one state (every state of a deck) has the state's numbers read
    once: the arrays may alias as far as the compiler knows, so it would
    read them again after every store. Decisions (:func:`_decision`):
    the margin ``m`` of each, with ``slope`` its sensitivity to the
    unknowns, goes to :func:`_keep2` only when ``|m| < rad * slope``."""
    rad = np.inf
    cnt[0] = 0
    nodes = W.shape[0] // 2
    H = B.shape[0] // 2
    goal, lo, min_bank, forced = settings(cf)
    for blk in range(blk_ptr.shape[0] - 1):
        q0 = blk_ptr[blk]
        q1 = blk_ptr[blk + 1]
        single = q1 - q0 == 1
        s = blk_states[q0]
        c0h, c1h, nbh = st[s, ST_C0], st[s, ST_C1], st[s, ST_BASE]
        passh, handh, hh, lenh = st[s, ST_PASS], st[s, ST_HAND], st[s, ST_START], st[s, ST_LEN]
        for side in range(2):
            if side == 0:
                ma, mb, xo, xt = a, b, x0, x1
            else:
                ma, mb, xo, xt = b, a, x1, x0
            wo = side * nodes  # this side's rows of W and of B, the other's of B
            bw = side * H
            bt = (1 - side) * H
            mi = ma + lo
            tcap = max(goal - mi, min_bank)
            for t in range(min(blk_tmax[blk], tcap - 1), -1, -1):
                for q in range(q0, q1):
                    if single:
                        if t >= lenh:
                            continue
                        c0, c1, nd, pass_s, hand_s, h_s = c0h, c1h, nbh + t, passh, handh, hh
                    else:
                        s = blk_states[q]
                        if t >= st[s, ST_LEN]:
                            continue
                        c0, c1, nd = st[s, ST_C0], st[s, ST_C1], st[s, ST_BASE] + t
                        pass_s, hand_s, h_s = st[s, ST_PASS], st[s, ST_HAND], st[s, ST_START]
                    bA = 0.0
                    bO = 0.0
                    bT = 0.0
                    bestv = -np.inf
                    for c in range(c0, c1):
                        aA = 0.0
                        aO = 0.0
                        aT = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE:
                                tt = t + oq[o, 1]
                                if tt >= tcap:  # stopping there wins
                                    aA += p
                                else:
                                    r = wo + oq[o, 2] + tt
                                    aA += p * W[r, 0]
                                    aO += p * W[r, 1]
                                    aT += p * W[r, 2]
                                continue
                            if op == OP_FEEDBACK:  # 1 - the opponent's unknown
                                aA += p
                                aT -= p
                                continue
                            if op == OP_CHOICE:
                                # the best option, ties to the first listed, found
                                # by comparing each option with the best before
                                # it: if every comparison keeps its sign at new
                                # unknowns, so does the choice (the best beats
                                # every other option directly or through a chain),
                                # so each comparison is a decision to note
                                r0 = opt_start[o]
                                tt = t + opt_gain[r0]
                                if tt >= tcap:
                                    uA, uO, uT = 1.0, 0.0, 0.0
                                else:
                                    i = wo + opt_nb[r0] + tt
                                    uA, uO, uT = W[i, 0], W[i, 1], W[i, 2]
                                bv = uA + uO * xo + uT * xt
                                for r in range(r0 + 1, opt_start[o + 1]):
                                    tt = t + opt_gain[r]
                                    if tt >= tcap:
                                        vA, vO, vT = 1.0, 0.0, 0.0
                                    else:
                                        i = wo + opt_nb[r] + tt
                                        vA, vO, vT = W[i, 0], W[i, 1], W[i, 2]
                                    dO = vO - uO
                                    dT = vT - uT
                                    slope = abs(dO) + abs(dT)
                                    m = vA - uA + dO * xo + dT * xt
                                    if abs(m) < rad * slope:
                                        rad = _keep2(rad, m, slope, vA - uA, dO, dT, 0.0, side,
                                                     mg, cnt)
                                    val = vA + vO * xo + vT * xt
                                    if val > bv:
                                        bv = val
                                        uA, uO, uT = vA, vO, vT
                                aA += p * uA
                                aO += p * uO
                                aT += p * uT
                                continue
                            # a turn start of the opponent, at this score or another
                            h = oq[o, 3]
                            ns = mi
                            if op == OP_GENERAL:
                                if oc[o, OC_KIND] == _END:
                                    tot = t + oc[o, OC_POINTS]
                                    if mi + tot >= goal:  # a win
                                        aA += p
                                        continue
                                    if tot > 0:  # the opponent moves at (j, i + tot)
                                        aA += p * (1.0 - V[mb, h, ma + tot])
                                        continue
                                else:  # a bust that may change the banked score
                                    ns = bust_score(oc, o, mi, lo)
                            if ns != mi:
                                aA += p * (1.0 - Vf[mb, h, ns - lo])
                            elif h == fbh:
                                aA += p
                                aT -= p
                            else:
                                aA += p * (1.0 - B[bt + h, 0])
                                aO -= p * B[bt + h, 2]
                                aT -= p * B[bt + h, 1]
                        val = aA + aO * xo + aT * xt
                        if c > c0:  # a later continuation must beat the best
                            dO = aO - bO
                            dT = aT - bT
                            slope = abs(dO) + abs(dT)
                            m = aA - bA + dO * xo + dT * xt
                            if abs(m) < rad * slope:
                                rad = _keep2(rad, m, slope, aA - bA, dO, dT, 0.0, side, mg, cnt)
                        if val > bestv:
                            bestv = val
                            bA, bO, bT = aA, aO, aT
                    go = True
                    sA, sO, sT = 0.0, 0.0, 0.0
                    if t >= min_bank and (t > 0 or pass_s):  # stopping is allowed
                        if t > 0:
                            sA = 1.0 - V[mb, hand_s, ma + t]
                            thr = tie
                        else:  # a pass: the opponent starts from the hand-over
                            thr = -tie
                            if hand_s == fbh:
                                sA, sT = 1.0, -1.0
                            else:
                                sA = 1.0 - B[bt + hand_s, 0]
                                sO = -B[bt + hand_s, 2]
                                sT = -B[bt + hand_s, 1]
                        # ties go to stopping, except at a turn total of 0,
                        # where stopping passes: passes answered by passes
                        # would never end the game
                        go = bestv - (sA + sO * xo + sT * xt) > thr
                        if c1 > c0:
                            dO = bO - sO
                            dT = bT - sT
                            slope = abs(dO) + abs(dT)
                            m = bA - sA + dO * xo + dT * xt - thr
                            if abs(m) < rad * slope:
                                rad = _keep2(rad, m, slope, bA - sA, dO, dT, thr, side, mg, cnt)
                    if t == 0 and h_s >= 0 and forced:  # a turn starts with a roll or draw
                        B[bw + h_s, 0] = bA
                        B[bw + h_s, 1] = bO
                        B[bw + h_s, 2] = bT
                    if not go:
                        bA, bO, bT = sA, sO, sT
                    W[wo + nd, 0] = bA
                    W[wo + nd, 1] = bO
                    W[wo + nd, 2] = bT
                    if t == 0 and h_s >= 0 and not forced:
                        B[bw + h_s, 0] = bA
                        B[bw + h_s, 1] = bO
                        B[bw + h_s, 2] = bT
    return rad


@kernel
def _sweep2s(a, b, x0, x1, cf, tie, st, out_start, out_prob, oq, fbh, blk_states, V, W, B, mg,
             cnt):
    """:func:`_sweep2` for a turn model of *simple* states (a deck's):
    every block one state, with one continuation whose outcomes are turn
    starts (``OP_START``, ``OP_FEEDBACK``) and at most one ``OP_MOVE``
    (:func:`designer.engine.solve.plan` checks it, ``simple``).

    The turn starts' part of the continuation's value is the same at every
    turn total of a state, so it is summed once per state and side; the
    loop over the state's turn totals then reads one row of ``W`` (the
    move's) and one stop value, with no outcome dispatch and no reads of
    the packed tables, and the turn total 0 (a pass, the turn start) is
    taken apart after it. The decisions, their margins and the order of
    every sum are those of :func:`_sweep2` (the turn starts summed in
    outcome order, then the move; turn starts listed after the move, which
    no part lists, summed apart and added last: a difference in rounding
    only), so the values agree to the last bit where no turn start follows
    the move and policy iteration accepts the same estimates.

    Fowl Play on one thread: 0.06 s against 0.14 s by :func:`_sweep2`, in
    the same sweeps (the dispatch and the turn starts' reads at every
    position were half of a position's cost)."""
    rad = np.inf
    cnt[0] = 0
    nodes = W.shape[0] // 2
    H = B.shape[0] // 2
    goal, lo, min_bank, forced = settings(cf)
    for q in range(blk_states.shape[0]):
        s = blk_states[q]
        c0 = st[s, ST_C0]
        nb, pass_s, hand_s = st[s, ST_BASE], st[s, ST_PASS] != 0, st[s, ST_HAND]
        h_s, lenh = st[s, ST_START], st[s, ST_LEN]
        o0 = out_start[c0]
        o1 = out_start[c0 + 1]
        for side in range(2):
            if side == 0:
                ma, mb, xo, xt = a, b, x0, x1
            else:
                ma, mb, xo, xt = b, a, x1, x0
            wo = side * nodes
            bw = side * H
            bt = (1 - side) * H
            mi = ma + lo
            tcap = max(goal - mi, min_bank)
            # the turn starts' part: kA.. before the move, zA.. after it
            kA, kO, kT = 0.0, 0.0, 0.0
            zA, zO, zT = 0.0, 0.0, 0.0
            after = False
            mp = 0.0
            mgain = tcap  # no move: nothing to read (its probability 0)
            mrow = wo
            for o in range(o0, o1):
                p = out_prob[o]
                op = oq[o, 0]
                if op == OP_MOVE:
                    mp = p
                    mgain = oq[o, 1]
                    mrow = wo + oq[o, 2]
                    after = True
                    continue
                h = oq[o, 3]
                if h == fbh:  # 1 - the opponent's unknown
                    dA, dO, dT = p, 0.0, -p
                else:
                    dA = p * (1.0 - B[bt + h, 0])
                    dO = -(p * B[bt + h, 2])
                    dT = -(p * B[bt + h, 1])
                if after:
                    zA += dA
                    zO += dO
                    zT += dT
                else:
                    kA += dA
                    kO += dO
                    kT += dT
            post = zA != 0.0 or zO != 0.0 or zT != 0.0
            # turn totals above 0: a stop banks (no unknowns in its value)
            for t in range(min(lenh, tcap) - 1, 0, -1):
                tt = t + mgain
                if tt >= tcap:  # stopping there wins
                    bA = kA + mp
                    bO = kO
                    bT = kT
                else:
                    r = mrow + tt
                    bA = kA + mp * W[r, 0]
                    bO = kO + mp * W[r, 1]
                    bT = kT + mp * W[r, 2]
                if post:
                    bA += zA
                    bO += zO
                    bT += zT
                r = wo + nb + t
                if t >= min_bank:  # stopping is allowed
                    sA = 1.0 - V[mb, hand_s, ma + t]
                    # (the margins of _sweep2, whose stop has sO = sT = 0)
                    m = bA - sA + bO * xo + bT * xt - tie
                    slope = abs(bO) + abs(bT)
                    if abs(m) < rad * slope:
                        rad = _keep2(rad, m, slope, bA - sA, bO, bT, tie, side, mg, cnt)
                    if not (bA + bO * xo + bT * xt) - sA > tie:
                        W[r, 0] = sA
                        W[r, 1] = 0.0
                        W[r, 2] = 0.0
                        continue
                W[r, 0] = bA
                W[r, 1] = bO
                W[r, 2] = bT
            if min(lenh, tcap) <= 0:
                continue
            # turn total 0: the turn's start
            if mgain >= tcap:
                bA = kA + mp
                bO = kO
                bT = kT
            else:
                r = mrow + mgain
                bA = kA + mp * W[r, 0]
                bO = kO + mp * W[r, 1]
                bT = kT + mp * W[r, 2]
            if post:
                bA += zA
                bO += zO
                bT += zT
            if h_s >= 0 and forced:  # a turn starts with a draw
                B[bw + h_s, 0] = bA
                B[bw + h_s, 1] = bO
                B[bw + h_s, 2] = bT
            if min_bank == 0 and pass_s:  # a pass: the opponent starts from the hand-over
                if hand_s == fbh:
                    sA, sO, sT = 1.0, 0.0, -1.0
                else:
                    sA = 1.0 - B[bt + hand_s, 0]
                    sO = -B[bt + hand_s, 2]
                    sT = -B[bt + hand_s, 1]
                # ties go to drawing at a turn total of 0 (a pass answered
                # by a pass would never end the game)
                dO = bO - sO
                dT = bT - sT
                m = bA - sA + dO * xo + dT * xt + tie
                slope = abs(dO) + abs(dT)
                if abs(m) < rad * slope:
                    rad = _keep2(rad, m, slope, bA - sA, dO, dT, -tie, side, mg, cnt)
                if not (bA + bO * xo + bT * xt) - (sA + sO * xo + sT * xt) > -tie:
                    bA, bO, bT = sA, sO, sT
            r = wo + nb
            W[r, 0] = bA
            W[r, 1] = bO
            W[r, 2] = bT
            if h_s >= 0 and not forced:
                B[bw + h_s, 0] = bA
                B[bw + h_s, 1] = bO
                B[bw + h_s, 2] = bT
    return rad


@kernel
def _kept_hold2(mg, cnt, y0, y1):
    """True if every kept decision comes out the same at ``(y0, y1)``."""
    for c in range(cnt[0]):
        if (mg[c, 0] + mg[c, 1] * y0 + mg[c, 2] * y1 > 0.0) != (mg[c, 3] > 0.5):
            return False
    return True


@kernel
def _solve_pair2(a, b, cf, tie, tol, pi_sweeps, pi_exact, max_sweeps, warm, st, out_start,
                 out_prob, oq, oc, opt_start, opt_gain, opt_nb, fbh, blk_ptr, blk_states, blk_tmax,
                 V, Vf, W, B, mg, cnt, out):
    """:func:`_solve_pair` with two unknowns in scalars (the same rule);
    simple states (``cf[CF_SIMPLE]``) swept by :func:`_sweep2s`."""
    n = V.shape[0]
    H = V.shape[1]
    simple = cf[CF_SIMPLE] != 0
    if warm:
        x0 = Vf[a, fbh, b]
        x1 = Vf[b, fbh, a]
    else:
        x0 = _guess(V, a, b, fbh, n)
        x1 = _guess(V, b, a, fbh, n)
    sweeps = 0
    gap = np.inf
    while True:
        if simple:
            rad = _sweep2s(a, b, x0, x1, cf, tie, st, out_start, out_prob, oq, fbh, blk_states,
                           V, W, B, mg, cnt)
        else:
            rad = _sweep2(a, b, x0, x1, cf, tie, st, out_start, out_prob, oq, oc, opt_start,
                          opt_gain, opt_nb, fbh, blk_ptr, blk_states, blk_tmax, V, Vf, W, B, mg,
                          cnt)
        sweeps += 1
        # the unknowns' rows, their greedy backup g and fixed point y
        g0, g1, y0, y1, pi = two_rows(B, fbh, x0, x1)
        res = max(abs(g0 - x0), abs(g1 - x1))
        if sweeps > pi_sweeps:
            pi = False
        if pi:
            gap = max(abs(y0 - x0), abs(y1 - x1))
            if gap < 0.5 * rad and _kept_hold2(mg, cnt, y0, y1):
                # no decision of the sweep flips between x and its fixed
                # point y: the sweep's values at y are exact (see _solve_pair)
                x0 = y0
                x1 = y1
                g0, g1, _, _, _ = two_rows(B, fbh, x0, x1)
                res = max(abs(g0 - x0), abs(g1 - x1))
                break
        if res <= tol:
            if not pi or sweeps >= pi_exact or gap <= 1e-15:
                break
        if sweeps >= max_sweeps:
            out[2] = 1.0
            break
        if pi:
            x0 = y0
            x1 = y1
        else:  # half a greedy backup (see _solve_pair)
            x0 = 0.5 * (x0 + g0)
            x1 = 0.5 * (x1 + g1)
    change = 0.0
    for h in range(V.shape[1]):
        w0 = B[h, 0] + B[h, 1] * x0 + B[h, 2] * x1
        w1 = B[H + h, 0] + B[H + h, 1] * x1 + B[H + h, 2] * x0
        change = max(change, abs(w0 - Vf[a, h, b]), abs(w1 - Vf[b, h, a]))
        V[a, h, b] = w0
        V[b, h, a] = w1
    out[0] = res
    out[1] = sweeps
    out[3] = change


# -- the schedule ----------------------------------------------------------------

@kernel
def _pair_index(a, b, n, groups):
    """Row of pair ``{a, b}`` in the order of :func:`designer.engine.solve._pairs`."""
    if a > b:
        a, b = b, a
    total = a + b
    return groups[2 * (n - 1) - total] + a - max(0, total - (n - 1))


@kernel
def _missing_input(m, pairs, n, groups, done):
    """A pair that pair ``m`` reads and that is not solved yet, or -1.

    A pair ``{a, b}`` reads (stops, ends, its warm start) pairs ``{a, b'}``
    with ``b' > b`` and ``{b, a'}`` with ``a' > a``; each of those was
    solved only after the next one in its row, so ``{a, b + 1}`` and ``{b,
    a + 1}`` being solved is enough. (Scores that never fall.)"""
    a = pairs[m, 0]
    b = pairs[m, 1]
    if b + 1 < n:
        d = _pair_index(a, b + 1, n, groups)
        if load_acquire(done, d) == 0:
            return d
    if a + 1 < n and a != b:
        d = _pair_index(b, a + 1, n, groups)
        if load_acquire(done, d) == 0:
            return d
    return -1


@kernel
def await_inputs(m, pairs, n, groups, done, patience):
    """Wait until every pair that pair ``m`` reads is solved (returns -1)
    or ``patience`` cycles have passed; then return one of its unsolved
    inputs whose own inputs are all solved, for the caller to solve itself
    (the worker that claimed it may be kept off its core by another
    process: :func:`solve_pairs`). Scores that never fall."""
    t0 = cycles()
    while True:
        d = _missing_input(m, pairs, n, groups, done)
        if d < 0:
            return -1
        if cycles() - t0 >= patience:
            break
    while True:
        e = _missing_input(d, pairs, n, groups, done)
        if e < 0:
            return d
        d = e


@kernel
def _solve_one(m, t, pairs, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
               max_sweeps, warm, cont_start, out_start, out_prob, out_kind, out_points, out_h,
               out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb,
               fh, blk_ptr, blk_states, blk_tmax, node_base, node_len, st, oc, oq, opt_nb, cf, V,
               Vf, W, B, W2, B2, acc, cb, u, v, mg, mgs, cnt, x, y, M, out, done):
    """Solve pair ``m`` on thread ``t``'s scratch and mark it solved."""
    a = pairs[m, 0]
    b = pairs[m, 1]
    nF = fh.shape[0]
    K1 = 2 * nF + 1
    H = V.shape[1]
    if nF == 1:
        _solve_pair2(a, b, cf, tie, tol, pi_sweeps, pi_exact, max_sweeps, warm, st, out_start,
                     out_prob, oq, oc, opt_start, opt_gain, opt_nb, fh[0], blk_ptr, blk_states,
                     blk_tmax, V, Vf, W2[t], B2[t, :2 * H], mg[t], cnt[t, :1], out[m])
    else:
        _solve_pair(a, b, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps, pi_exact,
                    max_sweeps, warm, cont_start, out_start, out_prob, out_kind, out_points, out_h,
                    out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx,
                    fb, fh, blk_ptr, blk_states, blk_tmax, node_base, node_len, V, Vf, W[t],
                    B[t, :, :H], acc[t, :K1], cb[t, :K1], u[t, :K1], v[t, :K1], mg[t], mgs[t],
                    cnt[t, :1], x[t, :K1 - 1], y[t, :K1 - 1], M[t, :K1 - 1], out[m])
    store_release(done, m, 1)


@parallel_kernel
def solve_pairs(pairs, groups, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps,
                pi_exact, max_sweeps, warm, cont_start, out_start, out_prob, out_kind, out_points,
                out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next, hand_h, pass_ok,
                hidx, fb, fh, blk_ptr, blk_states, blk_tmax, node_base, node_len, st, oc, oq,
                opt_nb, simple, V, Vf, nt, nodes, out, work):
    """Solve every pair of ``pairs`` (rows ``(a, b)``, ``a <= b``, by
    decreasing score sum; ``groups`` bound the sums) on ``nt`` workers.

    Each worker claims the next pair from a shared counter and solves it
    once the pairs it reads are solved (:func:`_missing_input`): no worker
    waits for all the others at every score sum. A worker that finds an
    input still in another's hands waits a little (twice its own average
    time per pair), then solves that input itself: the other worker may be
    off its core, kept there by another process, for longer than the whole
    pair takes. The two then write the same numbers (a pair's values
    depend only on the pairs it reads, solved), so nothing is lost but the
    time of one pair, and a busy machine never makes the solve wait for a
    worker that does not run.

    Where scores can fall, a pair also reads pairs of smaller sums, not
    yet solved in this pass: those reads (and a pair's warm start and its
    change) go to ``Vf``, the table as the last pass left it, so the
    workers share a pass as they share the single one of scores that never
    fall, and a pass gives the same numbers as one worker solving the pairs
    in order (which reads only last pass's values there too). Where scores
    never fall, ``Vf`` is ``V``.

    ``out[m]`` receives pair ``m``'s report (:func:`_solve_pair`);
    ``work[w]`` the pairs worker ``w`` solved and, in ``work[w, 1]``, how
    many of them were another's it took over. With one feedback state the
    pairs are solved by :func:`_solve_pair2` (``st``, ``oc``, ``oq``,
    ``opt_nb``: the packed tables of :func:`designer.engine.solve.plan`;
    ``simple``: its states are simple, :func:`_sweep2s`)."""
    nF = fh.shape[0]
    K1 = 2 * nF + 1
    H = V.shape[1]
    # each thread's rows PAD numbers apart (_solve_one takes its slices), so
    # that two threads' small rows never share a cache line (a die's turn
    # starts are two rows, the count of kept decisions one number)
    PAD = 16
    W = np.zeros((nt, 2, nodes, K1))
    B = np.zeros((nt, 2, H + PAD, K1))
    # the two-unknown kernels take each thread's tables with the sides stacked
    W2 = W.reshape((nt, 2 * nodes, K1))
    B2 = np.zeros((nt, 2 * H + PAD, K1))
    acc = np.zeros((nt, K1 + PAD))
    cb = np.zeros((nt, K1 + PAD))
    u = np.zeros((nt, K1 + PAD))
    v = np.zeros((nt, K1 + PAD))
    cap = 2 * nodes + 16  # decisions kept near a tie, per thread
    mg = np.zeros((nt, cap, K1 + (1 if nF == 1 else 0)))
    mgs = np.zeros((nt, cap), dtype=np.bool_)
    cnt = np.zeros((nt, 1 + PAD), dtype=np.int64)
    x = np.zeros((nt, K1 - 1 + PAD))
    y = np.zeros((nt, K1 - 1 + PAD))
    M = np.zeros((nt, K1 - 1 + PAD, K1))
    n = V.shape[0]
    npairs = pairs.shape[0]
    claim = np.zeros(1, dtype=np.int64)
    done = np.zeros(npairs, dtype=np.int64)
    cf = np.array([goal, lo, min_bank, 1 if forced_first else 0, 1 if simple else 0],
                  dtype=np.int64)
    for w in prange(nt):
        t = numba.get_thread_id()
        spent = 0  # cycles this worker spent on its pairs
        solved = 0
        while True:
            m = fetch_add(claim, 0, 1)
            if m >= npairs:
                break
            # wait for the inputs, or take them over (the docstring)
            patience = 2 * spent // max(solved, 1) + 20_000
            while True:
                d = await_inputs(m, pairs, n, groups, done, patience)
                if d < 0:
                    break
                if load_acquire(done, d) == 0:
                    _solve_one(d, t, pairs, goal, lo, min_bank, forced_first, tie, tol,
                               pi_sweeps, pi_exact, max_sweeps, warm, cont_start, out_start,
                               out_prob, out_kind, out_points, out_h, out_effect, out_penalty,
                               opt_start, opt_gain, opt_next, hand_h, pass_ok, hidx, fb, fh,
                               blk_ptr, blk_states, blk_tmax, node_base, node_len, st, oc, oq,
                               opt_nb, cf, V, Vf, W, B, W2, B2, acc, cb, u, v, mg, mgs, cnt, x,
                               y, M, out, done)
                    work[w, 1] += 1
            t0 = cycles()
            _solve_one(m, t, pairs, goal, lo, min_bank, forced_first, tie, tol, pi_sweeps,
                       pi_exact, max_sweeps, warm, cont_start, out_start, out_prob, out_kind,
                       out_points, out_h, out_effect, out_penalty, opt_start, opt_gain, opt_next,
                       hand_h, pass_ok, hidx, fb, fh, blk_ptr, blk_states, blk_tmax, node_base,
                       node_len, st, oc, oq, opt_nb, cf, V, Vf, W, B, W2, B2, acc, cb, u, v, mg,
                       mgs, cnt, x, y, M, out, done)
            spent += cycles() - t0
            solved += 1
            work[w, 0] += 1
