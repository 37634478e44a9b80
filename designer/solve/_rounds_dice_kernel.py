"""Rounds-ending kernels for dice and Zombie games, N = 2..4 seats
(dice, all-yellow and full Zombie Dice).

See :mod:`designer.solve._rounds_common` for the state, the layers and the
unsettled-position rule. A turn is a graph over states ``(b, k)``: the turn
total ``b < b_f`` (``b_f`` the forced end: the cap, or the first total at
which the last seat of a round wins by holding; a roll past it stops there)
and a configuration ``k`` (a die: one configuration; Zombie Dice: the
shotguns, and the dice set aside, :mod:`designer.solve.zombie`). The graph
is given as the arrays ``(NXT, GAIN, PROB, INV, PASS, BMIN)`` of
:func:`dice_graph` and of the Zombie games: a roll from ``k`` shows outcome
``o`` with probability ``PROB[k, o]``, goes to ``NXT[k, o]`` (``-1`` a bust,
``-2`` the end of the list) and adds ``GAIN[k, o]``; ``INV[k] = 1 / (1 -
stay)`` solves the roll that returns to ``k`` unchanged; at ``b = 0`` the
mover may hold (pass) only where ``PASS[k]`` (a die: always; Zombie Dice:
once a shotgun shows); states with ``b < BMIN[k]`` are unreachable. With
``U`` the turn start a bust (or a pass) leads to and ``H_b`` the hold:

.. math::

    R_{b,k} = INV_k \\sum_o PROB_{k,o} \\, \\begin{cases} U & \\text{bust} \\\\
              V_{\\min(b + GAIN_{k,o}, b_f), NXT_{k,o}} \\end{cases}, \\qquad
    V_{b,k} = R_{b,k} \\text{ if } R_{b,k}[m] > H_b[m] + \\text{tie, else } H_b

(``V`` at ``b_f`` is the forced end, whatever the configuration). A tie
holds here even at ``b = 0`` (a pass), as in the two-player Zombie Dice
kernel (the two are checked against each other at N = 2).
Tables have the deck tables' layout with a single deck state ``(0, 0)``.
In an open score tuple the only unknown is seat 1's turn start ``X``: the
seats are swept from last to first, each bust leading to the next seat's
turn start (already affine in ``X``), the last seat's to ``X`` itself.
"""

import numpy as np

from designer._jit import PI_EXACT, kernel
from designer.solve._rounds_common import (final_after, tie_after, lowest_two, final_states, fidx, rot_stride, rotations,
                                           state_row, tie_round, tie_update)


@kernel
def dice_graph(faces, pips):
    """The turn graph of a die (one configuration): the bust first, then one
    outcome per scoring face; a pass is allowed at ``b = 0``."""
    nb = faces - pips.shape[0]
    n = pips.shape[0] + (1 if nb else 0)
    NXT = np.zeros((1, n), dtype=np.int64)
    GAIN = np.zeros((1, n), dtype=np.int64)
    PROB = np.zeros((1, n))
    o = 0
    if nb:
        NXT[0, 0] = -1
        PROB[0, 0] = nb / faces
        o = 1
    for f in range(pips.shape[0]):
        GAIN[0, o + f] = pips[f]
        PROB[0, o + f] = 1.0 / faces
    return (NXT, GAIN, PROB, np.ones(1), np.ones(1, dtype=np.int64), np.zeros(1, dtype=np.int64))


