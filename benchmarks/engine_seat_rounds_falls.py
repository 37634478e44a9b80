"""Benchmark: the rounds ending for three or four seats where a bust can
lower a banked score (:func:`designer.engine.seat_rounds_falls.solve_seat_rounds_falls`).

Run by hand: ``python benchmarks/engine_seat_rounds_falls.py [--repeats N]
[--busy]``. Three rows:

* what its generality costs: Pig to 20 with three seats, a tie to the
  earlier seat (scores never fall, so the rounds solver of three and four
  seats, :func:`designer.engine.seat_rounds.solve_seat_rounds_model` with
  the game length, solves it too: the baseline, in the same process);
* Two-Dice Pig (snake eyes wipe the score) to 20 with three seats, ties
  replayed, against the same game with two seats by the two-seat solver of
  falling scores (:func:`designer.engine.rounds_falls.solve_rounds_falls`),
  the baseline;
* that solve on one thread and on two (numba's threads; the two
  alternate, so both meet the same load), the one-thread solve the
  baseline; the tables are checked identical.

``--busy`` runs them again beside one CPU-bound process, where two threads
must not take more than 1.2 times the one-thread time. The load average
and the processor are printed first: the machine is shared.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time, one_and_two_threads, run_rows  # noqa: E402

from designer.engine.game import load_rules_game  # noqa: E402
from designer.engine.rounds_falls import solve_rounds_falls  # noqa: E402
from designer.engine.seat_rounds import solve_seat_rounds_model  # noqa: E402
from designer.engine.seat_rounds_falls import estimate, solve_seat_rounds_falls  # noqa: E402

GOAL = 20


def _model(name):
    return load_rules_game(name, ending="rounds").rules.model


def _general_row(repeats):
    pig = _model("pig")
    base, a = median_time(lambda: solve_seat_rounds_model(pig, GOAL, 3, ties="earlier-seat",
                                                          length=True), repeats)
    now, b = median_time(lambda: solve_seat_rounds_falls(pig, GOAL, 3, ties="earlier-seat"),
                         repeats)
    same = abs(a.win[0, 0, 0] - b.win[0, 0, 0]).max()
    print(f"  Pig to {GOAL}, 3 seats, earlier-seat: this solver {now:.2f} s ({b.passes} passes, "
          f"{b.unsettled_positions} tuples cycling); the rounds solver {base:.2f} s; ratio "
          f"{now / base:.1f} (start values apart by {same:.1e})")


def _seats_row(repeats):
    tdp = _model("two-dice-pig")
    base, a = median_time(lambda: solve_rounds_falls(tdp, GOAL), repeats)
    now, b = median_time(lambda: solve_seat_rounds_falls(tdp, GOAL, 3), repeats)
    est = estimate(tdp, GOAL, 3)["seconds"]
    print(f"  Two-Dice Pig to {GOAL}, 3 seats, replay: {now:.2f} s ({b.passes} passes, residual "
          f"{b.residual:.1e}, estimate {est:.1f} s); 2 seats {base:.2f} s ({a.passes} passes); "
          f"ratio {now / base:.1f}")


def _threads_row(repeats):
    tdp = _model("two-dice-pig")
    one, two, a, b = one_and_two_threads(lambda: solve_seat_rounds_falls(tdp, GOAL, 3), repeats)
    assert np.array_equal(a.win, b.win) and np.array_equal(a.actions, b.actions)
    print(f"  that solve on one thread {one:.2f} s, two threads {two:.2f} s, two / one "
          f"{two / one:.2f} (tables identical)")


def _warm():
    solve_seat_rounds_falls(_model("two-dice-pig"), 2, 3)
    solve_seat_rounds_model(_model("pig"), 2, 3, length=True)


def main():
    run_rows(__doc__, (_general_row, _seats_row, _threads_row), _warm)


if __name__ == "__main__":
    main()
