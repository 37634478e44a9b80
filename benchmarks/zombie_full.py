"""Benchmark: the full Zombie Dice solver (SPEC 1.7) on one and on every core.

Run by hand: ``PYTHONPATH=. python benchmarks/zombie_full.py [--green 6 --yellow 4
--red 3] [--repeats N]``. Prints the enumeration time of the dice
configurations, the median solve time with one thread (the baseline, same
run) and with every core, their ratio, the peak memory and the answer.

Not measured here (left for later): plain value iteration over the same
states on a smaller dice set.
"""

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time

from designer.games.zombie import ZombieDiceGame
from designer.solve.zombie_dice import (
    default_workers,
    solve_zombie_dice_game,
    turn_states,
)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--green", type=int, default=6)
    ap.add_argument("--yellow", type=int, default=4)
    ap.add_argument("--red", type=int, default=3)
    ap.add_argument("--goal", type=int, default=13)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    game = ZombieDiceGame(args.green, args.yellow, args.red, goal=args.goal)
    t0 = time.perf_counter()
    ts = turn_states(game)
    enum = time.perf_counter() - t0
    solve_zombie_dice_game(ZombieDiceGame(2, 2, 1, goal=2))  # compile or load the kernels
    n = default_workers()
    t1, sol = median_time(lambda: solve_zombie_dice_game(game, workers=1), args.repeats)
    tn, sol_n = median_time(lambda: solve_zombie_dice_game(game, workers=n), args.repeats)
    assert abs(sol.first_player_win() - sol_n.first_player_win()) <= 1e-15
    print(f"{game.describe()}")
    print(f"configurations {ts.count:,}, transitions {ts.outcomes:,}, states {sol.states:,}")
    print(f"enumeration {enum:.1f} s")
    print(f"solve, 1 thread (baseline): median {t1:.1f} s")
    print(f"solve, {n} threads: median {tn:.1f} s  ({t1 / tn:.2f}x)")
    print(f"first-player win {sol.first_player_win():.6f}, expected actions "
          f"{sol.expected_actions():.3f}")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
