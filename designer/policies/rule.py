"""A human-playable rule (:mod:`designer.policies.rules`) as a policy.

The rule's decisions come from one interpreter kernel
(:mod:`designer.policies._rule_kernels`) that reads the rule encoded as two
small integer arrays, for every family: deck, dice and Zombie Dice.
"""

import numpy as np

from designer.errors import DesignError
from designer.policies import _rule_kernels as K
from designer.policies.base import Policy, dice_pips


def _check_family(rule, game):
    if rule.family != game.family:
        raise DesignError(f"the rule is for {rule.family} games, not {game.family} games "
                          f"({game.name})")


class RulePolicy(Policy):
    """A rule as a policy of its family (tables built by the interpreter kernel)."""

    families = ("deck", "dice", "zombie")

    def __init__(self, game, rule, name=None):
        super().__init__(game, name or f"rule:{rule.text()}")
        _check_family(rule, game)
        self.rule = rule
        self._C, self._A, self._E, self._X = rule.encode()

    def _deck_table(self):
        g = self.game
        out = np.empty((g.goal, g.goal, g.bad, g.good + 1), dtype=np.int16)
        K.deck_table(self._C, self._A, self._E, self._X, g.bad, g.good, g.goal, out)
        return out

    def _deck_block(self, i, out):
        g = self.game
        K.deck_block(self._C, self._A, self._E, self._X, i, g.bad, g.good, g.goal, out)

    def _dice_table(self):
        g = self.game
        out = np.zeros((g.goal,) * 3, dtype=np.bool_)
        K.dice_table(self._C, self._A, self._E, self._X, g.goal, int(dice_pips(g).sum()), len(g.bust_faces), out)
        return out

    def _zombie_table(self):
        from designer.solve.zombie import policy_shape

        out = np.zeros(policy_shape(self.game), dtype=np.bool_)
        K.zombie_table(self._C, self._A, self._E, self._X, self.game.goal, out)
        return out