@kernel
def _chain(m, N, kmax, TG, HA, HL, FA, FL, UA, UB, UL, X, tie, vA, vB, vL, roll, mgA, mgB):
    """Backward pass over the turn states ``(b, k)``, ``b = kmax - 1 .. 0``;
    the turn start lands in ``vA[0, 0], vB[0, 0], vL[0, 0]``. ``HA[b],
    HL[b]`` hold at ``b >= 1``; ``FA, FL`` the forced end; ``UA + UB X,
    UL`` the bust/pass successor. A forced roll keeps the margin
    ``(1, 0)``, so that a check of the decisions passes it."""
    NXT, GAIN, PROB, INV, PASS, BMIN = TG
    NC = NXT.shape[0]
    for b in range(kmax - 1, -1, -1):
        for k in range(NC - 1, -1, -1):
            if BMIN[k] > b:
                continue
            rB = 0.0
            rL = 1.0
            for r in range(N):
                vA[b, k, r] = 0.0  # scratch: filled with R first
            for o in range(NXT.shape[1]):
                nk = NXT[k, o]
                if nk == -2:
                    break
                pr = PROB[k, o]
                if nk == -1:
                    for r in range(N):
                        vA[b, k, r] += pr * UA[r]
                    rB += pr * UB
                    rL += pr * UL
                    continue
                nb = b + GAIN[k, o]
                if nb >= kmax:
                    for r in range(N):
                        vA[b, k, r] += pr * FA[r]
                    rL += pr * FL
                else:
                    for r in range(N):
                        vA[b, k, r] += pr * vA[nb, nk, r]
                    rB += pr * vB[nb, nk]
                    rL += pr * vL[nb, nk]
            inv = INV[k]
            for r in range(N):
                vA[b, k, r] *= inv
            rB *= inv
            rL *= inv
            if b == 0 and PASS[k] == 0:
                mgA[b, k] = 1.0
                mgB[b, k] = 0.0
                go = True
            else:
                if b == 0:
                    hm = UA[m]
                    hB = UB
                else:
                    hm = HA[b, m]
                    hB = 0.0
                a = vA[b, k, m] - hm - tie
                bb = rB - hB
                go = a + bb * X[m] > 0.0
                mgA[b, k] = a
                mgB[b, k] = bb
            roll[b, k] = go
            if go:
                vB[b, k] = rB
                vL[b, k] = rL
            elif b == 0:
                for r in range(N):
                    vA[b, k, r] = UA[r]
                vB[b, k] = UB
                vL[b, k] = 1.0 + UL
            else:
                for r in range(N):
                    vA[b, k, r] = HA[b, r]
                vB[b, k] = 0.0
                vL[b, k] = HL[b]


@kernel
def _first_hold(kmax, roll):
    """The first total at which the mover holds from a fresh turn (the
    policy of a die, whose turn has one configuration)."""
    for b in range(kmax):
        if not roll[b, 0]:
            return b
    return kmax


@kernel
def _policy_holds(kmax, BMIN, roll, mgA, mgB, x):
    """True if every decision of a turn is still greedy at ``x``."""
    for b in range(kmax):
        for k in range(BMIN.shape[0]):
            if BMIN[k] <= b and (mgA[b, k] + mgB[b, k] * x > 0.0) != roll[b, k]:
                return False
    return True


@kernel
def _scratch(N, C, NC):
    """Hold rows ``HA, HL``, forced end ``FA``, bust successor ``UA``, the
    estimate ``X``, the turn's ``vA, vB, vL``, decisions and margins."""
    sp = C + 2
    return (np.zeros((sp, N)), np.zeros(sp), np.zeros(N), np.zeros(N), np.zeros(N),
            np.zeros((sp, NC, N)), np.zeros((sp, NC)), np.zeros((sp, NC)),
            np.zeros((sp, NC), dtype=np.bool_), np.zeros((sp, NC)), np.zeros((sp, NC)))


@kernel
def _chains(kind, off, Wf, Lf, toff, Wt, Lt, Y, YL, t, G, pos, Bg, Tm, rest, base, idx, kmax, TG,
            W, L, S, tie):
    """The turn of one tie (``kind`` 0) or final (1) state: the mover at
    position/seat ``pos`` from score ``base`` (0 for a tie round's gains),
    forced to hold at ``kmax``; its start goes to row ``idx`` of ``W, L``."""
    HA, HL, FA, UA, X, vA, vB, vL, roll, mgA, mgB = S
    N = HA.shape[1]
    # k = 1..kmax - 1: holds, kmax: the forced end, then the bust (or pass)
    FL = 0.0
    UL = 0.0
    for k in range(1, kmax + 2):
        f = base + k if k <= kmax else base
        out = HA[k] if k < kmax else (FA if k == kmax else UA)
        if kind == 0:
            ln = tie_after(toff, Wt, Lt, Y, YL, t, pos, Bg, Tm, f, 0, 0, out)
        else:
            ln = final_after(off, Wf, Lf, toff, Wt, Lt, N, G, pos, Bg, Tm, rest, f, 0, 0, out)
        if k < kmax:
            HL[k] = 1.0 + ln
        elif k == kmax:
            FL = 1.0 + ln
        else:
            UL = ln
    _chain(pos, N, kmax, TG, HA, HL, FA, FL, UA, 0.0, UL, X, tie, vA, vB, vL, roll, mgA, mgB)
    for r in range(N):
        W[idx, 0, 0, r] = vA[0, 0, r]
    L[idx, 0, 0] = vL[0, 0]


