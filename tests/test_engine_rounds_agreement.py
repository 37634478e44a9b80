"""How often two policies decide alike under the rounds ending, two seats
(designer/engine/agreement.py, rounds_agreement): optimal play's decisions
as the rounds match records them, checked at every decision position
against the slow reference's optimal play (written from the rules,
tests/engine_rounds_match_reference.py), the share against a count from
the reference, invariants, and through ``designer compare`` and the
strategy evaluator."""

import json

import numpy as np
import pytest
from engine_rounds_match_reference import Game, optimal_rolls, optimal_values
from test_engine_rounds_match_tables import COIN, D3, FORCED, _cli, _pol

from designer.engine.agreement import rounds_agreement, rounds_decision_positions
from designer.engine.policy_tables import layout
from designer.engine.rounds_match import match_rounds_model, table_plan
from designer.engine.rulesfile import example_path, load_rules, parse_rules

GAMES = [
    # (rules text, the reference's faces, goal, a forced first throw)
    (COIN, ["bust", 1], 4, False),
    (D3, ["bust", 2, 3], 6, True),
    (D3, ["bust", 2, 3], 5, False),
]


def _reference_rolls(rules, faces, goal, forced, ties, cap, mask, tp):
    """Optimal play's decision at every position of ``mask`` the reference
    reaches: ``{(q, i, j, node): rolls}``."""
    game = Game(faces, goal, ties, cap, forced_first=forced)
    Vs = optimal_values(game)
    _, node_t = layout(tp)
    out = {}
    for q, i, j, node in zip(*np.nonzero(mask)):
        t = int(node_t[node])
        x1, x2 = (i, j) if q == 0 else (j, i)
        key = (int(x1), int(x2), int(q), t, t == 0)
        if key in Vs:
            out[(q, i, j, node)] = optimal_rolls(game, Vs, key)
    return out


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("other", ["hold-at:2", "rule:below 2"])
@pytest.mark.parametrize("text, faces, goal, forced", GAMES)
def test_recorded_optimal_decisions_equal_the_reference(text, faces, goal, forced, other, ties):
    """Against a fixed policy (the match by the lead) and against a rule
    (by both scores), either seating: optimal play's recorded decision at
    every decision position the reference reaches equals the reference's
    (a coin reaches every position; faces worth 2 and 3 never make a
    score or a total of 1)."""
    rules = parse_rules(text.format(goal=goal, turn=FORCED if forced else ""))
    m = match_rounds_model(rules.model, goal, _pol(other, rules), _pol("optimal", rules),
                           ties=ties, cap=goal + 8, bank_wins=True, record=True)
    tp = table_plan(rules.model, m.cap)
    mask = rounds_decision_positions(rules.model, goal, m.cap, tp)
    want = _reference_rolls(rules, faces, goal, forced, ties, m.cap, mask, tp)
    assert len(want) > 0.75 * int(mask.sum()) > 50
    if faces == ["bust", 1]:
        assert len(want) == int(mask.sum())
    for (q, i, j, node), rolls in want.items():
        assert (m.optimal_table[q, i, j, node] > 0) == rolls, (q, i, j, node)


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_the_share_counts_the_positions_where_both_act_alike(ties):
    """hold-at:3 against optimal play on a coin to 6: the share of
    positions where optimal play rolls exactly while the total is below 3,
    counted from the reference's decisions (a coin reaches them all)."""
    text, faces, goal, forced = COIN, ["bust", 1], 6, False
    rules = parse_rules(text.format(goal=goal, turn=""))
    hold, opt = _pol("hold-at:3", rules), _pol("optimal", rules)
    m = match_rounds_model(rules.model, goal, hold, opt, ties=ties, cap=goal + 8,
                           bank_wins=True, record=True)
    share, positions = rounds_agreement(rules.model, goal, hold, opt, m)
    tp = table_plan(rules.model, m.cap)
    mask = rounds_decision_positions(rules.model, goal, m.cap, tp)
    _, node_t = layout(tp)
    want = _reference_rolls(rules, faces, goal, forced, ties, m.cap, mask, tp)
    alike = sum(rolls == (node_t[key[3]] < 3) for key, rolls in want.items())
    assert positions == len(want)
    assert share == pytest.approx(alike / positions, abs=1e-15)
    assert 0.5 < share < 1.0


