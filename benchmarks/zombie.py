"""Benchmark: layered Zombie Dice solver vs plain value iteration.

Run by hand: ``python benchmarks/zombie.py [--repeats N]``. Prints the
median of several warm runs of the layered solve of all-yellow Zombie Dice,
of plain full-state value iteration over the same capped model (whole state
box, and the layered solver's own state set), their ratios measured in the
same process, the largest difference between the answers, and the time of
each exact policy comparison against the optimal player.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time  # noqa: E402

from _zombie_plain_vi import plain_value_iteration  # noqa: E402

from designer import load_game  # noqa: E402
from designer.analysis.zombie import compare_zombie  # noqa: E402
from designer.policies.zombie import HUMAN  # noqa: E402
from designer.solve import solve  # noqa: E402
from designer.solve.zombie import roll_outcomes  # noqa: E402




def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=21, help="runs of the layered solver")
    ap.add_argument("--baseline-repeats", type=int, default=3, help="runs of plain VI")
    args = ap.parse_args()

    game = load_game("zombie-yellow")
    G, cap, K = game.goal, game.cap, game.bust_shotguns
    ob, os_, op, q0 = roll_outcomes(game)
    # plain VI iterates the all-footprint roll as an ordinary transition
    OB = np.append(ob, 0)
    OS = np.append(os_, 0)
    OP = np.append(op, q0)

    # warm (compile or load from cache) every method
    solve(load_game("zombie", goal=3, cap=6))
    plain_value_iteration(3, 6, 3, OB, OS, OP, True, 1e-12, 10_000)
    compare_zombie(game, "minh")

    t_layer, sol = median_time(lambda: solve(game), args.repeats)
    print(f"all-yellow Zombie Dice, cap {cap}: first-player win {sol.first_player_win():.10f}, "
          f"{sol.states:,} states")
    print(f"{'method':<28} {'median s':>10} {'sweeps':>7} {'ratio':>8} {'max |dW|':>9}")
    print(f"{'layered (this package)':<28} {t_layer:>10.4f} {'':>7} {'1.0x':>8} {'':>9}")
    for label, full in (("plain VI, full state box", True), ("plain VI, same states", False)):
        t_plain, (Wp, iters) = median_time(
            lambda: plain_value_iteration(G, cap, K, OB, OS, OP, full, 1e-12, 10_000),
            args.baseline_repeats)
        diff = max(float(np.abs(Wp[:G, :G] - sol.win).max()), abs(Wp[G, G] - sol.tie_round_win))
        print(f"{label:<28} {t_plain:>10.4f} {iters:>7d} {t_plain / t_layer:>7.1f}x {diff:>9.1e}")

    print()
    print(f"{'policy vs optimal':<16} {'win 1st':>9} {'win 2nd':>9} {'gap':>10} {'agree':>7} "
          f"{'median s':>9}")
    for name in HUMAN:
        t, r = median_time(lambda: compare_zombie(game, name), 7)
        print(f"{name:<16} {r['win_as_first']:>9.6f} {r['win_as_second']:>9.6f} "
              f"{r['gap']:>10.6f} {r['agreement']:>7.4f} {t:>9.4f}")
    print("(each comparison: one optimal solve, the policy table, two exact match evaluations)")


if __name__ == "__main__":
    main()
