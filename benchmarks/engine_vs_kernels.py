"""Benchmark: the engine (any turn model) against today's family kernels.

Run by hand: ``python benchmarks/engine_vs_kernels.py [--repeats N]
[--threads T]``. Solves Pig and Fowl Play from their rules files with the
engine and from their presets with today's kernels, in the same process,
and prints the medians of several warm runs (the solvers' own ``seconds``,
the kernels' time), the sweeps each needed, the ratio engine / today and
the largest difference between the two tables of turn starts. Two-Dice
Pig, which only the engine solves, is timed once.

On a machine with other busy processes, compare with ``--threads 1``:
numba's threads wait for each other at every score sum, and a busy core
makes those waits dominate both solvers' times.
"""

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from designer import load_game  # noqa: E402
from designer.engine import solve_rules  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules  # noqa: E402
from designer.solve import solve  # noqa: E402


def _today_table(rules, result, today):
    """Largest difference between the engine's and today's turn starts."""
    if rules.model.states == 1:
        return float(np.abs(result.win[:, :, 0] - today.win).max())
    diff = 0.0
    for h, state in enumerate(result.start_states):
        w, c = rules.keys[state]
        diff = max(diff, float(np.abs(result.win[:, :, h] - today.win[:, :, w, c]).max()))
    return diff


def _median_seconds(fn, repeats):
    runs = [fn() for _ in range(repeats)]
    return statistics.median(r.seconds for r in runs), runs[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of each solver")
    ap.add_argument("--threads", type=int, default=0,
                    help="numba threads (default: all of numba's pool)")
    args = ap.parse_args()
    if args.threads:
        import numba

        numba.set_num_threads(args.threads)
    import numba

    print(f"numba threads: {numba.get_num_threads()}")
    print(f"{'game':<14} {'engine s':>9} {'today s':>9} {'ratio':>7} {'sweeps':>13} "
          f"{'max |dP|':>9} {'states':>11}")
    for example, preset in (("pig", "pig"), ("fowl-play", "fowl-play")):
        rules = load_rules(example_path(example))
        game = load_game(preset)
        solve_rules(rules)  # warm: load (or compile) the kernels
        solve(game)
        t_engine, got = _median_seconds(lambda: solve_rules(rules), args.repeats)
        t_today, today = _median_seconds(lambda: solve(game), args.repeats)
        diff = _today_table(rules, got, today)
        sweeps = f"{got.sweeps}/{today.sweeps}"
        print(f"{example:<14} {t_engine:>9.4f} {t_today:>9.4f} {t_engine / t_today:>6.1f}x "
              f"{sweeps:>13} {diff:>9.1e} {got.states:>11,}")
    rules = load_rules(example_path("two-dice-pig"))
    got = solve_rules(rules)
    print(f"{'two-dice-pig':<14} {got.seconds:>9.4f} {'-':>9} {'-':>7} {got.sweeps:>13} "
          f"{'-':>9} {got.states:>11,}  ({got.passes} passes, residual {got.residual:.1e}, "
          f"first player {got.first_player_win:.6f})")


if __name__ == "__main__":
    main()
