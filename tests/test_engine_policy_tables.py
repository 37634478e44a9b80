"""Rules and Python functions as policies of rules games (rule:, py:).

Each policy is checked against the slow match reference
(tests/engine_match_reference.py), where the same decision is written
again in Python from the rule's meaning over the reference's own turn
state; against the engine's own hold-at (a rule ``below N`` is the same
policy); and on the command line, where every mistake ends in one line and
exit status 2.
"""

import json
from types import SimpleNamespace

import numpy as np
import pytest
from cli_runner import cli
from cli_runner import one_line_refusal as _refused
from engine_match_reference import Decide, HoldAt, MaxScore, Optimal, reference_match
from engine_reference import AsideDice, Deck, Die, FromModel, PairOfDice, PenaltyDie

from designer.analysis.rules_compare import compare_rules
from designer.engine.game import load_rules_game
from designer.engine.match import match_model, parse_rules_policy
from designer.engine.model import build_model
from designer.engine.pyrules import load_module_rules
from designer.engine.rulesfile import parse_rules
from designer.engine.solve import solve_model
from designer.errors import DesignError

DECK = "goal = 6\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 3\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
ASIDE = ("goal = 6\n[turn]\nforced_first = true\n[dice]\ncount = 3\nsides = 3\n"
         "other_faces = 1\nface.1 = { aside = true }\naside_bust = 2\n")
PAIR = ("goal = 12\n[dice]\ncount = 2\nsides = 3\nface.1 = { bust = true }\n"
        "[dice.bust_effect]\nbust_faces = 2\nscore = \"zero\"\n")
PENALTY = ("goal = 5\n[dice]\nsides = 3\nface.1 = { bust = true }\nface.2 = { points = 1 }\n"
           "face.3 = { points = 2 }\n[dice.bust_effect]\nscore = \"penalty\"\npenalty = 1\n"
           "floor = -2\n")
KEYS = ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second")


class _Game:
    """What parsing a policy reads of a rules game."""

    def __init__(self, rules):
        self.rules, self.unit, self.name = rules, rules.unit, "test"


def _engine(rules, a, b, model=None):
    g = _Game(rules)
    return match_model(model or rules.model, rules.goal, parse_rules_policy(a, g),
                       parse_rules_policy(b, g), unit=rules.unit)


def _ref_policy(spec):
    if spec == "optimal":
        return Optimal()
    if spec == "max-score":
        return MaxScore()
    return HoldAt(int(spec.split(":")[1]))


def _agree(m, ref):
    for key in KEYS:
        assert abs(getattr(m, key)() - ref[key]) < 1e-9, (key, getattr(m, key)(), ref[key])


# -- against the slow reference ----------------------------------------------------
# (rule, the same decision over the reference's state, its rules, the
# reference's process and options, the other policy)

def _round_half_even(x):
    return round(x)


