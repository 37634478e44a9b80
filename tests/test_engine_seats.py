"""The engine with three and four seats (designer.engine.seats), race ending.

Checked against a slow reference written from the rules
(tests/engine_seats_reference.py: Gauss-Seidel over dictionaries), against
exact fractions, against today's N-player family solvers
(designer.solve), against the two-seat engine, and through the command
line.
"""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import cli
from engine_reference import (AsideDice, Deck, Die, FromModel, PairOfDice, PenaltyDie, same,
                              to_zero)
from engine_seats_reference import bellman_residual, reference_seats, reference_sweep_deltas

from designer.engine import build_model, solve_model
from designer.engine.game import check_game, load_rules_game, solve_game
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.engine.seats import TooLargeError, estimate, solve_seats_model
from designer.errors import DesignError
from designer.games import DeckGame, DiceGame
from designer.solve import solve

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = {goal}\n[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"
DECK = "goal = {goal}\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 3\n"
ASIDE = ("goal = {goal}\n[turn]\nforced_first = true\n[dice]\ncount = 3\nsides = 3\n"
         "other_faces = 1\nface.1 = {{ aside = true }}\naside_bust = 2\n")
MIN_BANK = "goal = {goal}\n[turn]\nmin_bank = 3\n[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"


# -- tiny games written twice: for the engine (build_model) and for the
# -- reference (a process, from the same rules) ------------------------------

class Choice:
    """A d3 in two moods. Calm: 1 busts, 2 offers 1 point staying calm or
    2 points turning wild, 3 scores 1. Wild: 1 and 2 bust, 3 scores 2. The
    next turn starts calm, or (``carry``) wild after a stop in a wild
    turn."""

    start = 0

    def __init__(self, carry):
        self.carry = carry

    def handover(self, s):
        return s if self.carry else 0

    def rolls(self, s):
        if s == 0:
            return [[(1 / 3, "bust", 0, same), (1 / 3, "choose", [(1, 0), (2, 1)]),
                     (1 / 3, "choose", [(1, 0)])]]
        return [[(2 / 3, "bust", 0, same), (1 / 3, "choose", [(2, 1)])]]


def choice_model(carry):
    return build_model([[[(1 / 3, "bust", 0, "none", 0), (1 / 3, "choose", [(1, 0), (2, 1)]),
                          (1 / 3, "choose", [(1, 0)])]],
                        [[(2 / 3, "bust", 0, "none", 0), (1 / 3, "choose", [(2, 1)])]]],
                       [0, 1] if carry else [0, 0])


class Throws:
    """Three ways to play: throw one d3 once (a 1 ends the turn with
    nothing, 2 and 3 bank their points), throw two d3 once (any 1 banks 1
    point, else their sum), or flip a coin (tails busts, heads adds 1 and
    the turn goes on)."""

    start = 0

    def handover(self, s):
        return 0

    def rolls(self, s):
        one = [(1 / 3, "end", 0, 0), (1 / 3, "end", 2, 0), (1 / 3, "end", 3, 0)]
        two = {}
        for a, b in itertools.product((1, 2, 3), repeat=2):
            pts = 1 if 1 in (a, b) else a + b
            two[pts] = two.get(pts, 0) + 1 / 9
        coin = [(0.5, "bust", 0, same), (0.5, "choose", [(1, 0)])]
        return [one, [(p, "end", pts, 0) for pts, p in sorted(two.items())], coin]


def throws_model(forced):
    two = {}
    for a, b in itertools.product((1, 2, 3), repeat=2):
        pts = 1 if 1 in (a, b) else a + b
        two[pts] = two.get(pts, 0) + 1 / 9
    return build_model([[[(1 / 3, "end", 0, 0), (1 / 3, "end", 2, 0), (1 / 3, "end", 3, 0)],
                         [(p, "end", pts, 0) for pts, p in sorted(two.items())],
                         [(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0)])]]], [0],
                       forced_first=forced)


def _text(template, goal):
    return parse_rules(template.format(goal=goal))


