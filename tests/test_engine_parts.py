"""Parts of a rules file beyond one die per roll: a choice of how many dice
to throw (Hog), turns of one throw, dice set aside and replaced (all-yellow
Zombie Dice), and rolls that bring the turn back where it was (a face
worth nothing, footprints), which the engine folds away exactly.

Each game is written again here, or in tests/engine_reference.py, from its
rules, and solved by the slow reference; the engine must agree to 1e-9.
"""

from fractions import Fraction
from itertools import product
from types import SimpleNamespace

import pytest
from engine_reference import Die, FromModel, reference_rounds, reference_win

from designer.engine import build_model, solve_model, solve_rules
from designer.engine.game import load_rules_game, solve_game
from designer.engine.model import CHOOSE, fold_self_loops
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import RulesError, example_path, load_rules, parse_rules
from designer.errors import DesignError


class Hog:
    """A turn is one throw of 1..``most`` dice of ``sides`` faces, chosen
    by the mover; any 1 scores ``ones`` points (0: nothing), else the sum.
    Every throw is enumerated face by face."""

    start = "throw"

    def __init__(self, most, sides=6, ones=1):
        self.most, self.sides, self.ones = most, sides, ones

    def handover(self, s):
        return "throw"

    def rolls(self, s):
        conts = []
        for n in range(1, self.most + 1):
            dist = {}
            for faces in product(range(1, self.sides + 1), repeat=n):
                pts = self.ones if 1 in faces else sum(faces)
                dist[pts] = dist.get(pts, 0) + 1
            total = self.sides ** n
            conts.append([(k / total, "end", pts, "throw") for pts, k in sorted(dist.items())])
        return conts


def hog_text(most, goal, ones=1, sides=6):
    return (f"goal = {goal}\n[dice]\ncount = [1, {most}]\nsides = {sides}\n"
            f"face.1 = {{ bust = true }}\none_throw = true\n"
            + (f"bust_points = {ones}\n" if ones else ""))


# -- Hog ---------------------------------------------------------------------

@pytest.mark.parametrize("most, goal, ones, sides", [(3, 12, 1, 6), (3, 10, 0, 6),
                                                      (4, 9, 1, 4), (2, 7, 2, 3)])
def test_hog_matches_reference(most, goal, ones, sides):
    rules = parse_rules(hog_text(most, goal, ones, sides))
    assert rules.model.forced_first  # a turn of one throw always throws
    assert rules.model.continuations == most
    got = solve_rules(rules)
    p, V, _ = reference_win(Hog(most, sides, ones), goal, forced_first=True)
    assert abs(got.first_player_win - p) < 1e-9
    for i in range(goal):
        for j in range(goal):
            assert abs(got.win[i, j, 0] - V[(i, j, "throw")]) < 1e-9, (i, j)


@pytest.mark.parametrize("other", ["optimal", "hold-at:8"])
def test_hog_max_score_throws_the_most_expected_points(other):
    """A turn of one throw never busts (a throw with a 1 scores 1):
    max-score throws the number of dice whose expected points are the
    largest, as the reference's one-turn table does."""
    from engine_match_reference import HoldAt, MaxScore, Optimal, reference_match

    from designer.engine.match import match_model, parse_rules_policy

    rules = parse_rules(hog_text(3, 12))
    g = SimpleNamespace(rules=rules, unit=1, name="hog")
    m = match_model(rules.model, 12, parse_rules_policy("max-score", g),
                    parse_rules_policy(other, g))
    ref = reference_match(Hog(3), 12, MaxScore(), Optimal() if other == "optimal" else HoldAt(8),
                          forced_first=True)
    for key in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
        assert abs(getattr(m, key)() - ref[key]) < 1e-9, key


def test_hog_throw_probabilities():
    """Ten dice show no 1 with probability (5/6)^10; the chance of each sum
    is exact before it is rounded."""
    rules = load_rules(example_path("hog"))
    m = rules.model
    assert m.continuations == 10
    c = 9  # ten dice
    probs = m.out_prob[m.out_start[c]:m.out_start[c + 1]]
    points = m.out_points[m.out_start[c]:m.out_start[c + 1]]
    assert abs(probs[points == 1].sum() - (1 - (5 / 6) ** 10)) < 1e-15
    assert points.max() == 60 and abs(probs[points == 60].sum() - 6.0 ** -10) < 1e-22
    assert abs(probs[points == 20].sum() - 6.0 ** -10) < 1e-22  # ten 2s
    one = m.out_points[m.out_start[0]:m.out_start[1]]
    assert sorted(one) == [1, 2, 3, 4, 5, 6]


