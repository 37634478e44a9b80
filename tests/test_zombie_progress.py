"""Progress of the long Zombie Dice solves: reported over score positions,
true totals, and tables that do not depend on it."""

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from designer.games import ZombieDiceGame, ZombieGame
from designer.solve.zombie import solve_zombie_game
from designer.solve.zombie_dice import solve_zombie_dice_game

ROOT = Path(__file__).resolve().parents[1]


class Record:
    def __init__(self):
        self.calls = []

    def __call__(self, done, total):
        self.calls.append((done, total))


def _check_calls(calls, game):
    G, cap = game.goal, game.cap
    total = 1 + G * (cap + 1 - G) + G * G
    assert calls[0] == (0, total)
    assert calls[-1] == (total, total)
    assert all(t == total for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done)
    assert len(calls) > 3  # more than a start and an end: it moves


def _same(a, b):
    assert np.array_equal(a.policy, b.policy)
    for name in ("win", "length"):
        x, y = getattr(a, name, None), getattr(b, name, None)
        if x is not None:
            assert np.array_equal(x, y)
    assert a.summary()["first_player_win"] == b.summary()["first_player_win"]
    assert a.summary()["expected_actions"] == b.summary()["expected_actions"]


@pytest.mark.parametrize("workers", [1, 2])
def test_full_zombie_dice_reports_every_position_and_solves_the_same(workers):
    game = ZombieDiceGame(green=3, yellow=2, red=1, goal=6, cap=10)
    rec = Record()
    with_bar = solve_zombie_dice_game(game, workers=workers, progress=rec)
    plain = solve_zombie_dice_game(game, workers=1)
    _check_calls(rec.calls, game)
    _same(with_bar, plain)


def test_all_yellow_reports_every_position_and_solves_the_same():
    game = ZombieGame(goal=8, cap=14)
    rec = Record()
    with_bar = solve_zombie_game(game, progress=rec)
    plain = solve_zombie_game(game)
    _check_calls(rec.calls, game)
    _same(with_bar, plain)


def test_the_solve_command_shows_a_bar_in_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "120"}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "solve", "zombie-dice", "--goal", "8",
                                           "--green", "3", "--yellow", "2", "--red", "1"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=300,
                          dimensions=(40, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    assert "solving Zombie Dice, score positions" in text
    assert re.search(r"\d+/\d+", text)
    assert "first player wins" in text


def test_play_at_level_hard_shows_the_bar_while_it_solves(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "120", "DESIGNER_DATA_DIR": str(tmp_path)}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", "zombie-dice", "--goal", "8",
                                           "--green", "3", "--yellow", "2", "--red", "1",
                                           "--level", "hard", "--first", "human"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=300,
                          dimensions=(40, 120))
    child.expect("solving Zombie Dice, score positions")
    child.expect("q = quit")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
