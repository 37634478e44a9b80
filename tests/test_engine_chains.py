"""The engine's sweeps of simple states (designer.engine._kernels._sweep2s and,
for the game length, designer.engine._length_kernels._sweep_simple).

A turn model whose every state is its own block, with one continuation
whose outcomes are turn starts and at most one move (a deck, a die of one
bust face and one scoring face), is swept without outcome dispatch. Its
tables must be those of the generic two-unknown sweep (``_sweep2``),
reached here by planning the same game with ``simple`` off, to 1e-12 and in
the same sweeps (the same decisions noted, so policy iteration accepts the
same estimates), and those of today's deck kernel where it solves the game.
"""

import numpy as np
import pytest

import designer.engine.solve as engine_solve
from designer import load_game
from designer.engine import build_model, solve_model, solve_rules
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.solve import solve


def _deck(bad, good, goal, komi=0, turn="forced_first = true\n"):
    return parse_rules(f"goal = {goal}\nkomi = {komi}\n[turn]\n{turn}"
                       f"[deck]\nbad = {bad}\ngood = {good}\n")


def _die(points, goal):
    return parse_rules(f"goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\n"
                       f"face.2 = {{ points = {points} }}\n")


@pytest.fixture
def generic(monkeypatch):
    """Solve with the generic sweep: the plan with ``simple`` off."""
    plan = engine_solve.plan

    def run(model, goal, komi=0):
        monkeypatch.setattr(engine_solve, "plan", lambda m, g: {**plan(m, g), "simple": False})
        try:
            return solve_model(model, goal, komi)
        finally:
            monkeypatch.setattr(engine_solve, "plan", plan)

    return run


def _agree(model, goal, komi, generic):
    assert engine_solve.plan(model, goal)["simple"]
    got = solve_model(model, goal, komi)
    ref = generic(model, goal, komi)
    assert np.abs(got.win - ref.win).max() <= 1e-12
    assert abs(got.first_player_win - ref.first_player_win) <= 1e-12
    assert got.sweeps == ref.sweeps
    assert got.residual <= 1e-12
    return got


def test_which_games_are_simple():
    flags = {name: engine_solve.plan(load_rules(example_path(name)).model,
                                     load_rules(example_path(name)).goal)["simple"]
             for name in ("fowl-play", "red-light", "piglet", "pig", "two-dice-pig", "farkle")}
    assert flags == {"fowl-play": True, "red-light": True, "piglet": True, "pig": False,
                     "two-dice-pig": False, "farkle": False}


@pytest.mark.parametrize("name", ["fowl-play", "red-light", "piglet"])
def test_examples_agree_with_the_generic_sweep(name, generic):
    rules = load_rules(example_path(name))
    assert _agree(rules.model, rules.goal, rules.komi, generic).feedback == 1


DECKS = [
    # bad, good, goal, komi, [turn] lines
    (1, 5, 10, 0, "forced_first = true\n"),  # one bad item: every bust reshuffles
    (1, 1, 10, 0, "forced_first = true\n"),
    (2, 30, 200, 5, "forced_first = true\n"),  # turns longer than the deck is good
    (5, 3, 40, 0, "forced_first = true\n"),  # more bad than good
    (6, 42, 20, 3, "forced_first = true\n"),  # Fowl Play's deck to a short goal
    (3, 8, 12, 1, "forced_first = false\n"),  # a pass at a turn's start: a feedback state per start, no _sweep2s
    (2, 6, 20, 0, "forced_first = true\nmin_bank = 3\n"),
    (2, 6, 20, 0, "forced_first = false\nmin_bank = 4\n"),
    (4, 12, 60, 0, "forced_first = false\nmin_bank = 2\n"),
]


@pytest.mark.parametrize("bad, good, goal, komi, turn", DECKS)
def test_decks_agree_with_the_generic_sweep(bad, good, goal, komi, turn, generic):
    rules = _deck(bad, good, goal, komi, turn)
    got = _agree(rules.model, goal, komi, generic)
    assert (got.feedback == 1) == ("forced_first = true" in turn or "min_bank" in turn)