def test_hog_example_solves_and_favours_the_first_player():
    game = load_rules_game("hog")
    r = solve_game(game)
    assert 0.5 < r["first_player_win"] < 0.6
    assert r["fair_komi"] > 0
    assert abs(sum(r["seat_win"]) - 1) < 1e-12


# -- rolls that come back where they were -----------------------------------

ZERO_FACE = "goal = {goal}\n{turn}[dice]\nsides = 4\nface.1 = {{ bust = true }}\nface.2 = {{ points = 0 }}\n"


@pytest.mark.parametrize("goal, forced", [(6, False), (7, True), (9, False)])
def test_a_face_worth_nothing_matches_reference(goal, forced):
    """A 2 scores nothing and leaves the turn as it was: the reference
    iterates that cycle, the engine folds it (and, when the first roll is
    forced, sends the start's return to a copy of the start, where the
    mover may stop)."""
    turn = "[turn]\nforced_first = true\n" if forced else ""
    rules = parse_rules(ZERO_FACE.format(goal=goal, turn=turn))
    got = solve_rules(rules)
    opts = dict(forced_first=forced)
    p, V, _ = reference_win(Die(["bust", 0, 3, 4]), goal, **opts)
    assert abs(got.first_player_win - p) < 1e-9
    for i in range(goal):
        for j in range(goal):
            assert abs(got.win[i, j, 0] - V[(i, j, "roll")]) < 1e-9
    assert rules.model.states == (2 if forced else 1)


def test_folding_keeps_the_other_outcomes_in_proportion():
    conts = [[[(0.25, "bust", 0, "none", 0), (0.5, "choose", [(0, 0)]),
               (0.25, "choose", [(2, 0)])]]]
    folded, handover, names, origin, throws = fold_self_loops(conts, [0], ["s"])
    assert folded == [[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(2, 0)])]]]
    assert handover == [0] and origin == [0] and names == ["s"]
    assert throws == [[2.0]]  # a roll comes back half the time: 2 throws on average
    # a forced start is copied: its return goes to the copy, whose own folds
    folded, handover, names, origin, throws = fold_self_loops(conts, [0], ["s"], starts=[0])
    assert folded[0][0][1] == (0.5, "choose", [(0, 1)])
    assert folded[1] == [[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(2, 0)])]]
    assert origin == [0, 0] and handover == [0, 0] and names == ["s", "s (after a roll)"]
    assert throws == [[1.0], [2.0]]
    assert list(build_model(conts, [0]).cont_throws) == [2.0]
    # a return among several options is a choice, not a fold: left alone
    choice = [[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(0, 0), (1, 0)])]]]
    assert fold_self_loops(choice, [0])[0] == choice


def test_a_return_through_a_choice_is_refused_in_one_line():
    m = build_model([[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(0, 0), (1, 0)])]]], [0])
    with pytest.raises(DesignError, match="straight back to the same state is solved"):
        solve_model(m, 5)
    with pytest.raises(DesignError, match="straight back to the same state is solved"):
        solve_rounds_model(m, 5)


def test_the_fold_is_exact_for_the_reference_too():
    """The reference run on the folded model equals the reference run on
    the rules with the cycle: the fold changes no value."""
    rules = parse_rules(ZERO_FACE.format(goal=6, turn=""))
    a = reference_win(FromModel(rules.model), 6)[0]
    b = reference_win(Die(["bust", 0, 3, 4]), 6)[0]
    assert abs(a - b) < 1e-12
    raw = build_model([[[(0.25, "bust", 0, "none", 0), (0.25, "choose", [(0, 0)]),
                         (0.25, "choose", [(3, 0)]), (0.25, "choose", [(4, 0)])]]], [0], fold=False)
    assert raw.outcomes == 4
    assert abs(reference_win(FromModel(raw), 6)[0] - b) < 1e-12


