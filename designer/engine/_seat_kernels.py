"""Numba kernels of the engine for three and four seats: one rotation class
of score tuples at a time, any turn model.

Arrays in, preallocated arrays out; the plan (feedback states, the order
of the sweep, the node layout) is the two-seat plan of
:func:`designer.engine.solve.plan`, and :mod:`designer.engine.seats` has
the mathematics.

Affine values in class coordinates
----------------------------------
Inside the class of a score tuple ``c = (c_0, ..., c_{N-1})`` (score
indices, the mover of rotation ``rho`` is seat ``rho`` of the class and
holds ``c_rho``), a value is a vector with one win probability per seat
*of the class* (component ``a`` is class seat ``a``, whoever moves), so a
chance step averages vectors without rotating them. The class's unknowns
are the turn-start vectors ``X_k`` of rotation ``r = k // nF`` at feedback
state ``fh[k % nF]``, ``K = N nF`` of them, and under a fixed policy every
value of the class is

    v = c + sum_k b_k X_k

with a constant vector ``c`` (``N`` numbers) and ``K`` scalar weights
``b_k``: a row of ``D = N + K`` numbers. The mover of rotation ``rho``
compares the component ``rho`` of two rows at the estimate ``X``. A sweep
gives the unknowns' own rows, ``X = C + B X``, and the fixed point of the
policy swept solves ``(I - B) Y = C``: ``K`` unknowns, ``N`` right-hand
sides.

Tables
------
``V[f // n, h, f % n, r]``: the win probability, at a turn start from
start state ``h``, of the seat ``r`` places after the mover, at the score
tuple of flat index ``f`` (score indices in seat order from the mover,
digits base ``n``, the mover's the most significant). The last score
comes after the start state so that the stops of one state at ``t = 0,
1, 2, ...``, which land on tuples that differ in their last score only,
read neighbours in memory; the game length
(:mod:`designer.engine.seat_length`) reads the table so, without a copy.
(The solve itself gained 2-5% from it on Fowl Play with three seats: its
time is in the rows' arithmetic.) Per thread: ``W[rho * nodes +
node]`` the rows in a turn, ``Wv`` the mover's own value of each at the
estimate and ``Wl`` the sum of its weights' magnitudes (a bound of how
fast the unknowns can move it), ``B[rho * H + h]`` the rows of the turn
starts.
"""

import numpy as np

from designer._jit import kernel
from designer.engine._kernels import (bust_score, OC_KIND, OC_POINTS, OP_CHOICE,
                                      OP_FEEDBACK, OP_GENERAL, OP_MOVE, ST_BASE, ST_C0, ST_C1,
                                      ST_HAND, ST_LEN, ST_PASS, ST_START)
from designer.engine._sync import cycles, fetch_add, load_acquire, store_release

# mirrors of designer.engine.model (module-level integers are frozen in at
# compile time)
_END = 2

#: Decisions that flip once the unknowns move by less than this are kept
#: (their affine margins) and checked one by one at a new estimate; the
#: others only bound how far it may move (as in the two-seat kernels).
NEAR = 1e-2

# columns of a class's report
R_RESIDUAL, R_SWEEPS, R_SETTLED, R_STATUS, R_CHANGE = 0, 1, 2, 3, 4
#: Columns of a class's report.
REPORT = 5


# -- the classes ------------------------------------------------------------------

@kernel
def rotation_classes(N, n):
    """The rotation classes of the tuples ``0 .. n-1`` of length ``N``.

    Returns ``reps`` (one row per class: its tuple of smallest flat index),
    ``groups`` (``reps[groups[g]:groups[g + 1]]`` share one score sum,
    sums decreasing with ``g``) and ``class_of`` (int32, the class of every
    flat tuple)."""
    total = n ** N
    digits = np.empty(N, dtype=np.int64)
    per_sum = np.zeros(N * (n - 1) + 2, dtype=np.int64)
    canon = np.zeros(total, dtype=np.bool_)
    for f in range(total):
        rest = f
        s = 0
        for a in range(N - 1, -1, -1):
            digits[a] = rest % n
            s += digits[a]
            rest //= n
        ok = True
        for r in range(1, N):
            g = 0
            for a in range(N):
                g = g * n + digits[(a + r) % N]
            if g < f:
                ok = False
                break
        if ok:
            canon[f] = True
            per_sum[s] += 1
    top = N * (n - 1)
    ngroups = 0
    for s in range(top + 1):
        if per_sum[s] > 0:
            ngroups += 1
    groups = np.zeros(ngroups + 1, dtype=np.int64)
    start = np.zeros(top + 1, dtype=np.int64)
    g = 0
    m = 0
    for s in range(top, -1, -1):
        if per_sum[s] > 0:
            start[s] = m
            m += per_sum[s]
            g += 1
            groups[g] = m
    reps = np.empty((m, N), dtype=np.int64)
    fill = start.copy()
    for f in range(total):
        if canon[f]:
            rest = f
            s = 0
            for a in range(N - 1, -1, -1):
                digits[a] = rest % n
                s += digits[a]
                rest //= n
            k = fill[s]
            fill[s] += 1
            for a in range(N):
                reps[k, a] = digits[a]
    class_of = np.empty(total, dtype=np.int32)
    for k in range(m):
        for r in range(N):
            g = 0
            for a in range(N):
                g = g * n + reps[k, (a + r) % N]
            class_of[g] = k
    return reps, groups, class_of


