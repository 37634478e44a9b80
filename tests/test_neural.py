"""The 118-weight network: forward pass against plain numpy, input scaling,
tables against blocks, save/load, reproducible training on a small deck."""

import numpy as np
import pytest

from designer import DeckGame, DesignError, load_game
from designer.analysis import compare
from designer.policies import parse_policy
from designer.policies.base import Policy
from designer.policies.neural import FEATURES, Network, NeuralPolicy, input_ranges
from designer.training.neural import nguyen_widrow, train_nn

SMALL = DeckGame(3, 8, 12)


def random_network(game, seed=1):
    W1, b1, W2, b2 = nguyen_widrow(np.random.default_rng(seed))
    lo, hi = input_ranges(game)
    return Network(W1, b1, W2, b2, lo, hi, game)


def numpy_output(net, game, i, j, k, w, c):
    w_rem, c_rem = game.bad - w, game.good - c
    raw = np.array([i, j, k, w_rem, c_rem, c_rem / (w_rem + c_rem), k * w_rem / (w_rem + c_rem)])
    x = 2 * (raw - net.lo) / (net.hi - net.lo) - 1
    h = 1 / (1 + np.exp(-(net.W1 @ x + net.b1)))
    return 1 / (1 + np.exp(-(net.W2 @ h + net.b2)))


def test_weight_count_and_shapes():
    net = random_network(SMALL)
    assert net.n_weights == 118
    assert net.W1.shape == (13, 7) and len(FEATURES) == 7


def test_nguyen_widrow():
    W1, b1, W2, b2 = nguyen_widrow(np.random.default_rng(0))
    beta = 0.7 * 13 ** (1 / 7)
    assert np.allclose(np.linalg.norm(W1, axis=1), beta)
    assert np.all(np.abs(b1) <= beta) and np.all(np.abs(W2) <= 0.5) and abs(b2) <= 0.5


def test_forward_matches_numpy():
    game = load_game("fowl-play")
    net = random_network(game, seed=4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        w = int(rng.integers(game.bad))
        c = int(rng.integers(1, game.good + 1))
        k = int(rng.integers(1, c + 1))
        i = int(rng.integers(game.goal - min(k, game.goal - 1)))
        j = int(rng.integers(game.goal))
        if i + k >= game.goal:
            continue
        assert net.output(i, j, k, w, c) == pytest.approx(numpy_output(net, game, i, j, k, w, c),
                                                           abs=1e-14)


def test_inputs_scaled_into_unit_interval():
    from designer.policies._kernels import nn_features

    game = SMALL
    lo, hi = input_ranges(game)
    x = np.empty(7)
    seen_lo, seen_hi = np.full(7, np.inf), np.full(7, -np.inf)
    for i in range(game.goal):
        for w in range(game.bad):
            for c in range(game.good + 1):
                for k in range(1, c + 1):
                    if i + k < game.goal:
                        nn_features(i, 3, k, w, c, game.bad, game.good, lo, hi, x)
                        seen_lo, seen_hi = np.minimum(seen_lo, x), np.maximum(seen_hi, x)
    assert np.all(seen_lo >= -1 - 1e-12) and np.all(seen_hi <= 1 + 1e-12)
    # the ranges are exact: every input but j (fixed here) reaches both ends
    assert np.allclose(seen_hi[[0, 2, 3, 4, 5, 6]], 1)
    assert np.allclose(seen_lo[[0, 2, 3, 4, 5, 6]], -1)


def test_table_and_blocks_agree():
    game = SMALL
    pol = NeuralPolicy(game, random_network(game, seed=7))
    assert np.array_equal(pol.table(), Policy._deck_table(pol))
    net = pol.network
    for (i, j, k, w, c) in [(0, 0, 1, 0, 1), (5, 9, 3, 2, 7), (10, 2, 1, 1, 8)]:
        assert pol.draws(i, j, k, w, c) == (numpy_output(net, game, i, j, k, w, c) > 0.5)


def test_save_load_roundtrip(tmp_path):
    net = random_network(SMALL)
    path = tmp_path / "net.npz"
    net.save(path)
    back = Network.load(path)
    for name in ("W1", "b1", "W2", "lo", "hi"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    assert back.b2 == net.b2 and back.game == SMALL
    pol = parse_policy(f"nn:{path}", SMALL)
    assert np.array_equal(pol.table(), NeuralPolicy(SMALL, net).table())


def test_load_errors(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_text("no zip")
    with pytest.raises(DesignError, match="cannot read a network"):
        Network.load(junk)
    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    with pytest.raises(DesignError, match="not a network saved by designer"):
        Network.load(other)
    net = random_network(SMALL)
    net.save(tmp_path / "ok.npz")
    with pytest.raises(DesignError, match="plays deck games"):
        parse_policy(f"nn:{tmp_path / 'ok.npz'}", load_game("pig", goal=10))
    with pytest.raises(DesignError, match="shape"):
        Network(np.zeros((12, 7)), net.b1, net.W2, net.b2, net.lo, net.hi, SMALL)


def test_training_is_reproducible_and_keeps_the_best():
    a = train_nn(SMALL, seed=3, epochs=3, games=20)
    b = train_nn(SMALL, seed=3, epochs=3, games=20)
    c = train_nn(SMALL, seed=4, epochs=3, games=20)
    assert np.array_equal(a.network.W1, b.network.W1) and a.win_average == b.win_average
    assert not np.array_equal(a.network.W1, c.network.W1)
    assert a.epochs == 3 and len(a.history) == 4
    assert a.win_average == max(h[1] for h in a.history)
    # the recorded win rate is the exact evaluation of the saved network
    r = compare(SMALL, NeuralPolicy(SMALL, a.network), "optimal", with_agreement=False)
    assert r.win_average == pytest.approx(a.win_average, abs=1e-15)
    comp = a.compression()
    assert comp["weights"] == 118 and comp["weight_bytes"] == 944
    assert comp["table_bytes"] == 12 * 12 * 3 * 9 * 2


def test_training_arguments():
    with pytest.raises(DesignError, match="epochs or minutes"):
        train_nn(SMALL)
    with pytest.raises(DesignError, match="deck games"):
        train_nn(load_game("pig", goal=10), epochs=1)


def test_shipped_fowl_play_network_meets_the_bar():
    """networks/fowl_play.npz (train-nn fowl-play --seed 0) wins at least
    49.5% on average against the optimal player, evaluated exactly."""
    from pathlib import Path

    from designer import load_game
    from designer.analysis.compare import compare
    from designer.policies.neural import Network

    path = Path(__file__).resolve().parent.parent / "networks" / "fowl_play.npz"
    net = Network.load(path)
    assert net.W1.size + net.b1.size + net.W2.size + np.size(net.b2) == 118
    r = compare(load_game("fowl-play"), f"nn:{path}", "optimal", with_agreement=False)
    assert r.win_average >= 0.495
    assert r.win_average == pytest.approx(0.4961022340181794, abs=1e-12)
