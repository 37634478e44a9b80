"""Two policies head to head under the rounds ending where a bust can lower
a banked score (designer.engine.rounds_falls_match), two seats: fixed
policies against one linear solve of their Markov chain written from the
rules (tests/engine_reference.py), optimal play against the falls solve,
rules against the fixed policies they restate, and through compare and
strategy cards."""

import numpy as np
import pytest
from engine_reference import reference_rounds_hold
from test_engine_rounds_falls import _case
from test_strategy_rules import _rows_are_compared

from designer.analysis.rules_compare import compare_rules
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.game import load_rules_game
from designer.engine.match import RulesPolicy, parse_rules_policy
from designer.engine.rounds_falls import solve_rounds_falls
from designer.engine.rounds_falls_match import match_rounds_falls
from designer.errors import ConvergenceError

OPT = RulesPolicy(OPTIMAL, "optimal")


def hold(n):
    return RulesPolicy(HOLD_AT, f"hold-at:{n}", n)


HOLD_CASES = [(ties, name, bank) for ties in ("replay", "earlier-seat")
              for name in ("two3", "wipe", "penalty", "forced") for bank in (False, True)]


@pytest.mark.parametrize("ties, name, bank", HOLD_CASES,
                         ids=[f"{n}-{t}-{'bank' if b else 'literal'}" for t, n, b in HOLD_CASES])
def test_hold_policies_match_the_linear_reference(ties, name, bank):
    """``hold-at:3`` against ``hold-at:5`` in both seatings: every round
    start from the floor to below the goal, wins and expected actions, to
    1e-9 of one linear solve of the chain (a wipe by a pair of 1s, a die's
    wipe, a penalty to a floor of -2, a forced first throw with a bank rule;
    a literal seat 2 and one that banks a win)."""
    model, goal, proc, opts = _case(name)
    m = match_rounds_falls(model, goal, hold(3), hold(5), ties=ties, cap=goal + 6,
                           bank_wins=bank)
    assert m.residual <= 1e-12 and m.passes > 2
    lo = m.lo
    assert lo == opts.get("floor", 0)
    for p, (n1, n2) in enumerate(((3, 5), (5, 3))):
        V, L = reference_rounds_hold(proc, goal, n1, n2, ties, m.cap, bank_wins=bank, **opts)
        checked = 0
        for (a, b, _), v in V.items():
            if a < goal:
                assert abs(m.win[p, a - lo, b - lo, 0] - v) < 1e-9, (p, a, b)
                assert abs(m.actions[p, a - lo, b - lo, 0] - L[(a, b, _)]) < 1e-9, (p, a, b)
                checked += 1
        assert checked == (goal - lo) ** 2
    # A's win moving second reads the other seating's chain
    assert m.win_as_second() == 1.0 - m.win[1, -lo, -lo, 0]


def _choices():
    """A die whose 1 wipes the banked score and whose 3 lets the mover keep
    3 points and throw on, or keep 1 and move to a second state (a coin: a
    tail busts, a head scores 2): a choice of two options."""
    from designer.engine.model import build_model

    conts = [[[(1 / 3, "bust", 0, "zero", 0), (1 / 3, "choose", [(2, 0)]),
               (1 / 3, "choose", [(3, 0), (1, 1)])]],
             [[(1 / 2, "bust", 0, "none", 0), (1 / 2, "choose", [(2, 1)])]]]
    return build_model(conts, [0, 0])


OPT_CASES = [(ties, name) for ties in ("replay", "earlier-seat")
             for name in ("two3", "wipe", "penalty", "two-starts", "choices")]
OPT_CASES.append(("replay", "forced"))


