"""Full Zombie Dice behind the common policy API: the human
policies, max expected brains and the colour-blind player, evaluated exactly
against the optimal player; checked against the all-yellow game, hand
computations from the rules, and seeded replays through the play engine."""

import json
import subprocess
import sys
from itertools import permutations
from math import comb, sqrt

import numpy as np
import pytest

from designer.analysis.compare import compare
from designer.games import ZombieDiceGame, ZombieGame
from designer.play import make_player
from designer.play.engine import new_game, random_outcome, step
from designer.policies.parse import parse_policy
from designer.policies.zombie import roll_odds
from designer.solve import solve

SMALL = ZombieDiceGame(green=2, yellow=2, red=1, goal=5)
#: 13 yellow dice in a cup: the all-yellow game (cap as the full game's).
YELLOW13 = ZombieDiceGame(green=0, yellow=13, red=0, goal=13)
ALL_YELLOW = ZombieGame(goal=13, cap=YELLOW13.cap)


@pytest.fixture(scope="module")
def small_solution():
    return solve(SMALL)


@pytest.mark.parametrize("name", ["neller", "minh", "llano", "fixed_hold_at", "max-brains"])
def test_thirteen_yellow_dice_equal_the_all_yellow_game(name):
    """The same policy in the full game with 13 yellow dice and in the
    all-yellow model: the same exact win probabilities."""
    full = compare(YELLOW13, name, "optimal", with_agreement=False)
    yellow = compare(ALL_YELLOW, name, "optimal", with_agreement=False)
    assert full.win_as_first == pytest.approx(yellow.win_as_first, abs=1e-9)
    assert full.win_as_second == pytest.approx(yellow.win_as_second, abs=1e-9)


def test_colour_blind_loses_nothing_when_every_die_is_yellow():
    c = compare(YELLOW13, "colour-blind", "optimal")
    assert c.gap == pytest.approx(0.0, abs=1e-12)
    assert c.win_as_first == pytest.approx(solve(YELLOW13).first_player_win(), abs=1e-12)


def test_colour_blind_is_the_yellow_optimum_spread_over_configurations():
    from designer.solve.zombie_dice import turn_states

    table = parse_policy("colour-blind", SMALL).table()
    yellow = solve(ZombieGame(2, 2, 2, 3, 3, SMALL.goal, 0, SMALL.cap)).policy
    ts = turn_states(SMALL)
    rng = np.random.default_rng(0)
    for _ in range(200):
        p, i, j, b = (int(rng.integers(n)) for n in table.shape[:4])
        k = int(rng.integers(ts.count))
        assert table[p, i, j, b, k] == yellow[p, i, j, b, ts.shotguns[k]]


def test_max_brains_rolls_by_the_formula():
    """All-yellow dice, by hand (3 dice, each face kind with chance 1/3): a
    roll busts with P(at least 3 - s shotguns) = 1/27, 7/27, 19/27 for
    s = 0, 1, 2, and keeps E[brains, no bust] = 1 (three shotguns show no
    brain), 1 - 3/27 (a brain with two shotguns is lost) and 8/27 * 3/2 (no
    shotgun at all, then half the dice are brains). Roll iff kept > P(bust) * b:
    up to b = 26, 3 and 0."""
    table = parse_policy("max-brains", ALL_YELLOW).table()
    for s, (kept, p_bust) in enumerate(((27, 1), (24, 7), (12, 19))):  # in 27ths
        for b in range(30):
            assert table[0, 3, 4, b, s] == (kept > p_bust * b), (s, b)
    assert [int(table[0, 3, 4, :30, s].sum()) for s in range(3)] == [27, 4, 1]
    # the full game's first roll: 3 dice drawn from 6 green, 4 yellow, 3 red;
    # three shotguns show no brain, so every brain rolled is kept
    game = ZombieDiceGame()
    gain, bust = roll_odds(game)
    dice = [(3 / 6, 1 / 6)] * 6 + [(2 / 6, 2 / 6)] * 4 + [(1 / 6, 3 / 6)] * 3
    draws = list(permutations(range(13), 3))
    assert gain[0] == pytest.approx(sum(sum(dice[d][0] for d in t) for t in draws) / len(draws),
                                    abs=1e-12)
    assert bust[0] == pytest.approx(
        sum(np.prod([dice[d][1] for d in t]) for t in draws) / len(draws), abs=1e-12)
    assert comb(13, 3) * 6 == len(draws)


