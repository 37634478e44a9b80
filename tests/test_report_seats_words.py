"""The report of a study over three players: only the seats there are, the
glossary of start points, the fairness in words, bars around an equal share."""

import pandas as pd

from designer.report.study_report import write_report
from designer.search import load_study, open_store
from designer.search.grid import run_grid
from study_helpers import SMALL_SEATS, write_study

THREE = SMALL_SEATS.format(name="three", players=3)


def test_a_three_player_report_speaks_of_three_seats(tmp_path):
    path = write_study(tmp_path, THREE)
    spec = load_study(path)
    run_grid(spec, open_store(spec))
    index, _ = write_report(path, tmp_path / "out")
    md = (index.parent / "report.md").read_text()
    assert "seat 3 wins" in md and "seat 4" not in md and "NaN" not in md
    assert "max|P" not in md and "largest gap from equal" in md
    assert "**start points**" in md and "**komi**: points the second player" not in md
    bars = pd.read_csv(index.parent / "data" / "seat_wins.csv")
    assert "seat_4_win" not in bars.columns and (bars["equal_share"] == 1 / 3).all()