# name: (model, start-state names of the reference (in the model's state
# order), the reference's process, its options, goal, seats)
def _cases():
    out = {}
    for n in (3, 4):
        for g in (2, 3, 4):
            r = _text(PIGLET, g)
            out[f"piglet-{g}-{n}"] = (r.model, ["roll"], Die(["bust", 1]), {}, g, n)
        r = _text(D3, 5 if n == 3 else 4)
        out[f"d3-bust-{n}"] = (r.model, ["roll"], Die(["bust", 2, 3]), {}, r.goal, n)
        # goal 4: the deck's 3-seat game to 5 has tuples where no best
        # reply settles (test_a_max_n_cycle_is_reported)
        r = _text(DECK, 4)
        out[f"deck-2-3-{n}"] = (r.model, r.keys, Deck(2, 3), dict(forced_first=True), 4, n)
        r = _text(ASIDE, 4)
        out[f"aside-forced-{n}"] = (r.model, r.keys, AsideDice(3, 3, 2),
                                    dict(forced_first=True), 4, n)
        r = _text(MIN_BANK, 5 if n == 3 else 4)
        out[f"d3-min-bank-{n}"] = (r.model, ["roll"], Die(["bust", 2, 3]), dict(min_bank=3),
                                   r.goal, n)
        out[f"choose-calm-{n}"] = (choice_model(False), [0, 1], Choice(False), {},
                                   5 if n == 3 else 4, n)
        for forced in (False, True):
            out[f"end-{'forced' if forced else 'free'}-{n}"] = (
                throws_model(forced), [0], Throws(), dict(forced_first=forced), 5, n)
    # (with three seats a wild hand-over lets every seat prefer passing
    # forever: test_a_game_that_need_not_end_is_reported)
    out["choose-carry-4"] = (choice_model(True), [0, 1], Choice(True), {}, 4, 4)
    return out


CASES = _cases()


# -- exact figures ------------------------------------------------------------

@pytest.mark.parametrize("players, want", [(3, (16, 12, 9)), (4, (64, 48, 36, 27))])
def test_piglet_to_two_exact(players, want):
    """Piglet to 2: banking 1 point never helps, so every turn flips until
    two heads (a win, 1/4) or tails (the next seat's turn, 3/4). Seat ``s``
    wins ``(3/4)^(s-1) / 4 / (1 - (3/4)^N)``: 16/37, 12/37, 9/37 with three
    seats; 64/175, 48/175, 36/175, 27/175 with four."""
    total = sum(want)
    r = solve_seats_model(_text(PIGLET, 2).model, 2, players)
    got = r.seat_win()
    for g, w in zip(got, want, strict=True):
        assert abs(g - w / total) < 1e-14
    first = Fraction(1, 4) / (1 - Fraction(3, 4) ** players)
    assert abs(got[0] - float(first)) < 1e-14


# -- the engine against the reference -------------------------------------------

@pytest.mark.parametrize("name", list(CASES))
def test_engine_matches_reference(name):
    """Every turn start of the whole table (every tuple of scores, every
    start state, every seat's probability) to 1e-9; the reference run on
    the model's arrays agrees with the one written from the rules, so the
    model and the kernels are checked apart."""
    model, keys, proc, opts, goal, players = CASES[name]
    got = solve_seats_model(model, goal, players)
    want = reference_seats(proc, goal, players, max_iter=20_000, **opts)
    from_model = reference_seats(FromModel(model), goal, players, max_iter=20_000, **opts)
    assert got.unsettled_positions == 0
    assert got.residual <= 1e-12
    for h, state in enumerate(got.start_states):
        key = keys[state]
        for scores in itertools.product(range(goal), repeat=players):
            v = got.win[scores + (h,)]
            assert np.abs(v - np.array(want[(scores, key)])).max() < 1e-9, (scores, key)
            assert np.abs(v - np.array(from_model[(scores, int(state))])).max() < 1e-9


SNAKE_EYES = ("goal = {goal}\n[dice]\ncount = 2\nsides = 3\nface.1 = {{ bust = true }}\n"
              "[dice.bust_effect]\nbust_faces = 2\nscore = \"zero\"\n")
PENALTY = ("goal = {goal}\n[dice]\nsides = 3\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
           "face.3 = {{ points = 2 }}\n[dice.bust_effect]\nscore = \"penalty\"\npenalty = 1\n"
           "floor = -2\n")


@pytest.mark.parametrize("name, players, goal", [("snake-eyes", 3, 5), ("snake-eyes", 4, 4),
                                                 ("penalty", 3, 5), ("penalty", 4, 4)])
