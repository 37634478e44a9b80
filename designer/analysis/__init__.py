"""Metrics computed from solves and policies: head-to-head, agreement, skill gap."""

from designer.analysis.compare import (Comparison, MatchTable, compare, match_table,
                                       policy_agreement)
from designer.analysis.skill import skill_gap

__all__ = ["Comparison", "MatchTable", "compare", "match_table", "policy_agreement",
           "skill_gap"]
