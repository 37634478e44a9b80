"""Two policies head to head under the rounds ending in the engine
(designer/engine/rounds_match.py): against a slow reference written from
the rules (tests/engine_rounds_match_reference.py), against the rounds
solve for optimal play, against the Zombie Dice solver's own match on the
all-yellow game, and through ``designer compare``."""

import numpy as np
import pytest
from engine_rounds_match_reference import Game, evaluate

from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL
from designer.engine.match import RulesPolicy
from designer.engine.rounds import solve_rounds_model
from designer.engine.rounds_match import match_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.errors import ConvergenceError

COIN = "goal = {goal}\n{turn}[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = {goal}\n{turn}[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"
FORCED = "[turn]\nforced_first = true\n"
ALL_YELLOW = ("goal = {goal}\nending = \"rounds\"\n[dice]\ncount = 3\nsides = 3\nother_faces = 0\n"
              "face.1 = {{ points = 1 }}\nface.2 = {{ aside = true }}\naside_bust = 3\n"
              "refill = true\n")

OPT = RulesPolicy(OPTIMAL, "optimal")
MAXS = RulesPolicy(MAX_SCORE, "max-score")


def hold(n):
    return RulesPolicy(HOLD_AT, f"hold-at:{n}", n)


def _ref(pol):
    return {OPTIMAL: "optimal", MAX_SCORE: "max-score"}.get(pol.kind, ("hold-at", pol.n))


CASES = [
    # (rules text, faces, goal, forced, start, A, B)
    (COIN, ["bust", 1], 3, False, (0, 0), hold(2), OPT),
    (COIN, ["bust", 1], 4, False, (0, 1), OPT, MAXS),
    (COIN, ["bust", 1], 5, True, (0, 0), hold(1), hold(3)),
    (COIN, ["bust", 1], 6, False, (2, 0), hold(2), OPT),
    (COIN, ["bust", 1], 4, True, (1, 0), OPT, OPT),
    (D3, ["bust", 2, 3], 5, False, (0, 0), hold(4), OPT),
    (D3, ["bust", 2, 3], 4, True, (0, 2), MAXS, OPT),
]


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, faces, goal, forced, start, a, b", CASES,
                         ids=[f"{c[1][-1]}-{c[2]}-{'forced-' if c[3] else ''}{c[4]}-"
                              f"{c[5].name}-{c[6].name}" for c in CASES])
def test_against_the_reference(ties, text, faces, goal, forced, start, a, b):
    model = parse_rules(text.format(goal=goal, turn=FORCED if forced else "")).model
    m = match_rounds_model(model, goal, a, b, ties=ties, cap=goal + 10)
    game = Game(faces, goal, ties, m.cap, forced_first=forced)
    w1, l1 = evaluate(game, _ref(a), _ref(b), start)
    w2, l2 = evaluate(game, _ref(b), _ref(a), start)
    assert m.win_as_first(start) == pytest.approx(w1, abs=1e-9)
    assert m.win_as_second(start) == pytest.approx(1.0 - w2, abs=1e-9)
    assert m.actions_as_first(start) == pytest.approx(l1, rel=1e-9)
    assert m.actions_as_second(start) == pytest.approx(l2, rel=1e-9)


@pytest.mark.parametrize("name, goal, ties", [("great-rolled-ones", 50, "earlier-seat"),
                                              ("great-rolled-ones", 30, "replay"),
                                              ("pig", 40, "replay"),
                                              ("pig", 25, "earlier-seat")])
def test_optimal_against_optimal_is_the_rounds_solve(name, goal, ties):
    model = load_rules(example_path(name)).model
    sol = solve_rounds_model(model, goal, ties=ties)
    m = match_rounds_model(model, goal, OPT, OPT, ties=ties, solution=sol)
    assert m.cap == sol.cap
    assert np.abs(m.win[0] - sol.X).max() < 1e-12
    assert np.abs(m.win[1] - sol.X).max() < 1e-12
    # and solved afresh when no solve is given
    again = match_rounds_model(model, goal, OPT, OPT, ties=ties)
    assert np.abs(again.win[0] - sol.X).max() < 1e-12


