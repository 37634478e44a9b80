"""designer play's library side: the rules engine against the deck and dice rules, the
computer levels, the exact analysis of decisions and the statistics file."""

import json

import numpy as np
import pytest

from designer import DeckGame, DesignError, DiceGame, load_game
from designer.play import (IllegalMove, action_values, evaluate, make_player, new_game,
                           random_outcome, step, worst_decision)
from designer.play import stats
from designer.play.analysis import dice_turn_values
from designer.play.engine import DeckState, DiceState
from designer.play.players import TIMID_HOLD_AT, max_score_threshold
from designer.solve import solve

SMALL = DeckGame(bad=2, good=4, goal=5, komi=1)


@pytest.fixture(scope="module")
def small():
    return solve(SMALL)


@pytest.fixture(scope="module")
def small_dice():
    return solve(DiceGame(faces=4, goal=9, komi=0))


# -- engine: deck rules ----------------------------------------------------

def test_opening_gives_komi_to_the_second_player():
    s = new_game(SMALL)
    assert s.scores == (0, 1) and s.mover == 0 and (s.k, s.w, s.c) == (0, 0, 0)
    assert s.mover_view() == (0, 1, 0, 0, 0)
    assert s.legal() == ("draw",)


def test_first_draw_is_forced():
    with pytest.raises(IllegalMove, match="draw at least once"):
        step(new_game(SMALL), "hold")


def test_good_draw_then_hold_banks_and_passes():
    s, e = step(new_game(SMALL), "draw", "good")
    assert (s.k, s.c, s.mover) == (1, 1, 0) and e.outcome == "good" and not e.bust
    assert s.legal() == ("draw", "hold")
    s, _ = step(s, "draw", "good")
    s, e = step(s, "hold")
    assert s.scores == (2, 1) and s.mover == 1 and s.k == 0 and e.gained == 2
    # items drawn stay out: the container is not refilled by a hold
    assert (s.w, s.c) == (0, 2) and s.good_left == 2
    assert s.mover_view() == (1, 2, 0, 0, 2)


def test_bad_draw_loses_the_turn_and_keeps_items_out():
    s, _ = step(new_game(SMALL), "draw", "good")
    s, e = step(s, "draw", "bad")
    assert e.bust and not e.reshuffled
    assert s.scores == (0, 1) and s.mover == 1 and s.k == 0 and (s.w, s.c) == (1, 1)


def test_last_bad_item_reshuffles():
    s, _ = step(new_game(SMALL), "draw", "bad")
    s, _ = step(s, "draw", "good")
    s, e = step(s, "draw", "bad")
    assert e.reshuffled and (s.w, s.c) == (0, 0) and s.mover == 0
    assert s.bad_left == SMALL.bad and s.good_left == SMALL.good


def test_reaching_the_goal_holds_and_wins():
    g = DeckGame(bad=2, good=6, goal=3, komi=2)
    s = new_game(g)
    s, _ = step(s, "draw", "bad")               # seat 1 (komi 2) needs 1 point
    s, e = step(s, "draw", "good")
    assert e.won and e.gained == 1 and s.winner == 1 and s.scores == (0, 3) and s.over
    assert s.legal() == ()
    with pytest.raises(IllegalMove, match="over"):
        step(s, "draw", "good")


def test_impossible_items_are_refused():
    s = DeckState(SMALL, (0, 1), 0, 0, 1, 4)    # all 4 good items drawn
    with pytest.raises(IllegalMove, match="no good item is left"):
        step(s, "draw", "good")
    assert s.outcomes() == {"bad": 1.0}
    with pytest.raises(IllegalMove):
        step(s, "draw", "chicken")
    s2 = DeckState(SMALL, (0, 1), 0, 0, 2, 0)   # would be refilled; typed decks
    with pytest.raises(IllegalMove, match="no bad item is left"):
        step(s2, "draw", "bad")