def _replay(game, players, n, seed):
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(n):
        s = new_game(game)
        while not s.over:
            a = players[s.mover].decide(s)
            s, _ = step(s, a, None if a == "hold" else random_outcome(s, rng))
        wins += s.winner == 0
    return wins


def test_neller_in_the_full_game_matches_a_seeded_replay(small_solution):
    """neller as player 1 against the optimal player: the exact value from
    the policy table against games played through the rules engine of
    ``designer play`` (which calls the policy function at each decision)."""
    exact = compare(SMALL, "neller", "optimal", solution=small_solution,
                    with_agreement=False).win_as_first
    n = 3000
    wins = _replay(SMALL, (make_player("medium", small_solution),
                           make_player("hard", small_solution)), n, seed=8)
    se = sqrt(exact * (1 - exact) / n)
    assert abs(wins / n - exact) <= 3 * se, (wins / n, exact, se)


def test_cli_compare_full_game(small_solution):
    args = ["zombie", "--green", "2", "--yellow", "2", "--red", "1", "--goal", "5"]
    r = subprocess.run([sys.executable, "-m", "designer", "compare", *args, "--policy",
                        "colour-blind", "--against", "optimal", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    c = compare(SMALL, "colour-blind", "optimal", solution=small_solution)
    for key in ("win_as_first", "win_as_second", "gap", "agreement"):
        assert out[key] == pytest.approx(getattr(c, key), abs=1e-12)
    assert out["gap"] < 0 and 0 < out["agreement"] < 1
    r = subprocess.run([sys.executable, "-m", "designer", "compare", *args, "--policy",
                        "max-score", "--against", "optimal"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


STUDY = """
[study]
name = "{name}"
family = "zombie-dice"
method = "grid"
workers = 1

[space]
green = {{min = 1, max = 2}}
yellow = {{min = 1, max = 2}}
red = 1
goal = 5
komi = {{min = 0, max = 2}}
"""


def test_colour_study_rows_equal_direct_solves(tmp_path):
    """A grid over colour mixes keeps only cups the rules accept (at least
    5 dice) and stores, per mix and komi, the solver's figures and the skill
    gap against max expected brains."""
    from designer.search import load_study, open_store
    from designer.search.grid import run_grid
    from study_helpers import write_study

    path = write_study(tmp_path, STUDY.format(name="colours"))
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    rows = open_store(spec).rows()
    mixes = {(int(r.green), int(r.yellow)) for r in rows.itertuples()}
    assert mixes == {(2, 2)}  # 1+1+1, 1+2+1 and 2+1+1 dice are too few for a cup
    game = ZombieDiceGame(2, 2, 1, goal=5)
    sol = solve(game)
    for r in rows.itertuples():
        assert r.first_player_win == pytest.approx(sol.first_player_win(5, int(r.komi)),
                                                   abs=1e-12)
        c = compare(ZombieDiceGame(2, 2, 1, goal=5, komi=int(r.komi)), "optimal",
                    "max-brains", solution=sol, with_agreement=False)
        assert r.skill_gap == pytest.approx(c.win_average - 0.5, abs=1e-12)


@pytest.mark.parametrize("line,message", [
    ("goal = {min = 5, max = 6}", "one goal"),
    ("green = {min = 0, max = 1}", "some mix with 5 to 20 dice"),
    ("green = {min = 0, max = 30}", "green"),
])
def test_colour_study_refusals(tmp_path, line, message, capsys):
    from designer.cli import main
    from study_helpers import write_study

    body = STUDY.format(name="bad")
    key = line.split(" =")[0]
    body = "\n".join(line if ln.startswith(key + " =") else ln for ln in body.splitlines())
    if key == "green" and "max = 1" in line:
        body = body.replace("yellow = {min = 1, max = 2}", "yellow = 1")
    path = write_study(tmp_path, body)
    try:
        status = main(["study", "run", str(path)])
    except SystemExit as exc:
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "bad.results").exists()
