"""Layered solver kernel for full Zombie Dice (SPEC 1.7 and 3).

The same layering, tie-round normalisation, forced holds and affine policy
iteration as :mod:`designer.solve._zombie_kernel` (read it first); only the
in-turn state changes. Instead of ``(b, s)`` a turn state is ``(b, k)`` with
``k`` a dice configuration of :mod:`designer.solve.zombie_dice_states`: a
roll from ``k`` reaches outcome ``o`` with probability ``PROB[k, o]``, goes to
configuration ``NXT[k, o]`` (``-1`` bust, ``-2`` end of the list) and adds
``GAIN[k, o]`` brains. The self-loop (a brainless roll back to ``k``) is
divided out with ``INV[k] = 1 / (1 - stay[k])``. Configurations are numbered
so that brainless successors have larger indices, so the sweep runs over
``b`` downwards, then ``k`` downwards. States with ``b < BMIN[k]`` (fewer
brains than the dice set aside show) are unreachable and skipped. The roll
at ``b = 0`` with no shotgun is forced (nothing is at stake yet; with one
colour this is the all-yellow solver's forced first roll).

Decisions live in ``R[p, i, j, b, k]``.

Parallel structure
------------------
The solve is split into three kernels that release the GIL, so the Python
layer can run independent pieces on several threads: :func:`tie_round`
first; then :func:`chase_turns` (player 2's turns at ``c < G <= a'``, all
independent of each other); then :func:`round_pairs` anti-diagonal by
anti-diagonal (the rounds ``(a, c)`` of equal ``a + c`` only read rounds of
larger sum). Each call allocates its own scratch tables; the shared outputs
are written at disjoint places.
"""

import numpy as np

from designer._jit import kernel
from designer.solve._pairs import affine_solve, affine_step


@kernel
def _turn(bf, NXT, GAIN, PROB, INV, SHOT, BMIN, H, HL, R, p, i, j, optimize, x, y, tie, V, L):
    """Backward sweep over one turn's states ``(b, k)``, ``b < bf``; see the module doc."""
    changed = False
    NC = NXT.shape[0]
    for b in range(bf - 1, -1, -1):
        for k in range(NC - 1, -1, -1):
            if BMIN[k] > b:
                continue
            rA = 0.0
            rX = 0.0
            rY = 0.0
            lA = 1.0
            lX = 0.0
            lY = 0.0
            for o in range(NXT.shape[1]):
                nk = NXT[k, o]
                if nk == -2:
                    break
                pr = PROB[k, o]
                if nk == -1:  # bust: as holding nothing, without the hold
                    rA += pr * H[0, 0]
                    rX += pr * H[0, 1]
                    rY += pr * H[0, 2]
                    lA += pr * (HL[0, 0] - 1.0)
                    lX += pr * HL[0, 1]
                    lY += pr * HL[0, 2]
                else:
                    nb = b + GAIN[k, o]
                    if nb >= bf:
                        rA += pr * H[bf, 0]
                        rX += pr * H[bf, 1]
                        rY += pr * H[bf, 2]
                        lA += pr * HL[bf, 0]
                        lX += pr * HL[bf, 1]
                        lY += pr * HL[bf, 2]
                    else:
                        rA += pr * V[nb, nk, 0]
                        rX += pr * V[nb, nk, 1]
                        rY += pr * V[nb, nk, 2]
                        lA += pr * L[nb, nk, 0]
                        lX += pr * L[nb, nk, 1]
                        lY += pr * L[nb, nk, 2]
            inv = INV[k]
            rA *= inv
            rX *= inv
            rY *= inv
            lA *= inv
            lX *= inv
            lY *= inv
            if b == 0 and SHOT[k] == 0:
                roll = True
            elif optimize:
                roll = rA + rX * x + rY * y > H[b, 0] + H[b, 1] * x + H[b, 2] * y + tie
                if roll != R[p, i, j, b, k]:
                    changed = True
                R[p, i, j, b, k] = roll
            else:
                roll = R[p, i, j, b, k]
            if roll:
                V[b, k, 0] = rA
                V[b, k, 1] = rX
                V[b, k, 2] = rY
                L[b, k, 0] = lA
                L[b, k, 1] = lX
                L[b, k, 2] = lY
            else:
                V[b, k, 0] = H[b, 0]
                V[b, k, 1] = H[b, 1]
                V[b, k, 2] = H[b, 2]
                L[b, k, 0] = HL[b, 0]
                L[b, k, 1] = HL[b, 1]
                L[b, k, 2] = HL[b, 2]
    return changed


