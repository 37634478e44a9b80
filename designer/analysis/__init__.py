"""Analyses built on exact solves: policy comparison, skill gap, fairness."""
