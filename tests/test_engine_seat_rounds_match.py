"""A fixed policy at one seat of 2-4 seats under the rounds ending, the
others optimal (designer.engine.seat_rounds_match), and the compare command
that reports it.

Checked against the slow reference written from the rules
(tests/engine_seat_rounds_reference.py: the policy's decisions from the
rules, the other seats' from the reference's own solve, values iterated
over full game states), against the two-seat rounds match of a policy
against optimal play (a separate code path), and against invariants.
"""

import json

import numpy as np
import pytest
from cli_runner import cli, one_line_refusal
from engine_seat_rounds_reference import Reference, hold_at, max_score
from test_engine_seat_rounds import DECK, FORCED, KEEP, PIGLET, _model

from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import RulesPolicy
from designer.engine.rounds_match import match_rounds_model, open_unknowns
from designer.engine.rulesfile import example_path, load_rules
from designer.engine.seat_rounds_match import seat_rounds_profile
from designer.engine.solve import TooLargeError
from designer.errors import DesignError

HOLD2 = RulesPolicy(HOLD_AT, "hold-at:2", 2)
MAXS = RulesPolicy(MAX_SCORE, "max-score")
OPT = RulesPolicy(OPTIMAL, "optimal")


def _solved_references(model, goal, players, ties, levels=False):
    """``solved(start, cap)``: the reference solved from ``start`` at
    ``cap``, made once for every policy evaluated there (the solve does not
    depend on the policy); with ``levels`` its tie rounds know their level,
    which a table policy reads."""
    refs = {}

    def solved(start, cap):
        if (start, cap) not in refs:
            refs[start, cap] = Reference(model, goal, players, ties=ties, cap=cap, levels=levels)
            refs[start, cap].solve(start)
        return refs[start, cap]
    return solved


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, goal, players, starts, both", [
    (PIGLET, 3, 3, [(0, 0, 0), (1, 0, 2)], True),
    (FORCED, 3, 3, [(2, 1, 0)], True),
    (PIGLET, 2, 4, [(0, 1, 0, 1)], True),
    (DECK, 3, 3, [(0, 0, 0)], True),
    (KEEP, 3, 3, [(0, 2, 1)], False),  # max-score's horizon: a cap too large for the reference
])
def test_profile_matches_reference(text, goal, players, starts, both, ties):
    """Coins, a forced first roll, four seats, a deck that persists, a
    choice of dice to keep: hold-at (and max-score) at every seat, both tie
    rules, every seat's win to 1e-9 of the reference (at the cap the
    evaluation used, raised for the policy's turns)."""
    model = _model(text, goal)
    pols = [(HOLD2, hold_at(2)), (MAXS, max_score(model))]
    solved = _solved_references(model, goal, players, ties)
    for pol, rule in pols if both else pols[:1]:
        prof = seat_rounds_profile(model, goal, players, pol, ties=ties, cap=goal + 3)
        assert prof.cap >= goal + 3
        for start in starts:
            ref = solved(start, prof.cap)
            for seat in range(players):
                want = ref.evaluate(start, seat, rule)
                got = prof.seat_win(seat, start)
                assert np.abs(got - want).max() < 1e-9, (pol.name, start, seat)


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("name, goal, policy", [
    ("pig", 25, RulesPolicy(HOLD_AT, "hold-at:10", 10)),
    ("great-rolled-ones", 15, MAXS),
    ("farkle", 8, RulesPolicy(HOLD_AT, "hold-at:6", 6)),
])
def test_two_seats_equal_the_rounds_match(name, goal, policy, ties):
    """With two seats the profile is the two-seat rounds match of the
    policy against optimal play (a fixed seat banking a winning total),
    policy first and second, at the same cap: 1e-12."""
    model = load_rules(example_path(name)).model
    prof = seat_rounds_profile(model, goal, 2, policy, ties=ties)
    first = match_rounds_model(model, goal, policy, OPT, ties=ties, cap=prof.cap, bank_wins=True)
    second = match_rounds_model(model, goal, OPT, policy, ties=ties, cap=prof.cap,
                                bank_wins=True)
    assert first.cap == prof.cap
    for start in [(0, 0), (3, 1)]:
        assert abs(prof.seat_win(0, start)[0] - first.win_as_first(start)) < 1e-12
        assert abs(prof.seat_win(1, start)[1] - (1 - second.win_as_first(start))) < 1e-12


