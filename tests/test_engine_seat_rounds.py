"""The engine with two to four seats under the rounds ending
(designer.engine.seat_rounds), win probabilities and game length.

Checked against a slow reference written from the rules
(tests/engine_seat_rounds_reference.py: value iteration over full game
states), against today's N-seat rounds solvers of the dice and deck
families (designer.solve.rounds), against the two-seat rounds engine and
its match of optimal play, and through the command line.
"""

import json

import numpy as np
import pytest
from cli_runner import cli
from engine_seat_rounds_reference import Reference

from designer.engine._match_kernels import OPTIMAL
from designer.engine.game import check_game, load_rules_game, solve_game
from designer.engine.match import RulesPolicy
from designer.engine.rounds import solve_rounds_model
from designer.engine.rounds_match import match_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.engine.seat_rounds import TooLargeError, estimate, solve_seat_rounds_model
from designer.errors import DesignError
from designer.solve.rounds import solve_rounds_deck, solve_rounds_dice

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
FORCED = ("goal = {goal}\n[turn]\nforced_first = true\n[dice]\nsides = 3\n"
          "face.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\nface.3 = {{ points = 2 }}\n")
DECK = "goal = {goal}\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 3\n"
HOG = ("goal = {goal}\n[dice]\ncount = [1, 2]\nsides = 3\nface.1 = {{ bust = true }}\n"
       "one_throw = true\nbust_points = 1\n")
# two scoring dice: which to keep is a choice, a kept pair rolls both again
KEEP = ("goal = {goal}\n[turn]\nforced_first = true\n[scoring_dice]\ncount = 2\nsides = 3\n"
        "unit = 1\nsingles = {{ 1 = 2, 3 = 1 }}\nhot_dice = true\n")


def _model(text, goal):
    return parse_rules(text.format(goal=goal)).model


# -- the reference ----------------------------------------------------------------------------

@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, goal, players, cap, starts", [
    (PIGLET, 3, 3, 6, [(0, 0, 0), (1, 0, 2), (0, 2, 1)]),
    (FORCED, 3, 3, 6, [(0, 0, 0), (2, 1, 0)]),
    (PIGLET, 2, 4, 4, [(0, 0, 0, 0), (0, 1, 0, 1)]),
    (DECK, 3, 3, 5, [(0, 0, 0), (0, 1, 2)]),
    (HOG, 4, 3, 7, [(0, 0, 0), (3, 1, 0)]),
])
def test_engine_matches_reference(text, goal, players, cap, starts, ties):
    """Coins, a forced first roll, a deck that persists across turns, a
    turn of one throw (the mover picks the dice), komi per seat, both tie
    rules: every seat's win, 1e-9."""
    model = _model(text, goal)
    got = solve_seat_rounds_model(model, goal, players, ties=ties, cap=cap)
    assert got.unsettled_positions == 0
    for start in starts:
        want = Reference(model, goal, players, ties=ties, cap=cap).solve(start)
        assert np.abs(got.value(start) - want).max() < 1e-9, start


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, goal, players, cap, starts", [
    (PIGLET, 3, 3, 6, [(0, 0, 0), (1, 0, 2)]),
    (FORCED, 3, 3, 6, [(2, 1, 0)]),
    (PIGLET, 2, 4, 4, [(0, 1, 0, 1)]),
    (DECK, 3, 3, 5, [(0, 0, 0)]),
    (HOG, 4, 3, 7, [(3, 1, 0)]),
    (KEEP, 3, 3, 6, [(0, 0, 0), (0, 2, 1)]),
    (KEEP, 4, 2, 6, [(0, 0), (1, 3)]),
])
def test_game_length_matches_reference(text, goal, players, cap, starts, ties):
    """The expected actions left at a round's start, under the solved
    decisions, against the reference's count (every throw, every stop, a
    stop forced by the cap or won by the last seat), 1e-9; asking for
    them leaves every win as it is."""
    model = _model(text, goal)
    got = solve_seat_rounds_model(model, goal, players, ties=ties, cap=cap, length=True)
    plain = solve_seat_rounds_model(model, goal, players, ties=ties, cap=cap)
    assert plain.actions is None
    assert np.abs(got.win - plain.win).max() < 1e-14
    for start in starts:
        ref = Reference(model, goal, players, ties=ties, cap=cap)
        assert np.abs(got.value(start) - ref.solve(start)).max() < 1e-9
        want = ref.length(start)
        assert abs(got.actions[tuple(start) + (0,)] - want) < 1e-9 * want, start


# -- today's solvers --------------------------------------------------------------------------