def test_random_outcome_draws_in_proportion_to_what_is_left():
    rng = np.random.default_rng(0)
    s = DeckState(DeckGame(bad=4, good=4, goal=5), (0, 0), 0, 0, 3, 1)  # 1 bad, 3 good left
    draws = [random_outcome(s, rng) for _ in range(4000)]
    assert abs(draws.count("bad") / 4000 - 0.25) < 0.03
    rng1, rng2 = np.random.default_rng(7), np.random.default_rng(7)
    assert [random_outcome(s, rng1) for _ in range(50)] == [random_outcome(s, rng2) for _ in range(50)]


def _engine_bellman(sol, s):
    """max over actions of the expected value of the engine's next state."""
    best = 0.0
    for action in s.legal():
        outs = s.outcomes() if action != "hold" else {None: 1.0}
        v = 0.0
        for o, p in outs.items():
            n, e = step(s, action, o)
            if e.won:
                v += p
            elif n.mover == s.mover:
                v += p * sol.win_probability(*n.mover_view())
            else:
                v += p * (1.0 - sol.win_probability(*n.mover_view()))
        best = max(best, v)
    return best


def test_engine_transitions_satisfy_the_solver_bellman_equation(small):
    g = SMALL
    n = 0
    for i in range(g.goal):
        for j in range(g.goal):
            for w in range(g.bad):
                for c in range(g.good + 1):
                    for k in range(0, min(c, g.goal - 1 - i) + 1):
                        s = DeckState(g, (i, j), 0, k, w, c)
                        assert _engine_bellman(small, s) == pytest.approx(
                            small.win_probability(i, j, k, w, c), abs=1e-12)
                        n += 1
    assert n > 200


def test_random_games_keep_the_invariants():
    rng = np.random.default_rng(3)
    g = DeckGame(bad=3, good=5, goal=8, komi=2)
    for _ in range(200):
        s = new_game(g)
        total = sum(s.scores)
        while not s.over:
            assert 0 <= s.k <= s.c <= g.good and 0 <= s.w < g.bad
            action = rng.choice(s.legal())
            s, e = step(s, str(action), random_outcome(s, rng) if action == "draw" else None)
            assert sum(s.scores) >= total
            total = sum(s.scores)
        assert s.scores[s.winner] >= g.goal and s.scores[1 - s.winner] < g.goal


# -- engine: dice rules ----------------------------------------------------

def test_dice_rules():
    g = DiceGame(faces=6, goal=10, komi=3)
    s = new_game(g)
    assert isinstance(s, DiceState) and s.scores == (0, 3) and s.legal() == ("roll", "hold")
    s, e = step(s, "hold")                      # holding at 0 passes
    assert s.mover == 1 and e.gained == 0
    s, _ = step(s, "roll", 4)
    assert s.k == 4
    s, e = step(s, "roll", 1)
    assert e.bust and s.mover == 0 and s.k == 0 and s.scores == (0, 3)
    s, _ = step(s, "roll", 6)
    s, e = step(s, "roll", 5)
    assert e.won and s.winner == 0 and s.scores == (11, 3)
    with pytest.raises(IllegalMove, match="face 1..6"):
        step(new_game(g), "roll", 7)


def test_new_game_refuses_other_families():
    with pytest.raises(DesignError, match="deck, dice and zombie"):
        new_game(load_game("persian-monarchs"))


# -- players ----------------------------------------------------------------

def test_levels(small):
    easy, medium, hard = (make_player(lv, small) for lv in ("easy", "medium", "hard"))
    g = SMALL
    for w in range(g.bad):
        for c in range(g.good + 1):
            for k in range(0, min(c, g.goal - 1) + 1):
                s = DeckState(g, (0, 1), 0, k, w, c)
                c_rem, w_rem = g.good - c, g.bad - w
                assert medium.decide(s) == ("draw" if k == 0 or c_rem > w_rem * k else "hold")
                assert easy.decide(s) == ("draw" if k < TIMID_HOLD_AT else "hold")
                assert hard.decide(s) == small.decision(0, 1, k, w, c)
    with pytest.raises(DesignError, match="level"):
        make_player("expert", small)


