"""Zombie Dice through the common policy API: parse_policy, compare, the
match table and ``designer compare``, checked against the solve layer's own
Zombie Dice match evaluation with tables written here."""

import json
import subprocess
import sys

import numpy as np
import pytest

from designer import DeckGame, DesignError, ZombieGame
from designer.analysis import compare, match_table
from designer.policies import HoldAtPolicy, OptimalPolicy, parse_policy
from designer.policies.parse import NAMED, policy_forms, register_named
from designer.policies.zombie import HumanPolicy, TablePolicy
from designer.solve import evaluate_zombie_match, solve
from designer.solve.zombie import policy_shape

SMALL = ZombieGame(goal=6, cap=14)


def hold_at_table(game, n):
    """roll[p, i, j, b, s] = b < n, written plainly."""
    R = np.zeros(policy_shape(game), dtype=bool)
    for idx in np.ndindex(*R.shape):
        R[idx] = idx[3] < n
    return R


def direct(game, a, b):
    """A's win probability in both seats from the solve layer's public
    Zombie Dice evaluation (player 1's decisions from table[0], player 2's
    from table[1])."""
    first = evaluate_zombie_match(game, a, b)["first_player_win"]
    second = 1.0 - evaluate_zombie_match(game, b, a)["first_player_win"]
    return first, second


@pytest.fixture(scope="module")
def small_solution():
    return solve(SMALL)


def test_parse_policy_zombie_forms(small_solution):
    assert isinstance(parse_policy("optimal", SMALL, solution=small_solution), OptimalPolicy)
    assert isinstance(parse_policy("hold-at:3", SMALL), HoldAtPolicy)
    for name in ("fixed_hold_at", "fixed-hold-at", "minh", "llano", "Neller"):
        pol = parse_policy(name, SMALL)
        assert isinstance(pol, HumanPolicy) and pol.table().shape == policy_shape(SMALL)
    assert np.array_equal(parse_policy("hold-at:3", SMALL).table(), hold_at_table(SMALL, 3))
    opt = parse_policy("optimal", SMALL, solution=small_solution)
    assert np.array_equal(opt.table(), small_solution.policy)


@pytest.mark.parametrize("spec,game,match", [
    ("max-score", SMALL, "plays deck and dice games, not zombie games"),
    ("neller", DeckGame(3, 5, 7), "plays zombie games, not deck games"),
    ("bogus", SMALL, "unknown policy 'bogus': use optimal, .*neller"),
    ("hold-at:0", SMALL, "N >= 1"),
])
def test_parse_policy_zombie_errors(spec, game, match):
    with pytest.raises(DesignError, match=match):
        parse_policy(spec, game)


def test_py_policy_file_for_zombie(tmp_path):
    f = tmp_path / "z.py"
    f.write_text("def cautious(p, i, j, b, s):\n    return b < 3\n")
    pol = parse_policy(f"py:{f}:cautious", SMALL)
    assert pol.name == "py:cautious"
    assert np.array_equal(pol.table(), hold_at_table(SMALL, 3))


def test_compare_zombie_against_the_solve_layer(small_solution):
    r = compare(SMALL, "hold-at:2", "neller")
    neller = HumanPolicy(SMALL, "neller").table()
    wf, ws = direct(SMALL, hold_at_table(SMALL, 2), neller)
    assert r.win_as_first == pytest.approx(wf, abs=1e-12)
    assert r.win_as_second == pytest.approx(ws, abs=1e-12)
    assert r.gap == pytest.approx(wf + ws - 1, abs=1e-12)
    assert r.policy == "hold-at:2" and r.against == "neller"
    assert 0 < r.agreement < 1 and r.states > 0
    # optimal against itself: the seats' win rates sum to one, full agreement
    same = compare(SMALL, OptimalPolicy(SMALL, small_solution),
                   OptimalPolicy(SMALL, small_solution))
    assert same.gap == pytest.approx(0, abs=1e-12) and same.agreement == 1.0
    assert same.win_as_first == pytest.approx(small_solution.first_player_win(), abs=1e-12)


def test_zombie_match_table_every_komi_one_goal():
    a, b = hold_at_table(SMALL, 2), hold_at_table(SMALL, 4)
    m = match_table(SMALL, a, b)
    for komi in (0, 3):
        g = ZombieGame(goal=6, cap=14, komi=komi)
        wf, ws = direct(g, a, b)
        assert m.win_as_first(komi=komi) == pytest.approx(wf, abs=1e-12)
        assert m.win_as_second(komi=komi) == pytest.approx(ws, abs=1e-12)
    assert m.win_as_first(goal=6) == m.win_as_first()
    with pytest.raises(DesignError, match="goal 6 only"):
        m.win_as_first(goal=5)
    with pytest.raises(DesignError, match="policy table must be bool"):
        match_table(SMALL, a[:, :3], b)


def test_table_policy_and_function(small_solution):
    t = TablePolicy(SMALL, hold_at_table(SMALL, 2))
    f = TablePolicy(SMALL, lambda p, i, j, b, s: b < 2)
    assert t.name == "table" and f.name == "<lambda>"
    assert np.array_equal(t.table(), f.table())


def test_the_registry_takes_a_new_policy():
    register_named("always-hold-test", lambda game, solution: TablePolicy(
        game, np.zeros(policy_shape(game), dtype=bool), name="always-hold-test"))
    try:
        assert "always-hold-test" in policy_forms()
        pol = parse_policy("always-hold-test", SMALL)
        assert not pol.table().any()
    finally:
        del NAMED["always-hold-test"]
        from designer.policies import parse
        parse._FORMS.remove("always-hold-test")


def test_compare_cli_zombie_family_with_a_file_policy(tmp_path):
    f = tmp_path / "z.py"
    f.write_text("def bold(p, i, j, b, s):\n    return b < 4\n")
    r = subprocess.run([sys.executable, "-m", "designer", "compare", "zombie", "--goal", "6",
                        "--cap", "14", "--policy", f"py:{f}:bold", "--against", "hold-at:2",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    wf, ws = direct(SMALL, hold_at_table(SMALL, 4), hold_at_table(SMALL, 2))
    assert out["win_as_first"] == pytest.approx(wf, abs=1e-12)
    assert out["win_as_second"] == pytest.approx(ws, abs=1e-12)
    assert out["policy"] == "py:bold" and out["against"] == "hold-at:2"
