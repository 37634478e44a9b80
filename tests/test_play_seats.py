"""``designer play`` with three or four seats (race ending): the
rules engine, the computer's N-player decisions, the analysis, a scripted
game through the session, seeded replays against the exact seat win
probabilities, the board and verdict, and the refusals."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from designer import DesignError, load_game
from designer.play import make_player, new_game, random_outcome, step
from designer.play.analysis import action_values, evaluate, seat_dice_values
from designer.play.engine import DeckState, DiceState, IllegalMove
from designer.play.players import OptimalPlayer, PolicyPlayer, two_player_view
from designer.play.session import Session, check_playable, seat_names
from designer.play.stats import design_key, load, rows
from designer.solve import solve

ROOT = Path(__file__).resolve().parents[1]
DECK3 = load_game("deck", bad=2, good=5, goal=6, players=3)
PIG3 = load_game("pig", goal=15, players=3)
#: A die on which the optimal seats also hold at small goals (Pig rolls to 15).
D4 = load_game("dice", faces=4, bust_faces=(1, 2), goal=12, players=3)


@pytest.fixture(scope="module")
def deck3():
    return solve(DECK3)


@pytest.fixture(scope="module")
def pig3():
    return solve(PIG3)


# -- the rules engine ---------------------------------------------------------
def test_deck_turns_cycle_the_seats_and_share_the_deck():
    g = load_game("deck", bad=2, good=5, goal=6, players=3, komi=[0, 1, 2])
    s = new_game(g)
    assert s.scores == (0, 1, 2) and s.mover == 0 and s.players == 3
    s, e = step(s, "draw", "good")
    assert (s.mover, s.k, s.c) == (0, 1, 1) and not e.bust
    s, e = step(s, "hold")
    assert e == e.__class__(0, "hold", None, gained=1)
    assert s.scores == (1, 1, 2) and s.mover == 1 and (s.k, s.w, s.c) == (0, 0, 1)
    assert s.mover_view() == (1, 2, 1, 0, 0, 1)  # seat 1's view: seats 1, 2, 0
    # seat 1 busts on the first bad item: the deck keeps its state, seat 2 moves
    s, e = step(s, "draw", "bad")
    assert e.bust and not e.reshuffled and s.mover == 2 and (s.w, s.c) == (1, 1)
    assert s.mover_view() == (2, 1, 1, 0, 1, 1)
    # seat 2 draws a good item then the last bad one: reshuffle, back to seat 0
    s, _ = step(s, "draw", "good")
    assert (s.k, s.c) == (1, 2)
    s, e = step(s, "draw", "bad")
    assert e.bust and e.reshuffled and s.mover == 0 and (s.k, s.w, s.c) == (0, 0, 0)
    assert s.scores == (1, 1, 2) and s.bad_left == 2 and s.good_left == 5
    with pytest.raises(IllegalMove, match="at least once"):
        step(s, "hold")


def test_deck_win_at_the_goal_ends_the_game():
    g = load_game("deck", bad=2, good=5, goal=6, players=3)
    s = DeckState(g, (3, 5, 4), mover=1, k=0, w=0, c=2)
    s, e = step(s, "draw", "good")
    assert e.won and e.gained == 1 and s.winner == 1 and s.over
    assert s.scores == (3, 6, 4) and s.legal() == ()
    with pytest.raises(IllegalMove, match="over"):
        step(s, "draw", "good")


def test_dice_four_seats_and_the_two_seat_view_is_unchanged():
    g = load_game("pig", goal=10, players=4, komi=[0, 1, 2, 3])
    s = new_game(g)
    assert s.scores == (0, 1, 2, 3)
    order = []
    for _ in range(5):
        order.append(s.mover)
        s, e = step(s, "roll", 1)
        assert e.bust and s.k == 0
    assert order == [0, 1, 2, 3, 0] and s.mover == 1
    s, _ = step(s, "roll", 4)
    s, _ = step(s, "hold")
    assert s.scores == (0, 5, 2, 3) and s.mover == 2
    assert s.mover_view() == (2, 3, 0, 5, 0)
    s = DiceState(g, (0, 5, 2, 3), mover=3, k=4)
    s, e = step(s, "roll", 3)
    assert e.won and s.winner == 3 and s.scores == (0, 5, 2, 10)
    # two seats: the view stays (i, j, k, w, c) and the mover alternates
    two = new_game(load_game("deck", bad=2, good=5, goal=6, komi=1))
    assert two.scores == (0, 1) and two.mover_view() == (0, 1, 0, 0, 0)
    two, _ = step(two, "draw", "bad")
    assert two.mover == 1 and two.mover_view() == (1, 0, 0, 1, 0)


def test_the_rounds_ending_is_played_as_rules():
    """The family engine plays the race only; play takes the rounds ending
    of 3 seats as the same game written as rules."""
    from designer.play import rules_engine
    from designer.support import as_rules

    g = load_game("pig", goal=10, players=3, ending="rounds")
    with pytest.raises(DesignError, match="race ending"):
        new_game(g)
    check_playable(g)
    rules = as_rules("play", g)
    assert rules.family == "rules" and rules.players == 3 and rules.ending == "rounds"
    assert rules_engine.new_game(rules).units == (0, 0, 0)
    check_playable(PIG3)
    check_playable(DECK3, test_mode=True)  # typed-in items work with any number of seats


# -- the computer -------------------------------------------------------------
def _policy_action(solution, state):
    """The action the raw SeatSolution policy table gives at ``state``."""
    N = state.players
    S = tuple(state.scores[(state.mover + r) % N] for r in range(N))
    if state.family == "dice":
        return "roll" if solution.policy[S + (state.k,)] else "hold"
    if state.k == 0:
        return "draw"
    return "draw" if state.k < solution.policy[S + (state.w, state.c - state.k)] else "hold"


def test_hard_plays_the_seat_solution_policy(deck3, pig3):
    rng = np.random.default_rng(7)
    for solution in (deck3, solve(D4)):
        g = solution.game
        hard = make_player("hard", solution)
        assert isinstance(hard, OptimalPlayer)
        seen = set()
        for _ in range(3000):
            scores = tuple(int(v) for v in rng.integers(0, g.goal, 3))
            mover = int(rng.integers(3))
            if g.family == "dice":
                k = int(rng.integers(0, g.goal - scores[mover]))
                state = DiceState(g, scores, mover, k)
            else:
                w, c = int(rng.integers(g.bad)), int(rng.integers(g.good + 1))
                k = int(rng.integers(0, min(c, g.goal - 1 - scores[mover]) + 1))
                state = DeckState(g, scores, mover, k, w, c)
            action = hard.decide(state)
            assert action in state.legal()
            assert action == _policy_action(solution, state)
            seen.add(action)
        assert len(seen) == 2  # both actions were met
    with pytest.raises(Exception):
        pig3.decision(1, 2, 3)  # a view needs N scores and k


def test_easy_and_medium_read_the_leading_opponent(pig3):
    g = PIG3
    s = DiceState(g, (3, 9, 12), mover=1, k=4)
    assert two_player_view(s) == (9, 12, 4)
    assert two_player_view(DiceState(load_game("pig", goal=15), (3, 9), 1, 4)) == (9, 3, 4)
    easy, medium = make_player("easy", pig3), make_player("medium", pig3)
    assert isinstance(easy, PolicyPlayer) and isinstance(medium, PolicyPlayer)
    assert easy.decide(DiceState(g, (0, 0, 0), 0, 9)) == "roll"   # Pig easy: hold at 10
    assert easy.decide(DiceState(g, (0, 0, 0), 0, 10)) == "hold"
    assert medium.decide(DiceState(g, (0, 0, 0), 2, 4)) == "roll"
    with pytest.raises(DesignError, match="--nn plays two-player games"):
        make_player("hard", pig3, nn="network.npz")


def test_a_rule_file_reads_the_leading_opponent(pig3, tmp_path):
    from designer.policies.rules import Rule

    path = tmp_path / "rule.toml"
    Rule.parse("dice", "j >= 10 -> roll; below 5").save(path)
    player = make_player(f"rule:{path}", pig3)
    g = PIG3
    assert player.decide(DiceState(g, (0, 0, 0), 0, 5)) == "hold"
    assert player.decide(DiceState(g, (0, 0, 12), 0, 6)) == "roll"   # the leader is seat 2
    assert player.decide(DiceState(g, (0, 3, 12), 1, 6)) == "roll"   # seen from seat 1
    assert player.decide(DiceState(g, (12, 3, 0), 2, 6)) == "roll"
    assert player.decide(DiceState(g, (8, 3, 0), 0, 2)) == "roll"   # below 5, opponents < 10
    assert player.decide(DiceState(g, (8, 3, 0), 0, 5)) == "hold"


# -- the analysis -------------------------------------------------------------
def test_analysis_values_agree_with_the_turn_start_table(deck3, pig3):
    """At a turn start the value of the forced draw (decks) or of the best
    action (dice) is the solved win probability of the mover; the best
    action of a decision is the policy's wherever the policy can be."""
    g = PIG3
    for scores in [(0, 0, 0), (7, 3, 12), (14, 14, 14), (2, 13, 9)]:
        v = seat_dice_values(pig3, scores)
        assert v[0] == pytest.approx(pig3.win[scores + (0,)], abs=1e-12)
        for k in range(g.goal - scores[0]):
            st = DiceState(g, scores, 0, k)
            d = evaluate(pig3, st, "hold")
            assert d.best == pig3.decision(*st.mover_view())
            assert d.values[d.best] == pytest.approx(v[k], abs=1e-12)
    g = DECK3
    st = DeckState(g, (2, 4, 1), mover=0, k=0, w=1, c=3)
    values = action_values(deck3, st)
    assert list(values) == ["draw"]
    assert values["draw"] == pytest.approx(deck3.win[(2, 4, 1, 1, 3, 0)], abs=1e-12)
    st = DeckState(g, (4, 1, 2), mover=2, k=1, w=0, c=2)  # mover 2: scores (2, 4, 1)
    d = evaluate(deck3, st, "hold")
    assert set(d.values) == {"draw", "hold"} and d.cost >= 0
    nxt = (4, 1, 3)  # after the hold, seat 0 moves; the holder is 2 places after it
    assert d.values["hold"] == pytest.approx(deck3.win[nxt + (0, 2, 2)], abs=1e-12)


