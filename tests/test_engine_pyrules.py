"""Python rules modules (designer.engine.pyrules, ``rules:FILE.py``).

Each game is written here as a module from its rules and checked against
the same game as a rules file (whole tables, 1e-12), against the slow
reference of tests/engine_reference.py (1e-9) and against exact fractions;
every mistake a module can make is refused in one line naming the file,
the function and the state, with exit status 2 and nothing written.
"""

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from engine_reference import Die, FromModel, PenaltyDie, reference_win

from cli_runner import cli
from cli_runner import one_line_refusal as _one_line_refusal
from designer.engine import solve_model
from designer.engine.game import (check_game, is_rules_name, load_path, load_rules_game,
                                  solve_game)
from designer.engine.pyrules import (MAX_STATES, RulesModuleError, bust, end, go,
                                     load_module_rules, read_rules, split_name)
from designer.engine.rounds import solve_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.errors import DesignError

EXAMPLE = Path(__file__).resolve().parents[1] / "designer/engine/examples/doubling_pig.py"
HEAD = "from fractions import Fraction\n\nfrom designer.engine.pyrules import bust, end, go\n\n"

PIGLET = HEAD + """\
name = "Piglet"
goal = {goal}


def start():
    return "coin"


def choices(state):
    half = Fraction(1, 2)
    return {{"flip": [(half, bust()), (half, go(1, state))]}}
"""

PIG = HEAD + """\
goal = 100


def start():
    return ()


def choices(state):
    sixth = Fraction(1, 6)
    return [("roll", [(sixth, bust())] + [(sixth, go(f, state)) for f in range(2, 7)])]
"""

# The Great Rolled Ones from its rules: the state is the number of 1s set
# aside; k of the n dice thrown show 1 with the binomial probability.
GREAT_ROLLED_ONES = """\
from math import comb
from fractions import Fraction

from designer.engine.pyrules import bust, go

name = "The Great Rolled Ones, in Python"
goal = 50
ending = "rounds"
ties = "earlier-seat"
forced_first = True


def start():
    return 0


def choices(ones):
    n = 5 - ones
    outs = []
    for k in range(n + 1):
        p = comb(n, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (n - k)
        outs.append((p, bust() if ones + k >= 3 else go(n - k, ones + k)))
    return {"roll": outs}
"""

# A shared deck of bad and good cards that persists from turn to turn and
# is reshuffled after its last bad card (Fowl Play's rules).
DECK = HEAD + """\
goal = {goal}
forced_first = True
BAD, GOOD = {bad}, {good}


def start():
    return (0, 0)


def handover(state):
    return state


def choices(state):
    w, c = state
    left_bad, left_good = BAD - w, GOOD - c
    after = (w + 1, c) if w + 1 < BAD else (0, 0)
    outs = [(Fraction(left_bad, left_bad + left_good), bust(next=after))]
    if left_good:
        outs.append((Fraction(left_good, left_bad + left_good), go(1, (w, c + 1))))
    return {{"draw": outs}}


def describe(state):
    return f"{{state[0]}} bad, {{state[1]}} good drawn"
"""

# One turn is one throw of 1 or 2 three-sided dice, chosen by the mover: a
# 1 among them scores 1, else their sum (a small Hog: the END outcome).
MINI_HOG = HEAD + """\
goal = 7


def start():
    return "throw"


def choices(state):
    one = [(Fraction(1, 3), end(1)), (Fraction(1, 3), end(2)), (Fraction(1, 3), end(3))]
    two = []
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            two.append((Fraction(1, 9), end(1 if 1 in (a, b) else a + b)))
    return {"one die": one, "two dice": two}
"""

# A three-sided die: 1 busts and costs a banked point (down to -2), 2 and 3
# score 1 and 2.
PENALTY = HEAD + """\
goal = 5
floor = -2


def start():
    return 0


def choices(state):
    third = Fraction(1, 3)
    return {"roll": [(third, bust(penalty=1)), (third, go(1, 0)), (third, go(2, 0))]}
"""

