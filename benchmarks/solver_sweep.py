"""Every deck with 1-12 bad and 1-99 good items must solve at goals 100-200.

Solves each deck composition at each goal with the exact solver and counts
the solves that succeed; prints the count, the failures with their message,
the largest residual and the time per goal. Results go to a CSV file as they
come (``--out``, default ``benchmarks/solver_sweep.csv``), so a run that is
stopped resumes where it was; ``--fresh`` starts over.

    python benchmarks/solver_sweep.py                      # goals 100, 150, 200
    python benchmarks/solver_sweep.py --goals 100 --bad 1-6 --good 1-50

A solve of goal ``G`` holds every smaller goal's game as its sub-table (the
game depends only on the points each player still needs), and the solver
visits those score pairs with the same inputs in the same order: with
``--check-nested`` the script also compares, on a sample, the goal-100 table
with the corresponding corner of the goal-200 table (bit for bit).

Two workers each run one solve on one numba thread (a study's layout).
"""

import argparse
import csv
import os
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed


def _span(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _solve(bad, good, goal):
    from designer._jit import single_thread
    from designer.games import DeckGame
    from designer.solve import solve

    single_thread()
    t0 = time.perf_counter()
    try:
        sol = solve(DeckGame(bad, good, goal))
    except Exception as exc:  # every failure is counted and shown, not raised
        return bad, good, goal, "error", f"{type(exc).__name__}: {exc}", np.nan, time.perf_counter() - t0
    return bad, good, goal, "ok", "", sol.residual, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", default="100,150,200")
    ap.add_argument("--bad", default="1-12")
    ap.add_argument("--good", default="1-99")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(Path(__file__).with_name("solver_sweep.csv")))
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--check-nested", type=int, default=0, metavar="N",
                    help="also compare goal 100's table with goal 200's corner on N decks")
    a = ap.parse_args(argv)
    goals = [int(g) for g in a.goals.split(",")]
    todo = [(b, g, G) for G in goals for b in _span(a.bad) for g in _span(a.good)]
    out = Path(a.out)
    done = {}
    if out.exists() and not a.fresh:
        with out.open() as f:
            for row in csv.DictReader(f):
                done[(int(row["bad"]), int(row["good"]), int(row["goal"]))] = row
    left = [t for t in todo if t not in done]
    print(f"{len(todo)} solves, {len(todo) - len(left)} already in {out}", flush=True)
    # warm numba's cache once here so the workers load instead of compiling
    _solve(1, 1, 2)
    new = not out.exists() or a.fresh
    with out.open("w" if new else "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["bad", "good", "goal", "status", "message", "residual", "seconds"])
        # the largest decks first: the run's tail is then short
        left.sort(key=lambda t: -t[0] * t[1] * t[2] ** 2)
        runs = Parallel(n_jobs=a.jobs, return_as="generator_unordered")(
            delayed(_solve)(*t) for t in left)
        for n, row in enumerate(runs, 1):
            w.writerow(row)
            f.flush()
            done[row[:3]] = dict(zip(["bad", "good", "goal", "status", "message", "residual",
                                      "seconds"], row))
            if n % 50 == 0:
                print(f"  {n}/{len(left)}", flush=True)
    for G in goals:
        rows = [done[t] for t in todo if t[2] == G]
        ok = [r for r in rows if r["status"] == "ok"]
        res = max((float(r["residual"]) for r in ok), default=float("nan"))
        secs = sorted(float(r["seconds"]) for r in rows)
        print(f"goal {G}: {len(ok)} of {len(rows)} decks solve "
              f"(bad {a.bad}, good {a.good}); largest residual {res:.2e}; "
              f"seconds per solve: median {np.median(secs):.2f}, max {max(secs):.2f}")
        for r in rows:
            if r["status"] != "ok":
                print(f"  FAILED bad {r['bad']} good {r['good']}: {r['message']}")
    if a.check_nested:
        _check_nested(a.check_nested)
    return 0 if all(done[t]["status"] == "ok" for t in todo) else 1


def _check_nested(n):
    from designer.games import DeckGame
    from designer.solve import solve

    rng = np.random.default_rng(200)
    same = 0
    for _ in range(n):
        bad, good = int(rng.integers(1, 13)), int(rng.integers(1, 100))
        small = solve(DeckGame(bad, good, 100))
        big = solve(DeckGame(bad, good, 200))
        same += bool((big.win[100:, 100:] == small.win).all())
    print(f"goal 100 table equals the corner of goal 200's bit for bit: {same} of {n} decks")


if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")
    sys.exit(main())
