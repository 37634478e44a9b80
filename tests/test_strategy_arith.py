"""The arithmetic rule search: its shapes, its bounds, its scores re-checked
through ``compare``, and a front that never gets worse with --max-size."""

import json

import numpy as np
import pytest
from cli_runner import cli as run_cli

from designer import DeckGame, DiceGame
from designer.policies.rule import RulePolicy
from designer.policies.rules import Rule
from designer.strategy import Evaluator
from designer.strategy import arith
from designer.strategy.search import best_by_size, search_rules


def _scorer(ev, log):
    def score(rules, phase):
        log.extend(r.text() for r in rules)
        return [(s["win_as_first"], s["win_as_second"])
                for s in (ev.safe_score(r) for r in rules)]
    return score


def test_base_shapes_play_max_score_at_the_start():
    """Each factor pair is calibrated so that, when both players need the
    goal, it decides as max-score (exactly where the calibration is exact)."""
    game = DeckGame(bad=3, good=12, goal=10)
    G = game.goal
    ms = RulePolicy(game, Rule.parse("deck", "maxscore")).block(0)[0]
    checked = 0
    for sh in arith.base_shapes(game):
        p, q = arith._at_start(sh.P, G), arith._at_start(sh.Q, G)
        ratio = p / q if p >= q else q / p
        if ratio != round(ratio, 1):
            continue  # rounded: close to max-score, not equal
        block = RulePolicy(game, sh.rule()).block(0)[0]  # i = 0, j = 0: both need G
        assert np.array_equal(block[:, :, 1:], ms[:, :, 1:]), sh.rule().text()
        checked += 1
    assert checked >= 40


def test_search_scores_every_candidate_exactly_and_respects_bounds():
    game = DeckGame(bad=2, good=7, goal=9)
    ev = Evaluator(game)
    log = []
    found = arith.search(game, _scorer(ev, log), 3, beam=4, polish=2, max_ops=7)
    assert found and len(log) >= len(found)
    for rule, (first, second), _ in found:
        assert rule.size <= 3 and rule.ops <= 7
        s = ev.score(rule)
        assert (first, second) == (s["win_as_first"], s["win_as_second"])
    # every size up to the bound is reached
    assert {r.size for r, _, _ in found} >= {0, 1, 2, 3}


def test_dice_shapes_carry_a_gain_constant():
    game = DiceGame(faces=6, goal=20)
    shapes = arith.base_shapes(game)
    assert all("g" in sh.vals for sh in shapes)
    # the plain shape is max-score's hold at 20 (pips 2..6 sum to 20, one bust face)
    plain = [sh for sh in shapes if sh.P == "1" and sh.Q == "1"][0]
    assert plain.rule().text() == "while 20 > k"


def test_larger_max_size_is_never_worse_at_a_smaller_size():
    """Every phase decides what it scores at a size from rules of that size
    or smaller, so the front up to 2 is the same (or better) when the search
    may go on to 4."""
    game = DeckGame(bad=2, good=6, goal=8)
    ev = Evaluator(game)
    small, _ = search_rules(game, max_size=2, trials=8, jobs=2, evaluator=ev)
    large, _ = search_rules(game, max_size=4, trials=8, jobs=2, evaluator=ev)
    a, b = best_by_size(small, 2), best_by_size(large, 4)
    for s in range(3):
        assert b[s].win_average >= a[s].win_average, s
    texts = {f.rule.text() for f in large}
    assert {f.rule.text() for f in small} <= texts


def test_max_ops_bounds_every_rule_kept():
    game = DeckGame(bad=2, good=6, goal=8)
    found, _ = search_rules(game, max_size=3, trials=8, jobs=2, max_ops=2)
    kept = [f for f in found if f.template != "given"]
    assert kept and all(f.rule.ops <= 2 for f in kept)


def test_arithmetic_rule_through_compare_equals_the_search_score(tmp_path):
    game_args = ["deck", "--bad", "3", "--good", "10", "--goal", "12"]
    out = run_cli("strategy", *game_args, "--max-size", "2", "--trials", "5", "--no-induce",
                  "--json", "--out", str(tmp_path / "best.toml"))
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert all("ops" in r for r in rows)
    best = Rule.load(tmp_path / "best.toml")
    assert best.text() == rows[-1]["text"]
    c = run_cli("compare", *game_args, "--policy", f"rule:{tmp_path / 'best.toml'}",
                "--against", "optimal", "--json", "--no-agreement")
    assert c.returncode == 0, c.stderr
    assert json.loads(c.stdout)["win_average"] == pytest.approx(rows[-1]["win_average"],
                                                                abs=1e-15)


@pytest.mark.parametrize("value", ["-1", "1001", "x"])
def test_max_ops_flag_is_checked(value):
    out = run_cli("strategy", "pig", "--max-ops", value)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "--max-ops" in out.stderr


def test_a_rule_that_never_wins_is_cached_and_read_back(tmp_path):
    """A rule that never banks scores 0 exactly in the cache (its exact
    match sums to -2.2e-16 before it is clamped), so a second search reads
    the cache instead of refusing it."""
    from designer.games import DeckGame
    from designer.policies.rules import Rule
    from designer.strategy.evaluate import Evaluator
    from designer.strategy.search import _Scorer, _Tally

    game = DeckGame(2, 4, 6)
    rule = Rule.parse("deck", "opp_need <= 6 -> roll; maxscore")
    cache = tmp_path / "cache.jsonl"
    ev = Evaluator(game)
    tally = _Tally(None)
    tally.plan("given", 1)
    first = _Scorer(ev, 1, cache, tally).score([rule], "given")[0]
    assert first == (0.0, 0.0)
    again = _Scorer(ev, 1, cache, _Tally(None))
    assert again.memo[rule.text()] == (0.0, 0.0)