def test_scores_that_fall_match_reference(name, players, goal):
    """Busts that set the banked score to 0 (two 1s of two d3) or take a
    point down to a floor of -2: the table is iterated until it settles
    (several passes, the residual reported), every turn start equal to the
    reference's, the negative scores included."""
    text, proc, opts = {"snake-eyes": (SNAKE_EYES, PairOfDice(3), {}),
                        "penalty": (PENALTY, PenaltyDie(["bust", 1, 2], 1, -2),
                                    dict(floor=-2))}[name]
    rules = _text(text, goal)
    got = solve_seats_model(rules.model, goal, players)
    want = reference_seats(proc, goal, players, max_iter=20_000, **opts)
    assert got.passes > 1 and got.residual <= 1e-12 and got.unsettled_positions == 0
    assert got.floor == opts.get("floor", 0)
    for scores in itertools.product(range(got.floor, goal), repeat=players):
        assert np.abs(got.value(scores) - np.array(want[(scores, "roll")])).max() < 1e-9


class WildZero(Choice):
    """:class:`Choice` carried over, where a wild 1 busts and sets the
    banked score to 0 (a wild 2 busts keeping it)."""

    def __init__(self):
        super().__init__(carry=True)

    def rolls(self, s):
        if s == 0:
            return super().rolls(s)
        return [[(1 / 3, "bust", 0, to_zero), (1 / 3, "bust", 0, same),
                 (1 / 3, "choose", [(2, 1)])]]


@pytest.mark.parametrize("players, goal", [(3, 5), (4, 4)])
def test_falling_scores_with_two_start_states_solve_the_equations(players, goal):
    """Two start states (the general sweep) and a bust that zeroes the
    score: value iteration from an equal share cycles here, while the
    engine's passes settle; its table solves the rules' equations to the
    residual it reports."""
    model = build_model([[[(1 / 3, "bust", 0, "none", 0), (1 / 3, "choose", [(1, 0), (2, 1)]),
                           (1 / 3, "choose", [(1, 0)])]],
                         [[(1 / 3, "bust", 0, "zero", 0), (1 / 3, "bust", 0, "none", 0),
                           (1 / 3, "choose", [(2, 1)])]]], [0, 1])
    got = solve_seats_model(model, goal, players)
    assert got.passes > 1 and got.unsettled_positions == 0 and got.residual <= 1e-12
    res = bellman_residual(WildZero(), goal, players, lambda sc, h: got.value(sc, h))
    assert res <= 1e-12
    # value iteration from an equal share falls into a cycle: from some sweep
    # on every sweep moves a value by the same amount, far from zero
    tail = reference_sweep_deltas(WildZero(), goal, players, 300)[-150:]
    assert min(tail) > 1e-3 and max(tail) - min(tail) < 1e-9


def test_two_seats_with_falling_scores_equal_the_two_seat_solver():
    rules = load_rules(example_path("two-dice-pig"))
    two = solve_model(rules.model, 30)
    got = solve_seats_model(rules.model, 30, 2)
    assert np.abs(two.win - got.win[..., 0]).max() < 1e-11


def _table(got, keys):
    """The engine's turn starts as the reference's ``values(scores, key)``."""
    h = {keys[int(state)]: i for i, state in enumerate(got.start_states)}
    return lambda scores, key: got.win[tuple(scores) + (h[key],)]


def test_a_table_value_iteration_cannot_reach_solves_the_equations():
    """The deck of 2 bad and 3 good items to 5 with four seats: value
    iteration from an equal share cycles (the seats' best replies chase
    each other from there), while the engine's policy iteration settles
    every class; its table solves the equations of the rules exactly."""
    r = _text(DECK, 5)
    got = solve_seats_model(r.model, 5, 4)
    assert got.unsettled_positions == 0
    assert bellman_residual(Deck(2, 3), 5, 4, _table(got, r.keys), forced_first=True) < 1e-12