# -- all-yellow Zombie Dice: dice set aside and replaced ----------------------

AYZD = """name = "All-yellow Zombie Dice"
goal = {goal}
ending = "rounds"
[dice]
count = 3
sides = 3
other_faces = 0
face.1 = {{ points = 1 }}
face.2 = {{ aside = true }}
aside_bust = 3
refill = true
"""


class Yellow:
    """Three dice per roll, each a brain (1 point), a shotgun or footprints
    with probability 1/3; shotguns stay counted, three end the turn with
    nothing; the three dice are always thrown."""

    start = 0

    def handover(self, s):
        return 0

    def rolls(self, shot):
        out = {}
        for faces in product("BSF", repeat=3):
            s2 = shot + faces.count("S")
            key = ("bust",) if s2 >= 3 else ("go", faces.count("B"), s2)
            out[key] = out.get(key, 0) + Fraction(1, 27)
        return [[(float(p), "bust", 0, lambda i: i) if k[0] == "bust"
                 else (float(p), "choose", [(k[1], k[2])]) for k, p in sorted(out.items())]]


def test_all_yellow_zombie_matches_todays_solver():
    from designer import load_game
    from designer.solve import solve

    rules = parse_rules(AYZD.format(goal=13))
    assert rules.model.states == 3  # shotguns 0, 1, 2
    got = solve_rounds_model(rules.model, 13)
    today = solve(load_game("zombie-yellow"))
    assert abs(got.first_player_win - today.first_player_win()) < 1e-12


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_all_yellow_zombie_rounds_match_reference(ties):
    # the reference stops seat 1 at its cap, so in tie rounds it needs a
    # cap high enough that no turn reaches it (45: within 3e-15 of 64)
    rules = parse_rules(AYZD.format(goal=4))
    got = solve_rounds_model(rules.model, 4, ties=ties, cap=45)
    p, R = reference_rounds(Yellow(), 4, ties, cap=45)
    assert abs(got.first_player_win - p) < 1e-9
    for a in range(4):
        for b in range(4):
            assert abs(got.X[a, b, 0] - R[(a, b, 0)]) < 1e-9


def test_all_yellow_zombie_race_matches_reference():
    rules = parse_rules(AYZD.format(goal=5).replace('ending = "rounds"', 'ending = "race"'))
    got = solve_rules(rules)
    p, _, _ = reference_win(Yellow(), 5)
    assert abs(got.first_player_win - p) < 1e-9


def test_the_dice_set_aside_are_named_as_the_rules_say():
    plain = parse_rules(AYZD.format(goal=9)).part
    assert (plain.name(1), plain.name(2)) == ("1 die set aside", "2 dice set aside")
    named = parse_rules(AYZD.format(goal=9) + 'aside_name = "shotgun"\n').part
    assert (named.name(0), named.name(1), named.name(2)) == ("0 shotguns", "1 shotgun",
                                                              "2 shotguns")
    two = parse_rules(AYZD.format(goal=9) + 'aside_name = ["die on the rack", '
                                            '"dice on the rack"]\n').part
    assert two.name(2) == "2 dice on the rack"


def test_refill_folds_all_footprints():
    """All three dice showing footprints (1/27) leave the turn as it was:
    folded, the other outcomes of each state sum to 1."""
    m = parse_rules(AYZD.format(goal=13)).model
    for c in range(m.continuations):
        outs = range(m.out_start[c], m.out_start[c + 1])
        assert not any(m.out_kind[o] == CHOOSE and m.opt_gain[m.opt_start[o]] == 0
                       and m.opt_next[m.opt_start[o]] == c for o in outs)
        assert abs(sum(m.out_prob[o] for o in outs) - 1) < 1e-15


# -- refusals -------------------------------------------------------------------

