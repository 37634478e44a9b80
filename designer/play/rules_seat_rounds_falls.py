"""Playing a rules game of three or four seats under the rounds ending
whose busts can lower a banked score (Two-Dice Pig's snake eyes, a skull
that wipes the score, a penalty down to a floor): how a round ends and the
exact values the computer plays by.

The game
--------
Seats move in order in each round. When a round ends with a score at or
above the goal, the highest score wins; a tie for it is settled by the
game's tie rule: ``earlier-seat`` gives it to the seat that moved earlier,
``replay`` has the tied seats play on alone from their tied scores, in
seat order, as a game of that many seats: a bust may take a score back
below the goal, and play goes on until a round of theirs ends with a score
at or above the goal and no tie. The last seat of a round banks at once
when its total reaches the goal and beats every other score, since it then
wins; any other seat's score is held at the solve's cap.

Values
------
The solve (:func:`designer.engine.seat_rounds_falls.solve_seat_rounds_falls`)
keeps every turn start as a row of its table, one table for the game and
one for each smaller game a tie leaves. A turn is named by the job of the
solve's kernels, ``(t, kind, m, p0, p1, p2)``: the game of ``t`` seats
(the seats still playing), the kind of row
(:mod:`designer.engine._seat_rounds_falls_kernels`: every score below the
goal, a seat before ``m`` ended at or above it, a round that started level
at or above the goal, or both), the mover's place ``m`` among the seats
playing and the scores or bar the row holds. A turn that ends with the
mover's score at ``x`` (banked, kept or lowered) reads the row the solve's
own :func:`~designer.engine._seat_rounds_falls_kernels.next_row` gives, the
mover's component; the turn recursion is
:class:`~designer.play.rules_engine.RoundsTurnValues`'.
"""

from dataclasses import dataclass, replace

import numpy as np

from designer.engine import _seat_rounds_falls_kernels as sk
from designer.engine.model import BUST
from designer.play.rules_engine import (MAX_SOLVE_SECONDS, RoundsTurnValues, ViewedSolution,
                                        after_bust, refuse_long_solve)


class SeatFallsTurnValues(RoundsTurnValues):
    """``W`` of one turn of three or four seats under the rounds ending,
    scores that can fall: the turn recursion of
    :class:`~designer.play.rules_engine.RoundsTurnValues` with the ends
    read from the solve's table (module doc)."""

    def __init__(self, solution, view):
        self.sol, self.view = solution, view
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        t, kind, mv, p0, p1, p2 = view
        self.solved = solution.games[t]
        gv, pw = self.solved.gv, self.solved.geo.pw
        self.own = int(sk.own_score(kind, mv, p0, p2, gv, pw))
        self.tcap = int(sk.turn_end(kind, mv, self.own, p0, p1, gv))
        self.last = mv == t - 1
        self.memo = {}

    def end_at(self, x, s_start):
        """The mover's win when its turn ends with its score at ``x`` and
        the next turn starts from turn state ``s_start``."""
        gm, geo = self.solved, self.solved.geo
        _, kind, mv, p0, p1, p2 = self.view
        row = sk.next_row(kind, mv, self.own, int(x), p0, p1, p2, gm.gv, geo.pw, geo.fa_off,
                          geo.ob_off, geo.fb_off, geo.tie_off)
        return float(gm.A[row, self.sol.hidx[int(s_start)], mv])

    def end(self, u, s_start):
        """The mover's win when the turn ends banking ``u`` (at most the
        turn's end: the cap, or the last seat's win)."""
        x = self.own + min(int(u), self.tcap)
        return self.end_at(x if self.last else min(x, self.sol.result.cap), s_start)

    def _outcome(self, o, t):
        m = self.m
        if m.out_kind[o] != BUST:
            return super()._outcome(o, t)
        return self.end_at(after_bust(m, o, self.own), m.out_next[o])


