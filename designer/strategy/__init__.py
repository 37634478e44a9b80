"""Human-playable rules (SPEC 5): the grammar, exact evaluation and search.

:mod:`~designer.strategy.rules` holds the rules as data,
:mod:`~designer.strategy.evaluate` scores them exactly against the optimal
player, :mod:`~designer.strategy.search` finds the best rule of each size.
"""

from designer.strategy.evaluate import Evaluator, RulePolicy, known_rules
from designer.strategy.rules import Rule

__all__ = ["Evaluator", "Rule", "RulePolicy", "known_rules"]
