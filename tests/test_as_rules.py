"""Deck and dice games written as rules (designer/engine/family_rules.py): the
engine solves the rules form to the family solvers' figures, and the
commands play a deck or dice game as rules where only the engine reaches
(the equal-turns ending of compare, play and strategy)."""

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from designer.analysis.rules_compare import compare_rules
from designer.engine.game import load_rules_game, solve_game
from designer.engine.seat_rounds import solve_seat_rounds_model
from designer.games import load_game
from designer.engine.family_rules import as_rules_game, rules_text
from designer.solve import solve
from designer.support import AS_RULES, SUPPORT, as_rules


def cli(*argv):
    return subprocess.run([sys.executable, "-m", "designer", *argv], capture_output=True,
                          text=True, timeout=300)


GAMES = [("deck", dict(bad=2, good=4, goal=9)), ("deck", dict(bad=3, good=7, goal=12, komi=2)),
         ("deck", dict(bad=1, good=5, goal=7)), ("dice", dict(faces=6, goal=15)),
         ("dice", dict(faces=5, goal=12, bust_faces=(1, 4), komi=3)),
         ("dice", dict(faces=2, goal=20))]


@pytest.mark.parametrize("family, params", GAMES)
@pytest.mark.parametrize("ending", ["race", "rounds"])
def test_two_seats_equal_the_family_solvers(family, params, ending):
    """Every seat's win at the game's start points, by the family solver and
    by the engine from the rules form: to 1e-12 (two seats always settle)."""
    game = load_game(family, **params, ending=ending)
    rules = as_rules_game(game)
    assert rules.start == tuple(game.start_scores) and rules.goal == game.goal
    got = solve_game(rules)["seat_win"]
    want = solve(game).summary()["seat_win"]
    assert np.abs(np.array(got[:2]) - np.array(want[:2])).max() < 1e-12


SETTLED = [("deck", dict(bad=1, good=3, goal=5), 3), ("deck", dict(bad=2, good=6, goal=4), 3),
           ("deck", dict(bad=2, good=6, goal=4), 4), ("deck", dict(bad=3, good=4, goal=5, komi=1), 4),
           ("dice", dict(faces=4, goal=8), 3), ("dice", dict(faces=3, goal=6, komi=1), 4),
           ("dice", dict(faces=5, goal=10, bust_faces=(1, 4)), 3)]


@pytest.mark.parametrize("family, params, players", SETTLED)
@pytest.mark.parametrize("ending", ["race", "rounds"])
def test_more_seats_equal_the_family_solvers(family, params, players, ending):
    """Three and four seats, in games where the max-n best replies settle
    at every position for both solvers (where they cycle, two solvers may
    stop at different points of the cycle: 2e-5 apart on a deck of 1 bad
    and 3 good to 5 with 4 seats, 3.6e-5 on 2 bad and 3 good to 6, komi 1,
    where the family solver does not settle one position and the engine
    settles all): every seat's win to 1e-12."""
    game = load_game(family, **params, players=players, ending=ending)
    rules = as_rules_game(game)
    today = solve(game)
    if ending == "rounds":  # at the family solver's cap
        r = solve_seat_rounds_model(rules.rules.model, game.goal, players, cap=today.cap)
        unsettled, got = r.unsettled_positions, r.seat_win(tuple(game.start_scores))
    else:
        out = solve_game(rules)
        unsettled, got = out["unsettled_positions"], out["seat_win"][:players]
    assert unsettled == 0
    assert getattr(today, "unsettled_positions", getattr(today, "unsettled", None)) == 0
    want = today.summary()["seat_win"][:players]
    assert np.abs(np.array(got) - np.array(want)).max() < 1e-12