TWO_DICE_PIG = HEAD + """\
goal = 20


def start():
    return 0


def choices(state):
    outs = []
    for a in range(1, 7):
        for b in range(1, 7):
            p = Fraction(1, 36)
            if a == 1 and b == 1:
                outs.append((p, bust(zero=True)))
            elif 1 in (a, b):
                outs.append((p, bust()))
            else:
                outs.append((p, go(a + b, 0)))
    return {"roll": outs}
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DESIGNER_DATA_DIR", str(tmp_path.parent / f"{tmp_path.name}-data"))


def _module(text, name="game.py"):
    Path(name).write_text(text, encoding="utf-8")
    return name


def _same_table(a, b, keys_a=None, keys_b=None, tol=1e-12):
    """Two race solves agree at every turn start (matched by state key)."""
    assert a.floor == b.floor and a.win.shape[:2] == b.win.shape[:2]
    if keys_a is None:
        assert a.win.shape == b.win.shape
        assert np.abs(a.win - b.win).max() < tol
        return
    where_b = {keys_b[s]: h for h, s in enumerate(b.start_states)}
    assert len(where_b) == len(a.start_states)
    for h, s in enumerate(a.start_states):
        assert np.abs(a.win[:, :, h] - b.win[:, :, where_b[keys_a[s]]]).max() < tol


# -- exact figures and the rules files' games ---------------------------------

def test_piglet_to_two_is_four_sevenths():
    rules = load_module_rules(_module(PIGLET.format(goal=2)))
    got = solve_model(rules.model, rules.goal, 0)
    assert abs(got.first_player_win - Fraction(4, 7)) < 1e-12


def test_piglet_equals_the_rules_file():
    py = load_module_rules(_module(PIGLET.format(goal=10)))
    toml = load_rules(example_path("piglet"))
    assert (py.goal, py.name, py.keys) == (toml.goal, "Piglet", ["coin"])
    _same_table(solve_model(py.model, 10, 0), solve_model(toml.model, 10, 0))


def test_pig_equals_the_rules_file():
    py = load_module_rules(_module(PIG, "pig.py"))
    assert py.name == "pig"  # the file's name when the module gives none
    toml = load_rules(example_path("pig"))
    _same_table(solve_model(py.model, 100, 0), solve_model(toml.model, 100, 0))


def test_great_rolled_ones_equals_the_rules_file():
    mine = solve_game(load_rules_game(_module(GREAT_ROLLED_ONES)))
    shipped = solve_game(load_rules_game("great-rolled-ones"))
    assert mine["ending"] == "rounds" and mine["ties"] == "earlier-seat"
    assert abs(mine["first_player_win"] - shipped["first_player_win"]) < 1e-12
    assert mine["fair_komi"] == shipped["fair_komi"] == -3
    for a, b in zip(mine["komi_table"], shipped["komi_table"], strict=True):
        assert a["komi"] == b["komi"] and abs(a["first_player_win"] - b["first_player_win"]) < 1e-12
    py = load_module_rules("game.py")
    toml = load_rules(example_path("great-rolled-ones"))
    x = solve_rounds_model(py.model, 50, ties="earlier-seat").X
    y = solve_rounds_model(toml.model, 50, ties="earlier-seat").X
    assert x.shape == y.shape and np.abs(x - y).max() < 1e-12


@pytest.mark.parametrize("bad, good, goal", [(2, 5, 6), (3, 8, 12)])
def test_a_persistent_deck_equals_fowl_play(bad, good, goal):
    """The deck persists (handover) and a bust names the next turn's deck:
    every turn start of the table agrees with the rules file's deck."""
    py = load_module_rules(_module(DECK.format(bad=bad, good=good, goal=goal)))
    text = example_path("fowl-play").read_text()
    text = text.replace("bad = 6", f"bad = {bad}").replace("good = 42", f"good = {good}")
    toml = parse_rules(text.replace("goal = 50", f"goal = {goal}"), "fowl-play")
    assert sorted(py.keys) == sorted(toml.keys)
    assert py.model.names[py.keys.index((1, 0))] == "1 bad, 0 good drawn"
    assert len(py.model.start_states()) > 1  # more than one deck starts a turn
    _same_table(solve_model(py.model, goal, 0), solve_model(toml.model, goal, 0),
                py.keys, toml.keys)


def test_two_dice_pig_zero_equals_the_rules_file():
    py = load_module_rules(_module(TWO_DICE_PIG))
    sums = {a + b for a in range(2, 7) for b in range(2, 7)}
    assert py.model.falls and py.model.outcomes == len(sums) + 2  # 36 throws merged
    text = example_path("two-dice-pig").read_text().replace("goal = 100", "goal = 20")
    _same_table(solve_model(py.model, 20, 0), solve_model(parse_rules(text).model, 20, 0))


