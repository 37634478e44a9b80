"""Benchmark: N-player race solves against their bars.

Run by hand: ``python benchmarks/seats.py [--repeats N] [--quick]``. Prints
the median warm solve time (every seat, every komi vector and goal: one
solve) of 3-player Pig to 100, 3-player Red Light to 50, 3-player Fowl Play
to 50 and 4-player Pig to 50, the peak memory of a fresh process for the
first and third, and the ratio against plain max-n value iteration over all
states of 3-player Pig to a small goal, measured in the same run.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _plain_vi_seats import plain_vi_dice  # noqa: E402
from _timing import median_time  # noqa: E402

from designer import load_game  # noqa: E402
from designer.solve import solve  # noqa: E402
from designer.solve.api import scoring_pips  # noqa: E402

PEAK = """
from designer import load_game
from designer.solve import solve
s = solve(load_game({name!r}, players={players}, goal={goal}))
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(int(hwm.split()[1]) / 1024)
"""

CASES = [("pig", 3, 100, "10 s, 2 GB"), ("red-light", 3, 50, "30 s"),
         ("fowl-play", 3, 50, "2 min, 6 GB"), ("pig", 4, 50, "60 s")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs of each solve")
    ap.add_argument("--baseline-goal", type=int, default=25, help="goal of the plain-VI game")
    args = ap.parse_args()

    solve(load_game("pig", players=3, goal=5))
    solve(load_game("deck", bad=2, good=3, goal=4, players=3))
    plain_vi_dice(6, scoring_pips(load_game("pig")), 4, 3, 1e-12, 10_000)

    print(f"{'game':<10} {'N':>2} {'goal':>4} {'median s':>9} {'peak MB':>8} {'unsettled':>9}  bar")
    for name, players, goal, bar in CASES:
        game = load_game(name, players=players, goal=goal)
        reps = 1 if name == "fowl-play" else args.repeats
        t, sol = median_time(lambda: solve(game), reps)
        peak = ""
        if name in ("pig", "fowl-play") and players == 3:
            out = subprocess.run([sys.executable, "-c", PEAK.format(name=name, players=players,
                                                                     goal=goal)],
                                 capture_output=True, text=True, check=True)
            peak = f"{float(out.stdout):.0f}"
        print(f"{name:<10} {players:>2} {goal:>4} {t:>9.3f} {peak:>8} {sol.unsettled_positions:>9}  {bar}")
        del sol

    G = args.baseline_goal
    game = load_game("pig", players=3, goal=G)
    t_layer, sol = median_time(lambda: solve(game), args.repeats)
    t_plain, (V, sweeps) = median_time(
        lambda: plain_vi_dice(6, scoring_pips(game), G, 3, 1e-12, 100_000), 1)
    diff = float(np.abs(V[:, 0, :].reshape(sol.win.shape) - sol.win).max())
    print(f"3-player Pig to {G}: layered {t_layer:.4f} s, plain VI {t_plain:.3f} s "
          f"({sweeps} sweeps), ratio {t_plain / t_layer:.1f}x, max |dP| {diff:.1e}, "
          f"unsettled {sol.unsettled_positions}")


if __name__ == "__main__":
    main()
