"""Rules studies over the number of players (the ``rules-seats`` variant):
its rows against the slow N-seat reference and direct solves, worker
processes, its report, and every refusal of its study file."""

import tomllib

import numpy as np
import pandas as pd
import pytest

from cli_runner import cli
from designer.engine.game import load_rules_game, solve_game
from designer.engine.rulesfile import example_path
from designer.search import load_study, open_store
from designer.search.families import family_of
from designer.search.grid import run_grid
from designer.search.rules_family import toml_text
from designer.search.seat_families import SEAT_COLUMNS
from engine_reference import Die
from engine_seats_reference import reference_seat_lengths, reference_seats
from study_helpers import assert_refused, report_markdown, write_study
from test_study_rules import TINY_RULES

STUDY = """
[study]
name = "tiny_seats"
family = "rules"
rules = "tiny.toml"
method = "grid"
workers = 1

[space]
"dice.sides" = [2, 3]
players = [2, 3]
ending = ["race", "rounds"]
goal = [4, 5]
komi = {min = -1, max = 1}
"""


def _study(tmp_path, body=STUDY):
    (tmp_path / "tiny.toml").write_text(TINY_RULES)
    return write_study(tmp_path, body, name="study")


def _variant(tmp_path, sides):
    doc = tomllib.loads(TINY_RULES)
    doc["dice"]["sides"] = int(sides)
    path = tmp_path / f"sides{sides}.toml"
    path.write_text(toml_text(doc))
    return path


def _starts(text):
    return tuple(int(x) for x in text.split(","))


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rules_seats")
    spec = load_study(_study(tmp))
    store = open_store(spec)
    assert run_grid(spec, store) == {"computed": 8, "failed": 0}  # 2 dice x 2 counts x 2 endings
    return tmp, spec, store.rows()


def test_players_select_the_rules_seats_variant(tmp_path):
    spec = load_study(_study(tmp_path))
    assert spec.family == "rules-seats"
    fam = family_of(spec)
    assert fam.design_columns == ("dice_sides", "players", "ending")
    assert fam.plane == ("goal", "starts")
    assert spec.space["players"].values == (2, 3)
    # two players alone stay the two-seat rules study (its rows, its store)
    two = load_study(_study(tmp_path, STUDY.replace("players = [2, 3]", "players = 2")
                            .replace("min = -1", "min = 0")))
    assert two.family == "rules"
    # no ending given: the file's own, one value
    spec = load_study(_study(tmp_path, STUDY.replace('ending = ["race", "rounds"]\n', "")
                             .replace("min = -1", "min = 0")))
    assert spec.family == "rules-seats" and spec.space["ending"].values == ("race",)


def test_race_rows_equal_the_slow_reference(rows):
    """Every race row's seat wins and game length, at its start vector,
    against value iteration written from the rules (scores from the mover
    on: seat 1 moves first)."""
    _, _, df = rows
    race = df[df.ending == "race"]
    assert len(race) > 0
    for (sides, N, goal), part in race.groupby(["dice_sides", "players", "goal"]):
        die = Die(["bust"] + [1] * (int(sides) - 1))
        want = reference_seats(die, int(goal), int(N), max_iter=20_000)
        length = reference_seat_lengths(die, int(goal), int(N))
        for r in part.itertuples():
            v = _starts(r.starts)
            got = [getattr(r, c) for c in SEAT_COLUMNS[:N]]
            assert np.abs(np.array(got) - np.array(want[(v, "roll")])).max() < 1e-9, r
            assert abs(r.expected_actions - length[(v, "roll")]) < 1e-9 * r.expected_actions
            # race start vectors never give seat 1 points
            assert v[0] == 0


def test_three_seat_rounds_rows_equal_todays_solver(rows):
    """Every row of three seats under the rounds ending: the seat wins and
    the game length at its start vector against the dice family's N-seat
    rounds solver (its own kernels, which count the actions as they go;
    the slow reference checks the engine on small caps in
    test_engine_seat_rounds.py)."""
    from designer.solve.rounds import solve_rounds_dice

    _, _, df = rows
    part3 = df[(df.ending == "rounds") & (df.players == 3)]
    assert len(part3) > 0 and part3.expected_actions.notna().all()
    for (sides, goal), part in part3.groupby(["dice_sides", "goal"]):
        fam = solve_rounds_dice(int(sides), [1] * (int(sides) - 1), int(goal), 3)
        for r in part.itertuples():
            v = list(_starts(r.starts))
            got = [getattr(r, c) for c in SEAT_COLUMNS[:3]]
            assert np.abs(np.array(got) - fam.seat_win(komi=v)).max() < 1e-9, r
            assert abs(r.expected_actions - fam.expected_actions(komi=v)) < 1e-9, r


