"""Policies for deck and dice games: optimal, max-score, hold-at, user
functions and the compact neural network; see :mod:`designer.policies.base`
for the interface and :mod:`designer.policies.parse` for the strings."""

from designer.policies.base import Policy
from designer.policies.builtin import HoldAtPolicy, MaxScorePolicy, OptimalPolicy
from designer.policies.compact import CompactPolicy
from designer.policies.parse import POLICY_FORMS, parse_policy
from designer.policies.user import FunctionPolicy, from_function

__all__ = ["CompactPolicy", "FunctionPolicy", "HoldAtPolicy", "MaxScorePolicy",
           "OptimalPolicy", "POLICY_FORMS", "Policy", "from_function", "parse_policy"]
