"""Exact evaluation of a match between two fixed policies (the solve layer).

Evaluation (no simulation)
--------------------------
A match between policy A (player 0) and policy B (player 1) is a Markov chain
on the states ``(mover, i, j, k, w, c)``. The layered solver of SPEC section 3
evaluates it exactly: with both compact tables fixed, the kernels run in their
two-player mode (``optimize=False``), where each score pair's unknowns are the
turn-start values of both players at a fresh deck (decks) or at ``k = 0``
(dice). One backward sweep per pair gives them as the solution of a 2 x 2
linear system, so the whole match costs one sweep per score pair:

.. math::

    V_p(i, j, k, w, c) = \\begin{cases}
      1 & i + k \\ge goal \\\\
      1 - V_{1-p}(j, i + k, 0, w, c) & \\text{player } p \\text{ holds} \\\\
      \\frac{c_{rem}}{n} V_p(i, j, k+1, w, c+1)
        + \\frac{w_{rem}}{n} (1 - V_{1-p}(j, i, 0, w', c')) & \\text{draws}
    \\end{cases}

``V_p`` is the win probability of the mover when the mover is player ``p``.
The game's komi goes to the second player: A moving first wins with
``V_0(0, komi, 0, 0, 0)``; A moving second wins with
``1 - V_1(0, komi, 0, 0, 0)``. The tables cover every goal up to the game's
(scores offset by ``game.goal - goal``) and every komi.
"""

from dataclasses import dataclass

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL
from designer.errors import ConvergenceError, DesignError
from designer.games._validate import check_int
from designer.solve._deck_kernel import solve_deck
from designer.solve._dice_kernel import solve_dice
from designer.solve.api import _warm, scoring_pips


@dataclass(frozen=True, eq=False)
class MatchTable:
    """Exact values of every position of a match between two fixed policies.

    Attributes
    ----------
    game : DeckGame or DiceGame
    win, actions : ndarray, shape ``(2,) + turn-start shape``
        ``win[p, i, j, ...]``: win probability of the mover at turn start
        when the mover is player ``p`` (0 = policy A, 1 = policy B);
        ``actions``: expected remaining actions (draws, rolls and holds).
    """

    game: object
    win: np.ndarray
    actions: np.ndarray

    def start(self, goal=None, komi=None):
        """Turn-start indices ``(i, j)`` of the first mover of (goal, komi)."""
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        komi = self.game.komi if komi is None else komi
        komi = check_int("komi", komi, 0, goal - 1)
        return G - goal, G - goal + komi

    def _at(self, arr, p, i, j):
        return float(arr[(p, i, j) + (0,) * (arr.ndim - 3)])

    def win_as_first(self, goal=None, komi=None):
        """A's win probability when A moves first (B starts with ``komi``)."""
        i, j = self.start(goal, komi)
        return self._at(self.win, 0, i, j)

    def win_as_second(self, goal=None, komi=None):
        """A's win probability when B moves first (A starts with ``komi``)."""
        i, j = self.start(goal, komi)
        return 1.0 - self._at(self.win, 1, i, j)

    def actions_as_first(self, goal=None, komi=None):
        """Expected actions of the game when A moves first."""
        i, j = self.start(goal, komi)
        return self._at(self.actions, 0, i, j)

    def actions_as_second(self, goal=None, komi=None):
        """Expected actions of the game when B moves first."""
        i, j = self.start(goal, komi)
        return self._at(self.actions, 1, i, j)


def _check(stats, what):
    if stats[3] == 2.0:
        raise ConvergenceError(f"{what}: the game can go on forever under these policies "
                               f"(no turn ever banks enough points to finish)")
    if stats[3] == 1.0:
        raise ConvergenceError(f"{what}: a score pair did not converge (residual {stats[0]:.3g})")


def match_table(game, table_a, table_b):
    """Evaluate a match between two policy tables exactly.

    Parameters
    ----------
    game : DeckGame or DiceGame
    table_a, table_b : ndarray
        :meth:`Policy.table` of the two players (int16 compact tables for
        decks, bool roll tables for dice).

    Returns
    -------
    MatchTable

    Raises
    ------
    ConvergenceError
        If the match can last forever (e.g. two dice players that always
        pass, or deck players that never hold and cannot reach the goal in
        one turn).
    """
    _warm()
    if game.family == "deck":
        V, L, stats = _deck_match(game, table_a, table_b)
    elif game.family == "dice":
        V, L, stats = _dice_match(game, table_a, table_b)
    else:
        raise DesignError(f"match_table evaluates deck and dice games, not {game.family} games")
    _check(stats, game.name)
    return MatchTable(game, V, L)


# The only two calls of the layered kernels in their two-player mode: a
# change of a kernel's signature touches these lines and nothing else.

def _deck_match(game, table_a, table_b):
    """Both players' turn-start values and expected actions, deck game."""
    T = np.ascontiguousarray(np.stack([table_a, table_b]), dtype=np.int16)
    V = np.zeros(T.shape)
    L = np.zeros(T.shape)
    stats = np.zeros(4)
    solve_deck(game.bad, game.good, game.goal, V, L, T, False, TOL, TIE, MAX_SWEEPS, stats)
    return V, L, stats


def _dice_match(game, table_a, table_b):
    """Both players' turn-start values and expected actions, dice game."""
    R = np.ascontiguousarray(np.stack([table_a, table_b]), dtype=np.bool_)
    V = np.zeros(R.shape[:3])
    L = np.zeros(R.shape[:3])
    stats = np.zeros(4)
    solve_dice(game.faces, scoring_pips(game), game.goal, V, L, R, False, TOL, TIE, MAX_SWEEPS,
               stats)
    return V, L, stats
