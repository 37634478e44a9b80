"""Exact visit distribution of a match between two fixed policies.

How often does play reach each state? Forward propagation of probability
mass through the solver's state space answers it exactly (no simulation):
the expected number of times the game visits each turn start, and from
those each in-turn decision state, when policy A (player 0) plays policy B
(player 1), A moving first.

Decks
-----
A turn from the turn start ``(i, j, w, c0)`` walks the chain
``(i, j, t, w, c0 + t)``: it reaches step ``t`` with probability
``prod_{u < t} c_rem(u) / (w_rem + c_rem(u))`` while the mover keeps
drawing. A hold at ``t`` sends the mass to ``(j, i + t, w, c0 + t)`` (a
higher score sum); a bad draw to ``(j, i, w + 1, c0 + t)`` or, when it was
the last bad item, to the reshuffled ``(j, i, 0, 0)`` of the same score
pair. Score pairs ``{(a, b), (b, a)}`` are processed in increasing order of
``a + b``. Inside a pair the only cycle runs through the reshuffle into the
``(w, c) = (0, 0)`` turn starts (at most four: two movers by two seatings):
their extra mass ``x`` solves ``x = r_0 + M x``, where ``r_0`` is the
reshuffle outflow of the pair's external inflow and ``M[:, u]`` the
reshuffle outflow of a unit of mass put at ``(0, 0)`` state ``u``; one last
pass with ``x`` added pushes the holds to higher pairs.

Dice
----
A turn from ``(i, j)`` spreads its mass over turn totals ``k`` (each
scoring face adds its pips); a bust, or a hold at ``k = 0`` (a pass),
returns it to the opponent's turn start ``(j, i)`` of the same pair. The
turn starts of a pair form two 2-cycles (``A at (a, b) <-> B at (b, a)``),
solved in closed form: with return fractions ``r_1, r_2`` and external
inflows ``e_1, e_2``, ``x_1 = (e_1 + r_2 e_2) / (1 - r_1 r_2)``.

Check: every turn starts with one forced draw (decks) and ends with a hold
or a bust, so the expected number of actions of the game is
``E[turns] + E[decisions] + 1`` (the final hold that reaches the goal),
which the solver computes backwards, independently.
"""

import numpy as np

from designer._jit import TIE, kernel
from designer.errors import ConvergenceError

#: A pair whose reshuffle/bust cycle has a pivot below this never ends.
_SINGULAR = 1e-12


@kernel
def _deck_pair_pass(bad, good, goal, TA, TB, a, b, loc, res, occ, write):
    """Propagate the pair's local mass ``loc[p, o, w, c0]`` (seating ``o``:
    0 = mover at ``a``, 1 = mover at ``b``) in order of ``(w, c0)``.

    Busts into ``w + 1`` land in ``loc``; reshuffles add to ``res[p, o]``.
    With ``write``: the turn-start masses go to ``occ`` and the holds to
    the higher pairs' entries of ``occ``.
    """
    n_o = 1 if a == b else 2
    for w in range(bad):
        w_rem = bad - w
        for c0 in range(good + 1):
            for p in range(2):
                for o in range(n_o):
                    m = loc[p, o, w, c0]
                    if m == 0.0:
                        continue
                    i = a if o == 0 else b
                    j = b if o == 0 else a
                    o2 = 0 if n_o == 1 else 1 - o
                    if write:
                        occ[p, i, j, w, c0] = m
                    T = TA[i, j, w, c0] if p == 0 else TB[i, j, w, c0]
                    t = 0
                    reach = m
                    while True:
                        if t >= 1 and i + t >= goal:
                            break  # reached the goal: the game is won
                        if t >= 1 and t >= T:
                            if write:
                                occ[1 - p, j, i + t, w, c0 + t] += reach
                            break
                        c_rem = good - c0 - t
                        pb = w_rem / (w_rem + c_rem)
                        lost = reach * pb
                        if w + 1 < bad:
                            loc[1 - p, o2, w + 1, c0 + t] += lost
                        else:
                            res[1 - p, o2] += lost
                        if c_rem == 0:
                            break
                        reach -= lost
                        t += 1


