"""All-yellow Zombie Dice: the layered kernel against the plain reference,
cap invariance, the human policies against their published gaps and
against a re-derivation of all-yellow Zombie Dice's rules evaluated by plain value iteration,
exact policy comparison, and every validation rule."""

import json
import pickle

import numpy as np
import pytest
from cli_runner import cli as _cli
from numba import njit

from designer import DesignError, ParameterError, ZombieGame, load_game
from designer.analysis.zombie import compare_zombie, decision_mask
from designer.policies.zombie import HUMAN, policy_table
from designer.solve import evaluate_zombie_match, solve
from designer.solve.zombie import policy_shape, roll_outcomes
from zombie_reference import zombie_reference
from zombie_rederived_policies import POLICIES as RULES_REDERIVED

# (brains, shotguns, footprints, dice, bust_shotguns, goal, cap)
SMALL = [
    (1, 1, 1, 2, 2, 4, 7),
    (2, 2, 2, 3, 3, 5, 9),
    (1, 2, 0, 2, 2, 3, 6),   # no footprint: no self-loop
    (2, 1, 1, 1, 2, 4, 8),   # one die
    (1, 1, 2, 2, 1, 4, 6),   # any shotgun busts
]


@pytest.fixture(scope="module")
def yellow():
    return solve(load_game("zombie-yellow"))


def _check_against_reference(sol, P, L, roll):
    g = sol.game
    G, cap = g.goal, g.cap
    for a in range(G):
        for c in range(G):
            assert sol.win[a, c] == pytest.approx(P[(1, a, c, 0, 0)], abs=1e-12), (a, c)
            assert sol.actions[a, c] == pytest.approx(L[(1, a, c, 0, 0)], rel=1e-9), (a, c)
    assert sol.tie_round_win == pytest.approx(P[(1, G, G, 0, 0)], abs=1e-12)
    assert sol.tie_round_actions == pytest.approx(L[(1, G, G, 0, 0)], rel=1e-9)
    for c in range(G + 1):
        for ap in range(cap + 1):
            if (2, c, ap, 0, 0) in P:
                assert sol.second_win[c, ap] == pytest.approx(P[(2, c, ap, 0, 0)], abs=1e-12)
                assert sol.second_actions[c, ap] == pytest.approx(L[(2, c, ap, 0, 0)], rel=1e-9)
    for st, r in roll.items():
        assert (sol.decision(*st) == "roll") == r, st


@pytest.mark.parametrize("params", SMALL)
def test_matches_reference(params):
    P, L, roll = zombie_reference(*params)
    br, sh, fo, d, K, G, cap = params
    sol = solve(ZombieGame(br, sh, fo, d, K, G, 0, cap))
    assert sol.residual <= 1e-12
    assert sol.states == len(P)
    _check_against_reference(sol, P, L, roll)


def _hold_from_2(p, i, j, b, s):
    return b < 2


def _greedy_seat2(p, i, j, b, s):
    return s < 1 or b < 1 + (j - i) // 2


@pytest.mark.parametrize("params", SMALL[:3])
def test_fixed_policy_match_matches_reference(params):
    br, sh, fo, d, K, G, cap = params
    game = ZombieGame(br, sh, fo, d, K, G, 0, cap)
    P, L, _ = zombie_reference(*params, policies=(_hold_from_2, _greedy_seat2))
    first = policy_table(game, njit(_hold_from_2))
    second = policy_table(game, _greedy_seat2)  # plain Python works too
    out = evaluate_zombie_match(game, first, second)
    for a in range(G):
        for c in range(G):
            assert out["win"][a, c] == pytest.approx(P[(1, a, c, 0, 0)], abs=1e-12)
    assert out["first_player_win"] == pytest.approx(P[(1, 0, 0, 0, 0)], abs=1e-12)
    assert out["expected_actions"] == pytest.approx(L[(1, 0, 0, 0, 0)], rel=1e-9)
    assert out["tie_round_win"] == pytest.approx(P[(1, G, G, 0, 0)], abs=1e-12)


