"""Policies: built-in rules against direct implementations, the optimal
policy's per-state decisions against the reference solver, user functions,
policy strings and their errors."""

import numpy as np
import pytest

from designer import DeckGame, DesignError, DiceGame, load_game
from designer.policies import (FunctionPolicy, HoldAtPolicy, MaxScorePolicy, OptimalPolicy,
                               from_function, parse_policy)
from designer.solve import solve
from reference import TIE, deck_reference

SMALL = DeckGame(3, 5, 7)


def deck_states(game):
    """Every decision state (k >= 1) of a deck game, plainly enumerated."""
    for i in range(game.goal):
        for j in range(game.goal):
            for w in range(game.bad):
                for c in range(game.good + 1):
                    for k in range(1, c + 1):
                        if i + k < game.goal:
                            yield i, j, k, w, c


def compact_from_rule(game, draws):
    """Compact table by walking each chain with a Python decision function."""
    T = np.empty((game.goal, game.goal, game.bad, game.good + 1), dtype=np.int16)
    for i in range(game.goal):
        for j in range(game.goal):
            for w in range(game.bad):
                for c0 in range(game.good + 1):
                    t = 1
                    while i + t < game.goal and c0 + t <= game.good and draws(i, j, t, w, c0 + t):
                        t += 1
                    T[i, j, w, c0] = t
    return T


def max_score(i, j, k, w, c, bad, good, goal):
    return k == 0 or good - c > (bad - w) * k


@pytest.mark.parametrize("game", [SMALL, DeckGame(1, 4, 9), DeckGame(4, 24, 12)])
def test_max_score_deck_matches_direct_rule(game):
    pol = MaxScorePolicy(game)
    def rule(i, j, k, w, c):
        return max_score(i, j, k, w, c, game.bad, game.good, game.goal)

    for i, j, k, w, c in deck_states(game):
        assert pol.block(i)[j, w, c, k] == rule(i, j, k, w, c)
    assert np.array_equal(pol.table(), compact_from_rule(game, rule))
    D = pol.decisions()
    assert all(D[i, j, w, c, k] == rule(i, j, k, w, c) for i, j, k, w, c in deck_states(game))


def test_max_score_spec_examples():
    pol = MaxScorePolicy(load_game("fowl-play"))
    # fresh deck: after k good draws c_rem = 42 - k, w_rem = 6; draw iff 42 - k > 6 k
    assert pol.draws(0, 0, 5, 0, 5) is True      # 37 > 30
    assert pol.draws(0, 0, 6, 0, 6) is False     # 36 > 36 is false: tie holds
    assert pol.table()[0, 0, 0, 0] == 6


def test_max_score_dice_is_expected_gain_rule():
    pig = MaxScorePolicy(load_game("pig"))
    assert pig.rolls(0, 0, 19) and not pig.rolls(0, 0, 20)  # Pig: hold at 20
    assert pig.rolls(50, 7, 0)
    two_bust = MaxScorePolicy(DiceGame(faces=6, goal=40, bust_faces=(1, 2)))
    # scoring pips 3+4+5+6 = 18 against 2 bust faces: roll iff 18 > 2 k
    for k in range(40):
        assert two_bust.rolls(0, 3, k) == (k == 0 or 18 > 2 * k)


@pytest.mark.parametrize("game", [SMALL, load_game("pig", goal=30)])
def test_hold_at(game):
    pol = parse_policy("hold-at:3", game)
    assert isinstance(pol, HoldAtPolicy) and pol.name == "hold-at:3"
    if game.family == "deck":
        for i, j, k, w, c in deck_states(game):
            assert pol.block(i)[j, w, c, k] == (k < 3)
        assert np.array_equal(pol.table(), compact_from_rule(game, lambda i, j, k, w, c: k < 3))
    else:
        G = game.goal
        for i in range(G):
            for k in range(G - i):
                assert pol.rolls(i, 0, k) == (k < 3)


def test_optimal_decisions_match_reference_solver():
    game = SMALL
    P, _, T = deck_reference(game.bad, game.good, game.goal)
    pol = OptimalPolicy(game, solve(game))

    def value(i, j, k, w, c):
        return 1.0 if i + k >= game.goal else P[(i, j, k, w, c)]

    near_ties = 0
    for i, j, k, w, c in deck_states(game):
        w_rem, c_rem = game.bad - w, game.good - c
        nw, nc = (w + 1, c) if w + 1 < game.bad else (0, 0)
        draw = w_rem / (w_rem + c_rem) * (1 - value(j, i, 0, nw, nc))
        if c_rem:
            draw += c_rem / (w_rem + c_rem) * value(i, j, k + 1, w, c + 1)
        hold = 1 - value(j, i + k, 0, w, c)
        if abs(draw - hold - TIE) < 1e-10:
            near_ties += 1
            continue
        assert pol.block(i)[j, w, c, k] == (draw > hold + TIE), (i, j, k, w, c)
    assert near_ties < 10
    ref_T = np.array([[[[T[(i, j, w, c)] for c in range(game.good + 1)] for w in range(game.bad)]
                       for j in range(game.goal)] for i in range(game.goal)])
    assert np.array_equal(pol.table(), ref_T)


