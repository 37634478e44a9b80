"""Studies over players and endings (N players, race or rounds): the seats variant of
the deck and dice families, its rows, its refusals and its report section."""


import pandas as pd
import pytest

from designer.games import DeckGame, DiceGame
from designer.search import load_study, open_store
from designer.search.grid import run_grid
from designer.search.seat_families import komi_vectors
from designer.search.spec import StudyError
from designer.solve import solve
from study_helpers import report_markdown, write_study

SEATS = """
[study]
name = "seats"
family = "{family}"
workers = 1

[space]
{design}
players = [2, 3]
ending = ["race", "rounds"]
goal = [6, 8]
komi = {{min = -2, max = 2}}
"""


def _study(tmp_path, family="deck", design="bad = [1, 2]\ngood = 4"):
    return load_study(write_study(tmp_path, SEATS.format(family=family, design=design)))


def test_komi_vectors():
    assert komi_vectors(range(0, 2), 3, "race") == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    # negative entries only under rounds, shifted so the smallest start is 0
    assert komi_vectors(range(-1, 1), 2, "race") == [(0, 0)]
    assert komi_vectors(range(-1, 1), 2, "rounds") == [(1, 0), (0, 0)]
    assert (1, 0, 1) in komi_vectors(range(-1, 1), 3, "rounds")


def test_players_or_ending_select_the_seats_variant(tmp_path):
    spec = _study(tmp_path)
    assert spec.family == "deck-seats"
    assert spec.space["players"].values == (2, 3)
    assert spec.space["ending"].values == ("race", "rounds")
    plain = load_study(write_study(tmp_path, SEATS.format(family="deck", design="bad = 1\ngood = 4")
                                   .replace("players = [2, 3]\nending = [\"race\", \"rounds\"]\n", "")
                                   .replace("min = -2", "min = 0"), name="plain"))
    assert plain.family == "deck" and "players" not in plain.space
    # the defaults written out are the plain family too (same store as before)
    same = load_study(write_study(tmp_path, SEATS.format(family="deck", design="bad = 1\ngood = 4")
                                  .replace("[2, 3]", "2").replace('["race", "rounds"]', '"race"')
                                  .replace("min = -2", "min = 0"), name="same"))
    assert same.family == "deck" and same.fingerprint() == plain.fingerprint()


def test_seat_rows_equal_direct_solves(tmp_path):
    spec = _study(tmp_path)
    store = open_store(spec)
    assert run_grid(spec, store)["computed"] == 8  # 2 decks x 2 player counts x 2 endings
    df = store.rows()
    for (bad, N, ending), part in df.groupby(["bad", "players", "ending"]):
        game = DeckGame(int(bad), 4, 8, players=int(N), ending=ending)
        sol = solve(game)
        for r in part.itertuples():
            starts = [int(x) for x in r.starts.split(",")]
            p = [getattr(r, f"seat_{s + 1}_win") for s in range(N)]
            assert sum(p) == pytest.approx(1, abs=1e-9)
            assert all(pd.isna(getattr(r, f"seat_{s + 1}_win")) for s in range(N, 4))
            assert r.fairness == pytest.approx(max(abs(x - 1 / N) for x in p), abs=1e-15)
            # an independent reading: the game object with this komi, solved at its own goal
            komi = starts[1] - starts[0] if N == 2 else starts
            direct = solve(DeckGame(int(bad), 4, int(r.goal), komi, players=int(N), ending=ending))
            assert p == pytest.approx(list(direct.seat_win(komi=komi)), abs=1e-9)
            assert r.expected_actions == pytest.approx(sol.expected_actions(int(r.goal), komi),
                                                       rel=1e-10)
        if ending == "race":
            assert all(int(s.split(",")[0]) == 0 for s in part["starts"])
        else:
            assert (part["starts"].str.split(",").str[0].astype(int) > 0).any()
        for goal, g in part.groupby("goal"):  # the fair starts: the fairest row of the plane
            best = g.loc[g["fairness"].idxmin()]
            assert set(g["fair_starts"]) == {best["starts"]}
            assert g["fair_fairness"].iloc[0] == pytest.approx(best["fairness"], abs=1e-15)


def test_two_player_race_rows_equal_the_plain_family(tmp_path):
    spec = _study(tmp_path, "dice", "faces = 4")
    assert spec.family == "dice-seats"
    store = open_store(spec)
    run_grid(spec, store)
    df = store.rows()
    two = df[(df["players"] == 2) & (df["ending"] == "race")]
    sol = solve(DiceGame(4, 8))
    for r in two.itertuples():
        k = int(r.starts.split(",")[1])
        assert r.seat_1_win == pytest.approx(sol.first_player_win(int(r.goal), k), abs=1e-12)