# -- a whole game through the session ----------------------------------------
class ScriptedKeys:
    def __init__(self, keys):
        self.keys = list(keys)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def flush(self):
        pass

    def read(self):
        return self.keys.pop(0) if self.keys else ""


class RecordingView:
    def __init__(self):
        self.boards, self.events, self.result = [], [], None

    def show_board(self, state, names, title, log, last=None, prompt=None, hint=None):
        self.boards.append((state, names, prompt))

    def describe_event(self, event, state, names):
        self.events.append((event, state))
        return f"{names[event.seat]} {event.action} {event.outcome}"

    def clear_screen(self):
        pass

    def show_result(self, state, names, human, worst, decisions, counts, level, quit=False,
                    not_recorded=None, analysed=True):
        self.result = dict(state=state, names=names, human=human, worst=worst,
                           decisions=decisions, counts=counts, quit=quit)


@pytest.mark.parametrize("first,human", [("human", 0), ("computer", 2)])
def test_a_seeded_three_seat_game_through_the_session(deck3, tmp_path, monkeypatch, first,
                                                     human):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    view = RecordingView()
    computer = make_player("hard", deck3)
    s = Session(deck3, computer, view, level="hard", first=first, pause=0.0, seed=11,
                keys=ScriptedKeys(["h", "d", "d", "h"] * 300))
    assert s.human == human and s.names == seat_names(3, human)
    assert s.run() == 0
    r = view.result
    assert r["state"].over and not r["quit"] and r["human"] == human
    assert r["names"][human] == "You" and sum(n.startswith("Computer ") for n in r["names"]) == 2
    # replay: same random stream, the seats in order, the computer's moves are its policy
    rng = np.random.default_rng(11)
    state = new_game(DECK3)
    movers = []
    for event, after in view.events:
        assert event.seat == state.mover
        if not movers or movers[-1] != state.mover:
            movers.append(state.mover)
        if state.mover != human:
            assert event.action == _policy_action(deck3, state)
        outcome = None if event.action == "hold" else random_outcome(state, rng)
        state, ev = step(state, event.action, outcome)
        assert ev == event and state == after
    assert state == r["state"]
    assert all(b == (a + 1) % 3 for a, b in zip(movers, movers[1:]))
    # the human's decisions are valued with the N-player values and recorded
    assert r["decisions"] and all(d.state.mover == human for d in r["decisions"])
    assert r["counts"]["games"] == 1 and r["counts"]["wins"] == int(r["state"].winner == human)
    data = load(tmp_path / "play-stats.json")
    key = design_key(DECK3)
    assert key.endswith("players=3,ending=race")
    moves = data["designs"][key]["levels"]["hard"]["moves"]
    assert moves == [[*d.state.mover_view(), d.chosen] for d in r["decisions"]]
    assert [row["players"] for row in rows(data)] == [3]


