"""The rounds ending in the engine (designer.engine.rounds), two seats:
against a slow reference written from the rules (tests/engine_reference.py),
against today's rounds solver on Pig, and The Great Rolled Ones."""

import numpy as np
import pytest
from engine_reference import AsideDice, Die, reference_rounds

from designer import load_game
from designer.engine.game import load_rules_game, solve_game
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import RulesError, example_path, load_rules, parse_rules
from designer.errors import DesignError
from designer.solve import solve

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
# two bust faces: holding at a tie beats rolling on, so the tie rules differ
HARD = ("goal = 4\n[dice]\nsides = 3\nface.1 = { bust = true }\nface.2 = { bust = true }\n"
        "face.3 = { points = 1 }\n")
ASIDE = ("goal = 6\n[turn]\nforced_first = true\n[dice]\ncount = 3\nsides = 3\n"
         "other_faces = 1\nface.1 = { aside = true }\naside_bust = 2\n")

CASES = [(ties, name, text, proc, opts)
         for ties in ("replay", "earlier-seat")
         for name, text, proc, opts in [
             ("piglet-3", PIGLET.format(goal=3), Die(["bust", 1]), {}),
             ("piglet-5", PIGLET.format(goal=5), Die(["bust", 1]), {}),
             ("d3-8", D3, Die(["bust", 2, 3]), {}),
             ("hard-4", HARD, Die(["bust", "bust", 1]), {})]]
# turns that can run long: the reference's absolute cap matters in a tie
# round, so only the tie rule without tie rounds here
CASES.append(("earlier-seat", "aside-6", ASIDE, AsideDice(3, 3, 2), dict(forced_first=True)))


@pytest.mark.parametrize("ties, name, text, proc, opts", CASES,
                         ids=[f"{c[1]}-{c[0]}" for c in CASES])
def test_rounds_match_reference(ties, name, text, proc, opts):
    rules = parse_rules(text, name)
    cap = rules.goal + 30
    got = solve_rounds_model(rules.model, rules.goal, ties=ties, cap=cap)
    p, R = reference_rounds(proc, rules.goal, ties, cap=cap, **opts)
    key = "roll" if proc.start == "roll" else 0
    assert abs(got.first_player_win - p) < 1e-9
    for a in range(rules.goal):
        for b in range(rules.goal):
            assert abs(got.X[a, b, 0] - R[(a, b, key)]) < 1e-9, (a, b)
    assert got.residual <= 1e-12


def test_tie_rules_differ_where_a_tie_is_worth_holding():
    rules = parse_rules(HARD)
    replay = solve_rounds_model(rules.model, rules.goal, ties="replay")
    earlier = solve_rounds_model(rules.model, rules.goal, ties="earlier-seat")
    assert earlier.first_player_win > replay.first_player_win + 1e-3  # ties go to seat 1


@pytest.mark.parametrize("goal", [20, 100])
def test_pig_rounds_match_todays_solver(goal):
    rules = load_rules(example_path("pig"))
    got = solve_rounds_model(rules.model, goal, ties="replay")
    today = solve(load_game("pig", goal=goal, ending="rounds"))
    assert got.cap == today.cap
    table = today.start_win.reshape(goal, goal, 2)[..., 0]
    assert np.abs(got.X[:, :, 0] - table).max() < 1e-12


def test_the_cap_does_not_move_the_figures():
    rules = load_rules(example_path("great-rolled-ones"))
    a = solve_rounds_model(rules.model, rules.goal, ties=rules.ties, cap=rules.goal + 60)
    b = solve_rounds_model(rules.model, rules.goal, ties=rules.ties, cap=rules.goal + 100)
    assert np.abs(a.X - b.X).max() < 1e-12
    rules = parse_rules(ASIDE)
    a = solve_rounds_model(rules.model, rules.goal, ties="replay", cap=rules.goal + 20)
    b = solve_rounds_model(rules.model, rules.goal, ties="replay", cap=rules.goal + 60)
    assert np.abs(a.X - b.X).max() < 1e-12


