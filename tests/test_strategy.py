"""Human-playable rules (strategy cards): grammar, exact evaluation, search, CLI."""

import json

import numpy as np
import pytest
from cli_runner import cli as run_cli
from reference import TIE, deck_reference

from designer import DeckGame, DiceGame, ZombieGame, load_game
from designer.analysis import compare
from designer.errors import DesignError
from designer.policies import from_function, parse_policy
from designer.policies.zombie import policy_table
from designer.policies.rules import Condition
from designer.strategy import Evaluator, Rule, RulePolicy, known_rules
from designer.strategy.search import best_by_size, search_rules
from designer.strategy.templates import Template

KEEP_PACE = "max_ij >= 71 -> roll; pace 21 8"


# ---- the grammar -------------------------------------------------------------

@pytest.mark.parametrize("family,text,size", [
    ("deck", "maxscore", 0),
    ("dice", "below 20", 1),
    ("dice", KEEP_PACE, 4),
    ("deck", "opp_need <= 3 -> roll; diff >= 0 -> bold 1; maxscore", 5),
    ("zombie", "p == 2, j >= 13, i2 < j -> roll; s == 0 -> roll; s == 1 -> below 4; below 1", 11),
])
def test_size_and_round_trips(tmp_path, family, text, size):
    rule = Rule.parse(family, text)
    assert rule.size == size
    assert Rule.parse(family, rule.text()) == rule
    assert Rule.loads(rule.dumps()) == rule
    rule.save(tmp_path / "r.toml")
    assert Rule.load(tmp_path / "r.toml") == rule
    assert rule.sentence().endswith(".") and "\n" not in rule.sentence()


def test_keep_pace_renders():
    rule = Rule.parse("dice", KEEP_PACE)
    assert rule.formula() == "if max_ij >= 71: roll; else: k < 21 + round((j - i) / 8)"
    assert rule.sentence() == ("If either score is 71 or more, roll on to the goal; otherwise "
                               "hold once the turn total reaches 21 plus the opponent's lead "
                               "divided by 8, rounded.")
    assert Rule.parse("deck", "maxscore").formula() == "c_rem > w_rem * k"


def test_slide_rules_sizes_and_tables():
    """minh and neller written in the grammar give exactly the slides' tables."""
    rules = known_rules("zombie")
    assert {n: r.size for n, r in rules.items()} == {"fixed_hold_at": 11, "minh": 17,
                                                     "neller": 65}
    game = load_game("zombie-yellow")
    from designer.strategy.evaluate import zombie_rule_table

    for name, rule in rules.items():
        assert np.array_equal(zombie_rule_table(game, rule), policy_table(game, name)), name


@pytest.mark.parametrize("text,match", [
    ("hold at 20", "hold takes 0 integers"),
    ("stop 20", "an action is one of"),
    ("zz >= 3 -> roll; maxscore", "unknown feature 'zz'"),
    ("k >> 3 -> roll; maxscore", "unknown comparison"),
    ("pace 21 0", "divisor"),
    ("below x", "takes integers"),
    ("s == 1 -> roll; maxscore", "not seen in deck games"),
])
def test_bad_rules(text, match):
    with pytest.raises(DesignError, match=match):
        Rule.parse("deck", text)


@pytest.mark.parametrize("content,match", [
    ("family = 'deck'\nclauses = [['below 3', 'roll']]", "invalid rule"),
    ("family = 'deck'\nclauses = 3", "needs family"),
    ("family = [", "invalid rule file"),
    ("family = 'cards'\nclauses = [['roll']]", "family"),
])
def test_bad_rule_files(tmp_path, content, match):
    p = tmp_path / "bad.toml"
    p.write_text(content)
    with pytest.raises(DesignError, match=match):
        Rule.load(p)
    with pytest.raises(DesignError, match="cannot read rule file"):
        Rule.load(tmp_path / "missing.toml")


# ---- exact evaluation against independent ones ------------------------------------

