"""The engine (designer.engine): rules files, the turn model, the solver.

Checked against a slow reference written from the rules of a turn
(tests/engine_reference.py), against today's family solvers
(designer.solve) and against exact figures.
"""

from itertools import product
from pathlib import Path

import numpy as np
import pytest
from engine_reference import (AsideDice, Deck, Die, FromModel, ItemDeck, PairOfDice, PenaltyDie,
                              reference_win)

from designer import load_game
from designer.engine import ModelError, TooLargeError, build_model, solve_model, solve_rules
from designer.engine.rulesfile import (RulesError, example_path, examples, load_rules,
                                       parse_rules)
from designer.errors import DesignError
from designer.solve import solve

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"

ITEMS = "goal = 6\n[deck.items]\n"

# name: (rules text, the same game written for the reference, its options)
TINY = {
    **{f"piglet-{g}": (PIGLET.format(goal=g), Die(["bust", 1]), {}) for g in range(2, 7)},
    "d3-bust-1": (D3, Die(["bust", 2, 3]), {}),
    "d3-min-bank-5": (D3.replace("[dice]", "[turn]\nmin_bank = 5\n[dice]"), Die(["bust", 2, 3]),
                      dict(min_bank=5)),
    "deck-2-4": ("goal = 5\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 4\n",
                 Deck(2, 4), dict(forced_first=True)),
    "two-d3-snake-eyes": ("goal = 6\n[dice]\ncount = 2\nsides = 3\nface.1 = { bust = true }\n"
                          "[dice.bust_effect]\nbust_faces = 2\nscore = \"zero\"\n",
                          PairOfDice(3), {}),
    "three-d3-aside": ("goal = 6\n[turn]\nforced_first = true\n[dice]\ncount = 3\nsides = 3\n"
                       "other_faces = 1\nface.1 = { aside = true }\naside_bust = 2\n",
                       AsideDice(3, 3, 2), dict(forced_first=True)),
    "d3-penalty-floor": ("goal = 5\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
                         "face.2 = { points = 1 }\nface.3 = { points = 2 }\n"
                         "[dice.bust_effect]\nscore = \"penalty\"\npenalty = 1\nfloor = -2\n",
                         PenaltyDie(["bust", 1, 2], 1, -2), dict(floor=-2)),
    # decks of kinds of items: points of several values, a stop item, busts
    # that cost banked points, the three reshuffle rules
    "items-values": (ITEMS + "one = { count = 2, points = 1 }\ntwo = { count = 2, points = 2 }\n"
                     "red = { count = 2, bust = true }\n",
                     ItemDeck([(2, 1), (2, 2), (2, "bust")]), dict(forced_first=True)),
    "items-stop-every-bust": (ITEMS.replace("[deck.items]", "[deck]\nreshuffle = \"every-bust\"\n"
                                            "[deck.items]")
                              + "one = { count = 3, points = 1 }\nbell = { count = 1, stop = true }\n"
                              "red = { count = 2, bust = true }\n",
                              ItemDeck([(3, 1), (1, "stop"), (2, "bust")], "every-bust"),
                              dict(forced_first=True)),
    "items-zero-every-turn": (ITEMS.replace("[deck.items]", "[deck]\nreshuffle = \"every-turn\"\n"
                                            "[deck.items]")
                              + "one = { count = 3, points = 1 }\nthree = { count = 1, points = 3 }\n"
                              "red = { count = 1, bust = true }\n"
                              "skull = { count = 1, bust = true, score = \"zero\" }\n",
                              ItemDeck([(3, 1), (1, 3), (1, "bust"), (1, "zero")], "every-turn"),
                              dict(forced_first=True)),
    "items-penalty-floor": (ITEMS.replace("[deck.items]", "[deck]\nfloor = -2\n[deck.items]")
                            .replace("goal = 6", "goal = 5")
                            + "one = { count = 3, points = 1 }\nred = { count = 1, bust = true }\n"
                            "fine = { count = 1, bust = true, score = \"penalty\", penalty = 1 }\n",
                            ItemDeck([(3, 1), (1, "bust"), (1, ("penalty", 1, -2))]),
                            dict(forced_first=True, floor=-2)),
    # a bust kind that busts at its second item of a turn (the first is set
    # aside): the last one set aside empties the deck of bust items
    "items-second-busts": (ITEMS + "one = { count = 3, points = 1 }\n"
                           "hazard = { count = 2, bust = true, bust_at = 2 }\n"
                           "red = { count = 1, bust = true }\n",
                           ItemDeck([(3, 1), (2, "bust", 2), (1, "bust")]), dict(forced_first=True)),
    "items-second-busts-every-turn": (ITEMS.replace("[deck.items]", "[deck]\nreshuffle = "
                                                    "\"every-turn\"\n[deck.items]")
                                      + "one = { count = 2, points = 1 }\n"
                                      "two = { count = 2, points = 2 }\n"
                                      "hazard = { count = 3, bust = true, bust_at = 2 }\n",
                                      ItemDeck([(2, 1), (2, 2), (3, "bust", 2)], "every-turn"),
                                      dict(forced_first=True)),
}