def test_a_game_that_need_not_end_is_reported():
    """Three seats, the wild mood handed over after a stop: at 0 points
    each, a seat starting wild would rather pass (the next seat then starts
    wild too) than roll, whose likely bust hands the next seat a calm
    start. Passes answered by passes never end the game, so no best reply
    settles there: the solve ends and says so, where plain value iteration
    keeps its starting guess of an equal share."""
    got = solve_seats_model(choice_model(True), 3, 3)
    assert got.unsettled_positions > 0 and got.unsettled_residual > 1e-6
    assert np.abs(got.win.sum(axis=-1) - 1).max() < 1e-12
    want = reference_seats(Choice(True), 3, 3, max_iter=20_000)
    assert want[((0, 0, 0), 1)] == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-15)


def test_a_max_n_cycle_is_reported():
    """The deck of 2 bad and 3 good items to 5 with three seats has a
    class where the seats' best replies cycle (plain value iteration from
    the rules does not converge either): the solve ends, says how many
    positions did not settle and their residual, and every value is still
    a probability vector."""
    r = _text(DECK, 5)
    got = solve_seats_model(r.model, 5, 3)
    assert got.unsettled_positions > 0 and got.unsettled_residual > 1e-6
    assert np.abs(got.win.sum(axis=-1) - 1).max() < 1e-12
    assert got.win.min() >= -1e-12 and got.win.max() <= 1 + 1e-12
    with pytest.raises(RuntimeError, match="did not converge"):
        reference_seats(Deck(2, 3), 5, 3, forced_first=True, max_iter=300)
    assert bellman_residual(Deck(2, 3), 5, 3, _table(got, r.keys), forced_first=True) > 1e-6


# -- komi ----------------------------------------------------------------------------

@pytest.mark.parametrize("players, komi, start", [
    (3, (0, 1, 2), (0, 1, 2)), (3, 2, (0, 2, 2)), (4, (0, 3, 0, 1), (0, 3, 0, 1)),
    (4, 1, (0, 1, 1, 1)), (3, None, (0, 0, 0))])
def test_komi_vectors(players, komi, start, tmp_path):
    """A komi vector gives each seat its start points (one integer: every
    later seat), read off the one table; the same as the reference's turn
    start at those scores."""
    path = tmp_path / "d3.toml"
    path.write_text(D3.format(goal=4))
    game = load_rules_game(str(path), komi=komi, players=players)
    assert game.start == start
    out = solve_game(game)
    want = reference_seats(Die(["bust", 2, 3]), 4, players)[(start, "roll")]
    assert out["seat_win"] == pytest.approx(want, abs=1e-9)
    assert out["first_player_win"] == out["seat_win"][0]
    assert out["fairness"] == pytest.approx(max(abs(p - 1 / players) for p in want), abs=1e-9)


def test_komi_in_points_of_the_unit():
    """Farkle counts points in units of 50: komi 100 is two units for every
    later seat; a vector's entries too."""
    assert load_rules_game("farkle", players=3, komi=100).start == (0, 2, 2)
    assert load_rules_game("farkle", players=4, komi=(0, 50, 0, 150)).start == (0, 1, 0, 3)
    with pytest.raises(DesignError, match="a multiple of 50"):
        load_rules_game("farkle", players=3, komi=(0, 50, 75))


@pytest.mark.parametrize("komi, words", [
    ((0, 1), "a list of 3 integers (one per seat, seat 1 first) for 3 players"),
    ((0, 1, 2, 3), "a list of 3 integers"),
    ((0, 1, 10), "each entry with 0 <= komi <= 9"),
    ((0, -1, 2), "each entry with 0 <= komi <= 9"),
    ((2, 0, 0), "a first entry of 0 under the race ending"),
    (10, "an integer with 0 <= komi <= 9"),
    (-1, "negative komi, points for seat 1, needs --ending rounds"),
])
def test_bad_komi_vectors(komi, words):
    with pytest.raises(DesignError) as err:
        load_rules_game("piglet", players=3, komi=komi)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_fair_komi_is_the_fairest_vector():
    """The fair komi is the vector (seat 1 none, each later seat
    0 .. goal - 1) with the smallest largest gap from an equal share, by
    brute force over every vector."""
    game = load_rules_game("piglet", goal=5, players=3)
    out = solve_game(game)
    r = solve_seats_model(game.rules.model, 5, 3)
    best = min(((max(abs(p - 1 / 3) for p in r.value((0, a, b))), a + b, (0, a, b))
                for a in range(5) for b in range(5)))
    assert out["fair_komi"] == list(best[2])
    assert out["fair_komi_fairness"] == pytest.approx(best[0], abs=1e-15)
    assert out["fair_komi_seat_win"] == pytest.approx(list(r.value(best[2])), abs=1e-15)
    assert [row["komi"] for row in out["komi_table"]] == [0, 1, 2, 3, 4]
    for row in out["komi_table"]:
        m = row["komi"]
        assert row["seat_win"] == pytest.approx(list(r.value((0, m, m))), abs=1e-15)


