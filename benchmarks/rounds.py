"""Benchmark: the rounds ending (SPEC 1.6) against the race of the same game.

Run by hand: ``python benchmarks/rounds.py [--repeats N] [--three]``. For
two-player Fowl Play and Pig it prints the median warm time of the race solve
and of the rounds solve measured in the same process, their ratio (the bar:
at most 3), and the headline figures. ``--three`` adds three-player rounds
solves (Pig to 50, Red Light to 30, Fowl Play to 20) with their unsettled
max-n positions. Give ``uptime`` load beside every figure.
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time  # noqa: E402

from designer import load_game  # noqa: E402
from designer.solve import solve  # noqa: E402


def _load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--three", action="store_true", help="also three-player rounds solves")
    args = ap.parse_args()
    for name in ("fowl-play", "pig"):
        race = load_game(name)
        rounds = load_game(name, ending="rounds")
        solve(race.with_goal(5)), solve(rounds.with_goal(5))  # compile / load the kernels
        tr, sr = median_time(lambda: solve(race), args.repeats)
        to, so = median_time(lambda: solve(rounds), args.repeats)
        print(f"{name:10s} race {tr:7.3f} s   rounds {to:7.3f} s   ratio {to / tr:5.2f}   "
              f"({_load()})")
        print(f"{'':10s} rounds: seat win {so.seat_win()}, fair komi {so.fair_komi()}, "
              f"expected actions {so.expected_actions():.3f}, sweeps/tuple "
              f"{so.sweeps / so.start_win.shape[0]:.2f}")
    if args.three:
        for name, goal in (("pig", 50), ("red-light", 30), ("fowl-play", 20)):
            g = load_game(name, ending="rounds", players=3, goal=goal, komi=0)
            t, s = median_time(lambda: solve(g), 1)
            print(f"3 players {name} goal {goal}: {t:.2f} s, seat win "
                  f"{[round(p, 6) for p in s.seat_win()]}, unsettled {s.unsettled} "
                  f"(largest residual {s.unsettled_residual:.1e}) ({_load()})")


if __name__ == "__main__":
    main()
