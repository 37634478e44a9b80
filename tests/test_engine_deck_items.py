"""Decks of kinds of items in a rules file (``[deck.items]``): items of
several values, items that stop the turn, bust items that cost banked
points, and the three reshuffle rules.

Each game is written again in tests/engine_reference.py (``ItemDeck``) from
its rules, and the engine must agree with the slow references to 1e-9 in
the race (tests/test_engine.py), the rounds ending, with three seats, and
for a rule that reads a kind's items left.
"""

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from engine_match_reference import Decide, HoldAt, reference_match
from engine_reference import ItemDeck, reference_rounds
from engine_seats_reference import reference_seats

from designer.engine import solve_rules
from designer.engine.match import match_model, parse_rules_policy
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import RulesError, parse_rules
from designer.engine.seats import solve_seats_model
from designer.search.rules_family import components

VALUES = ("goal = {goal}\n[deck.items]\none = {{ count = 2, points = 1 }}\n"
          "two = {{ count = 2, points = 2 }}\nred = {{ count = 2, bust = true }}\n")
VALUES_REF = ItemDeck([(2, 1), (2, 2), (2, "bust")])


def test_bad_and_good_are_two_kinds():
    """``bad``/``good`` and the same deck written as two kinds give the same
    turn model (the kinds add only their features) and the same solve."""
    plain = parse_rules("goal = 30\nkomi = 1\n[deck]\nbad = 4\ngood = 24\n")
    kinds = parse_rules("goal = 30\nkomi = 1\n[deck.items]\nbad = { count = 4, bust = true }\n"
                        "good = { count = 24, points = 1 }\n")
    for name in ("cont_start", "out_start", "out_prob", "out_kind", "opt_gain", "opt_next",
                 "handover"):
        assert np.array_equal(getattr(plain.model, name), getattr(kinds.model, name)), name
    assert plain.model.feature_names == ("w_rem", "c_rem")
    assert kinds.model.feature_names == ("w_rem", "c_rem", "pts_rem", "bad_rem", "good_rem")
    assert solve_rules(plain).first_player_win == solve_rules(kinds).first_player_win


def test_features_count_what_is_left():
    rules = parse_rules("goal = 9\n[deck.items]\ncopper = { count = 3, points = 1 }\n"
                        "gold = { count = 2, points = 4 }\nbell = { count = 1, stop = true }\n"
                        "snake = { count = 2, bust = true }\n")
    m = rules.model
    start = dict(zip(m.feature_names, m.features[0]))
    assert start == {"w_rem": 2, "c_rem": 6, "pts_rem": 11, "copper_rem": 3, "gold_rem": 2,
                     "bell_rem": 1, "snake_rem": 2}
    assert m.describe(0) == "left: 3 copper, 2 gold, 1 bell, 2 snake"
    # every state: the kinds' counts add up, the points are the values left
    for s, key in enumerate(rules.keys):
        f = dict(zip(m.feature_names, m.features[s]))
        assert f["copper_rem"] == 3 - key[0] and f["gold_rem"] == 2 - key[1]
        assert f["pts_rem"] == f["copper_rem"] + 4 * f["gold_rem"]
        assert f["c_rem"] == f["copper_rem"] + f["gold_rem"] + f["bell_rem"]


ROUNDS = ("goal = 5\n[deck.items]\none = { count = 1, points = 1 }\n"
          "two = { count = 1, points = 2 }\nred = { count = 2, bust = true }\n")


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_rounds_match_reference(ties):
    """Every round start, both tie rules. A turn gains at most 3 points
    here, so a cap 4 above the goal cuts no tie round short in either
    solver (each holds scores or gains at the cap in its own way)."""
    proc = ItemDeck([(1, 1), (1, 2), (2, "bust")])
    rules = parse_rules(ROUNDS)
    got = solve_rounds_model(rules.model, 5, ties=ties, cap=9)
    p, R = reference_rounds(proc, 5, ties, cap=9, forced_first=True)
    assert abs(got.first_player_win - p) < 1e-9
    assert len(got.start_states) > 1
    for h, state in enumerate(got.start_states):
        key = proc.state_of(rules.keys[state])
        for a in range(5):
            for b in range(5):
                assert abs(got.X[a, b, h] - R[(a, b, key)]) < 1e-9, (a, b, key)


