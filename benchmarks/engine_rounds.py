"""Benchmark: the engine's rounds ending against today's family solvers.

Run by hand: ``python benchmarks/engine_rounds.py [--repeats N]
[--zombie-repeats N] [--no-zombie] [--no-busy]``. Everything runs in one
process, so the solvers meet the same machine:

1. **Engine and today.** Pig to 100 under the rounds ending (the engine
   from the shipped ``pig`` rules at ``ending = "rounds"``, today's dice
   kernel from ``load_game("pig", ending="rounds")``), all-yellow Zombie
   Dice (a rules file written here, against ``load_game("zombie-yellow")``)
   full Zombie Dice (the shipped ``zombie-dice`` rules, against
   ``load_game("zombie-dice")``) and two decks, Fowl Play and Red Light
   (each written as rules by :mod:`designer.engine.family_rules`, against
   today's deck kernel), on every thread numba has, then the
   small games on one thread: the median
   wall time of each call (engine and today alternate), the ratio engine /
   today, and the largest difference between seat 1's win probabilities
   at the round starts (today's Zombie solvers cap the score 50 or 30
   above the goal, the engine 60).
2. **One thread and all threads, quiet, then beside a busy process.** The
   engine's solves on one thread and on every thread, alternating, as the
   machine is and then with one CPU-bound process (``python -c "while
   True: pass"``) started beside them: all threads should beat one on a
   quiet machine, and take at most 1.2 times the one-thread time beside
   a busy process.

The load average and the processor are printed first: the machine is
shared, and other processes move every figure here.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

import numba
import numpy as np

from designer import load_game
from designer.engine.family_rules import as_rules_game
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.solve import solve

#: All-yellow Zombie Dice as a rules file: three dice, each a brain (1
#: point), a shotgun (set aside; three end the turn with nothing) or
#: footprints; the three dice are always thrown.
ALL_YELLOW = """name = "All-yellow Zombie Dice"
goal = 13
ending = "rounds"
[dice]
count = 3
sides = 3
other_faces = 0
face.1 = { points = 1 }
face.2 = { aside = true }
aside_bust = 3
refill = true
"""


def _load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def _cases(zombie):
    """``(name, engine, today, difference)``: two solves and the largest
    difference between their round starts."""
    pig = load_rules(example_path("pig")).model
    yellow = parse_rules(ALL_YELLOW).model
    pig_game = load_game("pig", ending="rounds")
    yellow_game = load_game("zombie-yellow")

    def pig_diff(e, t):
        return float(np.abs(e.X[:, :, 0] - t.start_win.reshape(100, 100, 2)[..., 0]).max())

    def zombie_diff(e, t):
        return float(np.abs(e.X[:, :, 0] - t.win).max())

    cases = [("pig 100", lambda: solve_rounds_model(pig, 100), lambda: solve(pig_game),
              pig_diff),
             ("all-yellow 13", lambda: solve_rounds_model(yellow, 13),
              lambda: solve(yellow_game), zombie_diff)]
    for name in ("fowl-play", "red-light"):
        cases.append(_deck_case(name))
    if zombie:
        full = load_rules(example_path("zombie-dice")).model
        full_game = load_game("zombie-dice")
        cases.append(("zombie-dice 13", lambda: solve_rounds_model(full, 13),
                      lambda: solve(full_game), zombie_diff))
    return cases


def _deck_case(name):
    """A deck preset under the rounds ending: the engine on its rules form
    (the full deck at the round's start, both scores below the goal)
    against today's deck kernel."""
    game = load_game(name, ending="rounds")
    rules = as_rules_game(game).rules
    G = game.goal

    def diff(e, t):
        h0 = int(np.searchsorted(e.start_states, 0))
        return float(np.abs(e.X[:, :, h0] - t.start_win.reshape(G, G, 2)[..., 0]).max())

    return (f"{name} {G}", lambda: solve_rounds_model(rules.model, G), lambda: solve(game),
            diff)


def engine_and_today(cases, repeats, zombie_repeats, nt):
    numba.set_num_threads(nt)
    print(f"\n1. engine and today, {nt} thread{'s' if nt > 1 else ''} ({_load()})")
    print(f"{'game':<15} {'engine s':>9} {'today s':>9} {'ratio':>7} {'max |dP|':>9}")
    for name, engine, today, diff in cases:
        n = zombie_repeats if name.startswith("zombie-dice") else repeats
        if n < 1:
            continue
        if n > 1 or not name.startswith("zombie-dice"):
            engine()
            today()
        te, tt = [], []
        for _ in range(n):
            t, e = _timed(engine)
            te.append(t)
            t, f = _timed(today)
            tt.append(t)
        a, b = statistics.median(te), statistics.median(tt)
        print(f"{name:<15} {a:>9.4f} {b:>9.4f} {a / b:>6.2f}x {diff(e, f):>9.1e}", flush=True)


def threads(cases, repeats, zombie_repeats, busy):
    """Medians of the engine's solves on one thread and on all, alternating,
    optionally beside a busy process."""
    hog = None
    if busy:
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(1.0)
    try:
        nt = numba.config.NUMBA_NUM_THREADS
        label = "beside one busy process" if busy else "quiet"
        print(f"\n2. one thread and {nt}, {label} ({_load()})")
        print(f"{'game':<15} {'1 thread s':>10} {f'{nt} threads s':>12} {'ratio':>7}")
        for name, engine, _, _ in cases:
            n = zombie_repeats if name.startswith("zombie-dice") else repeats
            if n < 1:
                continue
            engine()
            one, many = [], []
            for _ in range(n):
                numba.set_num_threads(1)
                one.append(_timed(engine)[0])
                numba.set_num_threads(nt)
                many.append(_timed(engine)[0])
            a, b = statistics.median(one), statistics.median(many)
            print(f"{name:<15} {a:>10.4f} {b:>12.4f} {b / a:>6.2f}x", flush=True)
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9, help="runs of each small solve")
    ap.add_argument("--zombie-repeats", type=int, default=3,
                    help="runs of each full Zombie Dice solve (today's takes about 45 s)")
    ap.add_argument("--no-zombie", action="store_true", help="skip full Zombie Dice")
    ap.add_argument("--no-busy", action="store_true", help="skip the busy-machine round")
    args = ap.parse_args()
    print(f"{_cpu()}; numba threads: {numba.config.NUMBA_NUM_THREADS}, {_load()}")
    cases = _cases(not args.no_zombie)
    engine_and_today(cases, args.repeats, args.zombie_repeats, numba.config.NUMBA_NUM_THREADS)
    # one thread each: the small games only (today's full Zombie Dice takes
    # over a minute there)
    engine_and_today([c for c in cases if not c[0].startswith("zombie-dice")], args.repeats, 0,
                     1)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    threads(cases, args.repeats, args.zombie_repeats, busy=False)
    if not args.no_busy:
        threads(cases, args.repeats, args.zombie_repeats, busy=True)


if __name__ == "__main__":
    main()