@pytest.mark.parametrize("text, match", [
    ("goal = 9\n[dice]\ncount = [0, 3]\nsides = 6\n", r"dice\.count: \[0, 3\] is not allowed"),
    ("goal = 9\n[dice]\ncount = [3, 2]\nsides = 6\n", r"1 <= lo <= hi <= 10"),
    ("goal = 9\n[dice]\ncount = [1, 2, 3]\nsides = 6\n", r"dice\.count"),
    ("goal = 9\n[dice]\ncount = [1, true]\nsides = 6\n", r"dice\.count"),
    ("goal = 9\n[dice]\ncount = [1, 11]\nsides = 6\n", r"dice\.count"),
    ("goal = 9\n[dice]\nsides = 6\nface.1 = { bust = true }\nbust_points = 1\n",
     r"dice\.bust_points: only with one_throw = true"),
    ("goal = 9\n[dice]\nsides = 6\none_throw = true\nbust_points = 1\n",
     r"dice\.bust_points: no face busts"),
    ("goal = 9\n[dice]\nsides = 6\none_throw = true\nbust_points = -1\nface.1 = { bust = true }\n",
     r"dice\.bust_points: -1 is not allowed"),
    ("goal = 9\n[dice]\nsides = 6\none_throw = 1\n", r"dice\.one_throw: 1 is not allowed"),
    ("goal = 9\n[turn]\nmin_bank = 3\n[dice]\nsides = 6\none_throw = true\n",
     r"turn\.min_bank: not allowed with dice\.one_throw"),
    ("goal = 9\n[dice]\nsides = 6\nrefill = true\n", r"dice\.refill: true needs dice\.aside_bust"),
    ("goal = 9\n[dice]\nsides = 6\nrefill = \"yes\"\nface.1 = { aside = true }\naside_bust = 2\n",
     r"dice\.refill: 'yes' is not allowed"),
    ("goal = 9\n[dice]\nsides = 2\nother_faces = 0\nrefill = true\nface.1 = { aside = true }\n"
     "aside_bust = 9\n", r"no turn can score a point"),
    ("goal = 9\n[dice]\nsides = 6\naside_name = \"x\"\nface.1 = { bust = true }\n",
     r"dice\.aside_name: no face is set aside"),
    (AYZD.format(goal=9) + "aside_name = 3\n", r"dice\.aside_name: 3 is not allowed: a name"),
    (AYZD.format(goal=9) + "aside_name = [\"a\", \"b\", \"c\"]\n", r"dice\.aside_name: \["),
    (AYZD.format(goal=9) + "aside_name = \" \"\n", r"dice\.aside_name: ' ' is not allowed"),
    (AYZD.format(goal=9) + "aside_name = \"" + "x" * 31 + "\"\n", r"dice\.aside_name: 'x"),
    # five faces worth nothing fold into a bust of chance 1 (not 1 + 2e-16)
    ("goal = 9\n[dice]\nsides = 6\nother_faces = 0\nface.1 = { bust = true }\n",
     r"goal: no turn can score a point"),
])
def test_malformed_parts_are_refused_in_one_line(text, match):
    with pytest.raises(RulesError, match=match) as info:
        parse_rules(text, "my.toml")
    assert "\n" not in str(info.value) and str(info.value).startswith("my.toml: ")


# -- a cup of coloured dice (Zombie Dice) ------------------------------------

SMALL_CUP = """goal = {goal}
ending = "{ending}"
[turn]
forced_first = true
[cup]
[cup.dice]
green = {{ count = 2, brain = 3, shotgun = 1, footprint = 2 }}
yellow = {{ count = 2, brain = 2, shotgun = 2, footprint = 2 }}
red = {{ count = 1, brain = 1, shotgun = 3, footprint = 2 }}
"""


def test_a_small_cup_matches_todays_zombie_dice_solver():
    """Five dice, brains returned to the cup when it runs short: the
    enumeration here and today's (written apart) give the same game."""
    from designer.games import ZombieDiceGame
    from designer.solve import solve

    rules = parse_rules(SMALL_CUP.format(goal=4, ending="rounds"))
    got = solve_rounds_model(rules.model, 4, cap=20)
    today = solve(ZombieDiceGame(green=2, yellow=2, red=1, goal=4, cap=20))
    assert abs(got.first_player_win - today.first_player_win()) < 1e-12


