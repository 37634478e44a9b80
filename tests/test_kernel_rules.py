"""The convergence rule and the report shared by every layered kernel
(:mod:`designer.solve._classes`), checked on the shared helpers directly and
on the reports of a small solve of every family."""

import numpy as np
import pytest

from designer import load_game
from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, TOL
from designer.errors import ConvergenceError, SolverError
from designer.games.zombie import ZombieDiceGame
from designer.solve import solve
from designer.solve._classes import (CLASS_RESIDUAL, CLASS_SETTLED, CLASS_STATUS, CLASS_SWEEPS,
                                     check_pair_stats, class_accept, class_begin, class_round,
                                     pair_begin, pair_next, pair_solve, reduce_pair_stats,
                                     solve_fixed_point)
from designer.solve._rounds_common import lin_solve
from designer.solve.zombie import roll_outcomes, yellow_states


def _pair(u, v, x, y, holds, max_sweeps=MAX_SWEEPS):
    st = np.zeros(6)
    out = np.zeros(4)
    pair_begin(st, x, y)
    ok = pair_solve(np.array(u, float), np.array(v, float), st)
    pair_next(np.array(u, float), np.array(v, float), st, ok, holds, max_sweeps, TOL, out)
    return st, out


def test_pair_accepts_the_fixed_point_of_a_greedy_policy():
    # x = 0.2 + 0.5 x + 0.1 y, y = 0.3 + 0.2 x + 0.4 y
    u, v = (0.2, 0.5, 0.1), (0.3, 0.2, 0.4)
    st, out = _pair(u, v, 0.9, 0.9, True)
    x, y = np.linalg.solve([[0.5, -0.1], [-0.2, 0.6]], [0.2, 0.3])
    assert st[3] == 0.0 and st[2] == 1.0
    assert st[0] == pytest.approx(x, abs=1e-15) and st[1] == pytest.approx(y, abs=1e-15)
    # the residual reported is the Bellman residual at the accepted estimate
    assert out[0] == max(abs(0.2 + 0.5 * st[0] + 0.1 * st[1] - st[0]),
                         abs(0.3 + 0.2 * st[0] + 0.4 * st[1] - st[1]))
    assert out[0] <= 1e-15 and list(out[1:]) == [1.0, 1.0, 0.0]


def test_pair_goes_on_while_the_policy_changes_and_fails_after_max_sweeps():
    u, v = (0.2, 0.5, 0.1), (0.3, 0.2, 0.4)
    st, out = _pair(u, v, 0.9, 0.9, False)
    assert st[3] == 1.0 and (st[0], st[1]) == (st[4], st[5])  # next estimate: the fixed point
    assert not out.any()
    st, out = _pair(u, v, 0.9, 0.9, False, max_sweeps=1)
    assert st[3] == -1.0 and out[3] == 1.0 and out[1] == 1.0
    assert out[0] == pytest.approx(max(abs(0.2 + 0.45 + 0.09 - 0.9), abs(0.3 + 0.18 + 0.36 - 0.9)))


def test_pair_stops_on_a_certified_estimate_only_after_policy_iteration_had_its_turn():
    """A decision that keeps flipping (``holds`` False) cannot stop a pair
    once the Bellman residual at the estimate is within the tolerance, but
    the warm start's small residual does not stop it before PI_EXACT sweeps."""
    u, v = (0.2, 0.5, 0.1), (0.3, 0.2, 0.4)
    x, y = np.linalg.solve([[0.5, -0.1], [-0.2, 0.6]], [0.2, 0.3])
    ex, ey = x + 2e-13, y - 1e-13  # residual about 1.2e-13 < TOL
    here = max(abs(0.2 + 0.5 * ex + 0.1 * ey - ex), abs(0.3 + 0.2 * ex + 0.4 * ey - ey))
    assert 0 < here <= TOL
    st, out = np.zeros(6), np.zeros(4)
    pair_begin(st, ex, ey)
    for sweep in range(1, PI_EXACT + 1):
        st[0], st[1] = ex, ey  # the same estimate each time: a flip cycle
        pair_solve(np.array(u), np.array(v), st)
        pair_next(np.array(u), np.array(v), st, True, False, MAX_SWEEPS, TOL, out)
        if sweep < PI_EXACT:
            assert st[3] == 1.0 and (st[0], st[1]) == (st[4], st[5])
    assert st[3] == 0.0 and (st[0], st[1]) == (ex, ey)  # the estimate, not the fixed point
    assert out[0] == here and out[1] == PI_EXACT and out[3] == 0.0


def test_pair_turns_to_value_iteration_after_pi_sweeps():
    u, v = (0.2, 0.5, 0.1), (0.3, 0.2, 0.4)
    st, out = np.zeros(6), np.zeros(4)
    pair_begin(st, 0.9, 0.9)
    st[2] = PI_SWEEPS - 1
    pair_solve(np.array(u), np.array(v), st)
    pair_next(np.array(u), np.array(v), st, True, False, MAX_SWEEPS, TOL, out)
    # one greedy backup of the estimate, not the policy's fixed point
    assert st[3] == 1.0
    assert (st[0], st[1]) == (0.2 + 0.5 * 0.9 + 0.1 * 0.9, 0.3 + 0.2 * 0.9 + 0.4 * 0.9)


def test_pair_reports_an_endless_policy():
    st, out = _pair((0.0, 1.0, 0.0), (0.0, 0.0, 1.0), 0.5, 0.5, True)  # x = x, y = y
    assert st[3] == -1.0 and out[3] == 2.0


