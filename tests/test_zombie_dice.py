"""Full Zombie Dice: the special case of 13 yellow dice, the slow
reference of ``zombie_dice_reference.py``, the transition arrays, the cap,
a seeded replay, validation and the command line."""

import json
import random

import numpy as np
import pytest
from cli_runner import cli as _cli
from zombie_dice_reference import zombie_dice_reference

from designer import DesignError, ParameterError, ZombieDiceGame, ZombieGame, load_game
from designer.solve import solve
from designer.solve.zombie_dice import turn_states

FACES = ((3, 1, 2), (2, 2, 2), (1, 3, 2))
EMPTY = ((0, 0, 0),) * 3


@pytest.fixture(scope="module")
def yellow13():
    # cap 63 = the all-yellow default, so both solve the same capped model
    return solve(ZombieDiceGame(0, 13, 0, cap=63))


@pytest.fixture(scope="module")
def all_yellow():
    return solve(load_game("zombie-yellow"))


def test_thirteen_yellow_dice_are_the_all_yellow_game(yellow13, all_yellow):
    assert yellow13.first_player_win() == pytest.approx(0.4701374, abs=1e-7)
    assert np.abs(yellow13.win - all_yellow.win).max() <= 1e-12
    assert np.abs(yellow13.actions - all_yellow.actions).max() <= 1e-12 * 200
    assert yellow13.tie_round_win == pytest.approx(all_yellow.tie_round_win, abs=1e-12)
    mask = np.abs(yellow13.second_win - all_yellow.second_win) <= 1e-12
    assert mask.all()
    # same decisions wherever the dice say the same (b, s): any hand works
    ts = yellow13.turn_states
    for p, i, j in [(1, 0, 0), (1, 5, 9), (2, 8, 11), (2, 3, 20), (1, 13, 13)]:
        for k in range(0, ts.count, 7):
            b_min = int(ts.brains_aside[k])
            for b in range(b_min, b_min + 8):
                cfg = tuple(int(v) for v in ts.configs[k])
                assert yellow13.decision(p, i, j, b, cfg) == all_yellow.decision(
                    p, i, j, b, int(ts.shotguns[k])), (p, i, j, b, cfg)


def test_configuration_count_of_thirteen_yellow_dice():
    """One colour: configurations ``(B, S, F)`` with ``S <= 2``, ``F <= 3``
    and ``3 <= B + S + F <= 13`` (every roll leaves three more dice out of
    the cup than the shotguns already aside), plus the empty one:
    sum over (S, F) of ``13 - t - max(0, 3 - t) + 1`` with ``t = S + F``, = 128,
    + 1 = 129."""
    direct = sum(13 - (s + f) - max(0, 3 - s - f) + 1 for s in range(3) for f in range(4))
    assert direct + 1 == 129
    assert turn_states(ZombieDiceGame(0, 13, 0)).count == 129


@pytest.mark.parametrize("game", [ZombieDiceGame(2, 2, 1, goal=3),
                                  ZombieDiceGame(2, 1, 1, dice=2, bust_shotguns=2, goal=3),
                                  ZombieDiceGame(0, 13, 0, goal=3)])
def test_outcome_probabilities_sum_to_one(game):
    ts = turn_states(game)
    total = ts.prob.sum(axis=1) + ts.stay
    assert np.abs(total - 1.0).max() <= 1e-14
    assert (ts.prob[ts.nxt == -2] == 0).all() and (ts.prob[ts.nxt >= -1] > 0).all()
    # brainless successors come later in the sweep order; brains are gained only
    later = (ts.nxt >= 0) & (ts.gain == 0)
    rows = np.nonzero(later)[0]
    assert (ts.nxt[later] > rows).all()
    assert (ts.gain >= 0).all() and ts.configs[0].sum() == 0


def _cup_runs_short(counts, dice, bust):
    """Some reachable configuration makes the cup return its brains."""
    ts = turn_states(ZombieDiceGame(*counts, dice=dice, bust_shotguns=bust, goal=2))
    for cfg in ts.configs:
        B, S, F = cfg[0:3], cfg[3:6], cfg[6:9]
        if (np.array(counts) - B - S - F).sum() < dice - F.sum():
            return True
    return False


@pytest.mark.parametrize("counts,dice,K,G,cap", [
    ((2, 1, 1), 2, 2, 3, 6),   # 4 dice, two per roll: the cup runs short all the time
    ((2, 2, 1), 3, 3, 2, 4),   # the real roll (3 dice, 3 shotguns bust) on 5 dice
])
def test_matches_reference(counts, dice, K, G, cap):
    assert _cup_runs_short(counts, dice, K)
    P, L, roll = zombie_dice_reference(counts, FACES, dice, K, G, cap)
    sol = solve(ZombieDiceGame(*counts, dice=dice, bust_shotguns=K, goal=G, cap=cap))
    assert sol.residual <= 1e-12
    for a in range(G):
        for c in range(G):
            assert sol.win[a, c] == pytest.approx(P[(1, a, c, 0, EMPTY)], abs=1e-9)
            assert sol.actions[a, c] == pytest.approx(L[(1, a, c, 0, EMPTY)], rel=1e-9)
    assert sol.tie_round_win == pytest.approx(P[(1, G, G, 0, EMPTY)], abs=1e-9)
    for c in range(G + 1):
        for ap in range(cap + 1):
            if (2, c, ap, 0, EMPTY) in P:
                assert sol.second_win[c, ap] == pytest.approx(P[(2, c, ap, 0, EMPTY)], abs=1e-9)
    for (p, i, j, b, d), r in roll.items():
        assert (sol.decision(p, i, j, b, d[0] + d[1] + d[2]) == "roll") == r


