"""Exact solvers (layered value iteration)."""

from designer.solve.api import solve, solve_deck_game, solve_dice_game
from designer.solve.race import solve_race
from designer.solve.solution import (
                                     DeckSolution,
                                     DiceSolution,
                                     SeatSolution,
                                     Solution,
                                     ZombieSolution,
)
from designer.solve.zombie import evaluate_zombie_match, solve_zombie_game
from designer.solve.zombie_dice import (
                                     ZombieDiceSolution,
                                     evaluate_zombie_dice_match,
                                     solve_zombie_dice_game,
)

__all__ = ["DeckSolution", "DiceSolution", "SeatSolution", "Solution", "ZombieDiceSolution",
           "ZombieSolution", "evaluate_zombie_dice_match", "evaluate_zombie_match", "solve",
           "solve_deck_game", "solve_dice_game", "solve_race", "solve_zombie_dice_game",
           "solve_zombie_game"]
