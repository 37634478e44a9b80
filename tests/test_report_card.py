"""The strategy card in a study's report: values, resume, errors."""

import pandas as pd
import pytest

from designer.analysis.compare import compare
from designer.games import DeckGame
from designer.policies.rules import Rule
from designer.report.card_section import cache_path
from designer.report.study_report import write_report
from designer.search import load_study, open_store
from designer.search.grid import run_grid
from designer.search.ranking import rank
from study_helpers import SMALL_DECK, write_study


@pytest.fixture(scope="module")
def card_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("card")
    path = write_study(tmp, SMALL_DECK.format(name="cardrep", workers=1))
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    calls = []
    index, _ = write_report(path, tmp / "out", policies=1, card=2,
                            card_progress=lambda advance=None, total=None: calls.append(total))
    best = rank(open_store(spec).rows(), spec).iloc[0]
    game = DeckGame(int(best["bad"]), int(best["good"]), int(best["goal"]), int(best["komi"]))
    return index, spec, game, calls


def test_card_rows_are_exact_win_rates_of_their_rules(card_report, tmp_path):
    """Each rule on the card, saved and loaded as ``rule:FILE``, scores the
    same against the optimal player through the match evaluator of
    ``compare`` (not the search's evaluator)."""
    index, spec, game, calls = card_report
    out = index.parent
    md = (out / "report.md").read_text()
    assert "## Strategy card" in md and "### Strategy card" in md
    assert game.describe() in md
    card = pd.read_csv(out / "data" / "strategy_card.csv")
    assert len(card) >= 1 and card["rule_size"].max() <= 2
    assert card["win_average"].is_monotonic_increasing  # a larger budget never loses
    for i, row in card.iterrows():
        f = tmp_path / f"r{i}.toml"
        Rule.parse("deck", row["text"]).save(f)
        c = compare(game, f"rule:{f}", "optimal")
        assert c.win_as_first == pytest.approx(row["win_as_first"], abs=1e-12)
        assert c.win_as_second == pytest.approx(row["win_as_second"], abs=1e-12)
        assert row["win_average"] == pytest.approx(
            (row["win_as_first"] + row["win_as_second"]) / 2, abs=1e-15)
        assert row["rule"] in md  # the sentence is on the card
    refs = pd.read_csv(out / "data" / "strategy_references.csv").set_index("name")
    ms = compare(game, "max-score", "optimal")
    assert refs.loc["max-score", "win_average"] == pytest.approx(ms.win_average, abs=1e-12)
    assert (out / "figures" / "strategy_front.png").read_bytes()[:4] == b"\x89PNG"
    assert any(t is not None and t > 0 for t in calls)  # the progress bar got its size
    html = index.read_text()
    assert "Strategy card" in html and "strategy-card-best" in html


def test_card_scores_are_kept_beside_the_study(card_report, tmp_path):
    """A second report evaluates no rule again: every score is read back
    from the study's cache file."""
    from designer.strategy.card import strategy_card

    index, spec, game, calls = card_report
    cache = cache_path(spec, game)
    assert cache.parent == spec.store_path.parent and cache.stat().st_size > 0
    again = strategy_card(game, max_size=2, cache=str(cache))
    assert again.stats["evaluated"] == 0 and again.stats["resumed"] > 0
    first = pd.read_csv(index.parent / "data" / "strategy_card.csv")
    assert [r.text for r in again.rows if r is not None][-1] == first["text"].iloc[-1]


@pytest.mark.parametrize("bad", ["-1", "81", "x"])
def test_cli_card_size_is_checked_before_anything_is_written(card_report, bad, tmp_path,
                                                            capsys):
    from designer.cli import main

    index, spec, game, calls = card_report
    out = tmp_path / "nothing"
    try:
        status = main(["report", str(spec.path), "--out", str(out), f"--card-size={bad}"])
    except SystemExit as exc:  # argparse's one-line error
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--card-size" in err and bad in err, err
    assert not out.exists()


def test_no_card_for_a_wager_study(tmp_path):
    from test_study_families import WAGER

    path = write_study(tmp_path, WAGER)
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    index, _ = write_report(path, tmp_path / "out", card=2)
    assert "Strategy card" not in (index.parent / "report.md").read_text()
