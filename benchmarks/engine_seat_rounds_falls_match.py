"""Benchmark: a fixed policy at one seat of three where a bust can lower a
banked score, the others optimal
(:meth:`designer.engine.seat_rounds_falls_match.FallsSeatSolve.profile`,
what ``designer compare`` and strategy cards run).

Run by hand: ``python benchmarks/engine_seat_rounds_falls_match.py
[--repeats N] [--busy]``. Three rows, on Two-Dice Pig (snake eyes wipe the
score) with three seats, ties replayed:

* ``hold-at:10`` to 12: the evaluation (the policy at each seat, and in
  each smaller game of a tie at each place: five games) against the solve
  at the same cap, the baseline (in the same process), with the estimate;
* a rule reading the highest other score, to 12, the same way;
* that ``hold-at:10`` evaluation on one thread and on two (numba's threads;
  the two alternate, so both meet the same load), the one-thread run the
  baseline; the wins are checked identical.

``--busy`` runs them again beside one CPU-bound process, where two threads
must not take more than 1.2 times the one-thread time. The load average
and the processor are printed first: the machine is shared.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_time, one_and_two_threads, run_rows  # noqa: E402

from designer.engine._match_kernels import HOLD_AT, TABLE  # noqa: E402
from designer.engine.game import load_rules_game  # noqa: E402
from designer.engine.match import RulesPolicy  # noqa: E402
from designer.engine.seat_rounds_falls import solve_seat_rounds_falls  # noqa: E402
from designer.engine.seat_rounds_match import profile_estimate, seat_rounds_solve  # noqa: E402
from designer.policies.rules import Rule  # noqa: E402

GOAL = 12
HOLD = RulesPolicy(HOLD_AT, "hold-at:10", 10)


def _model():
    return load_rules_game("two-dice-pig", ending="rounds").rules.model


def _rule(model):
    text = "j >= 8 -> below 12; below 6"
    return RulesPolicy(TABLE, f"rule:{text}",
                       source=Rule.parse("rules", text, model.feature_names))


def _row(policy, repeats):
    m = _model()
    policy = policy if isinstance(policy, RulesPolicy) else policy(m)
    solved = seat_rounds_solve(m, GOAL, 3, policy)
    base, _ = median_time(lambda: solve_seat_rounds_falls(m, GOAL, 3, cap=solved.cap,
                                                          lengths=False), repeats)
    now, p = median_time(lambda: solved.profile(policy), repeats)
    est = profile_estimate(m, GOAL, 3, policy)["seconds"]
    wins = ", ".join(f"{p.seat_win(s, (0, 0, 0))[s]:.4%}" for s in range(3))
    print(f"  {policy.name} to {GOAL}, cap {solved.cap}: evaluation {now:.2f} s "
          f"({p.tie_iterations} passes in all, residual {p.residual:.1e}); the solve "
          f"{base:.2f} s; ratio {now / base:.2f}; estimate of both {est:.1f} s; seats {wins}")


def _hold_row(repeats):
    _row(HOLD, repeats)


def _rule_row(repeats):
    _row(_rule, repeats)


def _threads_row(repeats):
    m = _model()
    solved = seat_rounds_solve(m, GOAL, 3, HOLD)
    one, two, a, b = one_and_two_threads(lambda: solved.profile(HOLD), repeats)
    assert np.array_equal(a.win, b.win)
    print(f"  that evaluation on one thread {one:.2f} s, two threads {two:.2f} s, two / one "
          f"{two / one:.2f} (wins identical)")


def _warm():
    m = _model()
    seat_rounds_solve(m, 2, 3, RulesPolicy(HOLD_AT, "hold-at:1", 1), cap=4).profile(
        RulesPolicy(HOLD_AT, "hold-at:1", 1))


def main():
    run_rows(__doc__, (_hold_row, _rule_row, _threads_row), _warm)


if __name__ == "__main__":
    main()
