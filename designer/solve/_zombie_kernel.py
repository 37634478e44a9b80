"""Layered solver kernels for Zombie Dice, all-yellow and full.

The model
---------
State ``(p, i, j, b, k)``: seat ``p`` (0 for player 1, 1 for player 2) to
move, the mover's banked score ``i``, the opponent's ``j``, turn total ``b``
and the dice configuration ``k`` (:mod:`designer.solve.zombie_dice_states`;
for the all-yellow game the configuration is just the shotguns
``s < K`` taken this turn, :func:`designer.solve.zombie.yellow_states`). A
roll from ``k`` reaches outcome ``o`` with probability ``PROB[k, o]``, goes to
configuration ``NXT[k, o]`` (``-1`` a bust, ``-2`` the end of the list) and
adds ``GAIN[k, o]`` brains.

* A bust ends the turn with nothing banked (same successor as holding at
  ``b = 0``).
* At ``b = 0`` with no shotgun (``SHOT[k] = 0``) the mover rolls: nothing is
  at stake yet (the turn's first roll; an all-footprint roll returns there).
* Forced holds end a turn as soon as ``b`` reaches ``b_f``: the cap
  (``i + b = cap``; a roll past it stops at it) and, for player 2, the first
  total that ends the game in their favour (``i + b >= goal`` and
  ``i + b > j``).
* States with ``b < BMIN[k]`` (fewer brains than the dice set aside show)
  are unreachable and skipped.

Player 1 holding with ``i + b`` hands player 2 the turn at ``(j, i + b)``.
Player 2 holding (or busting) ends the round with scores ``(j, i + b)``: a
score of ``goal`` or more decides it (higher wins), a tie at ``goal`` or more
starts a tie round, otherwise player 1 starts the next round at
``(j, i + b)``.

Ties are normalised: once both players hold the same score ``a >= goal``,
the game ahead depends only on score differences (every later comparison is
between the two scores, all of them already ``>= goal``), so every tie
round is the round ``(goal, goal)``. This is exact for optimal play and for
any policy whose decisions above the goal depend only on score differences
(the four human policies do; a test checks it).

Value of a turn state (win probability of the mover), with ``H(b)`` the
value of holding at ``b`` and ``stay[k]`` the chance of a roll that returns
to ``k`` unchanged (the all-footprint roll)::

    R(b, k) = [ sum_{o not a self-loop} PROB[k, o] * next ] * INV[k]
    V(b, k) = max(R, H(b))          (R alone at a forced roll; H(b_f) at b >= b_f)

with ``INV[k] = 1 / (1 - stay[k])`` (the self-loop solved exactly) and
``next`` is ``H(0)`` on a bust and ``V(min(b + gain, b_f), NXT[k, o])``
otherwise. Configurations are numbered so that brainless successors have
larger indices, so a sweep over ``b`` downwards, then ``k`` downwards, sees
every successor first. Expected remaining actions follow the same recursion
with 1 added per roll and per hold (``1 + L_next`` for a hold, ``L_next``
after a bust, ``1`` for the winning hold).

Layers
------
Scores never decrease. The round ``(a, c)`` (player 1 at ``a``, player 2 at
``c``) feeds back only into itself, through player 2's turn at ``(c, a)``
(player 1 scored nothing): these two turn starts are the pair's unknowns
``x = W(a, c)`` and ``y = T2(c, a)``. Every in-turn value is carried as an
affine function ``A + X x + Y y`` through one backward sweep of both turns
and the 2 x 2 system is solved with :func:`designer.solve._classes.pair_solve`
under the convergence rule of :mod:`designer.solve._classes` (policy
iteration; the decisions of a round's two turns are checked on their stored
affine margins at the new estimate, as the deck and dice kernels do, so a
round whose first policy is right takes one sweep; the tie round's turns
are too many to keep a margin for each, so there a decision is checked by
the next sweep). Order:

1. the tie round ``(goal, goal)`` with every player-2 turn ``(goal, a')``
   (their ties feed back into ``x``): :func:`tie_round`;
2. player 2's turns ``(c, a')`` with ``c < goal <= a'``: no unknown at all,
   one sweep each, independent: :func:`chase_turns`;
3. rounds ``(a, c)`` with ``a, c < goal``: :func:`round_pairs`, anti-diagonal
   by anti-diagonal (the rounds of equal ``a + c`` only read rounds of larger
   sum, so they are independent).

The kernels release the GIL, so the Python layer may run independent pieces
on several threads; each call allocates its own scratch tables and the
shared outputs are written at disjoint places. Decisions live in
``R[p, i, j, b, k]``. With ``optimize`` False they are read from ``R``
(player 1's table in ``R[0]``, player 2's in ``R[1]``): one sweep per pair
evaluates a match between two fixed policies exactly.

Every call reports ``(residual, sweeps, largest sweeps, status)`` in ``out``
(the per-pair report of the two-player kernels, reduced by
:func:`designer.solve._classes.reduce_pair_stats`).
"""

