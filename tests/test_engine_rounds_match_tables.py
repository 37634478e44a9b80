"""Rules and functions (``rule:``, ``py:``) as policies under the rounds
ending, two seats (designer/engine/rounds_match.py): they read the scores,
so the match is evaluated by both scores up to the cap. Checked against the
slow reference written from the rules in its by-scores reading
(tests/engine_rounds_match_reference.py), against the same decisions
written as ``hold-at:N`` (the by-lead path, which meets it as the cap
grows), and through ``designer compare``."""

import json
from types import SimpleNamespace

import pytest
from engine_rounds_match_reference import Game, evaluate

from designer.engine.match import parse_rules_policy
from designer.engine.rounds_match import match_rounds_model
from designer.engine.rulesfile import example_path, load_rules, parse_rules
from designer.errors import ConvergenceError, DesignError

COIN = "goal = {goal}\n{turn}[dice]\nsides = 2\nface.1 = {{ bust = true }}\nface.2 = {{ points = 1 }}\n"
D3 = "goal = {goal}\n{turn}[dice]\nsides = 3\nface.1 = {{ bust = true }}\n"
FORCED = "[turn]\nforced_first = true\n"


def _pol(spec, rules):
    return parse_rules_policy(spec, SimpleNamespace(rules=rules, unit=rules.unit, name="test"))


# (engine policy, the reference's: "optimal", "max-score", ("hold-at", N)
# or ("fn", f(i, j, t) -> roll)); i the mover's score, j the other's
def _below(n):
    return (f"rule:below {n}", ("fn", lambda i, j, t: t < n))


# seat 1 raises the bar past the goal; seat 2 chases the leader
REACH = ("rule:reach 7", ("fn", lambda i, j, t: i + t < 7))
SCORES = ("rule:i >= j -> below 1; while k < 3", ("fn", lambda i, j, t: t < (1 if i >= j else 3)))
FIXED = {"optimal": "optimal", "max-score": "max-score", "hold-at:2": ("hold-at", 2),
         "hold-at:3": ("hold-at", 3)}


def _chase(goal):
    return ("rule:j >= goal -> lead 1; below 2",
            ("fn", lambda i, j, t: i + t < j + 1 if j >= goal else t < 2))


CASES = [
    # (rules text, faces, goal, forced, A (engine, reference), B)
    (COIN, ["bust", 1], 4, False, _below(2), ("optimal", "optimal")),
    (COIN, ["bust", 1], 5, True, REACH, ("hold-at:2", ("hold-at", 2))),
    (COIN, ["bust", 1], 4, False, "chase", ("max-score", "max-score")),
    (D3, ["bust", 2, 3], 5, False, SCORES, ("optimal", "optimal")),
    (D3, ["bust", 2, 3], 6, True, "chase", REACH),
    (COIN, ["bust", 1], 3, False, SCORES, _below(3)),
]


@pytest.mark.parametrize("bank_wins", [False, True])
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, faces, goal, forced, a, b", CASES,
                         ids=[f"{c[1][-1]}-{c[2]}-{'forced-' if c[3] else ''}"
                              f"{c[4] if isinstance(c[4], str) else c[4][0]}-{c[5][0]}"
                              for c in CASES])
def test_against_the_reference(bank_wins, ties, text, faces, goal, forced, a, b):
    a = _chase(goal) if a == "chase" else a
    rules = parse_rules(text.format(goal=goal, turn=FORCED if forced else ""))
    pa, pb = _pol(a[0], rules), _pol(b[0], rules)
    m = match_rounds_model(rules.model, goal, pa, pb, ties=ties, cap=goal + 8,
                           bank_wins=bank_wins)
    game = Game(faces, goal, ties, m.cap, forced_first=forced, absolute=True,
                bank_wins=bank_wins)
    for start in ((0, 0), (1, 0), (0, 2)):
        w1, l1 = evaluate(game, a[1], b[1], start)
        w2, l2 = evaluate(game, b[1], a[1], start)
        assert m.win_as_first(start) == pytest.approx(w1, abs=1e-9)
        assert m.win_as_second(start) == pytest.approx(1.0 - w2, abs=1e-9)
        assert m.actions_as_first(start) == pytest.approx(l1, rel=1e-9)
        assert m.actions_as_second(start) == pytest.approx(l2, rel=1e-9)


