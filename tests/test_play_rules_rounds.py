"""``designer play`` of rules games under the rounds ending
(designer/play/rules_engine.py): the values the hard level plays equal the
rounds solve's turn starts, scripted games follow the rules of rounds and
ties, and the command plays The Great Rolled Ones in a pseudo-terminal."""

import dataclasses
import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from test_play_rules import RecordingView, Keys

from designer.engine.game import load_rules_game
from designer.play import make_player
from designer.play import rules_engine as R
from designer.play.session import Session

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name, goal", [("great-rolled-ones", 12), ("piglet", 5)])
def test_turn_starts_equal_the_rounds_solve(name, goal):
    game = load_rules_game(name, goal=goal, ending="rounds")
    sol = R.solve(game)
    r = sol.result
    err = 0.0
    for a in range(goal):
        for b in range(goal):
            for h, _ in enumerate(r.start_states):
                s = int(r.start_states[h])
                v1 = sol.turn(("seat1", a, b)).value(s, 0, fresh=True)
                v2 = sol.turn(("seat2", b, a)).value(s, 0, fresh=True)
                err = max(err, abs(v1 - r.X[a, b, h]), abs(v2 - r.Y[b, a, h]))
    for d in range(1, r.cap + 1):
        err = max(err, abs(sol.turn(("final", d)).value(0, 0, fresh=True) - r.F[d, 0]))
    if game.rules.ties == "replay":
        err = max(err, abs(sol.turn(("tie1",)).value(0, 0, fresh=True) - r.T[0]))
    assert err < 1e-12
    # the opening: the best action's value is seat 1's win
    st = R.new_game(game)
    values = sol.action_values(st)
    assert max(values.values()) == pytest.approx(r.first_player_win, abs=1e-12)


def _session(game, level, keys, tmp_path, monkeypatch, seed=3, first="human"):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    sol = R.solve(game)
    view = RecordingView()
    s = Session(sol, make_player(level, sol, game=game), view, level=level, pause=0.0,
                seed=seed, keys=Keys(keys), first=first)
    return s, view


@pytest.mark.parametrize("ties, seed", [("earlier-seat", 5), ("replay", 8)])
def test_a_scripted_game_plays_in_rounds(ties, seed, tmp_path, monkeypatch):
    """Piglet to 4 in rounds against the hard level: replayed from the
    rules of the rounds ending (a coin: tails, below 1/2, busts)."""
    game = load_rules_game("piglet", goal=4, ending="rounds")
    game = dataclasses.replace(game, rules=dataclasses.replace(game.rules, ties=ties))
    keys = ["d", "d", "h"] * 200
    s, view = _session(game, "hard", keys, tmp_path, monkeypatch, seed=seed)
    assert s.run() == 0
    rng = np.random.default_rng(seed)
    scores, mover, t, rnd, tie, winner = [0, 0], 0, 0, 1, False, None

    def end_turn():
        nonlocal mover, t, rnd, tie, winner
        t = 0
        if mover == 0:
            mover = 1
            return
        mover = 0
        a, b = scores
        if max(a, b) < 4:
            rnd, tie = rnd + 1, False
        elif a == b and ties == "replay":
            rnd, tie = rnd + 1, True
        else:
            winner = 0 if a >= b else 1

    for event, after in view.events:
        assert event.seat == mover
        if event.action == "hold":
            scores[mover] += t
            end_turn()
        else:
            heads = rng.random() >= 0.5
            assert event.bust == (not heads)
            if heads:
                t += 1
                # seat 2 banks at once where holding wins
                if mover == 1 and scores[1] + t >= 4 and scores[1] + t > scores[0]:
                    scores[1] += t
                    winner = 1
            else:
                end_turn()
        assert list(after.scores) == scores and after.k == t
        assert after.round == rnd and after.tie == tie
        if winner is not None:
            assert after.winner == winner
            break
        assert after.mover == mover
    assert view.events[-1][1].over
    assert view.result["state"].winner == winner
    assert view.result["analysed"]
    # the board names the round
    assert all(st.ending_words.startswith("round ") for st, _, _ in view.boards)


def test_the_hard_level_plays_the_best_action():
    game = load_rules_game("great-rolled-ones", goal=10)
    sol = R.solve(game)
    st = R.new_game(game)
    st, _ = R.step(st, ("go", 0), outcome=int(game.rules.model.out_start[0]) + 3)
    values = sol.action_values(st)
    best = make_player("hard", sol, game=game).decide(st)
    assert values[best] == max(values.values())


def play_in_a_terminal(tmp_path, args, hold_from):
    """``designer play ARGS`` in a pseudo-terminal, the computer first: roll
    until the turn total reaches ``hold_from``, then bank, to the end of
    the game; checks the record line and exit status 0."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "100", "LINES": "50"}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", *args, "--first",
                                           "computer", "--no-pause"],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=120,
                          dimensions=(50, 100))
    child.expect(r"Computer \(first\)")
    child.expect("round 1")
    move = r"\(turn total (\d+)\): d or space = roll(, h = (?:pass|stop and bank \d+))?"
    for _ in range(500):
        i = child.expect([move, "You win", "The computer wins"])
        if i > 0:
            break
        child.send("h" if child.match.group(2) and int(child.match.group(1)) >= hold_from
                   else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    tail = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    assert "Your record at level medium on this design: 1 game" in tail
    child.close()
    assert child.exitstatus == 0


def test_the_command_plays_the_great_rolled_ones(tmp_path):
    play_in_a_terminal(tmp_path, ["great-rolled-ones", "--goal", "8", "--seed", "2"], 3)
