"""Exact head-to-head evaluation: against the optimal solver, against Monte
Carlo replays of the same match, agreement against a plain count, skill gap,
the command line."""

import json
import math
import subprocess
import sys

import pytest
from cli_runner import cli as run_cli

from designer import ConvergenceError, DeckGame, DesignError, load_game
from designer.analysis import compare, match_table, policy_agreement, skill_gap
from designer.policies import HoldAtPolicy, MaxScorePolicy, OptimalPolicy, from_function
from designer.simulate.replay import replay_deck, replay_dice
from designer.solve import solve


@pytest.mark.parametrize("fixture", ["fowl_play", "red_light", "pig"])
def test_optimal_against_optimal_is_the_solver(request, fixture):
    sol = request.getfixturevalue(fixture)
    game = sol.game
    r = compare(game, OptimalPolicy(game, sol), OptimalPolicy(game, sol), with_agreement=False)
    assert r.win_as_first == sol.first_player_win(komi=game.komi)
    assert r.win_as_second == pytest.approx(1 - sol.first_player_win(komi=game.komi), abs=1e-15)
    assert r.win_average == pytest.approx(0.5, abs=1e-15)
    assert r.actions_as_first == pytest.approx(sol.expected_actions(komi=game.komi), rel=1e-12)


def _within(sim, exact, n, z=4.0):
    return abs(sim - exact) <= z * math.sqrt(exact * (1 - exact) / n)


def test_exact_matches_replay_deck(red_light):
    game = red_light.game  # komi 1
    a, b = MaxScorePolicy(game), OptimalPolicy(game, red_light)
    r = compare(game, a, b, with_agreement=False)
    n = 100_000
    first, _ = replay_deck(game, a.table(), b.table(), n, seed=11)
    b_first, _ = replay_deck(game, b.table(), a.table(), n, seed=12)
    assert _within(first, r.win_as_first, n)
    assert _within(1 - b_first, r.win_as_second, n)


def test_exact_matches_replay_deck_hold_at():
    game = DeckGame(3, 12, 25, komi=2)
    a, b = HoldAtPolicy(game, 3), MaxScorePolicy(game)
    m = match_table(game, a.table(), b.table())
    n = 100_000
    first, actions = replay_deck(game, a.table(), b.table(), n, seed=5)
    assert _within(first, m.win_as_first(), n)
    assert abs(actions - m.actions_as_first()) < 1.0


def test_exact_matches_replay_dice():
    game = load_game("pig", goal=40, komi=3)
    a, b = HoldAtPolicy(game, 12), MaxScorePolicy(game)
    r = compare(game, a, b, with_agreement=False)
    n = 100_000
    first, _ = replay_dice(game, a.table(), b.table(), n, seed=2)
    b_first, _ = replay_dice(game, b.table(), a.table(), n, seed=3)
    assert _within(first, r.win_as_first, n)
    assert _within(1 - b_first, r.win_as_second, n)


def test_match_table_answers_every_goal_and_komi(red_light):
    game = red_light.game
    full = match_table(game, MaxScorePolicy(game).table(), red_light.policy)
    small = DeckGame(4, 24, 20, komi=3)
    direct = match_table(small, MaxScorePolicy(small).table(), solve(small).policy)
    assert full.win_as_first(20, 3) == pytest.approx(direct.win_as_first(), abs=1e-12)
    assert full.win_as_second(20, 3) == pytest.approx(direct.win_as_second(), abs=1e-12)


def test_agreement_with_itself_is_one(fowl_play):
    game = fowl_play.game
    share, states = policy_agreement(OptimalPolicy(game, fowl_play), OptimalPolicy(game, fowl_play))
    assert share == 1.0
    # decision states: the non-terminal states minus the forced k = 0 draws
    from designer.solve.api import deck_states

    assert states == deck_states(game) - game.goal ** 2 * game.bad * (game.good + 1)


def test_agreement_against_plain_count():
    from reference import deck_reference

    game = DeckGame(2, 5, 7)
    P, _, _ = deck_reference(game.bad, game.good, game.goal)

    def value(i, j, k, w, c):
        return 1.0 if i + k >= game.goal else P[(i, j, k, w, c)]

    def optimal(i, j, k, w, c):
        w_rem, c_rem = game.bad - w, game.good - c
        nw, nc = (w + 1, c) if w + 1 < game.bad else (0, 0)
        draw = w_rem / (w_rem + c_rem) * (1 - value(j, i, 0, nw, nc))
        if c_rem:
            draw += c_rem / (w_rem + c_rem) * value(i, j, k + 1, w, c + 1)
        return draw > 1 - value(j, i + k, 0, w, c) + 1e-13

    rules = {
        "max-score": lambda i, j, k, w, c: game.good - c > (game.bad - w) * k,
        "hold-at:2": lambda i, j, k, w, c: k < 2,
        "optimal": optimal,
    }
    pols = {"max-score": MaxScorePolicy(game), "hold-at:2": HoldAtPolicy(game, 2),
            "optimal": OptimalPolicy(game, solve(game))}
    for x, y in [("max-score", "hold-at:2"), ("optimal", "max-score"), ("optimal", "hold-at:2")]:
        same = total = 0
        for i in range(game.goal):
            for j in range(game.goal):
                for w in range(game.bad):
                    for c in range(game.good + 1):
                        for k in range(1, c + 1):
                            if i + k < game.goal:
                                total += 1
                                same += rules[x](i, j, k, w, c) == rules[y](i, j, k, w, c)
        share, states = policy_agreement(pols[x], pols[y])
        assert states == total
        assert share == same / total
        assert 0 < share < 1