def test_pair_reports_reduce_and_check():
    out = np.array([[1e-16, 2, 2, 0], [3e-16, 1, 1, 0], [0.0, 5, 5, 0]])
    stats = np.zeros(4)
    reduce_pair_stats(out, stats)
    assert list(stats) == [3e-16, 8, 5, 0]
    assert check_pair_stats(stats, "g") is stats
    out[1, 3] = 1.0
    out[1, 0] = 0.25
    reduce_pair_stats(out, stats)
    # reaching the sweep budget is the solver's failure, not the user's
    with pytest.raises(SolverError, match=r"^g: a round did not converge within "
                                               rf"{MAX_SWEEPS} sweeps \(residual 0.25\)"):
        check_pair_stats(stats, "g", "a round")
    out[1, 3] = 2.0
    reduce_pair_stats(out, stats)
    with pytest.raises(ConvergenceError, match="can go on forever"):
        check_pair_stats(stats, "g")


def _class(B, C, X, holds, max_rounds=40):
    N = len(X)
    B, C, X = np.array(B, float), np.array(C, float), np.array(X, float)
    Xbest, sol, st, out = np.zeros((N, N)), np.zeros((N, N + 1)), np.zeros(4), np.zeros(4)
    class_begin(st)
    for _ in range(max_rounds + 1):
        if not class_round(B, C, X, Xbest, sol, st, out):
            break
        class_accept(B, C, X, Xbest, sol, st, holds, max_rounds, TOL, out)
        if st[2] <= 0.0:
            break
    return X, st, out


def test_class_accepts_the_fixed_point_and_reports_it():
    B = [[0.1, 0.3], [0.2, 0.1]]
    C = [[0.3, 0.2, 1.0], [0.4, 0.1, 2.0]]
    X, st, out = _class(B, C, [[0.5, 0.5], [0.5, 0.5]], True)
    want = np.linalg.solve(np.eye(2) - np.array(B), np.array(C)[:, :2])
    assert np.abs(X - want).max() < 1e-15
    assert out[CLASS_SETTLED] == 1.0 and out[CLASS_STATUS] == 0.0 and out[CLASS_SWEEPS] == 1.0
    assert out[CLASS_RESIDUAL] <= 1e-15


def test_class_that_cycles_keeps_its_best_iterate():
    B = [[0.1, 0.3], [0.2, 0.1]]
    C = [[0.3, 0.2, 1.0], [0.4, 0.1, 2.0]]
    start = [[0.5, 0.5], [0.5, 0.5]]
    X, st, out = _class(B, C, start, False, max_rounds=3)
    # the policy "never" holds: after 3 rounds the iterate of least residual
    # (the second: the first is the start) is kept and swept once more
    assert out[CLASS_SETTLED] == 0.0 and out[CLASS_SWEEPS] == 4.0 and out[CLASS_STATUS] == 0.0
    assert out[CLASS_RESIDUAL] < 1e-15
    X, st, out = _class([[1.0, 0.0], [0.0, 1.0]], C, start, True)
    assert out[CLASS_STATUS] == 2.0


@pytest.mark.parametrize("n, r", [(1, 1), (3, 4), (5, 2)])
def test_linear_solvers_match_numpy(n, r):
    rng = np.random.default_rng(n * 10 + r)
    B = rng.uniform(0, 1.0 / n, (n, n)) * 0.9
    C = rng.uniform(-1, 1, (n, r))
    out = np.zeros((n, r))
    assert solve_fixed_point(B, C, out)
    assert np.abs(out - np.linalg.solve(np.eye(n) - B, C)).max() < 1e-13
    M = rng.uniform(-1, 1, (n, n)) + 2 * np.eye(n)
    assert lin_solve(M, C, out)
    assert np.abs(out - np.linalg.solve(M, C)).max() < 1e-13
    assert not lin_solve(np.zeros((n, n)), C, out)


@pytest.mark.parametrize("dice, K", [(3, 3), (2, 4), (1, 2)])
def test_all_yellow_turn_states(dice, K):
    """The all-yellow configuration is the shotguns taken: every outcome of
    roll_outcomes from every s, the self-loop divided out, brainless
    successors numbered higher (the sweep order of the kernel)."""
    g = load_game("zombie-yellow", dice=dice, bust_shotguns=K)
    NXT, GAIN, PROB, INV, SHOT, BMIN = yellow_states(g)
    OB, OS, OP, q0 = roll_outcomes(g)
    assert NXT.shape == (K, len(OB)) and list(SHOT) == list(range(K)) and not BMIN.any()
    for s in range(K):
        assert PROB[s].sum() + q0 == pytest.approx(1.0, abs=1e-15)
        assert INV[s] == 1.0 / (1.0 - q0)
        for o in range(len(OB)):
            bust = s + OS[o] >= K
            assert NXT[s, o] == (-1 if bust else s + OS[o]) and GAIN[s, o] == OB[o]
            if not bust and GAIN[s, o] == 0:
                assert NXT[s, o] > s


GAMES = [load_game("pig", goal=12), load_game("fowl-play", goal=8),
         load_game("zombie-yellow", goal=4, cap=8), ZombieDiceGame(2, 1, 1, dice=2, goal=3, cap=5)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_two_player_reports(game):
    """Every two-player family reports the same way: the largest Bellman
    residual at the accepted estimates, the sweeps (at least one per pair or
    round, the solver's policy iteration needs few), no unsettled position."""
    sol = solve(game)
    s = sol.summary()
    assert 0.0 <= s["residual"] <= 1e-14
    assert s["unsettled_positions"] == 0 and s["unsettled_residual"] == 0.0
    G = game.goal
    if game.family == "zombie":
        # rounds below the goal, the tie round, player 2's chases
        units = G * G + 1 + G * (game.cap - G + 1)
    else:
        units = G * (G + 1) // 2
    assert units <= s["sweeps"] <= 3 * units
