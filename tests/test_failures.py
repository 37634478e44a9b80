"""A unit that fails (MemoryError, a numba error, a killed worker process)
does not stop a study: it is recorded as failed with its reason, the other
units are computed, `study status` shows it, `study resume --retry-failed`
computes it. Failures are injected with DESIGNER_INJECT_FAILURE (see
designer/search/failures.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from designer.search import load_study, open_store, status
from designer.search.families import unit_key
from designer.search.grid import run_grid
from fuzz_cases import run_cli
from study_helpers import SMALL_DECK, write_study

ROOT = Path(__file__).resolve().parent.parent
INJECT = "memory:bad=2,good=3;numba:bad=1,good=4;kill:bad=3,good=5"


def _cli(*args, env=None):
    e = dict(os.environ, PYTHONPATH=str(ROOT))
    e.pop("DESIGNER_INJECT_FAILURE", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True,
                          text=True, timeout=180, env=e)


def test_failures_in_process_are_recorded_and_skipped(tmp_path, monkeypatch):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="f1", workers=1)))
    store = open_store(spec)
    monkeypatch.setenv("DESIGNER_INJECT_FAILURE", "memory:bad=2,good=3;numba:bad=1,good=4")
    assert run_grid(spec, store) == {"computed": 12, "failed": 2}
    failed = store.failed()
    assert failed[unit_key({"bad": 2, "good": 3})].startswith("MemoryError: injected")
    assert failed[unit_key({"bad": 1, "good": 4})].startswith("TypingError")
    st = status(spec, store)
    assert (st["done"], st["failed"], st["pending"]) == (12, 2, 0)
    # a plain run skips failed units; retry_failed runs them again
    monkeypatch.delenv("DESIGNER_INJECT_FAILURE")
    assert run_grid(spec, store) == {"computed": 0, "failed": 0}
    assert run_grid(spec, store, retry_failed=True) == {"computed": 2, "failed": 0}
    assert store.failed() == {} and len(store.done()) == 14


def test_solver_errors_are_counted_apart(tmp_path, monkeypatch):
    """A design whose solve fails inside the solver (a bug to report, not a
    design to avoid) is recorded like any failure and counted apart."""
    path = write_study(tmp_path, SMALL_DECK.format(name="f3", workers=1))
    spec = load_study(path)
    store = open_store(spec)
    monkeypatch.setenv("DESIGNER_INJECT_FAILURE", "solver:bad=2,good=3;memory:bad=1,good=4")
    assert run_grid(spec, store) == {"computed": 12, "failed": 2}
    assert store.failed()[unit_key({"bad": 2, "good": 3})].startswith("SolverError: injected")
    st = status(spec, store)
    assert (st["failed"], st["solver_errors"]) == (2, 1)
    monkeypatch.delenv("DESIGNER_INJECT_FAILURE")
    code, out, err, _ = run_cli(["study", "status", str(path)], tmp_path, limit=120)
    assert "compositions: 12 done, 0 to compute, 2 failed, of 14" in out
    assert "solver error (report it): 1 of the failed compositions" in out


def test_killed_worker_does_not_stop_the_study(tmp_path):
    """Two parallel processes; one design kills its process, two others raise.
    The rest completes; status lists the three; --retry-failed finishes the
    study and its rows equal an undisturbed run."""
    path = write_study(tmp_path, SMALL_DECK.format(name="f2", workers=2))
    r = _cli("study", "run", str(path), env={"DESIGNER_INJECT_FAILURE": INJECT})
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "--retry-failed" in r.stderr
    said, printed = " ".join(r.stderr.split()), " ".join(r.stdout.split())  # lines wrap at 80
    assert "3 compositions failed" in said and "11 of 14 compositions done, 3 failed" in printed
    # the rest runs in this process (same code path as the console script)
    code, out, err, _ = run_cli(["study", "status", str(path), "--json"], tmp_path, limit=120)
    st = json.loads(out)
    assert (st["done"], st["failed"], st["pending"]) == (11, 3, 0)
    reasons = st["failures"]
    assert reasons[unit_key({"bad": 3, "good": 5})].startswith("the worker process died")
    assert reasons[unit_key({"bad": 2, "good": 3})].startswith("MemoryError")
    assert reasons[unit_key({"bad": 1, "good": 4})].startswith("TypingError")
    code, out, err, _ = run_cli(["study", "status", str(path)], tmp_path, limit=120)
    assert out.count("failed: {") == 3 and "worker process died" in out
    assert "compositions: 11 done, 0 to compute, 3 failed, of 14" in out

    # resume without the flag computes nothing; with it, the three units
    code, out, err, _ = run_cli(["study", "resume", str(path)], tmp_path, limit=120)
    assert code == 1
    code, out, err, _ = run_cli(["study", "resume", str(path), "--retry-failed", "--workers", "1"],
                                tmp_path, limit=120)
    assert code == 0, err
    spec = load_study(path)
    store = open_store(spec)
    assert store.failed() == {} and len(store.done()) == 14

    (tmp_path / "ref").mkdir()
    ref_spec = load_study(write_study(tmp_path / "ref", SMALL_DECK.format(name="f2", workers=1)))
    ref = open_store(ref_spec)
    run_grid(ref_spec, ref)
    pd.testing.assert_frame_equal(store.rows(), ref.rows(), check_exact=False, rtol=1e-12)