def _deck_match_reference(game, f_a, f_b):
    """Plain value iteration of the deck game's equations for two fixed decision
    functions ``f(i, j, k, w, c) -> draw``; returns A's (first, second) wins."""
    bad, good, goal = game.bad, game.good, game.goal
    states = [(i, j, k, w, c) for i in range(goal) for j in range(goal) for w in range(bad)
              for c in range(good + 1) for k in range(c + 1) if i + k < goal]
    V = [{s: 0.5 for s in states}, {s: 0.5 for s in states}]
    pol = (f_a, f_b)

    def get(p, i, j, k, w, c):
        return 1.0 if i + k >= goal else V[p][(i, j, k, w, c)]

    while True:
        delta = 0.0
        for p in (0, 1):
            for s in states:
                i, j, k, w, c = s
                if k == 0 or pol[p](i, j, k, w, c):
                    w_rem, c_rem = bad - w, good - c
                    n = w_rem + c_rem
                    nxt = (w + 1, c) if w + 1 < bad else (0, 0)
                    new = w_rem / n * (1 - get(1 - p, j, i, 0, *nxt))
                    if c_rem:
                        new += c_rem / n * get(p, i, j, k + 1, w, c + 1)
                else:
                    new = 1 - get(1 - p, j, i + k, 0, w, c)
                delta = max(delta, abs(new - V[p][s]))
                V[p][s] = new
        if delta < 1e-14:
            break
    return V[0][(0, 0, 0, 0, 0)], 1 - V[1][(0, 0, 0, 0, 0)]


def _deck_by_hand(i, j, k, w, c, bad, good, goal):
    c_rem, w_rem = good - c, bad - w
    if j - i >= 1:
        return c_rem > w_rem * (k - 1)
    if goal - i <= 2:
        return True
    return c_rem > w_rem * k


def test_deck_rule_against_reference():
    game = DeckGame(bad=2, good=4, goal=6)
    rule = Rule.parse("deck", "diff >= 1 -> bold 1; need <= 2 -> roll; maxscore")

    def by_hand(i, j, k, w, c):
        return _deck_by_hand(i, j, k, w, c, game.bad, game.good, game.goal)

    P, _, _ = deck_reference(game.bad, game.good, game.goal)

    def optimal(i, j, k, w, c):
        w_rem, c_rem = game.bad - w, game.good - c
        nxt = (w + 1, c) if w + 1 < game.bad else (0, 0)
        draw = w_rem / (w_rem + c_rem) * (1 - P[(j, i, 0) + nxt])
        if c_rem:
            up = 1.0 if i + k + 1 >= game.goal else P[(i, j, k + 1, w, c + 1)]
            draw += c_rem / (w_rem + c_rem) * up
        hold = 1 - P[(j, i + k, 0, w, c)]
        return draw > hold + TIE

    first, second = _deck_match_reference(game, by_hand, optimal)
    s = Evaluator(game).score(rule)
    assert s["win_as_first"] == pytest.approx(first, abs=1e-12)
    assert s["win_as_second"] == pytest.approx(second, abs=1e-12)
    # the interpreter's decisions are the hand-written ones, state by state
    assert np.array_equal(RulePolicy(game, rule).decisions(),
                          from_function(game, _deck_by_hand).decisions())


def test_dice_rule_equals_function_policy():
    game = DiceGame(faces=6, goal=30)
    rule = Rule.parse("dice", "max_ij >= 21 -> roll; pace 8 4")

    def by_hand(i, j, k, faces, goal):
        if i >= 21 or j >= 21:
            return True
        return k < 8 + round((j - i) / 4)

    a = RulePolicy(game, rule)
    b = from_function(game, by_hand)
    assert np.array_equal(a.table(), b.table())
    ca, cb = compare(game, a, "optimal"), compare(game, b, "optimal")
    assert ca.win_average == cb.win_average


def test_zombie_rule_against_reference():
    from zombie_reference import zombie_reference

    params = (1, 1, 1, 2, 2, 4, 7)
    game = ZombieGame(*params[:6], 0, params[6])
    rule = Rule.parse("zombie", "p == 2, j >= 3, i2 < j -> roll; s == 0 -> reachmax 4 1; below 1")

    def by_hand(p, i, j, b, s):
        if p == 2 and j >= 3 and i + b < j:
            return True
        if s == 0:
            return i + b < max(4, j + 1)
        return b < 1

    def other(p, i, j, b, s):
        return b < 2

    P, _, _ = zombie_reference(*params, policies=(by_hand, other))
    from designer.solve.zombie import evaluate_zombie_match
    from designer.strategy.evaluate import zombie_rule_table

    out = evaluate_zombie_match(game, zombie_rule_table(game, rule), policy_table(game, other))
    assert out["first_player_win"] == pytest.approx(P[(1, 0, 0, 0, 0)], abs=1e-12)


