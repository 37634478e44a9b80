"""Human-playable rules: the grammar, exact evaluation and search.

:mod:`designer.policies.rules` holds the rules as data (and
:mod:`designer.policies.rule` the policy they play as, so that ``rule:FILE``
needs nothing above the policies layer),
:mod:`~designer.strategy.evaluate` scores them exactly against the optimal
player, :mod:`~designer.strategy.search` finds the best rule of each size.
"""

from designer.policies.rule import RulePolicy
from designer.policies.rules import Rule
from designer.strategy.evaluate import Evaluator, known_rules

__all__ = ["Evaluator", "Rule", "RulePolicy", "known_rules"]