def test_a_cup_of_yellow_dice_is_the_all_yellow_game():
    """With 13 yellow dice the cup never runs dry for long: brains go back
    when it does, so every roll is three fresh yellow dice."""
    cup = parse_rules("goal = 5\nending = \"rounds\"\n[turn]\nforced_first = true\n[cup]\n"
                      "[cup.dice]\nyellow = { count = 13, brain = 2, shotgun = 2, footprint = 2 }\n")
    yellow = parse_rules(AYZD.format(goal=5))
    a = solve_rounds_model(cup.model, 5, cap=30).first_player_win
    b = solve_rounds_model(yellow.model, 5, cap=30).first_player_win
    assert abs(a - b) < 1e-12


def test_a_small_cup_race_matches_reference():
    rules = parse_rules(SMALL_CUP.format(goal=3, ending="race"))
    got = solve_rules(rules)
    p, _, _ = reference_win(FromModel(rules.model), 3, forced_first=True)
    assert abs(got.first_player_win - p) < 1e-9


def test_the_zombie_dice_example_counts_todays_turn_states():
    rules = load_rules(example_path("zombie-dice"))
    assert rules.model.states == 10766  # as today's enumeration counts them
    assert rules.model.forced_first and rules.ending == "rounds" and rules.goal == 13
    assert rules.keys[0] == ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    assert rules.model.names[0] == "all dice in the cup"


def _same_model(a, b):
    """Every array and setting of two turn models equal, bit for bit."""
    from dataclasses import fields

    import numpy as np

    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


CUPS = [
    SMALL_CUP.format(goal=4, ending="rounds"),
    # one colour, one die a roll: the cup runs dry every few rolls
    "goal = 5\n[cup]\nthrow = 1\nbust = 2\n[cup.dice]\n"
    "blue = { count = 4, brain = 1, shotgun = 1, footprint = 1 }\n",
    # faces of different numbers (the weights over their least common multiple), a
    # die with no footprints, one that only busts, the first shotgun ends the turn
    "goal = 5\n[turn]\nmin_bank = 2\n[cup]\nthrow = 2\nbust = 1\n[cup.dice]\n"
    "a = { count = 3, brain = 4, shotgun = 1 }\n"
    "b = { count = 2, brain = 1, shotgun = 2, footprint = 4 }\n"
    "c = { count = 1, shotgun = 1 }\n",
    # footprints only, thrown again and again: rolls that come back
    "goal = 4\n[turn]\nforced_first = true\n[cup]\nthrow = 2\n[cup.dice]\n"
    "x = { count = 3, brain = 1, footprint = 5 }\ny = { count = 2, shotgun = 1, footprint = 1 }\n",
]


@pytest.mark.parametrize("text", CUPS + ["zombie-dice"])
def test_a_cup_built_in_arrays_equals_the_cup_built_a_state_at_a_time(text):
    """The turn model a level of states at a time in arrays (what every
    solve and check builds) and a state at a time in Python's integers:
    the same states in the same order, the same outcomes, bit for bit."""
    rules = load_rules(example_path(text)) if text == "zombie-dice" else parse_rules(text)
    m, cup = rules.model, rules.part
    fast, keys = cup.enumerate(forced_first=m.forced_first, min_bank=m.min_bank, floor=m.floor)
    built, exact_keys = cup._enumerate_exact(m.forced_first, m.min_bank, m.floor)
    assert keys == exact_keys == list(rules.keys) and fast.states == m.states
    _same_model(fast, built)


def test_a_cup_of_many_colours_codes_its_states_in_pythons_integers(monkeypatch):
    """Thirty colours of one die each: a state's code needs 90 binary
    digits, so the cup is walked a state at a time (the choice is made in
    Python's integers, which do not wrap round as 64-bit ones would)."""
    from designer.engine.cup import Colour, Cup

    cup = Cup(tuple(Colour(f"c{i}", 1, 1, 1, 1) for i in range(30)), 1, 3)
    assert cup._places()[-1] == 2**90

    class Exact(Exception):
        pass

    def exact(*args):
        raise Exact

    monkeypatch.setattr(Cup, "_enumerate_exact", exact)
    with pytest.raises(Exact):
        cup.enumerate()