import numpy as np

from designer._jit import kernel
from designer.solve._classes import affine_solve, pair_begin, pair_next, pair_solve

#: The kinds of pair solved by :func:`_solve_pair`.
_TIE_ROUND = 0
_ROUND = 1


@kernel
def _turn(bf, NXT, GAIN, PROB, INV, SHOT, BMIN, H, HL, R, p, i, j, optimize, x, y, tie, V, L,
          MG, btop=-1):
    """Backward sweep over one turn's states ``(b, k)``, ``b < bf``.

    ``H[b]``/``HL[b]`` are the affine value/length of holding at ``b``
    (``b = bf`` is the forced end). Writes ``V[b, k]``/``L[b, k]`` (affine
    triples) and, when ``optimize``, the decisions ``R[p, i, j, b, k]`` and
    their affine margins ``MG[b, k]`` (roll minus hold minus tie; none for a
    forced roll), so that :func:`_first_flip` can check the
    policy at a new estimate without another sweep (a 1-row ``MG`` skips
    them). ``btop >= 0`` sweeps only the levels ``b <= btop``: the states
    above keep their rows and decisions (used when those decisions are
    known to be greedy at ``(x, y)`` already). Returns True if a decision
    differs from what ``R`` held before.
    """
    keep = MG.shape[0] > 1
    changed = False
    NC = NXT.shape[0]
    for b in range(bf - 1 if btop < 0 else btop, -1, -1):
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
                m0 = rA - H[b, 0] - tie
                m1 = rX - H[b, 1]
                m2 = rY - H[b, 2]
                roll = m0 + m1 * x + m2 * y > 0.0
                if keep:
                    MG[b, k, 0], MG[b, k, 1], MG[b, k, 2] = m0, m1, m2
                if roll != R[p, i, j, b, k]:
                    changed = True
                R[p, i, j, b, k] = roll
            else:
                roll = R[p, i, j, b, k]
            if not roll:
                rA = H[b, 0]
                rX = H[b, 1]
                rY = H[b, 2]
                lA = HL[b, 0]
                lX = HL[b, 1]
                lY = HL[b, 2]
            V[b, k, 0], V[b, k, 1], V[b, k, 2] = rA, rX, rY
            L[b, k, 0], L[b, k, 1], L[b, k, 2] = lA, lX, lY
    return changed


@kernel
def _first_flip(bf, BMIN, SHOT, MG, R, p, i, j, x, y):
    """The highest level ``b`` of a turn where a decision of the last sweep
    is no longer greedy at ``(x, y)`` (its stored affine margin changes
    sign there), or -1 when the whole policy is still greedy. The levels
    above it keep their rows, so only ``b`` and below need sweeping again."""
    for b in range(bf - 1, -1, -1):
        for k in range(BMIN.shape[0]):
            if BMIN[k] > b or (b == 0 and SHOT[k] == 0):  # unreachable, or a forced roll
                continue
            v = MG[b, k, 0] + MG[b, k, 1] * x + MG[b, k, 2] * y
            if (v > 0.0) != R[p, i, j, b, k]:
                return b
    return -1


@kernel
def _set(A, b, a, x, y):
    """``A[b] = (a, x, y)``: an affine triple (written in place: a view
    ``A[b]`` would cost a reference count in the sweeps)."""
    A[b, 0], A[b, 1], A[b, 2] = a, x, y


