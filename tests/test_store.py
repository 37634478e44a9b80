"""The results-store contract (designer.search.store), run against every
backend."""

import pytest

from designer.search import SQLiteStore, StudyError, load_study
from designer.search.families import evaluate_unit, family, unit_key, units
from study_helpers import SMALL_DECK, write_study

BACKENDS = {"sqlite": lambda spec: SQLiteStore(spec.store_path)}


@pytest.fixture(params=sorted(BACKENDS))
def make_store(request):
    return BACKENDS[request.param]


@pytest.fixture
def spec(tmp_path):
    return load_study(write_study(tmp_path, SMALL_DECK.format(name="s", workers=1)))


def _result(spec, unit):
    return evaluate_unit(spec.family, unit, family(spec.family).unit_args(spec))


def test_commit_is_atomic_and_idempotent(spec, make_store):
    store = make_store(spec).open(spec)
    u = units(spec)[0]
    r = _result(spec, u)
    store.commit_unit(r)
    store.commit_unit(r)  # a unit committed twice is stored once
    assert store.done() == {unit_key(u)}
    rows = store.rows()
    assert len(rows) == len(r["rows"])
    assert not rows.duplicated(["bad", "good", "goal", "komi"]).any()


def test_failed_then_done(spec, make_store):
    store = make_store(spec).open(spec)
    u = units(spec)[0]
    store.mark_failed({"key": unit_key(u), "seconds": 0.1, "error": "boom"})
    assert store.failed() == {unit_key(u): "boom"}
    store.commit_unit(_result(spec, u))
    assert store.failed() == {} and store.done() == {unit_key(u)}


def test_rows_in_canonical_order(spec, make_store):
    a = make_store(spec).open(spec)
    us = units(spec)
    for u in reversed(us):
        a.commit_unit(_result(spec, u))
    df = a.rows()
    assert list(df.columns[:4]) == ["bad", "good", "goal", "komi"]
    assert df.equals(df.sort_values(["bad", "good", "goal", "komi"]).reset_index(drop=True))


def test_other_space_is_refused(tmp_path, spec, make_store):
    store = make_store(spec).open(spec)
    store.commit_unit(_result(spec, units(spec)[0]))
    store.close()
    changed = load_study(write_study(tmp_path, SMALL_DECK.format(name="s", workers=1)
                                     .replace("max = 6", "max = 7")))
    assert changed.store_path == spec.store_path
    with pytest.raises(StudyError, match="search space changed"):
        make_store(changed).open(changed)


def test_persists_across_connections(spec, make_store):
    store = make_store(spec).open(spec)
    store.commit_unit(_result(spec, units(spec)[0]))
    store.close()
    again = make_store(spec).open(spec)
    assert len(again.done()) == 1
