"""``designer play`` of rules games (designer/play/rules_engine.py): the
optimal values the computer plays and the analysis uses, scripted games
through the terminal loop with keys fed in and a view that records what it
is asked to draw, and the command in a pseudo-terminal."""

import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from designer._jit import TIE
from designer.engine.game import RulesGame, load_rules_game
from designer.engine.model import BUST, CHOOSE, END
from designer.engine.rulesfile import parse_rules
from designer.play import make_player
from designer.play import rules_engine as R
from designer.play.session import Session, check_playable
from designer.play.stats import design_key, load

ROOT = Path(__file__).resolve().parents[1]

HOG = ("goal = 12\n[dice]\ncount = [1, 3]\nsides = 6\nface.1 = { bust = true }\n"
       "one_throw = true\nbust_points = 1\n")
#: Fowl Play's rules with a deck of 2 bad and 4 good items, to 5.
SMALL_DECK = ('name = "small deck"\ngoal = 5\n[turn]\nforced_first = true\n'
              '[deck]\nbad = 2\ngood = 4\nreshuffle = "last-bad"\n')


def _game(text, name):
    return RulesGame(parse_rules(text), name, (0, 0))


GAMES = {
    "piglet": lambda: load_rules_game("piglet", goal=6),
    "hog": lambda: _game(HOG, "<hog>"),
    "small deck": lambda: _game(SMALL_DECK, "<deck>"),
    "farkle": lambda: load_rules_game("farkle", goal=300),
}


# -- the optimal values -------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_turn_values_at_every_turn_start_equal_the_engine(name):
    game = GAMES[name]()
    sol = R.solve(game)
    r = sol.result
    goal, lo = game.rules.goal, r.floor
    checked = 0
    for i in range(lo, goal):
        for j in range(lo, goal):
            tv = R.TurnValues(sol, i, j)
            for h in r.start_states:
                w = tv.value(int(h), 0, fresh=True)
                assert w == pytest.approx(r.win[i - lo, j - lo, list(r.start_states).index(h)],
                                          abs=1e-12), (name, i, j, h)
                checked += 1
    assert checked == (goal - lo) ** 2 * len(r.start_states)
    # and at a turn start the value is the best legal action's (no stop
    # under a forced first throw)
    st = R.new_game(game)
    values = sol.action_values(st)
    assert (R.STOP in values) == (not game.rules.model.forced_first)
    assert max(values.values()) == pytest.approx(sol.start_value(0, 0, 0), abs=1e-12)


def test_piglet_to_two_is_four_sevenths():
    """The first player's win at Piglet to 2 under optimal play is 4/7
    (Neller and Presser): from the turn recursion as from the table."""
    game = load_rules_game("piglet", goal=2)
    sol = R.solve(game)
    assert R.TurnValues(sol, 0, 0).value(0, 0, fresh=True) == pytest.approx(
        float(Fraction(4, 7)), abs=1e-12)


def test_ties_go_as_the_solver_breaks_them():
    st = R.RulesState(load_rules_game("hog", goal=20), (0, 0))
    a, b = ("go", 3), ("go", 4)
    assert R.best_action(st, {a: 0.5, b: 0.5}) == a  # the first listed
    assert R.best_action(st, {a: 0.5, b: 0.5 + 1e-15}) == b  # exact comparison
    t0 = R.RulesState(load_rules_game("piglet"), (0, 0))
    t1 = R.RulesState(load_rules_game("piglet"), (0, 0), t=1, fresh=False)
    for st, stop_wins in ((t0, False), (t1, True)):  # a pass loses a tie, a stop wins it
        assert (R.best_action(st, {R.STOP: 0.5, ("go", 0): 0.5 + TIE / 2}) == R.STOP) \
            == stop_wins
    assert R.best_action(t1, {R.STOP: 0.5, ("go", 0): 0.5 + 2 * TIE}) == ("go", 0)


def test_the_hard_player_takes_the_action_of_largest_value():
    game = load_rules_game("farkle", goal=1000)
    sol = R.solve(game)
    player = make_player("hard", sol, game=game)
    rng = np.random.default_rng(5)
    st = R.new_game(game)
    for _ in range(200):
        if st.over:
            break
        values = sol.action_values(st)
        act = player.decide(st)
        assert values[act] >= max(values.values()) - TIE
        out = R.random_outcome(st, act, rng) if act[0] == "go" else None
        st, _ = R.step(st, act, out)
    assert st.over