def test_dice_max_score_holds_at_20_in_pig():
    pig = load_game("pig")
    assert max_score_threshold(pig) == 20
    sol = solve(pig)
    medium = make_player("medium", sol)
    assert medium.decide(DiceState(pig, (0, 0), 0, 19)) == "roll"
    assert medium.decide(DiceState(pig, (0, 0), 0, 20)) == "hold"
    assert make_player("easy", sol).decide(DiceState(pig, (0, 0), 0, 10)) == "hold"
    assert make_player("easy", sol).decide(DiceState(pig, (0, 0), 0, 9)) == "roll"


# -- analysis ---------------------------------------------------------------

def test_action_values_match_win_probability(small):
    g = SMALL
    for i in range(g.goal):
        for w in range(g.bad):
            for c in range(g.good + 1):
                for k in range(1, min(c, g.goal - 1 - i) + 1):
                    s = DeckState(g, (i, 2), 0, k, w, c)
                    vals = action_values(small, s)
                    best = small.decision(i, 2, k, w, c)
                    p = small.win_probability(i, 2, k, w, c)
                    assert max(vals.values()) == pytest.approx(p, abs=1e-12)
                    assert vals[best] == pytest.approx(p, abs=1e-12)
                    d = evaluate(small, s, "hold" if best == "draw" else "draw")
                    assert d.cost == pytest.approx(p - min(vals.values()), abs=1e-12)


def test_worst_decision_is_the_largest_loss(small):
    g = SMALL
    decisions = []
    for c in range(1, g.good + 1):
        for k in range(1, min(c, g.goal - 1) + 1):
            s = DeckState(g, (0, 1), 0, k, 0, c)
            decisions += [evaluate(small, s, "draw"), evaluate(small, s, "hold")]
    worst = worst_decision(decisions)
    assert worst.cost == max(d.cost for d in decisions) > 0
    v = small.win_probability(*worst.state.mover_view())
    other = action_values(small, worst.state)[worst.chosen]
    assert worst.cost == pytest.approx(v - other, abs=1e-12)
    assert worst.best == small.decision(*worst.state.mover_view()) != worst.chosen
    optimal = [d for d in decisions if d.chosen == d.best]
    assert worst_decision(optimal) is None and worst_decision([]) is None


def test_dice_analysis(small_dice):
    sol = small_dice
    g = sol.game
    for i in range(g.goal):
        for j in range(g.goal):
            v = dice_turn_values(sol, i, j)
            assert v[0] == pytest.approx(sol.win[i, j], abs=1e-12)
            for k in range(g.goal - i):
                vals = action_values(sol, DiceState(g, (i, j), 0, k))
                assert max(vals.values()) == pytest.approx(v[k], abs=1e-12)
                assert vals[sol.decision(i, j, k)] == pytest.approx(v[k], abs=1e-12)


# -- statistics -------------------------------------------------------------

def test_data_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.delenv("DESIGNER_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert stats.stats_path() == tmp_path / "xdg" / "designer" / "play-stats.json"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert stats.data_dir().name == "designer" and ".local" in str(stats.data_dir())
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path / "d"))
    assert stats.stats_path() == tmp_path / "d" / "play-stats.json"


