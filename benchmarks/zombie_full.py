"""Benchmark: the full Zombie Dice solver on one and on every core.

Run by hand: ``PYTHONPATH=. python benchmarks/zombie_full.py [--green 6 --yellow 4
--red 3] [--repeats N]``. Prints the enumeration time of the dice
configurations, the median solve time with one thread (the baseline, same
run) and with every core, their ratio, the peak memory and the answer.

``--plain`` instead times the layered solver against plain value iteration
over the same states (``_zombie_dice_plain_vi.py``) on a smaller dice set
(default with it: 3 green, 2 yellow, 2 red, goal 8, cap 20), in one run,
and checks that both give the same round-start values.
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
    ap.add_argument("--plain", action="store_true",
                    help="layered solver against plain value iteration, smaller dice set")
    args = ap.parse_args()
    if args.plain:
        return plain(args)
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


def plain(args):
    """Layered solve against plain value iteration, same states, same run."""
    import numpy as np
    from _zombie_dice_plain_vi import plain_value_iteration

    small = (args.green, args.yellow, args.red) == (6, 4, 3) and args.goal == 13
    game = (ZombieDiceGame(3, 2, 2, goal=8, cap=20) if small else
            ZombieDiceGame(args.green, args.yellow, args.red, goal=args.goal))
    ts = turn_states(game)
    arrays = (ts.nxt, ts.gain, ts.prob, ts.stay, ts.shotguns, ts.brains_aside)
    plain_value_iteration(2, 4, *arrays, 1e-12, 10)  # compile or load
    solve_zombie_dice_game(ZombieDiceGame(2, 2, 1, goal=2))
    n = default_workers()
    print(f"{game.describe()}; load {os.getloadavg()[0]:.1f}")
    print(f"configurations {ts.count:,}, transitions {ts.outcomes:,}")
    t_layer, sol = median_time(lambda: solve_zombie_dice_game(game, workers=n), args.repeats)
    t_one, _ = median_time(lambda: solve_zombie_dice_game(game, workers=1), args.repeats)
    t_plain, (W, iters) = median_time(
        lambda: plain_value_iteration(game.goal, game.cap, *arrays, 1e-12, 100_000), 1)
    G = game.goal
    diff = float(np.abs(W[:G, :G] - sol.win).max())
    print(f"states {sol.states:,}; plain VI {iters} sweeps")
    print(f"plain value iteration (baseline): {t_plain:.2f} s")
    print(f"layered, 1 thread:  median {t_one:.3f} s  ({t_plain / t_one:.1f}x)")
    print(f"layered, {n} threads: median {t_layer:.3f} s  ({t_plain / t_layer:.1f}x)")
    print(f"largest difference of round-start values {diff:.1e}; load "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