def test_the_rules_text_names_every_part():
    text = rules_text(load_game("dice", faces=5, goal=12, bust_faces=(1, 4), players=3,
                                ending="rounds"))
    assert "sides = 5" in text and "face.1 = { bust = true }" in text
    assert "face.4 = { bust = true }" in text and 'ending = "rounds"' in text
    assert "players = 3" in text
    text = rules_text(load_game("red-light"))
    assert "bad = 4" in text and "good = 24" in text and "forced_first = true" in text
    assert as_rules_game(load_game("red-light")).start == (0, 1)
    with pytest.raises(ValueError, match="no rules form for a wager game"):
        rules_text(load_game("persian-monarchs"))


def test_the_rules_text_of_zombie_dice():
    """All-yellow: dice thrown afresh at every roll, brains first, then the
    shotguns set aside; full: a cup of the colours it has, first roll forced."""
    text = rules_text(load_game("zombie", brains=3, shotguns=1, footprints=2, dice=2,
                                bust_shotguns=4, goal=9, players=3))
    assert ("count = 2\nsides = 6\nother_faces = 0\naside_bust = 4\nrefill = true\n"
            "aside_name = \"shotgun\"\n") in text
    assert ("face.1 = { points = 1 }\nface.2 = { points = 1 }\nface.3 = { points = 1 }\n"
            "face.4 = { aside = true }\n") in text and "face.5" not in text
    assert 'ending = "rounds"' in text and "players = 3" in text
    text = rules_text(load_game("zombie", green=5, yellow=0, red=4, dice=2, goal=8))
    assert "throw = 2\nbust = 3" in text and "forced_first = true" in text
    assert "green = { count = 5, brain = 3, shotgun = 1, footprint = 2 }" in text
    assert "red = { count = 4, brain = 1, shotgun = 3, footprint = 2 }" in text
    assert "yellow" not in text  # a colour the cup lacks


ZOMBIES = [("zombie-yellow", {}, 3), ("zombie-yellow", {"goal": 9}, 4),
           ("zombie", dict(brains=3, shotguns=1, footprints=0, dice=2, bust_shotguns=2, goal=7), 3),
           ("zombie", dict(brains=1, shotguns=2, footprints=3, dice=1, bust_shotguns=1, goal=6,
                           komi=[0, 1, 2]), 3),
           ("zombie", dict(green=2, yellow=2, red=1, goal=4, cap=12), 3),
           ("zombie", dict(green=3, yellow=0, red=2, dice=2, bust_shotguns=2, goal=3, cap=10), 3),
           ("zombie", dict(green=2, yellow=1, dice=2, bust_shotguns=2, goal=3, cap=9,
                           komi=[1, 0, 0, 2]), 4)]


@pytest.mark.parametrize("name, params, players", ZOMBIES)
def test_zombie_games_with_more_seats_equal_the_zombie_solver(name, params, players):
    """Zombie Dice with 3 or 4 seats, all-yellow (dice thrown afresh at
    every roll) and from a cup (colours left out, komi per seat), solved by
    the engine from the rules form at the game's own cap: every seat's win
    to 1e-12 (every position settles for both solvers)."""
    game = load_game(name, **params, players=players)
    rules = as_rules_game(game)
    assert rules.cap == game.cap and rules.start == tuple(game.start_scores)
    got = solve_game(rules, length=False)
    today = solve(game).summary()
    assert got["cap"] == game.cap and got["unsettled_positions"] == 0
    assert np.abs(np.array(got["seat_win"]) - np.array(today["seat_win"][:players])).max() < 1e-12