def test_a_unit_counts_points_in_units():
    text = PIGLET.format(goal=500).replace("go(1, state)", "go(50, state)")
    py = load_module_rules(_module(text.replace('name = "Piglet"', "unit = 50")))
    assert (py.unit, py.goal) == (50, 10)
    toml = load_rules(example_path("piglet"))
    _same_table(solve_model(py.model, 10, 0), solve_model(toml.model, 10, 0))
    game = load_rules_game("game.py", komi=100)
    assert game.goal == 500 and game.start == (0, 2)


def test_min_bank_and_komi_equal_the_rules_file():
    text = HEAD + """\
goal = 8
komi = 2
min_bank = 5


def start():
    return 0


def choices(state):
    third = Fraction(1, 3)
    return {"roll": [(third, bust()), (third, go(2, 0)), (third, go(3, 0))]}
"""
    py = load_module_rules(_module(text))
    toml = parse_rules("goal = 8\nkomi = 2\n[turn]\nmin_bank = 5\n[dice]\nsides = 3\n"
                       "face.1 = { bust = true }\n")
    assert (py.komi, py.model.min_bank) == (2, 5)
    _same_table(solve_model(py.model, 8, 2), solve_model(toml.model, 8, 2))
    assert load_rules_game("game.py").start == (0, 2)


def test_where_the_next_turn_starts():
    """``next=`` of a bust and of an end, and the hand-over after a stop,
    land in the arrays as the states they name."""
    class Game:
        goal = 9

        def start(self):
            return "a"

        def handover(self, s):
            return "h"

        def choices(self, s):
            if s != "a":
                return {"roll": [(0.5, bust()), (0.5, go(1, s))]}
            return {"roll": [(0.25, bust(next="b")), (0.25, end(3, next="c")),
                             (0.25, bust(zero=True)), (0.25, go(2, "a"))]}

    rules = read_rules(Game())
    m, keys = rules.model, rules.keys
    assert keys[0] == "a" and set(keys) == {"a", "b", "c", "h"}
    a = list(m.out_next[m.out_start[0]:m.out_start[1]])
    assert [keys[s] for s in a[:3]] == ["b", "c", "h"] and a[3] == -1
    assert list(m.out_points[:2]) == [0, 3] and list(m.out_effect[:3]) == [0, 0, 1]
    assert {keys[int(s)] for s in m.handover} == {"h"}
    assert [keys[int(s)] for s in m.start_states()] == sorted(["b", "c", "h", "a"],
                                                              key=keys.index)


# -- the slow reference -------------------------------------------------------

class DoublingDie:
    """Doubling Pig's turn for the reference, from its rules: a 1 busts;
    another face scores its pips times the multiplier; a 6 then doubles
    the multiplier, up to 8; every turn starts at multiplier 1."""

    start = 1

    def handover(self, m):
        return 1

    def rolls(self, m):
        outs = [(1 / 6, "bust", 1, lambda i: i)]
        for face in range(2, 7):
            outs.append((1 / 6, "choose", [(face * m, min(2 * m, 8) if face == 6 else m)]))
        return [outs]


class MiniHog:
    """One throw of 1 or 2 three-sided dice per turn: a 1 scores 1, else
    the sum."""

    start = "throw"

    def handover(self, s):
        return "throw"

    def rolls(self, s):
        one = [(1 / 3, "end", 1 if f == 1 else f, "throw") for f in (1, 2, 3)]
        two = [(1 / 9, "end", 1 if 1 in (a, b) else a + b, "throw")
               for a in (1, 2, 3) for b in (1, 2, 3)]
        return [one, two]


@pytest.mark.parametrize("goal", [6, 15])
def test_doubling_pig_matches_the_reference(goal):
    """The shipped example, a game no rules file can say: every turn start
    against the reference, and the reference run on the model's arrays."""
    rules = load_module_rules(f"rules:{EXAMPLE}")
    assert rules.keys == [1, 2, 4, 8] and rules.model.names[3] == "multiplier 8"
    got = solve_model(rules.model, goal, 0)
    p, V, _ = reference_win(DoublingDie(), goal)
    p_model, _, _ = reference_win(FromModel(rules.model), goal)
    assert abs(got.first_player_win - p) < 1e-9 and abs(p_model - p) < 1e-9
    for i in range(goal):
        for j in range(goal):
            assert abs(got.win[i, j, 0] - V[(i, j, 1)]) < 1e-9, (i, j)


def test_a_turn_of_one_throw_matches_the_reference():
    rules = load_module_rules(_module(MINI_HOG))
    assert rules.model.continuations == 2
    got = solve_model(rules.model, rules.goal, 0)
    p, V, _ = reference_win(MiniHog(), rules.goal)
    assert abs(got.first_player_win - p) < 1e-9
    assert max(abs(got.win[i, j, 0] - V[(i, j, "throw")])
               for i in range(7) for j in range(7)) < 1e-9


