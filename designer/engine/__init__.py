"""One engine for any push-your-luck game (first step: two seats, race).

A game's turn is described by parts (dice, a deck) in a TOML rules file,
enumerated into a :class:`TurnModel` (flat arrays), and solved exactly by
:func:`solve_model`, which never knows which game it solves.
"""

from designer.engine.model import ModelError, TurnModel, build_model
from designer.engine.solve import EngineResult, TooLargeError, solve_model, solve_rules

__all__ = ["EngineResult", "ModelError", "TooLargeError", "TurnModel", "build_model",
           "solve_model", "solve_rules"]
