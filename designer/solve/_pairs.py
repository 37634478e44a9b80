"""Former home of the score-pair kernels, kept so that existing imports work.

Everything now lives in :mod:`designer.solve._classes`, which also holds the
rotation classes of N-player score tuples.
"""

from designer.solve._classes import affine_solve, affine_step, pair_order, solve2

__all__ = ["affine_solve", "affine_step", "pair_order", "solve2"]
