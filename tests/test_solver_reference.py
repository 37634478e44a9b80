"""The layered numba solvers against the plain value-iteration reference."""

import numpy as np
import pytest

from designer import DeckGame, DiceGame
from designer.solve import solve
from reference import deck_reference, dice_reference

DECKS = [(1, 1, 3), (1, 4, 6), (2, 3, 5), (3, 2, 4), (2, 5, 6), (3, 4, 4)]
DICE = [(2, (1,), 6), (3, (1,), 7), (4, (1, 4), 6), (6, (1,), 8), (5, (2, 3), 9)]


@pytest.mark.parametrize("bad,good,goal", DECKS)
def test_deck_matches_reference(bad, good, goal):
    P, L, T = deck_reference(bad, good, goal)
    sol = solve(DeckGame(bad, good, goal))
    assert sol.residual <= 1e-12
    for i in range(goal):
        for j in range(goal):
            for w in range(bad):
                for c in range(good + 1):
                    s = (i, j, 0, w, c)
                    assert sol.win[i, j, w, c] == pytest.approx(P[s], abs=1e-9), s
                    assert sol.actions[i, j, w, c] == pytest.approx(L[s], rel=1e-9), s
                    assert sol.policy[i, j, w, c] == T[(i, j, w, c)], s


@pytest.mark.parametrize("bad,good,goal", DECKS[2:4])
def test_deck_in_turn_values_match_reference(bad, good, goal):
    P, _, T = deck_reference(bad, good, goal)
    sol = solve(DeckGame(bad, good, goal))
    for (i, j, k, w, c), p in P.items():
        assert sol.win_probability(i, j, k, w, c) == pytest.approx(p, abs=1e-9)
        expected = "draw" if k == 0 or k < T[(i, j, w, c - k)] else "hold"
        assert sol.decision(i, j, k, w, c) == expected


@pytest.mark.parametrize("faces,bust,goal", DICE)
def test_dice_matches_reference(faces, bust, goal):
    P, L, roll = dice_reference(faces, bust, goal)
    sol = solve(DiceGame(faces=faces, bust_faces=bust, goal=goal))
    assert sol.residual <= 1e-12
    for (i, j, k), p in P.items():
        if k == 0:
            assert sol.win[i, j] == pytest.approx(p, abs=1e-9)
            assert sol.actions[i, j] == pytest.approx(L[(i, j, k)], rel=1e-9)
        assert bool(sol.policy[i, j, k]) == roll[(i, j, k)], (i, j, k)


def test_reference_agrees_with_itself_on_symmetry():
    # With komi 0 and i == j the mover's win must exceed 1/2 for any deck
    # (moving first is an advantage) - a sanity check on the reference.
    P, _, _ = deck_reference(2, 3, 4)
    assert all(P[(i, i, 0, 0, 0)] > 0.5 for i in range(4))
    assert np.isfinite(list(P.values())).all()
