"""Benchmark: rules and functions as policies of rules games (rule:, py:).

Run by hand: ``python benchmarks/engine_policy_tables.py [--repeats N]``.
In one process, so every figure meets the same machine (the load average is
printed with each section):

1. The same policy three ways against optimal play, on Pig, Fowl Play,
   Farkle to 3,000 and Farkle to 10,000: ``hold-at:N`` (the match kernel's
   own threshold), ``rule:below N`` (a decision table built from the rule
   with numpy) and ``py:``, a function ``k < N`` (a table built by calling
   the numba-compiled function at every position), run in turn. Medians of
   the whole comparison as the command line runs it (the table included,
   and for ``py:`` compiling the function and its caller, as every run of
   the command does once); the ratios rule / hold-at and py / hold-at, and
   the seconds of the rule's table alone and of the agreement of the rule
   with optimal play (left out of the three columns before).
2. A strategy search's cost per candidate on Farkle to 1,000 and 2,000: one
   exact match of a three-clause rule against optimal play.
3. The same candidate scored by a family's own evaluator (its kernels) and
   by the rules game's (the engine), on Pig and Fowl Play: medians, the
   ratio engine / family and the largest difference of the two scores.
"""

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numba

from designer.analysis.rules_compare import compare_rules
from designer.engine.game import load_rules_game
from designer.engine.match import parse_rules_policy
from designer.engine.policy_tables import rule_table
from designer.engine.solve import plan, solve_model
from designer.policies.rules import Rule
from designer.strategy.rules_game import RulesEvaluator

GAMES = (("pig", None, 20), ("rules:fowl-play", None, 5), ("farkle", 3000, 300),
         ("farkle", 10000, 300))


def _load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _median(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def three_ways(repeats, folder):
    print(f"\n1. one policy three ways against optimal ({_load()}, "
          f"{numba.get_num_threads()} threads)")
    print(f"{'game':<16} {'goal':>6} {'hold-at s':>10} {'rule s':>8} {'py s':>8} "
          f"{'rule/hold':>10} {'py/hold':>8} {'table s':>8} {'agree s':>8}")
    for name, goal, n in GAMES:
        game = load_rules_game(name, **({"goal": goal} if goal else {}))
        rules = game.rules
        sol = solve_model(rules.model, rules.goal, 0)
        unit = game.unit
        n = n * unit if name != "farkle" else n
        src = folder / f"below_{n}.py"
        src.write_text(f"def f(k):\n    return k < {n}\n")
        specs = (f"hold-at:{n}", f"rule:below {n}", f"py:{src}:f")
        for spec in specs:  # compile and load everything once
            compare_rules(game, spec, "optimal", solution=sol)
        agree = compare_rules(game, specs[1], "optimal", solution=sol).agreement_seconds
        # alternated, so that a change of the machine's load meets all three
        runs = {spec: [] for spec in specs}
        for _ in range(repeats):
            for spec in specs:
                runs[spec].append(_median(
                    lambda s=spec: compare_rules(game, s, "optimal", solution=sol,
                                                 with_agreement=False), 1))
        t = [statistics.median(runs[spec]) for spec in specs]
        p = plan(rules.model, rules.goal)
        rule = parse_rules_policy(f"rule:below {n}", game).source
        tab = _median(lambda: rule_table(rule, rules.model, rules.goal, unit, p), repeats)
        print(f"{game.name:<16} {game.goal:>6} {t[0]:>10.3f} {t[1]:>8.3f} {t[2]:>8.3f} "
              f"{t[1] / t[0]:>9.2f}x {t[2] / t[0]:>7.2f}x {tab:>8.4f} {agree:>8.3f}")


def per_candidate(repeats):
    print(f"\n2. a strategy search's cost per candidate ({_load()})")
    print(f"{'game':<10} {'goal':>6} {'seconds':>8}")
    for goal in (1000, 2000):
        game = load_rules_game("farkle", goal=goal)
        ev = RulesEvaluator(game)
        rule = Rule.parse("rules", "opp_need <= 550 -> roll; dice_left <= 3 -> below 350; "
                                   "below 2000", ("dice_left",))
        ev.score(rule)
        print(f"{'Farkle':<10} {goal:>6} {_median(lambda: ev.score(rule), repeats):>8.3f}")


def family_vs_engine(repeats):
    from designer import load_game
    from designer.strategy.evaluate import Evaluator

    print(f"\n3. one candidate scored by the family and by the engine ({_load()})")
    print(f"{'game':<10} {'family s':>9} {'engine s':>9} {'ratio':>7} {'max |d|':>9}")
    cases = (("pig", "max_ij >= 71 -> roll; pace 21 8", "max_ij >= 71 -> roll; pace 21 8"),
             ("fowl-play", "opp_need <= w_rem -> roll; maxscore",
              "opp_need <= w_rem -> roll; while c_rem > w_rem * k"))
    for name, fam_text, rules_text in cases:
        family = Evaluator(load_game(name))
        rules = load_rules_game(f"rules:{name}")
        engine = RulesEvaluator(rules)
        fr = Rule.parse(family.family, fam_text)
        rr = Rule.parse("rules", rules_text, rules.rules.model.feature_names)
        a, b = family.score(fr), engine.score(rr)
        diff = max(abs(a[k] - b[k]) for k in ("win_as_first", "win_as_second"))
        tf, te = [], []
        for _ in range(repeats):  # alternated
            tf.append(_median(lambda: family.score(fr), 1))
            te.append(_median(lambda: engine.score(rr), 1))
        tf, te = statistics.median(tf), statistics.median(te)
        print(f"{name:<10} {tf:>9.4f} {te:>9.4f} {te / tf:>6.2f}x {diff:>9.1e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as d:
        three_ways(args.repeats, Path(d))
    per_candidate(args.repeats)
    family_vs_engine(args.repeats)


if __name__ == "__main__":
    main()