@pytest.mark.parametrize("edit, words", [
    (("players = [2, 3]", "players = [2, 5]"), "players"),
    (('ending = ["race", "rounds"]', 'ending = "sudden"'), "ending"),
    (('ending = ["race", "rounds"]', 'ending = "race"'), "komi"),
    (('ending = ["race", "rounds"]', "ending = 3"), "ending"),
    (("workers = 1", 'workers = 1\nmethod = "optuna"'), "method"),
    (("komi = {min = -2, max = 2}", "komi = -1"), "komi"),  # no race row could exist
])
def test_seat_study_refusals(tmp_path, edit, words):
    body = SEATS.format(family="deck", design="bad = 1\ngood = 4").replace(*edit)
    with pytest.raises(StudyError, match=words) as exc:
        load_study(write_study(tmp_path, body))
    assert "\n" not in str(exc.value)


def test_seat_study_report_and_page(tmp_path):
    """The report of a seats study has its "Seats and endings" section and
    figure, and its interactive page (rows without a komi column: the
    sentences come from Python) draws with no console error."""
    path = write_study(tmp_path, SEATS.format(family="deck", design="bad = [1, 2]\ngood = 4"))
    md = report_markdown(path, tmp_path / "rep")
    assert "## Seats and endings" in md
    for N in (2, 3):
        assert f"With {N} players the fairest design is under the" in md
    assert (tmp_path / "rep" / "figures" / "seat_wins.png").stat().st_size > 1000

    from browser import headless_chromium, wait_for

    browser = headless_chromium()
    if isinstance(browser, str):
        pytest.skip(browser)
    try:
        browser.get((tmp_path / "rep" / "index.html").as_uri())
        wait_for(browser, "return window.reportDrawn || null", timeout=30)
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
        text = browser.find_element("id", "recommendation").text
        assert "players" in text and "seats win" in text
    finally:
        browser.quit()


