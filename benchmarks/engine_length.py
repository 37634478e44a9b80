"""Benchmark: the expected game length of a rules game (two seats, race).

Run by hand: ``python benchmarks/engine_length.py [--repeats N] [--no-busy]``.
In one process, so every figure meets the same machine:

1. For Pig, Fowl Play, Red Light, Two-Dice Pig and Farkle (its shipped goal
   of 10,000 points): the engine's solve, the game length over the solved
   table (:func:`designer.engine.length.game_lengths`) and the general match
   of optimal play against itself (:func:`designer.engine.match.match_model`,
   the only way to the length before), medians of the kernels' own seconds;
   the ratios length / solve and match / length, and the largest difference
   between the two length tables.
2. Where a coded family solves the same game (Pig, Fowl Play, Red Light):
   today's solve, which gives the length with the win, against the engine's
   solve plus its length.
3. The length on one thread and on two, alternating, as the machine is and
   beside one CPU-bound process: at most 1.2x the one-thread time beside it.

The load average is printed with every section.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import numba
import numpy as np

from designer import load_game
from designer.engine._match_kernels import OPTIMAL
from designer.engine.length import game_lengths
from designer.engine.match import RulesPolicy, match_model
from designer.engine.rulesfile import example_path, load_rules
from designer.engine.solve import solve_model
from designer.solve import solve

GAMES = ("pig", "fowl-play", "red-light", "two-dice-pig", "farkle")


def _load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _median(fn, repeats):
    runs = [fn() for _ in range(repeats)]
    return statistics.median(r[1] if isinstance(r, tuple) else r.seconds for r in runs), runs[-1]


def lengths(repeats):
    print(f"\n1. solve, game length and the general match ({_load()}, "
          f"{numba.get_num_threads()} threads)")
    print(f"{'game':<13} {'solve s':>8} {'length s':>9} {'match s':>8} {'length/solve':>13} "
          f"{'match/length':>13} {'max |dL|':>9} {'length':>9}")
    opt = RulesPolicy(OPTIMAL, "optimal")
    for name in GAMES:
        rules = load_rules(example_path(name))
        model, goal = rules.model, rules.goal
        reps = 1 if name == "farkle" else repeats
        t_solve, sol = _median(lambda: solve_model(model, goal, 0), reps)
        game_lengths(model, sol)  # load the kernels
        t_len, (L, _) = _median(lambda: game_lengths(model, sol), reps)
        t_match, m = _median(lambda: match_model(model, goal, opt, opt, solution=sol), reps)
        diff = float(np.abs(L - m.actions[0]).max())
        lo = -sol.floor
        print(f"{name:<13} {t_solve:>8.3f} {t_len:>9.3f} {t_match:>8.3f} "
              f"{t_len / t_solve:>12.2f}x {t_match / t_len:>12.1f}x {diff:>9.1e} "
              f"{L[lo, lo + rules.komi, 0]:>9.3f}")


def today(repeats):
    print(f"\n2. today's solve (win and length) against the engine's solve + length ({_load()})")
    print(f"{'game':<13} {'today s':>8} {'engine s':>9} {'ratio':>7} {'|dL| at start':>14}")
    for name in ("pig", "fowl-play", "red-light"):
        rules = load_rules(example_path(name))
        game = load_game(name)
        solve(game)

        def engine():
            sol = solve_model(rules.model, rules.goal, 0)
            L, sec = game_lengths(rules.model, sol)
            return L, sol.seconds + sec

        t_today, got = _median(lambda: solve(game), repeats)
        t_engine, (L, _) = _median(engine, repeats)
        d = abs(L[0, rules.komi, 0] - got.expected_actions(rules.goal, rules.komi))
        print(f"{name:<13} {t_today:>8.4f} {t_engine:>9.4f} {t_engine / t_today:>6.2f}x "
              f"{d:>14.1e}")


def threads(repeats, busy):
    hog = None
    if busy:
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(1.0)
    try:
        label = "beside one busy process" if busy else "as the machine is"
        print(f"\n3. the length on one and two threads, {label} ({_load()})")
        print(f"{'game':<13} {'1 thread s':>10} {'2 threads s':>11} {'2 / 1':>7}")
        for name in ("pig", "fowl-play", "red-light"):
            rules = load_rules(example_path(name))
            sol = solve_model(rules.model, rules.goal, 0)
            one, two = [], []
            for _ in range(repeats):
                numba.set_num_threads(1)
                one.append(game_lengths(rules.model, sol)[1])
                numba.set_num_threads(2)
                two.append(game_lengths(rules.model, sol)[1])
            a, b = statistics.median(one), statistics.median(two)
            print(f"{name:<13} {a:>10.4f} {b:>11.4f} {b / a:>6.2f}x")
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-busy", action="store_true", help="skip the run beside a busy process")
    args = ap.parse_args()
    print(f"numba threads: {numba.config.NUMBA_NUM_THREADS}, {_load()}")
    lengths(args.repeats)
    today(args.repeats)
    threads(args.repeats, False)
    if not args.no_busy:
        threads(args.repeats, True)


if __name__ == "__main__":
    main()
