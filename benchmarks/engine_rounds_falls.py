"""Benchmark: the rounds ending where a bust can lower a banked score.

Run by hand: ``python benchmarks/engine_rounds_falls.py [--repeats N]
[--busy]``. Four rows:

* Pig to 100 in equal turns, where scores never fall, solved by both
  two-seat rounds solvers: the iteration over the whole table
  (:func:`designer.engine.rounds_falls.solve_rounds_falls`, two passes
  here) against the layered solver (:func:`designer.engine.rounds.
  solve_rounds_model`) in the same process, the baseline; both tables are
  checked equal to 1e-12. The ratio is what iterating costs where it is
  not needed.
* Two-Dice Pig (snake eyes wipes the score) in equal turns to 50 and 100,
  which only the iteration solves: its time, passes and residual, beside
  the same game in the race (:func:`designer.engine.solve.solve_model`,
  the baseline of that row) for scale.

* Two-Dice Pig to 100 in equal turns solved as ``designer play`` solves
  it, without the game length (the passes stop once the wins settle),
  against the solve with it, the baseline.

* Two-Dice Pig to 100 in equal turns on one thread and on two (numba's
  threads; the two alternate, so both meet the same load), the one-thread
  solve the baseline; the tables are checked identical (the same numbers
  on any number of threads).

The first two rows run on numba's threads (every solver here uses them).
``--busy`` runs everything again
beside one CPU-bound process, where two threads must not take more than
1.2 times the one-thread time. The load average and the processor are
printed first: the machine is shared.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time, one_and_two_threads, run_rows  # noqa: E402

from designer.engine.game import load_rules_game  # noqa: E402
from designer.engine.rounds import solve_rounds_model  # noqa: E402
from designer.engine.rounds_falls import solve_rounds_falls  # noqa: E402
from designer.engine.solve import solve_model  # noqa: E402


def _rows(repeats):
    pig = load_rules_game("pig").rules.model
    base, ref = median_time(lambda: solve_rounds_model(pig, 100), repeats)
    now, got = median_time(lambda: solve_rounds_falls(pig, 100), repeats)
    assert np.abs(got.X[:100, :100] - ref.X).max() < 1e-12
    print(f"  Pig to 100 (never falls): iteration {now:.3f} s ({got.passes} passes), "
          f"layered {base:.3f} s, ratio {now / base:.1f}x")
    tdp = load_rules_game("two-dice-pig").rules.model
    for goal in (50, 100):
        race, r = median_time(lambda: solve_model(tdp, goal, 0), repeats)
        now, got = median_time(lambda: solve_rounds_falls(tdp, goal), repeats)
        print(f"  Two-Dice Pig to {goal}, rounds: {now:.2f} s, {got.passes} passes, residual "
              f"{got.residual:.1e}, first player {got.first_player_win:.6f}; the race "
              f"{race:.3f} s ({r.passes} passes, first player {r.first_player_win:.6f}); "
              f"rounds / race {now / race:.0f}x")


def _play_row(repeats):
    """The solve ``designer play`` runs (the wins alone) against the one
    ``designer solve`` runs (with the game length), the baseline."""
    tdp = load_rules_game("two-dice-pig").rules.model
    base, ref = median_time(lambda: solve_rounds_falls(tdp, 100), repeats)
    now, got = median_time(lambda: solve_rounds_falls(tdp, 100, lengths=False), repeats)
    assert abs(got.first_player_win - ref.first_player_win) < 1e-12
    print(f"  Two-Dice Pig to 100, rounds, play's solve (no length): {now:.2f} s, "
          f"{got.passes} passes; with the length {base:.2f} s, {ref.passes} passes; "
          f"ratio {now / base:.2f}")


def _threads_row(repeats):
    tdp = load_rules_game("two-dice-pig").rules.model
    one, two, r1, r2 = one_and_two_threads(lambda: solve_rounds_falls(tdp, 100), repeats)
    assert all(np.array_equal(getattr(r1, k), getattr(r2, k)) for k in ("X", "LX", "Y", "LY"))
    print(f"  Two-Dice Pig to 100, rounds: one thread {one:.2f} s, two threads {two:.2f} s, "
          f"two / one {two / one:.2f} (tables identical)")


def _warm():
    tiny = load_rules_game("piglet").rules.model
    solve_rounds_falls(tiny, 3)
    solve_rounds_model(tiny, 3)


def main():
    run_rows(__doc__, (_rows, _play_row, _threads_row), _warm)


if __name__ == "__main__":
    main()