DECK3 = "goal = {goal}\n[turn]\nforced_first = true\n[deck]\nbad = 3\ngood = 4\n"
DECK6 = "goal = {goal}\n[turn]\nforced_first = true\n[deck]\nbad = 6\ngood = 3\n"


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, goal, passes", [(DECK, 6, 2), (DECK3, 8, 2), (DECK6, 5, 4)])
def test_two_seats_equal_the_rounds_match_on_decks(text, goal, passes, ties):
    """A deck that persists, with a forced first draw: a turn that scores
    nothing (a bust) hands over a deck that is not the fresh one, so the
    rounds match carries both seats' unknowns and sweeps the pair's turns
    until the other decks settle (a pass per link of the longest chain of
    busts between seat 1's decks, and two more). Against the profile (a
    separate code path): 1e-12, hold-at and max-score, policy first and
    second."""
    model = _model(text, goal)
    assert open_unknowns(model, goal)[2:] == (True, passes)
    for policy in (HOLD2, MAXS):
        prof = seat_rounds_profile(model, goal, 2, policy, ties=ties)
        first = match_rounds_model(model, goal, policy, OPT, ties=ties, cap=prof.cap,
                                   bank_wins=True)
        second = match_rounds_model(model, goal, OPT, policy, ties=ties, cap=prof.cap,
                                    bank_wins=True)
        for start in [(0, 0), (3, 1)]:
            assert abs(prof.seat_win(0, start)[0] - first.win_as_first(start)) < 1e-12
            assert abs(prof.seat_win(1, start)[1] - (1 - second.win_as_first(start))) < 1e-12


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
def test_the_rounds_match_on_a_deck_equals_the_reference(ties):
    """The chained sweep of a deck against the reference written from the
    rules, two seats: hold-at:2 first against optimal, to 1e-9."""
    model = _model(DECK, 4)
    m = match_rounds_model(model, 4, HOLD2, OPT, ties=ties, bank_wins=True)
    ref = Reference(model, 4, 2, ties=ties, cap=m.cap)
    for start in [(0, 0), (2, 1)]:
        ref.solve(start)
        assert abs(ref.evaluate(start, 0, hold_at(2))[0] - m.win_as_first(start)) < 1e-9


def test_invariants_three_seats_of_pig():
    """Pig to 12, three seats (every tuple settles): each row of wins sums to 1; no seat gains by
    leaving the optimum (the optimal seats' play is a max-n equilibrium);
    the optimal policy gives the solve itself; the policy seat loses."""
    model = load_rules(example_path("pig")).model
    prof = seat_rounds_profile(model, 12, 3, RulesPolicy(HOLD_AT, "hold-at:8", 8))
    assert prof.solution.unsettled_positions == 0
    assert np.abs(prof.win.sum(axis=-1) - 1.0).max() < 1e-12
    base = prof.solution.win[..., 0, :]
    for a in range(3):
        own = prof.win[..., 0, a, a]
        assert (own <= base[..., a] + 1e-12).all()
        assert own[0, 0, 0] < base[0, 0, 0, a] - 0.01
    opt = seat_rounds_profile(model, 12, 3, OPT)
    assert np.array_equal(opt.win[..., 0, 1, :], opt.solution.win[..., 0, :])


def test_refusals():
    model = _model(PIGLET, 3)
    with pytest.raises(TooLargeError, match="over the limit"):
        seat_rounds_profile(model, 3, 3, HOLD2, memory_limit=1000)
    with pytest.raises(DesignError, match="allowed 3 scores"):
        seat_rounds_profile(model, 3, 3, HOLD2).seat_win(0, (0, 3, 0))


