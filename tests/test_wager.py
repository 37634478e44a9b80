"""Persian Monarchs: the simulation against exact enumeration and a
plain-Python replay, the random-number scheme, validation, CLI."""

import json
import math
import pickle
import subprocess
import sys

import numpy as np
import pytest

import wager_reference as ref
from designer import DesignError, ParameterError, WagerGame, load_game
from designer.cli import main
from designer.simulate import wager
from designer.simulate.wager import design_metrics, play_games, simulate_pairing

STRATEGIES = ("counting", "non_counting", "random")
PAIRS = [(a, b) for a in STRATEGIES for b in STRATEGIES]

#: Exact values must lie within Z standard errors of the simulated mean. 4 se
#: (two-sided 99.994%) keeps a fixed-seed test from depending on luck while a
#: wrong rule (errors of 0.05..1 counters per hand here) is still far outside.
Z = 4.0


@pytest.fixture(scope="module")
def pm():
    return load_game("persian-monarchs")


# --- random numbers ----------------------------------------------------------

def test_generator_is_xoshiro256starstar():
    state = wager._chunk_state(12345, 3)
    py = ref.Xoshiro(12345, 3)
    got = [wager._uniform(state) for _ in range(1000)]
    want = [py.uniform() for _ in range(1000)]
    assert got == want
    assert 0.45 < np.mean(got) < 0.55


def test_kernel_matches_python_replay_game_by_game(monkeypatch):
    # few counters and big raises: table stakes and early endings happen;
    # a small CHUNK crosses several chunk boundaries
    monkeypatch.setattr(wager, "CHUNK", 40)
    for a, b in [("counting", "random"), ("non_counting", "counting"), ("random", "random")]:
        game = WagerGame(max_raise=8, ante=2, start=12, rounds=6, pack=9)
        got = play_games(game, a, b, 150, seed=11, n_jobs=2)
        want = ref.play_games(a, b, 150, 11, 40, max_raise=8, ante=2, start=12, hands=12, pack=9)
        for g, w in zip(got, want):
            assert g.tolist() == w
        assert (got[2] < 12).any(), "the test should exercise early endings"


def test_kernel_matches_python_replay_preset(pm):
    got = play_games(pm, "counting", "non_counting", 60, seed=5)
    want = ref.play_games("counting", "non_counting", 60, 5, wager.CHUNK)
    for g, w in zip(got, want):
        assert g.tolist() == w


def test_seed_reproduces_and_matters(pm):
    a = simulate_pairing(pm, "counting", "random", 3000, seed=4)
    b = simulate_pairing(pm, "counting", "random", 3000, seed=4)
    c = simulate_pairing(pm, "counting", "random", 3000, seed=5)
    keep = lambda r: {k: v for k, v in r.to_dict().items() if k != "seconds"}  # noqa: E731
    assert keep(a) == keep(b)
    assert a.mean_net != c.mean_net


def test_results_do_not_depend_on_jobs(pm, monkeypatch):
    monkeypatch.setattr(wager, "CHUNK", 300)  # 17 chunks, finishing in any order
    one = play_games(pm, "counting", "non_counting", 5000, seed=9, n_jobs=1)
    two = play_games(pm, "counting", "non_counting", 5000, seed=9, n_jobs=2)
    for x, y in zip(one, two):
        assert np.array_equal(x, y)
    r1 = simulate_pairing(pm, "random", "counting", 5000, seed=9, n_jobs=1)
    r2 = simulate_pairing(pm, "random", "counting", 5000, seed=9, n_jobs=2)
    assert (r1.mean_net, r1.se, r1.nondealer_advantage) == (r2.mean_net, r2.se,
                                                            r2.nondealer_advantage)