def test_the_simple_players_stop_at_their_share_of_the_goal():
    game = load_rules_game("piglet", goal=10)  # a coin: heads +1, tails busts
    easy, medium = (make_player(lv, None, game=game) for lv in ("easy", "medium"))
    at = [R.RulesState(game, (0, 0), t=t, fresh=t == 0) for t in range(6)]
    # easy: 20% of 10 = 2; medium: 35% -> 4, but a coin flip at t = 2 is
    # expected to lose 1/2 * 2 - 1/2 * 1 = 1/2 point: it stops there
    assert [easy.decide(s) == R.STOP for s in at] == [False, False, True, True, True, True]
    assert [medium.decide(s) == R.STOP for s in at] == [False, False, True, True, True, True]
    hog = load_rules_game("hog", goal=100)
    st = R.new_game(hog)
    # Hog: the count of most expected points; n dice score 1 with chance
    # 1 - (5/6)^n, else 4 n on average
    gains = [(5 / 6) ** n * 4 * n + (1 - (5 / 6) ** n) for n in range(1, 11)]
    best = 1 + int(np.argmax(gains))
    chosen = make_player("easy", None, game=hog).decide(st)
    assert R.action_words(st, chosen) == f"throw {best} dice"
    assert make_player("medium", None, game=hog).decide(st) == chosen


# -- the terminal loop --------------------------------------------------------

class Keys:
    """Keys from a list, or from a function of the board being shown."""

    def __init__(self, keys=(), react=None, view=None):
        self.keys, self.react, self.view = list(keys), react, view

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def flush(self):
        pass

    def read(self):
        if self.react is not None:
            return self.react(self.view.boards[-1])
        return self.keys.pop(0) if self.keys else ""


class RecordingView:
    def __init__(self):
        self.boards, self.events, self.lines, self.result = [], [], [], None

    def show_board(self, state, names, title, log, last=None, prompt=None, hint=None):
        self.boards.append((state, prompt, hint))

    def describe_event(self, event, state, names):
        from designer.report.play_view import describe_event

        self.events.append((event, state))
        line = describe_event(event, state, names)
        self.lines.append(line)
        return line

    def clear_screen(self):
        pass

    def show_result(self, state, names, human, worst, decisions, counts, level, quit=False,
                    not_recorded=None, analysed=True):
        self.result = dict(state=state, human=human, worst=worst, decisions=decisions,
                           counts=counts, quit=quit, analysed=analysed)


def _session(game, level, keys, tmp_path, monkeypatch, seed=7, first="human"):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    sol = R.solve(game)
    view = RecordingView()
    if callable(keys):
        k = Keys(react=keys, view=view)
    else:
        k = Keys(keys)
    s = Session(sol, make_player(level, sol, game=game), view, level=level, pause=0.0,
                seed=seed, keys=k, first=first)
    return s, view


def replay_piglet(events, seed, players, goal):
    """Replay a game of Piglet from its rules (a fair coin: tails, drawn when
    the seeded uniform falls below 1/2, loses the turn; heads adds 1; seats
    in turn), not from the model: every event and the score after it.
    Returns the winner."""
    rng = np.random.default_rng(seed)
    scores, mover, t = [0] * players, 0, 0
    for event, after in events:
        assert event.seat == mover
        if event.action == "hold":
            scores[mover] += t
            assert event.gained == t
            mover, t = (mover + 1) % players, 0
        else:
            heads = rng.random() >= 0.5
            assert event.bust == (not heads)
            if heads:
                t += 1
                if scores[mover] + t >= goal:
                    scores[mover] += t
                    assert event.won and after.winner == mover
                    return mover
            else:
                mover, t = (mover + 1) % players, 0
        assert list(after.scores) == scores and after.mover == mover and after.k == t
    raise AssertionError("the game did not end")