def test_optimal_policy_evaluates_to_its_own_values(yellow):
    out = evaluate_zombie_match(yellow.game, yellow.policy, yellow.policy)
    assert np.abs(out["win"] - yellow.win).max() <= 1e-13
    assert out["expected_actions"] == pytest.approx(yellow.expected_actions(), rel=1e-12)


# ---- the cap -------------------------------------------------------------

def test_cap_invariance(yellow):
    """Reported probabilities, lengths, the optimal policy and every policy
    comparison stay put when the cap grows (default goal + 50)."""
    g = yellow.game
    assert g.cap == g.goal + 50
    big = solve(ZombieGame(cap=g.cap + 30))
    assert np.abs(big.win - yellow.win).max() <= 1e-14
    assert np.abs(big.actions - yellow.actions).max() <= 1e-11
    assert big.tie_round_win == pytest.approx(yellow.tie_round_win, abs=1e-14)
    mask = decision_mask(g)
    small_pol = yellow.policy[mask]
    big_pol = big.policy[:, :, : g.cap + 1, : g.cap, :][mask]
    assert np.array_equal(small_pol, big_pol)
    for a, b in zip(big.summary()["komi_table"], yellow.summary()["komi_table"], strict=True):
        assert a["komi"] == b["komi"]
        assert a["first_player_win"] == pytest.approx(b["first_player_win"])
        assert a["expected_actions"] == pytest.approx(b["expected_actions"])
    for name in HUMAN:
        a = compare_zombie(g, name, solution=yellow)
        b = compare_zombie(big.game, name, solution=big)
        for key in ("win_as_first", "win_as_second", "gap"):
            assert a[key] == pytest.approx(b[key], abs=1e-13), (name, key)
        assert a["agreement"] == b["agreement"]
        assert a["states_compared"] == b["states_compared"]


def test_small_cap_does_change_results():
    # the cap is a real truncation: far too low a cap moves the answer
    low = solve(ZombieGame(cap=16))
    ok = solve(ZombieGame())
    assert abs(low.first_player_win() - ok.first_player_win()) > 1e-6


# ---- invariants ----------------------------------------------------------

def test_invariants(yellow):
    W = yellow.win
    assert W.min() >= 0.0 and W.max() <= 1.0
    assert (np.diff(W, axis=0) >= -1e-12).all()  # more of one's own never hurts
    assert (np.diff(W, axis=1) <= 1e-12).all()
    assert (yellow.actions >= 1.0).all()
    assert yellow.residual <= 1e-12
    assert 0.0 < yellow.tie_round_win < 1.0


@pytest.mark.parametrize("game", [ZombieGame(), ZombieGame(1, 2, 0, 2, 2, 5),
                                  ZombieGame(3, 1, 2, 4, 4, 8)])
def test_roll_outcomes_sum_to_one(game):
    OB, OS, OP, q0 = roll_outcomes(game)
    assert OP.sum() + q0 == pytest.approx(1.0, abs=1e-15)
    assert ((OB + OS) <= game.dice).all() and ((OB + OS) >= 1).all()
    assert (OP > 0).all()


def test_smaller_goal_read_off_larger_table(yellow):
    # same distance from the goal to the cap
    direct = solve(ZombieGame(goal=9, cap=59))
    for komi in range(9):
        assert yellow.first_player_win(9, komi) == pytest.approx(
            direct.first_player_win(komi=komi), abs=1e-13)
        assert yellow.expected_actions(9, komi) == pytest.approx(
            direct.expected_actions(komi=komi), rel=1e-11)