def test_progress_reports_every_game(pm):
    seen = []
    simulate_pairing(pm, "counting", "random", 5000, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (5000, 5000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


# --- exact values -------------------------------------------------------------

@pytest.mark.parametrize("nondealer,dealer", PAIRS)
def test_single_hand_matches_enumeration(pm, nondealer, dealer):
    exact = float(ref.hand_value(nondealer, dealer, pack=52, max_raise=10, ante=1))
    r = simulate_pairing(pm, nondealer, dealer, 400_000, seed=1, hands=1)
    assert r.hands == 1
    assert abs(r.mean_net - exact) <= Z * r.se, (r.mean_net, r.ci_low, r.ci_high, exact)
    assert r.nondealer_advantage == r.mean_net  # one hand, the player is the non-dealer


def test_single_hand_values_make_sense():
    # random vs random: a decline (prob 1/4) gives the non-dealer the ante,
    # everything else is symmetric
    assert ref.hand_value("random", "random") == ref.Fraction(1, 4)
    # from a full pack counting and non_counting coincide
    assert ref.hand_value("counting", "random") == ref.hand_value("non_counting", "random")
    # the dealer, who sees the raise size before covering, has the edge
    assert ref.hand_value("counting", "counting") < 0


@pytest.mark.parametrize("player,opponent,pack,rounds", [
    ("counting", "non_counting", 8, 3),
    ("non_counting", "counting", 7, 2),   # odd pack: one card left over, pack returns
    ("counting", "random", 6, 2),
    ("counting", "counting", 7, 3),
])
def test_small_game_matches_enumeration(player, opponent, pack, rounds):
    game = WagerGame(max_raise=3, ante=1, start=100, rounds=rounds, pack=pack)
    exact_net, exact_nd = ref.game_value(player, opponent, pack, game.hands, 3, 1)
    r = simulate_pairing(game, player, opponent, 200_000, seed=2)
    assert r.busted == 0.0
    assert abs(r.mean_net - float(exact_net)) <= Z * r.se, (r.mean_net, float(exact_net))
    adv = float(exact_nd) / game.hands
    assert abs(r.nondealer_advantage - adv) <= Z * r.nondealer_advantage_se


def test_counting_uses_the_pack():
    # with a depleted pack counting differs from non_counting: the exact game
    # values must differ, else the enumeration tests above prove nothing
    a, _ = ref.game_value("counting", "non_counting", 8, 6, 3, 1)
    assert a > 0


# --- invariants ---------------------------------------------------------------

def test_counters_are_conserved_and_never_negative():
    game = WagerGame(max_raise=10, ante=1, start=15, rounds=26)
    net, nd_gain, played = play_games(game, "counting", "random", 4000, seed=3)
    assert (game.start + net >= 0).all() and (game.start - net >= 0).all()
    assert (played <= game.hands).all() and (played < game.hands).any()
    r = simulate_pairing(game, "counting", "random", 4000, seed=3)
    assert r.busted == pytest.approx(np.mean(played < game.hands))
    assert r.mean_player + r.mean_opponent == pytest.approx(2 * game.start)


def test_result_object(pm):
    r = simulate_pairing(pm, "counting", "random", 2000, seed=1)
    d = r.to_dict()
    json.dumps(d)
    assert pickle.loads(pickle.dumps(r)) == r
    assert d["difference"] == pytest.approx(2 * r.mean_net)
    assert r.ci_low < r.mean_net < r.ci_high
    assert r.ci_high - r.ci_low == pytest.approx(2 * 1.959964 * r.se)
    assert r.se == pytest.approx(r.net_sd / math.sqrt(2000))
    assert r.to_frame().shape[0] == 1


def test_design_metrics(pm):
    m = design_metrics(pm, 2000, seed=3)
    for key in ("nondealer_advantage", "skill_vs_noncounting", "skill_vs_random", "net_sd",
                "dealer_advantage"):
        assert key in m and f"{key}_se" in m and m[f"{key}_se"] > 0
    assert m["skill_vs_random"] == simulate_pairing(pm, "counting", "random", 2000, 3).mean_net
    same = simulate_pairing(pm, "counting", "counting", 2000, 3)
    assert m["nondealer_advantage"] == same.nondealer_advantage
    assert m["net_sd"] == same.net_sd


# --- the published figure ----------------------------------------------------

def test_spec_figure_10000_games(pm):
    """The published claim: counting beats non-counting by about 3.5 to 5 counters per
    game and random by about 35. The 95% intervals must reach those bands."""
    nc = simulate_pairing(pm, "counting", "non_counting", 10_000, seed=1)
    rnd = simulate_pairing(pm, "counting", "random", 10_000, seed=1)
    assert nc.ci_low <= 5.0 and nc.ci_high >= 3.5, (nc.ci_low, nc.ci_high)
    assert rnd.ci_low <= 37.0 and rnd.ci_high >= 33.0, (rnd.ci_low, rnd.ci_high)
    assert nc.ci_low > 0  # skill matters, and the interval says so


# --- validation ---------------------------------------------------------------

@pytest.mark.parametrize("kwargs,name", [
    (dict(max_raise=0), "max_raise"),
    (dict(max_raise=1001), "max_raise"),
    (dict(ante=0), "ante"),
    (dict(ante=1.5), "ante"),
    (dict(start=0), "start"),
    (dict(start=4, ante=5), "start"),
    (dict(rounds=0), "rounds"),
    (dict(rounds=1001), "rounds"),
    (dict(pack=1), "pack"),
    (dict(pack=1001), "pack"),
    (dict(pack="52"), "pack"),
])
def test_wager_rules(kwargs, name):
    with pytest.raises(ParameterError) as info:
        WagerGame(**kwargs)
    assert info.value.name == name
    assert f"invalid {name}=" in str(info.value) and "allowed" in str(info.value)


def test_presets_and_families():
    g = load_game("persian-monarchs", rounds=3)
    assert (g.max_raise, g.ante, g.start, g.rounds, g.pack) == (10, 1, 100, 3, 52)
    assert load_game("wager").params == {**g.params, "rounds": 26}
    assert load_game("fowl-play").bad == 6 and load_game("pig").faces == 6
    with pytest.raises(DesignError, match="persian-monarchs does not take goal"):
        load_game("persian-monarchs", goal=5)


def test_simulation_errors(pm):
    with pytest.raises(DesignError, match="unknown player strategy 'psychic'"):
        simulate_pairing(pm, "psychic", "random", 10)
    with pytest.raises(DesignError, match="not a wagering game"):
        simulate_pairing(load_game("pig"), "counting", "random", 10)
    with pytest.raises(ParameterError, match="games"):
        simulate_pairing(pm, "counting", "random", 0)
    with pytest.raises(ParameterError, match="seed"):
        simulate_pairing(pm, "counting", "random", 10, seed=-1)
    with pytest.raises(ParameterError, match="n_jobs"):
        simulate_pairing(pm, "counting", "random", 10, n_jobs=0)
    with pytest.raises(ParameterError, match="hands"):
        simulate_pairing(pm, "counting", "random", 10, hands=53)
    assert simulate_pairing(pm, "non-counting", "random", 10).player == "non_counting"


# --- command line -------------------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (["simulate", "persian-monarchs", "--max-raise", "0"], "invalid max_raise=0"),
    (["simulate", "persian-monarchs", "--player", "psychic"], "unknown player strategy"),
    (["simulate", "persian-monarchs", "--games", "0"], "invalid games=0"),
    (["simulate", "persian-monarchs", "--jobs", "0"], "invalid --jobs=0"),
    (["simulate", "fowl-play"], "designer simulate does not take deck games (Fowl Play)"),
    (["simulate", "persian-monarchs", "--start", "0"], "invalid start=0"),
])
def test_cli_errors(args, needle, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_error_subprocess_no_traceback():
    r = subprocess.run([sys.executable, "-m", "designer", "simulate", "persian-monarchs",
                        "--rounds", "0"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "invalid rounds=0" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_cli_json(capsys):
    assert main(["simulate", "persian-monarchs", "--games", "500", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(o["player"], o["opponent"]) for o in out] == [
        ("counting", "counting"), ("counting", "non_counting"), ("counting", "random")]
    for o in out:
        for key in ("games", "mean_net", "ci_low", "ci_high", "mean_player", "mean_opponent",
                    "nondealer_advantage", "seconds"):
            assert key in o
        assert o["games"] == 500 and o["ci_low"] < o["mean_net"] < o["ci_high"]
    again = simulate_pairing(load_game("persian-monarchs"), "counting", "random", 500, seed=1)
    assert out[2]["mean_net"] == again.mean_net


def test_cli_text_one_pairing(capsys):
    assert main(["simulate", "persian-monarchs", "--player", "counting", "--opponent", "random",
                 "--rounds", "5", "--games", "300", "--pack", "40", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "counting vs random" in out and "non_counting" not in out.split("net =")[0]
    for needle in ("mean final counters", "95% CI", "non-dealer per hand", "time"):
        assert needle in out
    assert "rounds=5" in out and "pack=40" in out
