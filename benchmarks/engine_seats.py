"""Benchmark: the engine with three and four seats, race ending.

Run by hand: ``python benchmarks/engine_seats.py [--repeats N] [--no-busy]
[--no-farkle] [--no-today] [--no-rounds] [--rounds-only] [--no-length]
[--no-compare] [--compare-only] [--rounds-compare-only]``.

1. **Farkle to 5,000 with three players**, as a user runs it:
   ``python -m designer solve farkle --goal 5000 --players 3 --json`` in a
   new process (start-up and the kernels' load included), the median wall
   time of ``--farkle-repeats`` runs (the solve and the game length that
   follows it), the solve's and the length's own seconds, the state count
   and the positions that did not settle; quiet, then beside one
   CPU-bound process (``python -c "while True: pass"``). Bar: 5 minutes.
2. **One thread, two threads, two threads beside a busy process**: the
   solver's own seconds on a few games, one and two threads alternating
   so that both meet the same load; beside a busy process a solve should
   not take more than 1.2 times its one-thread time.
3. **Today's N-player solvers** (:mod:`designer.solve`) on the same games
   from their presets, in the same process: time, sweeps and the largest
   difference between the two tables (classes where the seats' best
   replies do not settle, or have two solutions, may differ).
4. **The rounds ending**: 3-player Pig to 100 (replay), the engine
   (:mod:`designer.engine.seat_rounds`) on pig.toml against today's dice
   rounds solver, in the same process: median solve seconds of
   ``--rounds-repeats`` runs each, the engine with and without the game
   length it carries along (today's solver always counts it), their
   ratios, sweeps, the seats' wins and the largest difference of the two
   tables, wins and lengths (tuples whose max-n replies do not settle keep
   each solver's iterate of least residual, and differ). Then 3-player Pig
   to 60 with the length on one thread and on two, alternating, and on two
   beside one CPU-bound process (bar: at most 1.2 times one thread).

5. **The game length** (:mod:`designer.engine.seat_length`) on the games
   of part 2, two threads: the median seconds of the solve and of the
   length after it, their ratio, and with today's N-player solvers (whose
   solve counts the actions as it goes) the engine's solve and length
   together against theirs, with the largest difference of the two
   lengths at the first turn of every start of 0-2 points per seat, and
   of the two solves' wins there (where the seats' best replies do not
   settle, the two solvers keep different tables, and the lengths under
   them differ too).

6. **A policy at one seat** (:mod:`designer.engine.seat_match`, what
   ``designer compare GAME --players 3`` runs): the policy at each seat in
   turn, the others optimal, evaluated after one solve; the engine's
   seconds on one thread, on two, and on two beside a busy process, and
   with today's N-player evaluator (:mod:`designer.solve.profile`, the
   same question on the presets) its seconds, the ratio and the largest
   difference of the seats' wins (where the seats' best replies do not
   settle, the two solvers keep different tables, and the wins differ).

7. **A policy at one seat under the rounds ending**
   (:mod:`designer.engine.seat_rounds_match`, what ``designer compare GAME
   --players 3 --ending rounds`` runs): the solve at the cap the policy
   needs, then the policy at each seat in turn; the median seconds of the
   solve and of the evaluations, their ratio (the baseline: the solve in
   the same run), on one thread, on two, and on two beside one CPU-bound
   process (bar: at most 1.2 times one thread). A rule on The Great Rolled
   Ones (a tie to the earlier seat) reads both scores up to the cap.

The load average is printed with every part: the machine is shared, and
other processes move every figure here.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Busy, load as _load  # noqa: E402

from designer import load_game  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules, parse_rules  # noqa: E402
from designer.engine.seats import solve_seats_model  # noqa: E402
from designer.solve import solve  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: (label, example, goal, players, preset of today's solvers or None).
GAMES = [("Pig 3p to 100", "pig", 100, 3, "pig"),
         ("Fowl Play 3p to 30", "fowl-play", 30, 3, "fowl-play"),
         ("Farkle 3p to 2,000", "farkle", 40, 3, None),
         ("Pig 4p to 30", "pig", 30, 4, "pig")]


def farkle(repeats, busy):
    cmd = [sys.executable, "-m", "designer", "solve", "farkle", "--goal", "5000", "--players",
           "3", "--json"]
    label = "beside one busy process" if busy else "quiet"
    walls, outs = [], []

    def run():
        t0 = time.perf_counter()
        r = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
        walls.append(time.perf_counter() - t0)
        outs.append(json.loads(r.stdout))

    print(f"\n1. designer solve farkle --goal 5000 --players 3, {label} ({_load()})")
    if busy:
        with Busy():
            for _ in range(repeats):
                run()
    else:
        for _ in range(repeats):
            run()
    out = outs[-1]
    seconds = statistics.median(o["seconds"] for o in outs)
    length = statistics.median(o.get("length_seconds", 0.0) for o in outs)
    wall = statistics.median(walls)
    print(f"  wall {wall:.1f} s (runs: {', '.join(f'{w:.1f}' for w in walls)}), solve "
          f"{seconds:.1f} s, game length {length:.1f} s (expected "
          f"{out.get('expected_actions', float('nan')):.2f} actions), {out['states']:,} states, "
          f"seats win "
          f"{', '.join(f'{p:.6f}' for p in out['seat_win'])}, unsettled positions "
          f"{out['unsettled_positions']} (residual {out['unsettled_residual']:.1e}); "
          f"{'ok' if wall < 300 else 'OVER THE BAR'} (bar: 300 s)   [{_load()}]")


def _model(example, players):
    return load_rules(example_path(example)).model


def threads(repeats, busy):
    label = "beside one busy process" if busy else "quiet"
    print(f"\n2. one thread and two, {label} ({_load()})")
    print(f"{'game':<20} {'1 thread s':>10} {'2 threads s':>11} {'2 / 1':>7} {'states':>13}")
    ctx = Busy() if busy else None
    if ctx:
        ctx.__enter__()
    try:
        for label_, example, goal, players, _ in GAMES:
            model = _model(example, players)
            solve_seats_model(model, min(goal, 5), players)  # load the kernels
            one, two = [], []
            for _ in range(repeats):
                numba.set_num_threads(1)
                one.append(solve_seats_model(model, goal, players).seconds)
                numba.set_num_threads(2)
                r = solve_seats_model(model, goal, players)
                two.append(r.seconds)
            a, b = statistics.median(one), statistics.median(two)
            print(f"{label_:<20} {a:>10.3f} {b:>11.3f} {b / a:>6.2f}x {r.states:>13,}")
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        if ctx:
            ctx.__exit__(None, None, None)
    print(f"  [{_load()}]")


def today(repeats):
    print(f"\n3. against today's N-player solvers, two threads ({_load()})")
    print(f"{'game':<20} {'engine s':>9} {'today s':>9} {'ratio':>7} {'sweeps':>15} "
          f"{'max |dP|':>9} {'unsettled':>11}")
    for label, example, goal, players, preset in GAMES:
        if preset is None:
            continue
        rules = load_rules(example_path(example))
        if example == "fowl-play":
            rules = parse_rules(example_path(example).read_text().replace(
                "goal = 50", f"goal = {goal}"))
        game = load_game(preset, goal=goal, players=players)
        solve_seats_model(rules.model, 5, players)
        solve(load_game(preset, goal=5, players=players))
        eng = [solve_seats_model(rules.model, goal, players) for _ in range(repeats)]
        fam = [solve(game) for _ in range(repeats)]
        e, f = eng[-1], fam[-1]
        if rules.model.states == 1:
            diff = float(np.abs(e.win[..., 0, :] - f.win).max())
        else:
            diff = 0.0
            for h, state in enumerate(e.start_states):
                w, c = rules.keys[state]
                idx = (slice(None),) * players
                diff = max(diff, float(np.abs(e.win[idx + (h,)] - f.win[idx + (w, c)]).max()))
        te = statistics.median(r.seconds for r in eng)
        tf = statistics.median(r.seconds for r in fam)
        print(f"{label:<20} {te:>9.3f} {tf:>9.3f} {te / tf:>6.2f}x "
              f"{f'{e.sweeps}/{f.sweeps}':>15} {diff:>9.1e} "
              f"{f'{e.unsettled_positions}/{f.unsettled_positions}':>11}")


def rounds(repeats):
    from designer.engine.seat_rounds import solve_seat_rounds_model
    from designer.solve.rounds import solve_rounds_dice

    print(f"\n4. the rounds ending against today's solver, two threads ({_load()})")
    model = _model("pig", 3)
    pips = [2, 3, 4, 5, 6]
    solve_seat_rounds_model(model, 5, 3, length=True)  # load the kernels
    solve_rounds_dice(6, pips, 5, 3)
    eng, lng, fam = [], [], []
    for _ in range(repeats):  # alternating, so that all meet the same load
        eng.append(solve_seat_rounds_model(model, 100, 3))
        lng.append(solve_seat_rounds_model(model, 100, 3, length=True))
        fam.append(solve_rounds_dice(6, pips, 100, 3))
    e, g, f = eng[-1], lng[-1], fam[-1]
    te, tg, tf = (statistics.median(r.seconds for r in x) for x in (eng, lng, fam))
    diff = float(np.abs(e.win[..., 0, :].reshape(-1, 3) - f.start_win).max())
    dl = np.abs(g.actions[..., 0].reshape(-1) - f.start_actions)
    runs = lambda x: ", ".join(f"{r.seconds:.1f}" for r in x)  # noqa: E731
    print(f"Pig 3p to 100, rounds: engine {te:.2f} s (runs {runs(eng)}), with the length "
          f"{tg:.2f} s (runs {runs(lng)}), today {tf:.2f} s (runs {runs(fam)})")
    print(f"  ratios: length/no length {tg / te:.2f}x, engine/today {te / tf:.2f}x, "
          f"engine with length/today {tg / tf:.2f}x")
    print(f"  sweeps {e.sweeps:,}/{f.sweeps:,}, unsettled {e.unsettled_positions}/"
          f"{f.unsettled}, seats win {', '.join(f'{p:.9f}' for p in e.seat_win())} / "
          f"{', '.join(f'{p:.9f}' for p in f.seat_win())}, max |dP| {diff:.1e}")
    print(f"  game length {g.actions[0, 0, 0, 0]:.6f} / {f.start_actions[0]:.6f} actions, "
          f"max |dL| {dl.max():.1e} ({int((dl > 1e-9).sum())} of {dl.size} starts over 1e-9)"
          f"   [{_load()}]")
    one, two, busy = [], [], []
    for _ in range(repeats):
        numba.set_num_threads(1)
        one.append(solve_seat_rounds_model(model, 60, 3, length=True).seconds)
        numba.set_num_threads(2)
        two.append(solve_seat_rounds_model(model, 60, 3, length=True).seconds)
    with Busy():
        for _ in range(repeats):
            busy.append(solve_seat_rounds_model(model, 60, 3, length=True).seconds)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    a, b, c = (statistics.median(x) for x in (one, two, busy))
    print(f"Pig 3p to 60, rounds, with the length: 1 thread {a:.2f} s, 2 threads {b:.2f} s "
          f"({b / a:.2f}x), 2 threads beside a busy process {c:.2f} s ({c / a:.2f}x of 1 "
          f"thread; bar 1.2x)   [{_load()}]")


def lengths(repeats):
    import itertools

    from designer.engine.seat_length import seat_lengths

    print(f"\n5. the game length, two threads ({_load()})")
    print(f"{'game':<20} {'solve s':>8} {'length s':>9} {'len/solve':>10} {'today s':>8} "
          f"{'engine/today':>13} {'max |dL|':>9} {'max |dP|':>9}")
    for label, example, goal, players, preset in GAMES:
        rules = load_rules(example_path(example))
        model = rules.model
        seat_lengths(model, solve_seats_model(model, 5, players))  # load the kernels
        ts, tl, tf = [], [], []
        fam = None
        for _ in range(repeats):  # alternating, so that all meet the same load
            r = solve_seats_model(model, goal, players)
            L, sec = seat_lengths(model, r)
            ts.append(r.seconds)
            tl.append(sec)
            if preset is not None:
                fam = solve(load_game(preset, goal=goal, players=players))
                tf.append(fam.seconds)
        a, b = statistics.median(ts), statistics.median(tl)
        line = f"{label:<20} {a:>8.3f} {b:>9.3f} {b / a:>9.2f}x"
        if fam is not None:
            h0 = int(np.searchsorted(r.start_states, 0))
            starts = [(0, *rest) for rest in itertools.product(range(3), repeat=players - 1)]
            diff = max(abs(L[v + (h0,)] - fam.expected_actions(goal, list(v))) for v in starts)
            dp = max(np.abs(r.value(v) - np.asarray(fam.seat_win(goal, list(v)))).max()
                     for v in starts)
            c = statistics.median(tf)
            line += f" {c:>8.3f} {(a + b) / c:>12.2f}x {diff:>9.1e} {dp:>9.1e}"
        print(line)
    print(f"  [{_load()}]")


#: (label, example, goal, players, preset, policy) of part 6.
COMPARES = [("Pig 3p to 100", "pig", 100, 3, "pig", "hold-at:20"),
            ("Fowl Play 3p to 30", "fowl-play", 30, 3, "fowl-play", "max-score"),
            ("Farkle 3p to 2,000", "farkle", 2000, 3, None, "hold-at:300"),
            ("Pig 4p to 30", "pig", 30, 4, "pig", "hold-at:10")]


def compares(repeats):
    from designer.analysis.seat_compare import compare_seats
    from designer.engine.game import load_rules_game
    from designer.engine.match import parse_rules_policy
    from designer.engine.seat_match import seat_profile

    print(f"\n6. a policy at one seat, the others optimal ({_load()})")
    print(f"{'game':<20} {'policy':<12} {'1 thread s':>10} {'2 threads s':>11} {'2 / 1':>6} "
          f"{'busy s':>7} {'busy / 1':>8} {'today s':>8} {'engine/today':>12} {'max |dP|':>9}")
    for label, example, goal, players, preset, policy in COMPARES:
        game = load_rules_game(example, goal=goal, players=players)
        model, G = game.rules.model, game.rules.goal
        pol = parse_rules_policy(policy, game)
        sol = solve_seats_model(model, G, players)
        seat_profile(model, solve_seats_model(model, 3, players), pol, unit=game.unit)  # load
        one, two, busy, fam_s = [], [], [], []
        fam = None
        if preset is not None:
            fgame = load_game(preset, goal=goal, players=players)
            fsol = solve(fgame)
            small = load_game(preset, goal=5, players=players)
            compare_seats(small, "max-score", solution=solve(small))  # load the kernels
        for _ in range(repeats):  # alternating, so that all meet the same load
            numba.set_num_threads(1)
            one.append(seat_profile(model, sol, pol, unit=game.unit).seconds)
            numba.set_num_threads(2)
            prof = seat_profile(model, sol, pol, unit=game.unit)
            two.append(prof.seconds)
            if preset is not None:
                fam = compare_seats(fgame, policy, solution=fsol)
                fam_s.append(fam.seconds)
        with Busy():
            for _ in range(repeats):
                busy.append(seat_profile(model, sol, pol, unit=game.unit).seconds)
        a, b, c = statistics.median(one), statistics.median(two), statistics.median(busy)
        line = (f"{label:<20} {policy:<12} {a:>10.3f} {b:>11.3f} {b / a:>5.2f}x {c:>7.3f} "
                f"{c / a:>7.2f}x")
        if fam is not None:
            start = (0,) * players
            dp = max(abs(prof.seat_win(s, start)[s] - fam.seats[s]["win"])
                     for s in range(players))
            f = statistics.median(fam_s)
            line += f" {f:>8.3f} {b / f:>11.2f}x {dp:>9.1e}"
        print(line)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    print(f"  [{_load()}]")


#: (label, example, goal, players, policy) of part 7.
ROUNDS_COMPARES = [("Pig 3p to 60", "pig", 60, 3, "hold-at:20"),
                   ("Great Rolled Ones 3p to 30", "great-rolled-ones", 30, 3, "max-score"),
                   # a rule reads both scores (a tie goes to the earlier seat here)
                   ("Great Rolled Ones 3p to 30", "great-rolled-ones", 30, 3,
                    "rule:opp_need <= 0 -> roll; below 11"),
                   ("Pig 4p to 20", "pig", 20, 4, "hold-at:10")]


def rounds_compares(repeats):
    from designer.engine.game import load_rules_game
    from designer.engine.match import parse_rules_policy
    from designer.engine.seat_rounds_match import seat_rounds_profile

    print(f"\n7. a policy at one seat under the rounds ending, the others optimal ({_load()})")
    print(f"{'game':<27} {'policy':<37} {'threads':>7} {'solve s':>8} {'eval s':>8} "
          f"{'eval/solve':>10} {'eval / 1 thread':>15}")
    for label, example, goal, players, policy in ROUNDS_COMPARES:
        game = load_rules_game(example, goal=goal, players=players, ending="rounds")
        model, G, ties = game.rules.model, game.rules.goal, game.rules.ties
        pol = parse_rules_policy(policy, game)
        seat_rounds_profile(model, 3, players, pol, ties=ties)  # load the kernels
        runs = {"1": [], "2": [], "2, busy": []}

        def run(key):
            prof = seat_rounds_profile(model, G, players, pol, ties=ties)
            runs[key].append((prof.solution.seconds, prof.seconds))

        for _ in range(repeats):  # alternating, so that both meet the same load
            numba.set_num_threads(1)
            run("1")
            numba.set_num_threads(2)
            run("2")
        with Busy():
            for _ in range(repeats):
                run("2, busy")
        base = statistics.median(e for _, e in runs["1"])
        for key, vals in runs.items():
            a = statistics.median(s for s, _ in vals)
            b = statistics.median(e for _, e in vals)
            print(f"{label:<27} {policy:<37} {key:>7} {a:>8.2f} {b:>8.2f} {b / a:>9.2f}x "
                  f"{b / base:>14.2f}x")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    print(f"  [{_load()}]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="runs of each small solve")
    ap.add_argument("--farkle-repeats", type=int, default=3, help="runs of Farkle to 5,000")
    ap.add_argument("--no-busy", action="store_true", help="skip the busy-machine rounds")
    ap.add_argument("--no-farkle", action="store_true", help="skip Farkle to 5,000")
    ap.add_argument("--no-today", action="store_true", help="skip today's solvers")
    ap.add_argument("--no-rounds", action="store_true", help="skip the rounds ending")
    ap.add_argument("--rounds-only", action="store_true", help="only the rounds ending")
    ap.add_argument("--no-length", action="store_true", help="skip the game length")
    ap.add_argument("--no-compare", action="store_true", help="skip the policy at one seat")
    ap.add_argument("--compare-only", action="store_true", help="only the policy at one seat")
    ap.add_argument("--rounds-compare-only", action="store_true",
                    help="only the policy at one seat under the rounds ending")
    ap.add_argument("--rounds-repeats", type=int, default=3,
                    help="runs of 3-player Pig to 100 under the rounds ending")
    args = ap.parse_args()
    print(f"numba threads: {numba.config.NUMBA_NUM_THREADS}, {_load()}")
    if args.rounds_only:
        rounds(args.rounds_repeats)
        return
    if args.compare_only:
        compares(args.repeats)
        return
    if args.rounds_compare_only:
        rounds_compares(args.rounds_repeats)
        return
    threads(args.repeats, busy=False)
    if not args.no_busy:
        threads(args.repeats, busy=True)
    if not args.no_today:
        today(args.repeats)
    if not args.no_farkle:
        farkle(args.farkle_repeats, busy=False)
        if not args.no_busy:
            farkle(args.farkle_repeats, busy=True)
    if not args.no_rounds:
        rounds(args.rounds_repeats)
    if not args.no_length:
        lengths(args.repeats)
    if not args.no_compare:
        compares(args.repeats)
        rounds_compares(args.rounds_repeats)


if __name__ == "__main__":
    main()