@pytest.mark.parametrize("ties, name", OPT_CASES, ids=[f"{n}-{t}" for t, n in OPT_CASES])
def test_optimal_against_itself_is_the_solve(ties, name):
    """Optimal play in both seats, its decisions read from the falls solve's
    tables turn by turn, gives the solve's own win and game length at
    every round start (two start states, a choice of two options)."""
    if name == "choices":
        from engine_reference import FromModel, reference_rounds

        model, goal = _choices(), 6
        assert np.diff(model.opt_start).max() == 2
        p, _ = reference_rounds(FromModel(model), goal, ties, cap=goal + 6)
        assert abs(solve_rounds_falls(model, goal, ties=ties, cap=goal + 6).first_player_win
                   - p) < 1e-9
    else:
        model, goal, _, _ = _case(name)
    cap = goal + 6
    s = solve_rounds_falls(model, goal, ties=ties, cap=cap)
    m = match_rounds_falls(model, goal, OPT, OPT, ties=ties, cap=cap, solution=s)
    k = goal - s.floor
    assert np.abs(m.win[0, :k, :k] - s.X[:k, :k]).max() < 1e-12
    assert np.abs(m.actions[0, :k, :k] - s.LX[:k, :k]).max() < 1e-9
    assert m.win_as_first() + m.win_as_second() == pytest.approx(1.0, abs=1e-12)


def test_a_fixed_policy_loses_to_optimal_play():
    """Against optimal play a fixed policy wins less than half of its games
    in each seat on average, and optimal play in seat 1 never does worse
    against it than against itself (optimal play's win is a best reply's
    lower bound in a two-seat zero-sum game)."""
    model, goal, _, _ = _case("two3")
    s = solve_rounds_falls(model, goal, cap=goal + 60)
    for n in (2, 4, 8):
        m = match_rounds_falls(model, goal, hold(n), OPT, solution=s, bank_wins=True)
        assert (m.win_as_first() + m.win_as_second()) / 2 < 0.5
        assert 1.0 - m.win_as_second() >= s.first_player_win - 1e-12


def test_rules_restating_fixed_policies_agree(tmp_path):
    """``rule:below 3`` is ``hold-at:3`` (both bank a win in seat 2), read
    from a table over both scores from the floor (-2) to the cap; on the
    die (1 costs 2 points, 2 and 3 score) ``max-score`` holds at 5 (going
    on gains 5/3 and risks t/3, a tie held)."""
    from test_engine_rounds_falls import PENALTY

    (tmp_path / "penalty.toml").write_text(PENALTY)
    game = load_rules_game(str(tmp_path / "penalty.toml"), ending="rounds")
    model, goal = game.rules.model, game.rules.goal
    rule = parse_rules_policy("rule:below 3", game)
    assert rule.kind == TABLE and model.floor == -2
    a = match_rounds_falls(model, goal, rule, OPT, bank_wins=True)
    b = match_rounds_falls(model, goal, hold(3), OPT, bank_wins=True)
    assert a.cap == b.cap and np.abs(a.win - b.win).max() < 1e-13
    ms = match_rounds_falls(model, goal, RulesPolicy(MAX_SCORE, "max-score"), hold(5),
                           bank_wins=True)
    h5 = match_rounds_falls(model, goal, hold(5), hold(5), bank_wins=True, cap=ms.cap)
    assert np.abs(ms.win - h5.win).max() < 1e-13


def test_play_that_passes_for_ever_is_refused():
    """Two policies that pass at every score (``hold-at:0``, no forced
    throw) never end the game: refused in one line that says why, not
    given the iteration's starting guess as a win."""
    model, goal, _, _ = _case("wipe")
    with pytest.raises(ConvergenceError, match="pass to each other for ever"):
        match_rounds_falls(model, goal, hold(0), hold(0))


def test_the_numbers_do_not_depend_on_the_threads():
    """The pairs of one score sum go side by side: identical tables, bit
    for bit, on one thread and on all."""
    import numba

    model = load_rules_game("two-dice-pig").rules.model
    all_threads = numba.config.NUMBA_NUM_THREADS
    try:
        numba.set_num_threads(1)
        one = match_rounds_falls(model, 16, hold(8), OPT, bank_wins=True)
        numba.set_num_threads(all_threads)
        many = match_rounds_falls(model, 16, hold(8), OPT, bank_wins=True)
    finally:
        numba.set_num_threads(all_threads)
    assert np.array_equal(one.win, many.win) and np.array_equal(one.actions, many.actions)
    assert (one.passes, one.residual) == (many.passes, many.residual)


