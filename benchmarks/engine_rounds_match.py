"""Benchmark: ``designer compare`` under the rounds ending for rules games.

Run by hand: ``python benchmarks/engine_rounds_match.py [--repeats N]``.
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
"""

import argparse
import os
import statistics
import time

from designer.engine._match_kernels import HOLD_AT, OPTIMAL
from designer.engine.match import RulesPolicy
from designer.engine.rounds import solve_rounds_model
from designer.engine.rounds_match import match_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}, {os.cpu_count()} CPUs")
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


if __name__ == "__main__":
    main()
