"""designer: find the rules that make a push-your-luck game fair.

Public entry points are re-exported here; submodules hold the details.
"""

from designer.errors import ConvergenceError, DesignError, ParameterError, SolverError
from designer.games import (DeckGame, DiceGame, WagerGame, ZombieDiceGame, ZombieGame, load_game,
                            preset_names)

__all__ = [
    "ConvergenceError",
    "SolverError",
    "DeckGame",
    "DesignError",
    "DiceGame",
    "ParameterError",
    "WagerGame",
    "ZombieDiceGame",
    "ZombieGame",
    "load_game",
    "preset_names",
    "solve",
]

__version__ = "0.1.0"


def solve(game, **kwargs):
    """Solve ``game`` exactly; see :func:`designer.solve.solve`."""
    from designer.solve import solve as _solve

    return _solve(game, **kwargs)
