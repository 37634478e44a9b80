"""Rounds-ending kernels for deck games, N = 2..4 seats.

See :mod:`designer.solve._rounds_common` for the state, the layers and the
unsettled-position rule. Inside a turn that starts at deck state ``(w, c0)``
the states are ``t = 0, 1, ...`` good draws, at deck ``(w, c0 + t)``; a bad
draw passes the turn at ``(w + 1, c0 + t)`` (or a fresh deck after the last
bad item). With ``p_g = c_rem / (w_rem + c_rem)``, ``H_t`` the value of
holding after ``t`` good draws and ``U_t`` the value after a bust there:

.. math::

    D_t = p_g V_{t+1} + (1 - p_g) U_t, \\qquad
    V_t = D_t \\ (t = 0), \\quad
    V_t = H_t \\text{ if } D_t[m] \\le H_t[m] + \\text{tie, else } D_t

(``m`` the mover; max-n). A forced hold (the cap, or the last seat of a
final round once holding wins) ends the chain. Expected remaining actions
``L`` follow the same chain: ``1 + p_g L_{t+1} + (1 - p_g) L(U_t)`` for a
draw, ``1 + L(\\text{after the hold})`` for a hold.

Tables (``W`` = values, ``L`` = lengths, ``P`` = first good draw after which
the mover holds; larger than the goods left means "never holds"):
``Wo[m, S_m, w, c, r]`` for open rounds (``S_m`` the flat base-G index of
the scores in seat order m, m+1, ..., m-1: see ``rotations``),
``Wf[idx, w, c, r]`` for final rounds, ``Wt[idx, w, c, r]`` for the generic
tie rounds (indices from :mod:`designer.solve._rounds_common`).
"""

import numpy as np

from designer._jit import PI_EXACT, kernel
from designer.solve._classes import chain_scratch, chains_hold, deck_chances, store_start
from designer.solve._rounds_common import (final_after, tie_after, lowest_two, final_states, fidx, lin_solve, rot_stride,
                                           rotations, state_row, tie_round, tie_update)


@kernel
def _chain(mover, N, nU, top, forced, pgs, HA, HL, BA, BB, BL, X, tie, record, mg, dec, outA,
           outB):
    """Backward pass over one turn's chain; returns ``(length, first_hold, lim)``.

    ``HA[t], HL[t]``: value and length (hold included) of holding after t
    good draws (constants); ``BA[t], BB[t], BL[t]``: affine value (constant,
    coefficients on the ``nU`` unknowns) and length of the turn start that a
    bust at ``t`` leads to. ``X[j, r]``: the unknowns' current estimate.
    With ``record`` the affine margins (draw minus hold minus tie, own
    component) go to ``mg[t]`` and the decisions to ``dec[t]``.
    """
    nA = np.zeros(N)
    nB = np.zeros(nU)
    nL = 0.0
    first = top + 1
    t = top
    if forced:
        for r in range(N):
            nA[r] = HA[top, r]
        nL = HL[top]
        first = top
        t = top - 1
    lim = t
    while t >= 0:
        pg = pgs[t]
        pb = 1.0 - pg
        dL = 1.0 + pg * nL + pb * BL[t]
        if t == 0:
            draw = True
        else:
            m0 = pg * nA[mover] + pb * BA[t, mover] - HA[t, mover] - tie
            m1 = m0
            for j in range(nU):
                cj = pg * nB[j] + pb * BB[t, j]
                m1 += cj * X[j, mover]
                if record:
                    mg[t, 1 + j] = cj
            draw = m1 > 0.0
            if record:
                mg[t, 0] = m0
                dec[t] = draw
        if draw:
            for r in range(N):
                nA[r] = pg * nA[r] + pb * BA[t, r]
            for j in range(nU):
                nB[j] = pg * nB[j] + pb * BB[t, j]
            nL = dL
        else:
            for r in range(N):
                nA[r] = HA[t, r]
            for j in range(nU):
                nB[j] = 0.0
            nL = HL[t]
            first = t
        t -= 1
    for r in range(N):
        outA[r] = nA[r]
    for j in range(nU):
        outB[j] = nB[j]
    return nL, first, lim