@pytest.mark.parametrize("name, goal, ties, rule, fixed, other", [
    ("pig", 30, "replay", "rule:below 20", "hold-at:20", "optimal"),
    ("pig", 30, "replay", "rule:below 15", "hold-at:15", "hold-at:25"),
    ("great-rolled-ones", 40, "earlier-seat", "rule:below 10", "hold-at:10", "max-score"),
    ("hog", 30, "earlier-seat", "rule:below 12", "hold-at:12", "optimal"),
])
def test_a_rule_that_reads_the_turn_total_alone_equals_hold_at(name, goal, ties, rule, fixed,
                                                               other):
    """``below N`` decides as ``hold-at:N`` everywhere; the two paths differ
    only in how far a replayed tie's turns may go (the by-lead path sets
    the tied scores back to the goal, the by-scores path stops every score
    at the cap), which a cap far above the goal makes vanish."""
    rules = load_rules(example_path(name))
    # (no tie round under earlier-seat: the paths meet at any cap)
    kw = dict(ties=ties, cap=goal + 160 if ties == "replay" else None, bank_wins=True)
    for pair in ((rule, other), (other, rule)):
        by_scores = match_rounds_model(rules.model, goal, *(_pol(p, rules) for p in pair), **kw)
        by_lead = match_rounds_model(rules.model, goal, *(_pol(fixed if p == rule else p, rules)
                                                          for p in pair), **kw)
        for f in ("win_as_first", "win_as_second", "actions_as_first", "actions_as_second"):
            assert getattr(by_scores, f)() == pytest.approx(getattr(by_lead, f)(), abs=1e-12,
                                                            rel=1e-12)


def test_a_function_and_the_same_rule_agree(tmp_path):
    """``py:`` and ``rule:`` policies are tabled alike: one rule and one
    function deciding the same give the same match, to the last bit."""
    f = tmp_path / "chase.py"
    f.write_text("def chase(i, j, k, goal):\n"
                 "    if j >= goal:\n        return i + k < j + 1\n    return k < 20\n")
    rules = load_rules(example_path("great-rolled-ones"))
    rule = _pol("rule:j >= goal -> lead 1; below 20", rules)
    fn = _pol(f"py:{f}:chase", rules)
    opt = _pol("optimal", rules)
    a = match_rounds_model(rules.model, rules.goal, rule, opt, ties="earlier-seat", unit=1)
    b = match_rounds_model(rules.model, rules.goal, fn, opt, ties="earlier-seat", unit=1)
    assert (a.win == b.win).all() and (a.actions == b.actions).all()
    # and chasing the leader beats holding at 20 blindly in seat 2
    blind = match_rounds_model(rules.model, rules.goal, _pol("rule:below 20", rules), opt,
                               ties="earlier-seat")
    assert a.win_as_second() > blind.win_as_second() + 1e-3


def test_a_rule_past_the_cap_holds_there_and_never_ending_tables_are_refused():
    """A seat that never holds banks only when its score reaches the cap:
    from 0 to a cap of 8 on a coin that is 8 heads in a row, once in 256
    turns, while the other seat needs three turns of one head to reach 3."""
    rules = parse_rules(COIN.format(goal=3, turn=""))
    roll = _pol("rule:roll", rules)
    m = match_rounds_model(rules.model, 3, roll, _pol("hold-at:1", rules), ties="replay",
                           cap=8)
    game = Game(["bust", 1], 3, "replay", 8, absolute=True)
    want, _ = evaluate(game, ("fn", lambda i, j, t: True), ("hold-at", 1))
    assert m.win_as_first() == pytest.approx(want, abs=1e-12)
    assert 2.0 ** -8 < m.win_as_first() < 0.05
    with pytest.raises(ConvergenceError, match="go on forever") as exc:
        match_rounds_model(rules.model, 3, _pol("rule:hold", rules), _pol("rule:hold", rules),
                           ties="replay")
    assert "\n" not in str(exc.value)


def test_a_table_over_the_memory_limit_is_refused_before_it_is_built():
    rules = load_rules(example_path("pig"))
    with pytest.raises(DesignError, match=r"needs [\d,]+ MB, over the limit of 1 MB"):
        match_rounds_model(rules.model, 100, _pol("rule:below 20", rules),
                           _pol("optimal", rules), memory_limit=2**20)


def _cli(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True,
                          text=True)


