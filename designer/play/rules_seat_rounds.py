"""Playing a rules game of three or four seats under the rounds ending:
how a round ends and the exact values the computer plays by.

The game
--------
Seats move in order in each round. When a round ends with a score at or
above the goal, the highest score wins; a tie for it is settled by the
game's tie rule: ``earlier-seat`` gives it to the seat that moved earlier,
``replay`` has the tied seats play a tie round among themselves, in seat
order, where only that round's points count (a tie again: another tie round
among those still level). The last seat of a round banks at once when its
total beats every other score and reaches the goal (in a tie round: beats
every gain of the round), since it then wins.

Values
------
The N-seat rounds solve (:func:`designer.engine.seat_rounds.solve_seat_rounds_model`)
keeps every turn start as a row of its table ``A[row, h, r]``: seat (in a
tie round: position) ``r``'s win probability. A turn is described by the
rows it can end at, ``srow[u]`` for a banked total ``u`` (``u = 0``: a pass
or a bust; ``u = T``: any total from ``T`` on, where the solve ends the turn
at once), computed by the solve's own kernels; the turn recursion is
:class:`~designer.play.rules_engine.RoundsTurnValues`' with

    end(u, s') = A[srow[min(u, T)], h(s'), r]

for the mover's component ``r`` and the next turn's start state ``s'``.
Three kinds of turn (:meth:`SeatRoundsSolution.view`):

``("open", S, m)``
    No score has reached the goal: seat ``m`` to move at the scores ``S``.
    A turn that banks nothing hands the same scores to the next seat.
``("final", m, B, Tm, s, tail)``
    A seat before ``m`` ended this round at or above the goal: ``B`` is the
    highest score (capped at the solve's cap), ``Tm`` the seats holding it
    (a bit each; one seat under ``earlier-seat``), ``s`` the mover's score
    and ``tail`` the scores of the seats after it (base ``goal``).
``("tie", t, p, Bg, Tm)``
    Position ``p`` of a tie round among ``t`` seats: ``Bg`` the largest
    gain of the round so far, ``Tm`` the positions holding it.

Scores (gains in a tie round) are read capped where the solve caps them; a
game played beyond the cap reads the cap's values.
"""

from dataclasses import dataclass, replace

import numpy as np

from designer.engine import _seat_rounds_kernels as sk
from designer.play.rules_engine import (MAX_SOLVE_SECONDS, RoundsTurnValues,
                                         ViewedSolution, refuse_long_solve)


class SeatRoundsTurnValues(RoundsTurnValues):
    """``W`` of one turn of three or four seats under the rounds ending:
    :class:`~designer.play.rules_engine.RoundsTurnValues`' recursion, the
    turn's ends read from the solve's table (module doc)."""

    def __init__(self, solution, view):
        self.sol, self.view = solution, view
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        self.srow, self.tcap, self.comp = solution.turn_rows(view)
        self.memo = {}

    def end(self, u, s_start):
        u = min(int(u), self.tcap)
        return float(self.sol.A[self.srow[u], self.sol.hidx[int(s_start)], self.comp])


@dataclass(frozen=True, eq=False)
class SeatRoundsSolution(ViewedSolution):
    """A rules game of three or four seats under the rounds ending with its
    solve and the solve's whole table.

    Attributes
    ----------
    game : RulesGame
    result : SeatRoundsResult
    A : ndarray
        The solve's rows (:mod:`designer.engine._seat_rounds_kernels`).
    geo, toff : ndarray
        Where each kind of row lies in ``A``.
    hidx : ndarray
        Each turn state's index among the start states (-1: none).
    """

    game: object
    result: object
    A: np.ndarray
    geo: np.ndarray
    toff: np.ndarray
    hidx: np.ndarray

    turn_values = SeatRoundsTurnValues

    def view(self, state):
        """Whose turn ``state`` is, as the module doc names it."""
        r = self.result
        G, C, m = r.goal, r.cap, state.mover
        if state.tied:
            p = state.tied.index(m)
            Bg, Tm = 0, 0
            for q, g in enumerate(state.gains[:p]):
                Bg, Tm = sk.new_bar(min(g, C - G), Bg, Tm, q, True)
            return ("tie", len(state.tied), p, Bg, Tm)
        u = state.units
        before = [min(x, C) for x in u[:m]]
        B = max(before, default=-1)
        if B < G:
            return ("open", tuple(int(x) for x in u), m)
        holders = [q for q in range(m) if before[q] == B]
        Tm = sum(1 << q for q in holders) if r.ties == "replay" else 1 << holders[0]
        tail = 0
        for x in u[m + 1:]:
            tail = tail * G + int(x)
        return ("final", m, int(B), Tm, int(u[m]), tail)

    def turn_rows(self, view):
        """``(srow, T, r)`` of a turn (module doc): the rows its ends read,
        the total at which it ends at once, the mover's component."""
        res = self.result
        N, G, C, mb = res.players, res.goal, res.cap, self.game.rules.model.min_bank
        geo = self.geo
        kind = view[0]
        if kind == "open":
            S = np.array(view[1], dtype=np.int64)
            m = view[2]
            T = max(G - S[m] if m == N - 1 else C - S[m], mb)
            srow = np.empty(T + 1, dtype=np.int64)
            sk.srow_open(geo, S, sk.rot(S, 0, G), m, T, srow)
            nxt = (m + 1) % N  # nothing banked: the next seat at the same scores
            srow[0] = geo[sk.G_OPEN] + nxt * G ** N + sk.rot(S, nxt, G)
            return srow, int(T), m
        if kind == "final":
            _, m, B, Tm, s, tail = view
            T = max(B - s + 1, mb) if m == N - 1 else max(C - s, mb)
            srow = np.empty(T + 1, dtype=np.int64)
            sk.srow_final(geo, m, B, Tm, s, tail, T, srow)
            return srow, int(T), m
        _, t, p, Bg, Tm = view
        T = max(Bg + 1, mb) if p == t - 1 else max(C - G, mb)
        srow = np.empty(T + 1, dtype=np.int64)
        sk.srow_tie(geo, self.toff, t, p, Bg, Tm, T, srow)
        return srow, int(T), p