@dataclass(frozen=True, eq=False)
class SeatFallsSolution(ViewedSolution):
    """A rules game of three or four seats under the rounds ending, scores
    that can fall, with its solve and the tables of every game it solved.

    Attributes
    ----------
    game : RulesGame
    result : SeatRoundsFallsResult
    games : dict
        ``{seats: solved game}``: the table of the game of that many seats
        (``A``), where each kind of row lies (``geo``) and the kernels'
        numbers (``gv``).
    hidx : ndarray
        Each turn state's index among the start states (-1: none).
    """

    game: object
    result: object
    games: dict
    hidx: np.ndarray

    turn_values = SeatFallsTurnValues

    def view(self, state):
        """The job of the mover's turn (module doc); scores past the cap,
        which only a person can bank, read as the cap."""
        r = self.result
        G, C, lo = r.goal, r.cap, r.floor
        g = G - lo
        seats = state.tied or tuple(range(state.players))
        t, mv = len(seats), seats.index(state.mover)
        sc = [min(int(state.units[q]), C) for q in seats]
        own = sc[mv]
        code = lambda xs: sum((x - lo) * g ** (len(xs) - 1 - k)  # noqa: E731
                              for k, x in enumerate(xs))
        B = max(sc[:mv], default=lo - 1)
        if B >= G:  # a seat before the mover ended at or above the goal
            holders = [q for q in range(mv) if sc[q] == B]
            mask = sum(1 << q for q in holders) if r.ties == "replay" else 1 << holders[0]
            if own >= G:  # a round that started level at the mover's score
                return (t, sk.K_FB, mv, own, B, mask)
            return (t, sk.K_FA, mv, B, mask, code(sc[mv:]))
        if own >= G:
            return (t, sk.K_OB, mv, own, code(sc[:mv]), 0)
        return (t, sk.K_OA, mv, code(sc), 0, 0)


def solve_estimate(game):
    """What the solve of ``game`` needs, by
    :func:`designer.engine.seat_rounds_falls.estimate`: ``positions``,
    ``memory`` and ``seconds`` (a rough guide)."""
    from designer.engine.seat_rounds_falls import estimate

    rules = game.rules
    return estimate(rules.model, rules.goal, game.players, ties=rules.ties, cap=game.cap)


def solve(game, max_seconds=MAX_SOLVE_SECONDS):
    """Solve ``game`` (3 or 4 seats, rounds ending, scores that can fall):
    a :class:`SeatFallsSolution` (the wins alone: play needs no game
    length).

    Raises
    ------
    DesignError
        As :func:`designer.play.rules_seat_rounds.solve`: a solve too long
        or too large, refused before anything is allocated.
    """
    from designer.engine.seat_rounds_falls import solve_seat_rounds_falls

    rules = game.rules
    refuse_long_solve(game, f"with {game.players} players under the rounds ending",
                      solve_estimate(game), max_seconds)
    result, subs = solve_seat_rounds_falls(rules.model, rules.goal, game.players,
                                           ties=rules.ties, cap=game.cap, lengths=False,
                                           _keep=True)
    return SeatFallsSolution(game, result, subs, subs[game.players].hidx)


# -- the round's end ----------------------------------------------------------

def end_turn(state, units, start):
    """The position after the mover's turn left the scores at ``units``:
    the next seat playing, a winner, the tied seats playing on from their
    scores (``replay``) or the next round."""
    nxt = replace(state, units=units, s=int(start), t=0, fresh=True, pending=None)
    seats = state.tied or tuple(range(state.players))
    p = seats.index(state.mover)
    if p + 1 < len(seats):
        return replace(nxt, mover=seats[p + 1])
    top = max(units[q] for q in seats)
    if top < state.game.rules.goal:
        return replace(nxt, mover=seats[0], round=state.round + 1)
    leaders = [q for q in seats if units[q] == top]
    if len(leaders) == 1 or state.game.rules.ties != "replay":
        return replace(nxt, mover=state.mover, winner=leaders[0])
    tied = tuple(leaders) if len(leaders) < state.players else ()
    return replace(nxt, mover=leaders[0], round=state.round + 1, tied=tied)


def holding_wins(state, t):
    """Whether banking ``t`` now wins the game: the round's last mover
    (among the seats playing) reaching the goal above every other score."""
    seats = state.tied or tuple(range(state.players))
    i = state.units[state.mover]
    others = max(state.units[q] for q in seats if q != state.mover)
    return state.mover == seats[-1] and i + t >= state.game.rules.goal and i + t > others


def ending_words(state):
    """The round in words ("round 3"; where tied seats play on, who)."""
    words = f"round {state.round}"
    if state.tied:
        seats = [str(q + 1) for q in state.tied]
        who = ", ".join(seats[:-1]) + " and " + seats[-1]
        words += f", seats {who} play on alone from their tied scores"
    ties = ("the players tied for the lead play on alone from their scores"
            if state.game.rules.ties == "replay" else "a tie goes to the earlier seat")
    return (words + f" (equal turns: when a round ends with a score of {state.game.goal} or "
            f"more, the highest wins; {ties}; a bust can lower a banked score)")