def test_decisions(yellow):
    G = yellow.game.goal
    assert yellow.decision(1, 0, 0, 0, 0) == "roll"           # first roll is forced
    assert yellow.decision(2, 10, 12, 3, 2) == "hold"         # 13 > 12: player 2 wins
    assert yellow.decision(2, 5, 20, 10, 2) == "roll"         # holding would lose
    assert yellow.decision(1, 0, 0, 20, 0) == "hold"          # far enough ahead
    assert yellow.decision(1, G, G, 62 - G, 0) == "hold"
    with pytest.raises(ParameterError):
        yellow.decision(1, 3, 20, 0, 0)                       # not a round start
    with pytest.raises(ParameterError):
        yellow.decision(3, 0, 0, 0, 0)


def test_solution_pickles_and_summary(yellow):
    back = pickle.loads(pickle.dumps(yellow))
    assert back.first_player_win() == yellow.first_player_win()
    s = yellow.summary(max_komi=3)
    for key in ("first_player_win", "expected_actions", "fair_komi", "komi_table", "states",
                "residual", "seconds", "tie_round_win"):
        assert key in s
    assert s["game"]["family"] == "zombie" and s["game"]["cap"] == 63
    assert [r["komi"] for r in s["komi_table"]] == [0, 1, 2, 3]
    df = yellow.to_frame()
    assert len(df) == 13 * 14 // 2
    assert {"brains", "dice", "goal", "komi", "first_player_win"} <= set(df.columns)


# ---- the human policies, against their re-derivation from the rules ------------
# tests/zombie_rederived_policies.py restates each rule from its meaning (targets
# per situation) instead of copying the package's line-by-line transcription.


@pytest.mark.parametrize("name", list(HUMAN))
def test_human_policy_tables_match_spec(name):
    game = ZombieGame()
    table = policy_table(game, name)
    spec = RULES_REDERIVED[name]
    rng = np.random.default_rng(HUMAN[name])
    idx = [tuple(int(v) for v in rng.integers(0, n, 40_000)) for n in policy_shape(game)]
    for p, i, j, b, s in zip(*idx):
        assert bool(table[p, i, j, b, s]) == spec(p + 1, i, j, b, s), (p + 1, i, j, b, s)
    # and every state of the playing range, exhaustively
    for p in (1, 2):
        for i in range(14):
            for j in range(27):
                for b in range(27 - i):
                    for s in range(3):
                        assert bool(table[p - 1, i, j, b, s]) == spec(p, i, j, b, s)


@pytest.mark.parametrize("name", list(HUMAN))
def test_human_policies_are_numba_functions(name):
    from designer.policies import zombie as zp

    fn = getattr(zp, name)
    for st in [(1, 0, 0, 0, 0), (2, 12, 14, 1, 2), (1, 13, 13, 5, 1), (2, 9, 11, 3, 1)]:
        assert fn(*st) == RULES_REDERIVED[name](*st)


@pytest.mark.parametrize("name", list(HUMAN))
def test_human_policies_depend_on_differences_above_goal(name):
    """Why tie rounds may be normalised to (13, 13): above the goal the human
    policies look only at score differences."""
    spec = RULES_REDERIVED[name]
    for p in (1, 2):
        for i in range(13, 20):
            for j in range(i, 30):
                for b in range(20):
                    for s in range(3):
                        for t in (1, 7, 40):
                            assert spec(p, i + t, j + t, b, s) == spec(p, i, j, b, s)


@pytest.mark.parametrize("name", list(HUMAN))
def test_human_policies_roll_at_every_turn_start(name):
    # so the model's forced first roll never overrides them
    spec = RULES_REDERIVED[name]
    starts = [(1, a, c) for a in range(13) for c in range(13)] + [(1, 13, 13)]
    starts += [(2, c, ap) for c in range(13) for ap in range(64)]
    starts += [(2, 13, ap) for ap in range(13, 64)]
    assert all(spec(p, i, j, 0, 0) for p, i, j in starts)


# ---- comparison -----------------------------------------------------------

