"""Every terminal table of the manual's journeys fits 80 columns with no
value or header word cut (rich marks a cut with an ellipsis)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from study_helpers import SMALL_SEATS

ROOT = Path(__file__).resolve().parents[1]

STUDY = SMALL_SEATS.format(name="wide", players="[2, 3, 4]")

JOURNEYS = [
    ["solve", "red-light"],
    ["solve", "pig", "--players", "3", "--goal", "50"],
    ["solve", "pig", "--players", "4", "--ending", "rounds", "--goal", "15"],
    ["solve", "zombie-yellow"],
    ["compare", "fowl-play", "--policy", "max-score"],
    ["compare", "pig", "--players", "3", "--goal", "30", "--policy", "two-player"],
    ["compare", "zombie-yellow", "--policy", "neller"],
    ["simulate", "persian-monarchs", "--games", "2000"],
    ["strategy", "pig", "--goal", "30", "--max-size", "2"],
    ["study", "run", "STUDY"],
    ["study", "top", "STUDY"],
    ["study", "status", "STUDY"],
]


def _run(args, cwd):
    env = {**os.environ, "COLUMNS": "80", "DESIGNER_DATA_DIR": str(cwd / "data")}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "designer", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wide")
    path = folder / "wide.toml"
    path.write_text(STUDY)
    r = _run(["study", "run", str(path)], folder)  # results for top and status
    assert r.returncode == 0, r.stderr
    return path


@pytest.mark.parametrize("args", JOURNEYS, ids=" ".join)
def test_fits_80_columns(args, study):
    args = [str(study) if a == "STUDY" else a for a in args]
    r = _run(args, study.parent)
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines():
        assert len(line) <= 80, f"{len(line)} columns: {line!r}"
        assert "…" not in line, f"cut: {line!r}"


def test_play_stats_fits_80_columns(tmp_path):
    import json

    from fuzz_cases import VALID_STATS

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "play-stats.json").write_text(json.dumps(VALID_STATS))
    r = _run(["play", "--stats"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "loss per decision" in r.stdout and "33.3%" in r.stdout
    for line in r.stdout.splitlines():
        assert len(line) <= 80 and "…" not in line, line