# ---- the known rules' exact values -------------------------------------------

def test_known_values(fowl_play, pig):
    ev = Evaluator(fowl_play.game, fowl_play)
    assert ev.score(Rule.parse("deck", "maxscore"))["win_average"] == pytest.approx(0.459305,
                                                                                    abs=5e-7)
    evp = Evaluator(pig.game, pig)
    assert evp.score(Rule.parse("dice", KEEP_PACE))["win_average"] == pytest.approx(0.495344,
                                                                                    abs=5e-7)
    hold20 = evp.score(Rule.parse("dice", "below 20"))
    assert hold20["win_average"] == compare(pig.game, "hold-at:20", "optimal",
                                            solution=pig, with_agreement=False).win_average


def test_zombie_gaps_match_spec():
    ev = Evaluator(load_game("zombie-yellow"))
    gaps = {n: ev.score(r)["gap"] for n, r in known_rules("zombie").items()}
    assert gaps["fixed_hold_at"] == pytest.approx(-0.0274, abs=5e-5)
    assert gaps["minh"] == pytest.approx(-0.0134, abs=1e-4)  # the published figure is -0.0133
    assert gaps["neller"] == pytest.approx(-0.0100, abs=5e-5)


def test_rule_policy_string(tmp_path, red_light):
    p = tmp_path / "r.toml"
    Rule.parse("deck", "maxscore").save(p)
    a = compare(red_light.game, f"rule:{p}", "optimal", solution=red_light)
    b = compare(red_light.game, "max-score", "optimal", solution=red_light)
    assert a.win_average == b.win_average and a.agreement == b.agreement
    Rule.parse("dice", "below 3").save(p)
    with pytest.raises(DesignError, match="dice games, not deck"):
        parse_policy(f"rule:{p}", red_light.game)
    # Zombie Dice: the slides' minh as a rule file plays exactly as minh
    zg = load_game("zombie-yellow")
    known_rules("zombie")["minh"].save(p)
    assert (compare(zg, f"rule:{p}", "optimal", with_agreement=False).win_average
            == compare(zg, "minh", "optimal", with_agreement=False).win_average)


# ---- search ----------------------------------------------------------------------

def test_search_finds_keep_pace_shape_on_small_pig(tmp_path):
    """A small dice game: exhaustive search of a template finds the best instance,
    and a second run with the cache file evaluates nothing again."""
    game = DiceGame(faces=6, goal=30)
    tpl = Template("dice", "max_ij >= {a} -> roll; below {b}", (("a", 18, 26), ("b", 4, 10)))
    cache = tmp_path / "cache.jsonl"
    found, stats = search_rules(game, max_size=4, trials=100, jobs=2, shapes=[tpl], cache=cache,
                                induce=False, arith=False)
    ev = Evaluator(game)
    brute = max((ev.score(tpl.rule({"a": a, "b": b}))["win_average"], a, b)
                for a in range(18, 27) for b in range(4, 11))
    assert found[0].win_average == pytest.approx(brute[0], abs=1e-15)
    assert stats["evaluated"] == 63
    again, st2 = search_rules(game, max_size=4, trials=100, jobs=2, shapes=[tpl], cache=cache,
                              induce=False, arith=False)
    assert st2["evaluated"] == 0 and st2["resumed"] == 63
    assert again[0].rule == found[0].rule
    front = best_by_size(found, 4)
    assert front[0] is None and front[3].size == 3


def test_search_tpe_and_polish_is_reproducible():
    game = DeckGame(bad=2, good=6, goal=8)
    tpl = Template("deck", "diff >= {a} -> bold {b}; maxscore", (("a", -7, 7), ("b", -2, 3)))
    a, _ = search_rules(game, max_size=3, trials=20, jobs=1, shapes=[tpl], seed=3, induce=False,
                        arith=False)
    b, _ = search_rules(game, max_size=3, trials=20, jobs=2, shapes=[tpl], seed=3, induce=False,
                        arith=False)
    assert [f.rule for f in a[:5]] == [f.rule for f in b[:5]]


