"""Games far from the presets: every well-posed game solves, and exactly.

A seeded sample of decks, dice, endings and seat counts (the full sweep of
decks is ``benchmarks/solver_sweep.py``). Every solve must succeed and
report a residual within the tolerance; the two-player race games are
checked against plain value iteration (:mod:`plain_vi`) on their whole
turn-start table, the others against the slow references on small goals.
"""

import numpy as np
import pytest

from designer._jit import TOL
from designer.games import DeckGame, DiceGame
from designer.solve import solve
from designer.solve.race import solve_race
from designer.solve.rounds import solve_rounds_deck, solve_rounds_dice
from plain_vi import deck_plain_vi, dice_plain_vi
from seats_reference import race_deck_reference, race_dice_reference
from tests.rounds_reference import RoundsReference

#: Held-out decks at goals 100-200, several of which the solver used to
#: refuse ("did not converge"), Red Light's 4/24 deck at goal 200 among them.
FAR_DECKS = [(6, 30, 100), (4, 24, 200), (1, 7, 150), (9, 5, 120), (3, 12, 150)]

#: (faces, bust faces, goal): a two-faced die to 100 used to be refused as
#: endless; bust faces other than 1, several bust faces, large goals.
FAR_DICE = [(2, (1,), 100), (6, (1,), 100), (7, (1, 2), 150), (3, (2,), 200), (10, (3, 7, 9), 120)]