def test_great_rolled_ones():
    game = load_rules_game("great-rolled-ones")
    assert game.ending == "rounds" and game.rules.ties == "earlier-seat"
    assert game.rules.model.forced_first
    out = solve_game(game)
    assert round(out["first_player_win"], 6) == 0.449553
    assert out["fair_komi"] == -3  # seat 1 starts with 3 points
    assert round(out["fair_komi_first_player_win"], 6) == 0.495505
    text = example_path("great-rolled-ones").read_text()
    assert "Random Fun Generator" in text and "Neller" in text and "2023" in text


def test_ties_only_with_the_rounds_ending():
    with pytest.raises(RulesError, match="ties: only with ending"):
        parse_rules("ties = \"replay\"\n" + D3)
    with pytest.raises(RulesError, match="ties: 'later' is not allowed"):
        parse_rules("ending = \"rounds\"\nties = \"later\"\n" + D3)


def test_falling_scores_are_refused_under_rounds():
    rules = load_rules(example_path("two-dice-pig"))
    with pytest.raises(DesignError, match="lower a banked score"):
        solve_rounds_model(rules.model, 20)


# -- the fast solver's paths: more start states, two feedback states, a bank
# -- rule, turns of one throw, threads ----------------------------------------

MIN_BANK = D3.replace("goal = 8", "goal = 7").replace("[dice]", "[turn]\nmin_bank = 3\n[dice]")
HOG = ("goal = 7\n[dice]\ncount = [1, 2]\nsides = 3\nface.1 = { bust = true }\n"
       "one_throw = true\n")


def _two_dice():
    """Two dice taking turns by the hand-over: state 0 throws a d3 (1 busts,
    2 and 3 score), state 1 a d2 (1 busts, 2 scores); the first throw of a
    turn is forced (a pass would hand the opponent the weaker die, and
    passes answered by passes have no value). A bust starts the next turn
    with the same die, a stop with the other, so each die's bust returns
    to itself: two feedback states."""
    from designer.engine import build_model

    conts = [[[(1 / 3, "bust", 0, "none", 0), (1 / 3, "choose", [(2, 0)]),
               (1 / 3, "choose", [(3, 0)])]],
             [[(1 / 2, "bust", 1, "none", 0), (1 / 2, "choose", [(2, 1)])]]]
    return build_model(conts, [1, 0], forced_first=True)


# the reference's tie rounds climb towards its absolute cap, which turns of
# one throw that tie often (both bust) reach: Hog only without tie rounds
PATHS = [(ties, name) for ties in ("replay", "earlier-seat") for name in ("min-bank", "two-dice")]
PATHS.append(("earlier-seat", "hog"))


@pytest.mark.parametrize("ties, name", PATHS, ids=[f"{n}-{t}" for t, n in PATHS])
def test_rounds_paths_match_reference(ties, name):
    """A bank rule (totals below it swept for every distance of the final
    round), turns of one throw (an end of the turn with points) and a
    model whose busts return to two different start states (every start
    value an unknown of its pair): against the slow reference, every
    round start and start state."""
    from engine_reference import FromModel

    if name == "two-dice":
        model, goal, opts = _two_dice(), 4, dict(forced_first=True)
    else:
        rules = parse_rules(MIN_BANK if name == "min-bank" else HOG)
        model, goal = rules.model, rules.goal
        opts = dict(min_bank=model.min_bank, forced_first=model.forced_first)
    cap = goal + 26  # the reference's tie rounds within 3e-10 of a higher cap
    got = solve_rounds_model(model, goal, ties=ties, cap=cap)
    p, R = reference_rounds(FromModel(model), goal, ties, cap=cap, **opts)
    assert abs(got.first_player_win - p) < 1e-9
    for h, state in enumerate(got.start_states):
        if any(k[2] == state for k in R):
            for a in range(goal):
                for b in range(goal):
                    assert abs(got.X[a, b, h] - R[(a, b, int(state))]) < 1e-9, (a, b, state)
    assert got.residual <= 1e-12