@kernel
def _scratch(N, good):
    """Hold rows ``HA, HL``, bust successors ``BA, BB, BL``, the chain's
    chances ``pgs``, a (zero) estimate, margins, decisions and the chain's
    turn start ``outA, outB``: what a chain without unknowns needs."""
    sp = good + 2
    return (np.zeros((sp, N)), np.zeros(sp), np.zeros((sp, N)), np.zeros((sp, 1)), np.zeros(sp),
            np.zeros(sp), np.zeros((1, N)), np.zeros((sp, 2)), np.zeros(sp, dtype=np.bool_),
            np.zeros(N), np.zeros(1))


@kernel
def _chains(kind, off, Wf, Lf, toff, Wt, Lt, Y, YL, t, G, pos, Bg, Tm, rest, base, idx, lim_gain, bad,
            good, PG, W, L, P, S, tie):
    """Every turn chain of one tie (``kind`` 0) or final (1) state: the
    mover at position/seat ``pos`` from score ``base`` (0 for a tie round's
    gains) holds at the latest at ``lim_gain``; rows ``W, L, P[idx]``."""
    HA, HL, BA, BB, BL, pgs, X, mg, dec, outA, outB = S
    N = HA.shape[1]
    for w in range(bad - 1, -1, -1):
        for c0 in range(good + 1):
            left = good - c0
            forced = lim_gain <= left
            top = lim_gain if forced else left
            for tt in range(top + 1):
                c = c0 + tt
                pgs[tt] = PG[w, c]
                bw = w + 1 if w + 1 < bad else 0
                bc = c if w + 1 < bad else 0
                if kind == 0:
                    BL[tt] = tie_after(toff, Wt, Lt, Y, YL, t, pos, Bg, Tm, 0, bw, bc, BA[tt])
                else:
                    BL[tt] = final_after(off, Wf, Lf, toff, Wt, Lt, N, G, pos, Bg, Tm, rest, base, bw,
                                         bc, BA[tt])
                if tt >= 1:
                    if kind == 0:
                        h = tie_after(toff, Wt, Lt, Y, YL, t, pos, Bg, Tm, tt, w, c, HA[tt])
                    else:
                        h = final_after(off, Wf, Lf, toff, Wt, Lt, N, G, pos, Bg, Tm, rest, base + tt,
                                        w, c, HA[tt])
                    HL[tt] = 1.0 + h
            ln, first, _ = _chain(pos, N, 0, top, forced, pgs, HA, HL, BA, BB, BL, X, tie, False,
                                  mg, dec, outA, outB)
            for r in range(N):
                W[idx, w, c0, r] = outA[r]
            L[idx, w, c0] = ln
            P[idx, w, c0] = first


@kernel
def solve_ties(N, G, C, bad, good, toff, Wt, Lt, Pt, tol, tie, max_iter, stats):
    """Solve the generic tie rounds for t = 2..N by iterating on their starts."""
    PG = deck_chances(bad, good)
    S = _scratch(N, good)
    Y = np.zeros((bad, good + 1, N))
    YL = np.zeros((bad, good + 1))
    off = np.zeros(1, dtype=np.int64)  # no final table is read in a tie round
    # np.int64: one compiled _chains for ties and finals, not one per
    # literal argument (a numba call specialises on literal constants)
    zero = np.int64(0)
    for t in range(2, N + 1):
        TS = tie_round(toff, t, C, G, Y, YL)
        for it in range(1, max_iter + 1):
            for row in range(TS.shape[0]):
                p, Bg, Tm, idx, lim_gain, _, _ = state_row(TS, row)
                _chains(zero, off, Wt, Lt, toff, Wt, Lt, Y, YL, t, G, p, Bg, Tm, zero, zero, idx,
                        lim_gain, bad, good, PG, Wt, Lt, Pt, S, tie)
            if tie_update(Wt, Lt, toff, t, Y, YL, it, tol, max_iter, stats):
                break


@kernel
def solve_finals(N, G, C, bad, good, off, toff, Wf, Lf, Pf, Wt, Lt, tie):
    """Final rounds, seats N-1 down to 1: one sweep each (no cycle)."""
    PG = deck_chances(bad, good)
    S = _scratch(N, good)
    Y = np.zeros((1, 1, N))
    YL = np.zeros((1, 1))
    FS = final_states(N, G, C, off)
    for row in range(FS.shape[0]):
        m, Bg, Tm, s, rest, idx, lim_gain = state_row(FS, row)
        _chains(np.int64(1), off, Wf, Lf, toff, Wt, Lt, Y, YL, np.int64(0), G, m, Bg, Tm, rest,
                s, idx, lim_gain, bad, good, PG, Wf, Lf, Pf, S, tie)


