"""Benchmark: what one rule costs a strategy search with 3 or 4 players.

A strategy card scores every candidate rule exactly at each seat in turn,
the other seats playing the N-player optimum (solved once). For each game
this prints, in one process, the median seconds of the N-player solve (the
baseline), of one rule scored at every seat (``RulesEvaluator.score``) and
their ratio, over ``--repeats`` runs, and for comparison the same rule
scored in the two-player game (the two seatings of one match) against the
two-player solve. The rule is a threshold with a clause on the highest
other score, as the search tries them. The Great Rolled Ones is played in
equal turns (the rounds ending, a tie to the earlier seat): there the
solve is made at the cap every rule shares and kept between rules. The load average is printed: the
machine is shared; the table is printed again beside one CPU-bound
process.

    PYTHONPATH=. python benchmarks/strategy_seats.py [--repeats 5] [--no-busy]
"""

import argparse

from _timing import Busy, load, median_time

from designer.engine.game import load_rules_game
from designer.policies.rules import Rule
from designer.strategy.rules_game import RulesEvaluator

GAMES = [("pig", 50, 3), ("pig", 30, 4), ("farkle", 1000, 3), ("great-rolled-ones", 20, 3),
         ("great-rolled-ones", 30, 3)]
RULE = {"pig": "max_ij >= 40 -> roll; below 20",
        "farkle": "dice_left <= 2 -> below 300; below 500",
        "great-rolled-ones": "opp_need <= 0 -> roll; below 8"}


def _median(f, repeats):
    return median_time(f, repeats)[0]


def _table(repeats):
    print(f"{'game':<36} {'solve':>8} {'one rule':>9} {'ratio':>6}   {'2p solve':>8} "
          f"{'2p rule':>8} {'ratio':>6}")
    for name, goal, players in GAMES:
        row = []
        for n in (players, 2):
            game = load_rules_game(name, goal=goal, players=n)
            rule = Rule.parse("rules", RULE[name], game.rules.model.feature_names)
            RulesEvaluator(game).score(rule)  # compile or load the kernels
            solve = _median(lambda g=game: RulesEvaluator(g), repeats)
            ev = RulesEvaluator(game)
            one = _median(lambda e=ev, r=rule: e.score(r), repeats)
            row += [solve, one, one / solve]
        print(f"{name} to {goal}, {players} players".ljust(36)
              + f" {row[0]:8.3f} {row[1]:9.3f} {row[2]:5.2f}x   {row[3]:8.3f} {row[4]:8.3f} "
              f"{row[5]:5.2f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-busy", action="store_true", help="skip the run beside a busy process")
    args = ap.parse_args()
    print(f"quiet ({load()})")
    _table(args.repeats)
    if not args.no_busy:
        with Busy():
            print(f"beside one CPU-bound process ({load()})")
            _table(args.repeats)
    print(load())


if __name__ == "__main__":
    main()