def test_agreement_dice_counts_k0():
    game = load_game("pig", goal=20)
    share, states = policy_agreement(HoldAtPolicy(game, 5), HoldAtPolicy(game, 6))
    assert states == 20 * 20 * 21 // 2
    # they differ exactly at k = 5, i.e. for i <= 14
    assert share == 1 - 15 * 20 / states


def test_comparison_record(red_light):
    r = compare(red_light.game, "hold-at:5", "max-score", solution=red_light)
    d = r.to_dict()
    for key in ("win_as_first", "win_as_second", "win_average", "agreement"):
        assert isinstance(d[key], float)
    assert d["win_average"] == pytest.approx((d["win_as_first"] + d["win_as_second"]) / 2)
    assert d["policy"] == "hold-at:5" and d["against"] == "max-score"
    json.dumps(d)
    with pytest.raises(AttributeError):
        r.win_average = 1.0


def test_skill_gap(fowl_play, pig):
    for sol in (fowl_play, pig):
        r = compare(sol.game, OptimalPolicy(sol.game, sol), MaxScorePolicy(sol.game),
                    with_agreement=False)
        assert skill_gap(sol) == pytest.approx(r.win_average - 0.5, abs=1e-15)
        assert 0.0 < skill_gap(sol) < 0.5


def test_endless_match_is_an_error():
    game = load_game("pig", goal=10)

    def always_pass(i, j, k, faces, goal):
        return False

    p = from_function(game, always_pass)
    with pytest.raises(ConvergenceError, match="go on forever"):
        compare(game, p, p, with_agreement=False)


def test_policy_bound_to_another_game(red_light):
    with pytest.raises(DesignError, match="bound to"):
        compare(load_game("fowl-play"), MaxScorePolicy(red_light.game), "max-score")


def test_cli_compare_json():
    out = run_cli("compare", "red-light", "--policy", "hold-at:5", "--against", "max-score",
                  "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert {"win_as_first", "win_as_second", "win_average", "agreement"} <= set(d)
    assert 0 < d["win_average"] < 0.5


@pytest.mark.parametrize("args,match", [
    (["--policy", "bogus"], "unknown policy 'bogus'"),
    (["--policy", "nn:/no/such.npz"], "cannot read a network"),
    (["--policy", "hold-at:-3"], "N >= 1"),
])
def test_cli_compare_errors(args, match):
    out = run_cli("compare", "deck", "--bad", "2", "--good", "3", "--goal", "5", *args)
    assert out.returncode == 2
    assert match in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_compare_cli_zombie():
    import json

    r = subprocess.run([sys.executable, "-m", "designer", "compare", "zombie-yellow", "--policy",
                        "neller", "--against", "optimal", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    from designer import load_game
    from designer.analysis.zombie import compare_zombie

    direct = compare_zombie(load_game("zombie-yellow"), "neller")
    for key in ("win_as_first", "win_as_second", "win_average", "agreement", "gap"):
        assert out[key] == pytest.approx(direct[key], abs=1e-12)
    r = subprocess.run([sys.executable, "-m", "designer", "compare", "zombie-yellow", "--policy",
                        "bogus"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "unknown policy 'bogus'" in r.stderr
    assert "neller" in r.stderr and "hold-at:N" in r.stderr  # the forms a zombie game takes
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("name, goal", [("red-light", 20), ("pig", 20)])
def test_compare_takes_the_rounds_ending_as_rules(name, goal):
    # a rounds solve's tables under the race's match kernel once crashed the
    # process (a segmentation fault); a deck or dice game in rounds is now
    # compared as the same game written as rules: optimal against optimal
    # gives the family rounds solver's first-player win
    r = run_cli("compare", name, "--goal", str(goal), "--ending", "rounds", "--policy",
                "optimal", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    want = solve(load_game(name, goal=goal, ending="rounds")).summary()["first_player_win"]
    assert out["win_as_first"] == pytest.approx(want, abs=1e-12)
    assert out["win_as_first"] + out["win_as_second"] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("args, words", [
    (("compare", "pig", "--players", "3", "--goal", "12", "--ending", "rounds", "--policy",
      "two-player"),
     "invalid policy 'two-player' for Pig (a dice game played as rules under the rounds ending)"),
    (("compare", "red-light", "--ending", "rounds", "--policy", "nn:x.npz"),
     "invalid policy 'nn:x.npz' for Red Light (a deck game played as rules under "
     "the rounds ending)"),
])
def test_compare_in_rounds_refuses_a_policy_of_the_race_in_one_line(args, words):
    r = run_cli(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"designer: error: {words}") and r.stderr.count("\n") == 1


@pytest.mark.parametrize("extra, words", [(("--ending", "rounds"), "--ending rounds"),
                                          (("--players", "3"), "--players 3")])
def test_train_nn_refuses_what_it_cannot_train(tmp_path, extra, words):
    out = tmp_path / "nn.npz"
    r = run_cli("policy", "train-nn", "red-light", "--goal", "10", "--out", out, "--epochs", "1",
                *extra)
    assert r.returncode == 2 and not out.exists()
    assert r.stderr == (f"designer: error: designer policy train-nn does not take {words} for "
                        "Red Light: it takes deck games with 2 players, race ending\n")
