"""``designer play`` for Zombie Dice: the rules engine (all-yellow and full), the
computer players, seeded replays against the exact solvers, and the
terminal game through a pseudo-terminal."""

import json
import os
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, factorial, sqrt
from pathlib import Path

import numpy as np
import pytest

from designer.errors import DesignError
from designer.games import ZombieDiceGame, ZombieGame, load_game
from designer.play import make_player
from designer.play.engine import IllegalMove, new_game, random_outcome, step
from designer.play.session import check_playable
from designer.play.zombie_engine import FACES, ZombieState
from designer.policies.zombie import policy_table
from designer.solve import evaluate_zombie_match, solve

ROOT = Path(__file__).resolve().parents[1]

#: A small full game whose cup runs short often (5 dice, 3 per roll).
SMALL = ZombieDiceGame(green=2, yellow=2, red=1, goal=5)


@pytest.fixture(scope="module")
def small_solution():
    return solve(SMALL)


@pytest.fixture(scope="module")
def yellow_solution():
    return solve(load_game("zombie-yellow"))


def _exact_roll(game, state):
    """Exact distribution of (brains set aside, shotguns, hand, b, bust)
    after one roll from ``state``, written from full Zombie Dice's rules: return the brains
    if the cup is short, draw the missing dice without replacement
    (hypergeometric by colour), roll every die (each face equally likely)."""
    N = game.counts
    B, S, F = list(state.brains), list(state.shotguns), list(state.hand)
    cup = [N[c] - B[c] - S[c] - F[c] for c in range(3)]
    need = game.dice - sum(F)
    if sum(cup) < need:
        cup = [cup[c] + B[c] for c in range(3)]
        B = [0, 0, 0]
    out = Counter()
    for d in product(*(range(min(cup[c], need) + 1) for c in range(3))):
        if sum(d) != need:
            continue
        p_draw = Fraction(np.prod([comb(cup[c], d[c]) for c in range(3)]), comb(sum(cup), need))
        m = [F[c] + d[c] for c in range(3)]
        per_colour = []
        for c in range(3):
            opts = []
            faces = game.faces[c]
            T = sum(faces)
            for x in range(m[c] + 1):
                for y in range(m[c] + 1 - x):
                    z = m[c] - x - y
                    q = (Fraction(factorial(m[c]), factorial(x) * factorial(y) * factorial(z))
                         * Fraction(faces[0], T) ** x * Fraction(faces[1], T) ** y
                         * Fraction(faces[2], T) ** z)
                    if q:
                        opts.append(((x, y, z), q))
            per_colour.append(opts)
        for combo in product(*per_colour):
            q = p_draw
            nb, ns, nf = list(B), list(S), [0, 0, 0]
            for c, ((x, y, z), qc) in enumerate(combo):
                q *= qc
                nb[c] += x
                ns[c] += y
                nf[c] = z
            bust = sum(ns) >= game.bust_shotguns
            key = ("bust",) if bust else (tuple(nb), tuple(ns), tuple(nf),
                                          state.b + sum(x for (x, _, _), _ in combo))
            out[key] += q
    return out


def _observed(state, rng, n):
    seen = Counter()
    for _ in range(n):
        nxt, ev = step(state, "roll", random_outcome(state, rng))
        seen[("bust",) if ev.bust else (nxt.brains, nxt.shotguns, nxt.hand, nxt.b)] += 1
    return seen


@pytest.mark.parametrize("where", ["turn start", "cup short"])
def test_roll_frequencies_match_the_exact_distribution(where):
    """Seeded rolls from a position hit every outcome with the exact chance
    of the full game's rules (each within 4 standard errors), and nothing else."""
    s = new_game(SMALL)
    if where == "cup short":  # 2 brains and 1 shotgun aside, 1 footprint die in hand: cup 1 < 2
        s = ZombieState(SMALL, (0, 0), b=3, brains=(1, 1, 0), shotguns=(1, 0, 0),
                        hand=(0, 0, 1), rolled=True)
        assert s.returns_brains() and s.cup() == (0, 1, 0)
    exact = _exact_roll(SMALL, s)
    assert sum(exact.values()) == 1
    n = 20000
    seen = _observed(s, np.random.default_rng(5), n)
    assert set(seen) <= set(exact)
    for key, p in exact.items():
        p = float(p)
        assert abs(seen[key] / n - p) <= 4 * sqrt(p * (1 - p) / n) + 1e-9, (key, seen[key], p)