@kernel
def _gather_holds(N, G, C, bad, good, S, si, rot, off, Wo, Lo, Wf, Lf, HV, HL):
    """The value vector ``HV[m, w, t, c]`` and remaining length ``HL`` of seat
    ``m`` holding after ``t`` good draws at deck ``(w, c)`` in the open round
    of scores ``S``, for every turn of the tuple (``c >= t``).

    They come from tuples already solved and do not change across the
    tuple's sweeps, so they are read once, row by row: for fixed ``(m, w,
    t)`` the source is one table row and ``c`` runs along it. Read inside
    the chains instead, consecutive steps land on a different memory page
    each (the score moves with ``t``), and the sweep spends most of its
    time waiting for address translation.
    """
    for m in range(N):
        s = S[m]
        stride = 1
        for _ in range(N - 1 - m):
            stride *= G
        rest = si % stride
        top = min(good, ((G - s) if m == N - 1 else (C - s)))
        for t in range(1, top + 1):
            f = s + t
            if m == N - 1 and f >= G:  # the last seat's winning hold
                for w in range(bad):
                    for c in range(t, good + 1):
                        for r in range(N):
                            HV[m, w, t, c, r] = 0.0
                        HV[m, w, t, c, m] = 1.0
                        HL[m, w, t, c] = 1.0
                continue
            if f < G:  # an open turn start: the next seat's table
                nm = 0 if m == N - 1 else m + 1
                row = rot[nm] + t
                for w in range(bad):
                    for c in range(t, good + 1):
                        for r in range(N):
                            HV[m, w, t, c, r] = Wo[nm, row, w, c, r]
                        HL[m, w, t, c] = 1.0 + Lo[nm, row, w, c]
            else:  # the round becomes final
                idx = fidx(off, N, G, m + 1, f - G, 1 << m, rest)
                for w in range(bad):
                    for c in range(t, good + 1):
                        for r in range(N):
                            HV[m, w, t, c, r] = Wf[idx, w, c, r]
                        HL[m, w, t, c] = 1.0 + Lf[idx, w, c]


@kernel
def _open_sweep(N, G, C, bad, good, S, si, rot, PG, off, Wo, Lo, Wf, Lf, X, tie, cA, cB, cL, cP,
                mg, dec, lim, vec, HV, HL):
    """One backward sweep over the N turns of score tuple ``S`` at estimate X.

    Turn-start values land in ``cA`` (constants) and ``cB`` (coefficients on
    the unknowns ``X[j]``, the turn start of seat j at a fresh deck), lengths
    in ``cL``; ``mg``/``dec``/``lim`` keep the affine margins and decisions.
    """
    nA = vec[0]
    nB = vec[1]
    dA = vec[3]
    dB = vec[4]
    for w in range(bad - 1, -1, -1):
        resh = w + 1 == bad
        for m in range(N - 1, -1, -1):
            s = S[m]
            m2 = (m + 1) % N
            lim_gain = (G - s) if m == N - 1 else (C - s)
            for c0 in range(good + 1):
                left = good - c0
                forced = lim_gain <= left
                top = lim_gain if forced else left
                first = top + 1
                t = top
                for r in range(N):
                    nA[r] = 0.0
                    nB[r] = 0.0
                nL = 0.0
                if forced:  # top >= 1 (a hold of nothing is never forced here)
                    for r in range(N):
                        nA[r] = HV[m, w, top, c0 + top, r]
                    nL = HL[m, w, top, c0 + top]
                    first = top
                    t = top - 1
                lim[m, w, c0] = t
                while t >= 0:
                    c = c0 + t
                    pg = PG[w, c]
                    pb = 1.0 - pg
                    if resh:  # a reshuffle: seat m2 at a fresh deck, the unknown X[m2]
                        for r in range(N):
                            dA[r] = pg * nA[r]
                            dB[r] = pg * nB[r]
                        dB[m2] += pb
                        dL = 1.0 + pg * nL
                    else:  # seat m2 at the same scores, one bad item further
                        for r in range(N):
                            dA[r] = pg * nA[r] + pb * cA[m2, w + 1, c, r]
                            dB[r] = pg * nB[r] + pb * cB[m2, w + 1, c, r]
                        dL = 1.0 + pg * nL + pb * cL[m2, w + 1, c]
                    draw = True
                    if t > 0:
                        # the mover's own component of holding (the vector
                        # is loaded only when holding is chosen)
                        h = HV[m, w, t, c, m]
                        m0 = dA[m] - h - tie
                        v = m0
                        for j in range(N):
                            v += dB[j] * X[j, m]
                            mg[m, w, c0, t, 1 + j] = dB[j]
                        mg[m, w, c0, t, 0] = m0
                        draw = v > 0.0
                        dec[m, w, c0, t] = draw
                    if draw:
                        for r in range(N):
                            nA[r] = dA[r]
                            nB[r] = dB[r]
                        nL = dL
                    else:
                        for r in range(N):
                            nA[r] = HV[m, w, t, c, r]
                            nB[r] = 0.0
                        nL = HL[m, w, t, c]
                        first = t
                    t -= 1
                store_start(cA, cB, cL, cP, m, w, c0, nA, nB, nL, first)


