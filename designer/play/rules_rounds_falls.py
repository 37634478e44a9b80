"""Exact values of a played rules game of two seats under the rounds ending
whose busts can lower a banked score (Two-Dice Pig's snake eyes, a skull
that wipes the score, a penalty down to a floor), from the solve of
:mod:`designer.engine.rounds_falls`.

The solve's tables give every turn start: ``X[a, b, h]`` seat 1's win at a
round's start (seat 1 at ``a``, seat 2 at ``b``; under ``replay`` also a
replayed round from tied scores ``a = b`` at or above the goal) and
``Y[b, a, h]`` seat 2's, to move with ``b`` once seat 1 ended its turn at
``a``. A turn is the engine's turn recursion
(:class:`~designer.play.rules_engine.TurnValues`) with these ends:

seat 1 at ``(a, b)``
    banking a total ``t`` leaves seat 2 to move, ``1 - Y[b, a + t, h]``,
    the score held at the solve's cap (a turn that reaches it stops
    there); a bust that lowers the score to ``f(a)`` is worth ``1 - Y[b,
    f(a), h]`` (``f(a) = a`` for a bust that lowers nothing).
seat 2 at ``b`` after seat 1's ``a``
    banking ``t`` ends the round at ``b' = b + t``: above ``a`` and at or
    above the goal it wins (banked at once); below ``a`` with ``a`` at or
    above the goal it loses; a tie at or above the goal is replayed (``1 -
    X[a, b', h]``) or goes to seat 1 (0); below the goal the next round
    starts, ``1 - X[a, b', h]``. A bust is the round's end at ``f(b)``.

Every value is a probability of winning for the mover; ties between
actions break as the solver breaks them
(:func:`~designer.play.rules_engine.best_action`).
"""

from dataclasses import dataclass

import numpy as np

from designer.engine.model import BUST
from designer.play.rules_engine import (MAX_SOLVE_SECONDS, RoundsTurnValues, ViewedSolution,
                                        after_bust, refuse_long_solve, start_index)


class FallsTurnValues(RoundsTurnValues):
    """``W`` of one turn of the rounds ending where scores can fall:
    :class:`~designer.play.rules_engine.RoundsTurnValues`' recursion with
    the ends of the module doc. ``view`` is ``("seat1", a, b)`` or
    ``("seat2", b, a)``, scores in units, each at most the solve's cap."""

    def __init__(self, solution, view):
        self.sol, self.view = solution, view
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        r = solution.result
        if view[0] == "seat1":
            self.tcap = r.cap - view[1]
        else:  # seat 2 stops as soon as its stop wins
            b, a = view[1], view[2]
            self.tcap = max(max(r.goal, a + 1) - b, self.m.min_bank)
        self.memo = {}

    def _round_end(self, a, b, h):
        """Seat 2's win when the round ends at ``(a, b)`` (seat 1's score,
        seat 2's), the next turn from start state index ``h``."""
        r = self.sol.result
        if b > a and b >= r.goal:
            return 1.0
        if a > b and a >= r.goal:
            return 0.0
        if a == b and a >= r.goal and r.ties != "replay":
            return 0.0
        return 1.0 - float(r.X[a - r.floor, b - r.floor, h])

    def end_at(self, score, s_start):
        """The mover's win when its turn ends with its banked score at
        ``score`` (raised, lowered or kept) and the next turn starts from
        turn state ``s_start``."""
        r, h = self.sol.result, self._hidx(s_start)
        if self.view[0] == "seat1":
            b = self.view[2]
            return 1.0 - float(r.Y[b - r.floor, min(score, r.cap) - r.floor, h])
        return self._round_end(self.view[2], score, h)

    def end(self, u, s_start):
        """The mover's win when the turn ends banking ``u`` (at most the
        turn's end: the cap, or seat 2's win)."""
        return self.end_at(self.view[1] + min(int(u), self.tcap), s_start)

    def _outcome(self, o, t):
        m = self.m
        if m.out_kind[o] != BUST:
            return super()._outcome(o, t)
        return self.end_at(after_bust(m, o, self.view[1]), m.out_next[o])


@dataclass(frozen=True, eq=False)
class FallsSolution(ViewedSolution):
    """A rules game of two seats under the rounds ending, scores that can
    fall, with its solve.

    Attributes
    ----------
    game : RulesGame
    result : RoundsFallsResult
    hidx : ndarray
        Each turn state's index among the start states (-1: none).
    """

    game: object
    result: object
    hidx: np.ndarray

    turn_values = FallsTurnValues

    def view(self, state):
        """Whose turn ``state`` is, as :class:`FallsTurnValues` names it
        (a score past the cap, which only a person can bank, read as the
        cap: the solve holds seat 1 there)."""
        a, b = (min(int(u), self.result.cap) for u in state.units)
        return ("seat1", a, b) if state.mover == 0 else ("seat2", b, a)


def solve_estimate(game):
    """What the solve of ``game`` needs, by
    :func:`designer.engine.rounds_falls.falls_estimate`: ``positions``,
    ``memory`` and ``seconds`` (a rough guide, on one thread)."""
    from designer.engine.rounds_falls import falls_estimate

    rules = game.rules
    return falls_estimate(rules.model, rules.goal, game.cap, rules.ties)


def solve(game, max_seconds=MAX_SOLVE_SECONDS):
    """Solve ``game`` (2 players, rounds ending, scores that can fall): a
    :class:`FallsSolution` (the wins alone: play needs no game length).

    Raises
    ------
    DesignError
        As :func:`designer.play.rules_seat_rounds.solve`: a solve too long
        or too large, refused before anything is allocated.
    """
    from designer.engine.rounds_falls import solve_rounds_falls

    refuse_long_solve(game, "under the rounds ending", solve_estimate(game), max_seconds)
    rules = game.rules
    r = solve_rounds_falls(rules.model, rules.goal, ties=rules.ties, cap=game.cap, lengths=False)
    return FallsSolution(game, r, start_index(rules.model, r.start_states))