CASES = {
    "deck-maxscore-rule": (
        DECK, "rule:while c_rem > w_rem * k",
        lambda i, j, s, t: int((3 - s[1]) > (2 - s[0]) * t),
        Deck(2, 3), {"forced_first": True}, "optimal"),
    "deck-lead-clauses": (
        DECK, "rule:j >= 4 -> roll; c_rem <= 1 -> hold; i2 >= j + 2 -> hold; below 3",
        lambda i, j, s, t: 1 if j >= 4 else 0 if 3 - s[1] <= 1 else 0 if i + t >= j + 2
        else int(t < 3),
        Deck(2, 3), {"forced_first": True}, "max-score"),
    "d3-pace": (
        D3, "rule:pace 3 2",
        lambda i, j, s, t: int(t < 3 + _round_half_even((j - i) / 2)),
        Die(["bust", 2, 3]), {}, "hold-at:4"),
    "d3-expression": (
        D3, "rule:need <= 3 -> reach 8; while k * 2 < opp_need + max(diff, 1)",
        lambda i, j, s, t: int(i + t < 8) if 8 - i <= 3 else int(t * 2 < (8 - j) + max(j - i, 1)),
        Die(["bust", 2, 3]), {}, "optimal"),
    "aside-dice-left": (
        ASIDE, "rule:dice_left >= 3 -> roll; aside >= 1, k >= 2 -> hold; reachmax 4 1",
        lambda i, j, s, t: 1 if 3 - s >= 3 else 0 if (s >= 1 and t >= 2) else
        int(i + t < max(4, j + 1)),
        AsideDice(3, 3, 2), {"forced_first": True}, "hold-at:2"),
    "penalty-below-zero": (
        PENALTY, "rule:i < 0 -> below 3; diff >= 2 -> roll; below 1",
        lambda i, j, s, t: int(t < 3) if i < 0 else 1 if j - i >= 2 else int(t < 1),
        PenaltyDie(["bust", 1, 2], 1, -2), {"floor": -2}, "hold-at:2"),
    "falling-scores": (
        PAIR, "rule:i >= 6 -> below 2; lead 3",
        lambda i, j, s, t: int(t < 2) if i >= 6 else int(i + t < j + 3),
        PairOfDice(3), {}, "max-score"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_rule_matches_the_reference(name):
    text, spec, f, proc, opts, other = CASES[name]
    rules = parse_rules(text)
    tol = 1e-14 if rules.model.falls else 1e-15
    for a, b, ra, rb in ((spec, other, Decide(f), _ref_policy(other)),
                         (other, spec, _ref_policy(other), Decide(f))):
        m = _engine(rules, a, b)
        ref = reference_match(proc, rules.goal, ra, rb, tol=tol, **opts)
        _agree(m, ref)


def _odd(min_bank=0, forced_first=False):
    """Two ways to go on at state 0 (the second gains more and busts more),
    a choice of options, an end with points; state 1 has one way."""
    return build_model([
        [[(0.3, "bust", 0, "none", 0), (0.4, "choose", [(1, 0), (2, 1)]), (0.3, "end", 2, 0)],
         [(0.4, "bust", 0, "none", 0), (0.6, "choose", [(3, 1)])]],
        [[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0), (1, 1)])]],
    ], [0, 0], min_bank=min_bank, forced_first=forced_first)


def _second_way(i, j, k, ways):
    # the bolder way (where there is one) while behind, the first while
    # ahead, stop at 3 or more
    if k >= 3:
        return 0
    return min(2 if j > i else 1, ways)


@pytest.mark.parametrize("opts", [{}, {"min_bank": 2}, {"forced_first": True}],
                         ids=["plain", "min-bank", "forced"])
def test_a_function_picks_the_way_to_go_on(opts, tmp_path):
    model = _odd(**opts)
    ways = np.diff(model.cont_start)
    model = model.with_features(("ways",), ways[:, None])
    (tmp_path / "pol.py").write_text(
        "def second_way(i, j, k, ways):\n    if k >= 3:\n        return 0\n"
        "    return min(2 if j > i else 1, ways)\n")
    spec = f"py:{tmp_path / 'pol.py'}:second_way"

    def f(i, j, s, t):
        return _second_way(i, j, t, int(ways[s]))

    for a, b, ra, rb in ((spec, "hold-at:2", Decide(f), HoldAt(2)),
                         ("optimal", spec, Optimal(), Decide(f))):
        g = _Game(SimpleNamespace(model=model, unit=1))
        m = match_model(model, 6, parse_rules_policy(a, g), parse_rules_policy(b, g))
        ref = reference_match(FromModel(model), 6, ra, rb, **opts)
        _agree(m, ref)


def test_a_function_reads_the_deck_as_the_rule_does(tmp_path):
    (tmp_path / "pol.py").write_text(
        "def bold(k, w_rem, c_rem, diff):\n    return c_rem > w_rem * (k - (diff > 0))\n")
    rules = parse_rules(DECK)
    m = _engine(rules, f"py:{tmp_path / 'pol.py'}:bold", "optimal")
    ref = reference_match(Deck(2, 3), 6, Decide(
        lambda i, j, s, t: int((3 - s[1]) > (2 - s[0]) * (t - (j - i > 0)))), Optimal(),
        forced_first=True)
    _agree(m, ref)


# -- the same policy written three ways ------------------------------------------

@pytest.mark.parametrize("name, goal, n", [("farkle", 1500, 300), ("fowl-play", 20, 5),
                                           ("piglet", 10, 3), ("hog", 40, 9)])
def test_below_n_is_hold_at_n(name, goal, n, tmp_path):
    game = load_rules_game(name, goal=goal)
    hold = compare_rules(game, f"hold-at:{n}", "optimal")
    rule = compare_rules(game, f"rule:below {n}", "optimal")
    (tmp_path / "p.py").write_text(f"def f(k):\n    return k < {n}\n")
    func = compare_rules(game, f"py:{tmp_path / 'p.py'}:f", "optimal")
    for r in (rule, func):
        for key in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
            assert abs(getattr(r, key) - getattr(hold, key)) < 1e-12, key