def test_three_seats_match_reference():
    """A stop item and reshuffles after every bust, three seats: every turn
    start, every seat's probability."""
    text = ("goal = 4\n[deck]\nreshuffle = \"every-bust\"\n[deck.items]\n"
            "one = { count = 2, points = 1 }\ntwo = { count = 1, points = 2 }\n"
            "bell = { count = 1, stop = true }\nred = { count = 1, bust = true }\n")
    proc = ItemDeck([(2, 1), (1, 2), (1, "stop"), (1, "bust")], "every-bust")
    rules = parse_rules(text)
    got = solve_seats_model(rules.model, 4, 3)
    want = reference_seats(proc, 4, 3, forced_first=True, max_iter=20_000)
    assert got.unsettled_positions == 0 and got.residual <= 1e-12
    for h, state in enumerate(got.start_states):
        key = proc.state_of(rules.keys[state])
        for scores in itertools.product(range(4), repeat=3):
            assert np.abs(got.win[scores + (h,)] - np.array(want[(scores, key)])).max() < 1e-9


def test_a_rule_reads_a_kinds_items_left():
    """``rule:`` over ``two_rem``: draw while a 2 is left and the turn total
    is below 3, else hold at 2; against hold-at:3, as the reference
    evaluates the same decision over its own state (the items left)."""
    rules = parse_rules(VALUES.format(goal=5))
    g = SimpleNamespace(rules=rules, unit=1, name="values")
    spec = "rule:two_rem >= 1, k < 3 -> roll; below 2"
    m = match_model(rules.model, 5, parse_rules_policy(spec, g), parse_rules_policy("hold-at:3", g))
    ref = reference_match(VALUES_REF, 5, Decide(
        lambda i, j, s, t: int((s[0][1] >= 1 and t < 3) or t < 2)), HoldAt(3), forced_first=True)
    for key in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
        assert abs(getattr(m, key)() - ref[key]) < 1e-9, key
    # the rule is not hold-at:2 in disguise
    hold = match_model(rules.model, 5, parse_rules_policy("hold-at:2", g),
                       parse_rules_policy("hold-at:3", g))
    assert abs(hold.win_as_first() - m.win_as_first()) > 1e-3


def test_max_score_draws_on_while_no_item_can_bust():
    """The first hazard of a turn cannot bust: max-score draws there at any
    turn total, and plays as the reference's one-turn table does."""
    from engine_match_reference import MaxScore

    text = ("goal = 9\n[deck]\nreshuffle = \"every-turn\"\n[deck.items]\n"
            "one = { count = 2, points = 1 }\ntwo = { count = 2, points = 2 }\n"
            "hazard = { count = 3, bust = true, bust_at = 2 }\n")
    proc = ItemDeck([(2, 1), (2, 2), (3, "bust", 2)], "every-turn")
    rules = parse_rules(text)
    g = SimpleNamespace(rules=rules, unit=1, name="hazards")
    m = match_model(rules.model, 9, parse_rules_policy("max-score", g),
                    parse_rules_policy("hold-at:3", g))
    ref = reference_match(proc, 9, MaxScore(), HoldAt(3), forced_first=True)
    for key in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
        assert abs(getattr(m, key)() - ref[key]) < 1e-9, key


def test_a_study_counts_the_items():
    assert components({"deck": {"items": {"a": {"count": 3, "points": 1},
                                          "r": {"count": 2, "bust": True}}}}) == 5
    assert components({"deck": {"bad": 4, "good": 24}}) == 28


