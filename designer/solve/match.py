"""Exact evaluation of a match between two fixed policies (the solve layer).

Evaluation (no simulation)
--------------------------
A match between policy A (player 0) and policy B (player 1) is a Markov chain
on the states ``(mover, i, j, k, w, c)``. The layered solver
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

Zombie Dice (rounds) is evaluated by its own layered kernel in
fixed-policy mode (:mod:`designer.solve.zombie`), once per seating: the
values at every round start ``(a, c)`` answer every komi, for the game's goal
only (the goal decides when a round ends the game, so the tables of one goal
do not contain another's).

Each family's evaluation is one entry of :data:`MATCHES`; a new family adds
its function there.
"""

from dataclasses import dataclass

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL
from designer.errors import ConvergenceError, DesignError, SolverError
from designer.games._validate import check_int
from designer.solve._deck_kernel import solve_deck
from designer.solve._dice_kernel import solve_dice
from designer.solve.api import _warm, scoring_pips
from designer.solve.zombie import _run as zombie_run
from designer.solve.zombie import _warm as zombie_warm
from designer.solve.zombie import policy_shape as zombie_policy_shape


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
        Zombie Dice: ``win[p, a, c]`` is the win probability of player 1
        at round start ``(a, c)`` when player 1 plays A (``p = 0``) or B
        (``p = 1``), the other policy in seat 2.
    every_goal : bool
        True when the tables answer every goal up to the game's (deck and
        dice), False when only the game's goal (Zombie Dice).
    """

    game: object
    win: np.ndarray
    actions: np.ndarray
    every_goal: bool = True

    def start(self, goal=None, komi=None):
        """Turn-start indices ``(i, j)`` of the first mover of (goal, komi)."""
        G = self.game.goal
        if not self.every_goal and goal is not None and goal != G:
            raise DesignError(f"this match table answers goal {G} only, not {goal!r}")
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
        raise SolverError(f"{what}: a score pair did not converge (residual {stats[0]:.3g})")


def match_table(game, table_a, table_b):
    """Evaluate a match between two policy tables exactly.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    table_a, table_b : ndarray
        :meth:`Policy.table` of the two players (int16 compact tables for
        decks, bool roll tables for dice and Zombie Dice).

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
    family = getattr(game, "family", None)
    if family not in MATCHES:
        raise DesignError(f"no exact match evaluation for {getattr(game, 'name', game)!r} "
                          f"(families: {', '.join(MATCHES)})")
    return MATCHES[family](game, table_a, table_b)


def warm(game):
    """Load (or compile) the kernels ``match_table(game, ...)`` runs, so that a
    timing of the evaluation leaves compilation out."""
    if game.family == "zombie":
        zombie_warm()
    else:
        _warm()


def _layered_match(kernel_call):
    def evaluate(game, table_a, table_b):
        _warm()
        V, L, stats = kernel_call(game, table_a, table_b)
        _check(stats, game.name)
        return MatchTable(game, V, L)
    return evaluate


def _zombie_shape(game):
    """Policy table shape: over the shotguns (all-yellow) or over the dice
    configurations (full Zombie Dice, :mod:`designer.solve.zombie_dice`)."""
    if hasattr(game, "counts"):
        from designer.solve.zombie_dice import policy_shape

        return policy_shape(game)
    return zombie_policy_shape(game)


def _zombie_table(game, table):
    table = np.asarray(table)
    shape = _zombie_shape(game)
    if table.shape != shape or table.dtype != np.bool_:
        raise DesignError(f"a Zombie Dice policy table must be bool {shape}, "
                          f"not {table.dtype} {table.shape}")
    return table


def _zombie_match_table(game, table_a, table_b):
    """Both seatings of a Zombie Dice match, as a :class:`MatchTable`."""
    a, b = _zombie_table(game, table_a), _zombie_table(game, table_b)
    W_ab, L_ab = _zombie_match(game, a, b)
    W_ba, L_ba = _zombie_match(game, b, a)
    G = game.goal
    win = np.stack([W_ab[:G, :G], W_ba[:G, :G]])
    actions = np.stack([L_ab[:G, :G], L_ba[:G, :G]])
    return MatchTable(game, win, actions, every_goal=False)


# The only calls of the solvers in fixed-policy mode (_deck_match,
# _dice_match, _zombie_match): a change of a kernel's signature touches these
# functions and nothing else.

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


def _zombie_match(game, first, second):
    """Player 1's win probability and expected actions at every round start,
    player 1 playing ``first[0]``, player 2 ``second[1]``."""
    R = np.empty(_zombie_shape(game), dtype=np.bool_)
    R[0] = first[0]
    R[1] = second[1]
    zombie_warm()
    if hasattr(game, "counts"):  # the full game runs the same kernels over its configurations
        from designer.solve.zombie_dice import _run, turn_states

        W, LW, _, _, _ = _run(game, turn_states(game), R, False)
    else:
        W, LW, _, _, _ = zombie_run(game, R, False)
    return W, LW


#: ``{family: evaluate(game, table_a, table_b) -> MatchTable}``.
MATCHES = {
    "deck": _layered_match(_deck_match),
    "dice": _layered_match(_dice_match),
    "zombie": _zombie_match_table,
}
