"""Policies: the optimal one from a solve, and fixed ones to compare with it."""

from designer.policies.compact import CompactPolicy

__all__ = ["CompactPolicy"]