@pytest.mark.parametrize("players, goal", [(3, 10), (4, 5)])
def test_pig_matches_todays_solver(players, goal):
    """Pig with three and four seats (replay): the engine on the shipped
    pig.toml equals the dice family's rounds solver at every start, 1e-12."""
    rules = load_rules(example_path("pig"))
    got = solve_seat_rounds_model(rules.model, goal, players, length=True)
    fam = solve_rounds_dice(6, [2, 3, 4, 5, 6], goal, players)
    assert fam.unsettled == 0 and got.unsettled_positions == 0
    assert np.abs(fam.start_win - got.win[..., 0, :].reshape(-1, players)).max() < 1e-12
    # the game length too, from every start (measured: 1e-14)
    assert np.abs(fam.start_actions - got.actions[..., 0].reshape(-1)).max() < 1e-9


def test_deck_matches_todays_solver():
    """A 3-seat deck game (2 bad, 8 good, goal 8): every turn start of the
    deck family's rounds solver, 1e-12 (a turn gains at most 8 points, so
    neither cap binds)."""
    text = (open(example_path("fowl-play")).read().replace("bad = 6", "bad = 2")
            .replace("good = 42", "good = 8").replace("goal = 50", "goal = 8"))
    rules = parse_rules(text)
    got = solve_seat_rounds_model(rules.model, 8, 3, length=True)
    fam = solve_rounds_deck(2, 8, 8, 3)
    assert fam.unsettled == 0 and got.unsettled_positions == 0
    assert got.feedback == 3  # a fresh deck, for every seat
    for h, state in enumerate(got.start_states):
        w, c = rules.keys[state]
        want = fam.win[0][:, w, c, :]
        assert np.abs(want - got.win[..., h, :].reshape(-1, 3)).max() < 1e-12
        want = fam.actions[0][:, w, c]
        assert np.abs(want - got.actions[..., h].reshape(-1)).max() < 1e-9


@pytest.mark.parametrize("name, goal", [("piglet", 6), ("pig", 15), ("great-rolled-ones", 10),
                                        ("hog", 12), ("farkle", 8), ("red-light", 8)])
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_two_seats_equal_the_two_seat_solver(name, goal, ties):
    """Two seats through the N-seat path equal the two-seat rounds engine
    at every round start, 1e-12."""
    model = load_rules(example_path(name)).model
    two = solve_rounds_model(model, goal, ties=ties)
    got = solve_seat_rounds_model(model, goal, 2, ties=ties)
    assert np.abs(two.X - got.win[..., 0]).max() < 1e-12


@pytest.mark.parametrize("name, goal", [("pig", 12), ("great-rolled-ones", 8), ("farkle", 8),
                                        ("red-light", 8)])
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_two_seat_length_equals_the_match_of_optimal_play(name, goal, ties):
    """Two seats through the N-seat path: the game length equals the
    two-seat rounds match of optimal against optimal play (another code
    path: by lead, affine in the tie round's values) at every round start,
    1e-9, at the match's cap."""
    model = load_rules(example_path(name)).model
    opt = RulesPolicy(OPTIMAL, "optimal")
    m = match_rounds_model(model, goal, opt, opt, ties=ties)
    got = solve_seat_rounds_model(model, goal, 2, ties=ties, cap=m.cap, length=True)
    for h, state in enumerate(got.start_states):
        hm = int(np.searchsorted(m.start_states, state))
        assert np.abs(got.actions[..., h] - m.actions[0, :, :, hm]).max() < 1e-9


# -- invariants -------------------------------------------------------------------------------

def test_the_cap_does_not_move_the_figures():
    """3-player Pig to 8: the default cap and one 40 points higher give the
    same table, 1e-12."""
    model = load_rules(example_path("pig")).model
    a = solve_seat_rounds_model(model, 8, 3, length=True)
    b = solve_seat_rounds_model(model, 8, 3, cap=a.cap + 40, length=True)
    assert np.abs(a.win - b.win).max() < 1e-12
    assert np.abs(a.actions - b.actions).max() < 1e-9


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_seat_wins_sum_to_one(ties):
    model = load_rules(example_path("great-rolled-ones")).model
    got = solve_seat_rounds_model(model, 6, 4, ties=ties)
    assert np.abs(got.win.sum(axis=-1) - 1).max() < 1e-12


def test_unsettled_tuples_are_counted():
    """3-player Pig to 15 has max-n cycles (as today's solver finds): they
    are counted, with their residual, and the solve ends; the game length
    under the iterates kept is finite everywhere."""
    got = solve_seat_rounds_model(load_rules(example_path("pig")).model, 15, 3, length=True)
    assert got.unsettled_positions > 0 and 0 < got.unsettled_residual < 0.1
    assert got.residual < 1e-12
    assert np.isfinite(got.actions).all() and got.actions.min() > 1