def test_brains_go_back_when_the_cup_runs_short():
    s = ZombieState(SMALL, (2, 1), b=4, brains=(2, 1, 0), shotguns=(0, 1, 0),
                    hand=(0, 0, 1), rolled=True)
    assert s.cup() == (0, 0, 0) and s.returns_brains()
    with pytest.raises(IllegalMove):  # the red footprint die in hand is rolled first
        step(s, "roll", ((0, "brain"), (1, "brain"), (2, "brain")))
    nxt, ev = step(s, "roll", ((2, "footprint"), (0, "brain"), (1, "footprint")))
    assert ev.reshuffled and not ev.bust
    assert nxt.b == 5 and nxt.brains == (1, 0, 0) and nxt.hand == (0, 1, 1)
    assert nxt.shotguns == (0, 1, 0)


def test_rounds_ties_and_the_second_players_winning_hold():
    g = ZombieDiceGame(green=2, yellow=2, red=1, goal=5)
    s = ZombieState(g, (4, 3), mover=0, b=1, brains=(1, 0, 0), shotguns=(0, 0, 0),
                    hand=(0, 0, 0), rolled=True)
    s, _ = step(s, "hold")
    assert s.mover == 1 and s.scores == (5, 3) and not s.over  # seat 2 still plays the round
    with pytest.raises(IllegalMove):
        step(s, "hold")  # the first roll is forced
    # seat 2 reaches 6 > 5: the engine holds and seat 2 wins at once
    s2, ev = step(s, "roll", ((0, "brain"), (0, "brain"), (1, "brain")))
    assert ev.won and s2.winner == 1 and s2.scores == (5, 6)
    # seat 2 ties at 5: another full round, the tie kept for the solver's shift
    s3, ev = step(s, "roll", ((0, "brain"), (0, "brain"), (1, "footprint")))
    assert not ev.won and s3.b == 2
    s4, _ = step(s3, "hold")
    assert s4.tie == 5 and s4.mover == 0 and not s4.over
    # a bust at the end of the round leaves 5 > 3: seat 1 wins
    s5, ev = step(s, "roll", ((0, "shotgun"), (1, "shotgun"), (2, "shotgun")))
    assert ev.bust and s5.winner == 0


def _play(game, players, rng):
    s = new_game(game)
    actions = 0
    while not s.over:
        a = players[s.mover].decide(s)
        s, _ = step(s, a, None if a == "hold" else random_outcome(s, rng))
        actions += 1
    return s.winner, actions


def _within(wins, n, p):
    se = sqrt(p * (1 - p) / n)
    return abs(wins / n - p) <= 3 * se, (wins / n, p, se)


def test_optimal_replay_matches_the_full_solver(small_solution):
    """Seeded games between two optimal players through the engine: the
    first player's win rate is the solver's within 3 standard errors."""
    hard = make_player("hard", small_solution)
    rng = np.random.default_rng(11)
    n = 3000
    wins = sum(_play(SMALL, (hard, hard), rng)[0] == 0 for _ in range(n))
    ok, info = _within(wins, n, small_solution.first_player_win())
    assert ok, info


def test_neller_against_optimal_replay_matches_the_exact_match(yellow_solution):
    """All-yellow Zombie Dice (goal 13): neller as player 1 against the
    optimal player, replayed, against the exact match evaluator."""
    game = yellow_solution.game
    exact = evaluate_zombie_match(game, policy_table(game, "neller"), yellow_solution.policy)
    p = exact["first_player_win"]
    medium, hard = make_player("medium", yellow_solution), make_player("hard", yellow_solution)
    rng = np.random.default_rng(3)
    n = 3000
    wins = sum(_play(game, (medium, hard), rng)[0] == 0 for _ in range(n))
    ok, info = _within(wins, n, p)
    assert ok, info


