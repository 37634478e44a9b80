"""The rounds (equal-turns) ending: kernels against the slow
reference in tests/rounds_reference.py, cap invariance and invariants."""

import json

import numpy as np
import pytest

from designer.games import DeckGame, DiceGame
from designer.solve import solve
from designer.solve.rounds import solve_rounds_deck, solve_rounds_dice
from tests.rounds_reference import RoundsReference

# (players, bad, good, goal): two, three and four seats, several decks
DECKS = [(2, 2, 3, 4), (2, 1, 3, 5), (3, 2, 3, 3), (3, 1, 3, 4), (4, 1, 2, 2), (4, 2, 2, 2)]
# (players, faces, pips, goal, cap)
DICE = [(2, 3, (2, 3), 5, 9), (2, 4, (1, 3, 4), 4, 8), (3, 3, (1, 2), 3, 6), (4, 3, (2, 3), 2, 4)]


def _starts(N, goal):
    """Start score vectors: komi 0, points for seat 1, for the last seat, and
    a smaller goal (every seat shifted up)."""
    out = [(0,) * N, (1,) + (0,) * (N - 1), (0,) * (N - 1) + (1,)]
    if goal > 2:
        out.append((1,) * N)
    return [s for s in out if max(s) < goal]


def _check(sol, ref, N, goal):
    starts = [ref.start(s) for s in _starts(N, goal)]
    ref.solve(starts)
    for st in starts:
        got = sol.seat_win(komi=list(st[0]))
        assert np.allclose(got, ref.V[st], atol=1e-9, rtol=0), (st, got, ref.V[st])
        assert sol.expected_actions(komi=list(st[0])) == pytest.approx(ref.L[st], abs=1e-9)
    assert sol.unsettled == 0


@pytest.mark.parametrize("N,bad,good,goal", DECKS)
def test_deck_matches_reference(N, bad, good, goal):
    sol = solve_rounds_deck(bad, good, goal, players=N)
    _check(sol, RoundsReference(N, goal, sol.cap, deck=(bad, good)), N, goal)


@pytest.mark.parametrize("N,faces,pips,goal,cap", DICE)
def test_dice_matches_reference(N, faces, pips, goal, cap):
    sol = solve_rounds_dice(faces, pips, goal, players=N, cap=cap)
    _check(sol, RoundsReference(N, goal, cap, dice=(faces, list(pips))), N, goal)


def test_dice_cap_invariance():
    """Raising the cap moves no printed probability and no open-round policy."""
    a = solve_rounds_dice(6, [2, 3, 4, 5, 6], 30, cap=30 + 40)
    b = solve_rounds_dice(6, [2, 3, 4, 5, 6], 30, cap=30 + 70)
    assert np.max(np.abs(a.start_win - b.start_win)) < 1e-12
    assert np.max(np.abs(a.start_actions - b.start_actions)) < 1e-9
    assert np.array_equal(a.policy, b.policy)


def test_deck_cap_is_exact():
    """For decks the default cap (goal + good) is never reached: a larger
    cap gives the same tables."""
    a = solve_rounds_deck(2, 5, 8, players=3)
    b = solve_rounds_deck(2, 5, 8, players=3, cap=a.cap + 4)
    assert np.max(np.abs(a.start_win - b.start_win)) < 1e-13
    assert np.array_equal(a.policy, b.policy)


@pytest.fixture(scope="module")
def small():
    return solve_rounds_deck(2, 6, 12)


def test_probabilities_sum_to_one(small):
    w = small.start_win
    assert np.all(w >= -1e-15) and np.all(w <= 1 + 1e-15)
    assert np.max(np.abs(w.sum(axis=1) - 1)) < 1e-12
    assert np.all(small.start_actions > 0)


def test_every_goal_is_a_shifted_start(small):
    """One solve answers smaller goals: it equals a solve at that goal."""
    direct = solve_rounds_deck(2, 6, 9)
    for k in (-3, 0, 2):
        assert small.seat_win(goal=9, komi=k) == pytest.approx(direct.seat_win(komi=k), abs=1e-12)
        assert small.expected_actions(goal=9, komi=k) == pytest.approx(
            direct.expected_actions(komi=k), abs=1e-9)


def test_two_player_komi_api(small):
    assert small.seat_win(komi=-2) == small.seat_win(komi=[2, 0])
    assert small.seat_win(komi=3) == small.seat_win(komi=[0, 3])
    fk = small.fair_komi()
    assert isinstance(fk, int)
    best = min(range(-11, 12), key=lambda k: (abs(small.first_player_win(komi=k) - 0.5), abs(k)))
    assert small.fairness(komi=fk) == pytest.approx(abs(small.first_player_win(komi=best) - .5))
    df = small.to_frame()
    assert list(df.columns) == ["goal", "komi", "seat_1", "seat_2", "expected_actions", "fairness"]
    assert len(df) == sum(2 * g - 1 for g in range(1, 13))
    # more points never hurt (seat 1's probability falls as seat 2's komi rises)
    p = [small.first_player_win(komi=k) for k in range(-11, 12)]
    assert all(x >= y - 1e-12 for x, y in zip(p, p[1:]))


