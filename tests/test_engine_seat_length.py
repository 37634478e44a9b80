"""The expected game length of a rules game with 2-4 seats, race ending
(designer.engine.seat_length): against a slow reference written from the
rules (tests/engine_seats_reference.py: the values solved, every decision
taken from them, Gauss-Seidel over the lengths), against today's N-player
family solvers, against the two-seat length, and in ``designer solve``'s
output."""

import dataclasses
import itertools
import json

import numpy as np
import pytest
from cli_runner import cli
from engine_reference import PairOfDice, PenaltyDie
from engine_seats_reference import reference_seat_lengths
from test_engine_seats import CASES, PENALTY, PIGLET, SNAKE_EYES, _text

from designer import load_game
from designer.engine.game import load_rules_game, solve_game
from designer.engine.length import game_lengths
from designer.engine.seat_length import seat_lengths
from designer.engine.seats import solve_seats_model
from designer.engine.solve import solve_model
from designer.errors import ConvergenceError
from designer.solve import solve
from designer.solve.rounds import solve_rounds_dice

PIGLET_PASS = PIGLET  # a pass is allowed at a turn total of 0 (no minimum bank)

# the reference's lengths take a while on the larger tables: one game of each kind
LENGTH_CASES = ["piglet-2-3", "piglet-4-3", "piglet-3-4", "d3-bust-3", "deck-2-3-3",
                "aside-forced-4", "d3-min-bank-3", "choose-calm-3", "end-free-3",
                "end-forced-4", "choose-carry-4"]


def _close(got, want):
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


@pytest.mark.parametrize("name", LENGTH_CASES)
def test_lengths_match_reference(name):
    """Every turn start of the whole table (every tuple of scores, every
    start state) to 1e-9 of itself."""
    model, keys, proc, opts, goal, players = CASES[name]
    L, _ = seat_lengths(model, solve_seats_model(model, goal, players))
    want = reference_seat_lengths(proc, goal, players, **opts)
    h_of = {keys[s]: h for h, s in enumerate(solve_seats_model(model, goal, players).start_states)}
    for (scores, key), v in want.items():
        if key in h_of:
            assert _close(L[scores + (h_of[key],)], v), (scores, key)
    assert L.min() >= 1.0


@pytest.mark.parametrize("name, players, goal", [("snake-eyes", 3, 5), ("penalty", 3, 4)])
def test_lengths_where_scores_fall(name, players, goal):
    """Busts that set the banked score to 0, or take a point down to a
    floor of -2: the lengths are swept again until they settle."""
    text, proc, opts = {"snake-eyes": (SNAKE_EYES, PairOfDice(3), {}),
                        "penalty": (PENALTY, PenaltyDie(["bust", 1, 2], 1, -2),
                                    dict(floor=-2))}[name]
    rules = _text(text, goal)
    sol = solve_seats_model(rules.model, goal, players)
    L, _ = seat_lengths(rules.model, sol)
    want = reference_seat_lengths(proc, goal, players, **opts)
    lo = sol.floor
    for scores in itertools.product(range(lo, goal), repeat=players):
        idx = tuple(s - lo for s in scores) + (0,)
        assert _close(L[idx], want[(scores, "roll")]), scores


@pytest.mark.parametrize("family, rules, goal, players", [
    ("pig", "rules:pig", 20, 3), ("pig", "rules:pig", 12, 4),
    ("fowl-play", "rules:fowl-play", 12, 3), ("red-light", "rules:red-light", 8, 4)])
def test_lengths_equal_the_family_solvers(family, rules, goal, players):
    """The N-player family solvers count the same actions, at every komi
    vector of a few points."""
    fam = solve(load_game(family, goal=goal, players=players))
    game = load_rules_game(rules, goal=goal)
    sol = solve_seats_model(game.rules.model, goal, players)
    L, _ = seat_lengths(game.rules.model, sol)
    h0 = int(np.searchsorted(sol.start_states, 0))
    for rest in itertools.product(range(3), repeat=players - 1):
        start = (0,) + rest
        assert _close(L[start + (h0,)], fam.expected_actions(goal, list(start))), start


@pytest.mark.parametrize("name, goal", [("piglet", None), ("two-dice-pig", 25), ("hog", 25),
                                        ("farkle", 1000)])
def test_two_seats_equal_the_two_seat_length(name, goal):
    game = load_rules_game(name, **({"goal": goal} if goal else {}))
    model, G = game.rules.model, game.rules.goal
    L, _ = seat_lengths(model, solve_seats_model(model, G, 2))
    want, _ = game_lengths(model, solve_model(model, G, 0))
    assert np.abs(L - want).max() <= 1e-9 * want.max()


