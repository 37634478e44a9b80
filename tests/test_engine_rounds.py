"""The rounds ending in the engine (designer.engine.rounds), two seats:
against a slow reference written from the rules (tests/engine_reference.py),
against today's rounds solver on Pig, and The Great Rolled Ones."""

import numpy as np
import pytest
from engine_reference import AsideDice, Die, reference_rounds

from designer import load_game
from designer.engine.game import load_rules_game, solve_game
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import RulesError, example_path, load_rules, parse_rules
from designer.errors import DesignError
from designer.solve import solve

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
# two bust faces: holding at a tie beats rolling on, so the tie rules differ
HARD = ("goal = 4\n[dice]\nsides = 3\nface.1 = { bust = true }\nface.2 = { bust = true }\n"
        "face.3 = { points = 1 }\n")
ASIDE = ("goal = 6\n[turn]\nforced_first = true\n[dice]\ncount = 3\nsides = 3\n"
         "other_faces = 1\nface.1 = { aside = true }\naside_bust = 2\n")

CASES = [(ties, name, text, proc, opts)
         for ties in ("replay", "earlier-seat")
         for name, text, proc, opts in [
             ("piglet-3", PIGLET.format(goal=3), Die(["bust", 1]), {}),
             ("piglet-5", PIGLET.format(goal=5), Die(["bust", 1]), {}),
             ("d3-8", D3, Die(["bust", 2, 3]), {}),
             ("hard-4", HARD, Die(["bust", "bust", 1]), {})]]
# turns that can run long: the reference's absolute cap matters in a tie
# round, so only the tie rule without tie rounds here
CASES.append(("earlier-seat", "aside-6", ASIDE, AsideDice(3, 3, 2), dict(forced_first=True)))


@pytest.mark.parametrize("ties, name, text, proc, opts", CASES,
                         ids=[f"{c[1]}-{c[0]}" for c in CASES])
def test_rounds_match_reference(ties, name, text, proc, opts):
    rules = parse_rules(text, name)
    cap = rules.goal + 30
    got = solve_rounds_model(rules.model, rules.goal, ties=ties, cap=cap)
    p, R = reference_rounds(proc, rules.goal, ties, cap=cap, **opts)
    key = "roll" if proc.start == "roll" else 0
    assert abs(got.first_player_win - p) < 1e-9
    for a in range(rules.goal):
        for b in range(rules.goal):
            assert abs(got.X[a, b, 0] - R[(a, b, key)]) < 1e-9, (a, b)
    assert got.residual <= 1e-12


def test_tie_rules_differ_where_a_tie_is_worth_holding():
    rules = parse_rules(HARD)
    replay = solve_rounds_model(rules.model, rules.goal, ties="replay")
    earlier = solve_rounds_model(rules.model, rules.goal, ties="earlier-seat")
    assert earlier.first_player_win > replay.first_player_win + 1e-3  # ties go to seat 1


@pytest.mark.parametrize("goal", [20, 100])
def test_pig_rounds_match_todays_solver(goal):
    rules = load_rules(example_path("pig"))
    got = solve_rounds_model(rules.model, goal, ties="replay")
    today = solve(load_game("pig", goal=goal, ending="rounds"))
    assert got.cap == today.cap
    table = today.start_win.reshape(goal, goal, 2)[..., 0]
    assert np.abs(got.X[:, :, 0] - table).max() < 1e-12


def test_the_cap_does_not_move_the_figures():
    rules = load_rules(example_path("great-rolled-ones"))
    a = solve_rounds_model(rules.model, rules.goal, ties=rules.ties, cap=rules.goal + 60)
    b = solve_rounds_model(rules.model, rules.goal, ties=rules.ties, cap=rules.goal + 100)
    assert np.abs(a.X - b.X).max() < 1e-12
    rules = parse_rules(ASIDE)
    a = solve_rounds_model(rules.model, rules.goal, ties="replay", cap=rules.goal + 20)
    b = solve_rounds_model(rules.model, rules.goal, ties="replay", cap=rules.goal + 60)
    assert np.abs(a.X - b.X).max() < 1e-12


def test_great_rolled_ones():
    game = load_rules_game("great-rolled-ones")
    assert game.ending == "rounds" and game.rules.ties == "earlier-seat"
    assert game.rules.model.forced_first
    out = solve_game(game)
    assert round(out["first_player_win"], 6) == 0.449553
    assert out["fair_komi"] == -3  # seat 1 starts with 3 points
    assert round(out["fair_komi_first_player_win"], 6) == 0.495505
    text = example_path("great-rolled-ones").read_text()
    assert "Random Fun Generator" in text and "Neller" in text and "2023" in text


def test_ties_only_with_the_rounds_ending():
    with pytest.raises(RulesError, match="ties: only with ending"):
        parse_rules("ties = \"replay\"\n" + D3)
    with pytest.raises(RulesError, match="ties: 'later' is not allowed"):
        parse_rules("ending = \"rounds\"\nties = \"later\"\n" + D3)


def test_falling_scores_are_refused_under_rounds():
    rules = load_rules(example_path("two-dice-pig"))
    with pytest.raises(DesignError, match="lower a banked score"):
        solve_rounds_model(rules.model, 20)
