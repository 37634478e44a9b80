"""Policies head to head on rules games (designer.engine.match): against the
engine's solve (optimal against optimal), against a slow reference written
from the rules (tests/engine_match_reference.py), against today's family
compare on Pig, and on the command line."""

import json

import pytest
from cli_runner import cli
from engine_match_reference import HoldAt, MaxScore, Optimal, reference_match
from engine_reference import Deck, Die, FromModel, PairOfDice

from designer import load_game
from designer.analysis.compare import compare
from designer.engine.game import load_rules_game
from designer.analysis.rules_compare import compare_rules
from designer.engine.match import match_model, max_score_horizon, parse_rules_policy
from designer.engine.model import build_model
from designer.engine.rulesfile import parse_rules
from designer.engine.solve import plan, solve_model
from designer.errors import DesignError

PIGLET = "goal = {goal}\n[dice]\nsides = 2\nface.1 = { bust = true }\nface.2 = { points = 1 }\n"
D3 = "goal = 8\n[dice]\nsides = 3\nface.1 = { bust = true }\n"
DECK = "goal = 6\n[turn]\nforced_first = true\n[deck]\nbad = 2\ngood = 3\n"
PAIR = ("goal = 12\n[dice]\ncount = 2\nsides = 3\nface.1 = { bust = true }\n"
        "[dice.bust_effect]\nbust_faces = 2\nscore = \"zero\"\n")


def _piglet(goal):
    return PIGLET.replace("{goal}", str(goal))


def _odd(min_bank=0, forced_first=False, zero=False):
    """A turn written as arrays: two continuations at state 0 (the first is
    worse for max-score), a choice of two options, an end with points, a
    choice between equal gains (the first listed wins), and a bust that
    can wipe the banked score."""
    wipe = "zero" if zero else "none"
    return build_model([
        [[(0.3, "bust", 0, "none", 0), (0.4, "choose", [(1, 0), (2, 1)]), (0.3, "end", 2, 0)],
         [(0.4, "bust", 0, wipe, 0), (0.6, "choose", [(3, 1)])]],
        [[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0), (1, 1)])]],
    ], [0, 0], min_bank=min_bank, forced_first=forced_first)


def _two_starts():
    """Two turn starts whose busts hand the opponent either one, a choice
    and an end with points: the pair has two feedback states, so the
    match's general sweep (vectors of unknowns) plays it."""
    return build_model([
        [[(0.2, "bust", 0, "none", 0), (0.2, "bust", 1, "none", 0),
          (0.4, "choose", [(1, 0), (2, 1)]), (0.2, "end", 1, 1)]],
        [[(0.3, "bust", 1, "none", 0), (0.1, "bust", 0, "none", 0), (0.6, "choose", [(2, 1)])]],
    ], [1, 0])