# ---- the command line --------------------------------------------------------------

def test_cli_strategy_json_and_out(tmp_path):
    out = run_cli("strategy", "dice", "--faces", "6", "--goal", "20", "--max-size", "2",
                  "--trials", "10", "--json", "--out", str(tmp_path / "best.toml"))
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["size"] for r in rows] == [0, 1, 2]
    for r in rows:
        assert {"size", "rule", "formula", "win_as_first", "win_as_second", "win_average",
                "agreement"} <= set(r)
        assert r["win_average"] == pytest.approx((r["win_as_first"] + r["win_as_second"]) / 2)
    assert rows[2]["win_average"] >= rows[1]["win_average"] >= rows[0]["win_average"]
    rule = Rule.load(tmp_path / "best.toml")
    c = run_cli("compare", "dice", "--faces", "6", "--goal", "20", "--policy",
                f"rule:{tmp_path / 'best.toml'}", "--json", "--no-agreement")
    assert c.returncode == 0, c.stderr
    assert json.loads(c.stdout)["win_average"] == pytest.approx(rows[2]["win_average"],
                                                                abs=1e-15)
    assert rule.size <= 2


@pytest.mark.parametrize("args,match", [
    (["no-such-game"], "no-such-game"),
    (["pig", "--max-size", "99"], "invalid --max-size=99"),
    (["pig", "--max-size", "-1"], "invalid --max-size=-1"),
    (["persian-monarchs"], "designer strategy does not take wagering games"),
    (["pig", "--seed", "-1"], "argument --seed: invalid value '-1': allowed an integer from 0 "
                              "to 4294967295"),
    (["pig", "--seed", "4294967296"], "argument --seed: invalid value '4294967296'"),
    (["pig", "--seed", str(2**70)], f"argument --seed: invalid value '{2**70}'"),
    (["pig", "--jobs", "100000"], "argument --jobs: invalid value '100000': allowed an integer "
                                  "from 1 to 64"),
    (["pig", "--jobs", "0"], "argument --jobs: invalid value '0'"),
    (["pig", "--trials", "0"], "argument --trials: invalid value '0'"),
    (["pig", "--out", ""], "invalid --out='': allowed a .toml file or a directory"),
    (["pig", "--out", " "], "invalid --out=' ': allowed a .toml file or a directory"),
])
def test_cli_strategy_errors(args, match):
    out = run_cli("strategy", *args)
    assert out.returncode == 2
    assert match in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("line", ['[1, 2]', '"text"', '{"game": "%s", "rule": "x", '
                                  '"win_as_first": 7, "win_as_second": 0.5}',
                                  '{"game": "%s", "rule": "x", "win_as_first": "a", '
                                  '"win_as_second": 0.5}'])
def test_cli_strategy_damaged_cache_is_one_line(tmp_path, line):
    from designer.games import load_game
    from designer.strategy.search import game_key

    cache = tmp_path / "cache.jsonl"
    cache.write_text(line.replace("%s", game_key(load_game("pig", goal=12))) + "\n")
    out = run_cli("strategy", "pig", "--goal", "12", "--max-size", "0", "--cache", cache,
                  "--quiet")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"designer: error: invalid strategy cache {str(cache)!r}: ")
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("clause, ok", [("['k >= 99999999999999999999', 'roll']", False),
                                        ("['below 10000000001']", False),
                                        ("['k >= j+2000000000', 'roll']", False),
                                        ("['k >= 1000000000', 'roll']", True)])
def test_rule_constants_beyond_the_bound_are_refused(tmp_path, clause, ok):
    # a constant past 64 bits was an OverflowError; the bound is 10**9
    p = tmp_path / "big.toml"
    p.write_text(f"family = 'deck'\nclauses = [{clause}, ['maxscore']]\n")
    out = run_cli("compare", "red-light", "--policy", f"rule:{p}", "--no-agreement")
    if ok:
        assert out.returncode == 0, out.stderr
        return
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.endswith("constants are integers from -1,000,000,000 to 1,000,000,000\n")