@kernel
def solve_ties(N, G, C, TG, toff, Wt, Lt, tol, tie, max_iter, stats):
    """Generic tie rounds t = 2..N, iterating on the round's start value
    (one deck state: the deck kernel's layout)."""
    S = _scratch(N, C, TG[0].shape[0])
    Y = np.zeros((1, 1, N))
    YL = np.zeros((1, 1))
    off = np.zeros(1, dtype=np.int64)  # no final table is read in a tie round
    # np.int64: one compiled _chains for ties and finals, not one per
    # literal argument (a numba call specialises on literal constants)
    zero = np.int64(0)
    for t in range(2, N + 1):
        TS = tie_round(toff, t, C, G, Y, YL)
        for it in range(1, max_iter + 1):
            for row in range(TS.shape[0]):
                p, Bg, Tm, idx, kmax, _, _ = state_row(TS, row)
                _chains(zero, off, Wt, Lt, toff, Wt, Lt, Y, YL, t, G, p, Bg, Tm, zero, zero, idx,
                        kmax, TG, Wt, Lt, S, tie)
            if tie_update(Wt, Lt, toff, t, Y, YL, it, tol, max_iter, stats):
                break


@kernel
def solve_finals(N, G, C, TG, off, toff, Wf, Lf, Wt, Lt, tie):
    """Final rounds, seats N-1 down to 1, one sweep each."""
    S = _scratch(N, C, TG[0].shape[0])
    Y = np.zeros((1, 1, N))
    YL = np.zeros((1, 1))
    FS = final_states(N, G, C, off)
    for row in range(FS.shape[0]):
        m, Bg, Tm, s, rest, idx, kmax = state_row(FS, row)
        _chains(np.int64(1), off, Wf, Lf, toff, Wt, Lt, Y, YL, np.int64(0), G, m, Bg, Tm, rest,
                s, idx, kmax, TG, Wf, Lf, S, tie)


@kernel
def _open_sweep(N, G, C, TG, S, si, rot, off, Wo, Lo, Wf, Lf, X, tie, HA, HL, FA, UA, vA, vB,
                vL, sA, sB, sL, roll, mgA, mgB, kmx, first):
    for m in range(N - 1, -1, -1):
        s = S[m]
        last = m == N - 1
        stride = rot_stride(N, G, 0, m)
        rest = si % stride
        kmax = (G - s) if last else (C - s)
        kmx[m] = kmax
        for k in range(1, kmax + 1):
            f = s + k
            if k == kmax:
                out = FA
            else:
                out = HA[k]
            if last:
                if f >= G:
                    for r in range(N):
                        out[r] = 0.0
                    out[m] = 1.0
                    ln = 1.0
                else:
                    for r in range(N):
                        out[r] = Wo[0, rot[0] + k, 0, 0, r]
                    ln = 1.0 + Lo[0, rot[0] + k, 0, 0]
            elif f < G:
                for r in range(N):
                    out[r] = Wo[m + 1, rot[m + 1] + k, 0, 0, r]
                ln = 1.0 + Lo[m + 1, rot[m + 1] + k, 0, 0]
            else:
                idx = fidx(off, N, G, m + 1, f - G, 1 << m, rest)
                for r in range(N):
                    out[r] = Wf[idx, 0, 0, r]
                ln = 1.0 + Lf[idx, 0, 0]
            if k == kmax:
                FL = ln
            else:
                HL[k] = ln
        if last:
            for r in range(N):
                UA[r] = 0.0
            UB = 1.0
            UL = 0.0
        else:
            for r in range(N):
                UA[r] = sA[m + 1, r]
            UB = sB[m + 1]
            UL = sL[m + 1]
        _chain(m, N, kmax, TG, HA, HL, FA, FL, UA, UB, UL, X, tie, vA, vB, vL, roll[m], mgA[m],
               mgB[m])
        for r in range(N):
            sA[m, r] = vA[0, 0, r]
        sB[m] = vB[0, 0]
        sL[m] = vL[0, 0]
        first[m] = _first_hold(kmax, roll[m])


