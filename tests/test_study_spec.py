"""Study files: every validation rule names the key, the value and what is allowed."""

import pytest

from designer.search import StudyError, load_study
from study_helpers import SMALL_DECK, write_study


def test_small_deck_parses(tmp_path):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="s", workers=2)))
    assert spec.family == "deck" and spec.method == "grid" and spec.workers == 2
    assert list(spec.space["bad"]) == [1, 2, 3]
    assert list(spec.space["goal"]) == [5, 6, 7, 8]
    assert spec.constraints == {"components": {"max": 8.0}}
    assert [o.metric for o in spec.objectives] == ["fairness", "expected_actions", "components"]
    assert spec.results_dir == (tmp_path / "small.results").resolve()


def test_shipped_studies_parse():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "studies"
    names = {p.stem for p in root.glob("*.toml")}
    assert {"red_light", "fowl_play_komi", "pig_variants"} <= names
    for p in root.glob("*.toml"):
        load_study(p)


BASE = SMALL_DECK.format(name="s", workers=1)


@pytest.mark.parametrize("change,needle", [
    (("[study]", "[study]\ncolour = 'red'"), "unknown key colour"),
    (("[space]", "[space]\nwolves = 3"), "unknown key wolves"),
    (("family = \"deck\"", "family = \"cards\""), "invalid family = 'cards': allowed deck | dice"),
    (("method = \"grid\"", "method = \"random\""), "invalid method = 'random'"),
    (("workers = 1", "workers = 0"), "invalid workers = 0"),
    (("bad = {min = 1, max = 3}", "bad = {min = 3, max = 1}"), "allowed min <= max"),
    (("bad = {min = 1, max = 3}", "bad = {min = 0, max = 3}"), "invalid bad=0"),
    (("bad = {min = 1, max = 3}", "bad = {lo = 1, hi = 3}"), "invalid bad ="),
    (("bad = {min = 1, max = 3}", "bad = 2.5"), "invalid bad = 2.5: allowed an integer"),
    (("bad = {min = 1, max = 3}\n", ""), "missing bad"),
    (("components = {max = 8}", "components = {most = 8}"), "invalid components"),
    (("components = {max = 8}", "length = {max = 8}"), "unknown key length"),
    (("komi = {min = 0, max = 3}", "komi = 9"), "invalid komi"),
])
def test_bad_study_files(tmp_path, change, needle):
    old, new = change
    assert old in BASE
    path = write_study(tmp_path, BASE.replace(old, new, 1))
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert needle in str(info.value)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("url", ["sqlite:///:memory:", "sqlite://", "sqlite+pysqlite:///:memory:"])
def test_an_in_memory_optuna_storage_is_refused(tmp_path, url):
    # it was accepted, and the run ended after a traceback from optuna's
    # heartbeat thread, whose connection saw its own empty database
    body = BASE.replace('method = "grid"', 'method = "optuna"') + f"\n[optuna]\nstorage = '{url}'\n"
    path = write_study(tmp_path, body)
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert "an in-memory SQLite database keeps nothing" in str(info.value)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_objectives_rules(tmp_path):
    # fairness usually leads, but a study may bound it and rank by another goal
    path = write_study(tmp_path, BASE + "\n[objectives]\nrank = ['max:skill_gap', 'fairness']\n")
    assert [(o.metric, o.direction) for o in load_study(path).objectives] == [
        ("skill_gap", "max"), ("fairness", "min")]
    path = write_study(tmp_path, BASE + "\n[objectives]\nrank = ['fairness', 'beauty']\n")
    with pytest.raises(StudyError, match="invalid rank = 'beauty'"):
        load_study(path)
    path = write_study(tmp_path, BASE + "\n[objectives]\nrank = ['fairness', 'max:expected_actions']\n")
    assert load_study(path).objectives[1].direction == "max"


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(StudyError, match="no study file"):
        load_study(tmp_path / "nope.toml")
    path = write_study(tmp_path, "[study\n")
    with pytest.raises(StudyError, match="not valid TOML"):
        load_study(path)