def test_optimal_against_itself(yellow):
    r = compare_zombie(yellow.game, "optimal", solution=yellow)
    assert r["gap"] == pytest.approx(0.0, abs=1e-15)
    assert r["win_average"] == pytest.approx(0.5, abs=1e-15)
    assert r["win_as_first"] == yellow.first_player_win()
    assert r["agreement"] == 1.0
    for key in ("win_as_first", "win_as_second", "win_average", "agreement", "gap"):
        assert key in r


@pytest.mark.parametrize("name", list(HUMAN))
def test_human_policies_against_optimal(yellow, name):
    r = compare_zombie(yellow.game, name, solution=yellow)
    assert r["gap"] == pytest.approx(r["win_as_first"] + r["win_as_second"] - 1, abs=1e-15)
    assert -0.05 < r["gap"] < 0.0          # the optimal player is better, not by much
    assert r["win_as_first"] < yellow.first_player_win()
    assert r["win_as_second"] < 1 - yellow.first_player_win()
    assert 0.8 < r["agreement"] < 1.0
    # a policy against itself is an even match
    same = compare_zombie(yellow.game, name, against=name)
    assert same["gap"] == pytest.approx(0.0, abs=1e-15)
    assert same["agreement"] == 1.0


#: The published figures: all-yellow Zombie Dice, each policy's gap against the optimal player.
PUBLISHED_GAPS = {"fixed_hold_at": -0.0274, "minh": -0.0133, "llano": -0.0118,
                  "neller": -0.0100}


@pytest.fixture(scope="module")
def human_gaps(yellow):
    return {n: compare_zombie(yellow.game, n, solution=yellow)["gap"] for n in HUMAN}


@pytest.mark.parametrize("name", list(PUBLISHED_GAPS))
def test_human_policy_gaps_within_a_printed_unit(human_gaps, name):
    # every gap within one unit of the last printed digit of the published figure
    assert abs(human_gaps[name] - PUBLISHED_GAPS[name]) < 1e-4


@pytest.mark.parametrize("name", [
    "fixed_hold_at", "llano", "neller",
    pytest.param("minh", marks=pytest.mark.xfail(
        strict=True, reason="exact gap -0.013359 rounds to -0.0134; the published figure is -0.0133 "
                            "(reported to the lead; the code is not bent toward the figure)")),
])
def test_human_policy_gaps_match_the_published_figures(human_gaps, name):
    assert round(human_gaps[name], 4) == PUBLISHED_GAPS[name]


@pytest.mark.parametrize("pair", [("neller", "llano"), ("minh", "fixed_hold_at")])
def test_human_policy_matches_against_the_plain_reference(pair):
    """The package's human policies, evaluated by the package, against the
    rules re-derived in the tests, evaluated by plain value iteration,
    on a small all-yellow game (goal 4, scores up to 16: past 13, where the
    rules change)."""
    a, b = pair
    game = ZombieGame(goal=4, cap=16)
    r = compare_zombie(game, a, against=b)
    ref_first, _, _ = zombie_reference(2, 2, 2, 3, 3, 4, 16,
                                       policies=(RULES_REDERIVED[a], RULES_REDERIVED[b]))
    ref_second, _, _ = zombie_reference(2, 2, 2, 3, 3, 4, 16,
                                        policies=(RULES_REDERIVED[b], RULES_REDERIVED[a]))
    assert r["win_as_first"] == pytest.approx(ref_first[(1, 0, 0, 0, 0)], abs=1e-12)
    assert r["win_as_second"] == pytest.approx(1 - ref_second[(1, 0, 0, 0, 0)], abs=1e-12)


def test_custom_numba_policy(yellow):
    @njit
    def hold_at_3(p, i, j, b, s):
        return b < 3

    r = compare_zombie(yellow.game, hold_at_3, solution=yellow)
    assert r["policy"] == "hold_at_3" and r["gap"] < 0.0