def test_cli_compare_malformed_rule_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("family = 'deck'\nclauses = [['k >= x', 'roll'], ['maxscore']]\n")
    out = run_cli("compare", "red-light", "--policy", f"rule:{p}")
    assert out.returncode == 2
    assert "invalid rule file" in out.stderr and len(out.stderr.strip().splitlines()) == 1


# ---- rules induced from the optimal policy ---------------------------------------

def _deck_occupancy_reference(game, f_a, f_b):
    """Expected visits of every state of a deck match by plain forward
    iteration: the distribution after n actions, summed over n until the
    mass left is negligible. ``f(i, j, k, w, c) -> draw``; A moves first.
    Returns {(mover, i, j, k, w, c): visits}."""
    bad, good, goal = game.bad, game.good, game.goal
    dist = {(0, 0, game.komi, 0, 0, 0): 1.0}
    occ = {}
    pol = (f_a, f_b)
    while sum(dist.values()) > 1e-15:
        nxt = {}
        for s, m in dist.items():
            occ[s] = occ.get(s, 0.0) + m
            p, i, j, k, w, c = s
            if k > 0 and not pol[p](i, j, k, w, c):
                key = (1 - p, j, i + k, 0, w, c)
                nxt[key] = nxt.get(key, 0.0) + m
                continue
            w_rem, c_rem = bad - w, good - c
            n = w_rem + c_rem
            after = (w + 1, c) if w + 1 < bad else (0, 0)
            key = (1 - p, j, i, 0) + after
            nxt[key] = nxt.get(key, 0.0) + m * w_rem / n
            if c_rem and i + k + 1 < goal:
                key = (p, i, j, k + 1, w, c + 1)
                nxt[key] = nxt.get(key, 0.0) + m * c_rem / n
        dist = nxt
    return occ


def test_visits_against_forward_reference():
    """Turn starts and decision states: the layered propagation equals plain
    forward iteration, state by state, for a rule against optimal play."""
    from designer.policies.builtin import OptimalPolicy, solution_for
    from designer.strategy.visits import visits

    game = DeckGame(bad=2, good=4, goal=6, komi=1)
    rule = Rule.parse("deck", "j < i -> bold 1; maxscore")
    opt = OptimalPolicy(game, solution_for(game))
    mine = RulePolicy(game, rule)
    v = visits(game, mine.table(), opt.table())

    def f_rule(i, j, k, w, c):
        return mine.draws(i, j, k, w, c)

    def f_opt(i, j, k, w, c):
        return opt.draws(i, j, k, w, c)

    ref = _deck_occupancy_reference(game, f_rule, f_opt)
    G = game.goal
    for p in (0, 1):
        block = np.zeros((G, G, game.bad, game.good + 1))
        for (q, i, j, k, w, c), m in ref.items():
            if q == p and k == 0:
                block[i, j, w, c] += m
        assert np.allclose(v.occ[p], block, atol=1e-13)
        for i in range(G):
            b = v.block(i, p)
            for (q, ii, j, k, w, c), m in ref.items():
                if q == p and ii == i and k >= 1:
                    assert b[j, w, c - k, k] == pytest.approx(m, abs=1e-13)
    decisions = sum(m for (q, i, j, k, w, c), m in ref.items() if k >= 1)
    assert v.decisions == pytest.approx(decisions, abs=1e-12)


@pytest.mark.parametrize("game", [DeckGame(bad=3, good=8, goal=12, komi=1),
                                  DiceGame(faces=6, goal=30)], ids=["deck", "dice"])
def test_visits_sum_to_expected_actions(game):
    """E[turns] + E[decisions] + 1 (the final hold) is the expected number of
    actions the solver computes backwards: optimal self-play, and a rule
    against optimal (the match evaluator's expected actions)."""
    from designer.policies.builtin import OptimalPolicy, solution_for
    from designer.solve.match import match_table
    from designer.strategy.visits import visits

    sol = solution_for(game)
    T = OptimalPolicy(game, sol).table()
    assert visits(game, T, T).actions == pytest.approx(sol.expected_actions(komi=game.komi),
                                                       rel=1e-12)
    rule = Rule.parse(game.family, "maxscore" if game.family == "deck" else "pace 8 4")
    R = RulePolicy(game, rule).table()
    m = match_table(game, R, T)
    assert visits(game, R, T).actions == pytest.approx(m.actions_as_first(), rel=1e-12)
    assert visits(game, T, R).actions == pytest.approx(m.actions_as_second(), rel=1e-12)


