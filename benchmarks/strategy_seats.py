"""Benchmark: what one rule costs a strategy search with 3 or 4 players.

A strategy card scores every candidate rule exactly at each seat in turn,
the other seats playing the N-player optimum (solved once). For each game
this prints, in one process, the median seconds of the N-player solve (the
baseline), of one rule scored at every seat (``RulesEvaluator.score``) and
their ratio, over ``--repeats`` runs, and for comparison the same rule
scored in the two-player game (the two seatings of one match) against the
two-player solve. The rule is a threshold with a clause on the highest
other score, as the search tries them. The Great Rolled Ones is played in
equal turns (the rounds ending, a tie to the earlier seat), and so is Pig
in two rows (a tied round replayed): there the solve is made at the cap
every rule shares and kept between rules. In the second Pig row the rule
also reads its own score past the goal (``i >= 60``), so that a replayed
round is scored at every level its players can tie at (the first row's
rule decides alike at every level: one round serves them all). The load
average is printed: the machine is shared; the table is printed again
beside one CPU-bound process.

    PYTHONPATH=. python benchmarks/strategy_seats.py [--repeats 5] [--no-busy]
"""

import argparse

from _timing import Busy, load, median_time

from designer.engine.game import load_rules_game
from designer.policies.rules import Rule
from designer.strategy.rules_game import RulesEvaluator

PIG = "max_ij >= 40 -> roll; below 20"
FARKLE = "dice_left <= 2 -> below 300; below 500"
GRO = "opp_need <= 0 -> roll; below 8"
#: (game, goal, players, ending (None: the game's), rule)
GAMES = [("pig", 50, 3, None, PIG), ("pig", 30, 4, None, PIG), ("farkle", 1000, 3, None, FARKLE),
         ("great-rolled-ones", 20, 3, None, GRO), ("great-rolled-ones", 30, 3, None, GRO),
         ("pig", 50, 3, "rounds", "j >= 40 -> below 25; below 20"),
         ("pig", 50, 3, "rounds", "i >= 60 -> below 10; j >= 40 -> below 25; below 20")]


def _median(f, repeats):
    return median_time(f, repeats)[0]


def _table(repeats):
    print(f"{'game':<40} {'solve':>8} {'one rule':>9} {'ratio':>6}   {'2p solve':>8} "
          f"{'2p rule':>8} {'ratio':>6}")
    for name, goal, players, ending, text in GAMES:
        row = []
        for n in (players, 2):
            game = load_rules_game(name, goal=goal, players=n, ending=ending)
            rule = Rule.parse("rules", text, game.rules.model.feature_names)
            RulesEvaluator(game).score(rule)  # compile or load the kernels
            solve = _median(lambda g=game: RulesEvaluator(g), repeats)
            ev = RulesEvaluator(game)
            one = _median(lambda e=ev, r=rule: e.score(r), repeats)
            row += [solve, one, one / solve]
        label = f"{name} to {goal}, {players} players" + (f", {ending}" if ending else "")
        if text.startswith("i >="):
            label += ", reads i"
        print(label.ljust(40)
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
