"""Built-in policies: optimal, max-score and hold-at.

``optimal``
    The policy of an exact solve (ties hold). Its compact table is
    the solver's; its decisions at states beyond a turn's first hold are
    rebuilt chain by chain from the solved turn-start win table. Zombie
    Dice: the solver's decision table.

``max-score``
    Draw (roll) exactly when one more draw has a positive expected gain in
    turn total. Decks: draw iff ``k == 0`` or ``c_rem > w_rem * k``
    (a good item adds 1 with chance ``c_rem / n``, a bad one loses ``k`` with
    chance ``w_rem / n``). Dice, the same rule for one roll: roll iff
    ``k == 0`` or ``sum(scoring pips) > len(bust_faces) * k``; for Pig
    (``2 + ... + 6 = 20`` against one bust face) that is the classic
    "hold at 20". Ties (zero expected gain) hold.

``hold-at:N``
    Draw (roll) while the turn total is below ``N``, hold once it reaches
    ``N`` (``N >= 1``). It is literal: a deck player below ``N`` draws even
    when only bad items are left. Zombie Dice: roll while the turn's brains
    ``b < N``, whatever the scores and shotguns (the rules still force
    player 2's winning hold and the first roll of a turn).

``max-score`` is not defined for Zombie Dice (it is defined for decks;
dice use the same one-roll rule); the human Zombie Dice policies are in
:mod:`designer.policies.zombie`.
"""

import functools

import numpy as np

from designer._jit import TIE
from designer.errors import DesignError
from designer.games._validate import check_int
from designer.policies import _kernels as K
from designer.policies.base import Policy, dice_pips
from designer.solve.zombie import policy_shape


@functools.lru_cache(maxsize=4)
def solution_for(game):
    """The exact solve of ``game``, cached for the process (four games)."""
    from designer.solve import solve

    return solve(game)


class OptimalPolicy(Policy):
    """Optimal play from an exact solve.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    solution : DeckSolution, DiceSolution or ZombieSolution, optional
        A solve of the same rules and goal (any komi: one solve answers
        them all); solved, and cached per process, when omitted.
    """

    families = ("deck", "dice", "zombie")

    def __init__(self, game, solution=None):
        super().__init__(game, "optimal")
        if solution is None:
            solution = solution_for(game)
        sg = solution.game
        if sg.params | {"komi": 0} != game.params | {"komi": 0}:
            raise DesignError(f"the solution is for {sg.describe()}, not {game.describe()}")
        self.solution = solution

    def _deck_table(self):
        return np.array(self.solution.policy, dtype=np.int16)

    def _deck_block(self, i, out):
        g = self.game
        K.optimal_block(i, g.bad, g.good, g.goal, self.solution.win, TIE, out)

    def _dice_table(self):
        return np.array(self.solution.policy, dtype=np.bool_)

    def _zombie_table(self):
        return np.array(self.solution.policy, dtype=np.bool_)


class _RulePolicy(Policy):
    kind = -1
    param = 0

    def _deck_table(self):
        g = self.game
        out = np.empty((g.goal, g.goal, g.bad, g.good + 1), dtype=np.int16)
        K.rule_table(self.kind, self.param, g.bad, g.good, g.goal, out)
        return out

    def _deck_block(self, i, out):
        g = self.game
        K.rule_block(self.kind, self.param, i, g.bad, g.good, g.goal, out)

    def _dice_table(self):
        G = self.game.goal
        k = np.arange(G)
        row = self._dice_rolls(k)
        return np.broadcast_to(row, (G, G, G)).copy()


class MaxScorePolicy(_RulePolicy):
    """Draw while one more draw (roll) gains turn total on average; see module doc."""

    kind = K.MAX_SCORE

    def __init__(self, game):
        super().__init__(game, "max-score")

    def _dice_rolls(self, k):
        g = self.game
        return (k == 0) | (int(dice_pips(g).sum()) > len(g.bust_faces) * k)


class HoldAtPolicy(_RulePolicy):
    """Hold once the turn total reaches ``n`` (``n >= 1``)."""

    kind = K.HOLD_AT
    families = ("deck", "dice", "zombie")

    def __init__(self, game, n):
        n = check_int("hold-at", n, 1, 32767)
        super().__init__(game, f"hold-at:{n}")
        self.param = n

    def _dice_rolls(self, k):
        return k < self.param

    def _zombie_table(self):
        R = np.zeros(policy_shape(self.game), dtype=np.bool_)
        R[:, :, :, :self.param, :] = True  # b < N; shape axis 3 is b
        return R