def test_optimal_blocks_rebuild_the_solver_table(red_light):
    # the compact table walked out of the per-state decisions is the solver's
    from designer.policies.base import Policy

    pol = OptimalPolicy(red_light.game, red_light)
    assert np.array_equal(Policy._deck_table(pol), red_light.policy)
    # in-turn decisions agree with DeckSolution.decision on the played chain
    for (i, j, k, w, c) in [(0, 0, 3, 0, 3), (10, 40, 8, 1, 12), (45, 20, 2, 2, 5)]:
        assert pol.draws(i, j, k, w, c) == (red_light.decision(i, j, k, w, c) == "draw")


def test_optimal_dice_is_the_solver_table(pig):
    pol = OptimalPolicy(pig.game, pig)
    assert np.array_equal(pol.table(), pig.policy)
    assert pol.rolls(0, 0, 10) == (pig.decision(0, 0, 10) == "roll")


def catch_up(i, j, k, w, c, bad, good, goal):
    # the README example: max-score, one draw bolder while more than 10 behind
    c_rem, w_rem = good - c, bad - w
    if j - i > 10:
        return c_rem > w_rem * (k - 1)
    return c_rem > w_rem * k


def test_user_function_deck():
    game = DeckGame(3, 9, 20)
    pol = from_function(game, catch_up)
    assert isinstance(pol, FunctionPolicy) and pol.name == "catch_up"
    def rule(i, j, k, w, c):
        return catch_up(i, j, k, w, c, game.bad, game.good, game.goal)

    for i, j, k, w, c in deck_states(game):
        assert pol.block(i)[j, w, c, k] == rule(i, j, k, w, c)
    assert np.array_equal(pol.table(), compact_from_rule(game, rule))
    # the max-score rule written by hand is the built-in
    same = from_function(game, max_score)
    assert np.array_equal(same.table(), MaxScorePolicy(game).table())


def test_user_function_dice():
    game = load_game("pig", goal=30)

    def cautious(i, j, k, faces, goal):
        return k < 15 if i < j else k < 25

    pol = FunctionPolicy(game, cautious)
    for i in range(0, 30, 3):
        for j in range(0, 30, 4):
            for k in range(30 - i):
                assert pol.rolls(i, j, k) == cautious(i, j, k, 6, 30)


def test_user_function_errors():
    def not_numba(i, j, k, w, c, bad, good, goal):
        return object() is None

    with pytest.raises(DesignError, match="policy function 'not_numba' failed.*Untyped global"):
        FunctionPolicy(SMALL, not_numba)

    def wrong_arity(i, j, k):
        return True

    with pytest.raises(DesignError, match="failed for deck games"):
        FunctionPolicy(SMALL, wrong_arity)
    with pytest.raises(DesignError, match="callable"):
        FunctionPolicy(SMALL, 3)

    def divides(i, j, k, w, c, bad, good, goal):
        return 10 // (j - 3) > k  # division by zero at j = 3

    with pytest.raises(DesignError, match="failed: ZeroDivisionError"):
        FunctionPolicy(SMALL, divides).table()


def test_policy_file(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def bold(i, j, k, w, c, bad, good, goal):\n    return k < 4\n")
    pol = parse_policy(f"py:{f}:bold", SMALL)
    assert np.array_equal(pol.table(), HoldAtPolicy(SMALL, 4).table())
    with pytest.raises(DesignError, match="has no function 'nope'"):
        parse_policy(f"py:{f}:nope", SMALL)
    with pytest.raises(DesignError, match="no policy file"):
        parse_policy(f"py:{tmp_path / 'missing.py'}:bold", SMALL)
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    with pytest.raises(DesignError, match="cannot import"):
        parse_policy(f"py:{broken}:f", SMALL)


@pytest.mark.parametrize("spec,match", [
    ("best", "unknown policy 'best'"),
    ("hold-at:x", "hold-at needs an integer"),
    ("hold-at:0", "N >= 1"),
    ("nn:", "nn needs a file"),
    ("nn:/no/such/file.npz", "cannot read a network"),
    ("py:onlyfile.py", "use py:FILE.py:FUNCTION"),
])
def test_policy_string_errors(spec, match):
    with pytest.raises(DesignError, match=match):
        parse_policy(spec, SMALL)


def test_policy_state_checks():
    pol = MaxScorePolicy(SMALL)
    with pytest.raises(DesignError, match="not a non-terminal state"):
        pol.draws(0, 0, 3, 0, 2)  # k > c
    with pytest.raises(DesignError, match="rolls"):
        MaxScorePolicy(load_game("pig", goal=10)).draws(0, 0, 1, 0, 1)
    assert pol.draws(0, 0, 0, 0, 0) is True  # k = 0: forced draw
