"""Play a design against the computer: the rules engine, the computer
players, the exact analysis of the human's decisions and the statistics.

Nothing here reads keys or writes to the terminal; ``designer.commands.play``
runs the loop and ``designer.report.play_view`` draws it.
"""

from designer.play.analysis import Decision, action_values, evaluate, worst_decision
from designer.play.engine import (DeckState, DiceState, Event, IllegalMove, new_game,
                                  random_outcome, step)
from designer.play.players import LEVELS, make_player

__all__ = ["LEVELS", "DeckState", "Decision", "DiceState", "Event", "IllegalMove",
           "action_values", "evaluate", "make_player", "new_game", "random_outcome", "step",
           "worst_decision"]