def test_two_feedback_states_are_found():
    """The model above needs both starts' values as unknowns (the race's
    plan says so), so the rounds ending takes its general path."""
    from designer.engine.solve import plan

    assert len(plan(_two_dice(), 6)["fh"]) == 2


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_deck_rounds_match_todays_solver(ties):
    """A deck persists between turns: many start states, one feedback state
    (the fresh deck). Against today's deck rounds solver at its cap (the
    goal plus the good items), every round start and deck state, to 1e-12;
    earlier-seat against the reference."""
    from engine_reference import Deck

    text = "goal = 9\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 4\n"
    rules = parse_rules(text)
    assert len(rules.model.start_states()) > 1
    if ties == "replay":
        today = solve(load_game("deck", bad=2, good=4, goal=9, ending="rounds"))
        got = solve_rounds_model(rules.model, 9, ties=ties, cap=today.cap)
        win = today.win[0, :, :, :, 0].reshape(9, 9, 2, 5)  # seat 1 to move, [a, b, w, c]
        for h, state in enumerate(got.start_states):
            w, c = rules.keys[state]
            assert np.abs(got.X[:, :, h] - win[:, :, w, c]).max() < 1e-12
    else:
        got = solve_rounds_model(rules.model, 9, ties=ties, cap=13)
        p, R = reference_rounds(Deck(2, 4), 9, ties, cap=13, forced_first=True)
        assert abs(got.first_player_win - p) < 1e-9
        for h, state in enumerate(got.start_states):
            key = rules.keys[state]
            for a in range(9):
                for b in range(9):
                    assert abs(got.X[a, b, h] - R[(a, b, key)]) < 1e-9


def test_threads_give_the_same_tables():
    """The open pairs on one thread and on every thread: the same numbers
    to the last bit (a pair's values depend only on the pairs it reads)."""
    import numba

    rules = load_rules(example_path("pig"))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_rounds_model(rules.model, 40)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = solve_rounds_model(rules.model, 40)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.X, many.X) and np.array_equal(one.Y, many.Y)


ALL_YELLOW = ("goal = {goal}\nending = \"rounds\"\n[dice]\ncount = 3\nsides = 3\nother_faces = 0\n"
              "face.1 = {{ points = 1 }}\nface.2 = {{ aside = true }}\naside_bust = 3\n"
              "refill = true\n")


DECK = "goal = {goal}\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 7\n"


def _cycle():
    """Two turn states that move into each other with points (one block
    of two states), a choice between two moves, and two start states
    with one feedback state: state 0 throws a d3 (1 busts, 2 scores 2 and
    moves to state 1, 3 scores 3), state 1 a d2 (1 busts, 2 scores 1 back
    to state 0 or 2 staying); every bust starts the next turn at state 0,
    a stop at state 0 starts it at state 1 and at state 1 at state 0."""
    from designer.engine import build_model

    conts = [[[(1 / 3, "bust", 0, "none", 0), (1 / 3, "choose", [(2, 1)]),
               (1 / 3, "choose", [(3, 0)])]],
             [[(1 / 2, "bust", 0, "none", 0), (1 / 2, "choose", [(1, 0), (2, 1)])]]]
    return build_model(conts, [1, 0], forced_first=True)


@pytest.mark.parametrize("name, goal, ties", [("pig", 30, "replay"),
                                              ("great-rolled-ones", 20, "earlier-seat"),
                                              ("all-yellow", 9, "replay"),
                                              ("deck", 12, "replay"),
                                              ("cycle", 10, "earlier-seat")])
def test_pair_kernels_equal_the_plain_path(name, goal, ties):
    """The open rounds' pair kernels (two unknowns a pair, seat 1's turn
    cut where it surely holds, sweeps that go again only where a kept
    decision flipped, workers on threads) against the plain path, which
    makes every start value an unknown and sweeps whole turns (the solver
    before them, checked against the reference by the tests above): the
    same round starts of both seats to 1e-12."""

    got = solve_rounds_model(_model(name, goal), goal, ties=ties)
    _assert_plain(got, _model(name, goal), goal)