def _policy(text, unit=1):
    if text == "optimal":
        return Optimal()
    if text == "max-score":
        return MaxScore()
    return HoldAt(int(text.split(":")[1]) // unit)


class _Game:
    """The little a policy string needs of a game."""

    def __init__(self, unit=1):
        self.unit, self.name = unit, "test"


def _engine(model, goal, a, b):
    g = _Game()
    return match_model(model, goal, parse_rules_policy(a, g), parse_rules_policy(b, g))


# -- optimal against optimal is the solve ---------------------------------------

@pytest.mark.parametrize("name, kw, komis", [
    ("piglet", {}, (0, 3)), ("pig", {"goal": 30}, (0, 5)), ("fowl-play", {"goal": 12}, (0, 2)),
    ("farkle", {"goal": 1000}, (0, 100))])
def test_optimal_against_optimal_is_the_solve(name, kw, komis):
    for komi in komis:
        game = load_rules_game(name, komi=komi, **kw)
        sol = solve_model(game.rules.model, game.rules.goal, 0)
        v = sol.value(*game.start)
        r = compare_rules(game, "optimal", "optimal")
        assert abs(r.win_as_first - v) < 1e-12
        assert abs(r.win_as_second - (1 - v)) < 1e-12
        assert abs(r.win_average - 0.5) < 1e-12 and r.agreement == 1.0


def test_optimal_against_optimal_where_scores_fall():
    rules = parse_rules(PAIR)
    sol = solve_model(rules.model, rules.goal, 0)
    m = _engine(rules.model, rules.goal, "optimal", "optimal")
    assert abs(m.win_as_first() - sol.first_player_win) < 1e-11
    assert m.passes > 1 and m.residual <= 1e-12


# -- no policy beats optimal ------------------------------------------------------

@pytest.mark.parametrize("name, kw, policies", [
    ("piglet", {}, ["hold-at:1", "hold-at:3", "max-score"]),
    ("pig", {"goal": 30}, ["hold-at:10", "hold-at:20", "max-score"]),
    ("fowl-play", {"goal": 12}, ["hold-at:4", "max-score"]),
    ("farkle", {"goal": 1000}, ["hold-at:300", "hold-at:50", "max-score"])])
def test_no_policy_beats_optimal(name, kw, policies):
    game = load_rules_game(name, **kw)
    for policy in policies:
        r = compare_rules(game, policy, "optimal")
        assert r.win_average <= 0.5 + 1e-12, policy
        assert r.win_average < 0.5 - 1e-6, policy  # and none of these is optimal


# -- against the slow reference ----------------------------------------------------

CASES = [
    ("piglet-3", lambda: parse_rules(_piglet(3)).model, 3, Die(["bust", 1]), {}),
    ("piglet-4", lambda: parse_rules(_piglet(4)).model, 4, Die(["bust", 1]), {}),
    ("piglet-6", lambda: parse_rules(_piglet(6)).model, 6, Die(["bust", 1]), {}),
    ("d3-8", lambda: parse_rules(D3).model, 8, Die(["bust", 2, 3]), {}),
    ("deck-2-3", lambda: parse_rules(DECK).model, 6, Deck(2, 3), {"forced_first": True}),
    ("odd", lambda: _odd(), 6, None, {}),
    ("odd-min-bank", lambda: _odd(min_bank=2), 6, None, {"min_bank": 2}),
    ("odd-forced", lambda: _odd(forced_first=True), 6, None, {"forced_first": True}),
    ("two-starts", _two_starts, 6, None, {}),
]
PAIRS = [("hold-at:2", "optimal"), ("max-score", "hold-at:3"), ("max-score", "optimal"),
         ("hold-at:1", "hold-at:4")]


@pytest.mark.parametrize("name, build, goal, proc, opts", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, build, goal, proc, opts):
    model = build()
    proc = FromModel(model) if proc is None else proc
    for a, b in PAIRS:
        m = _engine(model, goal, a, b)
        ref = reference_match(proc, goal, _policy(a), _policy(b), **opts)
        for key in ref:
            assert abs(getattr(m, key)() - ref[key]) < 1e-9, (a, b, key)


def test_two_starts_take_the_general_sweep():
    assert len(plan(_two_starts(), 6)["fh"]) == 2
    assert len(plan(_odd(), 6)["fh"]) == 1  # the others: the sweep of one feedback state


def test_matches_reference_with_start_points():
    model = parse_rules(D3).model
    m = _engine(model, 8, "hold-at:3", "max-score")
    ref = reference_match(Die(["bust", 2, 3]), 8, HoldAt(3), MaxScore(), start=(2, 5))
    assert abs(m.win_as_first((2, 5)) - ref["win_as_first"]) < 1e-9
    assert abs(m.win_as_second((2, 5)) - ref["win_as_second"]) < 1e-9


def test_matches_reference_where_scores_fall():
    rules = parse_rules(PAIR)
    m = _engine(rules.model, rules.goal, "hold-at:4", "max-score")
    ref = reference_match(PairOfDice(3), rules.goal, HoldAt(4), MaxScore(), tol=1e-14)
    assert abs(m.win_as_first() - ref["win_as_first"]) < 1e-9
    assert abs(m.actions_as_second() - ref["actions_as_second"]) < 1e-9
    model = _odd(zero=True)
    m = _engine(model, 5, "hold-at:2", "optimal")
    ref = reference_match(FromModel(model), 5, HoldAt(2), Optimal(), tol=1e-14)
    assert abs(m.win_as_first() - ref["win_as_first"]) < 1e-9
    assert abs(m.win_as_second() - ref["win_as_second"]) < 1e-9


def test_choices_follow_the_policy():
    # hold-at takes the first continuation and the largest gain, max-score
    # what banks most: on this turn the two play differently
    model = _odd()
    a = _engine(model, 6, "hold-at:3", "hold-at:3").win_as_first()
    b = _engine(model, 6, "max-score", "hold-at:3").win_as_first()
    assert abs(a - b) > 1e-6


# -- Pig: the family's compare --------------------------------------------------------

@pytest.mark.parametrize("policy", ["hold-at:20", "max-score", "hold-at:25"])
def test_pig_matches_the_family(policy):
    fam = compare(load_game("pig"), policy, "optimal", with_agreement=False)
    eng = compare_rules(load_rules_game("pig"), policy, "optimal")
    for key in ("win_as_first", "win_as_second", "win_average", "gap", "actions_as_first",
                "actions_as_second"):
        assert abs(getattr(eng, key) - getattr(fam, key)) < 1e-9, key


# -- refusals ------------------------------------------------------------------------

def test_max_score_goes_on_where_a_draw_cannot_bust():
    """State 1's roll never busts and gains 1: max-score takes it at any
    total, and stops at state 0 from a large enough total; against the
    reference's one-turn table, with start points."""
    model = build_model([[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 1)])]],
                         [[(1.0, "choose", [(1, 0)])]]], [0, 0])
    assert max_score_horizon(model)[0] is not None
    for start in ((0, 0), (3, 1)):
        m = _engine(model, 7, "max-score", "optimal")
        ref = reference_match(FromModel(model), 7, MaxScore(), Optimal(), start=start)
        assert abs(m.win_as_first(start) - ref["win_as_first"]) < 1e-9
        assert abs(m.win_as_second(start) - ref["win_as_second"]) < 1e-9