def test_players_and_refusals(small_solution):
    assert make_player("easy", small_solution).name == "fixed_hold_at"
    assert make_player("medium", small_solution).name == "neller"
    with pytest.raises(DesignError, match="--nn"):
        make_player("hard", small_solution, nn="x.npz")
    check_playable(SMALL)
    check_playable(ZombieGame())
    with pytest.raises(DesignError, match="test-mode"):
        check_playable(SMALL, test_mode=True)
    s = new_game(SMALL)
    assert s.legal() == ("roll",)
    with pytest.raises(IllegalMove):
        step(s, "roll", ((0, "brain"),))  # three dice per roll
    with pytest.raises(IllegalMove):
        step(s, "roll", ((2, "brain"), (2, "brain"), (0, "brain")))  # one red die in the cup
    assert all(f in FACES for _, f in random_outcome(s, np.random.default_rng(0)))


def test_session_plays_zombie_at_medium_without_a_solve(tmp_path, monkeypatch):
    """Easy and medium Zombie Dice need no solve: the session runs on the
    game alone, follows the rules (the first roll forced) and records it."""
    from test_play_session import RecordingView, ScriptedKeys

    from designer.play.session import Session, needs_solution

    game = load_game("zombie-yellow")
    assert not needs_solution(game, "medium") and needs_solution(game, "hard")
    assert needs_solution(load_game("pig"), "easy")  # the analysis values dice decisions
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    view = RecordingView()
    keys = ["h", "d", "d", "h"] * 400  # a refused hold, two rolls, a hold
    s = Session(None, make_player("medium", None, game=game), view, level="medium",
                pause=0.0, seed=5, keys=ScriptedKeys(keys), game=game)
    assert s.run() == 0
    r = view.result
    assert r["state"].over and not r["quit"] and r["analysed"] is False
    assert r["counts"] == {"games": 1, "wins": int(r["state"].winner == 0), "quits": 0}
    assert any(h and "roll at least once" in h for _, _, h in view.boards)
    for event, state in view.events:  # every roll throws the game's 3 dice
        assert event.action == "hold" or len(event.outcome) == game.dice


# -- the terminal game ------------------------------------------------------

pexpect = pytest.importorskip("pexpect")
MOVE = r"\(turn total (\d+)\): d or space = roll(, h = hold)?"


def test_cli_plays_a_full_zombie_game_and_records_it(tmp_path):
    args = ["zombie", "--green", "2", "--yellow", "2", "--red", "1", "--goal", "5",
            "--seed", "2", "--no-pause", "--level", "hard"]
    from test_play_cli import clean, spawn

    child = spawn(args, tmp_path)
    child.expect("level hard")
    board = ""
    for _ in range(300):
        i = child.expect([MOVE, "You win", "The computer wins"])
        board += clean(child.before)
        if i > 0:
            break
        k, can_hold = int(child.match.group(1)), bool(child.match.group(2))
        child.send("h" if can_hold and k >= 2 else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    tail = clean(child.before)
    child.close()
    assert child.exitstatus == 0
    for word in ("cup", "in hand", "brains", "shotguns", "rounds to 5", "green", "yellow"):
        assert word in board, word
    assert "covers deck and dice games" in tail
    assert "Your record at level hard on this design: 1 game" in tail
    stats = json.loads((tmp_path / "play-stats.json").read_text())
    (key,) = stats["designs"]
    assert key.startswith("zombie:green=2,yellow=2,red=1")


def test_cli_refuses_zombie_test_mode(tmp_path):
    import subprocess

    r = subprocess.run([sys.executable, "-m", "designer", "play", "zombie-yellow",
                        "--test-mode"], capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "DESIGNER_DATA_DIR": str(tmp_path)}, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--test-mode" in r.stderr
    assert not (tmp_path / "play-stats.json").exists()
