"""Skill gap: how much exact optimal play gains over a simple good heuristic.

.. math::

    \\text{skill gap} = \\tfrac12 \\left( W_1 + W_2 \\right) - \\tfrac12

where ``W_1`` (``W_2``) is the exact win probability of the optimal player
against a max-score player when the optimal player moves first (second), the
design's komi going to the second mover. Zero means optimal play gains
nothing over max-score (:mod:`designer.policies.builtin`); the larger, the
more a design rewards skill. Both seats are averaged so that the first-move
advantage cancels out.
"""

from designer.solve.match import match_table
from designer.policies.builtin import MaxScorePolicy, OptimalPolicy


def skill_gap(solution, goal=None, komi=None):
    """Skill gap of the design solved by ``solution`` (see module docstring).

    Parameters
    ----------
    solution : DeckSolution or DiceSolution
        An exact solve; the optimal player plays its policy.
    goal, komi : int, optional
        Any goal up to the solved one and any komi (default: the solved
        game's own); one evaluation answers them all.

    Returns
    -------
    float
        Average win probability of optimal against max-score, minus 1/2.
    """
    game = solution.game
    best = OptimalPolicy(game, solution)
    heuristic = MaxScorePolicy(game)
    match = match_table(game, best.table(), heuristic.table())
    return 0.5 * (match.win_as_first(goal, komi) + match.win_as_second(goal, komi)) - 0.5
