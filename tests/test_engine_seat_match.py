"""A policy at one seat of a 2-4 seat race of a rules game, the others
optimal (designer.engine.seat_match): against a slow reference written from
the rules (tests/engine_seats_reference.py: absolute seats, the optimal
seats' decisions from the reference's own solve), against the two-seat
match with two seats, and its invariants."""

import dataclasses
import itertools
import json

import numpy as np
import pytest
from engine_reference import PairOfDice, PenaltyDie
from engine_seats_reference import reference_profile
from test_engine_parts import SMALL_CUP
from test_engine_seats import CASES, PENALTY, PIGLET, SNAKE_EYES, _text

from designer.engine._match_kernels import HOLD_AT, OPTIMAL
from designer.engine.game import load_rules_game
from designer.engine.match import RulesPolicy, match_model, parse_rules_policy
from designer.engine.seat_match import seat_profile
from designer.engine.seats import solve_seats_model
from designer.engine.solve import TooLargeError
from designer.errors import ConvergenceError

PIGLET_PASS = PIGLET  # a pass is allowed at a turn total of 0 (no minimum bank)

PROFILE_CASES = ["piglet-4-3", "piglet-3-4", "d3-bust-3", "deck-2-3-3", "aside-forced-3",
                 "d3-min-bank-3", "choose-calm-3", "end-free-3", "end-forced-3",
                 "choose-carry-4"]


def _hold(n):
    return RulesPolicy(HOLD_AT, f"hold-at:{n}", n)


@pytest.mark.parametrize("name", PROFILE_CASES)
def test_every_placement_matches_the_reference(name):
    """``hold-at:2`` at each seat in turn: every seat's win at every tuple
    of scores and start state, seat 1 moving, to 1e-9."""
    model, keys, proc, opts, goal, players = CASES[name]
    sol = solve_seats_model(model, goal, players)
    prof = seat_profile(model, sol, _hold(2))
    h_of = {keys[s]: h for h, s in enumerate(sol.start_states)}
    for seat in range(players):
        want = reference_profile(proc, goal, players, seat, 2, **opts)
        for (scores, key), v in want.items():
            if key in h_of:
                got = prof.win[scores + (h_of[key], seat)]
                assert np.abs(got - np.array(v)).max() < 1e-9, (seat, scores, key)


@pytest.mark.parametrize("name, players, goal", [("snake-eyes", 3, 5), ("penalty", 3, 4)])
def test_where_scores_fall(name, players, goal):
    """Busts that wipe the banked score, or take a point down to a floor of
    -2: the classes are swept again until no win moves."""
    text, proc, opts = {"snake-eyes": (SNAKE_EYES, PairOfDice(3), {}),
                        "penalty": (PENALTY, PenaltyDie(["bust", 1, 2], 1, -2),
                                    dict(floor=-2))}[name]
    rules = _text(text, goal)
    sol = solve_seats_model(rules.model, goal, players)
    prof = seat_profile(rules.model, sol, _hold(2))
    assert prof.passes > 1 and prof.residual <= 1e-12
    lo = sol.floor
    for seat in range(players):
        want = reference_profile(proc, goal, players, seat, 2, **opts)
        for scores in itertools.product(range(lo, goal), repeat=players):
            got = prof.win[tuple(s - lo for s in scores) + (0, seat)]
            assert np.abs(got - np.array(want[(scores, "roll")])).max() < 1e-9, scores


@pytest.mark.parametrize("name, goal, policy", [
    ("pig", 30, "hold-at:5"), ("fowl-play", 15, "hold-at:3"), ("two-dice-pig", 25, "hold-at:8"),
    ("hog", 20, "hold-at:6"), ("farkle", 800, "rule:dice_left <= 2 -> below 300; below 500"),
    ("great-rolled-ones", 20, "max-score"), ("small-cup", 6, "hold-at:2")])
def test_two_seats_equal_the_two_seat_match(name, goal, policy, tmp_path):
    """With two seats the profile is the two-seat match of the policy
    against optimal play (another kernel), at every pair of scores. The
    cup is Zombie Dice's with five dice (the same parts as the full game:
    dice set aside, footprints rerolled, brains returned to a short cup)."""
    if name == "small-cup":
        name = tmp_path / "cup.toml"
        name.write_text(SMALL_CUP.format(goal=goal, ending="race"))
    g = load_rules_game(str(name), goal=goal)
    m = g.rules.model
    pol = parse_rules_policy(policy, g)
    prof = seat_profile(m, solve_seats_model(m, g.rules.goal, 2), pol, unit=g.unit)
    match = match_model(m, g.rules.goal, pol, parse_rules_policy("optimal", g), unit=g.unit)
    # match.win[p, i, j, h]: the mover's win, the mover playing A (p = 0) or B
    assert np.abs(prof.win[..., 0, 0] - match.win[0]).max() < 1e-12
    assert np.abs(prof.win[..., 1, 1] - (1.0 - match.win[1])).max() < 1e-12


@pytest.mark.parametrize("name, goal, players", [("pig", 30, 3), ("fowl-play", 10, 3),
                                                 ("pig", 15, 4), ("two-dice-pig", 15, 3)])