# -- today's N-player solvers ---------------------------------------------------------

def test_pig_matches_todays_solver():
    """3-player Pig to 20: the engine on the shipped pig.toml equals the
    dice family's rotation-class solver at every turn start, 1e-12."""
    fam = solve(DiceGame(faces=6, goal=20, players=3))
    rules = load_rules(example_path("pig"))
    got = solve_seats_model(rules.model, 20, 3)
    assert fam.unsettled_positions == 0 and got.unsettled_positions == 0
    assert np.abs(fam.win - got.win[..., 0, :]).max() < 1e-12


def test_four_player_dice_match_todays_solver():
    fam = solve(DiceGame(faces=4, goal=12, players=4))
    text = open(example_path("pig")).read().replace("sides = 6", "sides = 4")
    got = solve_seats_model(parse_rules(text).model, 12, 4)
    assert fam.unsettled_positions == 0 and got.unsettled_positions == 0
    assert np.abs(fam.win - got.win[..., 0, :]).max() < 1e-12


@pytest.mark.parametrize("bad, good, goal", [(2, 8, 8), (6, 42, 12)])
def test_decks_match_todays_solver(bad, good, goal):
    """3-player deck races: the shipped fowl-play.toml with its deck and
    goal changed equals the deck family's solver at every turn start (the
    family's table holds every deck ``(w, c)``), 1e-12."""
    fam = solve(DeckGame(bad=bad, good=good, goal=goal, players=3))
    text = (open(example_path("fowl-play")).read().replace("bad = 6", f"bad = {bad}")
            .replace("good = 42", f"good = {good}").replace("goal = 50", f"goal = {goal}"))
    rules = parse_rules(text)
    got = solve_seats_model(rules.model, goal, 3)
    assert fam.unsettled_positions == 0 and got.unsettled_positions == 0
    for h, state in enumerate(got.start_states):
        w, c = rules.keys[state]
        assert np.abs(fam.win[:, :, :, w, c, :] - got.win[:, :, :, h, :]).max() < 1e-12


# -- invariants -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, goal", [("piglet", 10), ("pig", 30), ("fowl-play", 20),
                                        ("farkle", 20)])
def test_two_seats_equal_the_two_seat_solver(name, goal):
    """With two seats the N-seat solver is the two-seat one: the mover's
    win at every turn start, 1e-12."""
    rules = load_rules(example_path(name))
    two = solve_model(rules.model, goal)
    got = solve_seats_model(rules.model, goal, 2)
    assert np.abs(two.win - got.win[..., 0]).max() < 1e-12
    assert np.abs(got.win.sum(axis=-1) - 1).max() < 1e-12


@pytest.mark.parametrize("name, goal, players", [("pig", 25, 3), ("fowl-play", 12, 3),
                                                 ("farkle", 12, 3), ("pig", 10, 4)])
def test_seat_wins_sum_to_one(name, goal, players):
    rules = load_rules(example_path(name))
    got = solve_seats_model(rules.model, goal, players)
    assert np.abs(got.win.sum(axis=-1) - 1).max() < 1e-12
    assert got.win.min() >= -1e-12


@pytest.mark.parametrize("name, goal", [("pig", 30), ("fowl-play", 10)])
def test_one_worker_and_two_give_the_same_table(name, goal):
    """The schedule on two threads (classes solved as their inputs are
    ready) gives exactly the table of one worker solving them in order."""
    import numba

    rules = load_rules(example_path(name))
    two = solve_seats_model(rules.model, goal, 3)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = solve_seats_model(rules.model, goal, 3)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.win, two.win)