def test_rows_equal_direct_solves(rows):
    """Every row equals ``designer solve`` of its game with its start points,
    solved at its own goal; the fairness and the fairest vector are read off
    the rows of the same variant and goal."""
    tmp, _, df = rows
    assert set(df.players) == {2, 3} and set(df.ending) == {"race", "rounds"}
    for r in df.itertuples():
        N, v = int(r.players), _starts(r.starts)
        komi = v[1] - v[0] if N == 2 else v
        game = load_rules_game(_variant(tmp, r.dice_sides), goal=int(r.goal), komi=komi,
                               players=N, ending=r.ending)
        direct = solve_game(game, length=True)
        p = [getattr(r, c) for c in SEAT_COLUMNS[:N]]
        assert np.abs(np.array(p) - np.array(direct["seat_win"])).max() <= 1e-12, r
        assert sum(p) == pytest.approx(1.0, abs=1e-12)
        assert all(pd.isna(getattr(r, c)) for c in SEAT_COLUMNS[N:])
        assert r.fairness == pytest.approx(max(abs(x - 1 / N) for x in p), abs=1e-15)
        assert r.states == direct["states"] and r.components == 1
        assert r.expected_actions == pytest.approx(direct["expected_actions"], rel=1e-12)
    for _, part in df.groupby(["dice_sides", "players", "ending", "goal"]):
        (fair,) = set(part.fair_starts)
        assert part[part.starts == fair].fairness.iloc[0] == part.fairness.min()
        assert (part.fair_fairness == part.fairness.min()).all()


def test_start_vectors_follow_the_ending(rows):
    """Under the rounds ending a vector with negative entries is shifted
    (seat 1 may start with points); under the race it is left out."""
    _, _, df = rows
    three = df[(df.players == 3) & (df.dice_sides == 2) & (df.goal == 5)]
    race = set(three[three.ending == "race"].starts)
    rounds = set(three[three.ending == "rounds"].starts)
    assert race == {"0,0,0", "0,0,1", "0,1,0", "0,1,1"}
    # (0, a, b) for a, b in -1..1, shifted so the smallest entry is 0: nine vectors
    assert rounds == {"1,0,0", "1,0,1", "1,0,2", "1,1,0", "1,2,0", "0,0,0", "0,0,1", "0,1,0",
                      "0,1,1"}
    two = df[(df.players == 2) & (df.dice_sides == 2) & (df.goal == 5)]
    assert set(two[two.ending == "rounds"].starts) == {"1,0", "0,0", "0,1"}
    assert set(two[two.ending == "race"].starts) == {"0,0", "0,1"}


def test_worker_processes_give_the_same_rows(rows, tmp_path):
    """Two worker processes evaluate units through the registered family
    (the study's columns travel in the unit's arguments)."""
    _, _, one = rows
    spec = load_study(_study(tmp_path))
    store = open_store(spec)
    assert run_grid(spec, store, workers=2) == {"computed": 8, "failed": 0}
    two = store.rows()
    key = ["dice_sides", "players", "ending", "goal", "starts"]
    a = one.sort_values(key).reset_index(drop=True)
    b = two.sort_values(key).reset_index(drop=True)
    assert list(a[key].itertuples(index=False)) == list(b[key].itertuples(index=False))
    assert np.allclose(a.fairness, b.fairness, rtol=0, atol=1e-15)


def test_four_players(tmp_path):
    """Four seats: the race row equals the slow reference."""
    body = (STUDY.replace('"dice.sides" = [2, 3]', '"dice.sides" = 2')
            .replace("players = [2, 3]", "players = 4")
            .replace('ending = ["race", "rounds"]', 'ending = "race"')
            .replace("goal = [4, 5]", "goal = 3").replace("min = -1", "min = 0"))
    spec = load_study(_study(tmp_path, body))
    store = open_store(spec)
    assert run_grid(spec, store) == {"computed": 1, "failed": 0}
    df = store.rows()
    assert len(df) == 8  # every (0, k2, k3, k4) with k in 0..1
    want = reference_seats(Die(["bust", 1]), 3, 4, max_iter=20_000)
    for r in df.itertuples():
        got = [getattr(r, c) for c in SEAT_COLUMNS]
        assert np.abs(np.array(got) - np.array(want[(_starts(r.starts), "roll")])).max() < 1e-9