def test_a_fixed_policy_raises_the_cap_and_the_solve_follows():
    model = load_rules(example_path("pig")).model
    m = match_rounds_model(model, 20, hold(70), OPT, ties="replay")
    assert m.cap >= 20 + 70 + 6
    opt = match_rounds_model(model, 20, OPT, OPT, ties="replay", cap=m.cap)
    sol = solve_rounds_model(model, 20, ties="replay", cap=m.cap)
    assert np.abs(opt.win[0] - sol.X).max() < 1e-12


@pytest.mark.parametrize("pair", [("hold-at:3", "optimal"), ("hold-at:2", "hold-at:5"),
                                  ("optimal", "optimal")])
def test_all_yellow_zombie_dice_equals_the_zombie_solver(pair):
    """All-yellow Zombie Dice as a rules file against the Zombie Dice
    solver's exact match, whose fixed policies bank a winning hold of seat
    2 (``bank_wins``), at the same cap."""
    from designer import load_game
    from designer.analysis.compare import compare

    goal = 9
    family = load_game("zombie-yellow", goal=goal)
    want = compare(family, pair[0], pair[1], with_agreement=False)
    model = parse_rules(ALL_YELLOW.format(goal=goal)).model

    def pol(text):
        return OPT if text == "optimal" else hold(int(text.split(":")[1]))

    m = match_rounds_model(model, goal, pol(pair[0]), pol(pair[1]), ties="replay",
                           cap=family.cap, bank_wins=True)
    assert m.cap == family.cap
    assert m.win_as_first() == pytest.approx(want.win_as_first, abs=1e-9)
    assert m.win_as_second() == pytest.approx(want.win_as_second, abs=1e-9)
    # every roll of nothing but footprints counts, though the turn model
    # folds it away (its rolls counted on average)
    assert m.actions_as_first() == pytest.approx(want.actions_as_first, rel=1e-9)
    assert m.actions_as_second() == pytest.approx(want.actions_as_second, rel=1e-9)


def test_fixed_policies_follow_their_rule_not_the_winning_hold():
    """Seat 2 under hold-at rolls on past a winning total (the literal
    rule): it wins less than when it banks every winning total."""
    model = parse_rules(COIN.format(goal=6, turn="")).model
    literal = match_rounds_model(model, 6, OPT, hold(4), ties="replay")
    banks = match_rounds_model(model, 6, OPT, hold(4), ties="replay", bank_wins=True)
    assert literal.win_as_first() > banks.win_as_first() + 1e-4


def test_symmetric_fixed_policies_and_replayed_ties_make_the_seats_equal():
    """Policies that read only the turn total, ties replayed: the order of
    the seats changes nothing (each seat's gains are independent)."""
    model = load_rules(example_path("great-rolled-ones")).model
    m = match_rounds_model(model, 50, MAXS, hold(10), ties="replay")
    assert m.win_as_first() == pytest.approx(m.win_as_second(), abs=1e-12)
    e = match_rounds_model(model, 50, MAXS, hold(10), ties="earlier-seat")
    assert e.win_as_first() > e.win_as_second()


def test_turns_that_never_end_are_refused_in_one_line():
    """Two coin players holding at 60 to a goal of 3: a turn scores with
    chance 2**-60, below what the exact solve tells from never (its
    matrix is singular to 1e-14), so the match is refused as endless."""
    model = parse_rules(COIN.format(goal=3, turn="")).model
    with pytest.raises(ConvergenceError, match="go on forever") as exc:
        match_rounds_model(model, 3, hold(60), hold(60), ties="replay")
    assert "\n" not in str(exc.value)
    assert match_rounds_model(model, 3, hold(1), hold(2), ties="replay").win_as_first() > 0