def test_cap_does_not_matter():
    g = ZombieDiceGame(2, 2, 1, goal=5)
    assert g.cap == g.goal + 30
    a, b = solve(g), solve(ZombieDiceGame(2, 2, 1, goal=5, cap=g.cap + 20))
    assert np.abs(a.win - b.win).max() <= 1e-14
    assert np.abs(a.actions - b.actions).max() <= 1e-11
    assert a.tie_round_win == pytest.approx(b.tie_round_win, abs=1e-14)
    G, cap = g.goal, g.cap
    # the policy agrees at every state of the smaller model's rounds
    assert np.array_equal(a.policy[0, :G, :G], b.policy[0, :G, :G, :cap])
    assert np.array_equal(a.policy[1, :G, :G], b.policy[1, :G, :G, :cap])
    # far too low a cap is a real truncation
    low = solve(ZombieDiceGame(2, 2, 1, goal=5, cap=7))
    assert abs(low.first_player_win() - a.first_player_win()) > 1e-6


def _replay(sol, games, seed):
    """Play ``games`` games of optimal against optimal from the rules; return
    player 1's wins. Dice are drawn one at a time from a physical cup."""
    g = sol.game
    G, cap = g.goal, g.cap
    rng = random.Random(seed)
    wins = 0
    for _ in range(games):
        score = [0, g.komi]
        while True:
            for p in (0, 1):
                i, j = score[p], score[1 - p]
                cup = [c for c in range(3) for _ in range(g.counts[c])]
                B, S, F = [0, 0, 0], [0, 0, 0], [0, 0, 0]
                b = 0
                while True:
                    hand = [c for c in range(3) for _ in range(F[c])]
                    need = g.dice - len(hand)
                    if len(cup) < need:
                        cup += [c for c in range(3) for _ in range(B[c])]
                        B = [0, 0, 0]
                    for _ in range(need):
                        hand.append(cup.pop(rng.randrange(len(cup))))
                    F = [0, 0, 0]
                    for c in hand:
                        face = rng.choices((0, 1, 2), weights=g.faces[c])[0]
                        (B, S, F)[face][c] += 1
                        b += face == 0
                    if sum(S) >= g.bust_shotguns:
                        b = 0
                        break
                    bf = cap - i if p == 0 else min(max(G, j + 1), cap) - i
                    if b >= bf:  # the model's forced hold (the cap, or a winning total)
                        b = bf
                        break
                    if sol.decision(p + 1, i, j, b, tuple(B + S + F)) == "hold":
                        break
                score[p] += b
            if max(score) >= G and score[0] != score[1]:
                wins += score[0] > score[1]
                break
            if max(score) >= G:  # a tie round: only the difference matters
                score = [G, G]
    return wins


def test_seeded_replay_agrees_with_exact_value():
    sol = solve(ZombieDiceGame(2, 2, 1, goal=5))
    n = 3000
    wins = _replay(sol, n, seed=20261122)
    p = sol.first_player_win()
    se = (p * (1 - p) / n) ** 0.5
    assert abs(wins / n - p) <= 3 * se


# ---- rules, validation, command line ---------------------------------------

def test_preset_and_family():
    g = load_game("zombie-dice")
    assert g.counts == (6, 4, 3) and g.faces == FACES and g.goal == 13 and g.komi == 0
    f = load_game("zombie", green=4, yellow=5, red=4, komi=1)
    assert isinstance(f, ZombieDiceGame) and f.counts == (4, 5, 4) and f.komi == 1
    assert load_game("zombie", yellow=6).counts == (0, 6, 0)
    assert isinstance(load_game("zombie"), ZombieGame)  # all-yellow model unchanged
    assert isinstance(load_game("zombie-yellow"), ZombieGame)


@pytest.mark.parametrize("params,match", [
    ({"green": -1}, "invalid green=-1"),
    ({"green": 1, "yellow": 1, "red": 1}, "invalid green \\+ yellow \\+ red=3"),
    ({"green": 21}, "invalid green=21"),
    ({"red_faces": (1, 3)}, "invalid red_faces"),
    ({"red_faces": (0, 0, 0)}, "invalid red_faces"),
    ({"green": 5, "yellow": 0, "red": 0, "green_faces": (0, 1, 2)}, "a brain face"),
    ({"green": 5, "yellow": 0, "red": 0, "green_faces": (1, 0, 2)}, "a shotgun face"),
    ({"goal": 0}, "invalid goal=0"),
    ({"komi": 13}, "invalid komi=13"),
    ({"cap": 13}, "invalid cap=13"),
])
def test_validation(params, match):
    with pytest.raises(ParameterError, match=match):
        ZombieDiceGame(**params)


def test_decision_validation(yellow13):
    with pytest.raises(ParameterError, match="config"):
        yellow13.decision(1, 0, 0, 0, (0,) * 8 + (7,))
    with pytest.raises(ParameterError, match="invalid b=0"):
        yellow13.decision(1, 0, 0, 0, (0, 3, 0) + (0,) * 6)
    assert yellow13.decision(1, 0, 0, 0, EMPTY[0] * 3) == "roll"


def test_cli_solve_and_errors():
    r = _cli("solve", "zombie", "--green", "2", "--yellow", "2", "--red", "1", "--goal", "4",
             "--komi", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"]["green"] == 2 and out["game"]["komi"] == 1
    assert out["configurations"] == turn_states(ZombieDiceGame(2, 2, 1)).count
    assert 0.0 < out["first_player_win"] < 1.0
    for args, text in [(("--green", "1"), "invalid green + yellow + red=1"),
                       (("--green", "6", "--green-faces", "1,x"), "invalid --green-faces='1,x'")]:
        r = _cli("solve", "zombie", *args)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.strip().count("\n") == 0 and text in r.stderr
    with pytest.raises(DesignError):
        load_game("zombie-dice", brains=3)