def test_invariants_of_the_share():
    """Optimal play agrees with itself, and a rule that reads the turn
    total alone with the ``hold-at`` of the same threshold; seat 1 counts
    its positions up to the cap, seat 2 up to a winning hold."""
    rules = load_rules(example_path("pig"))
    model, goal = rules.model, 30
    opt = _pol("optimal", rules)
    m = match_rounds_model(model, goal, opt, opt, record=True)
    assert rounds_agreement(model, goal, opt, opt, m)[0] == 1.0
    rule, hold = _pol("rule:below 20", rules), _pol("hold-at:20", rules)
    m = match_rounds_model(model, goal, rule, hold, bank_wins=True)
    share, positions = rounds_agreement(model, goal, rule, hold, m)
    assert share == 1.0
    # one turn state: seat 1 at i decides at t = 0 .. cap - i - 1, seat 2 at t < goal - i
    # (t = 0 a pass, allowed in Pig)
    assert positions == goal * sum(m.cap - i for i in range(goal)) + goal * sum(
        goal - i for i in range(goal))
    with pytest.raises(ValueError, match="records"):
        rounds_agreement(model, goal, hold, opt, match_rounds_model(model, goal, hold, opt))


def test_designer_compare_and_the_strategy_evaluator_count_it():
    """``designer compare`` under the rounds ending gives the agreement and
    the positions it counts; the strategy evaluator's agreement of a rule
    is the same number."""
    from designer.engine.game import load_rules_game
    from designer.policies.rules import Rule
    from designer.strategy.rules_game import RulesEvaluator

    game = load_rules_game("great-rolled-ones", goal=20)
    r = _cli("compare", "great-rolled-ones", "--goal", "20", "--policy", "rule:below 6",
             "--against", "optimal", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    rules = game.rules
    rule, opt = _pol("rule:below 6", rules), _pol("optimal", rules)
    m = match_rounds_model(rules.model, 20, rule, opt, ties=rules.ties, bank_wins=True,
                           record=True)
    share, positions = rounds_agreement(rules.model, 20, rule, opt, m)
    assert d["agreement"] == pytest.approx(share, abs=1e-15) and 0.3 < share < 1.0
    assert d["states"] == positions
    got = RulesEvaluator(game).agreement(Rule.parse("rules", "below 6"))
    assert got == pytest.approx(share, abs=1e-15)


def test_the_count_does_not_depend_on_the_match_s_cap():
    """Farkle to 1,000 in rounds: ``hold-at:300`` raises its match's cap
    past a rule's, yet it and ``rule:below 300`` (the same decisions)
    count the same positions and the same share against optimal play."""
    from designer.engine.game import load_rules_game
    from designer.engine.match import parse_rules_policy

    game = load_rules_game("farkle", goal=1000, ending="rounds")
    r = game.rules
    opt = parse_rules_policy("optimal", game)
    got = []
    for spec in ("hold-at:300", "rule:below 300"):
        pol = parse_rules_policy(spec, game)
        m = match_rounds_model(r.model, r.goal, pol, opt, ties=r.ties, bank_wins=True,
                               record=True, unit=game.unit)
        got.append((m.cap, rounds_agreement(r.model, r.goal, pol, opt, m, unit=game.unit)))
    (cap_a, a), (cap_b, b) = got
    assert cap_a != cap_b and a == b and 0.5 < a[0] < 1.0


# Hog's kind of turn: one throw, of one die or two (the choice), no stop before it
HOG = ("goal = {goal}\n[dice]\ncount = [1, 2]\nsides = 3\nface.1 = {{ bust = true }}\n"
       "one_throw = true\nbust_points = 1\n")


def test_a_choice_of_ways_to_go_on_is_a_decision_in_the_race():
    """A turn of one throw of one die or two: no stop, yet the number of
    dice is a decision. Optimal play's choice at every position equals the
    race reference's best throw (the first where two tie), and hold-at,
    which throws the first way, agrees exactly where that is one die."""
    from engine_reference import FromModel, reference_win

    from designer.analysis.rules_compare import compare_rules
    from designer.engine.agreement import decision_positions, decisions
    from designer.engine.game import load_rules_game
    from designer.engine.solve import plan, solve_model

    goal = 5
    rules = parse_rules(HOG.format(goal=goal))
    model = rules.model
    p = plan(model, goal)
    mask = decision_positions(model, goal, p)
    opt = _pol("optimal", rules)
    D = decisions(opt, model, goal, 1, p, solution=solve_model(model, goal, 0))
    _, V, _ = reference_win(FromModel(model), goal)
    node_s, node_t = layout(p)
    assert mask.sum() == goal * goal  # every pair of scores, the turn's start
    ones = 0
    for i, j, node in zip(*np.nonzero(mask)):
        s = int(node_s[node])
        vals = []
        for c in range(model.cont_start[s], model.cont_start[s + 1]):
            v = 0.0
            for o in range(model.out_start[c], model.out_start[c + 1]):
                pr, g = float(model.out_prob[o]), int(model.out_points[o])
                h = int(model.out_next[o])
                if model.out_kind[o] == 0:  # bust
                    v += pr * (1.0 - V[(int(j), int(i), h)])
                else:  # an end with points (a win at the goal)
                    v += pr * (1.0 if i + g >= goal else 1.0 - V[(int(j), int(i) + g, h)])
            vals.append(v)
        best = max(range(len(vals)), key=lambda c: (vals[c] > max(vals) - 1e-12, -c))
        assert D[i, j, node] == best + 1, (i, j, vals)
        ones += best == 0
    game = load_rules_game(str(_write_rules(HOG.format(goal=goal))))
    c = compare_rules(game, "hold-at:3", "optimal")
    assert c.states == goal * goal and c.agreement == pytest.approx(ones / (goal * goal))
    assert 0 < ones < goal * goal


def _write_rules(text):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "hog_like.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_a_choice_of_ways_to_go_on_is_a_decision_in_rounds(ties):
    """The same turn under the rounds ending: optimal play's recorded
    choice of dice equals the N-seat rounds reference's at every open
    position it reaches (two seats, the match's cap)."""
    from engine_seat_rounds_reference import Reference

    goal = 4
    rules = parse_rules(HOG.format(goal=goal))
    model = rules.model
    hold, opt = _pol("hold-at:3", rules), _pol("optimal", rules)
    m = match_rounds_model(model, goal, hold, opt, ties=ties, bank_wins=True, record=True)
    tp = table_plan(model, m.cap)
    mask = rounds_decision_positions(model, goal, m.cap, tp)
    node_s, node_t = layout(tp)
    ref = Reference(model, goal, 2, ties=ties, cap=m.cap)
    ref.solve((0, 0))
    checked = 0
    for q, i, j, node in zip(*np.nonzero(mask)):
        vals = (int(i), int(j)) if q == 0 else (int(j), int(i))
        key = ((0, 1), int(q), vals, False, int(node_s[node]), int(node_t[node]), True)
        if key not in ref.nodes:
            continue
        _, choice = ref._decide(key)
        assert m.optimal_table[q, i, j, node] == choice[0] + 1, key
        checked += 1
    assert checked > 10
    share, positions = rounds_agreement(model, goal, hold, opt, m)
    assert positions == int(mask.sum()) > 0 and 0.0 < share < 1.0