@kernel
def _flat(canon, rho, n):
    """Flat index of rotation ``rho`` of ``canon`` (mover ``canon[rho]`` first)."""
    N = canon.shape[0]
    f = 0
    for a in range(N):
        f = f * n + canon[(rho + a) % N]
    return f


# -- affine rows --------------------------------------------------------------------

@kernel
def _comp(T, row, a, X, N):
    """Component ``a`` at ``X`` of the affine row ``T[row]``."""
    r = T[row, a]
    for k in range(X.shape[0]):
        r += T[row, N + k] * X[k, a]
    return r


@kernel
def _keep(rad, m, slope, u, urow, v, vrow, rho, thr, N, mg, mgr, mgs, cnt):
    """A decision between the rows ``u[urow]`` (taken when the margin
    ``m`` > 0) and ``v[vrow]``, with margin ``m`` at the estimate (own
    component ``rho``, less ``thr``) and ``slope`` the sum of its
    weights' magnitudes: kept in ``mg`` with its component and outcome if
    it is near a tie and room remains, else the new radius ``rad``: how
    far (the largest change of one unknown's component) the estimate may
    move before the decision flips."""
    am = abs(m)
    c = cnt[0]
    if am < NEAR * slope and c < mg.shape[0]:
        mg[c, 0] = u[urow, rho] - v[vrow, rho] - thr
        for k in range(mg.shape[1] - 1):
            mg[c, 1 + k] = u[urow, N + k] - v[vrow, N + k]
        mgr[c] = rho
        mgs[c] = m > 0.0
        cnt[0] = c + 1
        return rad
    return min(rad, am / slope)


@kernel
def _slope(u, urow, v, vrow, N, K):
    s = 0.0
    for k in range(K):
        s += abs(u[urow, N + k] - v[vrow, N + k])
    return s


@kernel
def _kept_hold(mg, mgr, mgs, cnt, Y):
    """True if every kept decision comes out the same at ``Y``."""
    K = Y.shape[0]
    for c in range(cnt[0]):
        a = mgr[c]
        m = mg[c, 0]
        for k in range(K):
            m += mg[c, 1 + k] * Y[k, a]
        if (m > 0.0) != mgs[c]:
            return False
    return True


# -- one sweep ----------------------------------------------------------------------