def _sample(seed, n, draw, cost, budget):
    """``n`` parameter tuples from ``draw(rng)`` whose ``cost`` fits ``budget``."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        p = draw(rng)
        if cost(p) <= budget:
            out.append(p)
    return out


def _deck(rng):
    return int(rng.integers(1, 16)), int(rng.integers(1, 151)), int(rng.integers(20, 301))


def _dice(rng):
    faces = int(rng.integers(2, 13))
    nbust = int(rng.integers(1, faces))
    bust = tuple(sorted(int(f) for f in rng.choice(np.arange(1, faces + 1), nbust, replace=False)))
    return faces, bust, int(rng.integers(20, 301))


# a solve of bad * good * goal ** 2 = 3e6 takes about a second on 2 cores
SAMPLE_DECKS = _sample(28, 14, _deck, lambda p: p[0] * p[1] * p[2] ** 2, 3e6)
SAMPLE_DICE = _sample(28, 10, _dice, lambda p: p[0] * p[2] ** 3, 1.5e8)


def _check_race(sol):
    assert sol.residual <= TOL
    assert sol.unsettled_positions == 0
    assert np.isfinite(sol.win).all()
    assert (sol.win >= -1e-12).all() and (sol.win <= 1 + 1e-12).all()
    assert (sol.actions >= 1).all() and np.isfinite(sol.actions).all()


@pytest.mark.parametrize("bad, good, goal", FAR_DECKS)
def test_far_decks_equal_plain_value_iteration(bad, good, goal):
    sol = solve(DeckGame(bad, good, goal))
    _check_race(sol)
    S, _ = deck_plain_vi(bad, good, goal)
    # every turn start of every score pair and deck state, not just the first
    assert np.abs(sol.win - S).max() < 1e-9
    assert sol.first_player_win(komi=1) == pytest.approx(S[0, 1, 0, 0], abs=1e-9)


def test_the_deck_that_was_refused_has_its_plain_value_iteration_figures():
    # 6 bad / 30 good to 100: plain value iteration over all states gives
    # first-player win 0.514234097849 (0.498828166335 with komi 1)
    sol = solve(DeckGame(6, 30, 100))
    assert sol.first_player_win() == pytest.approx(0.514234097849, abs=1e-12)
    assert sol.first_player_win(komi=1) == pytest.approx(0.498828166335, abs=1e-12)


@pytest.mark.parametrize("faces, bust, goal", FAR_DICE)
def test_far_dice_equal_plain_value_iteration(faces, bust, goal):
    sol = solve(DiceGame(faces, goal, bust_faces=bust))
    _check_race(sol)
    mask = np.array([f in bust for f in range(1, faces + 1)])
    S, _ = dice_plain_vi(faces, mask, goal)
    assert np.abs(sol.win - S).max() < 1e-9


@pytest.mark.parametrize("bad, good, goal", SAMPLE_DECKS)
def test_sampled_decks_solve(bad, good, goal):
    sol = solve(DeckGame(bad, good, goal))
    _check_race(sol)
    if bad * good * good * goal * goal <= 2e7:  # plain value iteration is cheap enough
        S, _ = deck_plain_vi(bad, good, goal)
        assert np.abs(sol.win - S).max() < 1e-9


@pytest.mark.parametrize("faces, bust, goal", SAMPLE_DICE)
def test_sampled_dice_solve(faces, bust, goal):
    sol = solve(DiceGame(faces, goal, bust_faces=bust))
    _check_race(sol)
    if goal <= 150:
        mask = np.array([f in bust for f in range(1, faces + 1)])
        S, _ = dice_plain_vi(faces, mask, goal)
        assert np.abs(sol.win - S).max() < 1e-9


def _rounds_sample(rng):
    if rng.random() < 0.5:
        return ("deck", int(rng.integers(1, 16)), int(rng.integers(1, 40)), int(rng.integers(5, 41)))
    faces, bust, _ = _dice(rng)
    return ("dice", faces, bust, int(rng.integers(5, 41)))


@pytest.mark.parametrize("kind, a, b, goal", _sample(61, 8, _rounds_sample, lambda p: 0, 0))
def test_sampled_two_seat_rounds_solve(kind, a, b, goal):
    game = (DeckGame(a, b, goal, ending="rounds") if kind == "deck"
            else DiceGame(a, goal, bust_faces=b, ending="rounds"))
    sol = solve(game)
    assert sol.unsettled == 0 and sol.residual <= TOL
    for komi in (0, -1, 2):
        p = np.asarray(sol.seat_win(komi=komi))
        assert p.sum() == pytest.approx(1.0, abs=1e-9) and (p >= 0).all()


#: Odd small games for 3 and 4 seats (the slow references allow no more):
#: (kind, seats, bad or faces, good or bust faces, goal).
TINY = [("deck", 3, 3, 1, 3), ("deck", 4, 1, 3, 2), ("dice", 3, 5, (2, 4), 4),
        ("dice", 4, 3, (3,), 3)]


@pytest.mark.parametrize("kind, N, a, b, goal", TINY)
def test_odd_seats_race_equal_the_reference(kind, N, a, b, goal):
    if kind == "deck":
        P, _ = race_deck_reference(a, b, goal, N)
        s = solve_race(DeckGame(a, b, goal, players=N))
        starts = {(scores + (w, c)): v for (scores, k, w, c), v in P.items() if k == 0}
    else:
        P, _ = race_dice_reference(a, b, goal, N)
        s = solve_race(DiceGame(a, goal, bust_faces=b, players=N))
        starts = {scores: v for (scores, k), v in P.items() if k == 0}
    assert s.unsettled_positions == 0
    for key, v in starts.items():
        assert s.win[key] == pytest.approx(v, abs=1e-9)


@pytest.mark.parametrize("kind, N, a, b, goal", [("deck", 3, 3, 1, 3), ("dice", 3, 5, (1, 5), 3)])
def test_odd_seats_rounds_equal_the_reference(kind, N, a, b, goal):
    if kind == "deck":
        sol = solve_rounds_deck(a, b, goal, players=N)
        ref = RoundsReference(N, goal, sol.cap, deck=(a, b))
    else:
        pips = [f for f in range(1, a + 1) if f not in b]
        sol = solve_rounds_dice(a, pips, goal, players=N, cap=goal + 6)
        ref = RoundsReference(N, goal, sol.cap, dice=(a, pips))
    start = ref.start((0,) * N)
    ref.solve([start])
    assert np.allclose(sol.seat_win(komi=[0] * N), ref.V[start], atol=1e-9, rtol=0)
    assert sol.unsettled == 0