def test_a_scripted_piglet_game_follows_the_rules(tmp_path, monkeypatch):
    game = load_rules_game("piglet", goal=3)
    # a bad key, a number no continuation has, then roll twice and stop, again and again
    keys = ["x", "7"] + ["d", " ", "h"] * 100
    s, view = _session(game, "medium", keys, tmp_path, monkeypatch, seed=11)
    assert s.run() == 0
    hints = [h for _, _, h in view.boards if h]
    assert hints[0] == ("Key 'x' does nothing here: d or space = roll, h = pass, q = quit.")
    assert hints[1] == "There is no choice 7: type 1..1."
    assert all("\n" not in h for h in hints)
    mover = replay_piglet(view.events, 11, 2, 3)  # from the rules, not the model
    assert view.events[-1][1].over
    r = view.result
    assert r["state"].winner == mover and r["state"].scores[mover] == 3 and not r["quit"]
    assert r["analysed"] and r["decisions"]
    # the record: one game, won or not as played, the decisions valued
    counts = load(tmp_path / "play-stats.json")["designs"][design_key(game)]["levels"]["medium"]
    assert counts["games"] == 1 and counts["wins"] == int(mover == 0) and counts["quits"] == 0
    assert counts["decisions"] == len(r["decisions"]) and "moves" not in counts
    assert counts["loss"] == pytest.approx(sum(d.cost for d in r["decisions"]), abs=1e-15)
    assert design_key(game) == "rules:rules=piglet,goal=3,komi=0"


def test_a_forced_first_draw_refuses_a_stop_in_one_line(tmp_path, monkeypatch):
    game = load_rules_game("rules:fowl-play", goal=5)
    s, view = _session(game, "easy", ["h", "d", "q"], tmp_path, monkeypatch)
    assert s.run() == 0
    hint = next(h for _, _, h in view.boards if h)
    assert hint == "You cannot stop now: the first throw or draw of a turn is forced."
    assert view.events and view.events[0][0].action == "go"  # the game went on
    assert view.result["quit"]
    # the deck persists: the next turn starts where the draw left it
    ev, after = view.events[0]
    model = game.rules.model
    assert model.describe(after.s).endswith("drawn since the shuffle")
    assert model.describe(after.s) == ("1 bad, 0 good drawn since the shuffle" if ev.bust else
                                       "0 bad, 1 good drawn since the shuffle")


def test_hog_throws_the_count_chosen_by_key(tmp_path, monkeypatch):
    game = _game(HOG, "<hog>")
    s, view = _session(game, "easy", ["3", "q"], tmp_path, monkeypatch)
    assert s.run() == 0
    prompt = view.boards[0][1]
    assert "1 = throw 1 die, 2 = throw 2 dice, 3 = throw 3 dice" in prompt
    ev, after = view.events[0]
    m = game.rules.model
    assert ev.action == "go" and R.continuation_names(game, 0)[ev.index] == "throw 3 dice"
    assert m.out_start[ev.index] <= ev.outcome < m.out_start[ev.index + 1]
    # three dice: any 1 scores 1, else the sum of three faces 2..6
    assert m.out_kind[ev.outcome] == END
    assert int(m.out_points[ev.outcome]) in {1, *range(6, 19)}
    assert after.scores[0] == int(m.out_points[ev.outcome])
    assert after.mover == (0 if after.over else 1)


def test_ten_ways_to_go_on_take_two_digits(tmp_path, monkeypatch):
    game = load_rules_game("hog", goal=20)
    s, view = _session(game, "easy", ["1", "0", "q"], tmp_path, monkeypatch)
    assert s.run() == 0
    assert view.boards[0][1].startswith("[bold]Your move[/bold] (turn total 0): 1 = throw 1 die"
                                        " ... 10 = throw 10 dice")
    assert view.boards[1][2].startswith("Typed 1: Enter = throw 1 die")
    assert R.continuation_names(game, 0)[view.events[0][0].index] == "throw 10 dice"
    s, view = _session(game, "easy", ["1", "\r", "q"], tmp_path, monkeypatch)
    assert s.run() == 0
    assert R.continuation_names(game, 0)[view.events[0][0].index] == "throw 1 die"


def test_farkle_offers_the_options_of_a_throw(tmp_path, monkeypatch):
    game = load_rules_game("farkle", goal=2000)
    m = game.rules.model
    seen = []

    def react(board):
        state, prompt, _ = board
        if state.pending is not None:
            seen.append((state, prompt))
            return "q" if len(seen) > 3 else str(m.opt_start[state.pending + 1]
                                                  - m.opt_start[state.pending])
        return "h" if state.k >= 300 else "d"

    s, view = _session(game, "medium", react, tmp_path, monkeypatch, seed=3)
    assert s.run() == 0
    assert seen, "no throw offered a choice"
    for state, prompt in seen:
        o = state.pending
        opts = range(m.opt_start[o], m.opt_start[o + 1])
        assert len(opts) >= 2 and m.out_kind[o] == CHOOSE
        listed = ", ".join(f"{n} = +{int(m.opt_gain[r]) * 50}: {m.describe(int(m.opt_next[r]))}"
                           for n, r in enumerate(opts, 1))
        assert prompt == f"[bold]Your choice[/bold] (turn total {state.k}): {listed}, q = quit"
    # each pick (the last option) moved to its state with its points
    picks = [(i, e) for i, (e, _) in enumerate(view.events) if e.action == "pick"]
    assert picks
    for i, e in picks:
        before = view.events[i - 1][1]
        after = view.events[i][1]
        assert e.index == m.opt_start[before.pending + 1] - 1
        if not e.won:
            assert after.s == m.opt_next[e.index]
            assert after.t == before.t + m.opt_gain[e.index] and after.pending is None