def _hog_turn(c):
    """Points of one Hog turn throwing ``c`` dice, from its rules: any 1
    scores 1; otherwise the sum of the dice, each 2..6."""
    dist = {0: 1.0}
    for _ in range(c):
        nxt = {}
        for v, p in dist.items():
            for face in range(2, 7):
                nxt[v + face] = nxt.get(v + face, 0.0) + p / 6
        dist = nxt
    dist = {v: p for v, p in dist.items()}
    dist[1] = dist.get(1, 0.0) + 1.0 - (5 / 6) ** c
    return dist


def _hog_race(ca, cb, goal):
    """A's win moving first when A always throws ``ca`` dice and B ``cb``:
    every turn scores, so the race is a recursion on the scores."""
    turns = {ca: _hog_turn(ca), cb: _hog_turn(cb)}
    memo = {}

    def w(mover, i, j):  # the mover's win, its count first
        key = (mover, i, j)
        if key not in memo:
            c = ca if mover == 0 else cb
            memo[key] = sum(p * (1.0 if i + x >= goal else 1.0 - w(1 - mover, j, i + x))
                            for x, p in turns[c].items())
        return memo[key]

    return w(0, 0, 0), 1.0 - w(1, 0, 0)


def test_hog_a_function_chooses_how_many_dice(tmp_path):
    """Hog's only decision is how many dice to throw: the c-th way to go on
    throws c dice; a fixed count against another is a race checked here by
    a recursion over each count's points per turn."""
    game = load_rules_game("hog", goal=40)
    (tmp_path / "p.py").write_text("def five(k):\n    return 5\n\ndef two(k):\n    return 2\n")
    r = compare_rules(game, f"py:{tmp_path / 'p.py'}:five", f"py:{tmp_path / 'p.py'}:two")
    first, second = _hog_race(5, 2, 40)
    assert abs(r.win_as_first - first) < 1e-12 and abs(r.win_as_second - second) < 1e-12
    rule = compare_rules(game, "rule:roll", f"py:{tmp_path / 'p.py'}:two")
    first, second = _hog_race(1, 2, 40)  # a rule's roll: the first way, one die
    assert abs(rule.win_as_first - first) < 1e-12 and abs(rule.win_as_second - second) < 1e-12


def test_scores_in_points_with_a_unit(tmp_path):
    """Farkle counts points in units of 50; rules and functions read points:
    the same policy written both ways agrees, and its score clause acts."""
    game = load_rules_game("farkle", goal=1000)
    rule = compare_rules(game, "rule:i2 >= 600 -> hold; dice_left <= 2, k >= 250 -> hold; "
                               "below 350", "optimal")
    (tmp_path / "p.py").write_text(
        "def f(i, k, dice_left):\n"
        "    if i + k >= 600 or (dice_left <= 2 and k >= 250):\n"
        "        return False\n"
        "    return k < 350\n")
    func = compare_rules(game, f"py:{tmp_path / 'p.py'}:f", "optimal")
    plain = compare_rules(game, "hold-at:350", "optimal")
    for key in ("win_as_first", "win_as_second", "actions_as_first"):
        assert abs(getattr(rule, key) - getattr(func, key)) < 1e-12, key
    assert abs(rule.win_average - plain.win_average) > 1e-4


def test_a_python_rules_module_names_its_features(tmp_path):
    rules = load_module_rules("designer/engine/examples/doubling_pig.py")
    assert rules.model.feature_names == ("multiplier",)
    assert sorted(set(rules.model.features[:, 0])) == [1, 2, 4, 8]
    g = _Game(rules)
    pol = parse_rules_policy("rule:multiplier >= 4 -> below 40; below 20", g)
    assert pol.source.extra == ("multiplier",)
    m = match_model(rules.model, rules.goal, pol, parse_rules_policy("hold-at:20", g))
    assert 0.5 < m.win_as_first() < 1.0 and m.win_as_first() != m.win_as_second()


# -- mistakes: one line, exit 2 ------------------------------------------------------



FUNCS = """\
def unknown(k, zz):
    return True

def third(k):
    return 3

def negative(k):
    return -1

def divide(k, dice_left):
    return 10 // (dice_left - 6) > k

def junk(k):
    return "roll"

def star(*args):
    return True
"""


