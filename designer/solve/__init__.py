"""Exact solvers (layered value iteration, SPEC section 3)."""

from designer.solve.api import solve, solve_deck_game, solve_dice_game
from designer.solve.solution import DeckSolution, DiceSolution, Solution, ZombieSolution
from designer.solve.zombie import evaluate_zombie_match, solve_zombie_game
from designer.solve.zombie_dice import (
                                        ZombieDiceSolution,
                                        evaluate_zombie_dice_match,
                                        solve_zombie_dice_game,
)

__all__ = ["DeckSolution", "DiceSolution", "Solution", "ZombieDiceSolution", "ZombieSolution",
           "evaluate_zombie_dice_match", "evaluate_zombie_match", "solve", "solve_deck_game",
           "solve_dice_game", "solve_zombie_dice_game", "solve_zombie_game"]