def test_optimal_at_a_seat_is_the_solve(name, goal, players):
    """Optimal play at the policy seat gives the solve's own table back,
    for every placement; every vector sums to 1."""
    g = load_rules_game(name, goal=goal, players=players)
    sol = solve_seats_model(g.rules.model, g.rules.goal, players)
    prof = seat_profile(g.rules.model, sol, RulesPolicy(OPTIMAL, "optimal"))
    for d in range(players):
        assert np.abs(prof.win[..., d, :] - sol.win).max() < 1e-12
    hold = seat_profile(g.rules.model, sol, _hold(4))
    assert np.abs(hold.win.sum(axis=-1) - 1.0).max() < 1e-12


def test_play_that_never_ends_is_refused():
    """A table (not a solve's) under which every seat at 0 points passes at
    a turn total of 0: there the seat that moved last is worth 2, more than
    any throw can bring. Passes answered by passes never end the game:
    refused in one line, never returned as junk."""
    model = _text(PIGLET_PASS, 6).model
    sol = solve_seats_model(model, 6, 3)
    win = np.zeros_like(sol.win)
    win[0, 0, 0, :, -1] = 2.0
    with pytest.raises(ConvergenceError, match=r"optimal at one seat of 3 on this game: the "
                                               r"turns at scores \(0, 0, 0\) can go on forever"):
        seat_profile(model, dataclasses.replace(sol, win=win), RulesPolicy(OPTIMAL, "optimal"))


def test_too_large_is_refused_before_anything_is_allocated():
    g = load_rules_game("pig", goal=30, players=3)
    sol = solve_seats_model(g.rules.model, g.rules.goal, 3)
    with pytest.raises(TooLargeError, match=r"hold-at:4 at one seat of 3 on pig needs [\d,]+ MB, "
                                            r"over the limit of 1 MB"):
        seat_profile(g.rules.model, sol, _hold(4), name="pig", memory_limit=2**20)


@pytest.mark.parametrize("rules, family, goal, players, policy", [
    ("rules:pig", "pig", 30, 3, "hold-at:5"), ("rules:fowl-play", "fowl-play", 12, 3, "max-score"),
    ("rules:pig", "pig", 16, 4, "hold-at:8")])
def test_compare_equals_the_family_seat_compare(rules, family, goal, players, policy):
    """``designer compare`` of a rules game with 3-4 players equals the
    family's own seat compare (another solver and another evaluator) on the
    same rules: every seat's win playing the policy and playing optimally."""
    from cli_runner import cli

    out = {}
    for name in (rules, family):
        r = cli("compare", name, "--players", str(players), "--goal", str(goal), "--policy",
                policy, "--json")
        assert r.returncode == 0, r.stderr
        out[name] = json.loads(r.stdout)
    a, b = out[rules], out[family]
    assert a["players"] == players and a["policy"] == policy and a["against"] == "optimal"
    for x, y in zip(a["seats"], b["seats"]):
        assert x["seat"] == y["seat"]
        assert abs(x["win"] - y["win"]) < 1e-12 and abs(x["optimal_win"] - y["optimal_win"]) < 1e-12
        assert x["difference"] < 0  # a fixed rule never beats the optimum at its seat


def test_compare_reads_rules_and_start_points():
    """A rule reads the highest opponent score as ``j``; a komi vector sets
    every seat's start; the table shows every seat."""
    from cli_runner import cli

    r = cli("compare", "farkle", "--players", "3", "--goal", "1000", "--komi", "0,50,100",
            "--policy", "rule:dice_left <= 2 -> below 300; below 500", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["komi"] == [0, 50, 100]
    game = load_rules_game("farkle", goal=1000, players=3, komi=(0, 50, 100))
    sol = solve_seats_model(game.rules.model, game.rules.goal, 3)
    pol = parse_rules_policy("rule:dice_left <= 2 -> below 300; below 500", game)
    prof = seat_profile(game.rules.model, sol, pol, unit=game.unit)
    for s, row in enumerate(got["seats"]):
        assert abs(row["win"] - prof.seat_win(s, (0, 1, 2))[s]) < 1e-15
        assert abs(row["optimal_win"] - sol.value((0, 1, 2))[s]) < 1e-15
    text = cli("compare", "farkle", "--players", "3", "--goal", "1000", "--policy",
               "hold-at:300")
    assert text.returncode == 0, text.stderr
    assert "one seat at a time plays hold-at:300" in text.stdout and "│ 3 " in text.stdout


@pytest.mark.parametrize("args, words", [
    (["--against", "max-score"], "with 3 players the other seats play the 3-player optimum: use "
                                 "--against optimal, not 'max-score'"),
    (["--policy", "hold-at:30"], "invalid policy 'hold-at:30' for Farkle: hold-at:N needs an "
                                 "integer turn total in points, 50 <= N"),
    (["--goal", "10000", "--players", "4"], "Farkle with 4 players needs 86,976 MB to solve, over "
                                            "the limit of 2,048 MB"),
])
def test_compare_refusals_are_one_line(args, words):
    from cli_runner import cli

    base = ["compare", "farkle", "--players", "3", "--goal", "1000", "--policy", "hold-at:300"]
    argv = list(base)
    for flag, value in zip(args[::2], args[1::2]):
        if flag in argv:
            argv[argv.index(flag) + 1] = value
        else:
            argv += [flag, value]
    r = cli(*argv)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and r.stdout == "", r.stderr
    assert words in lines[0], lines[0]
