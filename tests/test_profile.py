"""Fixed policy profiles in N-seat race games and the two-player abstraction
(the N-player race): the kernel against a slow reference, invariants, the CLI."""

import json
import subprocess
import sys

import numpy as np
import pytest

from designer.analysis.compare import compare
from designer.analysis.seat_compare import two_player_game
from designer.errors import DesignError
from designer.games import DeckGame, DiceGame, load_game
from designer.policies.parse import parse_policy
from designer.solve.profile import OPTIMAL, TWO, evaluate_profile
from designer.solve.race import solve_race
from profile_reference import profile_deck_reference, profile_dice_reference


def _mover_scores(S, m):
    return S[m:] + S[:m]


def _deck_draws(kinds, opt, two):
    """Each seat's decision, from the compact tables, read as the N-player race reads them:
    the N-player table at the scores from the mover, the two-player table
    at (own score, highest opponent score); draws before holding from the
    turn start ``(w, c - k)``."""
    def draws(m, S, k, w, c):
        if kinds[m] == OPTIMAL:
            limit = opt[_mover_scores(S, m) + (w, c - k)]
        else:
            limit = two[S[m], max(S[a] for a in range(len(S)) if a != m), w, c - k]
        return k < limit
    return draws


def _dice_rolls(kinds, opt, two):
    def rolls(m, S, k):
        if kinds[m] == OPTIMAL:
            return bool(opt[_mover_scores(S, m) + (k,)])
        return bool(two[S[m], max(S[a] for a in range(len(S)) if a != m), k])
    return rolls


# one non-optimal table at each of three seats (the all-optimal profile is
# checked against the solver below, and the solver against its reference in
# test_seats.py)
PROFILES = [("two-player", 0), ("hold-at:2", 1), ("max-score", 2)]


@pytest.mark.parametrize("bad, good, goal, N", [(1, 4, 4, 3), (2, 3, 4, 3), (2, 2, 3, 4)])
@pytest.mark.parametrize("policy, seat", PROFILES)
def test_deck_profile_matches_reference(bad, good, goal, N, policy, seat):
    game = DeckGame(bad, good, goal, players=N)
    sol = solve_race(game)
    two = parse_policy(policy if policy != "optimal" else "two-player", two_player_game(game)).table()
    kinds = [OPTIMAL] * N
    if policy != "optimal":
        kinds[seat] = TWO
    pv = evaluate_profile(game, kinds, sol.policy, two)
    P, L = profile_deck_reference(bad, good, goal, N, _deck_draws(kinds, sol.policy, two))
    checked = 0
    for (S, m, k, w, c), v in P.items():
        if k == 0:
            assert pv.win[S + (m, w, c)] == pytest.approx(v, abs=1e-9)
            assert pv.actions[S + (m, w, c)] == pytest.approx(L[(S, m, k, w, c)], abs=1e-8)
            checked += 1
    assert checked == goal ** N * N * bad * (good + 1)
    assert np.abs(pv.win.sum(axis=-1) - 1).max() < 1e-12


@pytest.mark.parametrize("faces, bust, goal, N", [(3, (1,), 6, 3), (4, (1, 2), 5, 3), (4, (1,), 4, 4)])
@pytest.mark.parametrize("policy, seat", PROFILES)
def test_dice_profile_matches_reference(faces, bust, goal, N, policy, seat):
    game = DiceGame(faces, goal, bust_faces=bust, players=N)
    sol = solve_race(game)
    two = parse_policy(policy if policy != "optimal" else "two-player", two_player_game(game)).table()
    kinds = [OPTIMAL] * N
    if policy != "optimal":
        kinds[seat] = TWO
    pv = evaluate_profile(game, kinds, sol.policy, two)
    P, L = profile_dice_reference(faces, bust, goal, N, _dice_rolls(kinds, sol.policy, two))
    for (S, m, k), v in P.items():
        if k == 0:
            assert pv.win[S + (m,)] == pytest.approx(v, abs=1e-9)
            assert pv.actions[S + (m,)] == pytest.approx(L[(S, m, k)], abs=1e-8)
    assert np.abs(pv.win.sum(axis=-1) - 1).max() < 1e-12


@pytest.mark.parametrize("game", [DiceGame(6, 20, players=3), DeckGame(4, 10, 9, players=3),
                                  DiceGame(6, 12, players=4), DiceGame(6, 20)])
def test_all_optimal_profile_equals_the_solver(game):
    """Where max-n settles, every seat playing the N-player optimum gives the
    solver's values at every turn start and every mover (an independent
    path: absolute seats, no policy iteration)."""
    sol = solve_race(game)
    assert sol.unsettled_positions == 0
    N = game.players
    pv = evaluate_profile(game, [OPTIMAL] * N, sol.policy, None)
    turn = pv.actions.ndim - N - 1
    for m in range(N):
        # the solver's tables are read from the mover: rotate the seats
        w = np.moveaxis(pv.win[(slice(None),) * N + (m,)], range(N), [(a - m) % N for a in range(N)])
        w = w[..., [(m + r) % N for r in range(N)]]
        assert np.abs(w - sol.win).max() < 1e-12
    assert pv.seat_win(komi=1) == pytest.approx(sol.seat_win(komi=1), abs=1e-12)
    assert turn == (2 if game.family == "deck" else 0)


def test_two_player_game_abstraction_is_optimal_with_two_players():
    game = DeckGame(4, 24, 20)
    sol = solve_race(game)
    two = parse_policy("two-player", two_player_game(game)).table()
    both = evaluate_profile(game, [TWO, TWO], sol.policy, two)
    assert both.seat_win(komi=1) == pytest.approx(sol.seat_win(komi=1), abs=1e-12)


def test_seat_comparison_pig():
    """Pig to 30: the two-player optimum read at the highest opponent score
    is the three-player optimum (no decision differs); a weak policy loses
    at every seat."""
    game = load_game("pig", players=3, goal=30)
    r = compare(game, "two-player", "optimal")
    assert [s["seat"] for s in r.seats] == [1, 2, 3]
    assert all(abs(s["difference"]) < 1e-12 for s in r.seats)
    assert sum(r.optimal_seat_win) == pytest.approx(1, abs=1e-12)
    weak = compare(game, "hold-at:5", "optimal")
    assert all(s["difference"] < -0.05 for s in weak.seats)
    assert weak.optimal_seat_win == pytest.approx(r.optimal_seat_win, abs=1e-12)


def test_seat_comparison_refusals():
    game = load_game("pig", players=3, goal=10)
    with pytest.raises(DesignError, match="--against optimal"):
        compare(game, "two-player", "max-score")
    with pytest.raises(DesignError, match="race ending"):
        compare(load_game("pig", players=3, goal=10, ending="rounds"), "two-player", "optimal")
    with pytest.raises(DesignError, match="unknown policy"):
        compare(game, "nonsense", "optimal")
    with pytest.raises(DesignError, match="two-player game"):
        parse_policy("two-player", game)


def test_compare_cli_three_players():
    out = subprocess.run([sys.executable, "-m", "designer", "compare", "red-light", "--players", "3",
                          "--goal", "12", "--policy", "two-player", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["players"] == 3 and d["komi"] == [0, 1, 1] and len(d["seats"]) == 3
    assert sum(d["optimal_seat_win"]) == pytest.approx(1, abs=1e-12)
    bad = subprocess.run([sys.executable, "-m", "designer", "compare", "pig", "--players", "3",
                          "--policy", "two-player", "--against", "neller"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