def solve_estimate(game):
    """What the solve of ``game`` (3 or 4 seats, rounds ending) needs, by
    :func:`designer.engine.seat_rounds.estimate`: ``positions``, ``memory``,
    ``seconds`` (a rough guide; None where the table alone passes the
    memory limit). Kept on ``game``: the command announces the time, then
    the solve checks it (planning a large game takes seconds)."""
    from designer.engine.seat_rounds import estimate

    est = game.__dict__.get("_seat_rounds_estimate")
    if est is None:
        rules = game.rules
        est = estimate(rules.model, rules.goal, game.players, ties=rules.ties, cap=game.cap)
        object.__setattr__(game, "_seat_rounds_estimate", est)  # a frozen dataclass
    return est


def solve(game, max_seconds=MAX_SOLVE_SECONDS):
    """Solve ``game`` (3 or 4 seats, rounds ending): a :class:`SeatRoundsSolution`.

    Raises
    ------
    DesignError
        A solve estimated at more than ``max_seconds``, or over the memory
        limit (:class:`~designer.engine.solve.TooLargeError`), refused
        before anything is allocated.
    """
    from designer.engine.seat_rounds import solve_seat_rounds_model

    rules = game.rules
    est = solve_estimate(game)
    refuse_long_solve(game, f"with {game.players} players under the rounds ending", est,
                      max_seconds)
    result, (A, geo, toff, lay) = solve_seat_rounds_model(
        rules.model, rules.goal, game.players, ties=rules.ties, cap=game.cap, _table=True)
    return SeatRoundsSolution(game, result, A, geo, toff, lay.hidx)


# -- the round's end ----------------------------------------------------------

def end_turn(state, units, start):
    """The position after the mover's turn banked ``units`` (module doc):
    the next seat of the round, a winner, a tie round or the next round
    (where busts lower a banked score:
    :func:`designer.play.rules_seat_rounds_falls.end_turn`)."""
    if state.model.falls:
        from designer.play.rules_seat_rounds_falls import end_turn as falls_end_turn

        return falls_end_turn(state, units, start)
    nxt = replace(state, units=units, s=int(start), t=0, fresh=True, pending=None)
    if state.tied:
        p = state.tied.index(state.mover)
        gains = state.gains + (units[state.mover] - state.units[state.mover],)
        if p + 1 < len(state.tied):
            return replace(nxt, mover=state.tied[p + 1], gains=gains)
        top = max(gains)
        return _settle(state, replace(nxt, gains=gains),
                       [q for q, g in zip(state.tied, gains) if g == top])
    N = state.players
    if state.mover + 1 < N:
        return replace(nxt, mover=state.mover + 1)
    top = max(units)
    if top < state.game.rules.goal:
        return replace(nxt, mover=0, round=state.round + 1)
    return _settle(state, nxt, [q for q in range(N) if units[q] == top])


def _settle(state, nxt, leaders):
    """A winner, or under ``replay`` a tie round among ``leaders``."""
    if len(leaders) == 1 or state.game.rules.ties != "replay":
        return replace(nxt, mover=state.mover, winner=leaders[0])
    return replace(nxt, mover=leaders[0], round=state.round + 1, tied=tuple(leaders),
                   gains=())


def holding_wins(state, t):
    """Whether banking ``t`` now wins the game: the round's last mover
    beating every other score from the goal on (in a tie round: every gain
    of the round; where busts lower a banked score,
    :func:`designer.play.rules_seat_rounds_falls.holding_wins`)."""
    if state.model.falls:
        from designer.play.rules_seat_rounds_falls import holding_wins as falls_holding_wins

        return falls_holding_wins(state, t)
    if state.tied:
        last = state.mover == state.tied[-1]
        return last and t > max(state.gains, default=-1)
    i = state.units[state.mover]
    others = max(u for q, u in enumerate(state.units) if q != state.mover)
    return (state.mover == state.players - 1 and i + t >= state.game.rules.goal
            and i + t > others)


def ending_words(state):
    """The round in words ("round 3"; in a tie round, who plays it)."""
    if state.model.falls:
        from designer.play.rules_seat_rounds_falls import ending_words as falls_words

        return falls_words(state)
    if not state.tied:
        words = f"round {state.round}"
    else:
        seats = [str(q + 1) for q in state.tied]
        who = ", ".join(seats[:-1]) + " and " + seats[-1]
        gains = ", ".join(f"+{g * state.game.unit}" for g in state.gains)
        words = (f"round {state.round}, a tie round of seats {who}: only this round's points "
                 "count" + (f" (so far {gains})" if gains else ""))
    ties = ("a tie for the lead is played off by the tied players"
            if state.game.rules.ties == "replay" else "a tie goes to the earlier seat")
    return (words + f" (equal turns: when a round ends with a score of {state.game.goal} or "
            f"more, the highest wins; {ties})")
