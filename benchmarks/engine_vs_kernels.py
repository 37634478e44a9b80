"""Benchmark: the engine (any turn model) against today's family kernels.

Run by hand: ``python benchmarks/engine_vs_kernels.py [--repeats N]
[--no-busy] [--no-farkle]``. Everything runs in one process, so the two
solvers meet the same machine:

1. **One thread.** Pig and Fowl Play from their rules files with the
   engine and from their presets with today's kernels; the medians of
   several warm runs (the solvers' own ``seconds``), the sweeps each
   needed, the ratio engine / today and the largest difference between the
   two tables of turn starts. Two-Dice Pig, which only the engine solves,
   beside them.
2. **Two threads, then two threads beside a busy process.** The same
   solves on numba's two threads, first as the machine is, then with one
   CPU-bound process (``python -c "while True: pass"``) started beside
   them; each against its one-thread median, taken in the same rounds (one
   and two threads alternate, so both see the same load). A solve should
   not take more than 1.2 times its one-thread time beside a busy process.
3. **Farkle to 10,000**, two players, exact: time, first-player win,
   positions and the memory its tables need.
4. **``designer rules check``** of every shipped example, as a user runs
   it (a new process each time, start-up included): the median of three
   against the bar of 2 s, on the machine as it is and beside one
   CPU-bound process. Before it, full Zombie Dice's turn model built as
   the check builds it (a breadth-first level at a time in arrays) against
   the baseline, the same model built a state at a time in Python's
   integers (the two must be equal).

The load average is printed first: the machine is shared, and other
processes move every figure here.
"""

import argparse
from dataclasses import fields
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Busy, median_time  # noqa: E402

from designer import load_game  # noqa: E402
from designer.engine import solve_rules  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules  # noqa: E402
from designer.engine.solve import memory_needed, plan  # noqa: E402
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


def _load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def one_thread(repeats):
    numba.set_num_threads(1)
    print(f"\n1. one thread ({_load()})")
    print(f"{'game':<14} {'engine s':>9} {'today s':>9} {'ratio':>7} {'sweeps':>13} "
          f"{'max |dP|':>9} {'states':>11}")
    for example, preset in (("pig", "pig"), ("fowl-play", "fowl-play")):
        rules = load_rules(example_path(example))
        game = load_game(preset)
        solve_rules(rules)  # warm: load (or compile) the kernels
        solve(game)
        t_engine, got = _median_seconds(lambda: solve_rules(rules), repeats)
        t_today, today = _median_seconds(lambda: solve(game), repeats)
        diff = _today_table(rules, got, today)
        sweeps = f"{got.sweeps}/{today.sweeps}"
        print(f"{example:<14} {t_engine:>9.4f} {t_today:>9.4f} {t_engine / t_today:>6.2f}x "
              f"{sweeps:>13} {diff:>9.1e} {got.states:>11,}")
    rules = load_rules(example_path("two-dice-pig"))
    t, got = _median_seconds(lambda: solve_rules(rules), repeats)
    print(f"{'two-dice-pig':<14} {t:>9.4f} {'-':>9} {'-':>7} {got.sweeps:>13} "
          f"{'-':>9} {got.states:>11,}  ({got.passes} passes, residual {got.residual:.1e}, "
          f"first player {got.first_player_win:.6f})")


