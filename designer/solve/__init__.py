"""Exact solvers (layered value iteration, SPEC section 3)."""

from designer.solve.api import solve, solve_deck_game, solve_dice_game
from designer.solve.solution import DeckSolution, DiceSolution, Solution

__all__ = ["DeckSolution", "DiceSolution", "Solution", "solve", "solve_deck_game",
           "solve_dice_game"]