@kernel
def _solve_small(M, r, x):
    """``x = (I - M)^-1 r`` by Gaussian elimination with partial pivoting;
    False when the system is singular (the pair's cycle never ends)."""
    n = r.shape[0]
    A = np.eye(n) - M
    y = r.copy()
    for col in range(n):
        piv = col
        for row in range(col + 1, n):
            if abs(A[row, col]) > abs(A[piv, col]):
                piv = row
        if abs(A[piv, col]) < _SINGULAR:
            return False
        for q in range(n):
            tmp = A[col, q]
            A[col, q] = A[piv, q]
            A[piv, q] = tmp
        tmp = y[col]
        y[col] = y[piv]
        y[piv] = tmp
        for row in range(col + 1, n):
            f = A[row, col] / A[col, col]
            for q in range(col, n):
                A[row, q] -= f * A[col, q]
            y[row] -= f * y[col]
    for row in range(n - 1, -1, -1):
        s = y[row]
        for q in range(row + 1, n):
            s -= A[row, q] * x[q]
        x[row] = s / A[row, row]
    return True


@kernel
def _pair_inflow(a, b, n_o, occ, loc):
    """Copy the turn-start visits of the pair ``{a, b}`` (both movers, both
    orientations; one when ``a == b``) into ``loc[p, o]``, zeroing the rest."""
    loc[:] = 0.0
    for p in range(2):
        for o in range(n_o):
            i = a if o == 0 else b
            j = b if o == 0 else a
            loc[p, o] = occ[p, i, j]