def test_record_and_rows(monkeypatch, tmp_path):
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path))
    rl = load_game("red-light")
    assert stats.record(rl, "hard", won=True) == {"games": 1, "wins": 1, "quits": 0}
    stats.record(rl, "hard", won=False, quit=True)
    stats.record(rl, "easy", won=True)
    stats.record(load_game("pig", goal=30), "medium", won=False)
    data = json.loads((tmp_path / "play-stats.json").read_text())
    assert data["version"] == 1
    entry = data["designs"]["deck:bad=4,good=24,goal=50,komi=1"]
    assert entry["name"] == "Red Light" and entry["levels"]["hard"] == {"games": 2, "wins": 1, "quits": 1}
    rows = stats.rows(stats.load())
    assert [(r["design"], r["level"], r["games"], r["wins"]) for r in rows] == [
        ("Pig", "medium", 1, 0), ("Red Light", "easy", 1, 1), ("Red Light", "hard", 2, 1)]
    assert rows[2]["win_rate"] == 0.5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["play-stats.json", "play-stats.json.lock"]


def test_unreadable_stats_file_is_a_design_error(tmp_path):
    bad = tmp_path / "play-stats.json"
    bad.write_text("{not json")
    with pytest.raises(DesignError, match="cannot read play statistics"):
        stats.load(bad)
    bad.write_text(json.dumps({"version": 99, "designs": {}}))
    with pytest.raises(DesignError, match="move the file aside"):
        stats.record(SMALL, "easy", won=True, path=bad)
    assert json.loads(bad.read_text())["version"] == 99    # left untouched


@pytest.mark.parametrize("content, why", [
    (b"\xff\xfe{}", "codec can't decode"),
    (b'{"version":1,"designs":{"a":5}}', "design 'a' is not an object with a name and levels"),
    (b'[1, 2]', "not a version-1 statistics file"),
    (b'{"version":1,"designs":[]}', "'designs' is not an object"),
    (b'{"version":1,"designs":{"a":{"name":"x","levels":{"easy":3}}}}',
     "design 'a', level 'easy' is not an object"),
    (b'{"version":1,"designs":{"a":{"name":"x","levels":{"easy":{"games":"2"}}}}}',
     "design 'a', level 'easy': games is not a count"),
    (b'{"version":1,"designs":{"a":{"name":"x","levels":{"easy":{"wins":-1}}}}}',
     "wins is not a count"),
    (b'{"version":1,"designs":{"a":{"name":"x","levels":{"easy":{"loss":"x"}}}}}',
     "loss is not a number"),
    (b'{"version":1,"designs":{"a":{"name":"x","levels":{"easy":{"moves":3}}}}}',
     "moves is not a list"),
    (b'{"version":1,"designs":{"a":{"name":7,"levels":{}}}}', "with a name and levels"),
])
def test_damaged_stats_files_are_one_clear_error(tmp_path, content, why):
    """Every wrong shape is refused on reading, before a game is recorded
    into it (a played game then said so instead of an internal error)."""
    bad = tmp_path / "play-stats.json"
    bad.write_bytes(content)
    with pytest.raises(DesignError) as err:
        stats.load(bad)
    msg = str(err.value)
    assert msg.startswith(f"cannot read play statistics {bad}: ") and why in msg
    assert msg.endswith("move the file aside to start afresh") and "\n" not in msg
    with pytest.raises(DesignError, match="move the file aside"):
        stats.record(SMALL, "easy", won=True, path=bad)
    assert bad.read_bytes() == content  # left untouched


def test_hard_level_can_play_a_trained_network(tmp_path, small):
    from designer.training import train_nn

    result = train_nn(SMALL, seed=1, epochs=2)
    path = tmp_path / "small_nn.npz"
    result.network.save(path)
    hard = make_player("hard", small, nn=str(path))
    from designer.policies.neural import NeuralPolicy

    policy = NeuralPolicy(SMALL, result.network)
    for w in range(SMALL.bad):
        for c in range(1, SMALL.good + 1):
            s = DeckState(SMALL, (0, 1), 0, 1, w, c)
            assert hard.decide(s) == ("draw" if policy.draws(0, 1, 1, w, c) else "hold")
    with pytest.raises(DesignError, match="--level hard"):
        make_player("easy", small, nn=str(path))
    with pytest.raises(DesignError):
        make_player("hard", small, nn=str(tmp_path / "missing.npz"))