def _ref_key(proc, key):
    """The reference's name of a state the parts call ``key``."""
    if hasattr(proc, "state_of"):
        return proc.state_of(key)
    return "roll" if proc.start == "roll" else key


# -- exact figures ----------------------------------------------------------

def test_piglet_to_two_is_four_sevenths():
    rules = parse_rules(PIGLET.format(goal=2))
    assert abs(solve_rules(rules).first_player_win - 4 / 7) < 1e-12
    assert abs(reference_win(Die(["bust", 1]), 2)[0] - 4 / 7) < 1e-12


# -- the engine against the reference ---------------------------------------

@pytest.mark.parametrize("name", list(TINY))
def test_engine_matches_reference(name):
    """Every turn start of the whole table, to 1e-9; the reference run on
    the enumerated model agrees with the one written from the rules (so
    the enumeration is checked apart from the kernels)."""
    text, proc, opts = TINY[name]
    rules = parse_rules(text, name)
    got = solve_rules(rules)
    p, V, _ = reference_win(proc, rules.goal, **opts)
    p_model, _, _ = reference_win(FromModel(rules.model), rules.goal, **opts)
    assert abs(got.first_player_win - p) < 1e-9
    assert abs(p_model - p) < 1e-9
    lo = got.floor
    for h, state in enumerate(got.start_states):
        key = _ref_key(proc, rules.keys[state])
        for i in range(lo, rules.goal):
            for j in range(lo, rules.goal):
                assert abs(got.win[i - lo, j - lo, h] - V[(i, j, key)]) < 1e-9, (i, j, key)
    assert got.residual <= 1e-12
    assert got.states > 0


def test_min_bank_changes_the_game():
    """Not at the first turn's start (both go for most of the goal there),
    but near the goal, where a short total may no longer be banked."""
    free = solve_rules(parse_rules(D3)).win
    bound = solve_rules(parse_rules(TINY["d3-min-bank-5"][0])).win
    assert np.abs(free - bound).max() > 0.05


def test_falling_scores_iterate_and_report_a_residual():
    got = solve_rules(parse_rules(TINY["two-d3-snake-eyes"][0]))
    assert got.passes > 1 and got.residual <= 1e-12
    layered = solve_rules(parse_rules(D3))
    assert layered.passes == 1


def test_komi_reads_the_same_table():
    rules = parse_rules(PIGLET.format(goal=6))
    table = solve_rules(rules)
    for komi in range(6):
        assert solve_model(rules.model, 6, komi).first_player_win == table.win[0, komi, 0]


# -- the engine against today's solvers --------------------------------------

def _deck_table(result, rules):
    """The engine's turn starts as today's deck table ``[i, j, w, c]``."""
    bad, good = rules.part.bad, rules.part.good
    out = np.full((rules.goal, rules.goal, bad, good + 1), np.nan)
    for h, state in enumerate(result.start_states):
        w, c = rules.keys[state]
        out[:, :, w, c] = result.win[:, :, h]
    return out


def test_pig_matches_todays_solver():
    rules = load_rules(example_path("pig"))
    got = solve_rules(rules)
    today = solve(load_game("pig"))
    assert round(got.first_player_win, 6) == 0.530593
    assert np.abs(got.win[:, :, 0] - today.win).max() < 1e-12
    assert got.states == today.states