@kernel
def deck_visits(bad, good, goal, TA, TB, i0, j0, occ):
    """Expected visits ``occ[p, i, j, w, c0]`` of every turn start (``p``: 0
    when A moves), A moving first from ``(i0, j0)`` with a fresh deck.

    Returns False when some pair's cycle never ends (the game can go on
    forever under these policies)."""
    occ[:] = 0.0
    occ[0, i0, j0, 0, 0] = 1.0
    loc = np.zeros((2, 2, bad, good + 1))
    res = np.zeros((2, 2))
    M = np.zeros((4, 4))
    r0 = np.zeros(4)
    x = np.zeros(4)
    for s in range(2 * goal - 1):
        for a in range(max(0, s - goal + 1), s // 2 + 1):
            b = s - a
            n_o = 1 if a == b else 2
            # external inflow of the pair (holds from lower pairs)
            total = 0.0
            for p in range(2):
                for o in range(n_o):
                    i = a if o == 0 else b
                    j = b if o == 0 else a
                    for w in range(bad):
                        for c0 in range(good + 1):
                            total += occ[p, i, j, w, c0]
            if total == 0.0:
                continue
            n = 2 * n_o
            # pass 1: reshuffle outflow of the external inflow alone
            _pair_inflow(a, b, n_o, occ, loc)
            res[:] = 0.0
            _deck_pair_pass(bad, good, goal, TA, TB, a, b, loc, res, occ, False)
            for u in range(n):
                r0[u] = res[u // n_o, u % n_o]
            # passes 2..n+1: outflow of a unit at each (0, 0) turn start
            for u in range(n):
                loc[:] = 0.0
                loc[u // n_o, u % n_o, 0, 0] = 1.0
                res[:] = 0.0
                _deck_pair_pass(bad, good, goal, TA, TB, a, b, loc, res, occ, False)
                for v in range(n):
                    M[v, u] = res[v // n_o, v % n_o]
            if not _solve_small(M[:n, :n], r0[:n], x[:n]):
                return False
            # last pass: external inflow plus the reshuffled mass, written out
            _pair_inflow(a, b, n_o, occ, loc)
            for u in range(n):
                loc[u // n_o, u % n_o, 0, 0] += x[u]
            res[:] = 0.0
            _deck_pair_pass(bad, good, goal, TA, TB, a, b, loc, res, occ, True)
    return True


@kernel
def deck_decision_visits(bad, good, goal, T, occ, i, out):
    """Expected visits ``out[j, w, c0, t]`` of the decision states
    ``(i, j, t, w, c0 + t)`` (``t >= 1``, ``i + t < goal``) of mover score
    ``i`` by the mover who plays the compact table ``T``, given its
    turn-start visits ``occ[i, j, w, c0]``. Returns their sum."""
    out[:] = 0.0
    total = 0.0
    for j in range(goal):
        for w in range(bad):
            w_rem = bad - w
            for c0 in range(good + 1):
                reach = occ[i, j, w, c0]
                if reach == 0.0:
                    continue
                lim = T[i, j, w, c0]
                t = 0
                while True:
                    if t >= 1:
                        if i + t >= goal:
                            break
                        out[j, w, c0, t] = reach
                        total += reach
                        if t >= lim:
                            break
                    c_rem = good - c0 - t
                    if c_rem == 0:
                        break
                    reach *= c_rem / (w_rem + c_rem)
                    t += 1
    return total


@kernel
def _dice_turn(goal, pips, n_bust, R, i, j, mass, dist, occ_k, write, p, occ):
    """Spread ``mass`` from turn start ``(i, j)`` over turn totals; return the
    mass that comes back to the opponent's turn start (busts and passes).
    With ``write``: holds go to ``occ[1 - p, j, i + k]`` and the in-turn
    visits to ``occ_k[i, j, k]``."""
    f = len(pips) + n_bust
    dist[:] = 0.0
    dist[0] = mass
    back = 0.0
    for k in range(goal - i):
        m = dist[k]
        if m == 0.0:
            continue
        if write:
            occ_k[i, j, k] += m
        if R[i, j, k]:
            back += m * n_bust / f
            for q in range(len(pips)):
                k2 = k + pips[q]
                if i + k2 < goal:
                    dist[k2] += m / f
        elif k == 0:
            back += m
        elif write:
            occ[1 - p, j, i + k] += m
    return back


@kernel
def dice_visits(goal, pips, n_bust, RA, RB, i0, j0, occ, occ_a, occ_b):
    """Expected visits of a dice match, A moving first from ``(i0, j0)``.

    ``occ[p, i, j]``: turn starts with ``p`` to move (0 = A); ``occ_a[i, j,
    k]`` / ``occ_b``: states ``(i, j, k)`` (``k = 0`` included, where holding
    passes) with A / B to move. False when the game can go on forever."""
    occ[:] = 0.0
    occ_a[:] = 0.0
    occ_b[:] = 0.0
    occ[0, i0, j0] = 1.0
    dist = np.zeros(goal + 1)
    for s in range(2 * goal - 1):
        for a in range(max(0, s - goal + 1), s // 2 + 1):
            b = s - a
            # the 2-cycles of the pair: (A at (x, y)) <-> (B at (y, x))
            for cyc in range(2 if a != b else 1):
                x, y = (a, b) if cyc == 0 else (b, a)
                e1 = occ[0, x, y]
                e2 = occ[1, y, x]
                if e1 == 0.0 and e2 == 0.0:
                    continue
                r1 = _dice_turn(goal, pips, n_bust, RA, x, y, 1.0, dist, occ_a, False, 0, occ)
                r2 = _dice_turn(goal, pips, n_bust, RB, y, x, 1.0, dist, occ_b, False, 1, occ)
                det = 1.0 - r1 * r2
                if det < _SINGULAR:
                    return False
                m1 = (e1 + r2 * e2) / det
                m2 = (e2 + r1 * e1) / det
                occ[0, x, y] = m1
                occ[1, y, x] = m2
                _dice_turn(goal, pips, n_bust, RA, x, y, m1, dist, occ_a, True, 0, occ)
                _dice_turn(goal, pips, n_bust, RB, y, x, m2, dist, occ_b, True, 1, occ)
    return True


@kernel
def dice_stakes(goal, pips, n_bust, win, out):
    """``out[i, j, k] = |D - H|`` at every dice state (``k = 0``: rolling
    against passing), from the optimal turn-start table ``win[i, j]``."""
    f = len(pips) + n_bust
    V = np.empty(goal + 1)
    out[:] = 0.0
    for i in range(goal):
        for j in range(goal):
            busted = 1.0 - win[j, i]
            for k in range(goal - i - 1, -1, -1):
                d = n_bust * busted
                for q in range(len(pips)):
                    k2 = k + pips[q]
                    d += 1.0 if i + k2 >= goal else V[k2]
                d /= f
                h = 1.0 - win[j, i + k] if k > 0 else busted
                V[k] = d if d > h + TIE else h
                out[i, j, k] = abs(d - h)


def _check(ok, what):
    if not ok:
        raise ConvergenceError(f"{what}: the game can go on forever under these policies "
                               f"(no turn ever banks enough points to finish)")


class Visits:
    """Exact visits of one match (see the module docstring).

    Attributes
    ----------
    game : DeckGame or DiceGame
    tables : (ndarray, ndarray)
        The policy tables of A (moving first) and B.
    occ : ndarray
        Expected visits of every turn start: decks ``occ[p, i, j, w, c0]``,
        dice ``occ[p, i, j]`` (``p = 0`` when A moves).
    dice_states : (ndarray, ndarray) or None
        Dice: expected visits ``[i, j, k]`` of every state with A / B to move.
    """

    def __init__(self, game, tables, occ, dice_states=None):
        self.game = game
        self.tables = tables
        self.occ = occ
        self.dice_states = dice_states

    @property
    def turns(self):
        """Expected number of turns of the game."""
        return float(self.occ.sum())

    def block(self, i, player):
        """Expected visits of the decision states of mover score ``i`` by
        ``player`` (0 = A, 1 = B): decks ``[j, w, c0, t]`` for the state
        ``(i, j, t, w, c0 + t)``, ``t >= 1``; dice ``[j, k]``."""
        g = self.game
        if g.family == "dice":
            return self.dice_states[player][i]
        out = np.zeros((g.goal, g.bad, g.good + 1, min(g.goal, g.good) + 1))
        deck_decision_visits(g.bad, g.good, g.goal, self.tables[player], self.occ[player], i,
                             out)
        return out

    @property
    def decisions(self):
        """Expected number of decisions (draw or hold; the forced first draw
        of a deck turn is not one) made by both players in one game."""
        g = self.game
        if g.family == "dice":
            return float(self.dice_states[0].sum() + self.dice_states[1].sum())
        out = np.zeros((g.goal, g.bad, g.good + 1, min(g.goal, g.good) + 1))
        return float(sum(deck_decision_visits(g.bad, g.good, g.goal, self.tables[p],
                                              self.occ[p], i, out)
                         for p in range(2) for i in range(g.goal)))

    @property
    def actions(self):
        """Expected actions of the game: every draw (the forced
        first draw included) and every hold, the final one included."""
        if self.game.family == "deck":
            return self.turns + self.decisions + 1.0
        return self.decisions + 1.0


def visits(game, table_a, table_b, komi=None):
    """Exact visits of the match ``table_a`` (moving first) against ``table_b``.

    Parameters
    ----------
    game : DeckGame or DiceGame
    table_a, table_b : ndarray
        Policy tables (:meth:`designer.policies.base.Policy.table`): deck
        compact int16 tables, dice bool roll tables.
    komi : int, optional
        Points the second mover starts with (the game's komi by default).

    Returns
    -------
    Visits

    Raises
    ------
    ConvergenceError
        The game can go on forever under the two policies.
    """
    from designer.solve.api import scoring_pips

    G = game.goal
    komi = game.komi if komi is None else komi
    if game.family == "deck":
        occ = np.zeros((2, G, G, game.bad, game.good + 1))
        TA = np.ascontiguousarray(table_a, dtype=np.int16)
        TB = np.ascontiguousarray(table_b, dtype=np.int16)
        _check(deck_visits(game.bad, game.good, G, TA, TB, 0, komi, occ), "visits")
        return Visits(game, (TA, TB), occ)
    if game.family == "dice":
        occ = np.zeros((2, G, G))
        oa = np.zeros((G, G, G))
        ob = np.zeros((G, G, G))
        RA = np.ascontiguousarray(table_a, dtype=np.bool_)
        RB = np.ascontiguousarray(table_b, dtype=np.bool_)
        _check(dice_visits(G, scoring_pips(game), len(game.bust_faces), RA, RB, 0, komi, occ,
                           oa, ob), "visits")
        return Visits(game, (RA, RB), occ, (oa, ob))
    raise ConvergenceError(f"exact visits cover deck and dice games, not {game.family} games")


def dice_stake_table(game, solution):
    """``|D - H|`` at every dice state ``[i, j, k]``: what a wrong action
    there costs the mover, in win probability."""
    from designer.solve.api import scoring_pips

    G = game.goal
    out = np.zeros((G, G, G))
    dice_stakes(G, scoring_pips(game), len(game.bust_faces), solution.win, out)
    return out