@pytest.mark.parametrize("name, goal", [("snake-eyes", 9), ("penalty", 8)])
def test_passes_where_scores_fall_do_not_depend_on_the_threads(name, goal):
    """Where scores fall the passes run on every thread too, each class
    reading the classes below its own score sum as the last pass left
    them: the table, passes, residual and game lengths are those of one
    worker solving the classes in order, bit for bit (three runs on all
    threads: they meet in another order each time)."""
    import numba

    from designer.engine.seat_length import seat_lengths

    rules = _text({"snake-eyes": SNAKE_EYES, "penalty": PENALTY}[name], goal)
    assert rules.model.falls
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = solve_seats_model(rules.model, goal, 3)
        L1, _ = seat_lengths(rules.model, one)
    finally:
        numba.set_num_threads(before)
    for _ in range(3):
        many = solve_seats_model(rules.model, goal, 3)
        L, _ = seat_lengths(rules.model, many)
        assert np.array_equal(one.win, many.win) and np.array_equal(L1, L)
        assert (many.passes, many.residual, many.unsettled_positions) == (
            one.passes, one.residual, one.unsettled_positions)
    assert one.passes > 3


def test_state_count_and_memory_before_solving():
    """rules check's figures: the positions the solve covers (every tuple
    of scores times the turn positions of the mover's score), before
    anything is solved."""
    rules = load_rules(example_path("farkle"))
    est = estimate(rules.model, 20, 3)
    got = solve_seats_model(rules.model, 20, 3)
    assert est["positions"] == got.states == 20 * solve_model(rules.model, 20).states
    assert est["memory"] > 20 ** 3 * 3 * 8
    game = load_rules_game("farkle", goal=1000, players=3)
    check = check_game(game)
    assert check["states"] == got.states and check["players"] == 3 and check["fits"]


def test_too_large_is_refused_in_one_line():
    rules = load_rules(example_path("pig"))
    with pytest.raises(TooLargeError) as err:
        solve_seats_model(rules.model, 100, 4)
    text = str(err.value)
    assert "positions with 4 players" in text and "MB, over the limit of 2,048 MB" in text
    assert "\n" not in text


def test_farkle_penalty_counts_two_seats():
    text = open(example_path("farkle")).read().replace(
        "hot_dice = true", "hot_dice = true\nfarkle_penalty = { farkles = 3, points = 500, "
        "floor = -2500 }")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.toml"
        path.write_text(text)
        game = load_rules_game(str(path), goal=500, players=3)
        with pytest.raises(DesignError, match="farkle_penalty counts the farkles of two seats"):
            solve_game(game)
        with pytest.raises(DesignError, match="allowed only with 2 players, not 3"):
            check_game(game)


# -- the command line -----------------------------------------------------------------------

def test_cli_solves_three_seats():
    r = cli("solve", "piglet", "--players", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["players"] == 3 and len(out["seat_win"]) == 3
    assert abs(sum(out["seat_win"]) - 1) < 1e-12
    want = reference_seats(Die(["bust", 1]), 10, 3, tol=1e-13, max_iter=20_000)[
        ((0, 0, 0), "roll")]
    assert out["seat_win"] == pytest.approx(want, abs=1e-9)
    for key in ("fair_komi", "fair_komi_seat_win", "fair_komi_fairness", "komi_table",
                "unsettled_positions", "unsettled_residual", "states", "residual"):
        assert key in out


def test_cli_komi_vector_and_rules_check():
    r = cli("solve", "piglet", "--goal", "6", "--players", "4", "--komi", "0,1,2,3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    want = solve_seats_model(_text(PIGLET, 6).model, 6, 4).value((0, 1, 2, 3))
    assert out["seat_win"] == pytest.approx(list(want), abs=1e-15)
    r = cli("rules", "check", "piglet", "--players", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["states"] == solve_game(load_rules_game(
        "piglet", players=3))["states"]


@pytest.mark.parametrize("komi, words", [("0,1", "a list of 3 integers"),
                                         ("0,1,10", "each entry with 0 <= komi <= 9"),
                                         ("1,0,0", "a first entry of 0"),
                                         ("-2", "needs --ending rounds")])
def test_cli_refuses_a_bad_komi_vector(komi, words):
    r = cli("solve", "piglet", "--players", "3", "--komi", komi, "--json")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "komi" in lines[0]


def test_cli_refuses_a_game_too_large():
    r = cli("solve", "rules:pig", "--players", "4", "--json")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "positions with 4 players" in lines[0] and "over the limit" in lines[0]

