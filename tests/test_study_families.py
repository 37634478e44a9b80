"""Studies of the other families: zombie dice (exact) and wagering games
(simulated, ranked honestly about their uncertainty)."""

import pandas as pd
import pytest

from designer.analysis.zombie import compare_zombie  # noqa: F401  (the family is importable)
from designer.games import ZombieGame
from designer.search import load_study, open_store
from designer.search.grid import run_grid
from designer.search.ranking import rank
from designer.solve import solve
from study_helpers import write_study

ZOMBIE = """
[study]
name = "z"
family = "zombie"
workers = 1

[space]
brains = {min = 1, max = 2}
shotguns = {min = 1, max = 2}
footprints = [0, 2]
goal = [8, 10]
komi = {min = 0, max = 2}
"""

WAGER = """
[study]
name = "w"
family = "wager"
workers = 1

[space]
max_raise = [1, 5]
ante = 1
start = 30
rounds = 2
pack = 20

[simulation]
games = 400
seed = 3

[objectives]
rank = ["fairness", "skill_vs_noncounting"]
"""


def test_zombie_study_rows_equal_direct_solves(tmp_path):
    spec = load_study(write_study(tmp_path, ZOMBIE))
    assert dict(spec.space)["dice"].values == (3,)  # defaults fill the space
    store = open_store(spec)
    assert run_grid(spec, store)["computed"] == 8
    df = store.rows()
    assert len(df) == 8 * 2 * 3
    for row in df.sample(6, random_state=1).itertuples():
        sol = solve(ZombieGame(row.brains, row.shotguns, row.footprints, 3, 3, row.goal))
        assert row.first_player_win == pytest.approx(sol.first_player_win(komi=row.komi), abs=1e-12)
        assert row.expected_actions == pytest.approx(sol.expected_actions(komi=row.komi), rel=1e-10)


def test_wager_study_has_standard_errors_and_ties(tmp_path):
    from designer.simulate.wager import design_metrics
    from designer.games import WagerGame

    spec = load_study(write_study(tmp_path, WAGER))
    store = open_store(spec)
    run_grid(spec, store)
    df = store.rows()
    assert len(df) == 2
    for row in df.itertuples():
        m = design_metrics(WagerGame(row.max_raise, 1, 30, 2, 20), 400, seed=3)
        assert row.fairness == abs(m["nondealer_advantage"])
        assert row.fairness_se == m["nondealer_advantage_se"] > 0
        assert row.skill_vs_random == m["skill_vs_random"]
    ranked = rank(df, spec)
    assert "tied" in ranked.columns
    a, b = ranked.iloc[0], ranked.iloc[1]
    close = abs(a.fairness - b.fairness) <= 1.96 * (a.fairness_se ** 2 + b.fairness_se ** 2) ** 0.5
    assert bool(a.tied) == close and (a["rank"] == b["rank"]) == close


def test_uncertain_rank_rules():
    from designer.search.ranking import _uncertain_rank

    v = pd.Series([0.0, 0.1, 1.0, 1.05])
    se = pd.Series([0.1, 0.1, 0.01, 0.01])
    # 0.0 vs 0.1: |diff| 0.1 < 1.96 * 0.141 -> tie; 1.0 vs 1.05: 0.05 > 1.96 * 0.014 -> apart
    assert list(_uncertain_rank(v, se, "min")) == [1, 1, 3, 4]
    assert list(_uncertain_rank(v, se, "max")) == [3, 3, 2, 1]


def test_tie_broken_by_later_objective():
    from designer.search.spec import Objective, StudySpec
    from pathlib import Path

    spec = StudySpec(path=Path("x.toml"), name="x", description="", family="wager", method="grid",
                     workers=1, results_dir=Path("."), space={}, fixed={}, constraints={},
                     objectives=(Objective("fairness", "min"),
                                 Objective("skill_vs_noncounting", "max")))
    base = dict(ante=1, start=100, rounds=10, pack=52, fairness_se=0.1, skill_vs_noncounting_se=0.1)
    df = pd.DataFrame([dict(base, max_raise=1, fairness=0.01, skill_vs_noncounting=1.0),
                       dict(base, max_raise=2, fairness=0.02, skill_vs_noncounting=3.0),
                       dict(base, max_raise=3, fairness=5.0, skill_vs_noncounting=9.0)])
    ranked = rank(df, spec)
    assert list(ranked.max_raise) == [2, 1, 3]
    assert list(ranked["rank"]) == [1, 1, 3] and list(ranked.tied) == [True, True, False]


def test_skill_gap_rows_match_the_analysis(tmp_path):
    from designer import DeckGame
    from designer.analysis.skill import skill_gap
    from study_helpers import SMALL_DECK

    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="sk", workers=1)))
    store = open_store(spec)
    run_grid(spec, store)
    df = store.rows()
    assert df["skill_gap"].notna().all()
    for row in df.sample(5, random_state=2).itertuples():
        sol = solve(DeckGame(row.bad, row.good, row.goal))
        assert row.skill_gap == pytest.approx(skill_gap(sol, komi=row.komi), abs=1e-12)