@kernel
def _set(A, b, a, x, y):
    A[b, 0] = a
    A[b, 1] = x
    A[b, 2] = y


@kernel
def _tie_round_holds(G, cap, ap, H, HL):
    """Player 2 at ``(G, ap)`` in the tie round: hold values; returns ``b_f``."""
    bf = min(ap + 1, cap) - G
    for b in range(bf + 1):
        sc = G + b
        if sc < ap:
            _set(H, b, 0.0, 0.0, 0.0)
            _set(HL, b, 1.0, 0.0, 0.0)
        elif sc == ap:  # tie again: the tie round, x = W(G, G)
            _set(H, b, 1.0, -1.0, 0.0)
            _set(HL, b, 1.0, 1.0, 0.0)
        else:
            _set(H, b, 1.0, 0.0, 0.0)
            _set(HL, b, 1.0, 0.0, 0.0)
    return bf


@kernel
def _scratch(cap, NC):
    return (np.zeros((cap + 2, 3)), np.zeros((cap + 2, 3)), np.zeros((cap + 2, 3)),
            np.zeros((cap + 2, 3)), np.zeros((cap + 1, NC, 3)), np.zeros((cap + 1, NC, 3)),
            np.zeros((cap + 1, NC, 3)), np.zeros((cap + 1, NC, 3)))


@kernel
def tie_round(G, cap, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize, tol, tie,
              max_sweeps, out):
    """Step 1: the tie round ``(G, G)`` with every player-2 turn ``(G, a')``.

    ``out`` (float64, 3): residual, sweeps, status (0 ok, 1 no convergence,
    2 singular).
    """
    H1, HL1, H2, HL2, V1, L1, V2, L2 = _scratch(cap, NXT.shape[0])
    A = (NXT, GAIN, PROB, INV, SHOT, BMIN)
    TT = np.zeros((cap + 1, 3))
    TL = np.zeros((cap + 1, 3))
    x = 0.5
    y = 0.5
    sweeps = 0
    res = 0.0
    while True:
        changed = False
        for ap in range(cap, G, -1):
            bf = _tie_round_holds(G, cap, ap, H2, HL2)
            if _turn(bf, *A, H2, HL2, R, 1, G, ap, optimize, x, y, tie, V2, L2):
                changed = True
            for e in range(3):
                TT[ap, e] = V2[0, 0, e]
                TL[ap, e] = L2[0, 0, e]
        # player 2 at (G, G): any brain wins, nothing scored ties again
        _set(H2, 0, 1.0, -1.0, 0.0)
        _set(HL2, 0, 1.0, 1.0, 0.0)
        _set(H2, 1, 1.0, 0.0, 0.0)
        _set(HL2, 1, 1.0, 0.0, 0.0)
        if _turn(1, *A, H2, HL2, R, 1, G, G, optimize, x, y, tie, V2, L2):
            changed = True
        bf1 = cap - G
        _set(H1, 0, 1.0, 0.0, -1.0)
        _set(HL1, 0, 1.0, 0.0, 1.0)
        for b in range(1, bf1 + 1):
            _set(H1, b, 1.0 - TT[G + b, 0], -TT[G + b, 1], -TT[G + b, 2])
            _set(HL1, b, 1.0 + TL[G + b, 0], TL[G + b, 1], TL[G + b, 2])
        if _turn(bf1, *A, H1, HL1, R, 0, G, G, optimize, x, y, tie, V1, L1):
            changed = True
        sweeps += 1
        nx, ny, res, ok = affine_step(V1[0, 0], V2[0, 0], x, y)
        if not ok:
            out[2] = 2.0
            return
        if not optimize or (sweeps > 1 and not changed and res <= tol):
            if not optimize:
                res = 0.0
            x = nx
            y = ny
            break
        if sweeps >= max_sweeps:
            out[0] = res
            out[1] = sweeps
            out[2] = 1.0
            return
        x = nx
        y = ny
    lx, ly, ok = affine_solve(L1[0, 0], L2[0, 0])
    if not ok:
        out[2] = 2.0
        return
    W[G, G] = x
    LW[G, G] = lx
    T2[G, G] = y
    LT2[G, G] = ly
    for ap in range(G + 1, cap + 1):
        T2[G, ap] = TT[ap, 0] + TT[ap, 1] * x + TT[ap, 2] * y
        LT2[G, ap] = TL[ap, 0] + TL[ap, 1] * lx + TL[ap, 2] * ly
    out[0] = res
    out[1] = sweeps
    out[2] = 0.0


