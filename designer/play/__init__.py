"""Play a design against the computer: the rules engine, the computer
players, the exact analysis of the human's decisions and the statistics.

:mod:`designer.play.session` runs the game loop and
:mod:`designer.play.keys` reads single keys; nothing here writes to the
terminal: the caller gives the loop a view (``designer play`` gives
:mod:`designer.report.play_view`).
"""

from designer.play.analysis import Decision, action_values, evaluate, worst_decision
from designer.play.engine import (DeckState, DiceState, Event, IllegalMove, new_game,
                                  random_outcome, step)
from designer.play.players import LEVELS, make_player

__all__ = ["LEVELS", "DeckState", "Decision", "DiceState", "Event", "IllegalMove",
           "action_values", "evaluate", "make_player", "new_game", "random_outcome", "step",
           "worst_decision"]