@kernel
def _guess(N, G, S, si, Wo, X):
    """Warm start for seat 1's turn start from solved tuples of larger sum:
    the quadratic (else bilinear, one-step, 1/N) guess of the deck kernel
    along the two seats with the lowest scores."""
    a, b = lowest_two(S)
    ea = rot_stride(N, G, 0, a)
    eb = rot_stride(N, G, 0, b)
    for r in range(N):
        if S[a] + 2 < G and S[b] + 2 < G:
            g = (1.5 * (Wo[0, si + ea, 0, 0, r] + Wo[0, si + eb, 0, 0, r])
                 - 2.0 * Wo[0, si + ea + eb, 0, 0, r]
                 - 0.5 * (Wo[0, si + 2 * ea, 0, 0, r] + Wo[0, si + 2 * eb, 0, 0, r])
                 + 0.5 * (Wo[0, si + 2 * ea + eb, 0, 0, r] + Wo[0, si + ea + 2 * eb, 0, 0, r]))
        elif S[a] + 1 < G and S[b] + 1 < G:
            g = Wo[0, si + ea, 0, 0, r] + Wo[0, si + eb, 0, 0, r] - Wo[0, si + ea + eb, 0, 0, r]
        elif S[a] + 1 < G:
            g = Wo[0, si + ea, 0, 0, r]
        else:
            g = 1.0 / N
        X[r] = min(1.0, max(0.0, g))


@kernel
def solve_open(N, G, C, TG, flat, tuples, off, Wo, Lo, Ho, Wf, Lf, tie, tol, max_sweeps, stats):
    """Open rounds by decreasing score sum; one unknown (seat 1's turn start).
    ``Ho`` receives the first hold of a fresh turn (:func:`_first_hold`)."""
    NC = TG[0].shape[0]
    sp = C + 2
    HA = np.zeros((sp, N))
    HL = np.zeros(sp)
    FA = np.zeros(N)
    UA = np.zeros(N)
    vA = np.zeros((sp, NC, N))
    vB = np.zeros((sp, NC))
    vL = np.zeros((sp, NC))
    sA = np.zeros((N, N))
    sB = np.zeros(N)
    sL = np.zeros(N)
    roll = np.zeros((N, sp, NC), dtype=np.bool_)
    mgA = np.zeros((N, sp, NC))
    mgB = np.zeros((N, sp, NC))
    kmx = np.zeros(N, dtype=np.int64)
    first = np.zeros(N, dtype=np.int64)
    X = np.zeros(N)
    Xn = np.zeros(N)
    best = np.zeros(N)
    rot = np.zeros(N, dtype=np.int64)
    for o in range(tuples.shape[0]):
        S = tuples[o]
        si = flat[o]
        rotations(S, G, rot)
        _guess(N, G, S, si, Wo, X)
        sweeps = 0
        best_res = np.inf
        res = 0.0
        while True:
            _open_sweep(N, G, C, TG, S, si, rot, off, Wo, Lo, Wf, Lf, X, tie, HA, HL, FA, UA, vA, vB,
                        vL, sA, sB, sL, roll, mgA, mgB, kmx, first)
            sweeps += 1
            den = 1.0 - sB[0]
            if den <= 1e-300:
                stats[3] = 2.0
                return
            r0 = 0.0
            for r in range(N):
                Xn[r] = sA[0, r] / den
                r0 = max(r0, abs(sA[0, r] + sB[0] * X[r] - X[r]))
            if r0 < best_res:
                best_res = r0
                best[:] = X
            ok = True
            for m in range(N):
                if not _policy_holds(kmx[m], TG[5], roll[m], mgA[m], mgB[m], Xn[m]):
                    ok = False
            if ok:
                X[:] = Xn
                res = 0.0
                for r in range(N):
                    res = max(res, abs(sA[0, r] + sB[0] * X[r] - X[r]))
                break
            if r0 <= tol and sweeps >= PI_EXACT:
                # certified: one greedy backup moves the estimate by at most
                # tol; the sweep just made at X gives its values and policy
                res = r0
                break
            if sweeps >= max_sweeps:
                X[:] = best
                _open_sweep(N, G, C, TG, S, si, rot, off, Wo, Lo, Wf, Lf, X, tie, HA, HL, FA, UA, vA,
                            vB, vL, sA, sB, sL, roll, mgA, mgB, kmx, first)
                sweeps += 1
                res = best_res
                stats[4] += 1
                stats[5] = max(stats[5], res)
                break
            X[:] = Xn
        stats[0] = max(stats[0], res)
        stats[1] += sweeps
        stats[2] = max(stats[2], sweeps)
        LX = sL[0] / (1.0 - sB[0])
        for m in range(N):
            for r in range(N):
                Wo[m, rot[m], 0, 0, r] = sA[m, r] + sB[m] * X[r]
            Lo[m, rot[m], 0, 0] = sL[m] + sB[m] * LX
            Ho[m, rot[m], 0, 0] = first[m]