def test_compare_reaches_falling_scores_in_rounds():
    """``compare`` of Two-Dice Pig in equal turns: the match's figures, the
    passes and residual reported, the agreement counted over each seat's
    positions below the goal; optimal against itself is the solve."""
    game = load_rules_game("two-dice-pig", goal=20, ending="rounds")
    c = compare_rules(game, "hold-at:10", "optimal")
    m = match_rounds_falls(game.rules.model, 20, hold(10), OPT, bank_wins=True)
    assert c.win_as_first == m.win_as_first() and c.win_as_second == m.win_as_second()
    assert c.passes == m.passes > 2 and c.residual == m.residual <= 1e-12
    assert 0.5 < c.agreement < 1.0 and c.states > 0
    s = solve_rounds_falls(game.rules.model, 20)
    same = compare_rules(game, "optimal", "optimal")
    assert same.win_as_first == pytest.approx(s.first_player_win, abs=1e-12)
    assert same.agreement == 1.0


def test_a_strategy_card_where_scores_fall_in_rounds(tmp_path):
    """A strategy card of a die whose 1 wipes the banked score, to 8 in equal
    turns: each row's rule scores what ``compare`` gives it (the agreement
    too), the front never falls, and the best row is no worse than the best
    ``hold-at:N``."""
    from test_engine_rounds_falls import WIPE

    from designer.strategy.card import strategy_card

    (tmp_path / "wipe.toml").write_text(WIPE)
    game = load_rules_game(str(tmp_path / "wipe.toml"), goal=8, ending="rounds")
    card = strategy_card(game, max_size=2, trials=4, jobs=1)
    rows = _rows_are_compared(game, card)
    best = max(compare_rules(game, f"hold-at:{n}", "optimal").win_average for n in range(1, 9))
    assert max(r.win_average for r in rows) >= best - 1e-12


def test_strategy_cards_score_a_rule_as_compare_does(tmp_path):
    """What a strategy card reads of a rule where scores fall in equal
    turns (the scorer of rules of a rules game, one falls solve at the
    rules' cap kept between rules): each rule's wins and agreement are
    ``compare``'s, and ``max-score``'s reference row too (the whole card:
    the slow tier)."""
    from test_engine_rounds_falls import WIPE

    from designer.policies.rules import Rule
    from designer.strategy.rules_game import RulesEvaluator

    (tmp_path / "wipe.toml").write_text(WIPE)
    game = load_rules_game(str(tmp_path / "wipe.toml"), goal=8, ending="rounds")
    ev = RulesEvaluator(game)
    assert ev.solution.cap == 68 and ev.solution.residual <= 1e-12
    text = "opp_need <= 0 -> roll; below 3"
    rule = Rule.parse("rules", text)
    got = ev.score(rule)
    # (compare given the card's solve: the rules' cap is the comparison's)
    c = compare_rules(game, f"rule:{text}", "optimal", solution=ev.solution)
    assert got["win_as_first"] == c.win_as_first and got["win_as_second"] == c.win_as_second
    assert ev.agreement(rule) == c.agreement
    ms = compare_rules(game, "max-score", "optimal", with_agreement=False)
    assert ev.max_score()["win_average"] == pytest.approx(ms.win_average, abs=1e-12)


def test_compare_says_how_long_it_will_take():
    """The status line's estimate: the falls solve's, times the measured
    cost of a solve and two seatings; none where the wait is short by
    construction (the race)."""
    from designer.analysis.rules_compare import FALLS_COMPARE_PER_SOLVE, compare_seconds
    from designer.engine.rounds_falls import falls_estimate

    game = load_rules_game("two-dice-pig", ending="rounds")
    est = falls_estimate(game.rules.model, 100, 160)["seconds"]
    assert compare_seconds(game, "hold-at:20") == FALLS_COMPARE_PER_SOLVE * est > 5
    # a fixed policy whose turns pass the default cap raises it: a longer wait
    far = falls_estimate(game.rules.model, 100, 100 + 300 + 12)["seconds"]
    assert compare_seconds(game, "hold-at:300") == FALLS_COMPARE_PER_SOLVE * far > 5 * est
    assert compare_seconds(game, "hold-at:10000000") is None  # refused by the compare itself
    assert compare_seconds(load_rules_game("two-dice-pig"), "hold-at:20") is None
