"""What colour costs a colour-blind player, and how the slides' rules fare,
in full Zombie Dice (6 green, 4 yellow, 3 red, rounds to 13).

Run by hand: ``python benchmarks/zombie_colours.py [--quick]``. Solves the
full game once, then evaluates exactly, against its optimal player, as
first and as second: the four human policies (they read only
the brains, the shotguns and the scores), max expected brains, and the
colour-blind player (the all-yellow optimum played without seeing colours).
Prints each policy's win rates, its gap ((first + second) - 1),
its agreement with optimal play and the seconds each evaluation took.
``--quick`` uses a small dice set (2 green, 2 yellow, 1 red, goal 5).
"""

import argparse
import os
import time

from designer.analysis.compare import compare
from designer.games import ZombieDiceGame, load_game
from designer.solve import solve

POLICIES = ("colour-blind", "neller", "llano", "minh", "fixed_hold_at", "max-brains")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    game = ZombieDiceGame(2, 2, 1, goal=5) if args.quick else load_game("zombie-dice")
    print(f"load {os.getloadavg()[0]:.2f}; {game.describe()}")
    t0 = time.perf_counter()
    sol = solve(game)
    print(f"optimal: first-player win {sol.first_player_win():.6f}, solved in "
          f"{time.perf_counter() - t0:.1f} s")
    print(f"{'policy':>14} {'as first':>9} {'as second':>9} {'average':>9} {'gap':>9} "
          f"{'agrees':>7} {'seconds':>7}")
    for name in POLICIES:
        t0 = time.perf_counter()
        c = compare(game, name, "optimal", solution=sol)
        print(f"{name:>14} {c.win_as_first:9.6f} {c.win_as_second:9.6f} {c.win_average:9.6f} "
              f"{c.gap:+9.6f} {c.agreement:7.2%} {time.perf_counter() - t0:7.1f}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
