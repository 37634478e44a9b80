"""Every validation rule: one clear error naming the parameter, the value
and the allowed range, from the library and from the command line."""


import pytest
from cli_runner import cli as _cli

from designer import DeckGame, DesignError, DiceGame, ParameterError, load_game


@pytest.mark.parametrize("kwargs,name", [
    (dict(bad=0, good=3, goal=5), "bad"),
    (dict(bad=61, good=3, goal=5), "bad"),
    (dict(bad=2, good=0, goal=5), "good"),
    (dict(bad=2, good=401, goal=5), "good"),
    (dict(bad=2, good=3, goal=0), "goal"),
    (dict(bad=2, good=3, goal=1001), "goal"),
    (dict(bad=2, good=3, goal=5, komi=-1), "komi"),
    (dict(bad=2, good=3, goal=5, komi=5), "komi"),
    (dict(bad=2.5, good=3, goal=5), "bad"),
    (dict(bad=True, good=3, goal=5), "bad"),
    (dict(bad="2", good=3, goal=5), "bad"),
    (dict(bad=60, good=400, goal=1000), "goal"),  # table too large
])
def test_deck_rules(kwargs, name):
    with pytest.raises(ParameterError) as info:
        DeckGame(**kwargs)
    assert info.value.name == name
    assert f"invalid {name}=" in str(info.value)
    assert "allowed" in str(info.value)


def test_deck_accepts_integral_floats_and_numpy():
    import numpy as np

    g = DeckGame(np.int64(2), 3.0, 5)
    assert (g.bad, g.good) == (2, 3) and isinstance(g.good, int)


@pytest.mark.parametrize("kwargs,name", [
    (dict(faces=1), "faces"),
    (dict(faces=101), "faces"),
    (dict(goal=0), "goal"),
    (dict(goal=401), "goal"),
    (dict(goal=10, komi=10), "komi"),
    (dict(faces=6, bust_faces=(7,)), "bust_faces"),
    (dict(faces=6, bust_faces=()), "bust_faces"),
    (dict(faces=2, bust_faces=(1, 2)), "bust_faces"),
])
def test_dice_rules(kwargs, name):
    with pytest.raises(ParameterError) as info:
        DiceGame(**kwargs)
    assert info.value.name == name


def test_load_game_errors():
    with pytest.raises(DesignError, match="unknown game 'chess'"):
        load_game("chess")
    with pytest.raises(DesignError, match="pig does not take bad"):
        load_game("pig", bad=3)
    with pytest.raises(DesignError, match="deck needs"):
        load_game("deck", bad=3)


def test_solution_lookup_errors(red_light):
    with pytest.raises(ParameterError, match="goal"):
        red_light.first_player_win(goal=51)
    with pytest.raises(ParameterError, match="komi"):
        red_light.first_player_win(goal=10, komi=10)


@pytest.mark.parametrize("args,needle", [
    (["solve", "deck", "--bad", "0", "--good", "3", "--goal", "5"], "invalid bad=0"),
    (["solve", "deck", "--bad", "2", "--good", "3", "--goal", "5", "--komi", "9"], "invalid komi=9"),
    (["solve", "dice", "--faces", "1"], "invalid faces=1"),
    (["solve", "pig", "--bad", "2"], "pig does not take --bad"),
    (["solve", "monopoly"], "unknown game 'monopoly'"),
])
def test_cli_errors_are_one_line(args, needle):
    r = _cli(*args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_cli_solve_json():
    import json

    r = _cli("solve", "red-light", "--json", "--max-komi", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert round(100 * out["first_player_win"], 3) == 50.001
    assert out["fair_komi"] == 1
    assert [row["komi"] for row in out["komi_table"]] == [0, 1, 2, 3]
    for key in ("expected_actions", "states", "residual", "seconds"):
        assert key in out
    assert out["residual"] <= 1e-12


def test_cli_solve_text():
    r = _cli("solve", "deck", "--bad", "5", "--good", "30", "--goal", "40", "--komi", "2")
    assert r.returncode == 0, r.stderr
    assert "komi 2: 2 points for the second player" in r.stdout
    import re

    win, edge = map(float, re.search(r"first player wins ([\d.]+)% \(first-player edge "
                                     r"([+-][\d.]+)%\)", r.stdout).groups())
    assert edge == pytest.approx(win - 50, abs=2e-4)  # signed: + favours the first player
    assert "fair komi" in r.stdout and "points for the second player" in r.stdout
    # convergence figures only on request
    assert "residual" not in r.stdout and "sweeps" not in r.stdout
    v = _cli("solve", "deck", "--bad", "5", "--good", "30", "--goal", "40", "--komi", "2",
             "--verbose")
    assert v.returncode == 0, v.stderr
    assert "residual" in v.stdout and "sweeps" in v.stdout


def test_cli_help_explains():
    r = _cli("solve", "--help")
    assert r.returncode == 0
    assert "--komi" in r.stdout and "expected game length" in r.stdout
