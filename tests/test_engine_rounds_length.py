"""The expected game length of optimal play under the rounds ending, two
seats, by its own sweeps (designer/engine/rounds_length.py): against the
slow reference written from the rules (tests/engine_rounds_match_reference.py),
against the rounds match of optimal against itself (an evaluation of its
own, checked against that reference in test_engine_rounds_match.py) on
every kind of turn the pair kernels take, against today's deck solver, and
through ``designer solve``."""

import json

import numpy as np
import pytest
from cli_runner import cli
from engine_rounds_match_reference import Game, evaluate
from test_engine_rounds import ALL_YELLOW, DECK, HOG, MIN_BANK, _cycle, _two_dice

from designer import load_game
from designer.engine._match_kernels import OPTIMAL
from designer.engine.match import RulesPolicy
from designer.engine.rounds import solve_rounds_model
from designer.engine.rounds_length import rounds_lengths
from designer.engine.rounds_match import match_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules

OPT = RulesPolicy(OPTIMAL, "optimal")
COIN = "goal = {goal}\n{turn}[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = {goal}\n{turn}[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"
FORCED = "[turn]\nforced_first = true\n"


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, faces, goal, forced", [
    (COIN, ["bust", 1], 4, False), (COIN, ["bust", 1], 5, True), (D3, ["bust", 2, 3], 5, False),
    (D3, ["bust", 2, 3], 4, True)], ids=["coin-4", "coin-5-forced", "d3-5", "d3-4-forced"])
def test_against_the_reference(ties, text, faces, goal, forced):
    """Every round start of a coin and a three-faced die, both tie rules,
    a pass allowed or the first roll forced."""
    model = parse_rules(text.format(goal=goal, turn=FORCED if forced else "")).model
    sol = solve_rounds_model(model, goal, ties=ties, cap=goal + 10)
    L, _ = rounds_lengths(model, sol)
    game = Game(faces, goal, ties, sol.cap, forced_first=forced)
    for start in [(0, 0), (1, 0), (0, goal - 1), (goal - 1, goal - 2)]:
        _, ref = evaluate(game, "optimal", "optimal", start)
        assert L[start[0], start[1], 0] == pytest.approx(ref, rel=1e-9), start


def _model(name, goal):
    texts = {"deck": DECK.format(goal=goal), "all-yellow": ALL_YELLOW.format(goal=goal),
             "hog": HOG, "min-bank": MIN_BANK,
             "red-light-deck": f"goal = {goal}\n[deck]\nbad = 4\ngood = 24\n"}
    if name == "cycle":
        return _cycle()
    if name in texts:
        return parse_rules(texts[name]).model
    return load_rules(example_path(name)).model


MATCHED = [("pig", 30, "replay"), ("pig", 25, "earlier-seat"),
           ("great-rolled-ones", 20, "earlier-seat"), ("great-rolled-ones", 15, "replay"),
           ("deck", 12, "replay"), ("deck", 12, "earlier-seat"), ("red-light-deck", 20, "replay"),
           ("red-light-deck", 16, "earlier-seat"), ("cycle", 10, "replay"),
           ("cycle", 10, "earlier-seat"), ("all-yellow", 9, "replay"), ("hog", 7, "earlier-seat"),
           ("min-bank", 7, "replay")]


@pytest.mark.parametrize("name, goal, ties", MATCHED, ids=[f"{n}-{g}-{t}" for n, g, t in MATCHED])
def test_equals_the_rounds_match(name, goal, ties):
    """Dice (a pass, a forced first roll), several start states (decks,
    swept as simple states),
    a block of two states with a choice, dice set aside, turns of one
    throw, a minimum bank: every round start and start state, to 1e-9 of
    the rounds match of optimal play against itself."""
    model = _model(name, goal)
    goal = parse_rules(HOG).goal if name == "hog" else (
        parse_rules(MIN_BANK).goal if name == "min-bank" else goal)
    sol = solve_rounds_model(model, goal, ties=ties)
    L, _ = rounds_lengths(model, sol)
    m = match_rounds_model(model, goal, OPT, OPT, ties=ties, solution=sol)
    assert L.shape == m.actions[0].shape
    assert np.abs(L - m.actions[0]).max() <= 1e-9 * np.abs(m.actions[0]).max()


def test_a_deck_equals_todays_solver():
    """Today's deck rounds solver carries the length in its solve: the same
    expected actions at every score pair of a fresh deck."""
    from designer.solve import solve

    model = parse_rules(DECK.format(goal=12)).model
    today = solve(load_game("deck", bad=2, good=7, goal=12, ending="rounds"))
    sol = solve_rounds_model(model, 12, cap=today.cap)
    L, _ = rounds_lengths(model, sol)
    h0 = int(np.searchsorted(sol.start_states, 0))
    assert L[0, 0, h0] == pytest.approx(today.expected_actions(), rel=1e-12)
    assert L[0, 3, h0] == pytest.approx(today.expected_actions(komi=3), rel=1e-12)


def test_two_feedback_states_are_left_to_the_match():
    """A turn model whose busts return to two start states is not taken
    (None): the rounds match evaluates it."""
    model = _two_dice()
    sol = solve_rounds_model(model, 4)
    assert rounds_lengths(model, sol) == (None, 0.0)


def test_passes_answered_by_passes_are_refused(tmp_path, monkeypatch):
    """A deck whose turns may pass (a feedback state per start: the rounds
    match evaluates it): with only its bad item left both seats pass for
    ever in a tie round, which no length describes; ``designer solve``
    says so in one line, and what ends it."""
    from cli_runner import one_line_refusal

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pass.toml").write_text("goal = 5\nending = \"rounds\"\n[turn]\n"
                                        "forced_first = false\n[deck]\nbad = 1\ngood = 3\n")
    model = load_rules(tmp_path / "pass.toml").model
    assert rounds_lengths(model, solve_rounds_model(model, 5)) == (None, 0.0)
    one_line_refusal(cli("solve", "pass.toml"), "a tie round can go on forever",
                     "pass to each other for ever", "forced_first = true under [turn]")


def test_solve_gives_it(tmp_path, monkeypatch):
    """``designer solve`` of a rules game in rounds: the length of the game's
    start, the komi table's and the time it took."""
    monkeypatch.chdir(tmp_path)
    out = json.loads(cli("solve", "rules:pig", "--ending", "rounds", "--goal", "30",
                         "--json").stdout)
    model = load_rules(example_path("pig")).model
    sol = solve_rounds_model(model, 30)
    L, _ = rounds_lengths(model, sol)
    assert out["expected_actions"] == pytest.approx(L[0, 0, 0], rel=1e-12)
    assert out["komi_table"][2]["expected_actions"] == pytest.approx(L[0, 2, 0], rel=1e-12)
    assert out["length_seconds"] > 0
