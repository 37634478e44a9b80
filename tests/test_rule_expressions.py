"""Arithmetic comparisons in rules: parsing, size and operations, the
sentence, and the compiled decision checked state by state against the
rule's formula evaluated here in plain Python."""

import math
import re

import numpy as np
import pytest

from designer.errors import DesignError
from designer.games import load_game
from designer.policies.rule import RulePolicy
from designer.policies.rules import Rule

#: Rules of every kind of part: a while action, arithmetic conditions, min,
#: max, squares, one-decimal constants, divisions that meet zero, and the
#: threshold actions mixed in.
DECK_RULES = [
    "while c_rem * (need + opp_need) > 2 * w_rem * k * opp_need",
    "while 1.9 * c_rem * need > w_rem * k * (need + opp_need - 7)",
    "opp_need < w_rem -> roll; need <= 2 -> roll; while c_rem * need > w_rem * k * 1.5",
    "min(need, opp_need) * 2.5 <= k**2 -> hold; i2 < j+3 -> roll; maxscore",
    "while c_rem / (w_rem - 1) > k - diff / 4",
    "k * k > max(c_rem, opp_need) - -k -> hold; j < i, c_rem - w_rem * 3 >= k -> roll; bold 1",
    "while (c_rem - k) / (need - opp_need) >= 1",
]
DICE_RULES = [
    "while 20 * opp_need > k * need",
    "max_ij >= 8 -> roll; while k < 4 + (j - i) / 3",
    "while k**2 < need * 2.5 - opp_need / (j - i)",
    "sum_ij - k * 2 >= 10 -> pace 3 2; while min(k, 5) < max(need - 5, 2)",
]
ZOMBIE_RULES = [
    "s == 0 -> roll; while k * (s + 1) < 3 + opp_need / need",
    "p == 2, j >= 8, i2 < j -> roll; while b * s < max(need, 4) / 2",
]


def _formula_draws(rule, env):
    """The decision the rule's formula states, evaluated in Python with
    64-bit floats (a division by zero is IEEE's, as the formula promises)."""
    text = rule.formula()
    names = {k: np.float64(v) for k, v in env.items()}
    names.update(round=round, min=min, max=max)

    def value(expr):
        expr = expr.strip()
        if expr in ("draw", "roll"):
            return True
        if expr == "hold":
            return False
        expr = re.sub(r"\bpips\b", str(env["pips"]), expr)
        expr = re.sub(r"\bbusts\b", str(env["busts"]), expr)
        with np.errstate(divide="ignore", invalid="ignore"):
            return bool(eval(expr.replace(" and ", " & "), {"__builtins__": {}}, names))

    if not text.startswith("if "):
        return value(text)
    for part in text.split("; "):
        if part.startswith("else: "):
            return value(part[len("else: "):])
        head, act = part.split(": ", 1)
        cond = head.split(" ", 1)[1]
        if all(value(c) for c in cond.split(" and ")):
            return value(act)
    raise AssertionError("no clause decided")


def _deck_env(g, i, j, k, w, c):
    return dict(i=i, j=j, k=k, w_rem=g.bad - w, c_rem=g.good - c, need=g.goal - i,
                opp_need=g.goal - j, diff=j - i, max_ij=max(i, j), i2=i + k, sum_ij=i + j,
                pips=0, busts=0)


@pytest.mark.parametrize("text", DECK_RULES)
def test_deck_decisions_follow_the_formula(text):
    g = load_game("deck", bad=3, good=6, goal=9)
    rule = Rule.parse("deck", text)
    pol = RulePolicy(g, rule)
    checked = 0
    for i in range(g.goal):
        block = pol.block(i)
        for j in range(g.goal):
            for w in range(g.bad):
                for c in range(g.good + 1):
                    for k in range(1, min(c, g.goal - 1 - i) + 1):
                        want = _formula_draws(rule, _deck_env(g, i, j, k, w, c))
                        assert block[j, w, c, k] == want, (i, j, k, w, c)
                        checked += 1
    assert checked > 1000
    # the compact table (read in blocks of draws) agrees with the decisions
    T = pol.table()
    for i in range(g.goal):
        block = pol.block(i)
        for j in range(g.goal):
            for w in range(g.bad):
                for c0 in range(g.good + 1):
                    t = 1
                    while (t < g.goal - i and c0 + t <= g.good
                           and block[j, w, c0 + t, t]):
                        t += 1
                    assert T[i, j, w, c0] == t, (i, j, w, c0)


@pytest.mark.parametrize("text", DICE_RULES)
def test_dice_decisions_follow_the_formula(text):
    g = load_game("dice", faces=4, goal=12)
    rule = Rule.parse("dice", text)
    roll = RulePolicy(g, rule).table()
    for i in range(g.goal):
        for j in range(g.goal):
            for k in range(g.goal - i):
                env = dict(i=i, j=j, k=k, need=g.goal - i, opp_need=g.goal - j, diff=j - i,
                           max_ij=max(i, j), i2=i + k, sum_ij=i + j, pips=9, busts=1)
                assert roll[i, j, k] == _formula_draws(rule, env), (i, j, k)


@pytest.mark.parametrize("text", ZOMBIE_RULES)
def test_zombie_decisions_follow_the_formula(text):
    g = load_game("zombie-yellow", goal=6)
    rule = Rule.parse("zombie", text)
    roll = RulePolicy(g, rule).table()
    P, NI, J, B, S = roll.shape
    for p in range(P):
        for i in range(NI):
            for j in range(J):
                for b in range(B):
                    for s in range(S):
                        env = dict(p=p + 1, i=i, j=j, k=b, b=b, s=s, need=g.goal - i,
                                   opp_need=g.goal - j, diff=j - i, max_ij=max(i, j),
                                   i2=i + b, sum_ij=i + j, pips=0, busts=0)
                        env_formula = {**env}
                        assert roll[p, i, j, b, s] == _formula_draws(rule, env_formula), (
                            p, i, j, b, s)


