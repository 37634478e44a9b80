"""Numba kernels of the rounds ending where a bust can lower a banked score
(two seats); :mod:`designer.engine.rounds_falls` has the mathematics.

One turn is swept by :func:`designer.engine._rounds_kernels.turn_starts`
from its stop values ``stopv[t, h]`` (banking ``t`` with the next turn
from start ``h``). The busts that lower the score read column ``H + k`` of
row 0 (``k``: the falling outcome's rank, :data:`OQ_AUX` pointed there by
the layout), which holds what the turn is worth after that bust.
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._sync import fetch_add, load_acquire, store_release
from designer.engine._rounds_kernels import (OP_CHOICE, OP_MOVE, OP_SKIP, OQ_AUX, OQ_OP,
                                             turn_starts)

# bust effects on the banked score (designer.engine.model)
_ZERO = 1
#: Rounds of a pair whose wins agree while its expected lengths still move
#: before the lengths are declared endless.
ENDLESS_ROUNDS = 200
#: A pair whose round comes back to it with a chance above ``1 - STEEP``
#: (more than ``1 / STEEP`` rounds on average) has an expected length that
#: double precision cannot give (its error grows as ``1e-16 / (1 - m)``):
#: ``flags[1]`` says so.
STEEP = 1e-10


@kernel
def fallen(score, effect, penalty, lo):
    """The banked score after a bust of ``effect`` from ``score``."""
    if effect == _ZERO:
        return 0
    return max(score - penalty, lo)


@kernel
def _round_end(a, b, h, G, lo, replay, X, LX):
    """Seat 2's value and the actions left once a round ends at scores
    ``(a, b)`` with the next round from start ``h``."""
    if a >= G or b >= G:
        if b > a:
            return 1.0, 0.0
        if b < a or not replay:
            return 0.0, 0.0
    return 1.0 - X[a - lo, b - lo, h], LX[a - lo, b - lo, h]


@kernel
def _instant(H, forced, starts, cont_start, out_start, out_prob, throws, oq, opt_start,
             opt_next, hand_h, stopv, stopl, resv, resl):
    """Start values of a turn that ends at once, at total 0 (the mover is at
    the cap, or seat 2 already leads a tie round): a pass, or under a
    forced first roll that roll, every total it reaches being the end."""
    for h in range(H):
        s = starts[h]
        if not forced or cont_start[s + 1] == cont_start[s]:
            resv[h] = stopv[0, hand_h[s]]
            resl[h] = 1.0 + stopl[0, hand_h[s]]
            continue
        have = False
        bestn = 0.0
        bestl = 0.0
        for c in range(cont_start[s], cont_start[s + 1]):
            acc = 0.0
            lacc = throws[c]
            for o in range(out_start[c], out_start[c + 1]):
                op = oq[o, OQ_OP]
                p = out_prob[o]
                if op == OP_SKIP:
                    continue
                if op == OP_CHOICE:
                    bn = -1.0
                    bl = 0.0
                    for k in range(opt_start[o], opt_start[o + 1]):
                        n = stopv[0, hand_h[opt_next[k]]]
                        if n > bn:  # every option ends the turn: the first best
                            bn = n
                            bl = 1.0 + stopl[0, hand_h[opt_next[k]]]
                    acc += p * bn
                    lacc += p * bl
                elif op == OP_MOVE:
                    acc += p * stopv[0, oq[o, OQ_AUX]]
                    lacc += p * (1.0 + stopl[0, oq[o, OQ_AUX]])
                else:  # a bust (a fall's own column) or an end with points
                    acc += p * stopv[0, oq[o, OQ_AUX]]
                    lacc += p * stopl[0, oq[o, OQ_AUX]]
            if not have or acc > bestn:
                have = True
                bestn = acc
                bestl = lacc
        resv[h] = bestn
        resl[h] = bestl


@kernel
def _turn(T, H, min_bank, forced, tie, starts, blk_ptr, blk_states, cont_start, out_start,
          out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, stopv, stopl,
          Wv, Wl, resv, resl, rowv, rowl, tol):
    """The mover's start values of one turn (:func:`turn_starts`, or
    :func:`_instant` when it ends at once), written to ``rowv`` (wins) and
    ``rowl`` (expected actions); returns the largest change of a win and
    the largest relative change of a length, as one number: a win's plus
    ``2`` when a length moved by more than ``tol`` (see :func:`solve_pass`)."""
    if T == 0:
        _instant(H, forced, starts, cont_start, out_start, out_prob, throws, oq, opt_start,
                 opt_next, hand_h, stopv, stopl, resv, resl)
    else:
        turn_starts(T, stopv, stopl, min_bank, forced, tie, blk_ptr, blk_states, cont_start,
                    out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                    tmin, Wv, Wl, resv, resl)
    d = _change(resv, rowv, H)
    if _lchange(resl, rowl, H) > tol:
        d += 2.0
    for h in range(H):
        rowv[h] = resv[h]
        rowl[h] = resl[h]
    return d


@kernel
def _seat2(a, b, G, lo, replay, min_bank, fall_eff, fall_pen, fall_h, X, LX, stopv, stopl, H):
    """Stop values of seat 2's turn at ``b`` against a seat 1 that ended
    its turn at ``a``; returns the total ``T`` from which a stop wins."""
    T = max(G - b, a + 1 - b, min_bank, 0)
    for t in range(T):
        for h in range(H):
            stopv[t, h], stopl[t, h] = _round_end(a, b + t, h, G, lo, replay, X, LX)
    for h in range(H):
        stopv[T, h] = 1.0
        stopl[T, h] = 0.0
    for k in range(fall_eff.shape[0]):
        nb = fallen(b, fall_eff[k], fall_pen[k], lo)
        stopv[0, H + k], stopl[0, H + k] = _round_end(a, nb, fall_h[k], G, lo, replay, X, LX)
    return T


@kernel
def _seat1(a, b, C, lo, fall_eff, fall_pen, fall_h, Y, LY, stopv, stopl, H):
    """Stop values of seat 1's turn at ``a`` against seat 2 at ``b`` (a
    score past the cap ``C`` is held at it); returns ``T = C - a``."""
    T = C - a
    for t in range(T + 1):
        for h in range(H):
            stopv[t, h] = 1.0 - Y[b - lo, a + t - lo, h]
            stopl[t, h] = LY[b - lo, a + t - lo, h]
    for k in range(fall_eff.shape[0]):
        na = fallen(a, fall_eff[k], fall_pen[k], lo)
        stopv[0, H + k] = 1.0 - Y[b - lo, na - lo, fall_h[k]]
        stopl[0, H + k] = LY[b - lo, na - lo, fall_h[k]]
    return T


@kernel
def _change(new, old, H):
    """Largest change of a start value (``new[h]`` against ``old[h]``)."""
    d = 0.0
    for h in range(H):
        d = max(d, abs(new[h] - old[h]))
    return d


@kernel
def _lchange(new, old, H):
    """Largest relative change of an expected length."""
    d = 0.0
    for h in range(H):
        d = max(d, abs(new[h] - old[h]) / max(1.0, abs(new[h])))
    return d


@kernel
def _steep(x0, f0, x1, f1):
    """Whether the line through ``(x0, f0)`` and ``(x1, f1)`` has a slope
    within ``STEEP`` of 1, measured where the two points are far enough
    apart for the slope to be more than rounding."""
    if abs(x1 - x0) <= 1e-6 * max(1.0, abs(x1)):
        return False
    return abs((f1 - f0) / (x1 - x0) - 1.0) <= STEEP


@kernel
def _secant(x0, f0, x1, f1):
    """The fixed point of the line through ``(x0, f0)`` and ``(x1, f1)``
    (``f = f(x)``), or ``f1`` where the slope is not in ``[0, 1)``."""
    if x1 == x0:
        return f1
    m = (f1 - f0) / (x1 - x0)
    if m < 0.0 or m >= 1.0:
        return f1
    return (f1 - m * x1) / (1.0 - m)


@kernel
def remember(a, b, lo, X, LX, Y, LY, old):
    """Keep pair ``(a, b)``'s stored values (wins, lengths) in ``old``
    before a pass moves them (:func:`pair_changes`)."""
    for h in range(X.shape[2]):
        old[0, h] = Y[b - lo, a - lo, h]
        old[1, h] = X[a - lo, b - lo, h]
        old[2, h] = LY[b - lo, a - lo, h]
        old[3, h] = LX[a - lo, b - lo, h]


@kernel
def pair_changes(a, b, lo, need_x, X, LX, Y, LY, old):
    """The largest change of pair ``(a, b)``'s stored wins in its pass, and
    of its lengths, relatively (``old``: :func:`remember`)."""
    H = X.shape[2]
    delta = _change(Y[b - lo, a - lo], old[0], H)
    ldelta = _lchange(LY[b - lo, a - lo], old[2], H)
    if need_x:
        delta = max(delta, _change(X[a - lo, b - lo], old[1], H))
        ldelta = max(ldelta, _lchange(LX[a - lo, b - lo], old[3], H))
    return delta, ldelta


@kernel
def pair_result(settled, memo, flags, a, b, lo, need_x, X, LX, Y, LY, old):
    """What a pair's rounds end with: ``(-1, 0)`` where they did not
    settle, else :func:`pair_changes`; a length found too long to measure
    (``memo[5]``, :func:`round_settled`) sets ``flags[1]``."""
    if not settled:
        return -1.0, 0.0
    if memo[5] != 0.0:
        flags[1] = 1
    return pair_changes(a, b, lo, need_x, X, LX, Y, LY, old)


@kernel
def round_settled(it, d, tol, a, b, C, lo, X, LX, LY, xin, lin, fx, fl, memo, flags):
    """After round ``it`` of pair ``(a, b)``'s two turns (``d``: the largest
    change of a win, plus 2 where a length moved; ``xin``, ``lin``: seat
    1's first start value and length before it, ``fx``, ``fl`` after):
    whether the pair is settled. ``memo`` carries the last round's
    ``(x, f(x))`` of both, the rounds the wins have agreed while the
    lengths move, and ``memo[5] = 1`` once a secant step on the length
    was as steep as :data:`STEEP`. Where the lengths keep moving for
    :data:`ENDLESS_ROUNDS` rounds, play can pass for ever (``flags[0]``),
    except at the cap's own level, where seat 1 can only pass (its length
    left 0). With one start state the next round starts from the fixed
    point of the last two (a pair's values are affine in its own start
    value while its decisions stay)."""
    if d <= tol:
        return True
    if 2.0 <= d <= 2.0 + tol:  # the wins agree, the lengths do not yet
        memo[4] += 1.0
        if memo[4] > ENDLESS_ROUNDS:
            if a == C and b == C:
                for h in range(X.shape[2]):
                    LX[a - lo, b - lo, h] = 0.0
                    LY[b - lo, a - lo, h] = 0.0
            else:
                flags[0] = 1
            memo[5] = 0.0  # passing for ever, or the cap's level: said above
            return True
    else:
        memo[4] = 0.0
    if X.shape[2] == 1 and it > 0 and it % 2 == 1:
        X[a - lo, b - lo, 0] = _secant(memo[0], memo[1], xin, fx)
        # the length's map is affine only once the decisions stay, as the
        # wins agreeing show; its slope is then the chance that a round
        # comes back to the pair
        if 2.0 <= d <= 2.0 + tol and _steep(memo[2], memo[3], lin, fl):
            memo[5] = 1.0
        LX[a - lo, b - lo, 0] = _secant(memo[2], memo[3], lin, fl)
    memo[0] = xin
    memo[1] = fx
    memo[2] = lin
    memo[3] = fl
    return False


@kernel
def _pair(a, b, G, C, lo, replay, min_bank, forced, tie, tol, max_inner, starts, blk_ptr,
          blk_states, cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
          hand_h, hidx, tmin, fall_eff, fall_pen, fall_h, X, LX, Y, LY, stopv, stopl, Wv, Wl, resv,
          resl, old, flags):
    """Pair ``(a, b)`` of a pass: its two turns (seat 2's ``Y[b, a]``, then
    seat 1's ``X[a, b]``) iterated until one round of both moves no start
    value by more than ``tol`` (with one start state through a secant step
    on ``X[a, b]``, the pair's values being affine in it while its
    decisions stay). Returns the largest change of its stored wins (-1
    when it did not settle within ``max_inner`` rounds) and the largest
    relative change of its expected lengths. ``flags[0]`` becomes 1 where
    the pair's wins agree but its expected lengths keep growing (play that
    passes for ever: no finite length), ``flags[1]`` where its length is
    too long for double precision (:data:`STEEP`)."""
    H = starts.shape[0]
    need_x = (a < G and b < G) or (replay and a == b)
    remember(a, b, lo, X, LX, Y, LY, old)
    memo = np.zeros(6)
    settled = False
    for it in range(max_inner):
        xin = X[a - lo, b - lo, 0]
        lin = LX[a - lo, b - lo, 0]
        d = 0.0
        for side in range(2 if need_x else 1):
            if side == 0:  # seat 2's turn, then seat 1's
                T = _seat2(a, b, G, lo, replay, min_bank, fall_eff, fall_pen, fall_h, X, LX,
                           stopv, stopl, H)
                rowv, rowl = Y[b - lo, a - lo], LY[b - lo, a - lo]
            else:
                T = _seat1(a, b, C, lo, fall_eff, fall_pen, fall_h, Y, LY, stopv, stopl, H)
                rowv, rowl = X[a - lo, b - lo], LX[a - lo, b - lo]
            d = max(d, _turn(T, H, min_bank, forced, tie, starts, blk_ptr, blk_states,
                             cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain,
                             opt_next, hand_h, hidx, tmin, stopv, stopl, Wv, Wl, resv, resl,
                             rowv, rowl, tol))
        if not need_x or round_settled(it, d, tol, a, b, C, lo, X, LX, LY, xin, lin, resv[0],
                                       resl[0], memo, flags):
            settled = True
            break
    return pair_result(settled, memo, flags, a, b, lo, need_x, X, LX, Y, LY, old)


@kernel
def _ready(m, pairs, row, lo, done):
    """Whether the pairs that pair ``m`` reads in this pass are solved:
    ``(a, b)`` reads ``(a', b)`` for ``a' > a`` and ``(a, b')`` for ``b' >
    b``, each solved after its neighbour towards ``(a, b)``, so the two
    neighbours suffice (``row``: a pair's place in ``pairs``, -1 for one
    no pass solves)."""
    a = pairs[m, 0] - lo
    b = pairs[m, 1] - lo
    n = row.shape[0]
    if a + 1 < n and row[a + 1, b] >= 0 and load_acquire(done, row[a + 1, b]) == 0:
        return False
    if b + 1 < n and row[a, b + 1] >= 0 and load_acquire(done, row[a, b + 1]) == 0:
        return False
    return True


@kernel
def claim(first, pairs, row, lo, state, done):
    """The next pair of ``pairs`` for a worker to solve: ``(m, first)``,
    ``m`` the first pair from ``first`` on that no worker has claimed
    (``state``, claimed here) and whose inputs are solved (:func:`_ready`),
    -1 when every ready pair is in another worker's hands, -2 when every
    pair is solved; ``first`` the first pair not yet solved."""
    npairs = pairs.shape[0]
    while first < npairs and load_acquire(done, first) != 0:
        first += 1
    if first >= npairs:
        return -2, first
    # the pairs ready lie within a few sums of the first unsolved
    window = 4 * row.shape[0] + 4
    for k in range(first, min(npairs, first + window)):
        if (load_acquire(state, k) == 0 and _ready(k, pairs, row, lo, done)
                and fetch_add(state, k, 1) == 0):
            return k, first
    return -1, first


@kernel
def reset(state, done, deltas, ldeltas):
    """A pass's bookkeeping cleared: no pair claimed or solved, no change."""
    state[:] = 0
    done[:] = 0
    deltas[:] = 0.0
    ldeltas[:] = 0.0


@kernel
def solved(w, m, d, ld, done, deltas, ldeltas):
    """Worker ``w`` has solved pair ``m`` (its changes ``d``, -1 where it did
    not settle, and ``ld``): noted, and the pair marked solved for the
    pairs that wait for it."""
    if d < 0.0 or deltas[w] < 0.0:
        deltas[w] = -1.0
    else:
        deltas[w] = max(deltas[w], d)
    ldeltas[w] = max(ldeltas[w], ld)
    store_release(done, m, 1)


@kernel
def pass_changes(deltas, ldeltas):
    """A pass's largest change of a stored win (-1 when a pair did not
    settle) and of a length, relatively, over its workers."""
    if deltas.min() < 0.0:
        return -1.0, ldeltas.max()
    return deltas.max(), ldeltas.max()


@kernel
def pass_worker(w, pairs, row, G, C, lo, replay, min_bank, forced, tie, tol, max_inner, starts,
                blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq, opt_start,
                opt_gain, opt_next, hand_h, hidx, tmin, fall_eff, fall_pen, fall_h, X, LX, Y, LY,
                stopv, stopl, Wv, Wl, resv, resl, old, flags, state, done, deltas, ldeltas):
    """Worker ``w`` of a pass (several run at once, sharing ``state``, a
    claim counter per pair, and ``done``): it solves the first pair of
    ``pairs`` (by decreasing ``a + b``) that no worker has claimed and whose
    inputs are solved (:func:`_ready`), on its own scratch (``stopv[w]``
    ...). A pair reads the pairs of larger sums it waited for and pairs of
    smaller sums, which wait for it: every pair reads what it reads in one
    thread's order, and the pass gives the same numbers on any number of
    threads. ``deltas[w]``: the largest change of a stored win this worker
    made, -1 once a pair did not settle; ``ldeltas[w]``: of a length,
    relative."""
    sv, sl, wv, wl, rv, rl, ol = stopv[w], stopl[w], Wv[w], Wl[w], resv[w], resl[w], old[w]
    first = 0
    while True:
        m, first = claim(first, pairs, row, lo, state, done)
        if m == -2:
            break
        if m < 0:
            continue  # every ready pair is in another worker's hands
        d, ld = _pair(pairs[m, 0], pairs[m, 1], G, C, lo, replay, min_bank, forced, tie, tol,
                  max_inner, starts, blk_ptr, blk_states, cont_start, out_start, out_prob, throws,
                  oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, fall_eff, fall_pen,
                  fall_h, X, LX, Y, LY, sv, sl, wv, wl, rv, rl, ol, flags)
        solved(w, m, d, ld, done, deltas, ldeltas)


@parallel_kernel
def solve_pass(nt, pairs, row, G, C, lo, replay, min_bank, forced, tie, tol, max_inner, starts,
               blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq, opt_start,
               opt_gain, opt_next, hand_h, hidx, tmin, fall_eff, fall_pen, fall_h, X, LX, Y, LY,
               stopv, stopl, Wv, Wl, resv, resl, old, flags, state, done, deltas, ldeltas):
    """One Gauss-Seidel pass over every pair of scores (``pairs``, by
    decreasing sum) on ``nt`` workers (:func:`pass_worker`), one to a
    thread of numba's. Returns the largest change of a stored win over the
    pass (-1 when a pair did not settle) and the largest relative change of
    an expected length."""
    reset(state, done, deltas, ldeltas)
    for w in prange(nt):
        # np.int64(w): prange's index is typed int64, then uint64 in the
        # threads' copy; one type compiles the worker once, not twice
        pass_worker(np.int64(w), pairs, row, G, C, lo, replay, min_bank, forced, tie, tol,
                    max_inner, starts, blk_ptr, blk_states, cont_start, out_start, out_prob,
                    throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, fall_eff,
                    fall_pen, fall_h, X, LX, Y, LY, stopv, stopl, Wv, Wl, resv, resl, old, flags,
                    state, done, deltas, ldeltas)
    return pass_changes(deltas, ldeltas)