def test_a_cup_too_large_for_64_bits_is_built_in_pythons_integers():
    """Faces counted in trillions make the weights overflow 64 bits: the
    cup is built a state at a time instead, and its chances, each the
    correctly rounded ratio of the same fractions, are those of the faces
    in lowest terms."""
    small = parse_rules(CUPS[2])
    big = parse_rules(CUPS[2].replace("brain = 4, shotgun = 1 }",
                                      f"brain = {4 * 10**12}, shotgun = {10**12} }}"))
    _same_model(small.model, big.model)


@pytest.mark.parametrize("body, match", [
    ("[cup]\n", r"cup\.dice: give at least one colour"),
    ("[cup]\n[cup.dice]\ngreen = 3\n", r"cup\.dice\.green: must be a table"),
    ("[cup]\n[cup.dice]\ngreen = { count = 0, brain = 1 }\n",
     r"cup\.dice\.green\.count: 0 is not allowed: an integer 1\.\.30"),
    ("[cup]\n[cup.dice]\ngreen = { count = 3 }\n", r"cup\.dice\.green: a die needs at least one face"),
    ("[cup]\n[cup.dice]\ngreen = { count = 3, brain = 1, eye = 2 }\n",
     r"cup\.dice\.green\.eye: unknown key"),
    ("[cup]\nthrow = 4\n[cup.dice]\ngreen = { count = 3, brain = 1, shotgun = 1 }\n",
     r"cup\.throw: 4 is not allowed: an integer 1\.\.3"),
    ("[cup]\nbust = 0\n[cup.dice]\ngreen = { count = 3, brain = 1, shotgun = 1 }\n",
     r"cup\.bust: 0 is not allowed"),
    ("[cup]\n[cup.dice]\na = { count = 20, brain = 1 }\nb = { count = 20, brain = 1 }\n",
     r"cup\.dice: 40 dice is not allowed: at most 30"),
    ("[cup]\nmore = 1\n[cup.dice]\ngreen = { count = 3, brain = 1 }\n", r"cup\.more: unknown key"),
    ("[cup]\n[cup.dice]\ngreen = { count = 3, shotgun = 1, footprint = 1 }\n",
     r"no turn can score a point"),
    ("[cup]\n[cup.dice]\ngreen = { count = 3, brain = 1 }\n[dice]\nsides = 6\n",
     r"a game has one part"),
])
def test_malformed_cups_are_refused_in_one_line(body, match):
    with pytest.raises(RulesError, match=match) as info:
        parse_rules("goal = 5\n" + body, "cup.toml")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text", CUPS)
def test_the_cup_enumerates_itself_as_the_generic_walk_would(text):
    """The cup's bulk enumeration (integer state codes, weights over one
    denominator) gives the model the generic walk over its continuations
    (the cup's own chances of each state's outcomes, written apart) gives,
    state for state (up to the last bit of a folded probability)."""
    from designer.engine.parts import enumerate_turn

    rules = parse_rules(text)
    part = rules.part

    class Walk:  # the same part without its bulk enumeration
        start, handover, name, continuations = (part.start, part.handover, part.name,
                                                part.continuations)

    m, keys = rules.model, rules.keys
    m2, keys2 = enumerate_turn(Walk(), forced_first=m.forced_first, min_bank=m.min_bank)
    assert m.states == m2.states and m.outcomes == m2.outcomes
    assert set(keys) == set(keys2) and keys[0] == keys2[0]
    where = {k: s for s, k in enumerate(keys2)}

    def outcomes(model, names, s):
        c0, c1 = model.cont_start[s], model.cont_start[s + 1]
        got = {}
        for o in range(model.out_start[c0], model.out_start[c1]):
            if model.out_kind[o] == CHOOSE:
                r = model.opt_start[o]
                got[(int(model.opt_gain[r]), names[model.opt_next[r]])] = model.out_prob[o]
            else:
                got["bust"] = model.out_prob[o]
        return got

    for s, key in enumerate(keys):
        a, b = outcomes(m, keys, s), outcomes(m2, keys2, where[key])
        assert a.keys() == b.keys(), key
        assert all(abs(a[o] - b[o]) < 1e-15 for o in a), key


# -- Farkle's farkle penalty: a count each player carries across turns --------