def test_fowl_play_matches_todays_solver():
    rules = load_rules(example_path("fowl-play"))
    got = solve_rules(rules)
    today = solve(load_game("fowl-play"))
    assert round(got.first_player_win, 6) == 0.524218
    assert np.abs(_deck_table(got, rules) - today.win).max() < 1e-12
    assert got.states == today.states
    assert got.feedback == 1  # the fresh deck: two unknowns per pair, as today's kernel


@pytest.mark.parametrize("bad, good, goal, komi", [(4, 24, 50, 1), (3, 7, 12, 2), (1, 5, 9, 0)])
def test_decks_match_todays_solver(bad, good, goal, komi):
    text = (f"goal = {goal}\nkomi = {komi}\n[turn]\nforced_first = true\n"
            f"[deck]\nbad = {bad}\ngood = {good}\n")
    rules = parse_rules(text)
    got = solve_rules(rules)
    today = solve(load_game("deck", bad=bad, good=good, goal=goal))
    assert abs(got.first_player_win - today.first_player_win(komi=komi)) < 1e-12
    assert np.abs(_deck_table(got, rules) - today.win).max() < 1e-12


@pytest.mark.parametrize("faces, bust, goal", [(4, (1,), 30), (8, (1, 8), 40)])
def test_dice_match_todays_solver(faces, bust, goal):
    listed = "".join(f"face.{f} = {{ bust = true }}\n" for f in bust)
    rules = parse_rules(f"goal = {goal}\n[dice]\nsides = {faces}\n{listed}")
    got = solve_rules(rules)
    today = solve(load_game("dice", faces=faces, bust_faces=bust, goal=goal))
    assert np.abs(got.win[:, :, 0] - today.win).max() < 1e-12


# -- shipped examples -----------------------------------------------------------

def test_every_example_parses_with_sound_probabilities():
    names = examples()
    assert {"piglet", "pig", "two-dice-pig", "fowl-play", "farkle"} <= set(names)
    for name in names:
        path = example_path(name)
        assert path.read_text().startswith("# "), name  # names its source first
        m = load_rules(path).model
        owner = np.repeat(np.arange(m.continuations), np.diff(m.out_start))
        sums = np.bincount(owner, weights=m.out_prob, minlength=m.continuations)
        assert np.all(np.abs(sums - 1.0) < 1e-12), name
        assert np.all((m.out_prob >= 0) & (m.out_prob <= 1)), name


def test_two_dice_pig_example_says_what_it_is():
    rules = load_rules(example_path("two-dice-pig"))
    assert rules.model.falls and rules.goal == 100
    m = rules.model
    # no 1: the sum (4..12); one 1: bust; two 1s: bust to zero
    assert abs(m.out_prob[m.out_effect == 1].sum() - 1 / 36) < 1e-15
    assert abs(m.out_prob[(m.out_kind == 0) & (m.out_effect == 0)].sum() - 10 / 36) < 1e-15
    assert sorted(m.opt_gain) == list(range(4, 13))


# -- refusals -------------------------------------------------------------------