def test_top_json_of_a_seats_study(tmp_path):
    """`study top --json` lists a players/ending study's best designs with
    their seat figures (it raised KeyError for the two-player columns)."""
    import json

    from cli_runner import cli

    spec = _study(tmp_path)
    run_grid(spec, open_store(spec))
    out = cli("study", "top", str(spec.path), "--n", "3", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["rank"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert {"bad", "good", "players", "ending", "fairness", "expected_actions"} <= set(r)
        n = r["players"]
        wins = [r[f"seat_{s}_win"] for s in range(1, n + 1)]
        assert sum(wins) == pytest.approx(1.0, abs=1e-9)
        assert r["fairness"] == pytest.approx(max(abs(p - 1 / n) for p in wins), abs=1e-12)
    assert rows[0]["fairness"] <= rows[1]["fairness"] <= rows[2]["fairness"]


ZOMBIE_SEATS = """
[study]
name = "zseats"
family = "zombie"
workers = 1

[space]
brains = [1, 2]
shotguns = 2
footprints = 1
goal = [5, 7]
komi = {min = -1, max = 1}
players = [2, 3, 4]
"""


def test_zombie_rows_over_players_equal_direct_solves(tmp_path):
    """All-yellow Zombie Dice over 2-4 players (its only ending, rounds):
    every row equals the Zombie solver called on the game with that goal
    and those start points; two seats give the plain family's figures."""
    from designer.games import ZombieGame

    spec = load_study(write_study(tmp_path, ZOMBIE_SEATS))
    assert spec.family == "zombie-seats" and spec.space["ending"].values == ("rounds",)
    store = open_store(spec)
    assert run_grid(spec, store)["computed"] == 6  # 2 dice x 3 player counts
    df = store.rows()
    assert set(df["ending"]) == {"rounds"} and set(df["players"]) == {2, 3, 4}
    for r in df.itertuples():
        N, starts = int(r.players), [int(x) for x in r.starts.split(",")]
        komi = starts[1] - starts[0] if N == 2 else starts
        if N == 2 and komi < 0:
            continue  # seat 1's points: no plain two-player game to compare with
        if N == 4 and sum(starts) > 1:
            continue  # each row is a 4-seat solve: the first few are checked
        direct = solve(ZombieGame(int(r.brains), 2, 1, 3, 3, int(r.goal), komi, players=N))
        p = [getattr(r, f"seat_{s + 1}_win") for s in range(N)]
        assert p == pytest.approx(list(direct.seat_win(komi=komi)), abs=1e-12)
        assert r.expected_actions == pytest.approx(direct.expected_actions(komi=komi), rel=1e-10)


def test_zombie_seat_study_report(tmp_path):
    """The report of a Zombie Dice study over players: its seats section,
    and fairness named as the distance from an equal share, not the first
    player's edge."""
    path = write_study(tmp_path, ZOMBIE_SEATS.replace("[1, 2]", "1").replace("[5, 7]", "5"))
    md = report_markdown(path, tmp_path / "rep")
    # a unit is a set of dice at one player count: compositions, as for decks
    assert "3 of 3 compositions computed" in md
    assert "**composition**: what is in the box: the dice and their faces." in md
    assert "Chosen by smallest largest distance of a seat's win from an equal share" in md
    assert "first-player edge" not in md
    for N in (2, 3, 4):
        assert f"With {N} players the fairest design is under the rounds ending" in md


@pytest.mark.parametrize("edit, words", [
    (("players = [2, 3, 4]", 'players = 3\nending = "race"'),
     "designer study run does not take ending = race for zombie studies"),
    (("players = [2, 3, 4]", "players = [3, 5]"), "players"),
])
def test_zombie_seat_study_refusals(tmp_path, edit, words):
    with pytest.raises(StudyError, match=words) as exc:
        load_study(write_study(tmp_path, ZOMBIE_SEATS.replace(*edit)))
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("edit, words", [
    (("players = [2, 3]", 'players = 3\nending = "race"'),
     "designer study run does not take ending = race for zombie-dice studies"),
    (("green = [2, 3]", "green = [0, 1]\nyellow = 0\nred = 0\n"), "green \\+ yellow \\+ red"),
    (("green = [2, 3]", "green = 21"), "green"),
])
def test_zombie_dice_seat_study_refusals(tmp_path, edit, words):
    body = ZOMBIE_DICE_SEATS.replace(*edit)
    if "yellow = 0" in body:
        body = body.replace("yellow = 1\n", "").replace("red = [1, 3]\n", "")
    with pytest.raises(StudyError, match=words) as exc:
        load_study(write_study(tmp_path, body))
    assert "\n" not in str(exc.value)


def test_a_two_player_zombie_study_in_rounds_is_the_plain_family(tmp_path):
    """Writing the one ending out keeps the plain family (the same store)."""
    body = ZOMBIE_SEATS.replace("players = [2, 3, 4]\n", "").replace("min = -1", "min = 0")
    plain = load_study(write_study(tmp_path, body, name="plain"))
    same = load_study(write_study(tmp_path, body + 'ending = "rounds"\nplayers = 2\n',
                                  name="same"))
    assert plain.family == same.family == "zombie"
    assert same.fingerprint() == plain.fingerprint()


ZOMBIE_DICE_SEATS = """
[study]
name = "zdseats"
family = "zombie-dice"
workers = 1

[space]
green = [2, 3]
yellow = 1
red = [1, 3]
goal = [3, 4]
komi = {min = -1, max = 1}
players = [2, 3]
"""


def test_zombie_dice_rows_over_players_equal_direct_solves(tmp_path):
    """Colour mixes of full Zombie Dice over 2-3 players: the goal may
    range (no skill gap pins it); each row equals the Zombie solver on the
    game with that goal and those start points, and a cup the rules refuse
    (fewer than 5 dice) is not a unit."""
    from designer.games import ZombieDiceGame

    # cups without red dice: the smallest solves
    body = ZOMBIE_DICE_SEATS.replace("red = [1, 3]", "red = 0").replace("yellow = 1",
                                                                        "yellow = [2, 3]")
    spec = load_study(write_study(tmp_path, body))
    assert spec.family == "zombie-dice-seats"
    store = open_store(spec)
    assert run_grid(spec, store)["computed"] == 6  # 2g/2y has 4 dice: not a cup
    df = store.rows()
    assert set(zip(df["green"], df["yellow"])) == {(2, 3), (3, 2), (3, 3)}
    assert set(df["goal"]) == {3, 4} and set(df["players"]) == {2, 3}
    for r in df.itertuples():
        N, starts = int(r.players), [int(x) for x in r.starts.split(",")]
        komi = starts[1] - starts[0] if N == 2 else starts
        if (N == 2 and komi < 0) or sum(starts) > 1 or r.goal != 3:
            # seat 1's points (no plain two-player game to compare with); each
            # row a solve of its own: a few start vectors at the goal read off
            # the goal-4 solve are checked
            continue
        direct = solve(ZombieDiceGame(int(r.green), int(r.yellow), 0, goal=int(r.goal),
                                      komi=komi, players=N))
        p = [getattr(r, f"seat_{s + 1}_win") for s in range(N)]
        assert p == pytest.approx(list(direct.seat_win(komi=komi)), abs=1e-12)


def test_a_zombie_dice_mix_too_long_for_its_seats_fails_as_a_unit(tmp_path):
    """The published 6/4/3 cup with three players to 13 would take about 27
    minutes: that unit fails with the solver's reason, in one line."""
    body = (ZOMBIE_DICE_SEATS.replace("green = [2, 3]", "green = 6")
            .replace("yellow = 1", "yellow = 4").replace("red = [1, 3]", "red = 3")
            .replace("goal = [3, 4]", "goal = 13").replace("players = [2, 3]", "players = 3"))
    spec = load_study(write_study(tmp_path, body))
    store = open_store(spec)
    run_grid(spec, store)
    failed = store.failed()
    assert len(failed) == 1
    reason = str(next(iter(failed.values())) if isinstance(failed, dict) else failed[0])
    assert "invalid players=3: allowed a Zombie game whose 3-seat solve" in reason
    assert "\n" not in reason