@kernel
def _chase_holds(c, cap, ap, tie_v, tie_x, tie_l, tie_lx, H, HL):
    """Hold values of player 2 at ``(c, a')`` with ``a' >= goal``: below
    ``a'`` loses, above wins, at ``a'`` ties (value ``tie_v + tie_x x``,
    length ``tie_l + tie_lx x``). Returns ``b_f``."""
    bf = min(ap + 1, cap) - c
    for b in range(bf + 1):
        sc = c + b
        if sc < ap:
            _set(H, b, 0.0, 0.0, 0.0)
            _set(HL, b, 1.0, 0.0, 0.0)
        elif sc == ap:
            _set(H, b, tie_v, tie_x, 0.0)
            _set(HL, b, tie_l, tie_lx, 0.0)
        else:
            _set(H, b, 1.0, 0.0, 0.0)
            _set(HL, b, 1.0, 0.0, 0.0)
    return bf


@kernel
def scratch(cap, NC):
    """Hold rows ``H1, HL1, H2, HL2``, turn tables ``V1, L1, V2, L2`` and the
    margins ``M1, M2`` of both turns of a round (:func:`_first_flip`)."""
    return (np.zeros((cap + 2, 3)), np.zeros((cap + 2, 3)), np.zeros((cap + 2, 3)),
            np.zeros((cap + 2, 3)), np.zeros((cap + 1, NC, 3)), np.zeros((cap + 1, NC, 3)),
            np.zeros((cap + 1, NC, 3)), np.zeros((cap + 1, NC, 3)), np.zeros((cap + 1, NC, 3)),
            np.zeros((cap + 1, NC, 3)))


@kernel
def _tie_sweep(G, cap, NXT, GAIN, PROB, INV, SHOT, BMIN, R, optimize, x, y, tie, S, TT, TL):
    """One sweep of the tie round at ``(x, y)``: every player-2 turn
    ``(G, a')`` (turn starts kept in ``TT``/``TL``), then player 1."""
    H1, HL1, H2, HL2, V1, L1, V2, L2 = S[:8]
    A = (NXT, GAIN, PROB, INV, SHOT, BMIN)
    NOM = np.zeros((1, 1, 3))  # the tie round's turns are too many to keep margins for
    changed = False
    for ap in range(cap, G, -1):
        # a tie again is the tie round: x = W(G, G)
        bf = _chase_holds(G, cap, ap, 1.0, -1.0, 1.0, 1.0, H2, HL2)
        if _turn(bf, *A, H2, HL2, R, 1, G, ap, optimize, x, y, tie, V2, L2, NOM):
            changed = True
        for e in range(3):
            TT[ap, e] = V2[0, 0, e]
            TL[ap, e] = L2[0, 0, e]
    # player 2 at (G, G): any brain wins, nothing scored ties again
    _set(H2, 0, 1.0, -1.0, 0.0)
    _set(HL2, 0, 1.0, 1.0, 0.0)
    _set(H2, 1, 1.0, 0.0, 0.0)
    _set(HL2, 1, 1.0, 0.0, 0.0)
    if _turn(1, *A, H2, HL2, R, 1, G, G, optimize, x, y, tie, V2, L2, NOM):
        changed = True
    bf1 = cap - G
    _set(H1, 0, 1.0, 0.0, -1.0)
    _set(HL1, 0, 1.0, 0.0, 1.0)
    for b in range(1, bf1 + 1):
        _set(H1, b, 1.0 - TT[G + b, 0], -TT[G + b, 1], -TT[G + b, 2])
        _set(HL1, b, 1.0 + TL[G + b, 0], TL[G + b, 1], TL[G + b, 2])
    if _turn(bf1, *A, H1, HL1, R, 0, G, G, optimize, x, y, tie, V1, L1, NOM):
        changed = True
    return changed


@kernel
def _round_holds(G, cap, a, c, W, LW, T2, LT2, S):
    """Hold rows of round ``(a, c)`` below the goal (they hold no unknown
    but the pair's own: holding nothing)."""
    H1, HL1, H2, HL2 = S[0], S[1], S[2], S[3]
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
    return bf1, bf2