@pytest.mark.parametrize("policy, words", [
    ("rule:w_rem > 2 -> hold; roll", ["unknown feature 'w_rem'", "dice_left"]),
    ("rule:maxscore", ["'maxscore' is not for rules games"]),
    ("rule:", ["rule: needs a rule"]),
    ("rule:below", ["below takes 1 integer"]),
    ("rule:nothere.toml", ["cannot read rule file 'nothere.toml'"]),
    ("rule:deck_rule.toml", ["is for deck games, not rules games"]),
    ("py:funcs.py:unknown", ["parameter 'zz' is not a feature", "dice_left"]),
    ("py:funcs.py:third", ["chose way 3 to go on", "which has 1"]),
    ("py:funcs.py:negative", ["returned -1 at i=0, j=0, k=0"]),
    ("py:funcs.py:divide", ["policy function 'divide' failed", "ZeroDivisionError"]),
    ("py:funcs.py:junk", ["policy function 'junk' does not compile"]),
    ("py:funcs.py:star", ["parameter 'args' must be a plain parameter"]),
    ("py:funcs.py:missing", ["has no function 'missing'"]),
    ("py:nofile.py:f", ["no policy file 'nofile.py'"]),
    ("py:funcs.py", ["use py:FILE.py:FUNCTION"]),
])
def test_bad_policies_are_refused_in_one_line(policy, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "funcs.py").write_text(FUNCS)
    (tmp_path / "deck_rule.toml").write_text('family = "deck"\nclauses = [["maxscore"]]\n')
    before = sorted(p.name for p in tmp_path.iterdir())
    r = cli("compare", "farkle", "--goal", "1000", "--policy", policy, "--against", "hold-at:300")
    _refused(r, *words)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == before


def test_rule_policies_play_the_rounds_ending_too():
    """The Great Rolled Ones (rounds, earlier-seat): ``below 10`` decides as
    ``hold-at:10`` everywhere, and with no tie round the two paths agree
    exactly."""
    outs = []
    for pol in ("rule:below 10", "hold-at:10"):
        r = cli("compare", "great-rolled-ones", "--policy", pol, "--against", "optimal",
                "--json")
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout))
    for key in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
        assert outs[0][key] == pytest.approx(outs[1][key], abs=1e-14, rel=1e-14)


def test_a_rule_that_never_ends_a_turn_is_refused():
    # always passing at 0: no turn ever scores
    r = cli("compare", "piglet", "--goal", "5", "--policy", "rule:hold", "--against", "rule:hold")
    _refused(r, "can go on forever")


def test_a_rule_file_for_rules_games(tmp_path):
    (tmp_path / "r.toml").write_text(
        'family = "rules"\nclauses = [["dice_left <= 2", "k >= 200", "hold"], ["below 300"]]\n')
    game = load_rules_game("farkle", goal=1000)
    a = compare_rules(game, f"rule:{tmp_path / 'r.toml'}", "optimal")
    b = compare_rules(game, "rule:dice_left <= 2, k >= 200 -> hold; below 300", "optimal")
    assert a.win_as_first == b.win_as_first and a.win_as_second == b.win_as_second