@pytest.mark.parametrize("game,text", [(DeckGame(bad=3, good=8, goal=12), "bold 1"),
                                       (DiceGame(faces=6, goal=30), "pace 8 4")],
                         ids=["deck", "dice"])
def test_loss_of_a_rule_is_its_exact_gap(game, text):
    """Weighted by the rule's own visits (both seats, against optimal), the
    loss of its decisions is exactly twice its average win rate below 1/2
    (performance difference lemma)."""
    from designer.policies.builtin import solution_for
    from designer.strategy.induce import losses

    sol = solution_for(game)
    rule = Rule.parse(game.family, text)
    ls = losses(game, sol, player=RulePolicy(game, rule), beyond=False, menu=[text])
    exact = Evaluator(game, sol).score(rule)["win_average"]
    assert ls.L.sum() == pytest.approx(2 * (0.5 - exact), abs=1e-13)


def _act_by_hand(kind, args, i, j, k, w_rem, c_rem):
    """The actions of the grammar, from the README's table."""
    def rnd(x):
        return round(x)  # halves to even, as the grammar says
    if kind == "roll":
        return True
    if kind == "hold":
        return False
    if kind == "maxscore":
        return c_rem > w_rem * k
    if kind == "below":
        return k < args[0]
    if kind == "bold":
        return c_rem > w_rem * (k - args[0])
    if kind == "mspace":
        return c_rem > w_rem * (k - rnd((j - i) / args[0]))
    if kind == "boldpace":
        return c_rem > w_rem * (k - args[0] - rnd((j - i) / args[1]))
    if kind == "lead":
        return i + k < j + args[0]
    raise AssertionError(kind)


@pytest.fixture(scope="module")
def small_deck_induced():
    from designer.policies.builtin import solution_for
    from designer.strategy.induce import induce, losses

    game = DeckGame(bad=2, good=6, goal=8)
    sol = solution_for(game)
    ls = losses(game, sol)
    return game, sol, ls, induce(ls, max_size=8)


def test_tree_to_rule_decides_as_the_tree(small_deck_induced):
    """Every induced list, written as a rule, draws exactly where the list
    (its splits on the turn-start cell, then its leaf action) says so, at
    every decision state of the game."""
    game, _, ls, found = small_deck_induced
    G, bad, good = game.goal, game.bad, game.good
    sizes = {x.size for x in found}
    assert {0, 1, 2, 3, 4} <= sizes and len(found) > 10
    assert any(x.clauses for x in found) and any(len(x.clauses) >= 2 for x in found)
    for x in found:
        got = RulePolicy(game, x.rule).decisions()  # [i, j, w, c, k]
        assert x.rule.size == x.size
        for i in range(G):
            for j in range(G):
                for w in range(bad):
                    feats = {"need": G - i, "opp_need": G - j, "diff": j - i,
                             "max_ij": max(i, j), "sum_ij": i + j, "w_rem": bad - w,
                             "opp_need-w_rem": j * -1 + G - (bad - w),
                             "need-w_rem": G - i - (bad - w)}
                    a = Rule.parse("deck", x.action_at(feats)).clauses[0].action
                    for c in range(good + 1):
                        for k in range(1, min(c, G - 1 - i) + 1):
                            want = _act_by_hand(a.kind, a.args, i, j, k, bad - w, good - c)
                            assert got[i, j, w, c, k] == want, (x.rule.text(), i, j, k, w, c)