BAD = [
    ("[deck]\nbad = 2\ngood = 3\n[deck.items]\nr = { count = 1, bust = true }\n",
     r"deck\.bad: give either bad and good, or the kinds of \[deck\.items\], not both"),
    ("[deck.items]\n", r"deck\.items: is empty: give the kinds of items"),
    ("[deck.items]\na = { count = 3, points = 1 }\n",
     r"deck\.items: no item busts: give a kind \{ count = n, bust = true \} with n >= 1"),
    ("[deck.items]\na = { count = 3, points = 1 }\nr = { count = 0, bust = true }\n",
     r"deck\.items: no item busts"),
    ("[deck.items]\na = { count = 3, points = 1, bust = true }\n",
     r"deck\.items\.a: an item has one effect: points = n, bust = true or stop = true; this "
     r"one has points and bust"),
    ("[deck.items]\na = { count = 3 }\n", r"deck\.items\.a: an item has one effect"),
    ("[deck.items]\na = { points = 1 }\n", r"deck\.items\.a\.count: is required"),
    ("[deck.items]\na = { count = -1, points = 1 }\n",
     r"deck\.items\.a\.count: -1 is not allowed: an integer 0\.\.400"),
    ("[deck.items]\na = { count = 1, points = -2 }\n",
     r"deck\.items\.a\.points: -2 is not allowed: an integer 0\.\.100000"),
    ("[deck.items]\na = { count = 1, points = 9223372036854775807 }\nr = { count = 1, bust = true }\n",
     r"deck\.items\.a\.points: 9223372036854775807 is not allowed: an integer 0\.\.100000"),
    ("[deck.items]\na = { count = 1, bust = false }\n",
     r"deck\.items\.a\.bust: False is not allowed: true"),
    ("[deck.items]\na = { count = 1, points = 1, score = \"zero\" }\nr = { count = 1, bust = true }\n",
     r"deck\.items\.a\.score: only with bust = true"),
    ("[deck.items]\na = { count = 1, points = 1 }\nr = { count = 1, bust = true, score = \"half\" }\n",
     r"deck\.items\.r\.score: 'half' is not allowed: 'zero' or 'penalty'"),
    ("[deck.items]\na = { count = 1, points = 1 }\nr = { count = 1, bust = true, score = \"penalty\" }\n",
     r"deck\.items\.r\.penalty: is required"),
    ("[deck.items]\na = { count = 1, points = 1 }\nr = { count = 1, bust = true, penalty = 2 }\n",
     r"deck\.items\.r\.penalty: only with score = \"penalty\""),
    ("[deck]\nfloor = -3\n[deck.items]\na = { count = 1, points = 1 }\nr = { count = 1, bust = true }\n",
     r"deck\.floor: only with an item of score = \"penalty\""),
    ("[deck]\nbad = 1\ngood = 2\nfloor = -3\n", r"deck\.floor: only with \[deck\.items\]"),
    ("[deck]\nfloor = 2\n[deck.items]\na = { count = 1, points = 1 }\n"
     "r = { count = 1, bust = true, score = \"penalty\", penalty = 1 }\n",
     r"deck\.floor: 2 is not allowed: an integer -100000\.\.0"),
    ("[deck.items]\na = { count = 1, points = 1, bust_at = 2 }\nr = { count = 1, bust = true }\n",
     r"deck\.items\.a\.bust_at: only with bust = true"),
    ("[deck.items]\na = { count = 1, points = 1 }\nr = { count = 3, bust = true, bust_at = 0 }\n",
     r"deck\.items\.r\.bust_at: 0 is not allowed: an integer 1\.\.10"),
    ("[deck.items]\na = { count = 1, points = 1 }\nr = { count = 1, bust = true, bust_at = 2 }\n",
     r"deck\.items: no item busts: .*\(and n >= bust_at\)"),
    ("[deck.items]\nRed = { count = 1, bust = true }\n",
     r"deck\.items\.Red: not allowed as a kind's name: lower-case letters"),
    ("[deck.items]\nw = { count = 1, bust = true }\n",
     r"deck\.items\.w: not allowed as a kind's name: w_rem already counts the bust items left"),
    ("[deck.items]\na = 3\nr = { count = 1, bust = true }\n", r"deck\.items\.a: must be a table"),
    ("[deck.items]\na = { count = 1, points = 1, colour = 1 }\n",
     r"deck\.items\.a\.colour: unknown key; allowed here: count, points, bust, stop"),
    ("[deck]\nreshuffle = \"never\"\n[deck.items]\nr = { count = 1, bust = true }\n",
     r"deck\.reshuffle: 'never' is not allowed: 'last-bad' or 'every-bust' or 'every-turn'"),
    ("[deck]\nitems = 3\n", r"deck\.items: must be a table"),
    ("[deck.items]\n" + "".join(f"k{n} = {{ count = 1, points = 1 }}\n" for n in range(9)),
     r"deck\.items: 9 kinds is not allowed: at most 8"),
    ("[deck.items]\na = { count = 400, points = 1 }\nb = { count = 400, points = 2 }\n"
     "r = { count = 1, bust = true }\n",
     r"deck\.items: these counts make 321,602 deck states \(the product of each kind's count "
     r"plus one, times its bust_at\): at most 100,000"),
    ("[deck.items]\na = { count = 2, points = 0 }\nr = { count = 1, bust = true }\n",
     r"goal: no turn can score a point"),
]