@kernel
def _residual(N, cA, cB, X):
    res = 0.0
    for m in range(N):
        for r in range(N):
            v = cA[m, 0, 0, r]
            for j in range(N):
                v += cB[m, 0, 0, j] * X[j, r]
            res = max(res, abs(v - X[m, r]))
    return res


@kernel
def _guess(N, G, S, rot, Wo, X):
    """Warm start for the N unknowns from solved tuples of larger sum.

    Along the two seats ``a, b`` with the lowest scores, the least-squares
    quadratic through seven neighbours (as the race kernels), else a bilinear
    or a one-step guess, else 1/N. With a good guess the first sweep's policy
    is usually already optimal, so one sweep (and a policy check) suffices.
    """
    a, b = lowest_two(S)
    for m in range(N):
        si = rot[m]
        ea = rot_stride(N, G, m, a)
        eb = rot_stride(N, G, m, b)
        for r in range(N):
            if S[a] + 2 < G and S[b] + 2 < G:
                g = (1.5 * (Wo[m, si + ea, 0, 0, r] + Wo[m, si + eb, 0, 0, r])
                     - 2.0 * Wo[m, si + ea + eb, 0, 0, r]
                     - 0.5 * (Wo[m, si + 2 * ea, 0, 0, r] + Wo[m, si + 2 * eb, 0, 0, r])
                     + 0.5 * (Wo[m, si + 2 * ea + eb, 0, 0, r] + Wo[m, si + ea + 2 * eb, 0, 0, r]))
            elif S[a] + 1 < G and S[b] + 1 < G:
                g = (Wo[m, si + ea, 0, 0, r] + Wo[m, si + eb, 0, 0, r]
                     - Wo[m, si + ea + eb, 0, 0, r])
            elif S[a] + 1 < G:
                g = Wo[m, si + ea, 0, 0, r]
            else:
                g = 1.0 / N
            X[m, r] = min(1.0, max(0.0, g))


