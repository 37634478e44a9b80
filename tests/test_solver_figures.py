"""Published reference figures and solver invariants."""

import numpy as np
import pytest

from designer import DeckGame, DiceGame, load_game
from designer.solve import solve


def test_fowl_play_first_player_win(fowl_play):
    assert fowl_play.first_player_win() == pytest.approx(0.524218, abs=5e-7)
    assert fowl_play.residual <= 1e-12


def test_fowl_play_expected_actions(fowl_play):
    assert fowl_play.expected_actions() == pytest.approx(164.979, abs=5e-4)


def test_pig_first_player_win(pig):
    assert pig.first_player_win() == pytest.approx(0.530593, abs=5e-7)
    assert pig.residual <= 1e-12


def test_red_light_is_fair_at_komi_1(red_light):
    # The published design: first player wins 50.001% with komi 1.
    assert round(100 * red_light.first_player_win(komi=1), 3) == 50.001
    assert red_light.fair_komi() == 1
    assert red_light.expected_actions(komi=1) == pytest.approx(169.7, abs=0.05)


@pytest.mark.parametrize("goal", [1, 7, 23])
def test_deck_goal_read_off_larger_table(red_light, goal):
    direct = solve(DeckGame(4, 24, goal))
    for komi in range(goal):
        assert red_light.first_player_win(goal, komi) == pytest.approx(
            direct.first_player_win(komi=komi), abs=1e-12)
        assert red_light.expected_actions(goal, komi) == pytest.approx(
            direct.expected_actions(komi=komi), rel=1e-11)
    assert red_light.fair_komi(goal) == direct.fair_komi()


@pytest.mark.parametrize("goal", [2, 30])
def test_dice_goal_read_off_larger_table(pig, goal):
    direct = solve(DiceGame(goal=goal))
    for komi in range(goal):
        assert pig.first_player_win(goal, komi) == pytest.approx(
            direct.first_player_win(komi=komi), abs=1e-12)
        assert pig.expected_actions(goal, komi) == pytest.approx(
            direct.expected_actions(komi=komi), rel=1e-11)


def test_deck_invariants(fowl_play):
    P = fowl_play.win
    assert P.min() >= 0.0 and P.max() <= 1.0
    # More points of one's own never hurt; more points of the opponent's never help.
    assert (np.diff(P, axis=0) >= -1e-12).all()
    assert (np.diff(P, axis=1) <= 1e-12).all()
    assert (fowl_play.actions >= 1.0).all()


def test_dice_invariants(pig):
    P = pig.win
    assert P.min() >= 0.0 and P.max() <= 1.0
    assert (np.diff(P, axis=0) >= -1e-12).all()
    assert (np.diff(P, axis=1) <= 1e-12).all()
    # Rolling at a turn total of 0 is always at least as good as passing.
    G = pig.game.goal
    assert pig.policy[np.arange(G)[:, None], np.arange(G)[None, :], 0].all()


def test_komi_table_and_frame(red_light):
    table = red_light.komi_table(max_komi=5)
    assert list(table.komi) == [0, 1, 2, 3, 4, 5]
    assert (np.diff(table.first_player_win) < 0).all()  # komi helps the second player
    df = red_light.to_frame()
    assert len(df) == 50 * 51 // 2
    row = df[(df.goal == 50) & (df.komi == 1)].iloc[0]
    assert row.first_player_win == red_light.first_player_win(komi=1)
    assert {"bad", "good", "goal", "komi", "first_player_win", "expected_actions"} <= set(df.columns)


def test_summary_keys(red_light):
    s = red_light.summary(max_komi=3)
    for key in ("first_player_win", "expected_actions", "fair_komi", "komi_table", "states",
                "residual", "seconds"):
        assert key in s
    assert s["first_player_win"] == red_light.first_player_win(komi=1)
    assert [r["komi"] for r in s["komi_table"]] == [0, 1, 2, 3]
    assert s["states"] == red_light.states


def test_state_count_small_deck():
    sol = solve(DeckGame(2, 3, 4))
    # brute-force count of (i, j, k, w, c) with k <= c, i + k < goal
    n = sum(1 for i in range(4) for j in range(4) for w in range(2) for c in range(4)
            for k in range(c + 1) if i + k < 4)
    assert sol.states == n


def test_solution_pickles(red_light):
    import pickle

    back = pickle.loads(pickle.dumps(red_light))
    assert back.first_player_win(komi=1) == red_light.first_player_win(komi=1)
    assert back.game == red_light.game


def test_presets():
    assert load_game("fowl-play") == DeckGame(6, 42, 50, 0, "Fowl Play")
    assert load_game("red-light").komi == 1
    assert load_game("pig", goal=50).goal == 50


def test_non_convergence_is_a_clear_error():
    from designer import ConvergenceError, DesignError, SolverError
    from designer._jit import TIE, TOL
    from designer.solve._deck_kernel import solve_deck
    from designer.solve.api import _check_stats

    game = DeckGame(2, 3, 4)
    shape = (1, 4, 4, 2, 4)
    stats = np.zeros(4)
    # a sweep budget of zero cannot converge: the kernel stops and flags it
    solve_deck(2, 3, 4, np.zeros(shape), np.zeros(shape), np.zeros(shape, np.int16), True,
               TOL, TIE, 0, stats)
    assert stats[3] == 1.0
    # reaching the sweep budget is a solver bug, named apart from user errors
    with pytest.raises(SolverError, match=r"^deck 2 bad / 3 good: a score pair did not converge"):
        _check_stats(stats, game)
    assert not issubclass(SolverError, DesignError)
    with pytest.raises(ConvergenceError, match="forever"):
        _check_stats(np.array([0.0, 0.0, 0.0, 2.0]), game)


def test_a_solver_error_is_one_line_that_asks_for_a_report(tmp_path, monkeypatch):
    """Not the user's fault: exit status 1 (not 2) and a line that says what
    to report, naming the game."""
    from designer import SolverError
    from fuzz_cases import run_cli

    def broken(game, *a, **k):
        raise SolverError(f"{game.name}: a score pair did not converge within 2000 sweeps")

    monkeypatch.setattr("designer.solve.solve", broken)
    code, out, err, _ = run_cli(["solve", "deck", "--bad", "3", "--good", "9", "--goal", "20"],
                                tmp_path)
    assert code == 1 and out == ""
    assert err == ("designer: error: solver error (report it): deck 3 bad / 9 good: a score pair "
                   "did not converge within 2000 sweeps\n")
