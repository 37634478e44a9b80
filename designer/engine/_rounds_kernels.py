"""Numba kernels of the engine's rounds ending (two seats).

Arrays in, preallocated arrays out; :mod:`designer.engine.rounds` makes
the plan they follow and its docstring has the mathematics.

Every sweep goes block by block (``blk_ptr``, ``blk_states``: the strongly
connected components of the moves within a turn, successors first), each
block from its largest total down: a block's outcomes, read once per
total, stay in the cache, and a state's values are kept together by total
(``W[s, t]``), so the few totals a move reaches lie side by side.

Outcomes are packed into ``oq[o]`` (32-bit, the ``OQ_*`` columns): what a
sweep does with each (the ``OP_*`` codes), the gain or points, the next
turn state and, for a bust or an end, the turn start it goes to, or for
a move the turn start after a stop at the state it reaches. A pair's
sweep reads them by continuation ``c`` in three groups, the common ones
without a test each: ``fb_p[c]``, the chance of a bust to the feedback
start; the moves ``mv_ptr[c] .. mv_ptr[c + 1] - 1`` (probability
``mv_p``, gain ``mv_g``, ``mv_off = next * Tn + gain``, the row of the
position reached at total 0, and ``mv_h``, the turn start after a stop
there); and the others, ``ot_idx[ot_ptr[c] .. ot_ptr[c + 1] - 1]``.
"""

import numpy as np
from numba import prange

from designer._jit import kernel, parallel_kernel
from designer.engine._linear import two_rows
from designer.engine._sync import cycles, fetch_add, load_acquire, store_release

# what a sweep does with an outcome: nothing (probability 0), move to the one
# option's state, a bust to the feedback start or to another turn start, an
# end of the turn with points, or a choice among options
OP_SKIP = 0
OP_MOVE = 1
OP_FEEDBACK = 2
OP_START = 3
OP_END = 4
OP_CHOICE = 5
# columns of oq (OQ_AUX: the turn start of a bust or an end, or for a move
# the turn start after a stop at the state it reaches)
OQ_OP, OQ_GAIN, OQ_NEXT, OQ_AUX = 0, 1, 2, 3


# -- the final round and the tie round: one number per position ---------------
#
# Seat 2 moving in a final round ``d`` points behind (seat 1 at or above the
# goal) wins with a total above ``d``, ties at ``d`` and loses below; a
# position at total ``t >= max(min_bank, 1)`` has the same value for every
# ``d`` with the same ``r = d - t`` (what seat 2 still needs to tie), so
# one table ``Wr[s, r]`` serves every ``d``; only the totals below
# ``max(min_bank, 1)`` (where the turn's start, passes and the bank rule
# differ) are swept for each ``d`` (:func:`final_starts`). Each position
# also carries the expected actions left under its decisions (the game
# length, :mod:`designer.engine.rounds_length`; the solve passes zeros
# where a tie's length goes and does not read them).