def test_test_mode_types_every_seats_items(deck3, tmp_path, monkeypatch):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    view = RecordingView()
    # you draw a bad item, Computer 2 the last bad one (reshuffle), Computer 3 a good one
    s = Session(deck3, make_player("hard", deck3), view, level="hard", pause=0.0,
                test_mode=True, keys=ScriptedKeys(["d", "b", "b", "g", "q"]))
    assert s.run() == 0
    (e0, _), (e1, after1), (e2, after2) = view.events[:3]
    assert (e0.seat, e0.outcome, e0.bust) == (0, "bad", True)
    assert (e1.seat, e1.outcome, e1.reshuffled) == (1, "bad", True) and after1.w == 0
    assert (e2.seat, e2.outcome) == (2, "good") and after2.k == 1
    assert any(p and "Computer 2 draws" in p for _, _, p in view.boards)
    assert view.result["quit"] and not (tmp_path / "play-stats.json").exists()


def test_random_first_seat_covers_every_seat(pig3, monkeypatch, tmp_path):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    seats = {Session(pig3, make_player("easy", pig3), RecordingView(), level="easy",
                     first="random", seed=seed).human for seed in range(40)}
    assert seats == {0, 1, 2}


def test_stats_keep_two_player_keys_and_add_the_player_count(tmp_path):
    from designer.play import stats

    two = load_game("pig", goal=15)
    path = tmp_path / "play-stats.json"
    stats.record(two, "hard", won=True, path=path)
    stats.record(PIG3, "hard", won=False, path=path)
    data = stats.load(path)
    assert set(data["designs"]) == {"dice:faces=6,bust_faces=1,goal=15,komi=0",
                                    "dice:faces=6,bust_faces=1,goal=15,komi=0,players=3,ending=race"}
    assert sorted((r["players"], r["wins"]) for r in stats.rows(data)) == [(2, 1), (3, 0)]