def test_cli_compare_three_seats_in_rounds():
    """The command: every seat's win playing the policy against the same
    seat playing optimally, under the rounds ending (JSON and table)."""
    args = ["compare", "rules:pig", "--players", "3", "--ending", "rounds", "--goal", "15",
            "--policy", "hold-at:8"]
    res = cli(*args, "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["ending"] == "rounds" and len(data["seats"]) == 3
    model = load_rules(example_path("pig")).model
    prof = seat_rounds_profile(model, 15, 3, RulesPolicy(HOLD_AT, "hold-at:8", 8))
    for s, row in enumerate(data["seats"]):
        assert abs(row["win"] - prof.seat_win(s, (0, 0, 0))[s]) < 1e-12
        assert abs(row["optimal_win"] - prof.solution.value((0, 0, 0))[s]) < 1e-9
    table = cli(*args)
    assert table.returncode == 0 and "rounds ending" in table.stdout
    assert "hold-at:8" in table.stdout


@pytest.mark.parametrize("policy, words", [
    ("py:nowhere.py:f", ["nowhere.py"]),
    # the cap rises with the threshold and the work with its square: refused
    # before anything is solved
    ("hold-at:50000", ["hold-at:50000", "50006 units past the goal", "over the limit of 6 h"]),
])
def test_cli_refuses_a_table_policy_in_one_line(policy, words):
    one_line_refusal(cli("compare", "rules:pig", "--players", "3", "--ending", "rounds",
                         "--goal", "15", "--policy", policy), *words)


# -- rule: and py: policies, both tie rules ----------------------------------

def _threshold(low, high, bar, reads=1):
    """The rule ``x >= bar -> below high; below low`` from the rules, ``x``
    the highest other score (``reads`` 1, the rule's ``j``) or the mover's
    own (``reads`` 0, ``i``), as the reference says a table policy reads
    them (past the goal; in a replayed round its level plus the round's
    points): hold at ``high`` once ``x`` is at least ``bar``, else at
    ``low``."""
    def policy(ref, key):
        return hold_at(high if ref.scores(key)[reads] >= bar else low)(ref, key)
    return policy


def _source(text, model):
    from designer.policies.rules import Rule

    return Rule.parse("rules", text, model.feature_names)


def _rule(text, model):
    return RulesPolicy(TABLE, f"rule:{text}", source=_source(text, model))


@pytest.mark.parametrize("ties", ["replay", "earlier-seat"])
@pytest.mark.parametrize("text, goal, players, starts", [
    (PIGLET, 3, 3, [(0, 0, 0), (1, 0, 2)]),
    (FORCED, 3, 3, [(2, 1, 0)]),
    (DECK, 3, 3, [(0, 0, 0)]),
    (PIGLET, 2, 4, [(0, 1, 0, 1)]),
])
def test_a_rule_reading_the_scores_matches_the_reference(text, goal, players, starts, ties):
    """A rule that reads the highest other score at each seat, under both
    tie rules, and where ties are replayed one that reads its own: every
    seat's win to 1e-9 of the reference (its decisions from the absolute
    scores, past the goal in a final round and, where ties are replayed, in
    a replayed round at its level: ``i >= goal + 1`` holds only there, so
    the rule plays differently in a replayed round at every level but the
    goal's). Where ties are replayed one start, and with four seats one
    rule reading ``j`` and the cap two above the goal (the reference with
    levels is slow)."""
    model = _model(text, goal)
    replay = ties == "replay"
    solved = _solved_references(model, goal, players, ties, levels=replay)
    rules = [(1, 3, 2, 1), (2, 1, 1, 1)][:1 if replay and players == 4 else 2]
    for low, high, bar, reads in rules + [(1, 3, goal + 1, 0)] * replay:
        x = "ij"[reads]
        pol = _rule(f"{x} >= {bar} -> below {high}; below {low}", model)
        prof = seat_rounds_profile(model, goal, players, pol, ties=ties,
                                   cap=goal + (2 if players == 4 else 3))
        for start in starts[:1] if replay else starts:  # levels: a larger reference
            ref = solved(start, prof.cap)
            for seat in range(players):
                want = ref.evaluate(start, seat, _threshold(low, high, bar, reads))
                assert np.abs(prof.seat_win(seat, start) - want).max() < 1e-9, (x, bar, seat)
        assert prof.residual <= 1e-12


def test_a_replayed_round_is_read_at_its_level():
    """Where ties are replayed the rule ``i >= goal + 1 -> below 3; below
    1`` plays differently in a replayed round above the goal: the reference
    whose replayed rounds know no level (the rule never holding there)
    differs from the evaluation by more than 1e-4, the one with levels
    agrees to 1e-9, so the comparison above can fail."""
    model = _model(PIGLET, 3)
    pol = _rule("i >= 4 -> below 3; below 1", model)
    prof = seat_rounds_profile(model, 3, 3, pol, cap=6)
    ref = Reference(model, 3, 3, cap=6, levels=True)
    ref.solve((0, 0, 0))
    got = prof.seat_win(0, (0, 0, 0))
    assert np.abs(got - ref.evaluate((0, 0, 0), 0, _threshold(1, 3, 4, 0))).max() < 1e-9
    never = ref.evaluate((0, 0, 0), 0, hold_at(1))  # the rule if no round had a level
    assert np.abs(got - never).max() > 1e-4


@pytest.mark.parametrize("name, goal, text, ties", [
    ("great-rolled-ones", 15, "opp_need <= 0 -> roll; aside <= 1 -> below 26; below 4",
     "earlier-seat"),
    ("pig", 25, "j >= 20 -> below 25; below 12", "earlier-seat"),
    ("pig", 25, "j >= 20 -> below 25; below 12", "replay"),
    ("pig", 20, "i >= 30 -> below 3; j >= 20 -> below 25; below 12", "replay"),
])
def test_a_rule_with_two_seats_equals_the_rounds_match(name, goal, text, ties):
    """With two seats the profile of a rule is the two-seat rounds match of
    the rule against optimal play (by scores, to the same cap), the rule
    first and second: 1e-12; where ties are replayed the rule reads a
    replayed round's level in both (``i >= 30``: only there)."""
    model = load_rules(example_path(name)).model
    pol = _rule(text, model)
    prof = seat_rounds_profile(model, goal, 2, pol, ties=ties)
    first = match_rounds_model(model, goal, pol, OPT, ties=ties, cap=prof.cap, bank_wins=True)
    second = match_rounds_model(model, goal, OPT, pol, ties=ties, cap=prof.cap, bank_wins=True)
    for start in [(0, 0), (3, 1)]:
        assert abs(prof.seat_win(0, start)[0] - first.win_as_first(start)) < 1e-12
        assert abs(prof.seat_win(1, start)[1] - (1 - second.win_as_first(start))) < 1e-12


def test_cli_compares_a_rule_at_three_seats_of_the_great_rolled_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rule = "opp_need <= 0 -> roll; below 11"
    res = cli("compare", "great-rolled-ones", "--players", "3", "--goal", "12", "--policy",
              f"rule:{rule}", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    model = load_rules(example_path("great-rolled-ones")).model
    prof = seat_rounds_profile(model, 12, 3, _rule(rule, model), ties="earlier-seat")
    for s, row in enumerate(data["seats"]):
        assert abs(row["win"] - prof.seat_win(s, (0, 0, 0))[s]) < 1e-12
        assert row["win"] <= row["optimal_win"] + 1e-12
    # where ties are replayed (Pig): the same, its replayed rounds by level
    res = cli("compare", "rules:pig", "--players", "3", "--ending", "rounds", "--goal", "15",
              "--policy", "rule:j >= 15 -> below 20; below 6", "--json")
    assert res.returncode == 0, res.stderr
    model = load_rules(example_path("pig")).model
    prof = seat_rounds_profile(model, 15, 3, _rule("j >= 15 -> below 20; below 6", model))
    for s, row in enumerate(json.loads(res.stdout)["seats"]):
        assert abs(row["win"] - prof.seat_win(s, (0, 0, 0))[s]) < 1e-12
        assert row["win"] <= row["optimal_win"] + 1e-12
    assert list(tmp_path.iterdir()) == []