def test_max_score_refused_where_a_turn_never_stops():
    """Two states whose rolls never bust and gain, each leading to the
    other: a turn that maximises its points never stops."""
    model = build_model([[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 1)])],
                          [(1.0, "choose", [(1, 1)])]],
                         [[(1.0, "choose", [(1, 0)])]]], [0, 0])
    assert max_score_horizon(model)[0] is None
    with pytest.raises(DesignError, match="max-score is not defined"):
        _engine(model, 5, "max-score", "optimal")
    _engine(model, 5, "hold-at:2", "optimal")  # the others still play it


def test_a_match_that_never_ends_is_refused():
    # a turn that can only pass or bust: nobody ever scores
    model = build_model([[[(1.0, "bust", 0, "none", 0)]]], [0])
    with pytest.raises(DesignError, match="can go on forever"):
        _engine(model, 3, "hold-at:1", "hold-at:1")


@pytest.mark.parametrize("spec, words", [
    ("hold-at:-1", "hold-at:N needs an integer turn total in points, 50 <= N"),
    ("hold-at:x", "hold-at:N needs an integer turn total"),
    ("hold-at:75", "a multiple of 50"),
    ("rule:foo.txt", "no rule file"),
    ("py:f.py:g", "no policy file 'f.py'"),
    ("neller", "allowed optimal, max-score, hold-at:N, rule:RULE")])
def test_bad_policies_exit_2_in_one_line(spec, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("compare", "farkle", "--policy", spec, "--against", "optimal")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and spec in lines[0] and words in lines[0], r.stderr


def test_rounds_ending_compares_and_three_seats_take_a_rule_under_either_tie_rule():
    r = cli("compare", "great-rolled-ones", "--policy", "hold-at:10", "--against", "optimal",
            "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert 0.0 < out["win_as_first"] < out["win_as_second"] < 0.5
    # three seats under the rounds ending: a rule under either tie rule (a
    # tie to the earlier seat here, replayed in Pig)
    for game in (["great-rolled-ones"], ["rules:pig", "--ending", "rounds"]):
        r = cli("compare", *game, "--players", "3", "--goal", "10", "--policy",
                "rule:below 10", "--json")
        assert r.returncode == 0, r.stderr
        assert all(s["win"] <= s["optimal_win"] + 1e-12 for s in json.loads(r.stdout)["seats"])


def test_json_output():
    r = cli("compare", "piglet", "--goal", "6", "--policy", "max-score", "--against", "hold-at:2",
            "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"game", "goal", "komi", "policy", "against", "win_as_first",
                        "win_as_second", "win_average", "gap", "agreement", "states",
                        "actions_as_first", "actions_as_second", "seconds",
                        "agreement_seconds", "residual", "passes"}
    ref = reference_match(Die(["bust", 1]), 6, MaxScore(), HoldAt(2))
    assert abs(out["win_as_first"] - ref["win_as_first"]) < 1e-9
    # max-score holds at 1 (a flip gains 1/2 and risks 1/2 of 1: a tie,
    # which holds), hold-at:2 at 2: of the 21 positions (i, t), i + t < 6,
    # per opponent score, they differ at t = 1, i <= 4
    assert abs(out["agreement"] - 16 / 21) < 1e-15 and out["states"] == 6 * 21
    assert out["policy"] == "max-score"
    assert abs(out["gap"] - (out["win_as_first"] + out["win_as_second"] - 1)) < 1e-15


def test_table_output():
    r = cli("compare", "two-dice-pig", "--goal", "20", "--policy", "hold-at:10")
    assert r.returncode == 0, r.stderr
    assert "A moves first" in r.stdout and "passes, last change" in r.stdout


def test_compare_reports_each_pass_where_scores_fall():
    """``compare(progress=...)`` on a race whose busts lower a banked score
    hears every pass of optimal play's solve, then every pass of the
    evaluation (numbered from 1, the last one's change at most 1e-12, as
    many as the comparison reports); the terminal's status line words the
    evaluation's."""
    from designer.commands.solve import passes_said

    heard = []
    game = load_rules_game("two-dice-pig", goal=20)
    got = compare(game, "hold-at:10", "optimal",
                  progress=lambda n, change, what: heard.append((what, n, change)))
    stages = [what for what, _, _ in heard]
    solve = [(n, c) for what, n, c in heard if what == "solve"]
    match = [(n, c) for what, n, c in heard if what == "match"]
    assert stages == ["solve"] * len(solve) + ["match"] * len(match) and len(solve) > 2
    assert [n for n, _ in solve] == list(range(1, len(solve) + 1)) and solve[-1][1] <= 1e-12
    assert [n for n, _ in match] == list(range(1, got.passes + 1)) and got.passes > 2
    assert match[-1][1] == got.residual <= 1e-12
    assert passes_said("Pig", 3, 0.5, "match") == (
        "evaluating the policies on Pig: pass 3, largest change 5.0e-01 (stops at 1e-12)")
