"""Rules games on the command line: ``designer rules check`` and
``designer solve FILE.toml`` / an engine example.

The figures must be the engine's (:mod:`designer.engine`) called from
Python; every malformed file is refused in one line on stderr, exit status
2, nothing on stdout and nothing written; today's presets keep today's
solvers.
"""

import json
import time
from types import SimpleNamespace
from fractions import Fraction

import pytest

from cli_runner import cli
from cli_runner import one_line_refusal as _one_line_refusal
from designer.engine import solve_model
from designer.engine._match_kernels import HOLD_AT, OPTIMAL, TABLE
from designer.engine.match import RulesPolicy
from designer.engine.rounds import rounds_estimate, solve_rounds_model
from designer.engine.rulesfile import example_path, examples, load_rules
from designer.engine.solve import estimate

PIGLET_LIKE = """\
name = "Coin race"
goal = 6

[dice]
sides = 2
face.1 = { bust = true }
face.2 = { points = 1 }
"""

#: A small game whose scores can fall (two bust faces wipe the score).
FALLING = """\
name = "Small two-dice pig"
goal = 12

[dice]
count = 2
sides = 4
face.1 = { bust = true }

[dice.bust_effect]
bust_faces = 2
score = "zero"
"""

#: Malformed files: (file text, words the one line must hold).
MALFORMED = {
    "unknown key": (PIGLET_LIKE + "colour = \"red\"\n", ["dice.colour", "unknown key",
                                                      "allowed here"]),
    "probabilities": ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true, probability = 0.5 }"
                      "\nface.2 = { points = 1, probability = 0.6 }\n",
                      ["dice.face", "sum to 1.1", "must sum to 1"]),
    "two effects": ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true, points = 2 }\n",
                    ["dice.face.1", "one effect", "points and bust"]),
    "unreachable goal": ("goal = 5\n[dice]\nsides = 2\nother_faces = 0\n"
                         "face.1 = { bust = true }\n", ["goal", "no turn can score",
                                                        "the goal 5"]),
    "not toml": ("goal = = 5\n[dice\n", ["not valid TOML"]),
}


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path.parent / f"{tmp_path.name}-data"))




# -- rules check --------------------------------------------------------------

@pytest.mark.parametrize("name", examples())
def test_rules_check_every_example(name):
    rules = load_rules(example_path(name))
    # Farkle's own goal takes seconds to solve: its check at a smaller goal
    # is compared with the solver's count at that goal
    goal = ["--goal", "1000"] if name == "farkle" else []
    # the command's own work, in this process's CPU seconds: the wall clock
    # also counts the other test process on this 2-core machine (2.5 s
    # once, for 1.0 s of work)
    t0 = time.process_time()
    r = cli("rules", "check", name, *goal, "--json")
    assert time.process_time() - t0 < 2.0
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    units = 1000 // rules.unit if goal else rules.goal
    if name == "zombie-dice":
        # minutes to solve: the count is checked against the estimate, which
        # equals the solver's count on every other example
        solved = SimpleNamespace(states=rounds_estimate(rules.model, units)["positions"])
        assert out["states"] == solved.states and out["turn_states"] == 10766
    elif rules.ending == "rounds":
        solved = solve_rounds_model(rules.model, units, ties=rules.ties)
        assert out["states"] == solved.states == rounds_estimate(rules.model, units)["positions"]
        assert out["ending"] == "rounds" and out["ties"] == rules.ties
    else:
        solved = solve_model(rules.model, units, 0)
        assert out["states"] == solved.states == estimate(rules.model, units)["positions"]
    assert out["name"] == rules.name and out["turn_states"] == rules.model.states
    assert out["goal"] == units * rules.unit and out["komi"] == rules.komi * rules.unit
    text = cli("rules", "check", name, *goal)
    assert text.returncode == 0 and text.stderr == ""
    assert f"positions: {solved.states:,}" in text.stdout
    assert rules.name in text.stdout