@kernel
def _sweep(canon, X, cf, tie, st, out_start, out_prob, oq, oc, opt_start, opt_gain, opt_nb, fb,
           blk_ptr, blk_states, blk_tmax, rot, V, Vf, W, Wv, Wl, B, acc, cb, sv, mg, mgr, mgs,
           cnt):
    """One backward sweep over every rotation's turn of the class of
    ``canon``, deciding at the estimate ``X`` (shape ``K x N``). Writes the
    rows of in-turn positions to ``W`` (with ``Wv``, ``Wl``) and of turn
    starts to ``B``. Returns how far the unknowns may move with every
    decision not kept in ``mg`` still greedy.

    ``acc``, ``cb``, ``sv``: scratch rows (shape ``1 x D``): a
    continuation's row, the best continuation's and the stop's."""
    N = canon.shape[0]
    K = X.shape[0]
    nF = K // N
    D = N + K
    goal, lo, min_bank, forced, n = cf[0], cf[1], cf[2], cf[3] != 0, cf[4]
    nodes = Wv.shape[0] // N
    H = B.shape[0] // N
    rad = np.inf
    cnt[0] = 0
    for blk in range(blk_ptr.shape[0] - 1):
        q0 = blk_ptr[blk]
        q1 = blk_ptr[blk + 1]
        for rho in range(N):
            mi = canon[rho] + lo
            tcap = max(goal - mi, min_bank)
            nxt = rho + 1 if rho + 1 < N else 0
            wo = rho * nodes
            bn = nxt * H
            bw = rho * H
            # the tuple a stop of t lands on, less t (next mover first,
            # this mover's score last)
            bs = 0
            for a in range(1, N):
                bs = bs * n + canon[(rho + a) % N]
            # (the tuples it lands on: bs, then this mover's new score last)
            xo = N + nxt * nF  # the next rotation's unknowns
            for t in range(min(blk_tmax[blk], tcap - 1), -1, -1):
                for q in range(q0, q1):
                    s = blk_states[q]
                    if t >= st[s, ST_LEN]:
                        continue
                    c0 = st[s, ST_C0]
                    c1 = st[s, ST_C1]
                    nd = wo + st[s, ST_BASE] + t
                    bestv = -np.inf
                    for c in range(c0, c1):
                        for d in range(D):
                            acc[0, d] = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE:
                                tt = t + oq[o, 1]
                                if tt >= tcap:  # stopping there wins
                                    acc[0, rho] += p
                                else:
                                    r = wo + oq[o, 2] + tt
                                    for d in range(D):
                                        acc[0, d] += p * W[r, d]
                                continue
                            if op == OP_FEEDBACK:  # the next rotation's only unknown
                                acc[0, xo] += p
                                continue
                            if op == OP_CHOICE:
                                # the best option by the mover's own value,
                                # ties to the first listed; every other
                                # option against it is a decision to note
                                bo = -1
                                bv = -np.inf
                                for r in range(opt_start[o], opt_start[o + 1]):
                                    tt = t + opt_gain[r]
                                    val = 1.0 if tt >= tcap else Wv[wo + opt_nb[r] + tt]
                                    if val > bv:
                                        bv = val
                                        bo = r
                                tb = t + opt_gain[bo]
                                win_b = tb >= tcap
                                ib = wo + opt_nb[bo] + tb
                                lb = 0.0 if win_b else Wl[ib]
                                for r in range(opt_start[o], opt_start[o + 1]):
                                    if r == bo:
                                        continue
                                    tt = t + opt_gain[r]
                                    if tt >= tcap:
                                        if win_b:
                                            continue
                                        # a win against the best: weights of the best only
                                        for d in range(D):
                                            sv[0, d] = 0.0
                                        sv[0, rho] = 1.0
                                        m = bv - 1.0
                                        if abs(m) < rad * lb:
                                            rad = _keep(rad, m, lb, W, ib, sv, 0, rho, 0.0, N,
                                                        mg, mgr, mgs, cnt)
                                        continue
                                    i = wo + opt_nb[r] + tt
                                    m = bv - Wv[i]
                                    if abs(m) < rad * (lb + Wl[i]):
                                        if win_b:
                                            for d in range(D):
                                                sv[0, d] = 0.0
                                            sv[0, rho] = 1.0
                                            sl = _slope(sv, 0, W, i, N, K)
                                            if sl > 0.0:
                                                rad = _keep(rad, m, sl, sv, 0, W, i, rho, 0.0, N,
                                                            mg, mgr, mgs, cnt)
                                        else:
                                            sl = _slope(W, ib, W, i, N, K)
                                            if sl > 0.0:
                                                rad = _keep(rad, m, sl, W, ib, W, i, rho, 0.0, N,
                                                            mg, mgr, mgs, cnt)
                                if win_b:
                                    acc[0, rho] += p
                                else:
                                    for d in range(D):
                                        acc[0, d] += p * W[ib, d]
                                continue
                            # a turn start of the next rotation, at this score or another
                            h = oq[o, 3]
                            ns = mi
                            if op == OP_GENERAL:
                                if oc[o, OC_KIND] == _END:
                                    tot = t + oc[o, OC_POINTS]
                                    if mi + tot >= goal:  # a win
                                        acc[0, rho] += p
                                        continue
                                    if tot > 0:  # banked: a solved tuple
                                        for a in range(N):
                                            acc[0, a] += p * V[bs, h, mi - lo + tot, rot[rho, a]]
                                        continue
                                else:  # a bust that may change the banked score
                                    ns = bust_score(oc, o, mi, lo)
                            if ns != mi:
                                for a in range(N):
                                    acc[0, a] += p * Vf[bs, h, ns - lo, rot[rho, a]]
                                continue
                            fk = fb[h]
                            if fk >= 0:
                                acc[0, xo + fk] += p
                            else:
                                for d in range(D):
                                    acc[0, d] += p * B[bn + h, d]
                        val = _comp(acc, 0, rho, X, N)
                        if c > c0:  # a later continuation must beat the best
                            sl = _slope(acc, 0, cb, 0, N, K)
                            m = val - bestv
                            if sl > 0.0 and abs(m) < rad * sl:
                                rad = _keep(rad, m, sl, acc, 0, cb, 0, rho, 0.0, N, mg, mgr, mgs,
                                            cnt)
                        if val > bestv:
                            bestv = val
                            for d in range(D):
                                cb[0, d] = acc[0, d]
                    go = True
                    pass_s = st[s, ST_PASS]
                    if t >= min_bank and (t > 0 or pass_s):  # stopping is allowed
                        for d in range(D):
                            sv[0, d] = 0.0
                        if t > 0:
                            hh = st[s, ST_HAND]
                            for a in range(N):
                                sv[0, a] = V[bs, hh, mi - lo + t, rot[rho, a]]
                            thr = tie
                        else:  # a pass: the next rotation starts from the hand-over
                            thr = -tie
                            hh = st[s, ST_HAND]
                            fk = fb[hh]
                            if fk >= 0:
                                sv[0, xo + fk] = 1.0
                            else:
                                for d in range(D):
                                    sv[0, d] = B[bn + hh, d]
                        stv = _comp(sv, 0, rho, X, N)
                        # ties go to stopping, except at a turn total of 0,
                        # where stopping passes: passes answered by passes
                        # would never end the game
                        m = bestv - stv - thr
                        go = m > 0.0
                        if c1 > c0:
                            sl = _slope(cb, 0, sv, 0, N, K)
                            if sl > 0.0 and abs(m) < rad * sl:
                                rad = _keep(rad, m, sl, cb, 0, sv, 0, rho, thr, N, mg, mgr, mgs,
                                            cnt)
                    hs = st[s, ST_START]
                    if t == 0 and hs >= 0 and forced:  # a turn starts with a roll or draw
                        for d in range(D):
                            B[bw + hs, d] = cb[0, d]
                    if go:
                        ownv = bestv
                        for d in range(D):
                            W[nd, d] = cb[0, d]
                    else:
                        ownv = stv
                        for d in range(D):
                            W[nd, d] = sv[0, d]
                    Wv[nd] = ownv
                    lw = 0.0
                    for k in range(K):
                        lw += abs(W[nd, N + k])
                    Wl[nd] = lw
                    if t == 0 and hs >= 0 and not forced:
                        for d in range(D):
                            B[bw + hs, d] = W[nd, d]
    return rad