def test_three_player_fair_komi_vector():
    sol = solve_rounds_deck(1, 4, 6, players=3)
    fk = sol.fair_komi()
    assert len(fk) == 3 and min(fk) == 0
    assert sol.fairness(komi=fk) <= sol.fairness(komi=0) + 1e-15


def test_solve_dispatch_and_cli_json(capsys):
    from designer.cli import main

    g = DeckGame(2, 6, 10, komi=-2, ending="rounds")
    s = solve(g)
    assert s.seat_win() == s.seat_win(komi=[0, 0])
    assert main(["solve", "deck", "--bad", "2", "--good", "6", "--goal", "10",
                 "--ending", "rounds", "--komi", "-2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ending"] == "rounds" and out["players"] == 2
    assert out["seat_win"] == pytest.approx(s.seat_win(komi=-2), abs=1e-15)
    assert out["first_player_win"] == out["seat_win"][0]
    for key in ("expected_actions", "fair_komi", "fairness", "komi_table", "unsettled_positions"):
        assert key in out
    assert solve(DiceGame(goal=12, ending="rounds", players=3)).players == 3
    # the terminal names what the rounds ending counts: score tuples, 10 ** 2
    assert main(["solve", "deck", "--bad", "2", "--good", "6", "--goal", "10",
                 "--ending", "rounds"]) == 0
    out = capsys.readouterr().out
    assert "score tuples: 100 " in out and "states:" not in out


@pytest.mark.parametrize("game", [DeckGame(3, 10, 14, ending="rounds"),
                                  DeckGame(2, 5, 8, players=3, ending="rounds"),
                                  DiceGame(4, 14, players=3, ending="rounds")])
def test_open_rounds_on_threads_equal_one_thread(game):
    """The open rounds of one score sum split over threads give the one-thread
    tables bit for bit (they are independent; each chunk reports its own
    statistics)."""
    import numba

    from designer.solve.by_sum import run_by_sum  # noqa: F401 - the piece under test

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve(game)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = solve(game)
    finally:
        numba.set_num_threads(before)
    assert (one.win == many.win).all() and (one.actions == many.actions).all()
    assert (one.policy == many.policy).all()
    assert (one.sweeps, one.unsettled, one.residual) == (many.sweeps, many.unsettled, many.residual)


@pytest.mark.parametrize("bad,good,goal", [(3, 10, 14), (1, 4, 12), (4, 3, 9), (2, 12, 6)])
def test_two_seat_deck_path_equals_seat_kernels(bad, good, goal):
    """Two seats take their own path (scalar tie and final rounds, the open
    rounds on the race's pair kernel); the N-seat kernels with N = 2 give the
    same tables: every turn start of the open, final and tie rounds, lengths
    and policy. The decks cover a goal beyond one turn's reach, reshuffles
    inside a turn (one bad item) and a deck richer than the goal."""
    from designer.solve.rounds import _solve_seats_deck, deck_cap

    two = solve_rounds_deck(bad, good, goal)
    seats = _solve_seats_deck(bad, good, 2, goal, deck_cap(goal, good), None)
    np.testing.assert_allclose(two.win, seats.win, rtol=0, atol=1e-12)
    np.testing.assert_allclose(two.actions, seats.actions, rtol=1e-12, atol=1e-9)
    assert np.array_equal(two.policy, seats.policy)
    for a, b in zip(two.final + two.tie, seats.final + seats.tie):
        if a.dtype == np.int16:
            assert np.array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    assert two.unsettled == seats.unsettled == 0


@pytest.mark.parametrize("faces,pips,goal,cap", [(6, (2, 3, 4, 5, 6), 30, 90),
                                                 (6, (2, 3, 4, 5, 6), 12, 16),
                                                 (4, (2, 3, 4), 9, 14), (3, (1, 2), 7, 10)])
def test_two_seat_dice_path_equals_seat_kernels(faces, pips, goal, cap):
    """Two-seat dice games take their own path too (scalar tie and final
    rounds, the open rounds on the race's pair kernel, seat 1's chain cut
    where holding is sure to be optimal); the N-seat kernels with N = 2 give
    the same tables. The cases: a cap far above the goal (the cut is used),
    a cap close to it (seat 1's forced hold there binds), a die with a
    one-pip face."""
    from designer.solve.rounds import _solve_seats_dice

    two = solve_rounds_dice(faces, pips, goal, cap=cap)
    seats = _solve_seats_dice(faces, np.array(pips), 2, goal, cap, None)
    np.testing.assert_allclose(two.win, seats.win, rtol=0, atol=1e-12)
    np.testing.assert_allclose(two.actions, seats.actions, rtol=1e-12, atol=1e-9)
    assert np.array_equal(two.policy, seats.policy)
    for a, b in zip(two.final + two.tie, seats.final + seats.tie):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    assert two.unsettled == seats.unsettled == 0