def test_induced_rule_exact_against_reference():
    """An induced rule's exact win rate equals plain value iteration of the
    match (tests' reference, the deck game's rules), seat by seat."""
    from designer.policies.builtin import solution_for
    from designer.strategy.induce import induce, losses

    game = DeckGame(bad=2, good=4, goal=6)
    sol = solution_for(game)
    found = induce(losses(game, sol), max_size=6)
    x = next(f for f in found if len(f.clauses) >= 1 and f.size >= 3)
    pol = RulePolicy(game, x.rule)
    P, _, _ = deck_reference(game.bad, game.good, game.goal)

    def optimal(i, j, k, w, c):
        w_rem, c_rem = game.bad - w, game.good - c
        nxt = (w + 1, c) if w + 1 < game.bad else (0, 0)
        draw = w_rem / (w_rem + c_rem) * (1 - P[(j, i, 0) + nxt])
        if c_rem:
            up = 1.0 if i + k + 1 >= game.goal else P[(i, j, k + 1, w, c + 1)]
            draw += c_rem / (w_rem + c_rem) * up
        return draw > 1 - P[(j, i + k, 0, w, c)] + TIE

    first, second = _deck_match_reference(game, pol.draws, optimal)
    s = Evaluator(game, sol).score(x.rule)
    assert s["win_as_first"] == pytest.approx(first, abs=1e-12)
    assert s["win_as_second"] == pytest.approx(second, abs=1e-12)


def test_search_with_induced_source_resumes(tmp_path):
    """The induced source goes through the exact scoring; a second run with
    the cache evaluates nothing again and gives the same front."""
    game = DeckGame(bad=2, good=6, goal=8)
    cache = tmp_path / "c.jsonl"
    found, stats = search_rules(game, max_size=4, jobs=2, shapes=[], cache=cache, arith=False)
    assert stats["induced"] > 0 and stats["evaluated"] > 0
    assert all(f.template != "given" for f in found)
    ev = Evaluator(game)
    top = found[0]
    assert ev.score(top.rule)["win_average"] == top.win_average
    again, st2 = search_rules(game, max_size=4, jobs=2, shapes=[], cache=cache, arith=False)
    assert st2["evaluated"] == 0 and st2["resumed"] == stats["evaluated"]
    assert [f.rule for f in best_by_size(again, 4)] == [f.rule for f in best_by_size(found, 4)]


def test_choice_templates_keep_one_size():
    from designer.strategy.templates import templates, template_of

    game = load_game("fowl-play")
    for tpl in templates(game):
        if tpl.choices:
            sizes = {tpl.rule(v).size for v in tpl.grid()[:: max(1, tpl.count // 50)]}
            assert sizes == {tpl.size}, tpl.text
    rule = Rule.parse("deck", "opp_need <= w_rem -> roll; j < i -> mspace 12; bold 1")
    tpl, vals = template_of(rule, game)
    assert tpl.rule(vals) == rule and tpl.size == rule.size == 4
    assert tpl.slots == ["x0", "x1"]


def test_zombie_classic_rules_are_tuned():
    """Zombie Dice: a given rule's constants are tuned by the exact descent
    (the way neller's list is improved at its own size)."""
    game = ZombieGame(1, 1, 1, 2, 2, 4, 0, 7)
    rule = Rule.parse("zombie", "s == 0 -> below 6; below 4")  # a poor start
    found, stats = search_rules(game, max_size=4, jobs=1, shapes=[], extra=[rule], arith=False)
    ev = Evaluator(game)
    tuned = [f for f in found if f.template != "given"]
    assert stats["induced"] == 0 and tuned
    assert all(f.size == rule.size for f in tuned)
    best = found[0]
    assert best.template != "given" and best.rule != rule
    assert best.win_average > ev.score(rule)["win_average"]
    assert ev.score(best.rule)["win_average"] == best.win_average


def test_comparison_conditions_read_in_words():
    rule = Rule.parse("deck", "opp_need <= w_rem -> roll; j < i -> mspace 12; bold 1")
    assert rule.size == 4
    assert rule.sentence().startswith(
        "If the opponent needs no more points than there are bad items left, draw on to the "
        "goal; otherwise, if you lead, draw while")
    assert Condition.parse("opp_need <= w_rem-2").phrase() == (
        "the opponent needs at least 2 fewer points than there are bad items left")
    assert Condition.parse("opp_need >= w_rem+5").phrase() == (
        "the opponent needs at least 5 more points than there are bad items left")
    assert Condition.parse("sum_ij >= 80").phrase() == "the two scores add up to 80 or more"
