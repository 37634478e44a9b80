"""Layered solver kernels for Zombie Dice (SPEC 1.3 and 3).

The model
---------
State ``(p, i, j, b, s)``: seat ``p`` (0 for player 1, 1 for player 2) to
move, the mover's banked score ``i``, the opponent's ``j``, turn total ``b``,
shotguns ``s < K`` this turn. A roll throws the dice; an outcome of ``db``
brains and ``ds`` shotguns has the multinomial probability ``q(db, ds)``.

* ``s + ds >= K``: bust, the turn ends with nothing banked (same successor
  as holding at ``b = 0``).
* Otherwise the turn goes on at ``(b + db, s + ds)``.
* At ``(b, s) = (0, 0)`` the mover rolls (the turn's first roll; an
  all-footprint roll returns there, and banking nothing is never better).
* Forced holds end a turn as soon as ``b`` reaches ``b_f``: the cap
  (``i + b = cap``; a roll past it stops at it) and, for player 2, the first
  total that ends the game in their favour (``i + b >= goal`` and
  ``i + b > j``).

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
(the four human policies of SPEC 1.3 do; a test checks it).

Value of a turn state (win probability of the mover), with ``H(b)`` the
value of holding at ``b`` and ``q_0 = q(0, 0)`` (the all-footprint roll)::

    R(b, s) = [ sum_{(db, ds) != (0, 0)} q(db, ds) * next ] / (1 - q_0)
    V(b, s) = max(R, H(b))          (R alone at (0, 0); H(b_f) at b >= b_f)

where ``next`` is ``H(0)`` on a bust and ``V(min(b + db, b_f), s + ds)``
otherwise. Dividing by ``1 - q_0`` solves the self-loop of the all-footprint
roll exactly. Expected remaining actions follow the same recursion with 1
added per roll and per hold (``1 + L_next`` for a hold, ``L_next`` after a
bust, ``1`` for the winning hold).

Layers
------
Scores never decrease. The round ``(a, c)`` (player 1 at ``a``, player 2 at
``c``) feeds back only into itself, through player 2's turn at ``(c, a)``
(player 1 scored nothing): these two turn starts are the pair's unknowns
``x = W(a, c)`` and ``y = T2(c, a)``. Every in-turn value is carried as an
affine function ``A + X x + Y y`` through one backward sweep of both turns
and the 2 x 2 system is solved with :func:`designer.solve._pairs.affine_step`;
the greedy policy at the solution is checked and the pair swept again until
it no longer changes (policy iteration; ties go to holding, SPEC 2). Order:

1. the tie round ``(goal, goal)`` with every player-2 turn ``(goal, a')``
   (their ties feed back into ``x``);
2. player 2's turns ``(c, a')`` with ``c < goal <= a'``: no unknown at all;
3. rounds ``(a, c)`` with ``a, c < goal`` by decreasing ``a`` then ``c``.

With ``optimize`` False the decisions are read from ``R`` (player 1's table
in ``R[0]``, player 2's in ``R[1]``): one sweep per pair evaluates a match
between two fixed policies exactly.
"""

import numpy as np

from designer._jit import kernel
from designer.solve._pairs import affine_solve, affine_step