DIE = "[dice]\nsides = 2\nface.1 = { bust = true }\n"
BAD_FILES = [
    ("goal = 5\ncolour = 1\n" + DIE, r"colour: unknown key; allowed here: name, goal"),
    ("goal = 5\n[dice]\nsides = 2\nfacez = 1\n", r"dice\.facez: unknown key"),
    ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true, colour = 1 }\n",
     r"dice\.face\.1\.colour: unknown key"),
    ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true, probability = 0.5 }\n"
     "face.2 = { points = 1, probability = 0.4 }\n", r"dice\.face: .*sum to 0\.9: they must sum to 1"),
    ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true, points = 2 }\n",
     r"dice\.face\.1: a face has one effect .*points and bust"),
    ("goal = 5\n[dice]\nsides = 2\nface.1 = { bust = true }\nface.2 = { bust = true }\n",
     r"goal: no turn can score a point"),
    ("goal = 5\n[dice]\nsides = 2\nother_faces = 0\n",
     r"dice\.face: a turn can go on forever without scoring or busting"),
    ("goal = 5\nkomi = 5\n" + DIE, r"komi: 5 is not allowed: an integer 0\.\.4"),
    ("goal = 5\nplayers = 5\n" + DIE, r"players: 5 is not allowed: an integer 2\.\.4"),
    ("goal = 5\nending = \"sudden\"\n" + DIE, r"ending: 'sudden' is not allowed: 'race' or 'rounds'"),
    ("goal = 5\n", r"dice: a game has one part: \[dice\], \[deck\], \[scoring_dice\] or "
     r"\[cup\] \(this file has none\)"),
    ("goal = 5\n" + DIE + "[deck]\nbad = 1\ngood = 2\n",
     r"deck: a game has one part: .*\(this file has dice and deck\)"),
    ("goal = 5\n[dice]\nsides = 2\nface.3 = { bust = true }\n",
     r"dice\.face\.3: no such face: faces are numbered 1\.\.2"),
    ("goal = 5\n[deck]\nbad = 0\ngood = 2\n", r"deck\.bad: 0 is not allowed: an integer 1\.\.60"),
    ("goal = 5\n[deck]\nbad = 1\ngood = 2\nreshuffle = \"never\"\n",
     r"deck\.reshuffle: 'never' is not allowed: 'last-bad'"),
    ("goal = 5\n[turn]\nmin_bank = 3\n[dice]\ncount = 1\nsides = 2\nface.1 = { aside = true }\n",
     r"turn\.min_bank: .*below min_bank = 3"),
    ("goal = 5\n[dice]\nsides = 2\n[dice.bust_effect]\nscore = \"zero\"\n",
     r"dice\.bust_effect: no face busts"),
    ("goal = \n", r"not valid TOML"),
]


@pytest.mark.parametrize("text, match", BAD_FILES)
def test_malformed_rules_are_refused_in_one_line(text, match):
    with pytest.raises(RulesError, match=r"^bad\.toml: " + match) as info:
        parse_rules(text, "bad.toml")
    assert "\n" not in str(info.value)
    assert isinstance(info.value, DesignError)


def test_a_file_is_named_by_its_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("goal = 0\n" + DIE)
    with pytest.raises(RulesError, match=rf"^{path}: goal: 0 is not allowed"):
        load_rules(path)
    with pytest.raises(RulesError, match=r"cannot read it"):
        load_rules(tmp_path / "missing.toml")
    with pytest.raises(RulesError, match=r"no example rules named 'nope': choose one of"):
        example_path("nope")


def test_turn_model_invariants():
    bust = (0.5, "bust", 0, "none", 0)
    with pytest.raises(ModelError, match=r"summing to 0\.9: they must sum to 1"):
        build_model([[[bust, (0.4, "choose", [(1, 0)])]]], [0])
    with pytest.raises(ModelError, match=r"opt_next holds 3: allowed 0\.\.0"):
        build_model([[[bust, (0.5, "choose", [(1, 3)])]]], [0])
    with pytest.raises(ModelError, match=r"probability -0\.5: allowed 0\.\.1"):
        build_model([[[bust, (-0.5, "choose", [(1, 0)]), (1.0, "choose", [(1, 0)])]]], [0])
    with pytest.raises(ModelError, match=r"handover holds 1"):
        build_model([[[bust, (0.5, "choose", [(1, 0)])]]], [1])
    m = build_model([[[bust, (0.5, "choose", [(1, 0)])]]], [0])
    with pytest.raises(ValueError):
        m.out_prob[0] = 1.0  # the arrays are read-only


def test_a_game_too_large_is_refused_before_allocating():
    rules = load_rules(example_path("pig"))
    with pytest.raises(TooLargeError, match=r"505,000 positions and needs .* MB, over the "
                                            r"limit of 0 MB") as info:
        solve_rules(rules, memory_limit=1000)
    assert "\n" not in str(info.value)
    with pytest.raises(DesignError, match=r"komi=100: allowed 0 <= komi < 100"):
        solve_model(rules.model, 100, komi=100)


def test_examples_live_in_the_package():
    assert Path(example_path("piglet")).parent.name == "examples"


# -- Farkle -------------------------------------------------------------------

