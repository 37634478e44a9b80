"""Two-seat rounds ending for deck games: the tie and final rounds, scalar.

With two seats a value is one number, the mover's win probability (the
other seat's is its complement: a tie round is replayed until it is
decided). The open rounds then have the pair structure of the race and are
solved by its kernel (:mod:`designer.solve._deck_kernel` with ``rounds``);
this module solves what they hold into, in the order of
:mod:`designer.solve._rounds_common`:

Tie round (both seats level at or above the goal; only gains count)
    ``T1[g, w, c]``: seat 2's win probability when seat 1 ended its turn
    with gain ``g`` and the deck is at ``(w, c)``. Seat 2 holds at the first
    gain above ``g`` (a win). A hold at exactly ``g`` (or a bust when
    ``g = 0``) ties the round again: a new round starts with seat 1 at that
    deck, worth ``1 - Y`` to seat 2. A hold below ``g``, or a bust when
    ``g > 0``, loses.
    ``T0[w, c]``: seat 1's win probability at the start of a tie round. Its
    gain is capped at ``ncap - 1 = cap - goal`` (a forced hold there); a hold
    at ``t`` leads to ``T1[t]``, a bust to ``T1[0]`` after the bad item.
    ``Y = T0`` is the fixed point of one backward pass over the deck
    states; it is iterated from ``Y = 1/2`` (see :func:`solve_two_ties`).
Final round (seat 1 holds ``B >= goal``, seat 2 has ``s < goal``)
    ``F[d, w, c]``, ``d = B - s >= 1``: seat 2 holds at gain ``d + 1`` (a
    win); a hold at ``d`` starts a tie round (``1 - T0``), below ``d`` or a
    bust loses.

Each chain from turn start ``(w, c0)`` runs over ``t`` good draws as in
every deck kernel: ``D_t = p_g V_{t+1} + (1 - p_g) U_t`` with ``U_t`` the
value after a bust, ``V_t = D_t`` if ``D_t > H_t + tie`` (and always at
``t = 0``), else the hold value ``H_t``. Lengths follow the same decisions.
"""

from designer._jit import kernel
from designer.solve._classes import deck_chances


@kernel
def _bust_deck(bad, w, c):
    """Deck state after a bad item drawn at ``(w, c)`` (a reshuffle after the last)."""
    if w + 1 < bad:
        return w + 1, c
    return 0, 0


@kernel
def _step(t, pg, nv, nl, bv, bl, h, hl, first, tie):
    """One step back along a chain: draw (value ``pg nv + (1 - pg) bv``,
    forced at ``t = 0``) or hold (``h``) if drawing does not beat it by
    more than ``tie``. Returns the value, length and first hold there."""
    dv = pg * nv + (1.0 - pg) * bv
    if t == 0 or dv > h + tie:
        return dv, 1.0 + pg * nl + (1.0 - pg) * bl, first
    return h, hl, t


@kernel
def _last_chain(bad, good, g, w, c0, PG, Y, YL, bust_ties, tie):
    """Seat 2's chain when the score to beat is ``g`` above its own (a tie
    round's gain, or a final round's distance ``d``).

    ``Y, YL`` give the value and length of a tie round that starts at a deck
    state (seat 1's win probability in it). ``bust_ties``: a bust ties (a tie
    round where seat 1 gained 0). Returns ``(value, length, first hold)``.
    """
    left = good - c0
    if g + 1 <= left:  # the winning hold at g + 1 is forced
        t, nv, nl, first = g, 1.0, 1.0, g + 1
    else:
        t, nv, nl, first = left, 0.0, 0.0, left + 1
    while t >= 0:
        c = c0 + t
        bv = bl = 0.0  # a bust loses ...
        if bust_ties:  # ... or ties again
            bw, bc = _bust_deck(bad, w, c)
            bv = 1.0 - Y[bw, bc]
            bl = YL[bw, bc]
        h, hl = 0.0, 1.0  # a hold below the score to beat loses ...
        if t == g:  # ... at it, it ties
            h, hl = 1.0 - Y[w, c], 1.0 + YL[w, c]
        nv, nl, first = _step(t, PG[w, c], nv, nl, bv, bl, h, hl, first, tie)
        t -= 1
    return nv, nl, first