@kernel
def _turn(bf, K, H, HL, OB, OS, OP, inv, R, p, i, j, optimize, x, y, tie, V, L):
    """Backward sweep over one turn's states ``(b, s)``, ``b < bf``.

    ``H[b]``/``HL[b]`` are the affine value/length of holding at ``b``
    (``b = bf`` is the forced end). Writes ``V[b, s]``/``L[b, s]`` (affine
    triples) and, when ``optimize``, the decisions ``R[p, i, j, b, s]``.
    Returns True if a decision differs from what ``R`` held before.
    """
    changed = False
    for b in range(bf - 1, -1, -1):
        for s in range(K - 1, -1, -1):
            rA = 0.0
            rX = 0.0
            rY = 0.0
            lA = 1.0
            lX = 0.0
            lY = 0.0
            for o in range(OB.shape[0]):
                pr = OP[o]
                if s + OS[o] >= K:  # bust: as holding nothing, without the hold
                    rA += pr * H[0, 0]
                    rX += pr * H[0, 1]
                    rY += pr * H[0, 2]
                    lA += pr * (HL[0, 0] - 1.0)
                    lX += pr * HL[0, 1]
                    lY += pr * HL[0, 2]
                else:
                    nb = b + OB[o]
                    if nb >= bf:
                        rA += pr * H[bf, 0]
                        rX += pr * H[bf, 1]
                        rY += pr * H[bf, 2]
                        lA += pr * HL[bf, 0]
                        lX += pr * HL[bf, 1]
                        lY += pr * HL[bf, 2]
                    else:
                        ns = s + OS[o]
                        rA += pr * V[nb, ns, 0]
                        rX += pr * V[nb, ns, 1]
                        rY += pr * V[nb, ns, 2]
                        lA += pr * L[nb, ns, 0]
                        lX += pr * L[nb, ns, 1]
                        lY += pr * L[nb, ns, 2]
            rA *= inv
            rX *= inv
            rY *= inv
            lA *= inv
            lX *= inv
            lY *= inv
            if b == 0 and s == 0:
                roll = True
            elif optimize:
                roll = rA + rX * x + rY * y > H[b, 0] + H[b, 1] * x + H[b, 2] * y + tie
                if roll != R[p, i, j, b, s]:
                    changed = True
                R[p, i, j, b, s] = roll
            else:
                roll = R[p, i, j, b, s]
            if roll:
                V[b, s, 0] = rA
                V[b, s, 1] = rX
                V[b, s, 2] = rY
                L[b, s, 0] = lA
                L[b, s, 1] = lX
                L[b, s, 2] = lY
            else:
                V[b, s, 0] = H[b, 0]
                V[b, s, 1] = H[b, 1]
                V[b, s, 2] = H[b, 2]
                L[b, s, 0] = HL[b, 0]
                L[b, s, 1] = HL[b, 1]
                L[b, s, 2] = HL[b, 2]
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
def solve_zombie(G, cap, K, OB, OS, OP, q0, W, LW, T2, LT2, R, optimize, tol, tie, max_sweeps,
                 stats):
    """Solve (or evaluate) every round of a Zombie Dice game.

    Parameters
    ----------
    G, cap, K : int
        Goal, score cap, shotguns that bust.
    OB, OS, OP : arrays
        Brains, shotguns and probability of every roll outcome except the
        all-footprint one, whose probability is ``q0``.
    W, LW : float64 arrays, shape (G + 1, G + 1)
        Out: player 1's win probability / expected remaining actions at the
        start of round ``(a, c)``; the tie round is ``[G, G]``.
    T2, LT2 : float64 arrays, shape (G + 1, cap + 1)
        Out: player 2's win probability / expected remaining actions at the
        start of their turn ``(c, a')`` (own score ``c``, player 1's ``a'``).
    R : bool array, shape (2, G + 1, cap + 1, cap, K)
        Decisions ``roll[p, i, j, b, s]``: written when ``optimize``, read
        otherwise.
    stats : float64 array, shape (4,)
        Out: max residual, total sweeps, largest sweeps in one pair, and
        0.0 on success / 1.0 no convergence / 2.0 singular (endless) game.
    """
    inv = 1.0 / (1.0 - q0)
    H1 = np.zeros((cap + 2, 3))
    HL1 = np.zeros((cap + 2, 3))
    H2 = np.zeros((cap + 2, 3))
    HL2 = np.zeros((cap + 2, 3))
    V1 = np.zeros((cap + 1, K, 3))
    L1 = np.zeros((cap + 1, K, 3))
    V2 = np.zeros((cap + 1, K, 3))
    L2 = np.zeros((cap + 1, K, 3))
    # tie round: player 2's turn-start values at (G, a') as affine triples
    TT = np.zeros((cap + 1, 3))
    TL = np.zeros((cap + 1, 3))
    max_res = 0.0
    total = 0
    worst = 0

    # ---- 1. the tie round (G, G) ------------------------------------------
    x = 0.5
    y = 0.5
    sweeps = 0
    res = 0.0
    while True:
        changed = False
        for ap in range(cap, G, -1):
            bf = _tie_round_holds(G, cap, ap, H2, HL2)
            if _turn(bf, K, H2, HL2, OB, OS, OP, inv, R, 1, G, ap, optimize, x, y, tie, V2, L2):
                changed = True
            for e in range(3):
                TT[ap, e] = V2[0, 0, e]
                TL[ap, e] = L2[0, 0, e]
        # player 2 at (G, G): any brain wins, nothing scored ties again
        _set(H2, 0, 1.0, -1.0, 0.0)
        _set(HL2, 0, 1.0, 1.0, 0.0)
        _set(H2, 1, 1.0, 0.0, 0.0)
        _set(HL2, 1, 1.0, 0.0, 0.0)
        if _turn(1, K, H2, HL2, OB, OS, OP, inv, R, 1, G, G, optimize, x, y, tie, V2, L2):
            changed = True
        bf1 = cap - G
        _set(H1, 0, 1.0, 0.0, -1.0)
        _set(HL1, 0, 1.0, 0.0, 1.0)
        for b in range(1, bf1 + 1):
            _set(H1, b, 1.0 - TT[G + b, 0], -TT[G + b, 1], -TT[G + b, 2])
            _set(HL1, b, 1.0 + TL[G + b, 0], TL[G + b, 1], TL[G + b, 2])
        if _turn(bf1, K, H1, HL1, OB, OS, OP, inv, R, 0, G, G, optimize, x, y, tie, V1, L1):
            changed = True
        sweeps += 1
        nx, ny, res, ok = affine_step(V1[0, 0], V2[0, 0], x, y)
        if not ok:
            stats[3] = 2.0
            return
        if not optimize or (sweeps > 1 and not changed and res <= tol):
            if not optimize:
                res = 0.0
            x = nx
            y = ny
            break
        if sweeps >= max_sweeps:
            stats[0] = res
            stats[1] = sweeps
            stats[2] = sweeps
            stats[3] = 1.0
            return
        x = nx
        y = ny
    lx, ly, ok = affine_solve(L1[0, 0], L2[0, 0])
    if not ok:
        stats[3] = 2.0
        return
    W[G, G] = x
    LW[G, G] = lx
    T2[G, G] = y
    LT2[G, G] = ly
    for ap in range(G + 1, cap + 1):
        T2[G, ap] = TT[ap, 0] + TT[ap, 1] * x + TT[ap, 2] * y
        LT2[G, ap] = TL[ap, 0] + TL[ap, 1] * lx + TL[ap, 2] * ly
    total += sweeps
    worst = max(worst, sweeps)
    max_res = max(max_res, res)
    wt = x
    lt = lx

    # ---- 2. player 2 chasing a score of G or more: no unknown --------------
    for c in range(G):
        for ap in range(G, cap + 1):
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
            _turn(bf, K, H2, HL2, OB, OS, OP, inv, R, 1, c, ap, optimize, 0.0, 0.0, tie, V2, L2)
            T2[c, ap] = V2[0, 0, 0]
            LT2[c, ap] = L2[0, 0, 0]
            total += 1

    # ---- 3. rounds (a, c) below the goal ----------------------------------
    for a in range(G - 1, -1, -1):
        for c in range(G - 1, -1, -1):
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
                ch2 = _turn(bf2, K, H2, HL2, OB, OS, OP, inv, R, 1, c, a, optimize, x, y, tie,
                            V2, L2)
                ch1 = _turn(bf1, K, H1, HL1, OB, OS, OP, inv, R, 0, a, c, optimize, x, y, tie,
                            V1, L1)
                sweeps += 1
                nx, ny, res, ok = affine_step(V1[0, 0], V2[0, 0], x, y)
                if not ok:
                    stats[3] = 2.0
                    return
                if not optimize or (sweeps > 1 and not (ch1 or ch2) and res <= tol):
                    if not optimize:
                        res = 0.0
                    x = nx
                    y = ny
                    break
                if sweeps >= max_sweeps:
                    stats[0] = res
                    stats[1] = total + sweeps
                    stats[2] = sweeps
                    stats[3] = 1.0
                    return
                x = nx
                y = ny
            lx, ly, ok = affine_solve(L1[0, 0], L2[0, 0])
            if not ok:
                stats[3] = 2.0
                return
            W[a, c] = x
            LW[a, c] = lx
            T2[c, a] = y
            LT2[c, a] = ly
            total += sweeps
            worst = max(worst, sweeps)
            max_res = max(max_res, res)
    stats[0] = max_res
    stats[1] = total
    stats[2] = worst
    stats[3] = 0.0
