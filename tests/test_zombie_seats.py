"""Zombie Dice with three and four players (all-yellow and full, race and rounds): the N-seat
rounds kernels over a Zombie turn graph, checked against the slow reference
in tests/rounds_reference.py (written from the rules), against the
two-player Zombie solvers at N = 2, and for their invariants, CLI and
errors."""

import json

import numpy as np
import pytest

from designer.games import ZombieDiceGame, ZombieGame
from designer.solve import solve
from designer.solve.rounds import RoundsSolution, _solve_seats_graph
from designer.solve.zombie import yellow_states
from designer.solve.zombie_dice import _arrays, turn_states
from fuzz_cases import run_cli
from tests.rounds_reference import RoundsReference


def _graph(arrays):
    NXT, GAIN, PROB, INV, SHOT, BMIN = arrays
    return NXT, GAIN, PROB, INV, (SHOT > 0).astype(np.int64), BMIN


def _two_seats(game):
    """The N-seat kernels run with N = 2 on ``game``'s turn graph."""
    arrays = yellow_states(game) if isinstance(game, ZombieGame) else _arrays(turn_states(game))
    return _solve_seats_graph(_graph(arrays), 2, game.goal, game.cap, game, game.name, False)


# (players, dice per roll, goal, cap): all-yellow dice (2 brain, 2 shotgun,
# 2 footprint faces, 3 shotguns bust), small enough for the reference
REFERENCE = [(2, 2, 3, 7), (3, 1, 2, 4), (3, 2, 3, 6), (4, 1, 2, 3)]


@pytest.mark.parametrize("N,dice,goal,cap", REFERENCE)
def test_matches_the_reference(N, dice, goal, cap):
    game = ZombieGame(dice=dice, goal=goal, cap=cap, players=max(N, 3))
    sol = _two_seats(ZombieGame(dice=dice, goal=goal, cap=cap)) if N == 2 else solve(game)
    ref = RoundsReference(N, goal, cap, zombie=(dice, (2, 2, 2), 3))
    vectors = [(0,) * N, (0,) * (N - 1) + (1,), (1,) + (0,) * (N - 1)]
    starts = [ref.start(v) for v in vectors if max(v) < goal]
    ref.solve(starts)
    for st in starts:
        komi = list(st[0])
        assert np.allclose(sol.seat_win(komi=komi), ref.V[st], atol=1e-9, rtol=0), st
        assert sol.expected_actions(komi=komi) == pytest.approx(ref.L[st], abs=1e-9)
    assert sol.unsettled == 0


@pytest.mark.parametrize("game", [ZombieGame(), ZombieGame(brains=3, shotguns=1, footprints=2,
                                                         dice=2, bust_shotguns=2, goal=6, cap=40),
                                  ZombieDiceGame(2, 1, 1, dice=2, goal=3, cap=40)],
                         ids=["all-yellow", "other-dice", "full-small"])
def test_two_seats_equal_the_two_player_solvers(game):
    """With N = 2 the N-seat kernels give the two-player Zombie solvers'
    answers at every komi (the two differ only in where the cap stops the
    last seat, which these caps never reach)."""
    two, seats = solve(game), _two_seats(game)
    for k in range(game.goal):
        assert seats.seat_win(komi=k)[0] == pytest.approx(two.first_player_win(komi=k), abs=1e-12)
        assert seats.expected_actions(komi=k) == pytest.approx(two.expected_actions(komi=k),
                                                               rel=1e-12)


def test_three_players_invariants():
    sol = solve(ZombieGame(players=3))
    assert isinstance(sol, RoundsSolution) and sol.players == 3 and sol.unsettled == 0
    assert sol.policy is None
    # every seat's chance, at every komi vector and goal: they sum to 1
    np.testing.assert_allclose(sol.start_win.sum(axis=1), 1.0, atol=1e-12)
    # the last seat, answering everyone, has the edge
    p = sol.seat_win()
    assert p[0] < p[1] < p[2]
    # points for seat 1 raise its chance, points for seat 3 lower it
    assert sol.seat_win(komi=[2, 0, 0])[0] > p[0] > sol.seat_win(komi=[0, 0, 2])[0]
    # the cap changes nothing (seats before the last stop far below it)
    capped = solve(ZombieGame(players=3, cap=33))
    assert np.max(np.abs(capped.start_win - sol.start_win)) < 1e-12
    # a smaller goal is read from the same solve (every score shifted up)
    ten = solve(ZombieGame(players=3, goal=10, cap=60))
    assert sol.seat_win(goal=10, komi=[0, 1, 2]) == pytest.approx(ten.seat_win(komi=[0, 1, 2]),
                                                                   abs=1e-12)


def test_full_game_with_three_players():
    """Full Zombie Dice (a small cup) with three seats: the turn graph of the
    three-colour game through the same kernels."""
    sol = solve(ZombieDiceGame(2, 1, 1, dice=2, goal=3, cap=8, players=3))
    assert sum(sol.seat_win()) == pytest.approx(1.0, abs=1e-12)
    assert sol.unsettled == 0 and sol.seat_win()[0] < sol.seat_win()[2]


def test_cli_json_and_text(tmp_path):
    code, stdout, stderr, _ = run_cli(["solve", "zombie-yellow", "--players", "3", "--komi",
                                       "0,1,2", "--json"], tmp_path)
    assert code == 0, stderr
    out = json.loads(stdout)
    sol = solve(ZombieGame(players=3))
    assert out["players"] == 3 and out["ending"] == "rounds"
    assert out["seat_win"] == pytest.approx(sol.seat_win(komi=[0, 1, 2]), abs=1e-15)
    assert out["first_player_win"] == out["seat_win"][0]
    assert out["fair_komi"] == sol.fair_komi() and out["unsettled_positions"] == 0
    assert out["fairness"] == pytest.approx(sol.fairness(komi=[0, 1, 2]), abs=1e-15)
    code, stdout, stderr, _ = run_cli(["solve", "zombie-yellow", "--players", "4"], tmp_path)
    assert code == 0, stderr
    assert "wins: seat 1" in stdout and "fair komi" in stdout


@pytest.mark.parametrize("args,words", [
    (["zombie-yellow", "--players", "5"], "invalid players=5: allowed an integer with 2 <= "
                                          "players <= 4"),
    (["zombie-yellow", "--players", "3", "--komi", "0,1"], "a list of 3 integers"),
    (["zombie-dice", "--players", "3"], "invalid players=3: allowed a Zombie game whose 3-seat "
                                        "solve takes at most 5e+10 turn-state updates, about 5 "
                                        "minutes on 2 cores (this one needs 2.6e+11, about 27 "
                                        "minutes"),
])
def test_errors_are_one_line(args, words, tmp_path):
    turn_states(ZombieDiceGame())  # built once per process (4-5 s): not the time under test
    code, stdout, stderr, _ = run_cli(["solve", *args], tmp_path)
    assert code == 2
    assert stderr.count("\n") == 1 and words in stderr, stderr
    assert stdout == "" and not any(tmp_path.iterdir())