def test_json_names_the_policy(tmp_path):
    r = cli("compare", "rules:fowl-play", "--goal", "15", "--policy", "rule:while c_rem > w_rem * k",
            "--against", "max-score", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["policy"] == "rule:while c_rem > w_rem * k"
    # the rule is max-score's draw-while-it-gains: the same decisions
    assert abs(out["win_average"] - 0.5) < 1e-12


def test_parse_errors_name_the_game_features():
    game = load_rules_game("zombie-dice")
    with pytest.raises(DesignError, match="s, feet, in_cup"):
        parse_rules_policy("rule:shotguns >= 2 -> hold; roll", game)


# -- a rule as the computer player of designer play ------------------------------------

@pytest.mark.parametrize("name, goal, text", [
    ("farkle", 600, "dice_left <= 2, k >= 150 -> hold; opp_need <= 200 -> roll; below 300"),
    ("rules:fowl-play", 8, "while c_rem > w_rem * k + diff / 3"),
    ("great-rolled-ones", 12, "aside >= 1 -> below 4; pace 6 3"),
])
def test_the_play_level_decides_as_the_table(name, goal, text):
    """``--level rule:RULE`` stops exactly where the compared rule's table
    stops, at every position a player can stop and not win by stopping."""
    from designer.engine.solve import plan
    from designer.play.players import make_player
    from designer.play.rules_engine import STOP, RulesState

    game = load_rules_game(name, goal=goal)
    player = make_player(f"rule:{text}", None, game=game)
    rules = game.rules
    model = rules.model
    p = plan(model, rules.goal)
    table = parse_rules_policy(f"rule:{text}", game).table(model, rules.goal, game.unit, p)
    checked = 0
    for a in range(p["n"]):
        for b in range(p["n"]):
            for s in range(model.states):
                for t in range(1, int(p["node_len"][s])):
                    if a + t >= rules.goal or model.cont_start[s] == model.cont_start[s + 1]:
                        continue
                    state = RulesState(game, (a, b), 0, s, t, fresh=False)
                    if not state.can_stop():
                        continue
                    go = player.decide(state) != STOP
                    assert go == bool(table[a, b, p["node_base"][s] + t]), (a, b, s, t)
                    checked += 1
    assert checked > 100


def test_the_play_level_decides_as_the_rounds_table():
    """Under the rounds ending the compared table covers both scores up to
    the cap (past the goal, tie rounds); the play level stops where it
    stops, for either seat, wherever it may stop and holding does not win
    the game on the spot."""
    from designer.engine.rounds_match import table_cap, table_plan
    from designer.play.players import make_player
    from designer.play.rules_engine import STOP, RulesState, holding_wins

    text = "opp_need <= 0 -> lead 1; aside >= 1 -> below 4; pace 6 3"
    game = load_rules_game("great-rolled-ones", goal=12)
    player = make_player(f"rule:{text}", None, game=game)
    model = game.rules.model
    cap = table_cap(model, game.rules.goal)
    p = table_plan(model, cap)
    table = parse_rules_policy(f"rule:{text}", game).table(model, game.rules.goal, game.unit, p)
    checked = 0
    for mover in (0, 1):
        for a in range(0, cap + 1, 3):
            for b in range(0, cap + 1, 2):
                for s in range(model.states):
                    for t in range(1, min(int(p["node_len"][s]), cap - a + 1)):
                        units = (a, b) if mover == 0 else (b, a)
                        state = RulesState(game, units, mover, s, t, fresh=False)
                        if (model.cont_start[s] == model.cont_start[s + 1]
                                or not state.can_stop() or holding_wins(state, t)):
                            continue
                        go = player.decide(state) != STOP
                        assert go == bool(table[a, b, p["node_base"][s] + t]), (mover, a, b, s, t)
                        checked += 1
    assert checked > 1000


def test_the_command_plays_against_a_rule(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import os
    import re
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "DESIGNER_DATA_DIR": str(tmp_path), "COLUMNS": "100", "LINES": "50"}
    child = pexpect.spawn(sys.executable, ["-m", "designer", "play", "piglet", "--goal", "4",
                                           "--level", "rule:k >= 2 -> hold; roll",
                                           "--first", "computer", "--no-pause", "--seed", "2"],
                          cwd=str(root), env=env, encoding="utf-8", codec_errors="replace", timeout=120,
                          dimensions=(50, 100))
    child.expect(r"Computer \(first\)")
    move = r"turn total (\d+)"
    for _ in range(300):
        i = child.expect([move, "You win", "The computer wins"])
        if i > 0:
            break
        child.send("h" if int(child.match.group(1)) >= 1 else "d")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    tail = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    assert "level rule:k >= 2 -> hold; roll" in tail
    child.close()
    assert child.exitstatus == 0


# -- fuzz: random rule texts end in a result or one line ---------------------------

_TOKENS = ["i", "j", "k", "b", "need", "opp_need", "diff", "max_ij", "sum_ij", "i2", "goal",
           "dice_left", "w_rem", "s", "zz", ">=", "<=", "==", "<", ">", "!=", "=", "=>", "3",
           "-2", "0", "10**12", "1.5", "1e9", "nan", "100", "250", "roll", "hold", "below 3",
           "below 150", "pace 2 0", "pace 100 3", "below", "reach x", "reachmax 200 50",
           "lead 50", "while k <", "while k < 200", "maxscore", "->", "->", ";", ",", "(", ")",
           "+", "*", "/", "min(", "max(", "**2", "\u00e9", "\x00", "", " "]


def _random_rule(rng):
    return " ".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 9)))