def threads(repeats, busy):
    """Medians of one- and two-thread solves, alternating, optionally beside
    a busy process."""
    hog = None
    if busy:
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(1.0)
    try:
        label = "two threads beside one busy process" if busy else "two threads"
        print(f"\n2. {label} ({_load()})")
        print(f"{'game':<14} {'solver':<7} {'1 thread s':>10} {'2 threads s':>11} {'2 / 1':>7}")
        for example in ("pig", "fowl-play", "two-dice-pig"):
            rules = load_rules(example_path(example))
            game = load_game(example) if example != "two-dice-pig" else None
            solvers = [("engine", lambda: solve_rules(rules))]
            if game is not None:
                solvers.append(("today", lambda: solve(game)))
            for name, fn in solvers:
                fn()
                one, two = [], []
                for _ in range(repeats):
                    numba.set_num_threads(1)
                    one.append(fn().seconds)
                    numba.set_num_threads(2)
                    two.append(fn().seconds)
                a, b = statistics.median(one), statistics.median(two)
                print(f"{example:<14} {name:<7} {a:>10.4f} {b:>11.4f} {b / a:>6.2f}x")
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def farkle():
    rules = load_rules(example_path("farkle"))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    p = plan(rules.model, rules.goal)
    need = memory_needed(p, numba.config.NUMBA_NUM_THREADS)
    print(f"\n3. Farkle to {rules.goal_points:,} points, two players ({_load()}, "
          f"{numba.get_num_threads()} threads)")
    solve_rules(load_rules(example_path("piglet")))  # load the kernels
    got = solve_rules(rules)
    print(f"first player wins {got.first_player_win:.6f}; {got.seconds:.2f} s; "
          f"{got.states:,} positions ({rules.model.states} turn states, "
          f"{rules.model.outcomes} outcomes); tables {need / 2**20:,.0f} MB; "
          f"residual {got.residual:.1e}")


def cup_enumeration(repeats=5):
    """Full Zombie Dice's turn model, in arrays and a state at a time."""
    import designer.engine.cup as C

    rules = load_rules(example_path("zombie-dice"))
    cup, m = rules.part, rules.model
    flags = (m.forced_first, m.min_bank, m.floor)

    def cold(build):  # as in a new process: nothing cached from an earlier build
        def run():
            for f in (C._faces, C._thrown, C._roll, C._coded_roll):
                f.cache_clear()
            return build()
        return run

    fast = cold(lambda: cup.enumerate(forced_first=flags[0], min_bank=flags[1], floor=flags[2]))
    exact = cold(lambda: cup._enumerate_exact(*flags))
    a, b = fast()[0], exact()[0]
    same = all(np.array_equal(getattr(a, f.name), getattr(b, f.name))
               if isinstance(getattr(a, f.name), np.ndarray) else getattr(a, f.name) == getattr(b, f.name)
               for f in fields(a))
    t_fast, t_exact = median_time(fast, repeats)[0], median_time(exact, repeats)[0]
    print(f"\n4. full Zombie Dice's turn model ({m.states:,} states, {m.outcomes:,} outcomes; "
          f"{_load()}): in arrays {t_fast:.3f} s, a state at a time {t_exact:.3f} s, ratio "
          f"{t_fast / t_exact:.2f}; models equal: {same}")


def rules_check(repeats=3, busy=False):
    from designer.engine.rulesfile import examples

    print(f"\n   designer rules check, a new process each time ({_load()}"
          f"{', beside one CPU-bound process' if busy else ''}; bar: 2 s)")
    for name in examples():
        cmd = [sys.executable, "-m", "designer", "rules", "check", f"rules:{name}", "--json"]

        def run():
            subprocess.run(cmd, check=True, capture_output=True)

        run()  # numba's cache and the file system warm
        secs, _ = median_time(run, repeats)
        print(f"  {name:<18} {secs:5.2f} s  {'ok' if secs < 2.0 else 'OVER THE BAR'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of each solver")
    ap.add_argument("--no-busy", action="store_true", help="skip the busy-machine rounds")
    ap.add_argument("--no-farkle", action="store_true", help="skip Farkle")
    ap.add_argument("--no-check", action="store_true", help="skip the rules checks")
    args = ap.parse_args()
    print(f"numba threads: {numba.config.NUMBA_NUM_THREADS}, {_load()}")
    one_thread(args.repeats)
    threads(args.repeats, busy=False)
    if not args.no_busy:
        threads(args.repeats, busy=True)
    if not args.no_farkle:
        farkle()
    if not args.no_check:
        cup_enumeration()
        rules_check()
        if not args.no_busy:
            with Busy():
                rules_check(busy=True)


if __name__ == "__main__":
    main()