@kernel
def _quadratic(T, u, v):
    """``T[u, v]`` from its seven solved neighbours of larger indices."""
    return (1.5 * (T[u, v + 1] + T[u + 1, v]) - 2.0 * T[u + 1, v + 1]
            - 0.5 * (T[u, v + 2] + T[u + 2, v]) + 0.5 * (T[u + 2, v + 1] + T[u + 1, v + 2]))


@kernel
def _solve_pair(kind, G, cap, a, c, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R,
                optimize, tol, tie, max_sweeps, S, TT, TL, st, out):
    """Policy iteration on one pair: the tie round or the round ``(a, c)``.

    Convergence rule of :mod:`designer.solve._classes`
    (:func:`~designer.solve._classes.pair_next`): sweep greedily at the
    estimate, solve the 2 x 2 system for the sweep's policy, and accept
    when the next sweep (at that solution) keeps every decision, or, from
    the fourth sweep on, when the Bellman residual at the estimate is
    within ``tol`` (a decision that flips only at a tie cannot keep the
    round going); the residual reported is the one at the accepted estimate.
    A fixed policy (``optimize`` False) needs one sweep. Writes the pair's
    turn starts and adds its report to ``out``; returns False on failure
    (``out[3]``: 1.0 no convergence, 2.0 singular).
    """
    A = (NXT, GAIN, PROB, INV, SHOT, BMIN)
    V1, L1, V2, L2 = S[4], S[5], S[6], S[7]
    bf1 = 0
    bf2 = 0
    if kind == _TIE_ROUND:
        x = 0.5
        y = 0.5
    else:
        bf1, bf2 = _round_holds(G, cap, a, c, W, LW, T2, LT2, S)
        # warm start from the neighbouring rounds (solved: larger scores):
        # the least-squares quadratic through seven neighbours (as the race
        # kernels; median error 6e-4 against 7e-3 for the bilinear guess), so
        # that the first sweep's policy is more often already the optimal
        # one. T2 runs past the goal (player 2's chases), W stops at it.
        if a + 2 < G and c + 2 < G:
            x = _quadratic(W, a, c)
        elif a + 1 < G and c + 1 < G:
            x = W[a, c + 1] + W[a + 1, c] - W[a + 1, c + 1]
        elif c + 3 < G:  # the last row: along c only
            x = 3.0 * W[a, c + 1] - 3.0 * W[a, c + 2] + W[a, c + 3]
        else:
            x = W[a, c + 1] if c + 1 < G else (W[a + 1, c] if a + 1 < G else 0.5)
        if c + 2 < G:
            y = _quadratic(T2, c, a)
        elif c + 1 < G:
            y = T2[c, a + 1] + T2[c + 1, a] - T2[c + 1, a + 1]
        else:
            y = T2[c, a + 1]
        x = min(1.0, max(0.0, x))
        y = min(1.0, max(0.0, y))
    pair_begin(st, x, y)
    changed = False
    top1 = bf1 - 1
    top2 = bf2 - 1
    while st[3] > 0.0:
        if kind == _TIE_ROUND:
            changed = _tie_sweep(G, cap, *A, R, optimize, st[0], st[1], tie, S, TT, TL)
        else:
            # a turn whose policy is still greedy keeps its rows (top = -2)
            if top2 > -2:
                _turn(bf2, *A, S[2], S[3], R, 1, c, a, optimize, st[0], st[1], tie, V2, L2, S[9],
                      top2)
            if top1 > -2:
                _turn(bf1, *A, S[0], S[1], R, 0, a, c, optimize, st[0], st[1], tie, V1, L1, S[8],
                      top1)
        ok = pair_solve(V1[0, 0], V2[0, 0], st)
        if kind == _TIE_ROUND:
            # the previous sweep's policy is still greedy at its fixed point
            # (this sweep's estimate) when no decision changed: then this
            # sweep's fixed point is that same estimate, and it is accepted
            holds = not optimize or (st[2] > 1.0 and not changed)
        elif not optimize or not ok:
            holds = True
        else:
            # the stored margins tell whether the sweep's policy is greedy at
            # its fixed point; if not, the next sweep redoes only the levels
            # from the highest decision that changes down
            top2 = _first_flip(bf2, A[5], A[4], S[9], R, 1, c, a, st[4], st[5])
            top1 = _first_flip(bf1, A[5], A[4], S[8], R, 0, a, c, st[4], st[5])
            holds = top1 < 0 and top2 < 0
            top1 = -2 if top1 < 0 else top1
            top2 = -2 if top2 < 0 else top2
        pair_next(V1[0, 0], V2[0, 0], st, ok, holds, max_sweeps, tol, out)
    if st[3] < 0.0:
        return False
    x = st[0]
    y = st[1]
    lx, ly, ok = affine_solve(L1[0, 0], L2[0, 0])
    if not ok:
        out[3] = 2.0
        return False
    if kind == _TIE_ROUND:
        a = G
        c = G
        for ap in range(G + 1, cap + 1):
            T2[G, ap] = TT[ap, 0] + TT[ap, 1] * x + TT[ap, 2] * y
            LT2[G, ap] = TL[ap, 0] + TL[ap, 1] * lx + TL[ap, 2] * ly
    W[a, c] = x
    LW[a, c] = lx
    T2[c, a] = y
    LT2[c, a] = ly
    return True