def test_a_command_plays_as_rules_only_where_the_family_code_does_not_reach():
    pig = load_game("pig", goal=20)
    assert as_rules("compare", pig) is pig  # the race: today's solvers
    assert as_rules("solve", load_game("pig", goal=20, ending="rounds")).family == "dice"
    assert as_rules("compare", load_game("pig", goal=20, ending="rounds")).family == "rules"
    assert as_rules("compare", load_game("pig", goal=20, players=3,
                                         ending="rounds")).family == "rules"
    assert as_rules("play", load_game("pig", goal=20, players=3,
                                      ending="rounds")).family == "rules"
    assert as_rules("strategy", load_game("pig", goal=20, players=3,
                                          ending="rounds")).family == "rules"
    assert as_rules("strategy", load_game("pig", goal=20, ending="rounds")).family == "rules"
    assert as_rules("strategy", load_game("pig", goal=20)).family == "dice"
    zombie = load_game("zombie-yellow")
    assert as_rules("compare", zombie) is zombie  # two seats: the Zombie Dice code
    assert as_rules("play", zombie) is zombie
    for command in ("compare", "play"):
        more = as_rules(command, load_game("zombie-dice", players=3, goal=5))
        assert more.family == "rules" and more.cap == 35 and more.players == 3
    assert as_rules("strategy", load_game("zombie-yellow", players=3)).family == "zombie"


def test_the_support_table_holds_what_is_played_as_rules():
    """Each cell played as rules is taken by the command for the kind and
    for rules games."""
    for command, kinds in AS_RULES.items():
        for kind, reach in kinds.items():
            for players, ending in reach.cells():
                assert SUPPORT[command][kind].takes(players, ending)
                assert SUPPORT[command]["rules"].takes(players, ending)


def test_compare_a_preset_in_rounds_equals_its_rules_example():
    """`designer compare pig --ending rounds`: the same figures as the rules
    example Pig compared in the API, to 1e-12."""
    r = cli("compare", "pig", "--goal", "20", "--ending", "rounds", "--policy", "hold-at:8",
            "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    want = compare_rules(load_rules_game("rules:pig", goal=20, ending="rounds"), "hold-at:8",
                         "optimal")
    assert out["win_as_first"] == pytest.approx(want.win_as_first, abs=1e-12)
    assert out["win_as_second"] == pytest.approx(want.win_as_second, abs=1e-12)


def test_compare_a_deck_with_three_seats_in_rounds():
    r = cli("compare", "deck", "--bad", "1", "--good", "3", "--goal", "5", "--players", "3",
            "--ending", "rounds", "--policy", "hold-at:2", "--json")
    assert r.returncode == 0, r.stderr
    seats = json.loads(r.stdout)["seats"]
    game = load_game("deck", bad=1, good=3, goal=5, players=3, ending="rounds")
    want = solve(game).summary()["seat_win"]  # every position settles (above)
    assert [s["optimal_win"] for s in seats] == pytest.approx(want[:3], abs=1e-12)
    assert all(s["win"] < s["optimal_win"] for s in seats)


@pytest.mark.parametrize("argv, words", [
    (["compare", "pig", "--ending", "rounds", "--policy", "two-player"],
     "invalid policy 'two-player' for Pig"),
    (["compare", "pig", "--ending", "rounds", "--policy", "hold-at:0"], "hold-at"),
    (["strategy", "zombie-yellow", "--players", "3"],
     "designer strategy does not take --players 3 for Zombie Dice (all yellow)"),
    # a seat of three in rounds: the forms a rules game takes, not the family's
    (["compare", "zombie-yellow", "--players", "3", "--policy", "neller"],
     "invalid policy 'neller' for Zombie Dice (all yellow) (a Zombie Dice game played as rules "
     "under the rounds ending): allowed optimal, max-score, hold-at:N, rule:RULE, "
     "rule:FILE.toml or py:FILE.py:FUNCTION (N in points)"),
])
def test_refusals_are_one_line(argv, words):
    r = cli(*argv)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_compare_zombie_dice_with_three_seats():
    """`designer compare zombie-yellow --players 3`: each seat's optimum is
    the Zombie solver's, to 1e-12, and hold-at:5 loses at every seat."""
    r = cli("compare", "zombie-yellow", "--players", "3", "--goal", "9", "--policy",
            "hold-at:5", "--json")
    assert r.returncode == 0, r.stderr
    seats = json.loads(r.stdout)["seats"]
    want = solve(load_game("zombie-yellow", players=3, goal=9)).summary()["seat_win"]
    assert [s["optimal_win"] for s in seats] == pytest.approx(want[:3], abs=1e-12)
    assert all(s["win"] < s["optimal_win"] - 0.01 for s in seats)