def test_estimate_before_solving_and_too_large():
    model = load_rules(example_path("pig")).model
    est = estimate(model, 10, 3)
    assert est["positions"] == solve_seat_rounds_model(model, 10, 3).states
    assert est["memory"] > 0 and not est["at_least"]
    with pytest.raises(TooLargeError, match="over the limit"):
        solve_seat_rounds_model(model, 100, 4)
    with pytest.raises(DesignError, match="players"):
        solve_seat_rounds_model(model, 10, 5)
    with pytest.raises(DesignError, match="ties"):
        solve_seat_rounds_model(model, 10, 3, ties="coin")
    falls = load_rules(example_path("two-dice-pig")).model
    with pytest.raises(DesignError, match="lower a banked score"):
        solve_seat_rounds_model(falls, 10, 3)


def test_solve_game_keys():
    game = load_rules_game("piglet", goal=5, players=3, ending="rounds", komi=(1, 0, 2))
    out = solve_game(game)
    r = solve_seat_rounds_model(load_rules(example_path("piglet")).model, 5, 3)
    assert out["seat_win"] == pytest.approx(list(r.value((1, 0, 2))), abs=1e-15)
    assert out["ending"] == "rounds" and out["ties"] == "replay" and out["cap"] == r.cap
    fk = out["fair_komi"]
    assert min(fk) == 0 and len(fk) == 3
    assert out["fair_komi_fairness"] <= out["komi_table"][0]["fairness"]
    assert check_game(game)["states"] == out["states"]


# -- the command line -------------------------------------------------------------------------

def test_cli_solves_three_seats_in_rounds():
    r = cli("solve", "piglet", "--goal", "5", "--players", "3", "--ending", "rounds", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["players"] == 3 and out["ending"] == "rounds" and len(out["seat_win"]) == 3
    want = solve_seat_rounds_model(load_rules(example_path("piglet")).model, 5, 3).seat_win()
    assert out["seat_win"] == pytest.approx(list(want), abs=1e-15)
    r = cli("solve", "piglet", "--goal", "5", "--players", "4", "--ending", "rounds")
    assert r.returncode == 0, r.stderr
    assert "4 players, rounds" in r.stdout and "seat 4" in r.stdout
    assert "ties: replay" in r.stdout
    r = cli("solve", "great-rolled-ones", "--goal", "6", "--players", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ties"] == "earlier-seat" and out["ending"] == "rounds"
    model = load_rules(example_path("great-rolled-ones")).model
    want = solve_seat_rounds_model(model, 6, 3, ties="earlier-seat").seat_win()
    assert out["seat_win"] == pytest.approx(list(want), abs=1e-15)


def test_cli_rules_check_reports_the_figures():
    r = cli("rules", "check", "rules:pig", "--players", "3", "--ending", "rounds", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    # what designer solve runs: the solve with the game length, which fits here
    est = estimate(load_rules(example_path("pig")).model, 100, 3, length=True)
    assert out["states"] == est["positions"] and out["memory_bytes"] == est["memory"]
    assert est["memory"] > estimate(load_rules(example_path("pig")).model, 100, 3)["memory"]
    assert out["fits"] and out["ties"] == "replay"


@pytest.mark.parametrize("args, words", [
    (("rules:pig", "--players", "4"), "over the limit"),
    (("piglet", "--players", "5"), "2-4 players"),
    (("piglet", "--players", "3", "--goal", "100000"), "over the limit"),
])
def test_cli_refuses_in_one_line(args, words):
    r = cli("solve", *args, "--ending", "rounds", "--json")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def test_a_length_over_the_memory_limit_leaves_the_solve_standing(monkeypatch):
    """The length takes one more number per stored value; where that would
    pass the memory limit the solve alone fits, the wins are still given,
    with the reason, and the length is left out."""
    import designer.engine.seat_rounds as seat_rounds

    real = seat_rounds.estimate

    def estimate(*args, length=False, **kw):
        out = real(*args, length=length, **kw)
        return out | {"memory": 10 ** 15} if length else out

    monkeypatch.setattr(seat_rounds, "estimate", estimate)
    game = load_rules_game("piglet", goal=5, players=3, ending="rounds")
    out = solve_game(game, max_komi=1)
    assert "expected_actions" not in out and "expected_actions" not in out["komi_table"][0]
    assert "over the limit" in out["length_error"] and "game length" in out["length_error"]
    r = solve_seat_rounds_model(load_rules(example_path("piglet")).model, 5, 3)
    assert out["seat_win"] == pytest.approx(list(r.value((0, 0, 0))), abs=1e-15)
    monkeypatch.undo()
    out = solve_game(game, max_komi=1)
    assert "length_error" not in out and out["expected_actions"] > 1
