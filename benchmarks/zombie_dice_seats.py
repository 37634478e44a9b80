"""Full Zombie Dice with three players, solved once past the command's limit.

Run by hand: ``PYTHONPATH=. python benchmarks/zombie_dice_seats.py
[--players 3] [--goal 13] [--cap 43] [--out FILE.json]``. ``designer solve
zombie-dice --players 3`` refuses this solve (its estimate: 2.6e11
turn-state updates, about 27 minutes on 2 cores, over the command's five
minutes); this script lifts that limit for one run and prints the seat
wins from no start points, the fairest start points and their seat wins,
the expected game length, the solve time against the estimate, the peak
memory and the load average before and after. ``--out`` keeps the summary
as JSON.
"""

import argparse
import json
import os
import resource
import time

from designer.games.zombie import ZombieDiceGame
from designer.solve import rounds
from designer.solve.api import solve
from designer.solve.zombie_dice import _arrays, turn_states


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--goal", type=int, default=13)
    ap.add_argument("--cap", type=int, default=43)
    ap.add_argument("--out", help="write the summary here (JSON)")
    args = ap.parse_args()
    game = ZombieDiceGame(players=args.players, goal=args.goal, cap=args.cap)
    ts = turn_states(game)
    work = rounds.zombie_work(game, _arrays(ts)[0])
    print(f"{game.name}: {args.players} players, goal {args.goal}, cap {args.cap}")
    print(f"load average before: {os.getloadavg()}")
    print(f"estimate: {work:.2e} turn-state updates, about {work / rounds.ZOMBIE_RATE / 60:.0f} "
          "minutes on 2 cores")
    rounds.MAX_ZOMBIE_WORK = max(rounds.MAX_ZOMBIE_WORK, 2 * work)  # this run only
    t0 = time.perf_counter()
    sol = solve(game)
    wall = time.perf_counter() - t0
    s = sol.summary(max_komi=3)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"load average after: {os.getloadavg()}")
    print(f"solve: {wall / 60:.1f} minutes wall ({sol.seconds / 60:.1f} in the kernels), "
          f"peak memory {peak:.0f} MB")
    print("seat wins, no start points: " + ", ".join(f"{p:.6f}" for p in s["seat_win"]))
    print(f"expected game length: {s['expected_actions']:.2f} actions")
    print(f"fairest start points: {s['fair_komi']}, seat wins "
          + ", ".join(f"{p:.6f}" for p in s["fair_komi_seat_win"])
          + f" (largest gap from 1/{args.players}: {s['fair_komi_fairness']:.4%})")
    print(f"residual {s['residual']:.1e}, unsettled positions {s['unsettled_positions']}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({**s, "wall_seconds": wall, "peak_mb": peak}, fh, indent=1)


if __name__ == "__main__":
    main()
