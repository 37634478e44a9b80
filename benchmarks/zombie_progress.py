"""What the progress bar costs a full Zombie Dice solve.

With a progress callback the chase turns are cut into up to 64 chunks (so
that the bar moves) instead of one per thread; this times the solve of the
full game with and without the callback, in the same process, and checks
that the tables are equal.

    python benchmarks/zombie_progress.py [--repeats 3] [--goal 13]
"""

import argparse
import statistics
import time

import numpy as np

from designer.games import load_game
from designer.solve.zombie_dice import solve_zombie_dice_game


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--goal", type=int, default=13)
    args = ap.parse_args()
    game = load_game("zombie-dice", goal=args.goal)
    solve_zombie_dice_game(load_game("zombie-dice", goal=3))  # load the kernels
    times = {"without": [], "with": []}
    last = {}
    for _ in range(args.repeats):
        for label in ("without", "with"):  # interleaved: a load change hits both
            calls = []
            t0 = time.perf_counter()
            sol = solve_zombie_dice_game(
                game, progress=(lambda d, t: calls.append(d)) if label == "with" else None)
            times[label].append(time.perf_counter() - t0)
            last[label] = sol
            if label == "with":
                print(f"  progress calls: {len(calls)}")
    same = np.array_equal(last["with"].policy, last["without"].policy) and (
        last["with"].summary()["first_player_win"] == last["without"].summary()["first_player_win"])
    a, b = statistics.median(times["without"]), statistics.median(times["with"])
    print(f"zombie-dice goal {args.goal}: median without progress {a:.2f} s, with {b:.2f} s, "
          f"ratio {b / a:.3f} ({args.repeats} runs each); tables equal: {same}")


if __name__ == "__main__":
    main()