def test_compare_full_zombie_dice_too_large_is_refused_in_one_line():
    # max-score plays a turn on as long as brains are expected: its tables
    # reach far past the goal
    r = cli("compare", "zombie-dice", "--players", "3", "--policy", "max-score")
    assert r.returncode == 2 and r.stdout == ""
    assert re.fullmatch(r"designer: error: max-score at one seat of 3 on Zombie Dice under the "
                        r"rounds ending needs [\d,]+ MB, over the limit of [\d,]+ MB \(set by "
                        r"DESIGNER_MEMORY_LIMIT\): lower "
                        r"the goal\n", r.stderr)


def test_play_zombie_dice_with_three_seats(tmp_path):
    from test_play_rules import MOVE, play_command

    tail = play_command(tmp_path, ["zombie-yellow", "--goal", "5", "--players", "3",
                                   "--no-pause", "--seed", "4"], "round 1",
                        ["Final scores"], move=MOVE)
    assert "with 3 players: 1 game" in tail
    # the analysis of the human's decisions reads the rules game's solve
    assert "Your costliest decision" in tail or "No mistake: all" in tail
    assert "covers deck and dice games" not in tail


def test_play_refuses_full_zombie_dice_with_three_seats_to_13():
    """The 6/4/3 cup with three seats to 13 is estimated at over half an
    hour: refused before anything is allocated, in one line."""
    from designer.errors import DesignError
    from designer.play.rules_seat_rounds import solve as solve_for_play

    game = as_rules("play", load_game("zombie-dice", players=3))
    with pytest.raises(DesignError, match=r"^playing Zombie Dice with 3 players under the rounds "
                                          r"ending needs its exact solve first: about \d+ "
                                          r"minutes \([\d,]+ positions\), over the 10 minutes "
                                          r"play waits for; lower the goal \(--goal\)$"):
        solve_for_play(game)


def test_the_wait_for_a_long_seat_comparison_is_announced():
    """The status line of a long 3-4 seat comparison under the rounds
    ending gives its estimated time; a quick one, or a two-seat game,
    none (the command does not branch on the family: the estimate does)."""
    from designer.analysis.rules_compare import compare_seconds
    from designer.report.terminal import estimated

    def _expected(game, policy):
        return estimated(compare_seconds(game, policy))

    full = as_rules("compare", load_game("zombie-dice", players=3))
    assert re.fullmatch(r" \(about \d+ h \d\d min, by its estimate\)", _expected(full, "hold-at:5"))
    assert _expected(full, "neller") == ""  # refused by the comparison itself, in one line
    assert _expected(as_rules("compare", load_game("zombie-yellow", players=3)), "hold-at:5") == ""
    assert _expected(load_game("pig"), "max-score") == ""


def test_zombie_designs_played_as_rules_keep_apart_in_the_play_statistics():
    """The name of a Zombie Dice game leaves out some of its parameters
    (the dice per roll, the shotguns that bust, the faces, the cap): its
    rules game's source names them, so two designs never share a record."""
    from designer.play.stats import design_key

    def key(**kw):
        return design_key(as_rules("play", load_game("zombie", players=3, **kw)))

    cup = dict(green=4, yellow=5, red=4)
    keys = {key(**cup), key(**cup, dice=2), key(**cup, bust_shotguns=4), key(**cup, cap=50),
            key(**cup, red_faces=(1, 2, 3)), key(), key(bust_shotguns=4), key(brains=3)}
    assert len(keys) == 8
    assert key(**cup) == key(**cup)
    assert design_key(as_rules("play", load_game("deck", bad=2, good=3, goal=6,
                                                 ending="rounds"))) == \
        "rules:rules=deck 2 bad / 3 good,goal=6,komi=0"  # a deck's name names it: as before