def test_rules_check_json_fields():
    r = cli("rules", "check", "farkle", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["name"] == "Farkle" and out["goal"] == 10_000 and out["unit"] == 50
    assert out["komi"] == 0 and out["players"] == 2 and out["ending"] == "race"
    assert out["turn_states"] == 6 and out["states"] == 24_120_000
    assert out["forced_first"] is True and out["scores_can_fall"] is False
    assert 0 < out["memory_bytes"] <= out["memory_limit_bytes"] and out["fits"] is True
    assert 1 < out["estimated_seconds"] < 100 and out["estimated_passes"] is None
    falls = json.loads(cli("rules", "check", "two-dice-pig", "--json").stdout)
    assert falls["scores_can_fall"] is True and falls["estimated_passes"] == 10
    # the passes the time assumes, in words, beside it
    text = cli("rules", "check", "two-dice-pig").stdout
    assert "    (at 10 passes; a game whose busts often lower the score may need hundreds)\n" in text
    for ending, players, passes in (("rounds", 2, 18), ("race", 3, 10), ("rounds", 3, 12)):
        out = json.loads(cli("rules", "check", "two-dice-pig", "--goal", "40", "--ending", ending,
                             "--players", str(players), "--json").stdout)
        assert out["estimated_passes"] == passes, (ending, players)


def test_rules_check_of_falling_scores_in_rounds():
    """Under the rounds ending the check of a game whose busts lower a
    banked score says so, with what a rule's comparison allocates (every
    command takes such a game: no note of what does not)."""
    from designer.engine.rounds_falls_match import match_bytes

    r = cli("rules", "check", "two-dice-pig", "--ending", "rounds")
    text = " ".join(r.stdout.split())
    assert "a bust can lower the banked score (solved by iterating)" in text
    assert "note:" not in text
    out = json.loads(cli("rules", "check", "two-dice-pig", "--ending", "rounds",
                         "--json").stdout)
    model = load_rules(example_path("two-dice-pig")).model
    assert out["rule_compare_memory_bytes"] == match_bytes(model, 100, (TABLE, OPTIMAL), 160)


def test_rules_check_a_file_with_settings(tmp_path):
    (tmp_path / "coin.toml").write_text(PIGLET_LIKE)
    out = json.loads(cli("rules", "check", "coin.toml", "--goal", "9", "--komi", "2",
                         "--json").stdout)
    assert (out["name"], out["goal"], out["komi"], out["source"]) == ("Coin race", 9, 2,
                                                                      "coin.toml")
    rules = load_rules(tmp_path / "coin.toml")
    assert out["states"] == solve_model(rules.model, 9, 2).states


@pytest.mark.parametrize("case", list(MALFORMED))
@pytest.mark.parametrize("command", [["rules", "check"], ["solve"]])
def test_a_malformed_file_is_refused_in_one_line(case, command, tmp_path):
    text, words = MALFORMED[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    before = sorted(p.name for p in tmp_path.iterdir())
    for flags in ([], ["--json"]):
        r = cli(*command, "bad.toml", *flags)
        _one_line_refusal(r, "bad.toml", *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("command", [["rules", "check"], ["solve"]])
def test_a_missing_file_or_a_directory_is_refused(command, tmp_path):
    _one_line_refusal(cli(*command, "missing.toml"), "missing.toml", "no such file")
    (tmp_path / "folder.toml").mkdir()
    _one_line_refusal(cli(*command, "folder.toml"), "folder.toml", "is a directory")
    (tmp_path / "plain").mkdir()
    if command == ["rules", "check"]:  # any path is a rules file to check
        _one_line_refusal(cli(*command, "plain"), "plain", "is a directory")
        _one_line_refusal(cli(*command, "sub/missing"), "sub/missing", "no such file")
    (tmp_path / "latin1.toml").write_bytes(b"name = \"caf\xe9\"\n")
    _one_line_refusal(cli(*command, "latin1.toml"), "latin1.toml", "UTF-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.toml", "latin1.toml",
                                                          "plain"]


def test_rules_check_refuses_other_games_from_the_table():
    line = _one_line_refusal(cli("rules", "check", "zombie-yellow"), "designer rules check",
                             "does not take all-yellow Zombie Dice games", "rules-file games")
    assert "Zombie Dice" in line
    _one_line_refusal(cli("rules", "check", "piglet", "--players", "5", "--ending", "rounds"),
                      "--players 5", "2-4 players, race or rounds ending")
    _one_line_refusal(cli("rules", "check", "piglet", "--bad", "3"), "--bad",
                      "--goal, --komi, --players, --ending")


def test_rules_check_help_says_how_the_time_is_estimated():
    r = cli("rules", "check", "--help")
    words = " ".join(r.stdout.split())
    assert "sweep work" in words and "rate measured" in words
    assert "--bad" not in words  # family flags are parsed and refused, not offered


# -- solve ---------------------------------------------------------------------

def test_piglet_to_2_is_four_sevenths():
    r = cli("solve", "piglet", "--goal", "2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["first_player_win"] == pytest.approx(float(Fraction(4, 7)), abs=1e-12)
    assert out["game"] == {"name": "Piglet", "family": "rules", "source": "piglet",
                           "goal": 2, "komi": 0, "unit": 1}
    assert out["states"] > 0 and out["residual"] < 1e-12 and out["seconds"] >= 0
    text = cli("solve", "piglet", "--goal", "2")
    assert text.returncode == 0 and "57.1429%" in text.stdout and "residual" in text.stdout


@pytest.mark.parametrize("text", [PIGLET_LIKE, FALLING], ids=["layered", "falling"])
def test_solve_a_file_equals_the_engine(text, tmp_path):
    (tmp_path / "game.toml").write_text(text)
    r = cli("solve", "game.toml", "--json", "--max-komi", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rules = load_rules(tmp_path / "game.toml")
    res = solve_model(rules.model, rules.goal, rules.komi)
    assert out["first_player_win"] == res.first_player_win
    assert (out["states"], out["residual"]) == (res.states, res.residual)
    assert out["passes"] == res.passes and out["sweeps"] == res.sweeps
    assert out["seat_win"] == [res.first_player_win, 1 - res.first_player_win]
    assert out["game"]["name"] == rules.name and out["game"]["goal"] == rules.goal
    assert [row["first_player_win"] for row in out["komi_table"]] == [
        res.value(0, k) for k in range(4)]
    wins = {k: res.value(0, k) if k >= 0 else res.value(-k, 0)
            for k in range(-rules.goal + 1, rules.goal)}
    best = min(abs(w - 0.5) for w in wins.values())
    assert abs(out["fair_komi_first_player_win"] - 0.5) == best
    assert wins[out["fair_komi"]] == out["fair_komi_first_player_win"]


def test_falling_scores_in_equal_turns(tmp_path):
    """Two seats in the rounds ending, scores that can fall: the CLI gives
    the engine's figures at the komi asked (points to seat 1 here); a
    comparison is refused in one line, exit status 2."""
    from designer.engine.rounds_falls import solve_rounds_falls

    (tmp_path / "game.toml").write_text(FALLING)
    r = cli("solve", "game.toml", "--ending", "rounds", "--komi", "-2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    res = solve_rounds_falls(load_rules(tmp_path / "game.toml").model, 12)
    assert out["first_player_win"] == res.win(2, 0) and out["ending"] == "rounds"
    assert out["expected_actions"] == res.actions(2, 0) and out["passes"] == res.passes
    from designer.engine.rounds_falls_match import match_rounds_falls

    c = cli("compare", "game.toml", "--ending", "rounds", "--komi", "-2", "--policy",
            "hold-at:5", "--against", "optimal", "--json")
    assert c.returncode == 0, c.stderr
    got = json.loads(c.stdout)
    m = match_rounds_falls(load_rules(tmp_path / "game.toml").model, 12,
                           RulesPolicy(HOLD_AT, "hold-at:5", 5), RulesPolicy(OPTIMAL, "optimal"),
                           bank_wins=True)
    assert got["win_as_first"] == m.win_as_first((2, 0))
    assert got["win_as_second"] == m.win_as_second((2, 0))
    assert got["passes"] == m.passes and got["residual"] == m.residual <= 1e-12


def test_solve_komi_in_points(tmp_path):
    (tmp_path / "game.toml").write_text(PIGLET_LIKE)
    rules = load_rules(tmp_path / "game.toml")
    res = solve_model(rules.model, rules.goal, 0)
    for komi, (i, j) in (("2", (0, 2)), ("-3", (3, 0)), ("1,4", (1, 4))):
        out = json.loads(cli("solve", "game.toml", "--komi", komi, "--json").stdout)
        assert out["first_player_win"] == res.value(i, j), komi
    # Farkle counts in units of 50: goal and komi are points, multiples of 50
    farkle = load_rules(example_path("farkle"))
    small = solve_model(farkle.model, 20, 0)
    out = json.loads(cli("solve", "farkle", "--goal", "1000", "--komi", "100", "--json").stdout)
    assert out["first_player_win"] == small.value(0, 2)
    assert out["game"]["goal"] == 1000 and out["komi_table"][1]["komi"] == 50
    _one_line_refusal(cli("solve", "farkle", "--goal", "1020"), "goal=1020", "multiple of 50")
    _one_line_refusal(cli("solve", "farkle", "--goal", "1000", "--komi", "30"), "komi=30",
                      "multiple of 50")
    _one_line_refusal(cli("solve", "game.toml", "--komi", "6"), "komi=6", "-5 <= komi <= 5")
    _one_line_refusal(cli("solve", "game.toml", "--komi", "0,1,2"), "komi=[0, 1, 2]",
                      "2 integers")


@pytest.mark.parametrize("flags, words", [
    (["--players", "5", "--ending", "rounds"],
     ["designer solve does not take --players 5 for Piglet",
      "rules-file games with 2-4 players, race or rounds ending"]),
    (["--players", "5"], ["designer solve does not take --players 5 for Piglet",
                          "rules-file games with 2-4 players, race or rounds ending"]),
    (["--faces", "4"], ["Piglet (a rules file) does not take --faces",
                        "--goal, --komi, --players, --ending"]),
    (["--goal", "0"], ["goal=0", "1 <= goal <= 100000"]),
])
def test_solve_refuses_what_the_engine_does_not_take(flags, words, tmp_path):
    _one_line_refusal(cli("solve", "piglet", *flags), *words)
    _one_line_refusal(cli("solve", "piglet", *flags, "--json"), *words)
    assert list(tmp_path.iterdir()) == []


def test_solve_a_rules_game_in_rounds():
    """--ending rounds on a race file, and a rounds file (The Great Rolled
    Ones), solved by the engine's rounds ending."""
    r = cli("solve", "piglet", "--goal", "5", "--ending", "rounds", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rules = load_rules(example_path("piglet"))
    want = solve_rounds_model(rules.model, 5, ties="replay").first_player_win
    assert out["ending"] == "rounds" and out["ties"] == "replay"
    assert abs(out["first_player_win"] - want) < 1e-15
    r = cli("solve", "great-rolled-ones", "--komi", "-3")
    assert r.returncode == 0, r.stderr
    assert "2 players, rounds)" in r.stdout and "ties: earlier-seat" in r.stdout
    assert "49.5505%" in r.stdout


def test_presets_keep_todays_solvers():
    out = json.loads(cli("solve", "pig", "--goal", "20", "--json").stdout)
    assert out["game"]["family"] == "dice" and "expected_actions" in out
    engine = json.loads(cli("rules", "check", "pig", "--goal", "20", "--json").stdout)
    pig = load_rules(example_path("pig"))
    assert engine["source"] == "pig" and engine["states"] == solve_model(pig.model, 20).states


def test_other_commands_refuse_rules_games_from_the_table():
    from designer.support import sentence

    line = _one_line_refusal(cli("simulate", "piglet"), "designer simulate does not take "
                                                        "rules-file games")
    assert " ".join(sentence("simulate").split()) in line
    # strategy cards: 2-4 seats in either ending, within the memory limit
    _one_line_refusal(cli("strategy", "farkle", "--players", "3", "--ending", "rounds",
                          "--max-size", "1"),
                      "a rule at one seat of 3 on Farkle under the rounds ending needs",
                      "MB, over the limit of")
    # play takes 2-4 seats in either ending: refused only where stdin is no terminal
    _one_line_refusal(cli("play", "great-rolled-ones", "--players", "3"),
                      "designer play is interactive: stdin is not a terminal")
    for command in ("compare", "play"):
        extra = ["--policy", "optimal"] if command == "compare" else []
        _one_line_refusal(cli(command, "piglet", "--players", "5", *extra),
                          f"designer {command} does not take --players 5 for Piglet")


def test_an_unknown_name_mentions_rules_files():
    _one_line_refusal(cli("solve", "monopoly"), "unknown game 'monopoly'", "FILE.toml",
                      "piglet", "farkle")


def test_a_game_far_too_large_is_measured_and_refused_at_once(tmp_path):
    (tmp_path / "huge.toml").write_text("goal = 100000\n[deck]\nbad = 60\ngood = 400\n")
    t0 = time.perf_counter()
    out = json.loads(cli("rules", "check", "huge.toml", "--json").stdout)
    assert out["fits"] is False and out["states_at_least"] is True
    assert out["memory_bytes"] > out["memory_limit_bytes"] and out["estimated_seconds"] is None
    text = cli("rules", "check", "huge.toml")
    assert text.returncode == 0 and "over the limit" in text.stdout
    _one_line_refusal(cli("solve", "huge.toml"), "at least 240,600,000,000,000 positions",
                      "over the limit of 2,048 MB")
    assert time.perf_counter() - t0 < 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.toml"]


def test_a_file_may_say_three_players(tmp_path):
    """players = 3 in the file is the default the command line may change."""
    (tmp_path / "three.toml").write_text(
        "goal = 4\nplayers = 3\n[dice]\nsides = 2\nface.1 = { bust = true }\n"
        "face.2 = { points = 1 }\n")
    out = json.loads(cli("solve", str(tmp_path / "three.toml"), "--json").stdout)
    assert len(out["seat_win"]) == 3 and abs(sum(out["seat_win"]) - 1) < 1e-12
    two = json.loads(cli("solve", str(tmp_path / "three.toml"), "--players", "2", "--json").stdout)
    assert len(two["seat_win"]) == 2
    rounds = json.loads(cli("solve", str(tmp_path / "three.toml"), "--ending", "rounds",
                            "--json").stdout)
    assert len(rounds["seat_win"]) == 3 and rounds["ending"] == "rounds"


def test_a_deck_turn_starts_with_a_draw_unless_the_file_says_otherwise(tmp_path):
    """A deck's turn must draw at least once, as in Fowl Play: a file that
    says nothing under [turn] solves today's deck game (its own solver, to
    1e-12, and the same game length). With ``forced_first = false`` a turn
    may pass, and a deck of its one bad item is passed back and forth for
    ever at (4, 4): refused in one line that says so and what ends it."""
    from designer import load_game
    from designer.solve import solve

    (tmp_path / "deck.toml").write_text("goal = 5\n[deck]\nbad = 1\ngood = 3\n")
    out = json.loads(cli("solve", "deck.toml", "--json").stdout)
    today = solve(load_game("deck", bad=1, good=3, goal=5))
    assert abs(out["first_player_win"] - today.first_player_win()) < 1e-12
    assert abs(out["expected_actions"] - today.expected_actions()) < 1e-9
    (tmp_path / "pass.toml").write_text("goal = 5\n[turn]\nforced_first = false\n"
                                        "[deck]\nbad = 1\ngood = 3\n")
    _one_line_refusal(cli("solve", "pass.toml"), "scores (4, 4) can go on forever",
                      "pass to each other for ever", "forced_first = true under [turn]")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml", "pass.toml"]
