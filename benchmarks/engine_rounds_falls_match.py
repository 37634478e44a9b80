"""Benchmark: two policies head to head in equal turns where a bust can
lower a banked score (what ``designer compare`` and strategy cards run).

Run by hand: ``python benchmarks/engine_rounds_falls_match.py [--repeats N]
[--busy]``. Two rows, on Two-Dice Pig to 50 (snake eyes wipes the score),
``hold-at:20`` against optimal play:

* the match (:func:`designer.engine.rounds_falls_match.match_rounds_falls`,
  both seatings) against the falls solve it reads optimal play from
  (:func:`designer.engine.rounds_falls.solve_rounds_falls` at the same
  cap, without the game length), the baseline, in the same process: what
  a comparison costs beyond its solve;
* the match on one thread and on two (numba's threads; the two alternate,
  so both meet the same load), the one-thread match the baseline; the
  tables are checked identical.

``--busy`` runs both again beside one CPU-bound process, where two threads
must not take more than 1.2 times the one-thread time. The load average
and the processor are printed first: the machine is shared.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time, one_and_two_threads, run_rows  # noqa: E402

from designer.engine._match_kernels import HOLD_AT, OPTIMAL  # noqa: E402
from designer.engine.game import load_rules_game  # noqa: E402
from designer.engine.match import RulesPolicy  # noqa: E402
from designer.engine.rounds_falls import solve_rounds_falls  # noqa: E402
from designer.engine.rounds_falls_match import match_rounds_falls  # noqa: E402

GOAL = 50
HOLD = RulesPolicy(HOLD_AT, "hold-at:20", 20)
OPT = RulesPolicy(OPTIMAL, "optimal")


def _model():
    return load_rules_game("two-dice-pig").rules.model


def _match_row(repeats):
    tdp = _model()
    base, sol = median_time(lambda: solve_rounds_falls(tdp, GOAL, lengths=False), repeats)
    now, m = median_time(lambda: match_rounds_falls(tdp, GOAL, HOLD, OPT, solution=sol,
                                                    bank_wins=True), repeats)
    assert m.cap == sol.cap
    print(f"  Two-Dice Pig to {GOAL}, rounds, hold-at:20 against optimal: match {now:.2f} s "
          f"(both seatings, {m.passes} passes, residual {m.residual:.1e}); the solve "
          f"{base:.2f} s ({sol.passes} passes); ratio {now / base:.2f}")


def _threads_row(repeats):
    tdp = _model()
    sol = solve_rounds_falls(tdp, GOAL, lengths=False)
    one, two, m1, m2 = one_and_two_threads(
        lambda: match_rounds_falls(tdp, GOAL, HOLD, OPT, solution=sol, bank_wins=True), repeats)
    assert np.array_equal(m1.win, m2.win) and np.array_equal(m1.actions, m2.actions)
    print(f"  the match on one thread {one:.2f} s, two threads {two:.2f} s, two / one "
          f"{two / one:.2f} (tables identical)")


def main():
    # load the kernels before timing
    run_rows(__doc__, (_match_row, _threads_row),
             lambda: match_rounds_falls(_model(), 3, HOLD, OPT))


if __name__ == "__main__":
    main()
