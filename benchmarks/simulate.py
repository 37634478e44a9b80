"""Benchmark: Persian Monarchs simulation (numba, joblib threads) vs plain Python.

Run by hand: ``python benchmarks/simulate.py [--games N] [--repeats R]``.
Prints games per second (median of several warm runs) of
``simulate_pairing`` with ``n_jobs`` 1 and 2, and the ratio against the
plain-Python simulation in ``tests/wager_reference.py`` measured in the same
process on a few hundred games. The baseline plays the very same hands (same
random-number scheme); the script checks that its games equal the kernel's.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the checkout this script lives in, not whatever `designer` is installed
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import wager_reference as ref  # noqa: E402

from designer import load_game  # noqa: E402
from designer.simulate import wager  # noqa: E402


def median_rate(fn, games, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return games / statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000, help="games per numba run")
    ap.add_argument("--repeats", type=int, default=5, help="runs per setting")
    ap.add_argument("--baseline-games", type=int, default=300, help="games per plain-Python run")
    ap.add_argument("--baseline-repeats", type=int, default=3)
    ap.add_argument("--opponent", default="random")
    args = ap.parse_args()

    game = load_game("persian-monarchs")
    pair = ("counting", args.opponent)
    wager.simulate_pairing(game, *pair, 10, n_jobs=2)  # warm kernel and thread pool

    n = args.baseline_games
    base = median_rate(lambda: ref.play_games(*pair, n, 0, wager.CHUNK), n, args.baseline_repeats)
    same = list(ref.play_games(*pair, n, 0, wager.CHUNK)) == [
        a.tolist() for a in wager.play_games(game, *pair, n, seed=0)]

    print(f"Persian Monarchs, {pair[0]} vs {pair[1]}, {game.hands} hands per game")
    print(f"{'method':<22} {'games/s':>12} {'vs plain Python':>16}")
    print(f"{'plain Python':<22} {base:>12,.0f} {'1.0x':>16}")
    rates = {}
    for jobs in (1, 2):
        rates[jobs] = median_rate(
            lambda: wager.simulate_pairing(game, *pair, args.games, seed=1, n_jobs=jobs),
            args.games, args.repeats)
        print(f"{f'numba, n_jobs={jobs}':<22} {rates[jobs]:>12,.0f} {rates[jobs] / base:>15,.0f}x")
    print(f"n_jobs=2 / n_jobs=1: {rates[2] / rates[1]:.2f}x   "
          f"(median of {args.repeats} runs of {args.games:,} games; baseline median of "
          f"{args.baseline_repeats} runs of {n} games)")
    print(f"baseline plays the same games as the kernel: {same}")


if __name__ == "__main__":
    main()
