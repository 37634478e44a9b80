"""Playing a rules game with three or four seats (race ending): the values
the computer plays by against the engine's N-seat solve, the hard player,
a scripted game replayed from the rules, and the command."""

from pathlib import Path

import numpy as np
import pytest
from test_play_rules import HOG, SMALL_DECK, _session, play_command, replay_piglet

from designer._jit import TIE
from designer.engine.game import RulesGame, load_rules_game
from designer.engine.rulesfile import parse_rules
from designer.play import make_player
from designer.play import rules_engine as R
from designer.play.session import check_playable
from designer.play.stats import design_key, load

ROOT = Path(__file__).resolve().parents[1]


def _game(text, name, players):
    return RulesGame(parse_rules(text), name, (0,) * players, players=players)


GAMES = {
    "piglet-3": lambda: load_rules_game("piglet", goal=5, players=3),
    "piglet-4": lambda: load_rules_game("piglet", goal=3, players=4),
    "hog-3": lambda: _game(HOG.replace("goal = 12", "goal = 8"), "<hog>", 3),
    "small deck-3": lambda: _game(SMALL_DECK.replace("goal = 5", "goal = 4"), "<deck>", 3),
    "farkle-3": lambda: load_rules_game("farkle", goal=300, players=3),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_turn_values_at_every_turn_start_equal_the_engine(name):
    """The value of a fresh turn, evaluated position by position from the
    solve's turn starts, is the solve's own value, for every mover, every
    tuple of scores and every start state."""
    import itertools

    game = GAMES[name]()
    sol = R.solve(game)
    r = sol.result
    N, goal, lo = game.players, game.rules.goal, r.floor
    checked = 0
    for units in itertools.product(range(lo, goal), repeat=N):
        for mover in range(N):
            tv = R.SeatsTurnValues(sol, units, mover)
            view = tuple(units[(mover + k) % N] for k in range(N))
            for h in r.start_states:
                want = r.value(view, int(h))[0]
                assert tv.value(int(h), 0, fresh=True) == pytest.approx(want, abs=1e-12), \
                    (name, units, mover, h)
                checked += 1
    assert checked == (goal - lo) ** N * N * len(r.start_states)


@pytest.mark.parametrize("goal, ending, seed", [(1000, "race", 5), (300, "rounds", 3)])
def test_the_hard_player_takes_the_action_of_largest_value(goal, ending, seed):
    game = load_rules_game("farkle", goal=goal, players=3, ending=ending)
    sol = R.solve(game)
    player = make_player("hard", sol, game=game)
    rng = np.random.default_rng(seed)
    st = R.new_game(game)
    movers = set()
    for _ in range(400):
        if st.over:
            break
        movers.add(st.mover)
        values = sol.action_values(st)
        act = player.decide(st)
        assert values[act] >= max(values.values()) - TIE
        out = R.random_outcome(st, act, rng) if act[0] == "go" else None
        st, _ = R.step(st, act, out)
    assert st.over and movers == {0, 1, 2}


def test_a_rule_reads_the_highest_other_score():
    game = load_rules_game("piglet", goal=10, players=3)
    st = R.RulesState(game, (2, 7, 4), mover=0, t=3, fresh=False)
    assert st.mover_view() == (2, 7, 0, 3)
    assert R.RulesState(game, (2, 7, 4), mover=1).mover_view()[:2] == (7, 4)
    player = make_player("rule:diff >= 5 -> roll; below 3", None, game=game)
    assert player.decide(st) != R.STOP  # 5 behind the leader: rolls on
    calm = R.RulesState(game, (2, 3, 4), mover=0, t=3, fresh=False)
    assert player.decide(calm) == R.STOP


def test_a_scripted_game_of_three_follows_the_rules(tmp_path, monkeypatch):
    """Piglet to 3 with three seats: every event replayed from the rules (a
    coin: tails, drawn when the seeded uniform falls below 1/2, loses the
    turn; heads adds 1), seats in turn."""
    game = load_rules_game("piglet", goal=3, players=3)
    keys = ["d", " ", "h"] * 200
    s, view = _session(game, "hard", keys, tmp_path, monkeypatch, seed=3)
    assert s.names == ("You", "Computer 2", "Computer 3")
    assert s.run() == 0
    replay_piglet(view.events, 3, 3, 3)
    assert {e.seat for e, _ in view.events} == {0, 1, 2}
    r = view.result
    assert r["state"].over and r["analysed"] and r["decisions"]
    for d in r["decisions"]:  # the human's decisions valued by the max-n values
        assert d.cost >= -1e-12
    key = design_key(game)
    assert key == "rules:rules=piglet,goal=3,komi=0,players=3,ending=race"
    counts = load(tmp_path / "play-stats.json")["designs"][key]["levels"]["hard"]
    assert counts["games"] == 1


def test_check_playable_takes_three_and_four_seats_in_the_race():
    check_playable(load_rules_game("farkle", goal=1000, players=3))
    check_playable(load_rules_game("piglet", players=4))


def test_the_command_plays_three_seats(tmp_path):
    tail = play_command(tmp_path, ["piglet", "--goal", "4", "--players", "3", "--no-pause",
                                   "--seed", "2"], "Computer 3", ["You win", r"Computer \d wins"])
    assert "Your record at level medium on this design with 3 players: 1 game" in tail
    key = "rules:rules=piglet,goal=4,komi=0,players=3,ending=race"
    assert load(tmp_path / "play-stats.json")["designs"][key]["levels"]["medium"]["games"] == 1