@kernel
def tie_round(G, cap, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize, tol, tie,
              max_sweeps, out):
    """Step 1: the tie round ``(G, G)`` with every player-2 turn ``(G, a')``.

    ``out`` (float64, 4): residual, sweeps, largest sweeps, status (0 ok,
    1 no convergence, 2 singular).
    """
    S = scratch(cap, NXT.shape[0])
    TT = np.zeros((cap + 1, 3))
    TL = np.zeros((cap + 1, 3))
    # np.int64: one compiled _solve_pair for both kinds (a numba call
    # specialises on literal constants)
    kind = np.int64(_TIE_ROUND)
    _solve_pair(kind, G, cap, G, G, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R,
                optimize, tol, tie, max_sweeps, S, TT, TL, np.zeros(6), out)


@kernel
def chase_turns(G, cap, todo, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize,
                tie, out):
    """Step 2: player 2's turns ``(c, a')`` listed in ``todo`` (rows ``c, a'``),
    ``c < G <= a'``: no unknown (the tie round is solved), one sweep each.
    Adds the sweeps to ``out[1]``."""
    S = scratch(cap, NXT.shape[0])
    H2, HL2, V2, L2 = S[2], S[3], S[6], S[7]
    NOM = np.zeros((1, 1, 3))
    wt = W[G, G]
    lt = LW[G, G]
    for t in range(todo.shape[0]):
        c = todo[t, 0]
        ap = todo[t, 1]
        bf = _chase_holds(c, cap, ap, 1.0 - wt, 0.0, 1.0 + lt, 0.0, H2, HL2)
        _turn(bf, NXT, GAIN, PROB, INV, SHOT, BMIN, H2, HL2, R, 1, c, ap, optimize, 0.0, 0.0,
              tie, V2, L2, NOM)
        T2[c, ap] = V2[0, 0, 0]
        LT2[c, ap] = L2[0, 0, 0]
    out[1] += todo.shape[0]
    if todo.shape[0]:
        out[2] = max(out[2], 1.0)


@kernel
def round_pairs(G, cap, todo, NXT, GAIN, PROB, INV, SHOT, BMIN, W, LW, T2, LT2, R, optimize,
                tol, tie, max_sweeps, out, S):
    """Step 3: the rounds ``(a, c)`` listed in ``todo``, both below the goal.

    Every round a row needs (``(a, c')`` with ``c' > c`` and ``(a', c)``
    with ``a' > a``) must be solved before it (earlier in ``todo`` or in an
    earlier call); rounds of equal ``a + c`` are independent. ``out`` as
    :func:`tie_round` (largest residual over the rounds). ``S`` is the
    caller's :func:`scratch` (one per thread, reused across calls: the
    turn tables are large and a call per anti-diagonal is short).
    """
    TT = np.zeros((1, 3))
    st = np.zeros(6)
    kind = np.int64(_ROUND)  # a value, as in tie_round: one compiled _solve_pair
    for t in range(todo.shape[0]):
        if not _solve_pair(kind, G, cap, todo[t, 0], todo[t, 1], NXT, GAIN, PROB, INV, SHOT,
                           BMIN, W, LW, T2, LT2, R, optimize, tol, tie, max_sweeps, S, TT, TT, st,
                           out):
            return
