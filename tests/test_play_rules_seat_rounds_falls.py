"""``designer play`` of rules games with three or four seats under the
rounds ending where a bust can lower a banked score
(designer/play/rules_seat_rounds_falls.py): played by the play's own rules
with the hard level at every seat, valued position by position, the game
gives back the solve's win of every seat; a fresh turn valued from the
rows its ends read is the row the solve wrote for it, in every kind of
row and in the smaller games of a tie; a scripted game follows the rules;
the command plays one."""

import dataclasses

import numpy as np
import pytest
from test_engine_seat_rounds_falls import PENALTY, TWO3, WIPE12
from test_play_rules import play_command
from test_play_rules_seat_rounds import flow_values

from designer.engine import _seat_rounds_falls_kernels as sk
from designer.engine.game import RulesGame, load_rules_game
from designer.engine.rulesfile import parse_rules
from designer.play import rules_engine as R
from designer.play.rules_engine import RulesState


def _game(text, goal, players, ties):
    rules = dataclasses.replace(parse_rules(text), goal=goal, ties=ties)
    return RulesGame(rules, "<test>", (0,) * players, players=players, ending="rounds")


GAMES = {
    "wipe-3-replay": lambda: _game(WIPE12, 3, 3, "replay"),
    "wipe-3-earlier": lambda: _game(WIPE12, 3, 3, "earlier-seat"),
    "penalty-3-replay": lambda: _game(PENALTY, 3, 3, "replay"),
    "two3-3-replay": lambda: _game(TWO3, 3, 3, "replay"),
    "wipe-4-replay": lambda: _game(WIPE12, 2, 4, "replay"),
}
SLOW = {"two3-3-replay"}


def _full_key(st):
    """A position: with falling scores a tie plays on from the scores."""
    return (st.units, st.mover, st.s, st.t, st.fresh, st.pending, st.tied, st.winner)


@pytest.mark.parametrize("name", [pytest.param(k, marks=pytest.mark.slow) if k in SLOW else k
                                  for k in GAMES])
def test_the_hard_level_at_every_seat_wins_what_the_solve_says(name):
    """Played by the play's own rules (rounds, the last seat banking at
    once, busts that wipe or lower a score, tied seats playing on from
    their scores, or the earlier seat), the hard level at every seat wins
    each seat's share of the solve, to 1e-12."""
    game = GAMES[name]()
    sol = R.solve(game)
    assert sol.result.unsettled_positions == 0
    got, positions = flow_values(sol, game, _full_key)
    assert positions > 50
    assert np.abs(got - sol.result.value((0,) * game.players)).max() < 1e-12


def _row(sol, view):
    """The row the solve keeps for ``view`` (the kernel module's layout)."""
    t, kind, m, p0, p1, p2 = view
    gm = sol.games[t]
    pw, fa_off, ob_off, fb_off = gm.geo.pw, gm.geo.fa_off, gm.geo.ob_off, gm.geo.fb_off
    G, C = sol.result.goal, sol.result.cap
    if kind == sk.K_OA:
        return gm.gv[sk.G_OA] + m * pw[t] + p0
    if kind == sk.K_FA:
        return fa_off[m] + ((p0 - G) * 2 ** m + p1) * pw[t - m] + p2
    if kind == sk.K_OB:
        return ob_off[m] + (p0 - G) * pw[m] + p1
    return fb_off[m] + ((p0 - G) * (C - G + 1) + p1 - G) * 2 ** m + p2