def test_designer_compare_takes_a_rule_under_the_rounds_ending():
    r = _cli("compare", "great-rolled-ones", "--policy", "rule:j >= goal -> lead 5; below 15",
             "--against", "optimal", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    rules = load_rules(example_path("great-rolled-ones"))
    m = match_rounds_model(rules.model, rules.goal,
                           _pol("rule:j >= goal -> lead 5; below 15", rules),
                           _pol("optimal", rules), ties=rules.ties, bank_wins=True)
    assert d["win_as_first"] == pytest.approx(m.win_as_first(), abs=1e-15)
    assert d["win_as_second"] == pytest.approx(m.win_as_second(), abs=1e-15)
    assert 0.0 < d["win_as_first"] < d["win_as_second"] < 0.5
    bad = _cli("compare", "great-rolled-ones", "--policy", "rule:below", "--against", "optimal")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_random_small_games_against_the_reference():
    """Twelve random one-die games (faces worth 1-3, a forced first throw or
    not, either tie rule, a winning hold banked or not, caps 3-8 above the
    goal), each a rule against a rule, hold-at, max-score or optimal play,
    both seatings, from two starts: every figure equals the reference."""
    import random

    rng = random.Random(11)
    shapes = [("below {n}", lambda n, G: lambda i, j, t: t < n),
              ("reach {n}", lambda n, G: lambda i, j, t: i + t < n),
              ("i >= j -> below {n}; below 2",
               lambda n, G: lambda i, j, t: t < (n if i >= j else 2)),
              ("j >= goal -> lead 1; below {n}",
               lambda n, G: lambda i, j, t: i + t < j + 1 if j >= G else t < n)]
    checked = 0
    while checked < 12:
        sides = rng.choice([2, 3, 4])
        pts = [rng.choice([1, 2, 3]) for _ in range(sides - 1)]
        goal, forced = rng.randint(3, 7), rng.random() < 0.4
        ties, bank = rng.choice(["replay", "earlier-seat"]), rng.random() < 0.5
        text = (f"goal = {goal}\n" + (FORCED if forced else "")
                + f"[dice]\nsides = {sides}\nface.1 = {{ bust = true }}\n"
                + "".join(f"face.{k + 2} = {{ points = {p} }}\n" for k, p in enumerate(pts)))
        rules = parse_rules(text)
        shape, fn = rng.choice(shapes)
        n = rng.randint(1, 5)
        a = (f"rule:{shape.format(n=n)}", ("fn", fn(n, goal)))
        other = rng.choice(["optimal", "max-score", "hold-at:2", "rule:below 3"])
        b = (other, {"hold-at:2": ("hold-at", 2), "rule:below 3": _below(3)[1]}.get(other, other))
        try:
            m = match_rounds_model(rules.model, goal, _pol(a[0], rules), _pol(b[0], rules),
                                   ties=ties, cap=goal + rng.randint(3, 8), bank_wins=bank)
        except ConvergenceError:
            continue  # both pass forever somewhere: refused, as it should be
        game = Game(["bust"] + pts, goal, ties, m.cap, forced_first=forced, absolute=True,
                    bank_wins=bank)
        for start in ((0, 0), (1, 2)):
            w1, l1 = evaluate(game, a[1], b[1], start)
            w2, l2 = evaluate(game, b[1], a[1], start)
            assert m.win_as_first(start) == pytest.approx(w1, abs=1e-9), (text, a, b, start)
            assert m.win_as_second(start) == pytest.approx(1.0 - w2, abs=1e-9)
            assert m.actions_as_first(start) == pytest.approx(l1, rel=1e-9)
            assert m.actions_as_second(start) == pytest.approx(l2, rel=1e-9)
        checked += 1


def test_rules_check_tells_what_a_rule_compare_allocates():
    """``designer rules check`` gives the bytes a rule's compare allocates
    under the rounds ending: the match refuses one byte less and takes
    exactly that many; Zombie Dice's is over the limit, said in words."""
    from designer.engine.rounds_match import rule_match_bytes

    rules = load_rules(example_path("great-rolled-ones"))
    need = rule_match_bytes(rules.model, 20)
    args = (rules.model, 20, _pol("rule:below 10", rules), _pol("optimal", rules))
    with pytest.raises(DesignError, match="over the limit"):
        match_rounds_model(*args, ties="earlier-seat", memory_limit=need - 1)
    match_rounds_model(*args, ties="earlier-seat", memory_limit=need)
    out = json.loads(_cli("rules", "check", "great-rolled-ones", "--goal", "20",
                          "--json").stdout)
    assert out["rule_compare_memory_bytes"] == need
    assert "rule_compare_memory_bytes" not in json.loads(
        _cli("rules", "check", "farkle", "--json").stdout)  # the race: by the plan
    import re

    text = " ".join(_cli("rules", "check", "rules:zombie-dice").stdout.split())
    assert re.search(r"tabled by both scores\): [\d,]+\.\d MB over the limit: designer "
                     r"compare refuses it", text), text
