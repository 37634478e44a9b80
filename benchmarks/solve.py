"""Benchmark: layered solver vs plain value iteration (score pairs in decreasing sum).

Run by hand: ``python benchmarks/solve.py [--repeats N]``. Prints medians of
several warm runs for Red Light and Fowl Play, the ratio against plain value
iteration over all states measured in the same process, the largest
difference between the two answers, and the peak memory of a fresh process
that solves Fowl Play.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time  # noqa: E402

from _plain_vi import plain_value_iteration  # noqa: E402

from designer import load_game  # noqa: E402
from designer.solve import solve  # noqa: E402




# VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork + exec, so a child
# of this (large) process would report the parent's peak.
PEAK = """
from designer import load_game
from designer.solve import solve
s = solve(load_game("fowl-play"))
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(int(hwm.split()[1]) / 1024)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of the layered solver")
    ap.add_argument("--baseline-repeats", type=int, default=3, help="runs of plain VI")
    args = ap.parse_args()

    # warm (compile or load from cache) both methods
    solve(load_game("deck", bad=2, good=3, goal=4))
    plain_value_iteration(2, 3, 4, 1e-12, 10_000)

    print(f"{'game':<10} {'layered s':>10} {'plain VI s':>11} {'VI sweeps':>9} {'ratio':>7} "
          f"{'max |dP|':>9}")
    for name in ("red-light", "fowl-play"):
        game = load_game(name)
        t_layer, sol = median_time(lambda: solve(game), args.repeats)
        t_plain, (P, iters) = median_time(
            lambda: plain_value_iteration(game.bad, game.good, game.goal, 1e-12, 10_000),
            args.baseline_repeats)
        diff = float(np.abs(P - sol.win).max())
        print(f"{name:<10} {t_layer:>10.4f} {t_plain:>11.3f} {iters:>9d} {t_plain / t_layer:>6.1f}x "
              f"{diff:>9.1e}")
    peak = subprocess.run([sys.executable, "-c", PEAK], capture_output=True, text=True, check=True)
    print(f"peak memory of a process solving Fowl Play: {float(peak.stdout):.0f} MB")


if __name__ == "__main__":
    main()