@pytest.mark.parametrize("points, goal", [(1, 12), (2, 15), (3, 40)])
def test_one_face_dice_agree_with_the_generic_sweep(points, goal, generic):
    rules = _die(points, goal)
    assert _agree(rules.model, goal, 0, generic).feedback == 1


def test_turn_starts_after_the_move(generic):
    """A move listed before turn starts (no part lists one so): their part
    is summed apart and added last, a difference in rounding only."""
    model = build_model([[[(0.5, "choose", [(1, 1)]), (0.2, "bust", 1, "none", 0),
                           (0.3, "bust", 0, "none", 0)]],
                         [[(0.4, "bust", 0, "none", 0), (0.6, "choose", [(2, 2)])]],
                         [[(1.0, "bust", 0, "none", 0)]]], [0, 1, 2], forced_first=True)
    for goal in (1, 2, 7, 30):
        assert _agree(model, goal, 0, generic).feedback == 1


def _deck_table(result, rules):
    """The engine's turn starts as today's deck table ``[i, j, w, c]``."""
    bad, good = rules.part.bad, rules.part.good
    out = np.full((rules.goal, rules.goal, bad, good + 1), np.nan)
    for h, state in enumerate(result.start_states):
        w, c = rules.keys[state]
        out[:, :, w, c] = result.win[:, :, h]
    return out


@pytest.mark.parametrize("bad, good, goal, komi",
                         [(1, 5, 10, 0), (2, 30, 120, 4), (5, 3, 40, 0), (6, 42, 20, 3)])
def test_decks_agree_with_todays_kernel(bad, good, goal, komi):
    rules = _deck(bad, good, goal, komi)
    assert engine_solve.plan(rules.model, goal)["simple"]
    got = solve_rules(rules)
    today = solve(load_game("deck", bad=bad, good=good, goal=goal))
    assert abs(got.first_player_win - today.first_player_win(komi=komi)) < 1e-12
    assert np.abs(_deck_table(got, rules) - today.win).max() < 1e-12


# -- the game length over simple states (designer.engine._length_kernels._sweep_simple)

def _lengths_agree(model, goal, monkeypatch):
    """The game length by the simple sweep equals the general sweep's (the
    plan with ``simple`` off) to 1e-12 of itself, at every turn start."""
    import designer.engine.length as engine_length
    from designer.engine.length import game_lengths

    sol = solve_model(model, goal, 0)
    assert engine_length.plan(model, goal)["simple"]
    got, _ = game_lengths(model, sol)
    plan = engine_length.plan
    monkeypatch.setattr(engine_length, "plan", lambda m, g: {**plan(m, g), "simple": False})
    try:
        ref, _ = game_lengths(model, sol)
    finally:
        monkeypatch.setattr(engine_length, "plan", plan)
    assert np.abs(got - ref).max() <= 1e-12 * np.abs(ref).max()


@pytest.mark.parametrize("name", ["fowl-play", "red-light", "piglet"])
def test_example_lengths_agree_with_the_generic_sweep(name, monkeypatch):
    rules = load_rules(example_path(name))
    _lengths_agree(rules.model, rules.goal, monkeypatch)


@pytest.mark.parametrize("bad, good, goal, komi, turn",
                         [d for d in DECKS if "forced_first = true" in d[4] or "min_bank" in d[4]])
def test_deck_lengths_agree_with_the_generic_sweep(bad, good, goal, komi, turn, monkeypatch):
    _lengths_agree(_deck(bad, good, goal, komi, turn).model, goal, monkeypatch)


def test_lengths_with_turn_starts_after_the_move(monkeypatch):
    model = build_model([[[(0.5, "choose", [(1, 1)]), (0.2, "bust", 1, "none", 0),
                           (0.3, "bust", 0, "none", 0)]],
                         [[(0.4, "bust", 0, "none", 0), (0.6, "choose", [(2, 2)])]],
                         [[(1.0, "bust", 0, "none", 0)]]], [0, 1, 2], forced_first=True)
    for goal in (1, 2, 7, 30):
        _lengths_agree(model, goal, monkeypatch)