@pytest.mark.parametrize("players", [3, 4])
def test_turn_starts_equal_the_solves_rows(players):
    """Every kind of row, in the game and in the smaller games a tie
    leaves: open rounds, final rounds, rounds that started level at or
    above the goal with and without a seat at the bar, tied seats whose
    scores fell below the goal. A fresh turn, valued by the play from the
    rows its ends read, equals the row the solve wrote."""
    game = _game(PENALTY, 3, players, "replay")
    sol = R.solve(game)
    G, lo = 3, -2
    kinds = set()
    err = 0.0
    # (scores of the seats playing, the mover's place): open, final (a seat
    # before the mover ended at or above the goal), a round that started
    # level at 4 (the seats before the mover fell below the goal), both
    patterns = lambda t: [((0,) * t, 0), ((1, -1) + (2,) * (t - 2), t - 1),  # noqa: E731
                          ((4, 1) + (2,) * (t - 2), 1), ((4,) * t, 0), ((-2,) + (4,) * (t - 1), 1),
                          ((4,) * t, 1), ((3, 5) + (4,) * (t - 2), t - 1)]
    states = []
    for tied in [tuple(range(players)), (0, 2), (1, 2)] + [(0, 1, 3)] * (players == 4):
        for scores, place in patterns(len(tied)):
            units = [1] * players  # the seats out of a tie keep a score below the bar
            for q, x in zip(tied, scores):
                units[q] = x
            states.append((tuple(units), tied[place], tied if len(tied) < players else ()))
    for units, mover, tied in states:
        st = RulesState(game, units, mover=mover, tied=tied)
        view = sol.view(st)
        kinds.add((view[0], view[1]))
        got = sol.turn(view).value(0, 0, fresh=True)
        want = sol.games[view[0]].A[_row(sol, view), sol.hidx[0], view[2]]
        err = max(err, abs(got - want))
        assert min(units) >= lo and st.tie == bool(tied)
    assert err < 1e-12
    for t in range(2, players + 1):
        assert {(t, k) for k in range(4)} <= kinds, sorted(kinds)
    assert G == sol.result.goal


def test_a_tie_plays_on_from_the_tied_scores():
    """Round ends by the rules: two of three level at the top play on
    alone (the third is out), a round of theirs below the goal is played
    again by them, every seat level plays a round of all seats, and under
    ``earlier-seat`` the earlier seat wins."""
    from designer.play.rules_seat_rounds_falls import end_turn, holding_wins

    game = _game(WIPE12, 3, 3, "replay")
    st = RulesState(game, (4, 1, 3), mover=2)
    nxt = end_turn(st, (4, 1, 4), 0)
    assert nxt.tied == (0, 2) and nxt.mover == 0 and nxt.round == 2 and not nxt.over
    fell = end_turn(R.replace(nxt, mover=2), (0, 1, 2), 0)  # both wiped or fell short
    assert fell.tied == (0, 2) and fell.mover == 0 and not fell.over
    won = end_turn(R.replace(nxt, mover=2), (4, 1, 5), 0)
    assert won.winner == 2
    assert holding_wins(R.replace(nxt, mover=2, units=(4, 1, 4)), 1)
    assert not holding_wins(R.replace(nxt, mover=0, units=(4, 1, 4)), 3)  # not last of the two
    level = end_turn(st, (4, 4, 4), 0)
    assert level.tied == () and level.mover == 0 and not level.over
    earlier = end_turn(dataclasses.replace(st, game=_game(WIPE12, 3, 3, "earlier-seat")),
                       (4, 1, 4), 0)
    assert earlier.winner == 0
    assert "play on alone from their tied scores" in nxt.ending_words


def test_the_wait_is_estimated_and_a_long_solve_refused():
    from designer.errors import DesignError

    game = load_rules_game("two-dice-pig", players=3, ending="rounds", goal=20)
    assert 0 < R.solve_seconds(game) < 600
    with pytest.raises(DesignError, match=r"playing Two-Dice Pig with 4 players under the "
                                          r"rounds ending needs .*(over the|lower the goal)"):
        R.solve(load_rules_game("two-dice-pig", players=4, ending="rounds"))


def test_the_command_plays_two_dice_pig_with_three_seats(tmp_path):
    tail = play_command(tmp_path, ["two-dice-pig", "--goal", "8", "--players", "3", "--ending",
                                   "rounds", "--no-pause", "--seed", "5"], "round 1",
                        ["Final scores"])  # (a number in "Computer 2 wins" is coloured)
    assert "with 3 players: 1 game" in tail