def _model(name, goal):
    texts = {"all-yellow": ALL_YELLOW, "deck": DECK}
    if name == "cycle":
        return _cycle()
    if name in texts:
        return parse_rules(texts[name].format(goal=goal)).model
    return load_rules(example_path(name)).model


def _assert_plain(got, model, goal):
    """``got``'s round starts equal the plain path's (no cut, whole turns)."""
    from designer.engine import rounds

    lay = rounds._layout(model, got.cap, rounds._order(model))
    X, Y = np.zeros_like(got.X), np.zeros_like(got.Y)
    rounds._open_general(model, lay, goal, got.cap, got.F, X, Y)
    assert np.abs(got.X - X).max() < 1e-12
    assert np.abs(got.Y - Y).max() < 1e-12


@pytest.mark.parametrize("name, goal", [("pig", 25), ("deck", 12), ("cycle", 10)])
def test_a_cut_made_too_deep_is_undone(name, goal, monkeypatch):
    """Seat 1's turn is cut where its sure holds need no more than the
    estimate of seat 2's starts after a bust allows; a pair whose solved
    starts fall short of what the cut needs is solved again whole. With
    the estimate's room made huge, nearly every pair is cut at the goal
    and many must be solved again: the tables still equal the plain
    path's."""
    from designer.engine import rounds

    monkeypatch.setattr(rounds, "CUT_AT", 1e9)
    got = solve_rounds_model(_model(name, goal), goal)
    _assert_plain(got, _model(name, goal), goal)


def test_sure_wins_of_a_deck():
    """Seat 1 at or above the goal wins for sure once it leads seat 2 by
    more than seat 2 can gain from the deck it hands over (the good items
    left): the final round is 0 from that distance on, and the cut starts
    there for every deck state."""
    from designer.engine import rounds

    rules = parse_rules(DECK.format(goal=12))
    model = rules.model
    got = solve_rounds_model(model, 12)
    lay = rounds._layout(model, got.cap, rounds._order(model))
    sw_l, _ = rounds._sure_wins(model, lay, got.F, got.cap)
    for s in range(model.states):
        w, c = rules.keys[int(model.start_states()[lay.hand_h[s]])]
        assert sw_l[s] == 7 - c + 1, (w, c)


def test_the_cycle_takes_the_pair_kernels():
    """The model of the tests above has one block of two states and two
    start states with one feedback state: the pair kernels solve it."""
    from designer.engine import rounds

    model = _cycle()
    lay = rounds._layout(model, 20, rounds._order(model))
    assert len(lay.starts) == 2 and lay.fbh >= 0
    assert np.diff(lay.blk_ptr).max() == 2


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_simple_states_sweep_as_the_general_sweep(ties, monkeypatch):
    """A deck's states are simple (one continuation: busts to turn starts
    and one move), swept without outcome dispatch: the same round starts as
    the general sweep to 1e-12, in the same sweeps. Red Light's deck to a
    short goal, and Fowl Play's with a komi-like start."""
    import dataclasses

    from designer.engine import rounds

    for text, goal in [("goal = 20\n[deck]\nbad = 4\ngood = 24\n", 20),
                       ("goal = 15\n[deck]\nbad = 6\ngood = 42\n", 15)]:
        model = parse_rules(text).model
        assert rounds._layout(model, goal + 60, rounds._order(model)).simple
        fast = solve_rounds_model(model, goal, ties=ties)
        layout = rounds._layout
        monkeypatch.setattr(rounds, "_layout", lambda *a: dataclasses.replace(layout(*a),
                                                                              simple=False))
        general = solve_rounds_model(model, goal, ties=ties)
        monkeypatch.setattr(rounds, "_layout", layout)
        assert np.abs(fast.X - general.X).max() < 1e-12
        assert np.abs(fast.Y - general.Y).max() < 1e-12
        assert fast.steps == general.steps
    assert not rounds._layout(_cycle(), 20, rounds._order(_cycle())).simple