# -- seeded replays against the exact seat win probabilities -----------------
def _replay(solution, games, seed):
    rng = np.random.default_rng(seed)
    hard = make_player("hard", solution)
    wins = np.zeros(solution.players)
    for _ in range(games):
        s = new_game(solution.game)
        while not s.over:
            a = hard.decide(s)
            s, _ = step(s, a, None if a == "hold" else random_outcome(s, rng))
        wins[s.winner] += 1
    return wins / games


@pytest.mark.parametrize("game,games", [(load_game("pig", goal=10, players=3), 4000),
                                        (load_game("pig", goal=8, players=4, komi=1), 3000),
                                        (D4, 3000),
                                        (load_game("deck", bad=2, good=5, goal=6, players=3,
                                                   komi=[0, 1, 1]), 3000)])
def test_optimal_seats_win_as_often_as_the_solve_says(game, games):
    solution = solve(game)
    exact = solution.seat_win(komi=game.komi)
    freq = _replay(solution, games, seed=2024)
    se = np.sqrt(exact * (1 - exact) / games)
    assert np.all(np.abs(freq - exact) <= 3 * se), (freq, exact, se)


# -- the board and the verdict ------------------------------------------------
def test_the_board_shows_every_seat_and_the_verdict_names_the_winner(deck3):
    from designer.play.analysis import Decision
    from designer.report import play_view
    from designer.report.terminal import console

    names = seat_names(3, 1)
    state = DeckState(DECK3, (2, 4, 1), mover=1, k=1, w=0, c=2)
    with console.capture() as cap:
        play_view.show_board(state, names, "designer play: test", ["Computer 1 held: +2"])
    text = cap.get()
    for label in ("Computer 1 (first)", "▶ You (second)", "Computer 3 (third)",
                  "You, turn total 1", "bad", "good"):
        assert label in text
    over = DeckState(DECK3, (2, 4, 6), mover=2, winner=2)
    d = Decision(DeckState(DECK3, (2, 4, 1), 1, 1, 0, 2), "hold", "draw",
                 {"draw": 0.5, "hold": 0.4})
    with console.capture() as cap:
        play_view.show_result(over, names, 1, d, [d], {"games": 1, "wins": 0, "quits": 0},
                              "hard")
    text = " ".join(cap.get().split())
    assert "Computer 3 wins. Final scores: Computer 1 2, You 4, Computer 3 6." in text
    assert "with scores 2 (Computer 1), 4 (you), 1 (Computer 3) and a turn total of 1" in text
    assert "on this design with 3 players: 1 game, 0 wins" in text