@kernel
def _keep1(rad, m, slope, dc, db, rho, nxt, thr, mg, mgr, mgs, cnt):
    """:func:`_keep` for a sweep with one unknown per rotation
    (:func:`_sweep1`): the margin ``m = dc + db x - thr`` at ``x``, the
    unknown of rotation ``nxt``, component ``rho``; ``slope = |db|``."""
    am = abs(m)
    c = cnt[0]
    if am < NEAR * slope and c < mg.shape[0]:
        for k in range(1, mg.shape[1]):
            mg[c, k] = 0.0
        mg[c, 0] = dc - thr
        mg[c, 1 + nxt] = db
        mgr[c] = rho
        mgs[c] = m > 0.0
        cnt[0] = c + 1
        return rad
    return min(rad, am / slope)


@kernel
def _sweep1(canon, X, cf, tie, st, out_start, out_prob, oq, oc, opt_start, opt_gain, opt_nb,
            blk_ptr, blk_states, blk_tmax, rot, V, Vf, W, Wv, B, mg, mgr, mgs, cnt):
    """:func:`_sweep` for a turn model with one start state (every game of
    dice): every turn that ends without a score change starts the next
    rotation's turn at that state, so a row of rotation ``rho`` has one
    weight, on the next rotation's unknown: ``N + 1`` numbers ``W[i, :N]``
    (the constant vector) and ``W[i, N]`` (the weight). The turn starts are
    written to ``B`` as full rows, as :func:`_sweep` writes them.

    Written out in one loop, as the two-seat kernels are: numba does not
    inline a call, and a call that passes arrays costs reference counts."""
    N = canon.shape[0]
    E = N + 1
    goal, lo, min_bank, forced = cf[0], cf[1], cf[2], cf[3] != 0
    n = cf[4]
    nodes = Wv.shape[0] // N
    rad = np.inf
    cnt[0] = 0
    a0 = np.zeros(8)  # a continuation's row
    cbr = np.zeros(8)  # the best continuation's row
    svr = np.zeros(8)  # the stop's row
    for blk in range(blk_ptr.shape[0] - 1):
        q0 = blk_ptr[blk]
        q1 = blk_ptr[blk + 1]
        for rho in range(N):
            mi = canon[rho] + lo
            tcap = max(goal - mi, min_bank)
            nxt = rho + 1 if rho + 1 < N else 0
            x = X[nxt, rho]  # the next rotation's unknown, in this mover's component
            wo = rho * nodes
            bs = 0  # the next mover's tuple, less this mover's score (last)
            for a in range(1, N):
                bs = bs * n + canon[(rho + a) % N]
            for t in range(min(blk_tmax[blk], tcap - 1), -1, -1):
                for q in range(q0, q1):
                    s = blk_states[q]
                    if t >= st[s, ST_LEN]:
                        continue
                    c0 = st[s, ST_C0]
                    c1 = st[s, ST_C1]
                    nd = wo + st[s, ST_BASE] + t
                    bestv = -np.inf
                    for c in range(c0, c1):
                        for d in range(E):
                            a0[d] = 0.0
                        for o in range(out_start[c], out_start[c + 1]):
                            p = out_prob[o]
                            op = oq[o, 0]
                            if op == OP_MOVE:
                                tt = t + oq[o, 1]
                                if tt >= tcap:  # stopping there wins
                                    a0[rho] += p
                                else:
                                    r = wo + oq[o, 2] + tt
                                    for d in range(E):
                                        a0[d] += p * W[r, d]
                                continue
                            if op == OP_CHOICE:
                                # the best option, ties to the first listed,
                                # found by comparing each option with the
                                # best before it: if every comparison keeps
                                # its sign, so does the choice
                                r0 = opt_start[o]
                                tt = t + opt_gain[r0]
                                if tt >= tcap:
                                    ib = -1
                                    bv = 1.0
                                    bb = 0.0
                                else:
                                    ib = wo + opt_nb[r0] + tt
                                    bv = Wv[ib]
                                    bb = W[ib, N]
                                for r in range(r0 + 1, opt_start[o + 1]):
                                    tt = t + opt_gain[r]
                                    if tt >= tcap:
                                        i = -1
                                        v = 1.0
                                        vb = 0.0
                                    else:
                                        i = wo + opt_nb[r] + tt
                                        v = Wv[i]
                                        vb = W[i, N]
                                    m = v - bv
                                    db = vb - bb
                                    sl = abs(db)
                                    if abs(m) < rad * sl:
                                        dc = m - db * x
                                        rad = _keep1(rad, m, sl, dc, db, rho, nxt, 0.0, mg, mgr,
                                                     mgs, cnt)
                                    if v > bv:
                                        bv = v
                                        bb = vb
                                        ib = i
                                if ib < 0:
                                    a0[rho] += p
                                else:
                                    for d in range(E):
                                        a0[d] += p * W[ib, d]
                                continue
                            if op == OP_FEEDBACK:  # the next rotation's turn start
                                a0[N] += p
                                continue
                            # an end, or a bust that may change the banked score
                            h = oq[o, 3]
                            ns = mi
                            if op == OP_GENERAL:
                                if oc[o, OC_KIND] == _END:
                                    tot = t + oc[o, OC_POINTS]
                                    if mi + tot >= goal:  # a win
                                        a0[rho] += p
                                        continue
                                    if tot > 0:  # banked: a solved tuple
                                        for a in range(N):
                                            a0[a] += p * V[bs, h, mi - lo + tot, rot[rho, a]]
                                        continue
                                else:
                                    ns = bust_score(oc, o, mi, lo)
                            if ns != mi:
                                for a in range(N):
                                    a0[a] += p * Vf[bs, h, ns - lo, rot[rho, a]]
                            else:
                                a0[N] += p
                        val = a0[rho] + a0[N] * x
                        if c > c0:  # a later continuation must beat the best
                            db = a0[N] - cbr[N]
                            sl = abs(db)
                            m = val - bestv
                            if abs(m) < rad * sl:
                                rad = _keep1(rad, m, sl, a0[rho] - cbr[rho], db, rho, nxt, 0.0,
                                             mg, mgr, mgs, cnt)
                        if val > bestv:
                            bestv = val
                            for d in range(E):
                                cbr[d] = a0[d]
                    go = True
                    stv = 0.0
                    if t >= min_bank and (t > 0 or st[s, ST_PASS]):  # stopping is allowed
                        if t > 0:
                            hh = st[s, ST_HAND]
                            for a in range(N):
                                svr[a] = V[bs, hh, mi - lo + t, rot[rho, a]]
                            svr[N] = 0.0
                            thr = tie
                        else:  # a pass: the next rotation's turn start
                            for a in range(N):
                                svr[a] = 0.0
                            svr[N] = 1.0
                            thr = -tie
                        stv = svr[rho] + svr[N] * x
                        # ties go to stopping, except at a turn total of 0,
                        # where stopping passes: passes answered by passes
                        # would never end the game
                        m = bestv - stv - thr
                        go = m > 0.0
                        if c1 > c0:
                            db = cbr[N] - svr[N]
                            sl = abs(db)
                            if abs(m) < rad * sl:
                                rad = _keep1(rad, m, sl, cbr[rho] - svr[rho], db, rho, nxt, thr,
                                             mg, mgr, mgs, cnt)
                    hs = st[s, ST_START]
                    if t == 0 and hs >= 0:  # the turn start: a full row
                        for d in range(B.shape[1]):
                            B[rho, d] = 0.0
                        if forced or go:
                            for a in range(N):
                                B[rho, a] = cbr[a]
                            B[rho, N + nxt] = cbr[N]
                        else:
                            for a in range(N):
                                B[rho, a] = svr[a]
                            B[rho, N + nxt] = svr[N]
                    if go:
                        Wv[nd] = bestv
                        for d in range(E):
                            W[nd, d] = cbr[d]
                    else:
                        Wv[nd] = stv
                        for d in range(E):
                            W[nd, d] = svr[d]
    return rad


