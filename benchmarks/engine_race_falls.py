"""Benchmark: the race where busts lower a banked score, on one thread and on two.

Run by hand: ``python benchmarks/engine_race_falls.py [--repeats N] [--busy]``.

Where a bust can lower a banked score the race's table is iterated, pass
after pass, until no win moves by more than 1e-12 (and the game length
after it, the same way). A pass used to run on one thread, the pairs (or,
with three or four seats, the rotation classes) in order of decreasing
score sum, because a pair reads pairs of smaller sums that the same pass
has not solved yet. Now those reads go to the table as the last pass left
it, so every thread takes part and the numbers stay those of one thread,
bit for bit. The baseline is therefore the same solve on one of numba's
threads (what every version before ran), in the same process, alternating
with two threads so that both meet the same load: the medians of the
wall seconds, their ratio (two / one), and a check that both
tables are equal.

Rows: Two-Dice Pig to 100 (a double 1 wipes the score: few passes), Pig
whose 1 costs 10 banked points, to 150 (floor -30: hundreds of passes),
Farkle with the three-farkle penalty to 400 (several start states: the
general sweep), each solve and its game length; the two-seat match of
``max-score`` against optimal play on the penalty game to 80 (whose score
sums already went in order, but on one thread); and Two-Dice Pig to 30
with three seats.

With ``--busy`` every row runs again beside one CPU-bound process, where
two threads should not take more than 1.2 times one.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import one_and_two_threads, run_rows  # noqa: E402

from designer.engine.length import game_lengths  # noqa: E402
from designer.engine.match import match_model, parse_rules_policy  # noqa: E402
from designer.engine.rulesfile import example_path, load_rules, parse_rules  # noqa: E402
from designer.engine.seat_length import seat_lengths  # noqa: E402
from designer.engine.seats import solve_seats_model  # noqa: E402
from designer.engine.solve import solve_model  # noqa: E402

PENALTY_PIG = ("name = \"Pig, a 1 costs 10\"\ngoal = 150\n[dice]\nsides = 6\nface.1 = { bust = true }\n"
               "[dice.bust_effect]\nbust_faces = 1\nscore = \"penalty\"\npenalty = 10\n"
               "floor = -30\n")


def _farkle_penalty(goal):
    lines = [f"goal = {goal}" if line.startswith("goal =") else line
             for line in example_path("farkle").read_text().splitlines()
             if not line.startswith("#")]  # (the header names the table too)
    text = "\n".join(lines).replace(
        "[scoring_dice]",
        "[scoring_dice]\nfarkle_penalty = { farkles = 3, points = 500, floor = -1000 }", 1)
    return parse_rules(text)


def _games():
    return [("Two-Dice Pig to 100", load_rules(example_path("two-dice-pig"))),
            ("Pig, 1 costs 10, to 150", parse_rules(PENALTY_PIG)),
            ("Farkle, penalty, to 400", _farkle_penalty(400))]


def _show(label, one, two, same):
    print(f"  {label:<48} one {one:>8.3f} s  two {two:>8.3f} s  two / one {two / one:>5.2f}"
          f"  {'equal' if same else 'DIFFERENT'}", flush=True)


def _race_row(repeats):
    for name, rules in _games():
        model, goal = rules.model, rules.goal
        t1, t2, a, b = one_and_two_threads(lambda: solve_model(model, goal), repeats)
        _show(f"{name}: solve ({a.passes} passes)", t1, t2, np.array_equal(a.win, b.win))
        t1, t2, la, lb = one_and_two_threads(lambda: game_lengths(model, a)[0], repeats)
        _show(f"{name}: length", t1, t2, np.array_equal(la, lb))


def _match_row(repeats):
    rules = parse_rules(PENALTY_PIG.replace("goal = 150", "goal = 80"))  # (150: about 2 min)
    sol = solve_model(rules.model, rules.goal)
    a = parse_rules_policy("max-score", rules)
    b = parse_rules_policy("optimal", rules)
    t1, t2, x, y = one_and_two_threads(
        lambda: match_model(rules.model, rules.goal, a, b, solution=sol), repeats)
    _show("Pig, 1 costs 10, to 80: max-score v optimal", t1, t2, np.array_equal(x.win, y.win))


def _seats_row(repeats):
    rules = load_rules(example_path("two-dice-pig"))
    t1, t2, a, b = one_and_two_threads(lambda: solve_seats_model(rules.model, 30, 3), repeats)
    _show(f"Two-Dice Pig, 3 seats, to 30 ({a.passes} passes)", t1, t2,
          np.array_equal(a.win, b.win))
    t1, t2, la, lb = one_and_two_threads(lambda: seat_lengths(rules.model, a)[0], repeats)
    _show("Two-Dice Pig, 3 seats, to 30: length", t1, t2, np.array_equal(la, lb))


def _warm():
    rules = parse_rules(PENALTY_PIG.replace("goal = 150", "goal = 20"))
    sol = solve_model(rules.model, 20)
    game_lengths(rules.model, sol)
    match_model(rules.model, 20, parse_rules_policy("max-score", rules),
                parse_rules_policy("optimal", rules), solution=sol)
    seats = solve_seats_model(rules.model, 10, 3)
    seat_lengths(rules.model, seats)


if __name__ == "__main__":
    run_rows(__doc__, (_race_row, _match_row, _seats_row), _warm)
