"""Benchmark: ``designer compare`` under the rounds ending for rules games.

Run by hand: ``python benchmarks/engine_rounds_match.py [--repeats N]
[--rules-only] [--agreement-only]``.
Everything runs in one process, so the calls meet the same machine; the
load average is printed first (the machine is shared).

1. **The Great Rolled Ones**, hold-at:N against optimal (N = 10, 15): the
   median wall time of the whole comparison (the rounds solve for optimal
   included, the kernels loaded first) and of the exact evaluation alone
   (the match's own ``seconds``).
2. **Pig to 100 in rounds**, hold-at:20 against optimal, from the shipped
   rules at ``ending = "rounds"``: the same two figures. No family compare
   takes Pig in rounds (the dice family's compare evaluates the race only),
   so there is nothing to set it against.
3. **All-yellow Zombie Dice** (a rules file written here) against today's
   Zombie Dice compare, hold-at:3 against optimal at the same cap, fixed
   policies banking a winning hold as today's solver makes them: medians,
   the ratio engine / today and the largest difference of the two wins.
4. **A rule against hold-at** (``--rules-only`` runs this alone): the
   same decisions written ``rule:below N`` (matched by both scores up to
   the cap, as every ``rule:`` and ``py:`` policy is) and ``hold-at:N``
   (matched by the lead), each against optimal play as ``designer
   compare`` plays it, after one rounds solve: the evaluation's median on
   one thread and on two, then beside one CPU-bound process, the ratio
   rule / hold-at, and the largest difference of the two wins (0 under
   ``earlier-seat``; under ``replay`` the two readings of the cap differ).
   Then one candidate of ``designer strategy`` (a three-clause rule).
5. **The agreement** (``--agreement-only`` runs this alone): on the games
   of part 4, ``hold-at:N`` and ``rule:below N`` against optimal play, the
   match on two threads without and with optimal play's decisions recorded
   (medians), their ratio, and the count of the agreement from them
   (:func:`designer.engine.agreement.rounds_agreement`), with the share and
   the positions it counts (the two policies take the same decisions, so
   the shares must be equal).
6. **Decks in rounds** (``--decks-only`` runs this alone): Red Light and
   Fowl Play under the rounds ending, hold-at:N and max-score against
   optimal (the rounds solve done once, outside the timing): the match
   with the feedback states' start values as a pair's unknowns (one deck,
   the fresh one, on each side) against the same match with every turn
   start an unknown (hundreds of decks: the baseline), the median of the
   match's own ``seconds`` for each, their ratio and the largest
   difference of the wins; on one thread, on two, and on two beside one
   CPU-bound process.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Busy, load  # noqa: E402

from designer.engine._match_kernels import HOLD_AT, OPTIMAL  # noqa: E402
from designer.engine.match import RulesPolicy  # noqa: E402
from designer.engine.rounds import solve_rounds_model  # noqa: E402
from designer.engine.rounds_match import match_rounds_model  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules, parse_rules  # noqa: E402

ALL_YELLOW = ("goal = 13\nending = \"rounds\"\n[dice]\ncount = 3\nsides = 3\nother_faces = 0\n"
              "face.1 = { points = 1 }\nface.2 = { aside = true }\naside_bust = 3\n"
              "refill = true\n")
OPT = RulesPolicy(OPTIMAL, "optimal")


def hold(n):
    return RulesPolicy(HOLD_AT, f"hold-at:{n}", n)


def median(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def rules_case(label, model, goal, ties, n, repeats):
    def whole():
        sol = solve_rounds_model(model, goal, ties=ties)
        return match_rounds_model(model, goal, hold(n), OPT, ties=ties, solution=sol)

    sol = solve_rounds_model(model, goal, ties=ties)
    whole()  # load the kernels
    t_all, m = median(whole, repeats)
    evals = [match_rounds_model(model, goal, hold(n), OPT, ties=ties, solution=sol).seconds
             for _ in range(repeats)]
    print(f"{label}: hold-at:{n} vs optimal  A first {m.win_as_first():.6f}  A second "
          f"{m.win_as_second():.6f}  whole {t_all:.3f} s  evaluation "
          f"{statistics.median(evals):.3f} s (median of {repeats})")


#: (label, example, goal in points, ending's tie rule, N, a strategy-sized rule)
TABLES = [
    ("Great Rolled Ones 50", "great-rolled-ones", 50, "earlier-seat", 10,
     "opp_need <= 1 -> roll; aside <= 1 -> below 26; below 4"),
    ("Pig to 100 rounds", "pig", 100, "replay", 20, "opp_need <= 0 -> roll; pace 20 8"),
    ("Farkle 2,000 rounds", "farkle", 2000, "replay", 300,
     "opp_need <= 0 -> roll; dice_left <= 2 -> below 250; below 400"),
]


def _table_game(example, goal, ties):
    """``(game, model, goal in units, optimal, its rounds solve at the cap
    of a match of rules)`` of one game of :data:`TABLES`."""
    from designer.engine.game import load_rules_game
    from designer.engine.match import parse_rules_policy
    from designer.engine.rounds_match import table_cap

    game = load_rules_game(example, goal=goal, ending="rounds")
    model, G = game.rules.model, game.rules.goal
    sol = solve_rounds_model(model, G, ties=ties, cap=table_cap(model, G))
    return game, model, G, parse_rules_policy("optimal", game), sol


def tables(repeats):
    from designer.engine.match import parse_rules_policy

    print(f"\n4. a rule against hold-at, each against optimal ({load()})")
    print(f"{'game':<21} {'policy':<14} {'1 thread s':>10} {'2 threads s':>11} {'2 / 1':>6} "
          f"{'busy s':>7} {'busy / 1':>8} {'rule / hold-at':>14} {'max |dP|':>9}")
    for label, example, goal, ties, n, strat in TABLES:
        game, model, G, opt, sol = _table_game(example, goal, ties)
        pols = {"rule": parse_rules_policy(f"rule:below {n}", game),
                "hold-at": parse_rules_policy(f"hold-at:{n}", game),
                "strategy": parse_rules_policy(f"rule:{strat}", game)}

        def run(pol):
            return match_rounds_model(model, G, pol, opt, ties=ties, solution=sol,
                                      bank_wins=True, unit=game.unit)

        for pol in pols.values():
            run(pol)  # load the kernels (and the hold-at path's solve at its cap)
        one = {k: [] for k in pols}
        two = {k: [] for k in pols}
        busy = {k: [] for k in pols}
        res = {}
        for _ in range(repeats):  # alternating, so that all meet the same load
            for k, pol in pols.items():
                numba.set_num_threads(1)
                one[k].append(run(pol).seconds)
                numba.set_num_threads(2)
                res[k] = run(pol)
                two[k].append(res[k].seconds)
        with Busy():
            for _ in range(repeats):
                for k, pol in pols.items():
                    busy[k].append(run(pol).seconds)
        med = {k: (statistics.median(one[k]), statistics.median(two[k]),
                   statistics.median(busy[k])) for k in pols}
        dp = max(abs(res["rule"].win_as_first() - res["hold-at"].win_as_first()),
                 abs(res["rule"].win_as_second() - res["hold-at"].win_as_second()))
        for k, name in (("rule", f"rule:below {n}"), ("hold-at", f"hold-at:{n}"),
                        ("strategy", "3-clause rule")):
            a, b, c = med[k]
            ratio = f"{b / med['hold-at'][1]:>13.2f}x" if k != "hold-at" else f"{'':>14}"
            print(f"{label:<21} {name:<14} {a:>10.3f} {b:>11.3f} {b / a:>5.2f}x {c:>7.3f} "
                  f"{c / a:>7.2f}x {ratio} " + (f"{dp:>9.1e}" if k == "rule" else ""))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    print(f"  [{load()}]")


def agreements(repeats):
    from designer.engine.agreement import rounds_agreement
    from designer.engine.match import parse_rules_policy

    print(f"\n5. the agreement, two threads ({load()})")
    print(f"{'game':<21} {'policy':<14} {'match s':>8} {'recorded s':>10} {'ratio':>6} "
          f"{'count s':>8} {'agreement':>10} {'positions':>12}")
    for label, example, goal, ties, n, _ in TABLES:
        game, model, G, opt, sol = _table_game(example, goal, ties)
        for spec in (f"hold-at:{n}", f"rule:below {n}"):
            pol = parse_rules_policy(spec, game)

            def run(record, pol=pol):
                return match_rounds_model(model, G, pol, opt, ties=ties, solution=sol,
                                          bank_wins=True, record=record, unit=game.unit)

            run(False), run(True)  # load the kernels (and the hold-at path's solve)
            plain, rec, count = [], [], []
            for _ in range(repeats):  # alternating, so that both meet the same load
                plain.append(run(False).seconds)
                m = run(True)
                rec.append(m.seconds)
                t0 = time.perf_counter()
                share, positions = rounds_agreement(model, G, pol, opt, m, unit=game.unit)
                count.append(time.perf_counter() - t0)
            a, b, c = (statistics.median(x) for x in (plain, rec, count))
            print(f"{label:<21} {spec:<14} {a:>8.3f} {b:>10.3f} {b / a:>5.2f}x {c:>8.3f} "
                  f"{share:>10.4%} {positions:>12,}")
    print(f"  [{load()}]")


def decks(repeats):
    """Part 6: the open rounds of a deck, feedback unknowns against every start's."""
    from contextlib import nullcontext

    from designer import load_game
    from designer.engine._match_kernels import MAX_SCORE
    from designer.engine.family_rules import as_rules_game

    print(f"\n6. decks in rounds: feedback unknowns against every start's ({load()})")
    print(f"{'game':<24} {'policy':<10} {'threads':<8} {'feedback s':>10} {'every s':>9} "
          f"{'ratio':>6} {'max |dP|':>9}")
    every_config = ((1, False), (2, False), (2, True))
    maxs = RulesPolicy(MAX_SCORE, "max-score")
    # Fowl Play's baseline takes over a minute a run: two threads only
    for name, pol, configs in (("red-light", hold(8), every_config),
                               ("red-light", maxs, every_config),
                               ("fowl-play", maxs, ((2, False),))):
        rules = as_rules_game(load_game(name, ending="rounds")).rules
        model, goal = rules.model, rules.goal
        sol = solve_rounds_model(model, goal, ties="replay")

        def run(every, pol=pol, model=model, goal=goal, sol=sol):
            return match_rounds_model(model, goal, pol, OPT, ties="replay", solution=sol,
                                      _every_start=every)
        run(False)  # load the kernels
        for threads, busy in configs:
            numba.set_num_threads(threads)
            with Busy() if busy else nullcontext():
                fast = [run(False) for _ in range(repeats)]
                slow = [run(True) for _ in range(repeats)]
            mf = statistics.median(m.seconds for m in fast)
            ms = statistics.median(m.seconds for m in slow)
            diff = max(abs(fast[-1].win_as_first() - slow[-1].win_as_first()),
                       abs(fast[-1].win_as_second() - slow[-1].win_as_second()))
            label = f"{threads}{', busy' if busy else ''}"
            print(f"{load_game(name).name + ' to ' + str(goal):<24} {pol.name:<10} "
                  f"{label:<8} {mf:>10.3f} {ms:>9.3f} {mf / ms:>5.2f}x {diff:>9.1e}",
                  flush=True)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rules-only", action="store_true", help="only section 4")
    ap.add_argument("--agreement-only", action="store_true", help="only section 5")
    ap.add_argument("--decks-only", action="store_true", help="only section 6")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}, {os.cpu_count()} CPUs")
    if args.rules_only:
        tables(args.repeats)
        return
    if args.agreement_only:
        agreements(args.repeats)
        return
    if args.decks_only:
        decks(args.repeats)
        return
    gro = load_rules(example_path("great-rolled-ones"))
    for n in (10, 15):
        rules_case("The Great Rolled Ones to 50", gro.model, gro.goal, gro.ties, n, args.repeats)
    pig = load_rules(example_path("pig"))
    rules_case("Pig to 100 in rounds", pig.model, 100, "replay", 20, args.repeats)
    print("Pig in rounds: no family compare to set against (the dice family's compare "
          "evaluates the race only)")

    from designer import load_game
    from designer.analysis.compare import compare

    family = load_game("zombie-yellow")
    model = parse_rules(ALL_YELLOW).model

    def engine():
        sol = solve_rounds_model(model, 13, ties="replay", cap=family.cap)
        return match_rounds_model(model, 13, hold(3), OPT, ties="replay", cap=family.cap,
                                  solution=sol, bank_wins=True)

    def today():
        from designer.policies.builtin import solution_for

        solution_for.cache_clear()  # the optimal solve counted, as the engine's
        return compare(family, "hold-at:3", "optimal", with_agreement=False)

    engine(), today()  # load the kernels
    te, tt = [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        e = engine()
        te.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        f = today()
        tt.append(time.perf_counter() - t0)
    me, mt = statistics.median(te), statistics.median(tt)
    diff = max(abs(e.win_as_first() - f.win_as_first), abs(e.win_as_second() - f.win_as_second))
    print(f"all-yellow Zombie Dice to 13, hold-at:3 vs optimal (solve included): engine "
          f"{me:.3f} s, today {mt:.3f} s, ratio {me / mt:.2f}; largest difference {diff:.1e}")
    tables(args.repeats)
    agreements(args.repeats)
    decks(args.repeats)


if __name__ == "__main__":
    main()