@pytest.mark.parametrize("text, size, ops", [
    # arithmetic is free in the size; constants and conditions count
    ("while c_rem * (need + opp_need) > 2 * w_rem * k * opp_need", 1, 6),
    ("while c_rem * need > w_rem * k * min(need, opp_need)", 0, 5),
    ("while 1.9 * c_rem * need > w_rem * k * (need + opp_need - 7)", 2, 7),
    ("opp_need < w_rem -> roll; while 1.9 * c_rem * need > w_rem * k * (need + opp_need - 6)",
     3, 8),
    # the threshold actions' own arithmetic: max-score is a product and a comparison
    ("maxscore", 0, 2),
    ("below 20", 1, 1),
    ("max_ij >= 71 -> roll; pace 21 8", 4, 6),
    ("k**2 > 3 -> hold; below 4", 3, 3),
])
def test_size_and_operations(text, size, ops):
    family = "dice" if "pace" in text else "deck"
    r = Rule.parse(family, text)
    assert (r.size, r.ops) == (size, ops)


def test_text_round_trips_and_brackets_keep_the_order():
    for text in DECK_RULES:
        r = Rule.parse("deck", text)
        assert Rule.parse("deck", r.text()) == r
        assert Rule.loads(r.dumps()) == r
    r = Rule.parse("deck", "while c_rem - (w_rem - k) > (c_rem / (w_rem * k))")
    assert r.text() == "while c_rem - (w_rem - k) > c_rem / (w_rem * k)"


def test_sentence_reads_every_part():
    r = Rule.parse("deck", "opp_need < w_rem -> roll; "
                           "while 1.9 * c_rem * need > w_rem * k * min(need, opp_need - 7)")
    s = r.sentence()
    assert s == ("If the opponent needs fewer points than there are bad items left, draw on to "
                 "the goal; otherwise draw while 1.9 times the good items left times the "
                 "points you still need is above the bad items left times the turn total times "
                 "the smaller of the points you still need and (the points the opponent needs "
                 "minus 7).")
    r = Rule.parse("deck", "while c_rem - (w_rem - k) > (c_rem + 1)**2 / (w_rem * k)")
    assert r.sentence() == ("Draw while the good items left minus (the bad items left minus the "
                            "turn total) is above the square of (the good items left plus 1) "
                            "divided by (the bad items left times the turn total).")
    z = Rule.parse("zombie", "while b * s < 4")
    assert z.formula() == "b * s < 4"
    assert "the shotguns" in z.sentence()


@pytest.mark.parametrize("text, message", [
    ("while", "while takes a comparison"),
    ("while k", "a comparison is EXPRESSION OP EXPRESSION"),
    ("while k < 2.55", "integers or one decimal"),
    ("while k < 1e400", "integers or one decimal"),
    ("while k < foo", "unknown feature 'foo'"),
    ("while k ** 3 < 2", "the only power is a square"),
    ("while __import__('os') > 1", "an expression holds features"),
    ("while k < 2 < 3", "a comparison is EXPRESSION OP EXPRESSION"),
    ("while 2 < 3", "at least one feature"),
    ("while k < min(1, 2, 3)", "min takes two values"),
    ("while k < 10000000000", "at most 1,000,000,000"),
    ("while k % 2 == 0", "operators are"),
    ("while s < 1", "feature 's' is not seen in deck games"),
    ("k * 2 < -> hold; roll", "not a comparison of two expressions"),
])
def test_refusals_say_what_is_allowed(text, message):
    with pytest.raises(DesignError, match=re.escape(message)):
        Rule.parse("deck", text)


def test_long_expressions_are_refused():
    long = " + ".join(["k"] * 30)
    with pytest.raises(DesignError, match="at most 40 parts"):
        Rule.parse("deck", f"while {long} > 3")


def test_division_by_zero_is_infinite_not_an_error():
    # w_rem - 1 is 0 when one bad item is left: c_rem / 0 is infinite, so draw
    g = load_game("deck", bad=2, good=4, goal=6)
    pol = RulePolicy(g, Rule.parse("deck", "while c_rem / (w_rem - 1) > k"))
    block = pol.block(0)
    assert block[0, 1, 1, 1]  # w = 1: one bad left, c_rem = 3: 3 / 0 = inf > 1
    assert not math.isnan(float(pol.table().sum()))


@pytest.mark.parametrize("family, text", [("deck", t) for t in DECK_RULES]
                         + [("dice", t) for t in DICE_RULES]
                         + [("zombie", t) for t in ZOMBIE_RULES])
def test_sentence_says_every_constant_and_feature(family, text):
    """What the sentence reads aloud holds every number of the formula and
    names every feature it compares (the formula is what the machine plays)."""
    from designer.policies.rules import _NOUN, _SPECIAL, _SPECIAL_PAIR

    rule = Rule.parse(family, text)
    sentence = rule.sentence()
    formula = rule.formula()
    for number in re.findall(r"(?<![\w.*])\d+(?:\.\d)?", formula):
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", sentence), (number, sentence)
    specials = set(_SPECIAL) | {k[0] for k in _SPECIAL_PAIR} | {k[2] for k in _SPECIAL_PAIR}
    for cl in rule.clauses:
        for f in sorted(cl.action.features):
            assert _NOUN[f] in sentence or f in specials, (f, sentence)