@kernel
def _solve_tuple(N, G, C, bad, good, S, si, PG, off, Wo, Lo, Po, Wf, Lf, tie, tol, max_sweeps, cA, cB,
                 cL, cP, mg, dec, lim, vec, mats, rot, st, HV, HL):
    """Policy iteration on one open score tuple; writes its turn starts.

    ``st`` (out): residual, sweeps, unsettled (0/1), singular (0/1).
    """
    X = mats[0]
    Xn = mats[1]
    best = mats[2]
    M = mats[3]
    R = mats[4]
    LX = mats[5, :, :1]
    RL = mats[6, :, :1]
    rotations(S, G, rot)
    _gather_holds(N, G, C, bad, good, S, si, rot, off, Wo, Lo, Wf, Lf, HV, HL)
    _guess(N, G, S, rot, Wo, X)
    sweeps = 0
    best_res = np.inf
    res = 0.0
    st[2] = 0.0
    st[3] = 0.0
    while True:
        _open_sweep(N, G, C, bad, good, S, si, rot, PG, off, Wo, Lo, Wf, Lf, X, tie, cA, cB, cL, cP,
                    mg, dec, lim, vec, HV, HL)
        sweeps += 1
        for m in range(N):
            for j in range(N):
                M[m, j] = -cB[m, 0, 0, j]
                R[m, j] = cA[m, 0, 0, j]
            M[m, m] += 1.0
        if not lin_solve(M, R, Xn):
            st[3] = 1.0
            return
        r0 = _residual(N, cA, cB, X)
        if r0 < best_res:
            best_res = r0
            best[:, :] = X
        if chains_hold(Xn, mg, dec, lim):
            X[:, :] = Xn
            res = _residual(N, cA, cB, X)
            break
        if r0 <= tol and sweeps >= PI_EXACT:
            # certified: one greedy backup moves the estimate by at most tol
            # (a decision flips only at a tie or in the rounding); the
            # sweep just made at X gives its values and policy
            res = r0
            break
        if sweeps >= max_sweeps:
            # unsettled (max-n with 3+ seats): keep the iterate of least residual
            X[:, :] = best
            _open_sweep(N, G, C, bad, good, S, si, rot, PG, off, Wo, Lo, Wf, Lf, X, tie, cA, cB, cL,
                        cP, mg, dec, lim, vec, HV, HL)
            sweeps += 1
            res = _residual(N, cA, cB, X)
            st[2] = 1.0
            for m in range(N):
                for j in range(N):
                    M[m, j] = -cB[m, 0, 0, j]
                M[m, m] += 1.0
            break
        X[:, :] = Xn
    st[0] = res
    st[1] = sweeps
    for m in range(N):
        RL[m, 0] = cL[m, 0, 0]
    if not lin_solve(M, RL, LX):
        st[3] = 1.0
        return
    for m in range(N):
        for w in range(bad):
            for c in range(good + 1):
                for r in range(N):
                    v = cA[m, w, c, r]
                    for j in range(N):
                        v += cB[m, w, c, j] * X[j, r]
                    Wo[m, rot[m], w, c, r] = v
                v = cL[m, w, c]
                for j in range(N):
                    v += cB[m, w, c, j] * LX[j, 0]
                Lo[m, rot[m], w, c] = v
                Po[m, rot[m], w, c] = cP[m, w, c]


@kernel
def solve_open(N, G, C, bad, good, flat, tuples, groups, off, Wo, Lo, Po, Wf, Lf, tie, tol,
               max_sweeps, nt, stats):
    """Open rounds: score tuples by decreasing sum.

    The tuples of one sum (``groups``) are independent (a hold raises the
    sum): :func:`designer.solve.by_sum.run_by_sum` hands interleaved
    chunks of each sum to this kernel on several threads (it releases the
    GIL), rather than ``prange`` here, whose parallel compilation costs
    about a minute on a cold cache; ``nt = 1`` then.
    """
    PG = deck_chances(bad, good)
    cA, cB, cL, cP, mg, dec, lim = chain_scratch(nt, N, bad, good, good + 2)
    vec = np.zeros((nt, 5, N))
    mats = np.zeros((nt, 7, N, N))
    rot = np.zeros((nt, N), dtype=np.int64)
    HV = np.zeros((nt, N, bad, good + 2, good + 1, N))
    HL = np.zeros((nt, N, bad, good + 2, good + 1))
    st = np.zeros((flat.shape[0], 4))
    for g in range(groups.shape[0] - 1):
        for o in range(groups[g], groups[g + 1]):
            tid = 0
            _solve_tuple(N, G, C, bad, good, tuples[o], flat[o], PG, off, Wo, Lo, Po, Wf, Lf, tie,
                         tol, max_sweeps, cA[tid], cB[tid], cL[tid], cP[tid], mg[tid], dec[tid],
                         lim[tid], vec[tid], mats[tid], rot[tid], st[o], HV[tid], HL[tid])
    for o in range(flat.shape[0]):
        stats[0] = max(stats[0], st[o, 0])
        stats[1] += st[o, 1]
        stats[2] = max(stats[2], st[o, 1])
        if st[o, 2] > 0.0:
            stats[4] += 1
            stats[5] = max(stats[5], st[o, 0])
        if st[o, 3] > 0.0:
            stats[3] = 2.0