def test_report_and_top(rows):
    tmp, spec, _ = rows
    md = report_markdown(spec.path, tmp / "rep", run=False)
    assert "## Seats and endings" in md
    assert "8 of 8 variants of the rules computed" in md
    assert "Chosen by smallest largest distance of a seat's win from an equal share" in md
    for N in (2, 3):
        assert f"With {N} players the fairest design is under the" in md
    assert "with the expected game length" in md
    out = cli("study", "top", str(spec.path), "--n", "3", "--json")
    assert out.returncode == 0, out.stderr
    import json

    top = json.loads(out.stdout)
    assert {"dice_sides", "players", "ending", "starts", "seat_3_win"} <= set(top[0])


REFUSALS = [
    ("five players", ("players = [2, 3]", "players = [2, 5]"),
     "[space]: designer study run does not take players = 5 for rules studies: it takes "
     "rules-file games with 2-4 players"),
    ("an optuna search", ('method = "grid"', 'method = "optuna"'),
     "invalid method = 'optuna': allowed grid for a study over players or endings"),
    ("negative komi in the race alone", ('ending = ["race", "rounds"]', 'ending = "race"'),
     "invalid komi='-1..1': allowed komi >= 0 under the race ending (negative komi, points "
     "for seat 1, needs ending \"rounds\")"),
    ("komi not below the goal", ("komi = {min = -1, max = 1}", "komi = {min = -1, max = 5}"),
     "invalid komi='-1..5': allowed komi between -4 and 4"),
    ("a key the rules refuse", ('"dice.sides" = [2, 3]', '"dice.sides" = [2, 300]'),
     "invalid dice.sides = 300"),
]


@pytest.mark.parametrize("edit, words", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals_are_one_line_exit_2_and_write_nothing(tmp_path, monkeypatch, edit, words):
    monkeypatch.chdir(tmp_path)
    assert edit[0] in STUDY
    path = _study(tmp_path, STUDY.replace(*edit))
    line = assert_refused(tmp_path, path)
    assert words in line, line


def test_a_two_seat_rule_with_three_players_is_refused(tmp_path, monkeypatch):
    """Farkle's farkle penalty counts two seats' farkles: three players are
    refused before any work, naming the key."""
    monkeypatch.chdir(tmp_path)
    doc = tomllib.loads(example_path("farkle").read_text())
    doc["scoring_dice"]["farkle_penalty"] = {"farkles": 3, "points": 500, "floor": -500}
    (tmp_path / "pen.toml").write_text(toml_text(doc))
    body = ('[study]\nname = "pen"\nfamily = "rules"\nrules = "pen.toml"\n\n[space]\n'
            'players = [2, 3]\ngoal = 500\nkomi = 0\n')
    path = write_study(tmp_path, body, name="pen_study")
    before = sorted(p.name for p in tmp_path.iterdir())
    r = cli("study", "run", path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    line = r.stderr.strip()
    assert "\n" not in line and "farkle_penalty counts the farkles of two seats" in line, line
    assert "[space]: invalid players = 3: pen.toml: scoring_dice.farkle_penalty" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_start_vectors_out_of_range_are_refused():
    from designer.errors import DesignError

    game = load_rules_game("piglet", goal=4, players=3)
    with pytest.raises(DesignError, match=r"start \[0, 4, 0\]: allowed 3 entries, each 0\.\.3 "
                                          r"units"):
        solve_game(game, starts=[(0, 4, 0)])
    with pytest.raises(DesignError, match=r"start \[0, 1\]: allowed 3 entries"):
        solve_game(game, starts=[(0, 1)])
    two = solve_game(load_rules_game("piglet", goal=4), starts=[(0, 2), (1, 0)])
    assert [s["start"] for s in two["at_starts"]] == [[0, 2], [1, 0]]
    assert two["at_starts"][0]["seat_win"][0] == two["komi_table"][2]["first_player_win"]