@kernel
def _first_chain(bad, good, lim_gain, w, c0, PG, T1, TL1, tie):
    """Seat 1's chain at the start of a tie round (gain capped at ``lim_gain``)."""
    left = good - c0
    if lim_gain <= left:
        c = c0 + lim_gain
        t, nv, nl, first = lim_gain - 1, 1.0 - T1[lim_gain, w, c], 1.0 + TL1[lim_gain, w, c], lim_gain
    else:
        t, nv, nl, first = left, 0.0, 0.0, left + 1
    while t >= 0:
        c = c0 + t
        bw, bc = _bust_deck(bad, w, c)
        nv, nl, first = _step(t, PG[w, c], nv, nl, 1.0 - T1[0, bw, bc], TL1[0, bw, bc],
                              1.0 - T1[t, w, c], 1.0 + TL1[t, w, c], first, tie)
        t -= 1
    return nv, nl, first


@kernel
def solve_two_ties(bad, good, ncap, tol, tie, max_iter, T0, TL0, P0, T1, TL1, P1, stats):
    """The two-seat tie round: iterate ``Y = T0`` to its fixed point.

    Each iterate is one Gauss-Seidel pass over the deck states, latest
    first: a full tie moves the deck on (a round's first draw is forced),
    so ``Y`` at a deck state depends on later states, already updated in
    the pass, and on a fresh deck after a reshuffle, which lags one pass.
    Stops when ``T0`` moved by at most ``tol`` and its lengths by 1e-12
    relative, or after ``max_iter`` iterates (counted in ``stats[4]``, the
    last move in ``stats[5]``); ``stats[6]`` counts the iterates.
    """
    PG = deck_chances(bad, good)
    Y = T0
    YL = TL0
    Y[:, :] = 0.5
    YL[:, :] = 0.0
    for it in range(1, max_iter + 1):
        diff = 0.0
        ldiff = 0.0
        for w in range(bad - 1, -1, -1):
            for c0 in range(good, -1, -1):
                # Beyond the goods left (g > good - c0) seat 2 cannot reach g:
                # every such g has the chain of g = good - c0 + 1.
                top = min(ncap, good - c0 + 2)
                for g in range(ncap):
                    if g < top:
                        v, ln, first = _last_chain(bad, good, g, w, c0, PG, Y, YL, g == 0, tie)
                    T1[g, w, c0] = v
                    TL1[g, w, c0] = ln
                    P1[g, w, c0] = first
                v, ln, first = _first_chain(bad, good, ncap - 1, w, c0, PG, T1, TL1, tie)
                diff = max(diff, abs(v - Y[w, c0]))
                ldiff = max(ldiff, abs(ln - YL[w, c0]) / max(1.0, ln))
                Y[w, c0] = v
                YL[w, c0] = ln
                P0[w, c0] = first
        stats[6] += 1
        if diff <= tol and ldiff <= 1e-12:
            return
        if it >= max_iter:
            stats[4] += 1
            stats[5] = max(stats[5], diff)


@kernel
def solve_two_finals(bad, good, T0, TL0, F, LF, PF, tie):
    """Seat 2 in the final round at every distance ``d = 1 .. F.shape[0] - 1``."""
    PG = deck_chances(bad, good)
    for w in range(bad):
        for c0 in range(good + 1):
            # beyond the goods left every distance has the chain of
            # d = good - c0 + 1 (seat 2 cannot reach it)
            top = good - c0 + 2
            for d in range(1, F.shape[0]):
                if d < top:
                    v, ln, first = _last_chain(bad, good, d, w, c0, PG, T0, TL0, False, tie)
                F[d, w, c0] = v
                LF[d, w, c0] = ln
                PF[d, w, c0] = first