def test_a_roll_back_to_the_same_state_matches_the_reference():
    """A face worth 0 leaves the turn where it was; with the first roll
    forced, the turn's start and its return differ (the mover may stop
    only at the latter): keys follow the model's states."""
    text = HEAD + """\
goal = 5
forced_first = True


def start():
    return "roll"


def choices(state):
    third = Fraction(1, 3)
    return {"roll": [(third, bust()), (third, go(0, state)), (third, go(1, state))]}
"""
    rules = load_module_rules(_module(text))
    assert len(rules.keys) == rules.model.states and set(rules.keys) == {"roll"}
    got = solve_model(rules.model, 5, 0)
    p, V, _ = reference_win(Die(["bust", 0, 1]), 5, forced_first=True)
    assert abs(got.first_player_win - p) < 1e-9
    assert max(abs(got.win[i, j, 0] - V[(i, j, "roll")]) for i in range(5) for j in range(5)) < 1e-9


def test_a_penalty_down_to_a_floor_matches_the_reference():
    rules = load_module_rules(_module(PENALTY))
    assert rules.model.floor == -2 and rules.model.falls
    got = solve_model(rules.model, rules.goal, 0)
    p, V, _ = reference_win(PenaltyDie(["bust", 1, 2], 1, -2), 5, floor=-2)
    assert abs(got.first_player_win - p) < 1e-9
    for i in range(-2, 5):
        for j in range(-2, 5):
            assert abs(got.win[i + 2, j + 2, 0] - V[(i, j, "roll")]) < 1e-9


# -- names, the command line and the docs -------------------------------------

def test_names_of_python_rules():
    assert split_name("rules:a/b.py") == (Path("a/b.py"), None)
    assert split_name("rules:b.py:Easy") == (Path("b.py"), "Easy")
    assert split_name("b.py") == (Path("b.py"), None)
    for name in ("rules:b.py", "b.py", "rules:b.py:Easy", "x.toml", "piglet"):
        assert is_rules_name(name)
    assert not is_rules_name("b.pyc") and not is_rules_name("pig", ("pig",))
    with pytest.raises(RulesModuleError, match=r"^rules:pigs: not a rules game: "
                                               r"allowed rules:FILE.py, .*rules:EXAMPLE "
                                               r"\(.*farkle.*\)"):
        split_name("rules:pigs")
    # a shipped example by name, even where a preset of today's solvers has it
    assert load_path("rules:pig") == example_path("pig")


def test_one_file_several_variants():
    _module(HEAD + """\
class Coin:
    goal = 4

    def __init__(self):
        self.heads = 1

    def start(self):
        return 0

    def choices(self, s):
        return {"flip": [(0.5, bust()), (0.5, go(self.heads, 0))]}


class Long(Coin):
    goal = 9


fixed = Coin()
fixed.goal = 2
""")
    goals = {n: load_rules_game(f"rules:game.py:{n}").rules.goal for n in ("Coin", "Long", "fixed")}
    assert goals == {"Coin": 4, "Long": 9, "fixed": 2}
    assert load_rules_game("rules:game.py:Coin").name == "game"
    with pytest.raises(RulesModuleError, match=r"^game.py: there is no 'Short' in the file"):
        load_module_rules("rules:game.py:Short")
    with pytest.raises(RulesModuleError, match=r"^game.py: goal is required: give goal = N at "
                                               r"the top of the module$"):
        load_module_rules("rules:game.py")
    Path("game.py").write_text(Path("game.py").read_text() + "\n\nclass Short(Coin):\n"
                               "    goal = None\n    start = 0\n")
    with pytest.raises(RulesModuleError, match=r"^game.py: goal is required: give Short.goal"):
        load_module_rules("rules:game.py:Short")
    Path("game.py").write_text(Path("game.py").read_text().replace("goal = None", "goal = 3"))
    with pytest.raises(RulesModuleError, match=r"^game.py: Short.start is 0 \(int\), not a "
                                               r"function$"):
        load_module_rules("rules:game.py:Short")