def test_turns_that_never_end_are_refused():
    """A table (not a solve's) under which every seat at 0 points passes
    at a turn total of 0: there the seat that moved last is worth 2, more
    than any throw can bring. Passes answered by passes never end the
    game, the length is not defined, and it is refused, not returned as
    junk."""
    model = _text(PIGLET_PASS, 6).model
    sol = solve_seats_model(model, 6, 3)
    win = np.zeros_like(sol.win)
    win[0, 0, 0, :, -1] = 2.0
    with pytest.raises(ConvergenceError, match="never end"):
        seat_lengths(model, dataclasses.replace(sol, win=win))


def test_solve_gives_the_length_of_three_seats():
    game = load_rules_game("rules:pig", goal=20, players=3)
    out = solve_game(game, max_komi=3)
    fam = solve(load_game("pig", goal=20, players=3))
    assert _close(out["expected_actions"], fam.expected_actions(20, [0, 0, 0]))
    for row in out["komi_table"]:
        m = row["komi"]
        assert _close(row["expected_actions"], fam.expected_actions(20, [0, m, m]))
    assert out["length_seconds"] >= 0.0
    # the game's own start points (a komi vector) are read off the same table
    game = load_rules_game("rules:pig", goal=20, players=3, komi=(0, 2, 5))
    out = solve_game(game, max_komi=0)
    assert _close(out["expected_actions"], fam.expected_actions(20, [0, 2, 5]))


def test_cli_shows_the_length_of_three_seats():
    r = cli("solve", "rules:pig", "--players", "3", "--goal", "20", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    fam = solve(load_game("pig", goal=20, players=3))
    assert _close(out["expected_actions"], fam.expected_actions(20, [0, 0, 0]))
    r = cli("solve", "rules:pig", "--players", "3", "--goal", "20")
    assert r.returncode == 0, r.stderr
    assert f"expected game length: {fam.expected_actions(20, [0, 0, 0]):.3f} actions" in r.stdout
    assert "game length (actions)" in r.stdout


def test_cli_says_what_it_leaves_out():
    """``--no-length`` leaves the length out, of the race and of the rounds
    ending; by default the rounds ending of 3 players shows it (equal to
    the dice family's N-seat rounds solver on Piglet)."""
    r = cli("solve", "rules:pig", "--players", "3", "--goal", "10", "--no-length", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "expected_actions" not in out and "expected_actions" not in out["komi_table"][0]
    args = ("solve", "piglet", "--players", "3", "--ending", "rounds", "--goal", "6",
            "--max-komi", "0")
    r = cli(*args, "--no-length", "--json")
    assert r.returncode == 0, r.stderr
    assert "expected_actions" not in json.loads(r.stdout)
    fam = solve_rounds_dice(2, [1], 6, 3)
    want = float(fam.start_actions[0])
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert f"expected game length: {want:.3f} actions" in r.stdout
    r = cli(*args, "--json")
    assert _close(json.loads(r.stdout)["expected_actions"], want)


def test_a_length_over_the_memory_limit_leaves_the_solve_standing(monkeypatch):
    """The length needs more memory than the solve; where it would pass
    the limit, the solve's figures are still given, with the reason."""
    import designer.engine.seat_length as seat_length

    monkeypatch.setattr(seat_length, "memory_needed", lambda p, players, nt: 10 ** 15)
    out = solve_game(load_rules_game("rules:pig", goal=10, players=3), max_komi=1)
    assert "expected_actions" not in out
    assert "over the limit" in out["length_error"]
    fam = solve(load_game("pig", goal=10, players=3))
    assert np.abs(np.array(out["seat_win"]) - fam.seat_win(10, [0, 0, 0])).max() < 1e-12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_piglet_to_two_lasts_seven_actions(players):
    """Piglet to 2, worked by hand: banking 1 point never helps, so every
    turn flips until tails (one flip, or heads then tails: 1/2 and 1/4) or
    two heads and the winning stop (three actions, 1/4). A game is a run of
    turns until a win, 4 on average: 3 that do not win, each
    (1/2 * 1 + 1/4 * 2) / (3/4) = 4/3 actions, and the winning one, 3:
    7 actions, whatever the number of seats."""
    model = _text(PIGLET, 2).model
    L, _ = seat_lengths(model, solve_seats_model(model, 2, players))
    assert abs(L[(0,) * players + (0,)] - 7.0) < 1e-12