def _farkle(goal, count=6, min_bank=0):
    """The shipped Farkle with a smaller goal, fewer dice or a minimum bank."""
    text = example_path("farkle").read_text().replace("goal = 10000", f"goal = {goal}")
    text = text.replace("count = 6", f"count = {count}")
    if count < 6:  # no straight without a die per face
        text = text.replace("straight = 1500", "straight = 0")
    if min_bank:
        text = text.replace("forced_first = true", f"forced_first = true\nmin_bank = {min_bank}")
    return parse_rules(text, "farkle")


def test_farkle_chance_of_no_scoring_die():
    """2/3 for one die, 1/43.2 for six: exactly, from the part and from the
    reference's own count of every throw."""
    from fractions import Fraction

    from engine_reference import Farkle

    part = load_rules(example_path("farkle")).part
    for n, want in ((1, Fraction(2, 3)), (6, Fraction(5, 216))):
        outs = part.continuations(n)[0]
        assert sum(p for key, p in outs.items() if key[0] == "bust") == want
        assert sum(outs.values()) == 1
    assert Fraction(5, 216) == 1 / Fraction(432, 10)
    ref = Farkle(6)
    busts = sum(1 for roll in product(range(1, 7), repeat=6)
                if all(ref.score((f,)) is None for f in roll)
                and ref.score(tuple(sorted(roll))) is None
                and not any(roll.count(f) >= 3 for f in roll))
    assert Fraction(busts, 6**6) == Fraction(5, 216)


def test_farkle_scores_its_combinations():
    part = load_rules(example_path("farkle")).part
    best = lambda *faces: part.best(tuple(faces.count(f) for f in range(1, 7)))  # noqa: E731
    assert best(1, 2, 3, 4, 5, 6) == 1500
    assert best(2, 2, 3, 3, 4, 4) == 750
    assert best(1, 1, 1) == 1000 and best(4, 4, 4) == 400
    assert best(6, 6, 6, 6) == 1200 and best(6, 6, 6, 6, 6) == 2400
    assert best(2, 2, 2, 2, 2, 2) == 1600
    assert best(1, 1, 1, 1, 5, 5) == 2100  # four 1s and two 5s, not three pairs
    assert best(1, 5, 5) == 200 and best(2, 5) is None


@pytest.mark.parametrize("goal, count, min_bank", [(400, 3, 0), (300, 6, 0), (400, 3, 150)])
def test_farkle_matches_reference(goal, count, min_bank):
    """Every turn start, to 1e-9, against the reference written from the
    rules (which keeps every scoring set as an option)."""
    from engine_reference import Farkle

    rules = _farkle(goal, count, min_bank)
    got = solve_rules(rules)
    p, V, _ = reference_win(Farkle(count), rules.goal, forced_first=True,
                            min_bank=min_bank // 50)
    assert abs(got.first_player_win - p) < 1e-9
    for i in range(rules.goal):
        for j in range(rules.goal):
            assert abs(got.win[i, j, 0] - V[(i, j, count)]) < 1e-9
    assert got.residual <= 1e-12


def test_farkle_counts_in_units_of_fifty():
    rules = load_rules(example_path("farkle"))
    assert (rules.goal, rules.unit, rules.goal_points) == (200, 50, 10_000)
    assert rules.model.states == 6 and rules.model.forced_first
    with pytest.raises(RulesError, match=r"goal: 10010 is not allowed: a multiple of "
                                         r"scoring_dice\.unit = 50"):
        parse_rules(example_path("farkle").read_text().replace("goal = 10000", "goal = 10010"),
                    "farkle")
    with pytest.raises(RulesError, match=r"scoring_dice\.three_pairs: 740 is not allowed"):
        parse_rules(example_path("farkle").read_text().replace("three_pairs = 750",
                                                               "three_pairs = 740"), "farkle")


def test_red_light_example_matches_todays_solver():
    """The flagship design as a shipped rules file: its komi of 1 is the
    second player's start, and the first player's win is the preset's."""
    from designer.engine.game import load_rules_game, solve_game

    r = solve_game(load_rules_game("red-light"))
    today = solve(load_game("red-light"))
    assert abs(r["first_player_win"] - today.first_player_win(komi=1)) < 1e-12
    assert round(r["first_player_win"], 5) == 0.50001
