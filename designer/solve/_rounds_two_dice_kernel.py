"""Two-seat rounds ending for dice games: the tie and final rounds, scalar.

The dice counterpart of :mod:`designer.solve._rounds_two_kernel` (the same
rounds, without a deck state): a value is the mover's win probability, the
other seat's is its complement. The open rounds are then solved by the
race's pair kernel (:mod:`designer.solve._dice_kernel` with ``Fmax``).

Tie round (both seats level at or above the goal; only gains count)
    ``T1[g]``: seat 2's win probability when seat 1 ended its turn with gain
    ``g``. Seat 2 holds at the first gain above ``g`` (a win); a hold at
    exactly ``g`` (or a bust or pass when ``g = 0``) ties the round again,
    worth ``1 - Y`` with ``Y`` seat 1's value at the start of a tie round; a
    hold below ``g``, or a bust when ``g > 0``, loses.
    ``T0``: seat 1's value at the start of a tie round. Its gain is capped at
    ``cap - goal`` (a forced hold there, a roll past it stops there); a hold
    at ``t`` leads to ``T1[t]``, a bust or a pass to ``T1[0]``. ``Y = T0`` is
    iterated from ``Y = 1/2``; the contraction factor is the chance of a
    full tie.
Final round (seat 1 holds ``B >= goal``, seat 2 has ``s < goal``)
    ``F[d]``, ``d = B - s >= 1``: seat 2 holds at gain ``d + 1`` (a win); a
    hold at ``d`` starts a tie round (``1 - T0``); below ``d``, or a bust,
    loses.

Each turn is the chain of totals ``k < k_f`` of
:mod:`designer.solve._rounds_dice_kernel`: with ``p_b`` the bust chance and
``p_f = 1/faces`` per scoring face, ``R_k = p_b U + sum_f p_f V_{min(k + f,
k_f)}`` and ``V_k = R_k`` if ``R_k > H_k + tie`` else ``H_k`` (at ``k = 0``
the hold is a pass, worth ``U``, and a tie rolls: ``R_0 > U - tie``). Lengths count one per roll and hold.
"""

import numpy as np

from designer._jit import kernel


@kernel
def _chain(kmax, pf, pb, pips, H, HL, fa, fl, u, ul, tie, v, vl):
    """Backward pass over totals ``kmax - 1 .. 0``: ``H[k], HL[k]`` the hold
    at ``1 <= k < kmax``, ``fa, fl`` the forced end, ``u, ul`` the bust (and
    the pass). Returns the turn start's value, length and first hold."""
    first = kmax
    for k in range(kmax - 1, -1, -1):
        r = pb * u
        rl = 1.0 + pb * ul
        for f in range(pips.shape[0]):
            kk = k + pips[f]
            if kk >= kmax:
                r += pf * fa
                rl += pf * fl
            else:
                r += pf * v[kk]
                rl += pf * vl[kk]
        if k == 0:
            h, hl = u, 1.0 + ul
        else:
            h, hl = H[k], HL[k]
        # ties hold, except the pass at k = 0: there a tie rolls
        if r > h + (tie if k > 0 else -tie):
            v[k], vl[k] = r, rl
        else:
            v[k], vl[k] = h, hl
            first = k
    return v[0], vl[0], first


@kernel
def _last(g, pf, pb, pips, y, yl, bust_ties, tie, H, HL, v, vl):
    """Seat 2's turn when the score to beat is ``g`` above its own; a tie
    is worth ``1 - y`` (length ``yl``). ``bust_ties``: a bust ties."""
    for k in range(1, g):
        H[k], HL[k] = 0.0, 1.0
    if g >= 1:
        H[g], HL[g] = 1.0 - y, 1.0 + yl
    u, ul = (1.0 - y, yl) if bust_ties else (0.0, 0.0)
    return _chain(g + 1, pf, pb, pips, H, HL, 1.0, 1.0, u, ul, tie, v, vl)


@kernel
def solve_two_dice_ties(faces, pips, ncap, tol, max_iter, tie, T1, TL1, stats):
    """The tie round: ``T1[g], TL1[g]`` for ``g = 0 .. ncap - 1`` and the
    start ``(T0, TL0)``, returned. Stops when ``T0`` moved by at most
    ``tol`` and its length by 1e-12 relative, or after ``max_iter``
    iterates (counted in ``stats[4]``, the last move in ``stats[5]``);
    ``stats[6]`` counts the iterates."""
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    sp = ncap + 1
    H, HL, v, vl = np.zeros(sp), np.zeros(sp), np.zeros(sp), np.zeros(sp)
    y, yl = 0.5, 0.0
    top = ncap - 1
    for it in range(1, max_iter + 1):
        for g in range(ncap):
            T1[g], TL1[g], _ = _last(g, pf, pb, pips, y, yl, g == 0, tie, H, HL, v, vl)
        for k in range(1, top):
            H[k], HL[k] = 1.0 - T1[k], 1.0 + TL1[k]
        x, xl, _ = _chain(top, pf, pb, pips, H, HL, 1.0 - T1[top], 1.0 + TL1[top], 1.0 - T1[0],
                          TL1[0], tie, v, vl)
        diff = abs(x - y)
        ldiff = abs(xl - yl) / max(1.0, xl)
        y, yl = x, xl
        stats[6] += 1
        if diff <= tol and ldiff <= 1e-12:
            break
        if it >= max_iter:
            stats[4] += 1
            stats[5] = max(stats[5], diff)
    return y, yl


@kernel
def solve_two_dice_finals(faces, pips, T0, TL0, tie, F, LF):
    """Seat 2 in the final round at every distance ``d = 1 .. F.shape[0] - 1``."""
    pf = 1.0 / faces
    pb = (faces - pips.shape[0]) / faces
    sp = F.shape[0] + 1
    H, HL, v, vl = np.zeros(sp), np.zeros(sp), np.zeros(sp), np.zeros(sp)
    for d in range(1, F.shape[0]):
        F[d], LF[d], _ = _last(d, pf, pb, pips, T0, TL0, False, tie, H, HL, v, vl)