def test_rules_check_and_solve_on_the_command_line():
    _module(EXAMPLE.read_text(), "doubling_pig.py")
    r = cli("rules", "check", "rules:doubling_pig.py", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rules = load_module_rules("doubling_pig.py")
    solved = solve_model(rules.model, 100, 0)
    assert out["part"] == "python module" and out["turn_states"] == 4
    assert out["name"] == "Doubling Pig" and out["source"] == "rules:doubling_pig.py"
    again = check_game(load_rules_game("rules:doubling_pig.py"))
    assert out["states"] == solved.states == again["states"]
    assert out["memory_bytes"] == again["memory_bytes"] and out["fits"] is True
    for name in ("rules:doubling_pig.py", "doubling_pig.py"):
        r = cli("solve", name, "--json", "--komi", "3")
        assert r.returncode == 0, r.stderr
        got = json.loads(r.stdout)
        assert abs(got["first_player_win"] - solved.value(0, 3)) < 1e-12
    text = cli("rules", "check", "rules:doubling_pig.py")
    assert text.returncode == 0 and "(rules: rules:doubling_pig.py; python module)" in text.stdout
    assert sorted(p.name for p in Path().iterdir()) == ["doubling_pig.py"]  # no bytecode


def test_the_docs_show_the_shipped_example():
    page = (Path(__file__).resolve().parents[1] / "docs/rules.md").read_text()
    assert "## Rules in Python" in page
    assert EXAMPLE.read_text().strip() in page
    assert "runs the code" in page and "never run code" in page


# -- refusals -----------------------------------------------------------------

OK_START = "goal = 5\n\n\ndef start():\n    return 0\n\n\n"
COIN = "    return {'flip': [(0.5, bust()), (0.5, go(1, 0))]}\n"

#: (module text, words the one line must hold, after "game.py: ")
REFUSED = {
    "start raises": (HEAD + "goal = 5\n\n\ndef start():\n    return 1 / 0\n\n\n"
                     "def choices(s):\n" + COIN,
                     ["start() raised ZeroDivisionError: division by zero (line 9)"]),
    "choices raises at a state": (
        HEAD + "goal = 5\n\n\ndef start():\n    return (0, 'x')\n\n\ndef choices(s):\n"
        "    if s == (1, 'x'):\n        raise KeyError('no rule here')\n"
        "    return {'roll': [(0.5, bust()), (0.5, go(1, (1, 'x')))]}\n",
        ["choices((1, 'x')) raised KeyError: 'no rule here' (line 14)"]),
    "handover raises": (HEAD + OK_START + "def handover(s):\n    return undefined\n\n\n"
                        "def choices(s):\n" + COIN,
                        ["handover(0) raised NameError", "undefined"]),
    "module raises": (HEAD + "goal = 5\nraise RuntimeError('boom')\n",
                      ["running the module raised RuntimeError: boom (line 6)"]),
    "sys.exit": (HEAD + OK_START + "def choices(s):\n    import sys\n    sys.exit(3)\n",
                 ["choices(0) raised SystemExit", "sys.exit(3)"]),
    "not a dict": (HEAD + OK_START + "def choices(s):\n    return 5\n",
                   ["choices(0) returned 5 (int): expected a dict {name: outcomes} or a list "
                    "of (name, outcomes) pairs"]),
    "outcomes not a list": (HEAD + OK_START + "def choices(s):\n    return {'roll': 0.5}\n",
                            ["choices(0): 'roll': 0.5 (float) is not a list of (probability, "
                             "result) pairs"]),
    "probability 1.5": (HEAD + OK_START + "def choices(s):\n"
                        "    return {'roll': [(1.5, go(1, 0)), (-0.5, bust())]}\n",
                        ["choices(0): 'roll': outcome 0: probability 1.5 (float) is not "
                         "allowed: a number 0..1"]),
    "sum 0.9": (HEAD + OK_START + "def choices(s):\n"
                "    return {'roll': [(0.5, go(1, 0)), (0.4, bust())]}\n",
                ["choices(0): 'roll': the probabilities sum to 0.9: they must sum to 1"]),
    "exact sum 1 - 1e-9": (HEAD + OK_START + "def choices(s):\n    p = Fraction(1, 10**9)\n"
                           "    return {'roll': [(Fraction(1, 2), go(1, 0)), "
                           "(Fraction(1, 2) - p, bust())]}\n",
                           ["the probabilities sum to 0.999999999: they must sum to 1"]),
    "negative gain": (HEAD + OK_START + "def choices(s):\n"
                      "    return {'roll': [(0.5, go(-2, 0)), (0.5, bust())]}\n",
                      ["choices(0): 'roll': outcome 0: option 0: gain -2 (int) is not allowed: "
                       "an integer >= 0"]),
    "fractional gain": (HEAD + OK_START + "def choices(s):\n"
                        "    return {'roll': [(0.5, go(1.5, 0)), (0.5, bust())]}\n",
                        ["gain 1.5 (float) is not allowed: an integer >= 0"]),
    "unhashable state": (HEAD + OK_START + "def choices(s):\n"
                         "    return {'roll': [(0.5, go(1, [s])), (0.5, bust())]}\n",
                         ["choices(0): 'roll': outcome 0: option 0: the state [0] (list), which "
                          "is not hashable"]),
    "unhashable start": (HEAD + "goal = 5\n\n\ndef start():\n    return {}\n\n\n"
                         "def choices(s):\n" + COIN,
                         ["start() returned {} (dict), which is not hashable"]),
    "unknown result kind": (HEAD + OK_START + "def choices(s):\n"
                            "    return {'roll': [(0.5, 'explode'), (0.5, bust())]}\n",
                            ["choices(0): 'roll': outcome 0: the result 'explode' (str) is not "
                             "one: expected go(gain, state)"]),
    "bust zero and penalty": (HEAD + OK_START + "def choices(s):\n"
                              "    return {'roll': [(0.5, go(1, 0)), "
                              "(0.5, bust(zero=True, penalty=2))]}\n",
                              ["either sets the banked score to 0 or takes a penalty"]),
    "missing choices": (HEAD + OK_START, ["no function choices: define choices(state)"]),
    "choices not a function": (HEAD + OK_START + "choices = {}\n",
                               ["choices is {} (dict), not a function"]),
    "missing goal": (HEAD + "def start():\n    return 0\n", ["goal is required"]),
    "goal too large": (HEAD + "goal = 10**6\n", ["goal = 1000000 (int) is not allowed: an "
                                                 "integer 1..100000"]),
    "ties in a race": (HEAD + "goal = 5\nties = 'replay'\n",
                       ["ties: only with ending = \"rounds\""]),
    "describe not text": (HEAD + OK_START + "def describe(s):\n    return 7\n\n\n"
                          "def choices(s):\n" + COIN,
                          ["describe(0) returned 7 (int): expected a string"]),
    "syntax error": ("goal = 5\ndef start(:\n", ["line 2:", "not valid Python"]),
    "endless turn": (HEAD + "goal = 5\n\n\ndef start():\n    return 'a'\n\n\n"
                     "def choices(s):\n    other = 'b' if s == 'a' else 'a'\n"
                     "    return {'wait': [(1.0, go(0, other))], "
                     "'roll': [(0.5, bust()), (0.5, go(1, s))]}\n",
                     ["a turn can go on forever without scoring or busting (from 'a'"]),
    "stuck below min_bank": (HEAD + "goal = 5\nmin_bank = 2\n\n\ndef start():\n    return 0\n\n\n"
                             "def choices(s):\n    if s == 1:\n        return {}\n"
                             "    return {'roll': [(0.5, bust()), (0.5, go(1, 1))]}\n",
                             ["choices(1) gives no continuation", "min_bank = 2",
                              "neither go on nor stop"]),
    "stuck at a forced start": (HEAD + "goal = 5\nforced_first = True\n\n\ndef start():\n"
                                "    return 0\n\n\ndef choices(s):\n    return {}\n",
                                ["choices(0) gives no continuation", "forced_first"]),
    "no score": (HEAD + OK_START + "def choices(s):\n"
                 "    return {'roll': [(0.5, bust()), (0.5, go(0, 1))]}\n",
                 ["no turn can score a point"]),
    "features not a dict": (HEAD + OK_START + "def choices(s):\n" + COIN
                            + "\n\ndef features(s):\n    return [s]\n",
                            ["features(0) returned [0] (list): expected a dict"]),
    "features raises": (HEAD + OK_START + "def choices(s):\n" + COIN
                        + "\n\ndef features(s):\n    return {'x': 1 / s}\n",
                        ["features(0) raised ZeroDivisionError"]),
    "feature named like a score": (HEAD + OK_START + "def choices(s):\n" + COIN
                                   + "\n\ndef features(s):\n    return {'k': s}\n",
                                   ["features(0): 'k' is taken by the position's numbers"]),
    "feature name not a word": (HEAD + OK_START + "def choices(s):\n" + COIN
                                + "\n\ndef features(s):\n    return {'two words': s}\n",
                                ["features(0): 'two words' is not a feature name"]),
    "feature not an integer": (HEAD + OK_START + "def choices(s):\n" + COIN
                               + "\n\ndef features(s):\n    return {'half': 0.5}\n",
                               ["features(0)['half'] = 0.5 (float): a feature is an integer"]),
    "features differ by state": (
        HEAD + OK_START + "def choices(s):\n    return {'roll': [(0.5, bust()), "
        "(0.5, go(1, min(s + 1, 2)))]}\n\n\ndef features(s):\n"
        "    return {'a': s} if s < 2 else {'c': s}\n",
        ["features(2) names ['c'], but features(0) named ['a']: every state has the same "
         "features"]),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_bad_module_is_refused_in_one_line(case):
    text, words = REFUSED[case]
    _module(text)
    with pytest.raises(RulesModuleError) as info:
        load_module_rules("rules:game.py")
    line = str(info.value)
    assert "\n" not in line and line.startswith("game.py: "), line
    for w in words:
        assert w in line, (w, line)




@pytest.mark.parametrize("case", ["choices raises at a state", "sum 0.9", "unhashable state",
                                  "missing choices", "syntax error", "endless turn",
                                  "module raises"])
@pytest.mark.parametrize("command", [["rules", "check"], ["solve"]])
def test_the_command_line_refuses_in_one_line(case, command):
    text, words = REFUSED[case]
    _module(text)
    for name in ("rules:game.py", "game.py"):
        _one_line_refusal(cli(*command, name), "game.py: ", *words)
        _one_line_refusal(cli(*command, name, "--json"), "game.py: ", *words)
    assert sorted(p.name for p in Path().iterdir()) == ["game.py"]  # nothing written


@pytest.mark.parametrize("command", [["rules", "check"], ["solve"]])
def test_a_missing_or_unreadable_file_is_refused(command):
    _one_line_refusal(cli(*command, "rules:missing.py"), "missing.py: cannot read it: there is "
                      "no such file")
    _one_line_refusal(cli(*command, "missing.py"), "missing.py", "no such file")
    Path("folder.py").mkdir()
    _one_line_refusal(cli(*command, "rules:folder.py"), "folder.py", "is a directory")
    Path("latin1.py").write_bytes(b"name = 'caf\xe9'\n")
    _one_line_refusal(cli(*command, "rules:latin1.py"), "latin1.py", "UTF-8")
    _one_line_refusal(cli(*command, "rules:nothing"), "rules:nothing: not a rules game")


def test_a_state_explosion_is_refused_at_the_budget():
    text = HEAD + OK_START + ("def choices(n):\n"
                              "    return {'roll': [(0.5, bust()), (0.5, go(1, n + 1))]}\n")
    _module(text)
    with pytest.raises(RulesModuleError, match=r"^game.py: more than 50 turn states are "
                                               r"reachable from start\(\) \(the next one: 50\)"):
        load_module_rules("game.py", max_states=50)
    _one_line_refusal(cli("rules", "check", "rules:game.py"),
                      f"more than {MAX_STATES:,} turn states", "must compare equal")
    # objects compared by identity are new states at every call
    _module(HEAD + OK_START + "class S:\n    pass\n\n\ndef choices(s):\n"
            "    return {'roll': [(0.5, bust()), (0.5, go(1, S()))]}\n")
    with pytest.raises(RulesModuleError, match="more than 10 turn states"):
        load_module_rules("game.py", max_states=10)


def test_merged_outcomes_and_exact_sums():
    """Equal results of one continuation are one outcome; Fractions and
    floats may be mixed; a float sum within 1e-12 of 1 is taken."""
    class Game:
        goal = 6

        def start(self):
            return 0

        def choices(self, s):
            tenth = [(0.1, go(1, 0))] * 10
            return {"a": [(Fraction(1, 3), bust()), (Fraction(1, 3), go(2, 0)),
                          (Fraction(1, 6), go(2, 0)), (1 / 6, bust())],
                    "b": tenth}

    rules = read_rules(Game(), "Game")
    m = rules.model
    assert m.outcomes == 3 and list(m.out_prob) == [0.5, 0.5, 1.0]
    assert list(m.opt_gain) == [2, 1]
    assert rules.path == "Game" and rules.name == "Game"


# -- fuzz: random junk from every function -----------------------------------

STATES = [0, 1, "s", (0, 1), frozenset({2})]


def _junk(rng, depth=0):
    """A random value: sometimes a valid piece, often not."""
    pool = [
        lambda: None, lambda: rng.choice([-1, 0, 1, 2, 7]),
        lambda: rng.choice([0.5, 1.5, -0.2, float("nan"), float("inf")]),
        lambda: Fraction(rng.randint(-1, 3), 2), lambda: True, lambda: "bust", lambda: b"x",
        lambda: rng.choice(STATES), lambda: [rng.choice(STATES)], lambda: {1, 2}, lambda: {},
        lambda: bust(), lambda: bust(zero=rng.choice([True, 1, "yes"])),
        lambda: bust(penalty=rng.choice([0, 1, -3, 2.5])), lambda: end(rng.choice([0, 3, -1])),
        lambda: end(2, next=rng.choice(STATES + [[1]])), lambda: bust(next=rng.choice(STATES)),
        lambda: go(rng.choice([0, 1, 2, -1]), rng.choice(STATES + [[0]])), lambda: object(),
        lambda: [], lambda: (),
    ]
    if depth < 2:
        pool += [
            lambda: [(_junk(rng, depth + 1), _junk(rng, depth + 1))
                     for _ in range(rng.randint(0, 3))],
            lambda: {rng.choice(["roll", 3]): _junk(rng, depth + 1)},
            lambda: [("roll", _junk(rng, depth + 1))],
        ]
    return rng.choice(pool)()


def _valid_choices(rng):
    """A valid answer as nested lists: a die of 2..4 faces, the first
    busting, the others scoring; sometimes a second continuation."""
    conts = []
    for name in ["roll", "roll two"][:rng.randint(1, 2)]:
        faces = rng.randint(2, 4)
        p = rng.choice([Fraction(1, faces), 1 / faces])
        outs = [[p, bust()]] + [[p, [[f, rng.choice([0, 1])]]] for f in range(1, faces)]
        conts.append([name, outs])
    return conts


def _mutate(rng, conts):
    """Replace one random node of a valid answer (the whole answer, a
    continuation's outcomes, an outcome, a probability, a result, an
    option, a gain or a state) with junk."""
    level = rng.randint(0, 7)
    if level == 0:
        return _junk(rng)
    cont = rng.choice(conts)
    outs = cont[1]
    if level == 1:
        cont[rng.choice([0, 1])] = _junk(rng)
        return conts
    k = rng.randrange(len(outs))
    if level == 2:
        outs[k] = _junk(rng)
    elif level == 3:
        outs[k][0] = _junk(rng)
    elif level == 4:
        outs[k][1] = _junk(rng)
    else:
        k = rng.randrange(1, len(outs))  # a scoring face: its option
        outs[k][1][0][{5: 0, 6: 1}.get(level, rng.randint(0, 1))] = _junk(rng)
    return conts


class _Fuzzed:
    """A game object whose settings and functions answer junk now and then."""

    def __init__(self, rng):
        self.rng = rng
        if rng.random() < 0.1:
            self.goal = _junk(rng)
        if rng.random() < 0.05:
            self.forced_first = _junk(rng)
        if rng.random() < 0.1:
            self.handover = lambda s: rng.choice([0, 1, _junk(rng)])
        if rng.random() < 0.1:
            self.describe = lambda s: rng.choice(["a state", _junk(rng)])

    goal = 5

    def start(self):
        return 0 if self.rng.random() < 0.95 else _junk(self.rng)

    def choices(self, s):
        conts = _valid_choices(self.rng)
        r = self.rng.random()
        if r < 0.03:
            raise ValueError(f"no rule for {s!r}")
        if r < 0.25:
            conts = _mutate(self.rng, conts)
        if isinstance(conts, list) and self.rng.random() < 0.5:
            try:
                conts = dict(conts)
            except (TypeError, ValueError):
                pass
        return conts


def test_fuzz_junk_is_refused_in_one_line():
    """Every answer is a valid game or one line naming the object and
    what was expected; never another exception."""
    rng = random.Random(20240611)
    built, refused = 0, {}
    for k in range(3000):
        game = _Fuzzed(rng)
        try:
            rules = read_rules(game, "fuzz", max_states=50)
        except RulesModuleError as exc:
            text = str(exc)
            assert "\n" not in text and text.startswith("fuzz: "), (k, text)
            assert len(text) < 400, text
            what = text.split(": ")[1].split("(")[0]
            refused[what] = refused.get(what, 0) + 1
        else:
            m = rules.model
            assert len(m.names) == m.states == len(rules.keys) and rules.goal == game.goal
            assert m.out_prob.min() >= 0 and m.out_prob.max() <= 1
            built += 1
    # the junk reached every function and the outcomes themselves
    assert built > 300 and sum(refused.values()) > 1000
    assert {"goal = ", "start", "choices", "handover", "describe"} <= set(refused)


def test_a_refusal_is_a_design_error():
    with pytest.raises(DesignError):
        read_rules(object())
