"""Seats and endings as game parameters (N players, race or rounds): normal forms and errors."""

import pickle

import pytest

from designer.errors import DesignError, ParameterError
from designer.games import DeckGame, DiceGame, load_game


def test_defaults_keep_the_two_player_race():
    g = load_game("red-light")
    assert (g.players, g.ending, g.komi, g.start_scores) == (2, "race", 1, (0, 1))
    assert "players" not in g.params and g.params["komi"] == 1
    assert pickle.loads(pickle.dumps(g)).start_scores == (0, 1)


@pytest.mark.parametrize("komi, players, ending, scores, normal", [
    (2, 3, "race", (0, 2, 2), 2),
    ((0, 1, 2), 3, "race", (0, 1, 2), (0, 1, 2)),
    ([0, 3], 2, "race", (0, 3), 3),
    (-2, 2, "rounds", (2, 0), -2),
    ((2, 0), 2, "rounds", (2, 0), -2),
    ((1, 0, 2, 3), 4, "rounds", (1, 0, 2, 3), (1, 0, 2, 3)),
    (0, 4, "race", (0, 0, 0, 0), 0),
])
def test_komi_normal_form(komi, players, ending, scores, normal):
    for g in (DeckGame(2, 3, 10, komi, players=players, ending=ending),
              DiceGame(6, 10, komi, players=players, ending=ending)):
        assert g.start_scores == scores and g.komi == normal
        assert g.with_goal(12).start_scores == scores
        assert g.params["players"] == players if (players, ending) != (2, "race") else True


@pytest.mark.parametrize("kw, message", [
    (dict(players=5), "invalid players=5: allowed an integer with 2 <= players <= 4"),
    (dict(players=1), "invalid players=1"),
    (dict(ending="sudden"), "invalid ending='sudden': allowed race or rounds"),
    (dict(players=3, komi=(0, 1)), "invalid komi=[0, 1]: allowed one integer, or a list of 3"),
    (dict(komi=-1), "needs --ending rounds"),
    (dict(players=3, komi=(1, 0, 0)), "a first entry of 0 under the race ending"),
    (dict(players=3, komi=(0, 10, 0)), "invalid komi=10"),
    (dict(ending="rounds", komi=-10), "invalid komi=-10"),
    (dict(players=3, komi=(0, -1, 0)), "invalid komi=-1"),
])
def test_seat_errors(kw, message):
    for make in (lambda: DeckGame(2, 3, 10, **kw), lambda: DiceGame(goal=10, **kw)):
        with pytest.raises(ParameterError) as err:
            make()
        assert message in str(err.value)


def test_load_game_takes_seats():
    g = load_game("pig", players=3, komi=(0, 1, 2), goal=20)
    assert g.start_scores == (0, 1, 2) and "3 players" in g.describe()
    assert load_game("fowl-play", ending="rounds", komi=-2).start_scores == (2, 0)
    with pytest.raises(DesignError, match="does not take players"):
        load_game("persian-monarchs", players=3)


@pytest.mark.parametrize("args, needle", [
    (["--players", "5"], "invalid players=5"),
    (["--ending", "sudden"], "invalid ending='sudden'"),
    (["--players", "3", "--komi", "0,1"], "a list of 3 integers"),
    (["--komi", "1,x"], "invalid --komi='1,x'"),
    (["--komi", "-3"], "needs --ending rounds"),
])
def test_cli_seat_errors_are_one_line(args, needle, capsys):
    from designer.cli import main

    assert main(["solve", "pig", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1
