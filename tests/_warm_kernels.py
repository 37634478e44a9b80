"""Compile the package's kernels into numba's cache, one group per process.

Run by ``conftest.py`` in the test controller before the two test processes
start: otherwise both compile the same kernels at the same moment on a cold
cache, and half of that work is wasted. Two groups, one per core, split so
that their compile times are about equal. On a warm cache this only loads.
"""

import sys


def group_a():
    from designer.games import DeckGame, DiceGame
    from designer.policies import _rule_kernels
    from designer.solve import solve
    from designer.solve.api import _warm
    from designer.solve.match import warm as match_warm
    from designer.solve.profile import evaluate_profile

    _warm(("deck", "dice"))
    match_warm(DeckGame(1, 1, 2))
    match_warm(DiceGame(2, 2))
    _rule_kernels.warm()
    for game in (DeckGame(1, 2, 3, players=3), DiceGame(3, 4, players=3)):
        sol = solve(game)
        evaluate_profile(game, [0, 0, 0], sol.policy, None)


def group_b():
    from designer.games import DeckGame, DiceGame
    from designer.simulate.wager import _warm as wager_warm
    from designer.solve import solve
    from designer.solve.zombie import _warm as zombie_warm
    from designer.solve.zombie_dice import _warm as zombie_dice_warm

    zombie_warm()
    zombie_dice_warm()
    wager_warm()
    for game in (DeckGame(1, 2, 3, ending="rounds"), DiceGame(3, 4, ending="rounds")):
        solve(game)


if __name__ == "__main__":
    {"a": group_a, "b": group_b}[sys.argv[1]]()
