"""N-player race solves against the slow reference, plus invariants."""

import numpy as np
import pytest

from designer.errors import DesignError
from designer.games import DeckGame, DiceGame, load_game
from designer.solve import SeatSolution, solve
from designer.solve.race import race_memory, solve_race
from seats_reference import race_deck_reference, race_dice_reference


@pytest.mark.parametrize("bad, good, goal, N", [(1, 4, 4, 3), (1, 3, 5, 3), (2, 2, 3, 4), (2, 3, 4, 2)])
def test_deck_race_matches_reference(bad, good, goal, N):
    P, L = race_deck_reference(bad, good, goal, N)
    s = solve_race(DeckGame(bad, good, goal, players=N))
    assert s.unsettled_positions == 0
    for (scores, k, w, c), v in P.items():
        if k == 0:
            assert s.win[scores + (w, c)] == pytest.approx(v, abs=1e-9)
            assert s.actions[scores + (w, c)] == pytest.approx(L[(scores, k, w, c)], abs=1e-8)


@pytest.mark.parametrize("faces, bust, goal, N", [(3, (1,), 6, 3), (4, (1, 2), 5, 3), (4, (1,), 4, 4),
                                                  (5, (1,), 6, 2)])
def test_dice_race_matches_reference(faces, bust, goal, N):
    P, L = race_dice_reference(faces, bust, goal, N)
    s = solve_race(DiceGame(faces, goal, bust_faces=bust, players=N))
    assert s.unsettled_positions == 0
    for (scores, k), v in P.items():
        if k == 0:
            assert s.win[scores] == pytest.approx(v, abs=1e-9)
            assert s.actions[scores] == pytest.approx(L[(scores, k)], abs=1e-8)


def test_two_players_equal_the_pair_solver():
    """The rotation-class kernels with N = 2 reproduce the two-player solver."""
    for game in (DeckGame(4, 24, 20), DiceGame(6, 25)):
        two = solve(game)
        gen = solve_race(game)
        assert np.abs(gen.win[..., 0] - two.win).max() < 1e-12
        assert np.abs(gen.actions - two.actions).max() < 1e-10
        assert (gen.policy == two.policy).all()
        for komi in range(5):
            assert gen.seat_win(komi=komi) == pytest.approx(two.seat_win(komi=komi), abs=1e-12)


@pytest.fixture(scope="module")
def pig3():
    return solve(load_game("pig", players=3, goal=25))


def test_seat_probabilities_sum_to_one(pig3):
    assert isinstance(pig3, SeatSolution)
    assert np.abs(pig3.win.sum(axis=-1) - 1).max() < 1e-9
    assert (pig3.win >= -1e-12).all() and (pig3.win <= 1 + 1e-12).all()
    p = pig3.seat_win(goal=20, komi=(0, 1, 2))
    assert p.sum() == pytest.approx(1, abs=1e-12) and p[0] > 1 / 3


def test_a_point_more_never_hurts(pig3):
    """The mover's own win probability does not fall when its score rises."""
    own = pig3.win[..., 0]
    assert (np.diff(own, axis=0) >= -1e-9).all()


def test_goals_and_komi_read_off_one_solve(pig3):
    small = solve(load_game("pig", players=3, goal=12))
    for komi in [(0, 0, 0), (0, 2, 1), (0, 3, 5)]:
        assert pig3.seat_win(12, komi) == pytest.approx(small.seat_win(komi=komi), abs=1e-12)
        assert pig3.expected_actions(12, komi) == pytest.approx(small.expected_actions(komi=komi),
                                                                rel=1e-10)


def test_fair_komi_is_the_fairest_vector(pig3):
    fk = pig3.fair_komi(goal=15, max_komi=6)
    assert fk[0] == 0 and len(fk) == 3
    best = pig3.fairness(15, fk)
    for k2 in range(7):
        for k3 in range(7):
            assert pig3.fairness(15, (0, k2, k3)) >= best
    two = solve(load_game("pig", goal=30))
    assert isinstance(two.fair_komi(), int)


def test_summary_and_frame(pig3):
    out = pig3.summary(max_komi=3)
    assert out["players"] == 3 and out["ending"] == "race"
    assert out["seat_win"][0] == out["first_player_win"]
    assert out["fairness"] == pytest.approx(max(abs(p - 1 / 3) for p in out["seat_win"]))
    assert len(out["fair_komi"]) == 3 and out["unsettled_positions"] >= 0
    df = pig3.to_frame(max_komi=2)
    assert {"seat_3_win", "komi_2", "fairness"} <= set(df.columns)
    assert len(df) == 1 + 4 + 23 * 9  # goal 1: komi 0 only; goal 2: 0..1 each; 3..25: 0..2


def test_too_large_is_refused_in_one_line():
    with pytest.raises(DesignError, match=r"needs about .* GiB; the limit is .* GiB"):
        solve(DeckGame(6, 42, 100, players=4))
    assert race_memory(load_game("pig", players=3)) < 2 * 2 ** 30
    assert race_memory(load_game("fowl-play", players=3)) < 6 * 2 ** 30


def test_cli_three_players(capsys):
    import json

    from designer.cli import main

    assert main(["solve", "pig", "--players", "3", "--goal", "12", "--komi", "0,1,2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 3 and out["game"]["komi"] == [0, 1, 2]
    assert sum(out["seat_win"]) == pytest.approx(1)
    assert {"fairness", "fair_komi", "unsettled_positions", "unsettled_residual"} <= set(out)
    assert main(["solve", "red-light", "--players", "3", "--goal", "8"]) == 0
    assert "seat 1" in capsys.readouterr().out


_CACHE_PROBE = """
import json
from designer.games import DeckGame, DiceGame
from designer.solve import solve
from designer.solve import _deck_kernel, _dice_kernel, _race_deck_kernel, _race_dice_kernel
for g in (DeckGame(2, 3, 4), DiceGame(4, 5), DeckGame(2, 3, 4, players=3), DiceGame(4, 5, players=3)):
    solve(g)
ks = [_deck_kernel.solve_deck_threads, _dice_kernel.solve_dice_threads,
      _race_deck_kernel.solve_race_deck, _race_dice_kernel.solve_race_dice]
print(json.dumps([[sum(k.stats.cache_hits.values()), sum(k.stats.cache_misses.values())] for k in ks]))
"""


def test_parallel_kernels_load_from_cache():
    """cache=True with parallel=True: a second process compiles nothing."""
    import json
    import os
    import subprocess
    import sys

    from pathlib import Path

    import designer

    env = {**os.environ, "PYTHONPATH": str(Path(designer.__file__).resolve().parents[1])}
    runs = [subprocess.run([sys.executable, "-c", _CACHE_PROBE], capture_output=True, text=True,
                           env=env, timeout=600) for _ in range(2)]
    assert runs[1].returncode == 0, runs[1].stderr
    stats = json.loads(runs[1].stdout)
    assert all(hits >= 1 and misses == 0 for hits, misses in stats), stats