# -- the command line ---------------------------------------------------------
@pytest.mark.parametrize("args,message", [
    (["pig", "--players", "3", "--ending", "rounds"], "stdin is not a terminal"),  # as rules
    (["pig", "--ending", "rounds"], "stdin is not a terminal"),  # played as rules
    # Zombie Dice with 3-4 seats: played as rules, accepted up to the terminal
    (["zombie-dice", "--players", "3"], "stdin is not a terminal"),
    (["zombie-yellow", "--players", "4"], "stdin is not a terminal"),
    (["zombie-yellow", "--players", "3", "--ending", "race"], "invalid ending='race'"),
    (["pig", "--players", "3", "--level", "hard", "--nn", "x.npz"], "--nn plays two-player"),
    (["pig", "--players", "5"], "players"),
    (["pig", "--players", "3"], "stdin is not a terminal"),  # accepted up to the terminal
])
def test_refusals_are_one_line(tmp_path, args, message):
    out = subprocess.run([sys.executable, "-m", "designer", "play", *args], cwd=ROOT,
                         env={**os.environ, "DESIGNER_DATA_DIR": str(tmp_path)},
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.startswith("designer: error: ") and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_a_three_seat_game_in_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "100", "LINES": "50"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", "pig", "--players", "3",
                                           "--goal", "12", "--seed", "5", "--no-pause",
                                           "--level", "hard"],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=120,
                          dimensions=(50, 100))
    child.expect("Computer 3 \\(third\\)")
    for _ in range(400):
        i = child.expect([r"\(turn total (\d+)\): d or space = roll", "You win",
                          r"Computer \d wins"])
        if i > 0:
            break
        child.send("h" if int(child.match.group(1)) >= 5 else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect("Final scores")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    key = "dice:faces=6,bust_faces=1,goal=12,komi=0,players=3,ending=race"
    assert key in load(tmp_path / "play-stats.json")["designs"]