# -- one class ----------------------------------------------------------------------

@kernel
def _rows(B, fh, H, N, Cm, Bm):
    """The unknowns' own rows ``X = C + B X`` from the turn starts."""
    K = Bm.shape[0]
    nF = fh.shape[0]
    for k in range(K):
        row = (k // nF) * H + fh[k % nF]
        for a in range(N):
            Cm[k, a] = B[row, a]
        for j in range(K):
            Bm[k, j] = B[row, N + j]


@kernel
def _backup(Cm, Bm, X, out):
    """One greedy backup ``C + B X`` into ``out``; returns ``max |out - X|``."""
    K, N = X.shape
    res = 0.0
    for k in range(K):
        for a in range(N):
            v = Cm[k, a]
            for j in range(K):
                v += Bm[k, j] * X[j, a]
            out[k, a] = v
            res = max(res, abs(v - X[k, a]))
    return res


@kernel
def _fixed_point(Cm, Bm, A, Y):
    """Solve ``(I - B) Y = C`` (Gaussian elimination, partial pivoting);
    False when singular (a policy under which the class's turns never end)."""
    K, N = Y.shape
    for r in range(K):
        for c in range(K):
            A[r, c] = (1.0 if r == c else 0.0) - Bm[r, c]
        for a in range(N):
            A[r, K + a] = Cm[r, a]
    for col in range(K):
        piv = col
        for r in range(col + 1, K):
            if abs(A[r, col]) > abs(A[piv, col]):
                piv = r
        if abs(A[piv, col]) < 1e-300:
            return False
        if piv != col:
            for c in range(K + N):
                tmp = A[col, c]
                A[col, c] = A[piv, c]
                A[piv, c] = tmp
        for r in range(col + 1, K):
            f = A[r, col] / A[col, col]
            if f != 0.0:
                for c in range(col, K + N):
                    A[r, c] -= f * A[col, c]
    for col in range(K - 1, -1, -1):
        for a in range(N):
            v = A[col, K + a]
            for j in range(col + 1, K):
                v -= A[col, j] * Y[j, a]
            Y[col, a] = v / A[col, col]
    return True


@kernel
def _guess(V, canon, rho, h, n, out, wrap):
    """Warm start of the turn start of rotation ``rho`` at start ``h`` from
    the solved tuples above it: inclusion-exclusion over the corners of the
    unit cube of the coordinates that can rise (exact for a value linear in
    each score), clipped to ``[0, 1]``; written into ``out`` in class
    coordinates (``wrap[a]``: the entry of ``V`` that class seat ``a`` is)."""
    N = canon.shape[0]
    f0 = _flat(canon, rho, n)
    up = 0  # bit i: coordinate i (from the mover) can rise
    for i in range(N):
        if canon[(rho + i) % N] + 1 < n:
            up |= 1 << i
    for a in range(N):
        out[a] = 0.0
    if up == 0:
        for a in range(N):
            out[a] = 1.0 / N
        return
    sub = up
    while sub > 0:
        f = f0
        bits = 0
        for i in range(N):
            if sub >> i & 1:
                f += n ** (N - 1 - i)
                bits += 1
        sign = 1.0 if bits % 2 == 1 else -1.0
        fp = f // n
        for a in range(N):
            out[a] += sign * V[fp, h, f - fp * n, wrap[a]]
        sub = (sub - 1) & up
    for a in range(N):
        out[a] = min(1.0, max(0.0, out[a]))


@kernel
def _solve_class(m, reps, cf, tie, tol, pi_limit, pi_exact, limit, unsettle, damp, warm, st, out_start,
                 out_prob, oq, oc, opt_start, opt_gain, opt_nb, fb, fh, blk_ptr, blk_states,
                 blk_tmax, rot, V, Vf, W, Wv, Wl, B, acc, cb, sv, mg, mgr, mgs, cnt, X, Y, Xb,
                 Cm, Bm, A, g, out):
    """Solve class ``m`` (the rule in :mod:`designer.engine.seats`); ``out``:
    residual, sweeps, settled (1) or not (0), status (0 ok, 1 no
    convergence), largest change of a stored value."""
    canon = reps[m]
    N = canon.shape[0]
    K = X.shape[0]
    nF = fh.shape[0]
    n = cf[4]
    H = B.shape[0] // N
    for k in range(K):
        r = k // nF
        h = fh[k % nF]
        for a in range(N):
            g[a] = rot[(r + N - 1) % N, a]  # class seat a, r's mover first
        if warm:
            f = _flat(canon, r, n)
            fp = f // n
            for a in range(N):
                X[k, a] = Vf[fp, h, f - fp * n, g[a]]
        else:
            _guess(V, canon, r, h, n, Y[k], g)
            for a in range(N):
                X[k, a] = Y[k, a]
    sweeps = 0
    best = np.inf
    settled = 1.0
    status = 0.0
    res = np.inf
    while True:
        if H == 1:
            rad = _sweep1(canon, X, cf, tie, st, out_start, out_prob, oq, oc, opt_start,
                          opt_gain, opt_nb, blk_ptr, blk_states, blk_tmax, rot, V, Vf, W, Wv, B,
                          mg, mgr, mgs, cnt)
        else:
            rad = _sweep(canon, X, cf, tie, st, out_start, out_prob, oq, oc, opt_start, opt_gain,
                         opt_nb, fb, blk_ptr, blk_states, blk_tmax, rot, V, Vf, W, Wv, Wl, B,
                         acc, cb, sv, mg, mgr, mgs, cnt)
        sweeps += 1
        _rows(B, fh, H, N, Cm, Bm)
        res = _backup(Cm, Bm, X, Y)
        if settled == 0.0:  # the last sweep of an unsettled class, at its best iterate
            res = best
            break
        if res < best:
            best = res
            for k in range(K):
                for a in range(N):
                    Xb[k, a] = X[k, a]
        pi = sweeps <= pi_limit and _fixed_point(Cm, Bm, A, Y)
        gap = np.inf
        if pi:
            gap = 0.0
            for k in range(K):
                for a in range(N):
                    gap = max(gap, abs(Y[k, a] - X[k, a]))
            if gap < 0.5 * rad and _kept_hold(mg, mgr, mgs, cnt, Y):
                # no decision of the sweep flips between X and its fixed
                # point Y: the sweep's rows at Y are the exact values of a
                # policy greedy at them
                for k in range(K):
                    for a in range(N):
                        X[k, a] = Y[k, a]
                res = _backup(Cm, Bm, X, Y)
                break
        if res <= tol and (not pi or sweeps >= pi_exact or gap <= 1e-15):
            break
        if sweeps >= limit:
            if unsettle:  # a max-n cycle: one more sweep at the best iterate
                settled = 0.0
                for k in range(K):
                    for a in range(N):
                        X[k, a] = Xb[k, a]
                continue
            status = 1.0
            break
        if pi:
            for k in range(K):
                for a in range(N):
                    X[k, a] = Y[k, a]
        else:
            # a greedy backup, or (damp = 1/2) half of one, which
            # converges even where the backup alone would cycle
            _backup(Cm, Bm, X, Y)
            for k in range(K):
                for a in range(N):
                    X[k, a] = damp * X[k, a] + (1.0 - damp) * Y[k, a]
    change = 0.0
    for rho in range(N):
        f = _flat(canon, rho, n)
        fp = f // n
        fl = f - fp * n
        for h in range(H):
            for a in range(N):
                v = _comp(B, rho * H + h, a, X, N)
                r = (a - rho) % N
                change = max(change, abs(v - Vf[fp, h, fl, r]))
                V[fp, h, fl, r] = v
    out[0] = res
    out[1] = sweeps
    out[2] = settled
    out[3] = status
    out[4] = change


# -- the schedule -------------------------------------------------------------------

@kernel
def _missing_input(m, reps, class_of, pw, n, done):
    """A class that class ``m`` reads and that is not solved yet, or -1.

    A class reads (stops, ends, its warm start) tuples with one score
    raised; each of those classes was solved only after the class of the
    same tuple raised by one point less, so the classes of the tuples
    with one score raised by one being solved is enough (scores that never
    fall)."""
    N = reps.shape[1]
    f = 0
    for a in range(N):
        f = f * n + reps[m, a]
    for i in range(N):
        if reps[m, i] + 1 < n:
            d = class_of[f + pw[i]]
            if load_acquire(done, d) == 0:
                return d
    return -1


@kernel
def scratch(N, nF, H, nodes, n):
    """One thread's scratch of :func:`worker`: the rows of a class's turns
    and turn starts, the decisions kept near a tie, the estimate and the
    unknowns' linear system; and the class seats of each rotation
    (``rot``) and the place values of a tuple's digits (``pw``)."""
    K = N * nF
    D = N + K
    cap = N * nodes + 16  # decisions kept near a tie
    rot = np.empty((N, N), dtype=np.int64)  # rot[rho, a]: class seat a after rho's next mover
    for rho in range(N):
        for a in range(N):
            rot[rho, a] = (a - rho - 1) % N
    pw = np.empty(N, dtype=np.int64)
    for i in range(N):
        pw[i] = n ** (N - 1 - i)
    return (np.zeros((N * nodes, D)), np.zeros(N * nodes), np.zeros(N * nodes),
            np.zeros((N * H, D)), np.zeros((1, D)), np.zeros((1, D)), np.zeros((1, D)),
            np.zeros((cap, K + 1)), np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.bool_),
            np.zeros(1, dtype=np.int64), np.zeros((K, N)), np.zeros((K, N)), np.zeros((K, N)),
            np.zeros((K, N)), np.zeros((K, K)), np.zeros((K, K + N)), np.zeros(N, dtype=np.int64),
            rot, pw)