@kernel
def final_table(R, tv, lt, tie, blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq,
                opt_start, opt_gain, opt_next, hand_h, Wr, Lr):
    """``Wr[s, r]`` for ``r = 0 .. R``: seat 2's win probability in a final
    round at state ``s`` with ``r`` points still to make to tie, at a turn
    total of at least ``max(min_bank, 1)`` (stopping allowed; a bust
    loses), and ``Lr[s, r]`` the actions left there under those decisions
    (a stop one, a throw or draw ``throws[c]``). ``tv[h]``: seat 2's value
    of a tie with the next round from start ``h`` (0 when a tie goes to
    seat 1), ``lt[h]`` the actions after it (0 where a tie ends the
    game)."""
    for blk in range(blk_ptr.shape[0] - 1):
        for r in range(R + 1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                stop = tv[hand_h[s]] if r == 0 else 0.0
                lstop = 1.0 + (lt[hand_h[s]] if r == 0 else 0.0)
                have = False
                bestn = 0.0
                bestl = 0.0
                for c in range(cont_start[s], cont_start[s + 1]):
                    acc = 0.0
                    lacc = throws[c]
                    for o in range(out_start[c], out_start[c + 1]):
                        op = oq[o, OQ_OP]
                        p = out_prob[o]
                        if op == OP_MOVE:
                            rr = r - oq[o, OQ_GAIN]
                            if rr < 0:  # past the score to beat: the winning stop
                                acc += p
                                lacc += p
                            else:
                                acc += p * Wr[oq[o, OQ_NEXT], rr]
                                lacc += p * Lr[oq[o, OQ_NEXT], rr]
                        elif op == OP_END:
                            rr = r - oq[o, OQ_GAIN]
                            if rr < 0:
                                acc += p
                            elif rr == 0:
                                acc += p * tv[oq[o, OQ_AUX]]
                                lacc += p * lt[oq[o, OQ_AUX]]
                        elif op == OP_CHOICE:
                            bo = -1
                            bn = 0.0
                            bl = 0.0
                            for k in range(opt_start[o], opt_start[o + 1]):
                                rr = r - opt_gain[k]
                                if rr < 0:
                                    n, ln = 1.0, 1.0
                                else:
                                    n, ln = Wr[opt_next[k], rr], Lr[opt_next[k], rr]
                                if bo < 0 or n > bn + tie:
                                    bo = k
                                    bn = n
                                    bl = ln
                            acc += p * bn
                            lacc += p * bl
                        # a bust loses: the game is over
                    if not have or acc > bestn + tie:
                        have = True
                        bestn = acc
                        bestl = lacc
                if have and bestn > stop + tie:
                    Wr[s, r] = bestn
                    Lr[s, r] = bestl
                else:
                    Wr[s, r] = stop
                    Lr[s, r] = lstop


@kernel
def final_starts(d0, d1, tlo, min_bank, forced, tv, lt, tie, blk_ptr, blk_states, cont_start,
                 out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                 tmin, Wr, Lr, Wd, Ld, F, LF):
    """``F[d, h]`` for ``d = d0 .. d1``: seat 2's win probability at the
    start of a final-round turn from start ``h``, ``d`` points behind (``d
    = 0``: level, a tie round's second turn), and ``LF[d, h]`` the actions
    left. Totals below ``tlo = max(min_bank, 1)`` are swept here (``Wd``,
    ``Ld[s, t]``, for one distance at a time; a position below the least
    total its state is reached with, ``tmin``, is left out), those above
    read :func:`final_table`'s ``Wr``, ``Lr``."""
    for d in range(d0, d1 + 1):
        T2 = max(d + 1, min_bank)  # from here the turn ends at once, won
        for blk in range(blk_ptr.shape[0] - 1):
            for t in range(tlo - 1, -1, -1):
                for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                    s = blk_states[q]
                    if t < tmin[s]:
                        continue
                    stop = 1.0 if t > d else (tv[hand_h[s]] if t == d else 0.0)
                    lstop = 1.0 + (lt[hand_h[s]] if t == d else 0.0)
                    have = False
                    bestn = 0.0
                    bestl = 0.0
                    for c in range(cont_start[s], cont_start[s + 1]):
                        acc = 0.0
                        lacc = throws[c]
                        for o in range(out_start[c], out_start[c + 1]):
                            op = oq[o, OQ_OP]
                            p = out_prob[o]
                            if op == OP_MOVE:
                                u = t + oq[o, OQ_GAIN]
                                s2 = oq[o, OQ_NEXT]
                                if u >= T2:
                                    acc += p
                                    lacc += p
                                elif u < tlo:
                                    acc += p * Wd[s2, u]
                                    lacc += p * Ld[s2, u]
                                else:
                                    acc += p * Wr[s2, d - u]
                                    lacc += p * Lr[s2, d - u]
                            elif op == OP_END:
                                u = min(t + oq[o, OQ_GAIN], T2)
                                if u > d:
                                    acc += p
                                elif u == d:
                                    acc += p * tv[oq[o, OQ_AUX]]
                                    lacc += p * lt[oq[o, OQ_AUX]]
                            elif op == OP_CHOICE:
                                bo = -1
                                bn = 0.0
                                bl = 0.0
                                for k in range(opt_start[o], opt_start[o + 1]):
                                    u = t + opt_gain[k]
                                    s2 = opt_next[k]
                                    if u >= T2:
                                        n, ln = 1.0, 1.0
                                    elif u < tlo:
                                        n, ln = Wd[s2, u], Ld[s2, u]
                                    else:
                                        n, ln = Wr[s2, d - u], Lr[s2, d - u]
                                    if bo < 0 or n > bn + tie:
                                        bo = k
                                        bn = n
                                        bl = ln
                                acc += p * bn
                                lacc += p * bl
                            elif op != OP_SKIP and d == 0:  # a bust at level: a tie
                                acc += p * tv[oq[o, OQ_AUX]]
                                lacc += p * lt[oq[o, OQ_AUX]]
                        if not have or acc > bestn + tie:
                            have = True
                            bestn = acc
                            bestl = lacc
                    if not have:
                        bestn = stop
                    if t >= min_bank:
                        go = bestn > stop + tie if t > 0 else bestn > stop - tie
                    else:
                        go = True
                    if go and have:
                        Wd[s, t] = bestn
                        Ld[s, t] = bestl
                    else:
                        Wd[s, t] = stop
                        Ld[s, t] = lstop
                    if t == 0 and hidx[s] >= 0:
                        F[d, hidx[s]] = bestn if forced else Wd[s, 0]
                        LF[d, hidx[s]] = bestl if forced and have else Ld[s, 0]


@kernel
def turn_starts(T, stopv, stopl, min_bank, forced, tie, blk_ptr, blk_states, cont_start,
                out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                tmin, Wv, Wl, resv, resl):
    """One turn with one number per position: ending it at total ``t`` with
    the next turn from start ``h`` is worth ``stopv[t, h]`` to the mover
    and leaves ``stopl[t, h]`` actions (``t = T``: any total from ``T`` on,
    where the turn ends at once). The mover's values go to ``Wv`` and the
    actions left under its decisions to ``Wl`` (positions below ``tmin``,
    never reached, are left out): ties go to stopping (at a total of 0 to
    going on), and among continuations and options to the one listed first
    unless another beats it by more than ``tie``. A stop (a pass and the
    stop at ``T`` included) is one action, a throw or draw ``throws[c]``; an
    end of the turn by a roll (points or a bust) adds none. Start values
    and lengths go to ``resv`` and ``resl``."""
    for blk in range(blk_ptr.shape[0] - 1):
        for t in range(T - 1, -1, -1):
            for q in range(blk_ptr[blk], blk_ptr[blk + 1]):
                s = blk_states[q]
                if t < tmin[s]:
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
                        if op == OP_MOVE:
                            u = t + oq[o, OQ_GAIN]
                            if u >= T:
                                acc += p * stopv[T, oq[o, OQ_AUX]]
                                lacc += p * (1.0 + stopl[T, oq[o, OQ_AUX]])
                            else:
                                acc += p * Wv[oq[o, OQ_NEXT], u]
                                lacc += p * Wl[oq[o, OQ_NEXT], u]
                        elif op == OP_END:
                            u = min(t + oq[o, OQ_GAIN], T)
                            acc += p * stopv[u, oq[o, OQ_AUX]]
                            lacc += p * stopl[u, oq[o, OQ_AUX]]
                        elif op == OP_CHOICE:
                            bo = -1
                            bn = 0.0
                            bl = 0.0
                            for k in range(opt_start[o], opt_start[o + 1]):
                                u = t + opt_gain[k]
                                if u >= T:
                                    n = stopv[T, hand_h[opt_next[k]]]
                                    ln = 1.0 + stopl[T, hand_h[opt_next[k]]]
                                else:
                                    n = Wv[opt_next[k], u]
                                    ln = Wl[opt_next[k], u]
                                if bo < 0 or n > bn + tie:
                                    bo = k
                                    bn = n
                                    bl = ln
                            acc += p * bn
                            lacc += p * bl
                        elif op != OP_SKIP:  # a bust
                            acc += p * stopv[0, oq[o, OQ_AUX]]
                            lacc += p * stopl[0, oq[o, OQ_AUX]]
                    if not have or acc > bestn + tie:
                        have = True
                        bestn = acc
                        bestl = lacc
                stop = stopv[t, hand_h[s]]
                if not have:
                    bestn = stop
                if t >= min_bank:
                    go = bestn > stop + tie if t > 0 else bestn > stop - tie
                else:
                    go = True
                if go and have:
                    Wv[s, t] = bestn
                    Wl[s, t] = bestl
                else:
                    Wv[s, t] = stop
                    Wl[s, t] = 1.0 + stopl[t, hand_h[s]]
                if t == 0 and hidx[s] >= 0:
                    resv[hidx[s]] = bestn if forced else Wv[s, 0]
                    resl[hidx[s]] = bestl if forced and have else Wl[s, 0]


@kernel
def _tie_step(Tv, Cg, replay, min_bank, forced, tie, blk_ptr, blk_states, cont_start, out_start,
              out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin, tv, Wr, Wd,
              S2, stop1, Wt, res, L):
    """One greedy backup of the tie round: ``res`` from ``Tv``. ``L``: the
    lengths' scratch (``lt``, ``Lr``, ``Ld``, ``L2``, ``stopl``, ``Wl``,
    ``resl``), carried and not read."""
    lt, Lr, Ld, L2, stopl, Wl, resl = L
    H = Tv.shape[0]
    for h in range(H):
        tv[h] = 1.0 - Tv[h] if replay else 0.0
    final_table(Cg, tv, lt, tie, blk_ptr, blk_states, cont_start, out_start, out_prob, throws, oq,
                opt_start, opt_gain, opt_next, hand_h, Wr, Lr)
    final_starts(np.int64(0), Cg, max(min_bank, 1), min_bank, forced, tv, lt, tie, blk_ptr, blk_states,
                 cont_start, out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next,
                 hand_h, hidx, tmin, Wr, Lr, Wd, Ld, S2, L2)
    for g in range(Cg + 1):
        for h in range(H):
            stop1[g, h] = 1.0 - S2[g, h]
    turn_starts(Cg, stop1, stopl, min_bank, forced, tie, blk_ptr, blk_states, cont_start,
                out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin,
                Wt, Wl, res, resl)


@kernel
def tie_round(Cg, replay, tol, max_iter, min_bank, forced, tie, blk_ptr, blk_states, cont_start,
              out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx, tmin,
              Tv, Wr, Wd, S2, stop1, Wt, res, L):
    """The tie round's start values ``Tv[h]`` (seat 1 to move, both level at
    or above the goal; only the round's gains count, seat 1's capped at
    ``Cg``), from the values given, until one greedy backup moves no value
    by more than ``tol``, which is then taken; returns the backups, or -1
    past ``max_iter``. ``S2[g, h]``: seat 2 to move after seat 1 gained
    ``g``.

    The backup ``f`` is affine in ``T`` while its decisions stay, so with
    one start state the iterates are extrapolated to the fixed point of
    the line through the last two backups (a secant step), which is the
    fixed point itself once both lie under the same decisions; several
    start states are iterated plainly (a contraction by the chance of
    another tie)."""
    H = Tv.shape[0]
    tv = np.zeros(H)
    x_prev = 0.0
    f_prev = 0.0
    for it in range(max_iter):
        _tie_step(Tv, Cg, replay, min_bank, forced, tie, blk_ptr, blk_states, cont_start,
                  out_start, out_prob, throws, oq, opt_start, opt_gain, opt_next, hand_h, hidx,
                  tmin, tv, Wr, Wd, S2, stop1, Wt, res, L)
        change = 0.0
        for h in range(H):
            change = max(change, abs(res[h] - Tv[h]))
        if change <= tol:
            for h in range(H):
                Tv[h] = res[h]
            return it + 1
        if H == 1 and it > 0 and it % 8 != 7:  # a secant step (every eighth a plain one)
            x, f = Tv[0], res[0]
            slope = (f - f_prev) / (x - x_prev) if x != x_prev else 1.0
            x_prev, f_prev = x, f
            if slope < 1.0:
                Tv[0] = x + (f - x) / (1.0 - slope)
            else:
                Tv[0] = f
            Tv[0] = min(1.0, max(0.0, Tv[0]))
        else:
            x_prev, f_prev = Tv[0], res[0]
            for h in range(H):
                Tv[h] = res[h]
    return -1


# -- seat 1's sure holds above the goal --------------------------------------------

@kernel
def _hold_margin(A, b, C, guard, F, cont_start, out_start, out_prob, oq, opt_start, opt_gain,
                 opt_next, hand_h):
    """The most, over every state and continuation, of the least ``y`` for
    which seat 1 at score ``A`` (seat 2 at ``b``) holds rather than
    continue, when it holds from every higher score (:func:`hold_bounds`)."""
    top = -np.inf
    for s in range(cont_start.shape[0] - 1):
        hold = F[A - b, hand_h[s]] + guard
        for c in range(cont_start[s], cont_start[s + 1]):
            m = hold
            pb = 0.0
            for o in range(out_start[c], out_start[c + 1]):
                op = oq[o, OQ_OP]
                p = out_prob[o]
                if op == OP_MOVE or op == OP_END:
                    m -= p * F[min(A + oq[o, OQ_GAIN], C) - b, oq[o, OQ_AUX]]
                elif op == OP_CHOICE:
                    fm = np.inf
                    for k in range(opt_start[o], opt_start[o + 1]):
                        fm = min(fm, F[min(A + opt_gain[k], C) - b, hand_h[opt_next[k]]])
                    m -= p * fm
                elif op != OP_SKIP:
                    pb += p
            if pb > 0.0:
                top = max(top, m / pb)
            elif m > 0.0:
                return np.inf
    return top


@kernel
def hold_bounds(G, C, gmax, guard, F, cont_start, out_start, out_prob, oq, opt_start, opt_gain,
                opt_next, hand_h, Q):
    """``Q[b, A - G]`` for seat 2 at ``b < G`` and seat 1's scores ``G <= A
    < C``: the least value of seat 2's turn start after a bust of seat 1
    (``y``) for which seat 1 holds at every total that brings it to ``A``
    or more, in every turn state (the module doc of
    :mod:`designer.engine.rounds`); ``guard`` is added to every margin, so
    that a hold proved this way is not a rounding's. Below ``C - gmax``
    (``gmax``: the most one outcome gains) no step reaches the cap and the
    margins depend on ``A - b`` only: those are found once per distance."""
    below = C - gmax
    Qd = np.full(C + 1, -np.inf)
    for d in range(1, below):
        Qd[d] = _hold_margin(d, np.int64(0), C + 1, guard, F, cont_start, out_start, out_prob, oq,
                             opt_start, opt_gain, opt_next, hand_h)
    n = C - G
    for b in range(G):
        for A in range(G, C):
            if A < below:
                Q[b, A - G] = Qd[A - b]
            else:
                Q[b, A - G] = _hold_margin(A, b, C, guard, F, cont_start, out_start, out_prob, oq,
                                           opt_start, opt_gain, opt_next, hand_h)
        for i in range(n - 2, -1, -1):  # the most over every score from A on
            Q[b, i] = max(Q[b, i], Q[b, i + 1])


# -- the open rounds: one pair of scores at a time ----------------------------------
#
# Pair (a, b): side 0 is seat 1 to move at a round's start with ``a`` against
# ``b``, side 1 seat 2 to move with ``b`` after seat 1 ended its turn at
# ``a`` (nothing scored). The unknowns are the start values of the feedback
# start on both sides; every value is three numbers ``(c, e_own, e_oth)``,
# worth ``c + e_own x_own + e_oth x_oth`` in its side's own coordinates, as
# in the race's two-unknown kernel (designer.engine._kernels._sweep2).
# A side ends its turn at total ``u`` by handing the other seat the turn:
# seat 1 at ``a + u`` gives seat 2 ``Z[b, a + u]`` (``Y`` below the goal,
# the final round's ``F[a + u - b]`` from it on, seat 1's cap at ``C``),
# seat 2 at ``b + u`` gives seat 1 ``X[a, b + u]`` (0 from the goal on: seat 2
# has won). Both are read flat, from a base for the pair.

#: Decisions that flip once the unknowns move by less than this are kept
#: and checked one by one at a new estimate; the others only bound how far
#: it may move (as in the race's kernels).
NEAR = 1e-2


@kernel
def _keep(rad, m, slope, dA, dO, dT, thr, side, blk, t, mg, cnt):
    """A decision whose margin ``m = dA + dO x_own + dT x_oth - thr`` may
    lower the radius ``rad``: kept (pair coordinates, outcome in ``mg[c,
    3]``, where it was taken in ``mg[c, 4:7]``: side, block, total) if near
    a tie and room remains, else the new radius."""
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
        mg[c, 4] = side
        mg[c, 5] = blk
        mg[c, 6] = t
        cnt[0] = c + 1
        return rad
    return min(rad, am / slope)


@kernel
def _kept_hold(mg, cnt, y0, y1):
    """True if every kept decision comes out the same at ``(y0, y1)``."""
    for c in range(cnt[0]):
        if (mg[c, 0] + mg[c, 1] * y0 + mg[c, 2] * y1 > 0.0) != (mg[c, 3] > 0.5):
            return False
    return True


@kernel
def _sweep(x0, x1, tc0, tc1, um0, um1, Zf, Xf, base0, base1, min_bank, forced, tie, fbh, blk_ptr,
           blk_states, blk_tmax, top, tmin, tlen, cont_start, fb_p, mv_ptr, mv_p, mv_g, mv_off,
           mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start, opt_gain, opt_next, opt_hh, hand_h,
           pass_ok, hidx, sw_a, sw_d, sw_l, sw_bu, W, B, mg, cnt):
    """One backward sweep over both sides' turns of a pair, deciding at
    ``(x0, x1)``; side ``k``'s turn ends at once from total ``tc{k}``, and
    its end at total ``u`` is worth ``1 - Zf[base0 + min(u, um0) H + h]``
    (side 0) or ``1 - Xf[base1 + min(u, um1) H + h]`` (side 1) with the next
    turn from ``h``. Only totals up to ``top[side, blk]`` are swept (the
    rest keep their rows). Writes ``W[(side * S + s) * Tn + t, :3]`` and
    ``B[side * H + h, :3]``, appends decisions near a tie to ``mg``;
    returns how far the unknowns may move with every other decision of the
    sweep still greedy. Side 0 at state ``s`` wins for sure by holding from
    total ``max(sw_a, sw_l[s] + sw_d)`` on
    (:func:`designer.engine.rounds._sure_wins`):
    those positions are worth 1, and a block is swept only as far as its
    own positions and the moves into it need (``sw_bu[blk]``). Written out
    in one loop, as the race's
    :func:`~designer.engine._kernels._sweep2` and for the same reasons."""
    rad = np.inf
    S = tmin.shape[0]
    H = B.shape[0] // 2
    Tn = W.shape[0] // (2 * S)
    for blk in range(blk_ptr.shape[0] - 1):
        q0 = blk_ptr[blk]
        q1 = blk_ptr[blk + 1]
        # a block of one state (every state of a die) has the state's
        # numbers read once: the arrays may alias as far as the compiler
        # knows, so it would read them again after every store
        single = q1 - q0 == 1
        s = blk_states[q0]
        lo1, len1, c01, c11 = tmin[s], tlen[s], cont_start[s], cont_start[s + 1]
        hand1, h1, pass1 = hand_h[s], hidx[s], pass_ok[s]
        win1 = max(sw_a, sw_l[s] + sw_d)
        for side in range(2):
            if side == 0:
                xo, xt, tcap, um, base = x0, x1, tc0, um0, base0
                Tf = Zf
                t_hi = max(sw_bu[blk, 0] + sw_d, sw_bu[blk, 1] + sw_a)
            else:
                xo, xt, tcap, um, base = x1, x0, tc1, um1, base1
                Tf = Xf
                t_hi = tcap
            ws = side * S
            wsT = ws * Tn
            bw = side * H
            bt = (1 - side) * H
            for t in range(min(blk_tmax[blk], tcap - 1, top[side, blk], t_hi), -1, -1):
                for q in range(q0, q1):
                    if single:
                        if t < lo1 or t >= len1:
                            continue
                        c0, c1, hand_s, h_s, pass_s = c01, c11, hand1, h1, pass1
                        win = win1
                    else:
                        s = blk_states[q]
                        if t < tmin[s] or t >= tlen[s]:
                            continue
                        c0 = cont_start[s]
                        c1 = cont_start[s + 1]
                        hand_s, h_s, pass_s = hand_h[s], hidx[s], pass_ok[s]
                        win = max(sw_a, sw_l[s] + sw_d)
                    if side == 0 and t >= win:  # a sure win by holding
                        r = (ws + s) * Tn + t
                        W[r, 0] = 1.0
                        W[r, 1] = 0.0
                        W[r, 2] = 0.0
                        continue
                    bA = 0.0
                    bO = 0.0
                    bT = 0.0
                    for c in range(c0, c1):
                        # the busts to the feedback start (1 - the other side's
                        # unknown), the moves to another position of the turn,
                        # then the other outcomes
                        pf = fb_p[c]
                        aA = pf
                        aO = 0.0
                        aT = -pf
                        for k in range(mv_ptr[c], mv_ptr[c + 1]):
                            p = mv_p[k]
                            tt = t + mv_g[k]
                            if tt >= tcap:
                                aA += p * (1.0 - Tf[base + min(tt, um) * H + mv_h[k]])
                            else:
                                r = wsT + t + mv_off[k]
                                aA += p * W[r, 0]
                                aO += p * W[r, 1]
                                aT += p * W[r, 2]
                        for j in range(ot_ptr[c], ot_ptr[c + 1]):
                            o = ot_idx[j]
                            op = oq[o, OQ_OP]
                            p = out_prob[o]
                            if op == OP_CHOICE:
                                # the best option, ties to the first listed (it
                                # must be beaten by more than the tie margin):
                                # each option against the best before it is a
                                # decision to note
                                r0 = opt_start[o]
                                tt = t + opt_gain[r0]
                                if tt >= tcap:
                                    uA = 1.0 - Tf[base + min(tt, um) * H + opt_hh[r0]]
                                    uO, uT = 0.0, 0.0
                                else:
                                    i = (ws + opt_next[r0]) * Tn + tt
                                    uA, uO, uT = W[i, 0], W[i, 1], W[i, 2]
                                for k in range(r0 + 1, opt_start[o + 1]):
                                    tt = t + opt_gain[k]
                                    if tt >= tcap:
                                        vA = 1.0 - Tf[base + min(tt, um) * H + opt_hh[k]]
                                        vO, vT = 0.0, 0.0
                                    else:
                                        i = (ws + opt_next[k]) * Tn + tt
                                        vA, vO, vT = W[i, 0], W[i, 1], W[i, 2]
                                    dO = vO - uO
                                    dT = vT - uT
                                    slope = abs(dO) + abs(dT)
                                    m = vA - uA + dO * xo + dT * xt - tie
                                    if abs(m) < rad * slope:
                                        rad = _keep(rad, m, slope, vA - uA, dO, dT, tie, side,
                                                    blk, t, mg, cnt)
                                    if m > 0.0:
                                        uA, uO, uT = vA, vO, vT
                                aA += p * uA
                                aO += p * uO
                                aT += p * uT
                                continue
                            h = oq[o, OQ_AUX]
                            if op == OP_END:
                                tot = t + oq[o, OQ_GAIN]
                                if tot > 0:
                                    aA += p * (1.0 - Tf[base + min(tot, um) * H + h])
                                    continue
                            # a bust, or an end with nothing: the other side's
                            # turn start in this pair
                            if h == fbh:
                                aA += p
                                aT -= p
                            else:
                                aA += p * (1.0 - B[bt + h, 0])
                                aO -= p * B[bt + h, 2]
                                aT -= p * B[bt + h, 1]
                        if c == c0:
                            bA, bO, bT = aA, aO, aT
                        else:  # a later continuation must beat the best by the tie
                            dO = aO - bO
                            dT = aT - bT
                            slope = abs(dO) + abs(dT)
                            m = aA - bA + dO * xo + dT * xt - tie
                            if abs(m) < rad * slope:
                                rad = _keep(rad, m, slope, aA - bA, dO, dT, tie, side, blk, t,
                                            mg, cnt)
                            if m > 0.0:
                                bA, bO, bT = aA, aO, aT
                    if t > 0:
                        sA, sO, sT = 1.0 - Tf[base + t * H + hand_s], 0.0, 0.0
                        thr = tie
                    else:  # a pass: the other side starts from the hand-over
                        thr = -tie
                        if hand_s == fbh:
                            sA, sO, sT = 1.0, 0.0, -1.0
                        else:
                            sA = 1.0 - B[bt + hand_s, 0]
                            sO = -B[bt + hand_s, 2]
                            sT = -B[bt + hand_s, 1]
                    if c1 == c0:  # nothing to throw: the turn ends
                        bA, bO, bT = sA, sO, sT
                    go = True
                    if t >= min_bank and (t > 0 or pass_s) and c1 > c0:
                        # ties go to stopping, except at a turn total of 0,
                        # where stopping passes: passes answered by passes
                        # would never end the game. Every decision is the
                        # sign of its margin as kept, so that a check at the
                        # sweep's own estimate agrees with the sweep.
                        dO = bO - sO
                        dT = bT - sT
                        m = bA - sA + dO * xo + dT * xt - thr
                        go = m > 0.0
                        slope = abs(dO) + abs(dT)
                        if abs(m) < rad * slope:
                            rad = _keep(rad, m, slope, bA - sA, dO, dT, thr, side, blk, t, mg,
                                         cnt)
                    if t == 0 and h_s >= 0 and forced:  # a turn starts with a roll or draw
                        B[bw + h_s, 0] = bA
                        B[bw + h_s, 1] = bO
                        B[bw + h_s, 2] = bT
                    if not go:
                        bA, bO, bT = sA, sO, sT
                    r = (ws + s) * Tn + t
                    W[r, 0] = bA
                    W[r, 1] = bO
                    W[r, 2] = bT
                    if t == 0 and h_s >= 0 and not forced:
                        B[bw + h_s, 0] = bA
                        B[bw + h_s, 1] = bO
                        B[bw + h_s, 2] = bT
    return rad


@kernel
def _sweep_simple(x0, x1, tc0, tc1, um0, um1, Zf, Xf, base0, base1, min_bank, forced, tie, fbh,
                  blk_states, top, tmin, tlen, cont_start, fb_p, mv_ptr, mv_p, mv_g, mv_off, mv_h,
                  ot_ptr, ot_idx, out_prob, oq, hand_h, pass_ok, hidx, sw_a, sw_d, sw_l, sw_bu,
                  W, B, mg, cnt):
    """:func:`_sweep` for a turn model of *simple* states (a deck's: every
    block one state, with one continuation whose outcomes are busts to turn
    starts and at most one move; :func:`designer.engine.rounds._layout`
    says ``simple``). The busts' part of the continuation is the same at
    every turn total of a state, so it is summed once per state and side,
    and each turn total then reads one row of ``W`` (the move's) and one
    stop value, with no outcome dispatch. The decisions, their margins and
    the kept decisions are those of :func:`_sweep`; the busts to other
    starts are summed apart and added last (a difference in rounding
    only), as the race's :func:`designer.engine._kernels._sweep2s` does.
    The stop and the decision are written out here as in :func:`_sweep`:
    one helper for both, even inlined by numba, made Fowl Play's solve
    2.6 times slower."""
    rad = np.inf
    S = tmin.shape[0]
    H = B.shape[0] // 2
    Tn = W.shape[0] // (2 * S)
    for blk in range(blk_states.shape[0]):
        s = blk_states[blk]
        lo, ln, c = tmin[s], tlen[s], cont_start[s]
        hand_s, h_s, pass_s = hand_h[s], hidx[s], pass_ok[s]
        win = max(sw_a, sw_l[s] + sw_d)
        pf = fb_p[c]
        mp = 0.0
        mg_ = 0
        moff = 0
        mh = 0
        if mv_ptr[c + 1] > mv_ptr[c]:
            k = mv_ptr[c]
            mp, mg_, moff, mh = mv_p[k], mv_g[k], mv_off[k], mv_h[k]
        for side in range(2):
            if side == 0:
                xo, xt, tcap, um, base = x0, x1, tc0, um0, base0
                Tf = Zf
                t_hi = max(sw_bu[blk, 0] + sw_d, sw_bu[blk, 1] + sw_a)
            else:
                xo, xt, tcap, um, base = x1, x0, tc1, um1, base1
                Tf = Xf
                t_hi = tcap
            ws = side * S
            wsT = ws * Tn
            bw = side * H
            bt = (1 - side) * H
            # the busts to other starts: the other side's turn starts there
            zA, zO, zT = 0.0, 0.0, 0.0
            for j in range(ot_ptr[c], ot_ptr[c + 1]):
                o = ot_idx[j]
                p = out_prob[o]
                h = oq[o, OQ_AUX]
                zA += p * (1.0 - B[bt + h, 0])
                zO -= p * B[bt + h, 2]
                zT -= p * B[bt + h, 1]
            for t in range(min(ln - 1, tcap - 1, top[side, blk], t_hi), lo - 1, -1):
                r = (ws + s) * Tn + t
                if side == 0 and t >= win:  # a sure win by holding
                    W[r, 0] = 1.0
                    W[r, 1] = 0.0
                    W[r, 2] = 0.0
                    continue
                bA = pf
                bO = 0.0
                bT = -pf
                tt = t + mg_
                if mp > 0.0:
                    if tt >= tcap:
                        bA += mp * (1.0 - Tf[base + min(tt, um) * H + mh])
                    else:
                        rr = wsT + t + moff
                        bA += mp * W[rr, 0]
                        bO += mp * W[rr, 1]
                        bT += mp * W[rr, 2]
                bA += zA
                bO += zO
                bT += zT
                if t > 0:
                    sA, sO, sT = 1.0 - Tf[base + t * H + hand_s], 0.0, 0.0
                    thr = tie
                else:  # a pass: the other side starts from the hand-over
                    thr = -tie
                    if hand_s == fbh:
                        sA, sO, sT = 1.0, 0.0, -1.0
                    else:
                        sA = 1.0 - B[bt + hand_s, 0]
                        sO = -B[bt + hand_s, 2]
                        sT = -B[bt + hand_s, 1]
                go = True
                if t >= min_bank and (t > 0 or pass_s):
                    dO = bO - sO
                    dT = bT - sT
                    m = bA - sA + dO * xo + dT * xt - thr
                    go = m > 0.0
                    slope = abs(dO) + abs(dT)
                    if abs(m) < rad * slope:
                        rad = _keep(rad, m, slope, bA - sA, dO, dT, thr, side, blk, t, mg, cnt)
                if t == 0 and h_s >= 0 and forced:  # a turn starts with a draw
                    B[bw + h_s, 0] = bA
                    B[bw + h_s, 1] = bO
                    B[bw + h_s, 2] = bT
                if not go:
                    bA, bO, bT = sA, sO, sT
                W[r, 0] = bA
                W[r, 1] = bO
                W[r, 2] = bT
                if t == 0 and h_s >= 0 and not forced:
                    B[bw + h_s, 0] = bA
                    B[bw + h_s, 1] = bO
                    B[bw + h_s, 2] = bT
    return rad


@kernel
def _guess(V, a, b, h, na, nb):
    """Warm start for ``V[a, b, h]`` from solved neighbours (``a + 1``, ``b
    + 1``; ``na, nb`` bound the two axes): the race's least-squares
    quadratic (:func:`designer.engine._kernels._guess`), bilinear or linear
    near the edges."""
    if a + 2 < na and b + 2 < nb:
        g = (1.5 * (V[a + 1, b, h] + V[a, b + 1, h]) - 2.0 * V[a + 1, b + 1, h]
             - 0.5 * (V[a + 2, b, h] + V[a, b + 2, h])
             + 0.5 * (V[a + 2, b + 1, h] + V[a + 1, b + 2, h]))
    elif a + 1 < na and b + 1 < nb:
        g = V[a + 1, b, h] + V[a, b + 1, h] - V[a + 1, b + 1, h]
    elif a + 1 < na:
        g = V[a + 1, b, h]
    elif b + 1 < nb:
        g = V[a, b + 1, h]
    else:
        g = 0.5
    return min(1.0, max(0.0, g))


@kernel
def _flips(mg, cnt, y0, y1, top):
    """Where the next sweep, at ``(y0, y1)``, must go again: ``top[side,
    blk]``, the largest total of a side's block at which a kept decision
    flips there, or of an earlier block of the side (a block reads earlier
    blocks at totals no lower than its own), -1 for none; the kept
    decisions there are dropped (the sweep notes them again). With one
    start state the sides meet only through the unknowns."""
    top[:, :] = -1
    for c in range(cnt[0]):
        if (mg[c, 0] + mg[c, 1] * y0 + mg[c, 2] * y1 > 0.0) != (mg[c, 3] > 0.5):
            sd = int(mg[c, 4])
            k = int(mg[c, 5])
            top[sd, k] = max(top[sd, k], int(mg[c, 6]))
    for sd in range(2):
        for k in range(1, top.shape[1]):
            top[sd, k] = max(top[sd, k], top[sd, k - 1])
    n = 0
    for c in range(cnt[0]):
        if mg[c, 6] > top[int(mg[c, 4]), int(mg[c, 5])]:
            for j in range(mg.shape[1]):
                mg[n, j] = mg[c, j]
            n += 1
    cnt[0] = n


@kernel
def _bust_floor(B, bust_h, y0, y1):
    """The least of seat 2's turn starts a bust of seat 1 leads to
    (``bust_h``), in the pair, at the unknowns ``(y0, y1)``."""
    H = B.shape[0] // 2
    lo = np.inf
    for i in range(bust_h.shape[0]):
        h = H + bust_h[i]
        lo = min(lo, B[h, 0] + B[h, 1] * y1 + B[h, 2] * y0)
    return lo


@kernel
def _solve_pair(a, b, G, C, min_bank, forced, tie, tol, pi_sweeps, pi_exact, max_sweeps, fbh,
                blk_ptr, blk_states, blk_tmax, tmin, tlen, cont_start, fb_p, mv_ptr, mv_p, mv_g,
                mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start, opt_gain, opt_next, opt_hh,
                hand_h, pass_ok, hidx, X, Z, Xf, Zf, Q, cut_at, bust_h, sw_l, sw_bu, simple, top, W, B, mg, cnt, out):
    """Solve pair ``(a, b)`` by policy iteration on its two unknowns (the
    race's rule, :func:`designer.engine._kernels._solve_pair2`), seat 1's
    turn cut where it surely holds (``Q``, one row per seat-2 score; an
    empty ``Q``: never cut): where ``Q`` is at most ``cut_at`` times the least
    estimate of seat 2's turn starts after a bust of seat 1 (``bust_h``:
    the start states a bust leads to; the estimates are the neighbours'
    warm starts), and the pair is accepted only where the least of those
    starts, solved, is still at least ``Q`` there (with one start state,
    the second unknown); should it not be, the pair is solved again
    without the cut. A sweep after a policy step at which some kept
    decisions flip goes again only where they do (:func:`_flips`; one
    start state only). ``X``, ``Z`` (and ``Xf``, ``Zf``, the same tables
    flat) as in :func:`open_worker`. ``out``: residual, sweeps, status (0
    ok, 1 no convergence)."""
    H = X.shape[2]
    um0 = C - a
    um1 = max(G - b, min_bank)
    base0 = (b * (C + 1) + a) * H
    base1 = (a * X.shape[1] + b) * H
    x0 = _guess(X, a, b, fbh, G, G)
    x1 = _guess(Z, b, a, fbh, G, C + 1)
    sweeps = 0
    since = 0  # sweeps at the last start without the cut
    gap = np.inf
    cut = Q.shape[0] > 0
    full = True
    tc0 = um0
    need = -np.inf  # least x1 for which the cut is exact
    rad = np.inf
    # the least warm start of seat 2 after a bust of seat 1 (with one start
    # state, x1 itself)
    y_est = x1
    for i in range(bust_h.shape[0]):
        if bust_h[i] != fbh:
            y_est = min(y_est, _guess(Z, b, a, bust_h[i], G, C + 1))
    while True:
        if full:
            tc0 = um0
            need = -np.inf
            if cut and y_est > 0.0:
                bound = cut_at * (x1 if H == 1 else y_est)
                lo = G
                hi = C
                while lo < hi:  # Q falls with the score: bisect for the first
                    mid = (lo + hi) // 2
                    if Q[b, mid - G] <= bound:
                        hi = mid
                    else:
                        lo = mid + 1
                if lo < C:
                    tc0 = min(um0, max(lo - a, min_bank))
                    need = Q[b, lo - G]
            cnt[0] = 0
            top[:, :] = C + min_bank
            rad = np.inf
        if simple:
            r = _sweep_simple(x0, x1, tc0, um1, um0, um1, Zf, Xf, base0, base1, min_bank, forced,
                              tie, fbh, blk_states, top, tmin, tlen, cont_start, fb_p, mv_ptr,
                              mv_p, mv_g, mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, hand_h,
                              pass_ok, hidx, max(G - a, min_bank), b - a, sw_l, sw_bu, W, B, mg,
                              cnt)
        else:
            r = _sweep(x0, x1, tc0, um1, um0, um1, Zf, Xf, base0, base1, min_bank, forced, tie,
                       fbh, blk_ptr, blk_states, blk_tmax, top, tmin, tlen, cont_start, fb_p,
                       mv_ptr, mv_p, mv_g, mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start,
                       opt_gain, opt_next, opt_hh, hand_h, pass_ok, hidx, max(G - a, min_bank),
                       b - a, sw_l, sw_bu, W, B, mg, cnt)
        rad = min(rad, r)
        sweeps += 1
        # the unknowns' rows, their greedy backup g and fixed point y
        g0, g1, y0, y1, pi = two_rows(B, fbh, x0, x1)
        res = max(abs(g0 - x0), abs(g1 - x1))
        if sweeps - since > pi_sweeps:
            pi = False
        if pi:
            gap = max(abs(y0 - x0), abs(y1 - x1))
            floor = y1 if H == 1 else _bust_floor(B, bust_h, y0, y1)
            if gap < 0.5 * rad and floor >= need and _kept_hold(mg, cnt, y0, y1):
                # no decision of the sweep flips between x and its fixed
                # point y, and seat 1's cut turn still holds where it was
                # cut: the sweep's values at y are exact
                x0 = y0
                x1 = y1
                g0, g1, _, _, _ = two_rows(B, fbh, x0, x1)
                res = max(abs(g0 - x0), abs(g1 - x1))
                break
        if res <= tol:
            if not pi or sweeps - since >= pi_exact or gap <= 1e-15:
                if _bust_floor(B, bust_h, x0, x1) >= need:
                    break
                # the cut was made at estimates the solve fell short of:
                # the whole turn again, from where the solve got
                cut = False
                full = True
                since = sweeps
                gap = np.inf
                continue
        if sweeps >= max_sweeps:
            out[2] = 1.0
            break
        full = True
        if pi:
            if H == 1 and gap < rad and floor >= need:
                # every decision not kept stays at y, and the cut holds:
                # the next sweep goes again only where a kept one flips
                _flips(mg, cnt, y0, y1, top)
                rad -= gap
                full = False
            x0 = y0
            x1 = y1
        else:  # half a greedy backup (the race's rule)
            x0 = 0.5 * (x0 + g0)
            x1 = 0.5 * (x1 + g1)
    for h in range(H):
        X[a, b, h] = B[h, 0] + B[h, 1] * x0 + B[h, 2] * x1
        Z[b, a, h] = B[H + h, 0] + B[H + h, 1] * x1 + B[H + h, 2] * x0
    out[0] = res
    out[1] = sweeps


@kernel
def _pair_index(a, b, G, groups):
    """Row of pair ``(a, b)`` in the order of decreasing ``a + b``, then ``a``."""
    total = a + b
    return groups[2 * (G - 1) - total] + a - max(0, total - (G - 1))


@kernel
def _missing_input(m, pairs, G, groups, done):
    """A pair that pair ``m`` reads and that is not solved yet, or -1: pair
    ``(a, b)`` reads ``(a', b)`` for ``a' > a`` and ``(a, b')`` for ``b' >
    b``, each solved before its neighbour towards ``(a, b)``."""
    a = pairs[m, 0]
    b = pairs[m, 1]
    if a + 1 < G:
        d = _pair_index(a + 1, b, G, groups)
        if load_acquire(done, d) == 0:
            return d
    if b + 1 < G:
        d = _pair_index(a, b + 1, G, groups)
        if load_acquire(done, d) == 0:
            return d
    return -1


@kernel
def open_worker(w, pairs, groups, G, C, min_bank, forced, tie, tol, pi_sweeps, pi_exact, max_sweeps,
                fbh, blk_ptr, blk_states, blk_tmax, tmin, tlen, cont_start, fb_p, mv_ptr, mv_p,
                mv_g, mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start, opt_gain, opt_next,
                opt_hh, hand_h, pass_ok, hidx, X, Z, Xf, Zf, Q, cut_at, bust_h, sw_l, sw_bu, simple, top, W, B, mg, cnt, out, work,
                clock, state, done):
    """Worker ``w`` of the open rounds (several run at once, sharing
    ``clock``, ``state`` and ``done``): it solves, on its scratch (``top[w]`` ...
    ``cnt[w]``), the first pair of ``pairs`` (rows ``(a, b)`` by
    decreasing ``a + b``; ``groups`` bound the sums) that no worker has
    claimed (``state``, a counter per pair) and whose inputs are solved
    (``done``), so that a worker never waits while a pair is ready. When
    none is, every pair left waits for one in another worker's hands; after
    a little (twice the workers' average time per pair, ``clock[2 v]``
    cycles over ``clock[2 v + 1]`` pairs for worker ``v``) the worker solves
    that one itself, as the race's :func:`~designer.engine._kernels.solve_pairs`
    does: the other may be off its core, kept there by another process, and
    the two write the same numbers. ``X[a, b', h]``: seat 1's round starts,
    0 from ``b' = G`` on; ``Z[b, A, h]``: seat 2 to move at ``(b, A)``, the
    final round filled in from ``A = G`` on (``Xf``, ``Zf``: the same,
    flat). ``work[w]``: the pairs this worker solved, and how many of them
    were another's."""
    # this worker's scratch, taken once: a view made for every pair would
    # cost reference counts (atomic operations) each time
    topw, Ww, Bw, mgw, cntw = top[w], W[w], B[w], mg[w], cnt[w]
    npairs = pairs.shape[0]
    window = 2 * G + 2  # the pairs ready lie within two sums of the first left
    lo = 0
    waited = -1
    while True:
        while lo < npairs and load_acquire(done, lo) != 0:
            lo += 1
        if lo >= npairs:
            break
        hi = min(npairs, lo + window)
        m = -1
        for k in range(lo, hi):
            if (load_acquire(state, k) == 0 and _missing_input(k, pairs, G, groups, done) < 0
                    and fetch_add(state, k, 1) == 0):
                m = k
                break
        if m < 0:
            # nothing ready: wait a little, then take over the first pair in
            # another's hands whose inputs are solved
            if waited < 0:
                waited = cycles()
            spent_all = 0
            solved_all = 0
            for v in range(clock.shape[0] // 2):
                spent_all += load_acquire(clock, 2 * v)
                solved_all += load_acquire(clock, 2 * v + 1)
            if solved_all == 0 or cycles() - waited < 2 * spent_all // solved_all + 20_000:
                continue  # (no pair solved yet: no time to go by)
            for k in range(lo, hi):
                if load_acquire(done, k) == 0 and _missing_input(k, pairs, G, groups, done) < 0:
                    m = k
                    break
            waited = -1
            if m < 0:
                continue
            work[w, 1] += 1
        waited = -1
        t0 = cycles()
        _solve_pair(pairs[m, 0], pairs[m, 1], G, C, min_bank, forced, tie, tol, pi_sweeps,
                    pi_exact, max_sweeps, fbh, blk_ptr, blk_states, blk_tmax, tmin, tlen,
                    cont_start, fb_p, mv_ptr, mv_p, mv_g, mv_off, mv_h, ot_ptr, ot_idx, out_prob,
                    oq, opt_start, opt_gain, opt_next, opt_hh, hand_h, pass_ok, hidx, X, Z, Xf, Zf,
                    Q, cut_at, bust_h, sw_l, sw_bu, simple, topw, Ww, Bw, mgw, cntw, out[m])
        store_release(done, m, 1)
        store_release(clock, 2 * w, load_acquire(clock, 2 * w) + cycles() - t0)
        store_release(clock, 2 * w + 1, load_acquire(clock, 2 * w + 1) + 1)
        work[w, 0] += 1


@parallel_kernel
def solve_open(nt, pairs, groups, G, C, min_bank, forced, tie, tol, pi_sweeps, pi_exact, max_sweeps,
               fbh, blk_ptr, blk_states, blk_tmax, tmin, tlen, cont_start, fb_p, mv_ptr, mv_p, mv_g,
               mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start, opt_gain, opt_next, opt_hh,
               hand_h, pass_ok, hidx, X, Z, Xf, Zf, Q, cut_at, bust_h, sw_l, sw_bu, simple, top, W, B, mg, cnt, out, work, clock, state,
               done):
    """The open rounds on ``nt`` workers (:func:`open_worker`), one to a
    thread of numba's. (Called from here rather than from threads of
    Python's, the same worker solves Pig's pairs a quarter faster: numba
    compiles it again inside, where it may take the arrays not to overlap.)"""
    for w in prange(nt):
        # np.int64(w): prange's index is typed int64, then uint64 in the
        # threads' copy; one type compiles the worker once, not twice
        open_worker(np.int64(w), pairs, groups, G, C, min_bank, forced, tie, tol, pi_sweeps, pi_exact,
                    max_sweeps, fbh, blk_ptr, blk_states, blk_tmax, tmin, tlen, cont_start, fb_p,
                    mv_ptr, mv_p, mv_g, mv_off, mv_h, ot_ptr, ot_idx, out_prob, oq, opt_start,
                    opt_gain, opt_next, opt_hh, hand_h, pass_ok, hidx, X, Z, Xf, Zf, Q, cut_at, bust_h, sw_l, sw_bu, simple, top, W, B,
                    mg, cnt, out, work, clock, state, done)