@kernel
def chase_turns(G, cap, todo, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize,
                tie):
    """Step 2: player 2's turns ``(c, a')`` listed in ``todo`` (rows ``c, a'``),
    ``c < G <= a'``: no unknown (the tie round is solved)."""
    _, _, H2, HL2, _, _, V2, L2 = _scratch(cap, NXT.shape[0])
    wt = W[G, G]
    lt = LW[G, G]
    for t in range(todo.shape[0]):
        c = todo[t, 0]
        ap = todo[t, 1]
        bf = min(ap + 1, cap) - c
        for b in range(bf + 1):
            sc = c + b
            if sc < ap:
                _set(H2, b, 0.0, 0.0, 0.0)
                _set(HL2, b, 1.0, 0.0, 0.0)
            elif sc == ap:
                _set(H2, b, 1.0 - wt, 0.0, 0.0)
                _set(HL2, b, 1.0 + lt, 0.0, 0.0)
            else:
                _set(H2, b, 1.0, 0.0, 0.0)
                _set(HL2, b, 1.0, 0.0, 0.0)
        _turn(bf, NXT, GAIN, PROB, INV, SHOT, BMIN, H2, HL2, R, 1, c, ap, optimize, 0.0, 0.0,
              tie, V2, L2)
        T2[c, ap] = V2[0, 0, 0]
        LT2[c, ap] = L2[0, 0, 0]


@kernel
def round_pairs(G, cap, todo, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize,
                tol, tie, max_sweeps, out):
    """Step 3: the rounds ``(a, c)`` listed in ``todo``, both below the goal.

    Every round a row needs (``(a, c')`` with ``c' > c`` and ``(a', c)``
    with ``a' > a``) must be solved before; rounds of equal ``a + c`` are
    independent. ``out`` (float64, 3): largest residual, sweeps, status.
    """
    H1, HL1, H2, HL2, V1, L1, V2, L2 = _scratch(cap, NXT.shape[0])
    A = (NXT, GAIN, PROB, INV, SHOT, BMIN)
    total = 0
    max_res = 0.0
    for t in range(todo.shape[0]):
        a = todo[t, 0]
        c = todo[t, 1]
        # player 2 at (c, a): below the goal until c + b reaches it
        bf2 = G - c
        _set(H2, 0, 1.0, -1.0, 0.0)
        _set(HL2, 0, 1.0, 1.0, 0.0)
        for b in range(1, bf2):
            _set(H2, b, 1.0 - W[a, c + b], 0.0, 0.0)
            _set(HL2, b, 1.0 + LW[a, c + b], 0.0, 0.0)
        _set(H2, bf2, 1.0, 0.0, 0.0)
        _set(HL2, bf2, 1.0, 0.0, 0.0)
        # player 1 at (a, c)
        bf1 = cap - a
        _set(H1, 0, 1.0, 0.0, -1.0)
        _set(HL1, 0, 1.0, 0.0, 1.0)
        for b in range(1, bf1 + 1):
            _set(H1, b, 1.0 - T2[c, a + b], 0.0, 0.0)
            _set(HL1, b, 1.0 + LT2[c, a + b], 0.0, 0.0)
        # warm start from the neighbouring rounds
        x = W[a, c + 1] if c + 1 < G else (W[a + 1, c] if a + 1 < G else 0.5)
        y = T2[c, a + 1]
        sweeps = 0
        res = 0.0
        while True:
            ch2 = _turn(bf2, *A, H2, HL2, R, 1, c, a, optimize, x, y, tie, V2, L2)
            ch1 = _turn(bf1, *A, H1, HL1, R, 0, a, c, optimize, x, y, tie, V1, L1)
            sweeps += 1
            nx, ny, res, ok = affine_step(V1[0, 0], V2[0, 0], x, y)
            if not ok:
                out[2] = 2.0
                return
            if not optimize or (sweeps > 1 and not (ch1 or ch2) and res <= tol):
                if not optimize:
                    res = 0.0
                x = nx
                y = ny
                break
            if sweeps >= max_sweeps:
                out[0] = res
                out[1] = total + sweeps
                out[2] = 1.0
                return
            x = nx
            y = ny
        lx, ly, ok = affine_solve(L1[0, 0], L2[0, 0])
        if not ok:
            out[2] = 2.0
            return
        W[a, c] = x
        LW[a, c] = lx
        T2[c, a] = y
        LT2[c, a] = ly
        total += sweeps
        max_res = max(max_res, res)
    out[0] = max_res
    out[1] = total
    out[2] = 0.0
