"""Benchmark: exact head-to-head evaluation against Monte Carlo simulation.

Run by hand: ``python benchmarks/compare.py [--repeats N] [--games N]``.
For Fowl Play, max-score against optimal, it prints the median wall time of

* the exact evaluation (``designer.analysis.match_table`` on prebuilt policy
  tables: both seatings, every goal and komi, to ~1e-15),
* the whole ``compare`` (policy tables, evaluation, agreement over every
  decision state; the solve for ``optimal`` is cached and not timed),
* a Monte Carlo replay of the same match (``designer.simulate.replay``),
  both seatings, ``--games`` games each,

all in the same process, and the ratio of the time Monte Carlo needs to get
the average win rate to a standard error of 1e-4 (extrapolated linearly in
the number of games from the measured run) to the exact evaluation time.
It also prints the standard error Monte Carlo reaches in the exact
evaluation's time.
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

# measure this checkout, not whichever designer is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer import load_game  # noqa: E402
from designer.analysis import compare, match_table  # noqa: E402
from designer.policies import MaxScorePolicy, OptimalPolicy  # noqa: E402
from designer.simulate.replay import replay_deck  # noqa: E402


def median_time(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--games", type=int, default=200_000, help="Monte Carlo games per seating")
    ap.add_argument("--target-se", type=float, default=1e-4)
    args = ap.parse_args()

    game = load_game("fowl-play")
    a, b = MaxScorePolicy(game), OptimalPolicy(game)
    ta, tb = a.table(), b.table()
    # warm every kernel
    match_table(game, ta, tb)
    compare(game, a, b)
    replay_deck(game, ta, tb, 100, seed=0)

    t_exact, m = median_time(lambda: match_table(game, ta, tb), args.repeats)
    exact = 0.5 * (m.win_as_first() + m.win_as_second())
    t_cmp, r = median_time(lambda: compare(game, MaxScorePolicy(game), OptimalPolicy(game)),
                           args.repeats)
    n = args.games

    def mc():
        first, _ = replay_deck(game, ta, tb, n, seed=1)
        second, _ = replay_deck(game, tb, ta, n, seed=2)
        return 0.5 * (first + 1 - second)

    t_mc, est = median_time(mc, max(3, args.repeats // 2))
    se = 0.5 * math.sqrt(exact * (1 - exact) / n * 2)  # mean of two independent shares
    t_target = t_mc * (se / args.target_se) ** 2
    se_same_time = se * math.sqrt(t_mc / t_exact)

    print("Fowl Play, max-score vs optimal (exact average win "
          f"{exact:.6f}; as first {m.win_as_first():.6f}, as second {m.win_as_second():.6f})")
    print(f"  exact evaluation (tables given)     {t_exact * 1e3:9.1f} ms  (median of {args.repeats})")
    print(f"  compare() incl. tables + agreement  {t_cmp * 1e3:9.1f} ms  "
          f"(agreement {r.agreement:.4f} over {r.states:,} states)")
    print(f"  Monte Carlo, 2 x {n:,} games        {t_mc * 1e3:9.1f} ms  "
          f"estimate {est:.5f}, standard error {se:.1e}")
    print(f"  Monte Carlo to standard error {args.target_se:.0e}: {t_target:9.2f} s "
          f"(extrapolated) = {t_target / t_exact:,.0f}x the exact evaluation")
    print(f"  in the exact evaluation's time Monte Carlo reaches a standard error of "
          f"{se_same_time:.1e}")


if __name__ == "__main__":
    main()