def test_agreement_states_are_choices():
    g = ZombieGame()
    mask = decision_mask(g)
    assert not mask[:, :, :, 0, 0].any()           # the first roll is no choice
    assert not mask[1, 12, 5, 1:, :].any()         # 13 > 5: player 2 holds
    assert mask[0, 0, 0, 1:27, :].all()
    assert not mask[0, 0, 0, 27:, :].any()         # beyond the playing range
    assert not mask[0, 3, 20].any()                # not a round start


# ---- validation ----------------------------------------------------------

@pytest.mark.parametrize("kwargs,name", [
    (dict(brains=0), "brains"),
    (dict(brains=21), "brains"),
    (dict(shotguns=0), "shotguns"),
    (dict(footprints=-1), "footprints"),
    (dict(dice=0), "dice"),
    (dict(dice=11), "dice"),
    (dict(bust_shotguns=0), "bust_shotguns"),
    (dict(goal=0), "goal"),
    (dict(goal=101), "goal"),
    (dict(komi=-1), "komi"),
    (dict(komi=13), "komi"),
    (dict(cap=13), "cap"),
    (dict(cap=401), "cap"),
    (dict(dice=2.5), "dice"),
    (dict(brains=True), "brains"),
    (dict(goal=100, bust_shotguns=20), "cap"),  # table too large
])
def test_zombie_rules(kwargs, name):
    with pytest.raises(ParameterError) as info:
        ZombieGame(**kwargs)
    assert info.value.name == name
    assert f"invalid {name}=" in str(info.value) and "allowed" in str(info.value)


def test_presets_and_load_game():
    g = load_game("zombie-yellow")
    assert (g.brains, g.shotguns, g.footprints, g.dice, g.bust_shotguns, g.goal, g.komi,
            g.cap) == (2, 2, 2, 3, 3, 13, 0, 63)
    assert load_game("zombie", footprints=1, goal=9).cap == 59
    assert load_game("pig").goal == 100 and load_game("fowl-play").bad == 6
    with pytest.raises(DesignError, match="zombie-yellow does not take bad"):
        load_game("zombie-yellow", bad=3)


def test_policy_errors():
    g = ZombieGame()
    with pytest.raises(DesignError, match="unknown Zombie Dice policy 'max-score'"):
        policy_table(g, "max-score")
    with pytest.raises(DesignError, match="at most 3 shotguns"):
        policy_table(ZombieGame(bust_shotguns=4), "neller")
    with pytest.raises(DesignError, match="shape"):
        policy_table(g, np.zeros((2, 2), dtype=bool))
    with pytest.raises(DesignError, match="ZombieGame"):
        compare_zombie(load_game("pig"), "minh")


@pytest.mark.parametrize("args,needle", [
    (["solve", "zombie-yellow", "--dice", "0"], "invalid dice=0"),
    (["solve", "zombie", "--shotguns", "0"], "invalid shotguns=0"),
    (["solve", "zombie-yellow", "--cap", "10"], "invalid cap=10"),
    (["solve", "zombie-yellow", "--komi", "13"], "invalid komi=13"),
    (["solve", "zombie-yellow", "--bad", "2"], "zombie-yellow does not take --bad"),
    (["solve", "pig", "--brains", "2"], "pig does not take --brains"),
])
def test_cli_errors_are_one_line(args, needle):
    r = _cli(*args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_cli_solve_json(yellow):
    r = _cli("solve", "zombie-yellow", "--json", "--max-komi", "2")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for key in ("first_player_win", "expected_actions", "fair_komi", "komi_table", "states",
                "residual", "seconds"):
        assert key in out
    assert out["first_player_win"] == pytest.approx(yellow.first_player_win(), abs=1e-15)
    assert [row["komi"] for row in out["komi_table"]] == [0, 1, 2]
    assert out["residual"] <= 1e-12


def test_cli_solve_text_family():
    r = _cli("solve", "zombie", "--footprints", "1", "--goal", "8")
    assert r.returncode == 0, r.stderr
    assert "komi 0: no start points" in r.stdout and "first player wins" in r.stdout
    assert "fair komi" in r.stdout