def test_fuzz_rule_texts(tmp_path, monkeypatch):
    import random

    monkeypatch.chdir(tmp_path)
    rng = random.Random(7)
    texts = [_random_rule(rng) for _ in range(120)]
    texts += ["dice_left <= 2 -> hold; below 100", "k >= 100 -> hold; roll", "while k < 150",
              "i2 >= 300 -> hold; pace 100 3"]
    ok = 0
    for text in texts:
        r = cli("compare", "farkle", "--goal", "300", "--policy", f"rule:{text}", "--against",
                "hold-at:100", "--json", limit=30)
        if r.returncode == 0:
            out = json.loads(r.stdout)
            assert 0.0 <= out["win_as_first"] <= 1.0 and 0.0 <= out["win_as_second"] <= 1.0
            ok += 1
        else:
            _refused(r)
    assert ok >= 4 and ok < len(texts)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_rules_check_lists_what_a_policy_reads():
    out = json.loads(cli("rules", "check", "farkle", "--json").stdout)
    assert out["features"] == {"dice_left": [1, 6]}
    out = json.loads(cli("rules", "check", "rules:red-light", "--json").stdout)
    assert out["features"] == {"w_rem": [1, 4], "c_rem": [0, 24]}
    text = cli("rules", "check", "piglet").stdout
    assert "policy reads i, j, k, goal and the race" in " ".join(text.split())


# -- agreement: the share of decision positions where two policies act alike -------

def _reference_agreement(model, goal, ra, rb, opts):
    """The agreement counted from the slow reference's decisions over the
    engine's decision positions (its plan's turn totals per state): where
    the mover may stop and go on, or has two ways or more to go on; where
    it may not stop, a policy goes on (its way)."""
    from designer.engine.solve import plan

    proc = FromModel(model)
    p = plan(model, goal)
    states = list(range(model.states))
    rolls = {s: proc.rolls(s) for s in states}
    for pol in (ra, rb):
        pol.setup(proc, goal, states, rolls, **{"min_bank": 0, "forced_first": False,
                                                "floor": 0, **opts})
    same = total = 0
    for i in range(goal):
        for j in range(goal):
            for s in states:
                for t in range(int(p["node_len"][s])):
                    may = t >= model.min_bank and (t > 0 or p["pass_ok"][s])
                    if i + t >= goal or not rolls[s] or not (may or len(rolls[s]) > 1):
                        continue
                    acts = [0 if may and pol.stops(i, j, s, t, True) else pol.cont(i, j, s, t) + 1
                            for pol in (ra, rb)]
                    same += acts[0] == acts[1]
                    total += 1
    return same / total, total


@pytest.mark.parametrize("opts", [{}, {"min_bank": 2}], ids=["plain", "min-bank"])
def test_agreement_matches_the_reference(opts):
    from designer.engine.agreement import agreement

    model = _odd(**opts)
    g = _Game(SimpleNamespace(model=model, unit=1))
    sol = solve_model(model, 6, 0)
    for a, b, ra, rb in (("optimal", "hold-at:2", Optimal(), HoldAt(2)),
                         ("max-score", "optimal", MaxScore(), Optimal()),
                         ("hold-at:1", "max-score", HoldAt(1), MaxScore())):
        got = agreement(model, 6, parse_rules_policy(a, g), parse_rules_policy(b, g),
                        solution=sol)
        want = _reference_agreement(model, 6, ra, rb, opts)
        assert got[1] == want[1] and abs(got[0] - want[0]) < 1e-12, (a, b, got, want)


def test_agreement_invariants():
    game = load_rules_game("farkle", goal=1500)
    same = compare_rules(game, "rule:below 300", "hold-at:300")
    assert same.agreement == 1.0 and same.states > 0
    opt = compare_rules(game, "optimal", "optimal")
    assert opt.agreement == 1.0 and opt.states == same.states
    ab = compare_rules(game, "hold-at:300", "max-score")
    ba = compare_rules(game, "max-score", "hold-at:300")
    assert ab.agreement == ba.agreement and 0.0 < ab.agreement < 1.0
    # optimal play's decisions recorded by the match equal those read apart
    from designer.engine.agreement import agreement

    rec = compare_rules(game, "hold-at:300", "optimal")
    rules = game.rules
    apart = agreement(rules.model, rules.goal, parse_rules_policy("hold-at:300", game),
                      parse_rules_policy("optimal", game), unit=50,
                      solution=solve_model(rules.model, rules.goal, 0))
    assert (rec.agreement, rec.states) == apart and 0.0 < apart[0] < 1.0
    off = compare_rules(game, "hold-at:300", "optimal", with_agreement=False)
    assert off.agreement is None and off.states == 0
    rounds = compare_rules(load_rules_game("great-rolled-ones"), "hold-at:10", "optimal")
    assert 0.0 < rounds.agreement < 1.0 and rounds.states > 0
