"""The compact policy: save/load and replaying optimal play by simulation."""

import math

import numpy as np
import pytest

from designer import DeckGame, DesignError, load_game
from designer.policies import CompactPolicy
from designer.simulate.replay import replay_deck, replay_dice
from designer.solve import solve


def test_policy_roundtrip(tmp_path, red_light):
    pol = red_light.compact_policy()
    path = tmp_path / "policy.npz"
    pol.save(path)
    back = CompactPolicy.load(path)
    assert back.game == red_light.game
    assert np.array_equal(back.table, red_light.policy)
    assert back.should_draw(0, 1, 0, 0, 0)
    assert back.draws_before_hold(0, 0) == red_light.draws_before_hold(0, 0)


def test_policy_load_errors(tmp_path):
    bad = tmp_path / "nope.npz"
    bad.write_text("not a zip")
    with pytest.raises(DesignError, match="cannot read a policy"):
        CompactPolicy.load(bad)
    with pytest.raises(DesignError, match="shape"):
        CompactPolicy(DeckGame(2, 3, 4), np.zeros((2, 2, 2, 4), dtype=np.int16))


def _within(sim, exact, n, z=4.0):
    return abs(sim - exact) <= z * math.sqrt(exact * (1 - exact) / n)


def test_replay_matches_exact_deck(red_light):
    n = 200_000
    game = red_light.game  # komi 1
    win, actions = replay_deck(game, red_light.policy, red_light.policy, n, seed=7)
    assert _within(win, red_light.first_player_win(komi=1), n)
    # game length: sd is below 100 actions, so 4 sd of the mean is < 1
    assert abs(actions - red_light.expected_actions(komi=1)) < 1.0


def test_replay_matches_exact_dice():
    sol = solve(load_game("pig", goal=40))
    n = 200_000
    win, actions = replay_dice(sol.game, sol.policy, sol.policy, n, seed=3)
    assert _within(win, sol.first_player_win(), n)
    assert abs(actions - sol.expected_actions()) < 0.5


def test_replay_is_seeded(red_light):
    a = replay_deck(red_light.game, red_light.policy, red_light.policy, 5000, seed=1)
    b = replay_deck(red_light.game, red_light.policy, red_light.policy, 5000, seed=1)
    assert a == b