class FarklePenalty:
    """Farkle (the reference's turn) where each player counts their
    farkles in a row: the ``farkles``-th costs ``penalty`` units of the
    banked score (not below the floor) and starts the count again; a turn
    that banks clears it. A turn state is (dice to throw, the mover's count,
    the opponent's count); the next turn is the opponent's, so it starts
    from (all dice, the opponent's count, the mover's)."""

    def __init__(self, count, farkles, penalty, floor):
        from engine_reference import Farkle

        self.turn = Farkle(count)
        self.count, self.farkles, self.penalty, self.floor = count, farkles, penalty, floor
        self.start = (count, 0, 0)

    def handover(self, s):
        return (self.count, s[2], 0)

    def rolls(self, s):
        n, mine, theirs = s
        out = []
        for outs in self.turn.rolls(n):
            row = []
            for o in outs:
                if o[1] == "bust":
                    if mine + 1 >= self.farkles:
                        row.append((o[0], "bust", (self.count, theirs, 0),
                                    lambda i: max(i - self.penalty, self.floor)))
                    else:
                        row.append((o[0], "bust", (self.count, theirs, mine + 1), lambda i: i))
                else:
                    row.append((o[0], "choose", [(g, (k, mine, theirs)) for g, k in o[2]]))
            out.append(row)
        return out


def _farkle_penalty(goal, count, farkles, points, floor):
    text = example_path("farkle").read_text().replace("goal = 10000", f"goal = {goal}")
    text = text.replace("count = 6", f"count = {count}")
    if count < 6:
        text = text.replace("straight = 1500", "straight = 0")
    text += (f"farkle_penalty = {{ farkles = {farkles}, points = {points}, "
             f"floor = {floor} }}\n")
    return parse_rules(text, "farkle")


@pytest.mark.parametrize("goal, count, farkles, points, floor", [
    (200, 2, 3, 100, -100), (150, 3, 2, 50, -100), (150, 2, 1, 50, 0)])
def test_farkle_penalty_matches_reference(goal, count, farkles, points, floor):
    rules = _farkle_penalty(goal, count, farkles, points, floor)
    assert rules.model.falls and rules.model.floor == floor // 50
    got = solve_rules(rules)
    proc = FarklePenalty(count, farkles, points // 50, floor // 50)
    p, V, _ = reference_win(proc, rules.goal, forced_first=True, floor=floor // 50)
    assert abs(got.first_player_win - p) < 1e-9
    lo = got.floor
    for h, state in enumerate(got.start_states):
        key = rules.keys[state]
        for i in range(lo, rules.goal):
            for j in range(lo, rules.goal):
                assert abs(got.win[i - lo, j - lo, h] - V[(i, j, key)]) < 1e-9, (i, j, key)
    assert got.residual <= 1e-12


@pytest.mark.parametrize("table, match", [
    ("{ farkles = 3 }", r"farkle_penalty\.points: is required"),
    ("{ points = 75 }", r"farkle_penalty\.points: 75 is not allowed: .*multiple of unit = 50"),
    ("{ points = 500, floor = 100 }", r"farkle_penalty\.floor: 100 is not allowed"),
    ("{ points = 500, floor = -2510 }", r"farkle_penalty\.floor: -2510 is not allowed"),
    ("{ points = 500, farkles = 0 }", r"farkle_penalty\.farkles: 0 is not allowed"),
    ("{ points = 500, turns = 3 }", r"farkle_penalty\.turns: unknown key"),
    ("3", r"farkle_penalty: must be a table"),
])
def test_a_malformed_farkle_penalty_is_refused_in_one_line(table, match):
    text = example_path("farkle").read_text() + f"farkle_penalty = {table}\n"
    with pytest.raises(RulesError, match=match) as info:
        parse_rules(text, "farkle.toml")
    assert "\n" not in str(info.value)


def test_the_farkle_penalty_counts_each_players_farkles():
    """Nine turn starts (each player's count 0..2 of the third farkle that
    costs 500 points), and a floor of -2500 points in units."""
    rules = _farkle_penalty(1000, 6, 3, 500, -2500)
    starts = {rules.keys[s] for s in rules.model.start_states()}
    assert starts == {(6, a, b) for a in range(3) for b in range(3)}
    assert rules.model.floor == -50
