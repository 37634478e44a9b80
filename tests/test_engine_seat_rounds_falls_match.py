"""A fixed policy at one seat of 2-4 seats under the rounds ending where a
bust can lower a banked score, the others optimal
(designer.engine.seat_rounds_falls_match, reached through
seat_rounds_profile), and the compare and strategy commands that use it.

Checked against the slow reference written from the rules
(tests/engine_seat_rounds_falls_reference.py: the policy's decisions from
the rules, the other seats' from the reference's own solve, values
iterated over full game states), against the two-seat falls match of a
policy against optimal play (a separate code path), and invariants.
"""

import json
from dataclasses import replace

import numpy as np
import pytest
from cli_runner import cli, one_line_refusal
from engine_seat_rounds_falls_reference import Reference
from test_engine_seat_rounds_falls import WIPE12, _case

from designer.analysis.rules_compare import compare_seconds
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.game import load_rules_game
from designer.engine.match import RulesPolicy
from designer.engine.rounds_falls_match import match_rounds_falls
from designer.engine.rulesfile import parse_rules
from designer.engine.seat_rounds_falls import solve_seat_rounds_falls
from designer.engine.seat_rounds_match import seat_rounds_profile, seat_rounds_solve
from designer.policies.rules import Rule

HOLD2 = RulesPolicy(HOLD_AT, "hold-at:2", 2)
MAXS = RulesPolicy(MAX_SCORE, "max-score")
OPT = RulesPolicy(OPTIMAL, "optimal")


def _rule(text, model):
    return RulesPolicy(TABLE, f"rule:{text}",
                       source=Rule.parse("rules", text, model.feature_names))


def _check_reference(name, players, ties, policy, threshold, starts):
    """Every seat's win with ``policy`` at each seat, from each of
    ``starts``, against the reference holding at ``threshold(own, highest
    other)`` (the cap two above the goal, raised for the policy's turns)."""
    model, goal, proc = _case(name)
    prof = seat_rounds_profile(model, goal, players, policy, ties=ties, cap=goal + 2)
    assert prof.floor == min(model.floor, 0) and prof.residual <= 1e-12
    ref = Reference(proc, goal, players, ties=ties, cap=prof.cap, floor=model.floor,
                    forced_first=model.forced_first, min_bank=model.min_bank).solve()
    for seat in range(players):
        want = ref.evaluate(seat, threshold)
        for start in starts:
            got = prof.seat_win(seat, start)
            assert np.abs(got - np.array(want(start, proc.start)[:-1])).max() < 1e-9, \
                (seat, start)
            assert abs(got.sum() - 1.0) < 1e-12


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_hold_at_matches_the_reference(ties):
    """A die whose 1 wipes the banked score, three seats: hold-at:2 at each
    seat, both tie rules, from level and uneven starts."""
    _check_reference("wipe12", 3, ties, HOLD2, lambda own, other: 2,
                     [(0, 0, 0), (2, 0, 1), (0, 2, 2)])


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_a_rule_reading_the_scores_matches_the_reference(ties):
    """A rule reading the highest other score (``j``): hold at 3 once it is
    at least 2, else at 1."""
    model = _case("wipe12")[0]
    _check_reference("wipe12", 3, ties, _rule("j >= 2 -> below 3; below 1", model),
                     lambda own, other: 3 if other >= 2 else 1, [(0, 0, 0), (1, 2, 0)])


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("name, players, starts", [
    ("penalty", 3, [(0, 0, 0), (-2, 2, -1)]),  # a penalty down to a floor below 0
    ("two3", 3, [(0, 0, 0), (2, 1, 0)]),  # snake eyes wipe the score
    ("forced", 3, [(0, 0, 0)]),  # a forced first roll and a minimum bank of 3
    ("wipe12", 4, [(0, 0, 0, 0), (2, 0, 1, 2)]),
])
def test_more_games_match_the_reference(name, players, starts, ties):
    _check_reference(name, players, ties, HOLD2, lambda own, other: 2, starts)


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_a_rule_below_the_floor_matches_the_reference(ties):
    """A rule reading scores below 0 (a penalty down to -2): hold at 1 when
    every other seat is at 0 or more, else at 2."""
    model = _case("penalty")[0]
    _check_reference("penalty", 3, ties, _rule("j >= 0 -> below 1; below 2", model),
                     lambda own, other: 1 if other >= 0 else 2, [(0, 0, 0), (-2, -1, 1)])


@pytest.mark.parametrize("name", ["two3", "wipe", "penalty", "forced"])
@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_two_seats_equal_the_two_seat_match(name, ties):
    """With two seats the evaluation equals the two-seat match of the
    policy against optimal play where a fixed second seat banks a total
    that wins (a separate code path), in both seatings, every round start."""
    model, goal, _ = _case(name)
    for pol in (HOLD2, MAXS):
        prof = seat_rounds_profile(model, goal, 2, pol, ties=ties, cap=goal + 6)
        m = match_rounds_falls(model, goal, pol, OPT, ties=ties, cap=prof.cap, bank_wins=True)
        g = goal - prof.floor
        assert np.abs(prof.win[..., 0, 0] - m.win[0, :g, :g]).max() < 1e-9
        assert np.abs(prof.win[..., 1, 0] - m.win[1, :g, :g]).max() < 1e-9