def test_check_playable_refuses_what_play_does_not_take():
    check_playable(load_rules_game("great-rolled-ones", players=3))
    check_playable(load_rules_game("great-rolled-ones"))
    with pytest.raises(Exception, match="--test-mode"):
        check_playable(load_rules_game("piglet"), test_mode=True)
    check_playable(load_rules_game("great-rolled-ones", ending="race"))


def test_outcomes_follow_the_model_probabilities():
    game = load_rules_game("hog", goal=20)
    m, st = game.rules.model, R.new_game(game)
    rng = np.random.default_rng(0)
    c, n = 4, 60_000  # five dice
    lo, hi = m.out_start[c], m.out_start[c + 1]
    got = np.bincount([R.random_outcome(st, ("go", c), rng) - lo for _ in range(n)],
                      minlength=hi - lo) / n
    # five dice with no 1: (5/6)^5
    p_clean = 1 - got[[k for k in range(hi - lo) if m.out_points[lo + k] == 1]].sum()
    assert abs(p_clean - (5 / 6) ** 5) < 5 * np.sqrt(0.25 / n)
    assert np.abs(got - m.out_prob[lo:hi]).max() < 5 * np.sqrt(0.25 / n)
    assert not np.any(m.out_kind[lo:hi] == BUST)


# -- the command --------------------------------------------------------------

MOVE = r"\(turn total (\d+)\): d or space = roll(, h = (?:pass|stop and bank \d+))?"


def play_command(tmp_path, args, first, ends, move=MOVE):
    """Run ``designer play ARGS`` in a terminal, wait for ``first``, then
    answer every ``move`` prompt (hold from a turn total of 2, else roll or
    draw) until one of ``ends``; returns what the terminal showed after the
    game, without its escape codes (the process has ended with status 0)."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "100", "LINES": "50"}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", *args], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=120, dimensions=(50, 100))
    child.expect(first)
    for _ in range(300):
        i = child.expect([move, *ends])
        if i > 0:
            break
        child.send("h" if int(child.match.group(1)) >= 2 else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    tail = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    child.close()
    assert child.exitstatus == 0
    return tail


def test_the_command_plays_piglet_with_the_computer_first(tmp_path):
    tail = play_command(tmp_path, ["piglet", "--goal", "4", "--first", "computer", "--no-pause",
                                   "--seed", "2"], r"Computer \(first\)",
                        ["You win", "The computer wins"])
    assert "Your record at level medium on this design: 1 game" in tail
    levels = load(tmp_path / "play-stats.json")["designs"]["rules:rules=piglet,goal=4,komi=0"]
    assert levels["levels"]["medium"]["games"] == 1


@pytest.mark.parametrize("args,message", [
    (["piglet", "--level", "expert"], "invalid --level='expert'"),
    (["piglet", "--players", "5"], "designer play does not take --players 5 for Piglet"),
    (["wager"], "designer play does not take wagering games (wager pack 52, raise 1..10): "
                "it takes deck, dice and rules-file games with 2-4 players"),
    (["zombie-dice", "--players", "3", "--ending", "race"], "invalid ending='race': allowed "
                                                            "rounds"),
    (["piglet", "--test-mode"], "--test-mode types one item or face per action"),
    (["piglet", "--level", "hard", "--nn", "x.npz"], "--nn plays deck games"),
    (["piglet", "--faces", "3"], "does not take --faces"),
])
def test_bad_flags_exit_2_in_one_line(tmp_path, args, message):
    out = subprocess.run([sys.executable, "-m", "designer", "play", *args], cwd=ROOT,
                         env={**os.environ, "DESIGNER_DATA_DIR": str(tmp_path)},
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.startswith("designer: error: ") and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and out.stdout == ""
