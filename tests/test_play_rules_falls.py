"""``designer play`` of a two-seat rules game under the rounds ending where a
bust can lower a banked score (designer/play/rules_rounds_falls.py): the
values the hard level plays equal the iterated solve's turn starts, games
played by the rules of rounds, wipes and penalties win as often as the
solve says, and the command plays Two-Dice Pig in a pseudo-terminal."""

import numpy as np
import pytest
from test_engine_rounds_falls import FORCED, PENALTY, TWO3, WIPE
from test_play_rules_rounds import play_in_a_terminal

from designer.engine.game import load_rules_game
from designer.engine.model import BUST, END, PENALTY as LOWER, ZERO
from designer.errors import DesignError
from designer.play import make_player
from designer.play import rules_engine as R
from designer.play import rules_rounds_falls as RF

#: (file text, tie rule): a pair of dice whose double 1 wipes, a die whose
#: 1 wipes, a penalty down to a floor below 0, a forced first roll with a
#: bank rule.
CASES = {"two3": (TWO3, "replay"), "wipe": (WIPE, "earlier-seat"),
         "penalty": (PENALTY, "replay"), "penalty-earlier": (PENALTY, "earlier-seat"),
         "forced": (FORCED, "replay")}


def _game(tmp_path, name):
    text, ties = CASES[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(f'ending = "rounds"\nties = "{ties}"\n' + text)
    return load_rules_game(str(path), ending="rounds")


@pytest.mark.parametrize("name", list(CASES))
def test_turn_starts_equal_the_falls_solve(name, tmp_path):
    """Every turn start the solve keeps, recomputed by the play's turn
    recursion from the tables' ends: seat 1 at a round's start (both
    scores from the floor to below the goal; under replay also a replayed
    round from tied scores up to the cap), seat 2 after any end of seat
    1's turn (and, under replay, from a tied score at or above the goal)."""
    game = _game(tmp_path, name)
    sol = R.solve(game)
    assert isinstance(sol, RF.FallsSolution)
    r = sol.result
    lo, G, C = r.floor, r.goal, r.cap
    replay = game.rules.ties == "replay"
    err, checked = 0.0, 0
    for h, s in enumerate(int(x) for x in r.start_states):
        starts = [(a, b) for a in range(lo, G) for b in range(lo, G)]
        if replay:
            starts += [(a, a) for a in range(G, C + 1)]
        for a, b in starts:
            v = sol.turn(("seat1", a, b)).value(s, 0, fresh=True)
            err = max(err, abs(v - r.X[a - lo, b - lo, h]))
            checked += 1
        for b in range(lo, C + 1 if replay else G):
            for a in range(lo, C + 1):
                v = sol.turn(("seat2", b, a)).value(s, 0, fresh=True)
                err = max(err, abs(v - r.Y[b - lo, a - lo, h]))
                checked += 1
    assert checked > (G - lo) ** 2
    assert err < 1e-12, err
    # the opening: the best action's value is seat 1's win
    st = R.new_game(game)
    assert max(sol.action_values(st).values()) == pytest.approx(r.first_player_win, abs=1e-12)


def _banked_after(model, o, score):
    """A bust's banked score, from the turn model's effect."""
    e = int(model.out_effect[o])
    if e == ZERO:
        return 0
    if e == LOWER:
        return max(score - int(model.out_penalty[o]), model.floor)
    return score


@pytest.mark.parametrize("name, games", [("two3", 1500), ("penalty", 1500)])
def test_optimal_play_wins_as_often_as_the_solve_says(name, games, tmp_path):
    """The hard level at both seats, games drawn with seeded dice: every
    step follows the rules (a bust leaves the turn's effect on the banked
    score, a round ends after seat 2, a tie at or above the goal is
    replayed from the tied scores, the higher score wins), and seat 1 wins
    within 4 standard errors of the solve's probability."""
    game = _game(tmp_path, name)
    sol = R.solve(game)
    m, G = game.rules.model, game.rules.goal
    hard = make_player("hard", sol, game=game)
    rng = np.random.default_rng(7)
    wins, falls, replays = 0, 0, 0
    for _ in range(games):
        st = R.new_game(game)
        for _ in range(10_000):
            if st.over:
                break
            action = hard.decide(st)
            before, seat = st.units, st.mover
            outcome = R.random_outcome(st, action, rng) if action[0] == "go" else None
            st, event = R.step(st, action, outcome)
            if event.bust:
                want = _banked_after(m, outcome, before[seat])
                assert st.units[seat] == want and int(m.out_kind[outcome]) == BUST
                falls += want < before[seat]
            elif outcome is not None and int(m.out_kind[outcome]) == END:
                assert st.units[seat] > before[seat]
            if not st.over and st.mover == 0 and seat == 1 and st.tie:
                a, b = st.units
                assert a == b >= G and game.rules.ties == "replay"
                replays += 1
        assert st.over
        a, b = st.units
        assert max(a, b) >= G and a != b or game.rules.ties == "earlier-seat"
        assert st.winner == (0 if a > b or (a == b and game.rules.ties != "replay") else 1)
        wins += st.winner == 0
    p = sol.result.first_player_win
    se = np.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) < 4 * se, (wins / games, p)
    assert falls > 0 and replays > 0  # the games met the rules they test


def test_a_long_solve_is_refused_before_it_starts():
    game = load_rules_game("two-dice-pig", goal=1000, ending="rounds")
    with pytest.raises(DesignError, match=r"^playing Two-Dice Pig under the rounds ending needs "
                                          r"its exact solve first: about [\d.,]+ hours .*"
                                          r"play waits for; lower the goal \(--goal\)$"):
        R.solve(game)
    assert R.solve_seconds(game) > 600
    assert R.solve_seconds(load_rules_game("two-dice-pig", goal=1000)) is None  # the race


def test_the_command_plays_two_dice_pig_in_rounds(tmp_path):
    play_in_a_terminal(tmp_path, ["two-dice-pig", "--ending", "rounds", "--goal", "12",
                                  "--seed", "4"], 6)