def test_optimal_at_every_seat_is_the_solve_and_a_rule_equals_its_hold_at():
    """``optimal`` gives the solve's own wins; the rule ``below 4`` decides
    as hold-at:4 everywhere, so their evaluations agree to the last bit of
    the iteration."""
    game = load_rules_game("two-dice-pig", goal=8, ending="rounds", players=3)
    m = game.rules.model
    solved = seat_rounds_solve(m, 8, 3, RulesPolicy(HOLD_AT, "hold-at:4", 4), cap=14)
    base = solve_seat_rounds_falls(m, 8, 3, cap=solved.cap)
    opt = solved.profile(OPT)
    assert np.allclose(opt.seat_win(1, (0, 0, 0)), base.value((0, 0, 0)), atol=1e-12)
    a = solved.profile(RulesPolicy(HOLD_AT, "hold-at:4", 4))
    b = solved.profile(_rule("below 4", m))
    assert np.abs(a.win - b.win).max() < 1e-12
    # a worse policy loses: each seat's win under hold-at:4 is below its optimum
    for s in range(3):
        assert a.seat_win(s, (0, 0, 0))[s] < base.value((0, 0, 0))[s]
    with pytest.raises(ValueError, match="needs the cap"):
        solved.profile(MAXS)


def test_cli_compare_three_seats(tmp_path):
    """``designer compare`` at three seats on a rules file whose 1 wipes
    the banked score: the JSON seats equal the evaluation, the optimal
    column the solve at the cap used."""
    path = tmp_path / "wipe.toml"
    path.write_text(WIPE12)
    r = cli("compare", str(path), "--players", "3", "--ending", "rounds", "--goal", "4",
            "--policy", "hold-at:2", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    m = parse_rules(WIPE12, "wipe").model
    prof = seat_rounds_profile(m, 4, 3, HOLD2)
    assert len(data["seats"]) == 3
    assert data["passes"] == prof.tie_iterations > 0 and data["residual"] <= 1e-12
    for row in data["seats"]:
        s = row["seat"] - 1
        assert abs(row["win"] - prof.seat_win(s, (0, 0, 0))[s]) < 1e-12
        assert abs(row["optimal_win"] - prof.solution.value((0, 0, 0))[s]) < 1e-12
        assert row["difference"] < 0


def test_a_policy_that_always_passes_is_refused_in_one_line(tmp_path):
    """A rule that passes every turn: where an optimal seat tied with it
    would rather pass too than risk its score, a tied round comes back for
    ever (a 2,000-round stall that the evaluation reports as such)."""
    path = tmp_path / "wipe.toml"
    path.write_text(WIPE12)
    one_line_refusal(cli("compare", str(path), "--players", "3", "--ending", "rounds",
                         "--goal", "4", "--policy", "rule:k >= 0 -> hold; roll"),
                     "play can go on for ever at some scores under this policy")


def test_compare_seconds_is_estimated():
    game = load_rules_game("two-dice-pig", goal=8, ending="rounds", players=3)
    assert compare_seconds(game, "hold-at:6") > 0
    assert compare_seconds(game, "rule:below 4") > 0


def test_a_rule_search_scores_rules_exactly():
    """The strategy search's scorer keeps one solve and scores a rule at
    each seat as the evaluation does."""
    from designer.strategy.rules_game import RulesEvaluator

    game = replace(load_rules_game("two-dice-pig", goal=8, ending="rounds", players=3), cap=10)
    m = game.rules.model
    ev = RulesEvaluator(game)
    text = "j >= 5 -> below 6; below 3"
    got = ev.score(Rule.parse("rules", text, m.feature_names))["seat_win"]
    prof = seat_rounds_profile(m, 8, 3, _rule(text, m), cap=10)
    assert np.allclose(got, [prof.seat_win(s, (0, 0, 0))[s] for s in range(3)], atol=1e-12)


@pytest.mark.slow
def test_cli_strategy_three_seats():
    """``designer strategy`` at three seats: the best rule's seats equal
    the evaluation of its own text."""
    r = cli("strategy", "two-dice-pig", "--players", "3", "--ending", "rounds", "--goal", "6",
            "--max-size", "1", "--trials", "1", "--json")
    assert r.returncode == 0, r.stderr
    best = json.loads(r.stdout)[0]
    m = load_rules_game("two-dice-pig", goal=6, ending="rounds").rules.model
    prof = seat_rounds_profile(m, 6, 3, _rule(best["text"], m))
    assert np.allclose(best["seat_win"], [prof.seat_win(s, (0, 0, 0))[s] for s in range(3)],
                       atol=1e-12)