@kernel
def worker(w, workers, reps, class_of, cf, tie, tol, pi_limit, pi_exact, limit, unsettle, damp, warm,
           st, out_start, out_prob, oq, oc, opt_start, opt_gain, opt_nb, fb, fh, blk_ptr,
           blk_states, blk_tmax, V, Vf, out, work, claim, done, W, Wv, Wl, B, acc, cb, sv, mg,
           mgr, mgs, cnt, X, Y, Xb, Cm, Bm, A, g, rot, pw):
    """Worker ``w`` of ``workers`` (one thread each, this kernel releases
    the interpreter's lock): solve the classes of ``reps`` (by decreasing
    score sum) until none is left, each with this worker's scratch
    (:func:`scratch`).

    Each worker claims the next class from the shared counter ``claim``
    and solves it once the classes it reads are solved
    (:func:`_missing_input`, flags in ``done``). A worker that finds an
    input still in another's hands waits a little (twice its own average
    time per class), then solves that input itself, as the two-seat
    schedule does (:func:`designer.engine._kernels.solve_pairs`): the
    other worker may be kept off its core by another process for longer
    than the whole class takes, and both write the same numbers. Where
    scores can fall a class also reads classes of smaller sums, not yet
    solved in this pass: those reads, its warm start and its change go to
    ``Vf``, the table as the last pass left it, so that the numbers are
    those of one worker solving the classes in order (``Vf`` is ``V`` where
    scores never fall).

    ``cf``: goal, lowest score, min_bank, forced first (0/1), ``n``.
    ``out[m]``: class ``m``'s report; ``work[w]``: classes this worker
    solved, and how many of them it took over. A class with ``warm[m]``
    starts from its stored values, else from the solved tuples above it."""
    n = cf[4]
    ncls = reps.shape[0]
    spent = 0  # cycles this worker spent on its own classes
    solved = 0
    m = -1  # the class claimed and not solved yet
    t0 = 0
    while True:
        if m < 0:
            m = fetch_add(claim, 0, 1)
            if m >= ncls:
                break
            t0 = cycles()
        todo = m
        if workers > 1:
            # wait for the inputs, or take them over (the docstring)
            d = _missing_input(m, reps, class_of, pw, n, done)
            if d >= 0:
                if cycles() - t0 < 2 * spent // max(solved, 1) + 20_000:
                    continue
                while True:  # an input whose own inputs are all solved
                    e = _missing_input(d, reps, class_of, pw, n, done)
                    if e < 0:
                        break
                    d = e
                if load_acquire(done, d) != 0:
                    t0 = cycles()
                    continue
                todo = d
        t1 = cycles()
        _solve_class(todo, reps, cf, tie, tol, pi_limit, pi_exact, limit, unsettle, damp,
                     warm[todo], st, out_start, out_prob, oq, oc, opt_start, opt_gain, opt_nb, fb,
                     fh, blk_ptr, blk_states, blk_tmax, rot, V, Vf, W, Wv, Wl, B, acc, cb, sv, mg,
                     mgr, mgs, cnt, X, Y, Xb, Cm, Bm, A, g, out[todo])
        store_release(done, todo, 1)
        if todo == m:
            spent += cycles() - t1
            solved += 1
            work[w, 0] += 1
            m = -1
        else:
            work[w, 1] += 1
            t0 = cycles()