@pytest.mark.parametrize("text, match", BAD)
def test_malformed_decks_are_refused_in_one_line(text, match):
    with pytest.raises(RulesError, match=r"^bad\.toml: " + match) as info:
        parse_rules("goal = 5\n" + text, "bad.toml")
    assert "\n" not in str(info.value)


def test_a_bust_that_wipes_the_score_in_rounds_matches_reference():
    """A skull that wipes the banked score, equal turns (replayed ties): a
    deck persists, so every start state is its own; every round start to
    1e-9 of the reference."""
    from designer.engine.rounds_falls import solve_rounds_falls

    rules = parse_rules("goal = 4\n[deck.items]\na = { count = 2, points = 1 }\n"
                        "skull = { count = 1, bust = true, score = \"zero\" }\n")
    proc = ItemDeck([(2, 1), (1, "zero")])
    got = solve_rounds_falls(rules.model, 4, cap=8)
    p, R = reference_rounds(proc, 4, "replay", cap=8, forced_first=True)
    assert abs(got.first_player_win - p) < 1e-9 and len(got.start_states) > 1
    for h, state in enumerate(got.start_states):
        key = proc.state_of(rules.keys[state])
        for a in range(4):
            for b in range(4):
                assert abs(got.X[a, b, h] - R[(a, b, key)]) < 1e-9, (a, b, key)


def test_the_rule_search_weighs_the_points_left(tmp_path):
    """A deck of kinds: the search's one-draw comparison reads the points
    left, not the number of good items."""
    from designer.engine.game import load_rules_game
    from designer.strategy.rules_game import rules_templates

    path = tmp_path / "values.toml"
    path.write_text(VALUES.format(goal=12))
    texts = [t.text for t in rules_templates(load_rules_game(str(path)))]
    assert "while pts_rem > w_rem * k" in texts
    assert not any("c_rem > w_rem" in t for t in texts)


def test_a_deck_that_may_pass_is_refused_in_rounds_before_allocating():
    """Without a forced first draw every deck state can start a turn and
    hand the same deck over: each is an unknown of the rounds' open pairs
    (vectors of H + 1 numbers), counted before anything is allocated."""
    from designer.engine.rounds import rounds_estimate
    from designer.engine.solve import TooLargeError

    text = ("goal = 6\nending = \"rounds\"\n[turn]\nforced_first = false\n[deck.items]\n"
            "one = { count = 6, points = 1 }\ntwo = { count = 6, points = 2 }\n"
            "red = { count = 3, bust = true }\n")
    m = parse_rules(text).model
    H = len(m.start_states())
    assert H == m.states == 7 * 7 * 3
    est = rounds_estimate(m, 6)
    assert est["memory"] > 8 * m.states * (6 + 60 + 1) * (H + 1)  # the general path's values
    with pytest.raises(TooLargeError, match=r"positions in rounds and needs [\d,]+ MB, over "
                                            r"the limit of 1 MB"):
        solve_rounds_model(m, 6, memory_limit=2**20)
