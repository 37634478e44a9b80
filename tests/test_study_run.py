"""Running studies: grid results, interruption and resume, optuna, dask, CLI."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from designer.search import load_study, open_store
from designer.search.families import units
from designer.search.grid import run_grid
from designer.solve import solve
from designer import DeckGame
from cli_runner import cli
from fuzz_cases import run_cli
from study_helpers import SMALL_DECK, ctrl_c_deliverable, write_study

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args, cwd=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def test_grid_rows_equal_direct_solves(tmp_path):
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="g", workers=1)))
    store = open_store(spec)
    out = run_grid(spec, store)
    df = store.rows()
    assert out == {"computed": len(store.done()), "failed": 0}
    # components <= 8 prunes (3, 6); every other composition, goal, komi < goal is there
    n = sum(1 for b in (1, 2, 3) for g in range(2, 7) if b + g <= 8
            for goal in range(5, 9) for k in range(4) if k < goal)
    assert len(df) == n
    for row in df.sample(12, random_state=0).itertuples():
        direct = solve(DeckGame(row.bad, row.good, row.goal, row.komi))
        assert row.first_player_win == pytest.approx(direct.first_player_win(komi=row.komi), abs=1e-12)
        assert row.expected_actions == pytest.approx(direct.expected_actions(komi=row.komi), rel=1e-11)
        assert row.fair_komi == direct.fair_komi()
        assert row.fairness == pytest.approx(abs(row.first_player_win - 0.5))
    # running again computes nothing
    assert run_grid(spec, store) == {"computed": 0, "failed": 0}


KILL_STUDY = """
[study]
name = "kill"
family = "deck"
method = "grid"
workers = 2

[space]
bad = {min = 1, max = 5}
good = {min = 10, max = 45}
goal = 30
komi = {min = 0, max = 4}
"""


def _done_count(path):
    if not path.exists():
        return 0
    try:
        con = sqlite3.connect(path, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM designer_units WHERE status='done'").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def _run_until(path, store, minimum, sig):
    proc = subprocess.Popen([sys.executable, "-m", "designer", "study", "run", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=ctrl_c_deliverable)
    deadline = time.time() + 120
    while _done_count(store) < minimum and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the study finished before it could be interrupted"
    if sig == signal.SIGKILL:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, all at once
    else:
        os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, err


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The kill study run from start to end without interruption."""
    ref = load_study(write_study(tmp_path_factory.mktemp("ref"), KILL_STUDY))
    store = open_store(ref)
    run_grid(ref, store, workers=2)
    return store.rows(), len(store.done())


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_interrupt_and_resume_equals_uninterrupted(tmp_path, sig, uninterrupted):
    path = write_study(tmp_path, KILL_STUDY)
    spec = load_study(path)
    code, err = _run_until(path, spec.store_path, 8, sig)
    if sig == signal.SIGINT:
        assert code == 130, err
        assert "designer study resume" in err and "Traceback" not in err
    else:
        assert code == -signal.SIGKILL
    partial = _done_count(spec.store_path)
    assert 8 <= partial < 180
    r = _cli("study", "resume", str(path))
    assert r.returncode == 0, r.stderr
    store = open_store(spec)
    assert len(store.done()) == 180
    resumed = store.rows()
    expected, n = uninterrupted
    assert n == 180
    assert not resumed.duplicated(["bad", "good", "goal", "komi"]).any()
    pd.testing.assert_frame_equal(resumed, expected, check_exact=True)


def test_changed_space_is_refused_by_cli(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="c", workers=1))
    assert cli("study", "run", str(path)).returncode == 0
    path.write_text(path.read_text().replace("max = 6", "max = 7"))
    r = cli("study", "run", str(path))
    assert r.returncode == 2
    assert "search space changed" in r.stderr and "Traceback" not in r.stderr


def test_cli_status_top_export(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="cli", workers=2))
    r = cli("study", "resume", str(path))
    assert r.returncode == 2 and "has no results yet" in r.stderr
    r = cli("study", "run", str(path))
    assert r.returncode == 0, r.stderr
    assert "best designs" in r.stdout
    # plain words: designs and parallel processes, not units and loky workers
    assert "computed 14 compositions" in r.stdout and "14 of 14 compositions done, 0 failed" in r.stdout
    assert "14 of 14 compositions to compute, 2 parallel processes" in r.stderr
    assert "14/14 compositions" in r.stderr
    assert "units" not in r.stdout + r.stderr and "loky" not in r.stdout + r.stderr
    st = json.loads(cli("study", "status", str(path), "--json").stdout)
    # the JSON keys are for scripts: they stay as they were
    assert set(st) == {"name", "method", "units", "done", "failed", "pending", "rows", "running",
                       "failures", "solver_errors", "eta_seconds", "units_word"}
    assert st["done"] == st["units"] == 14 and st["pending"] == 0 and st["failed"] == 0
    assert st["solver_errors"] == 0
    assert st["running"] is False and st["eta_seconds"] == 0.0
    code, text, err, _ = run_cli(["study", "status", str(path)], tmp_path, limit=60)
    assert "compositions: 14 done, 0 to compute, 0 failed, of 14" in text
    assert "time left: none, the study is complete" in text
    assert "rows" not in text and "units" not in text
    code, text, err, _ = run_cli(["study", "status", str(path), "--verbose"], tmp_path, limit=60)
    assert f"rows stored: {st['rows']:,}" in text and "a run's start-up" in text
    top = json.loads(cli("study", "top", str(path), "--n", "3", "--json").stdout)
    assert [t["rank"] for t in top] == [1, 2, 3]
    assert top[0]["fairness"] <= top[1]["fairness"] <= top[2]["fairness"]
    for key in ("bad", "good", "komi", "first_player_win", "fair_komi", "expected_actions",
                "components"):
        assert key in top[0]
    for fmt in ("csv", "parquet"):
        out = tmp_path / f"rows.{fmt}"
        r = cli("study", "export", str(path), "--format", fmt, "--out", str(out))
        assert r.returncode == 0, r.stderr
        df = pd.read_csv(out) if fmt == "csv" else pd.read_parquet(out)
        assert len(df) == st["rows"]
    r = cli("study", "export", str(path), "--format", "xlsx")
    assert r.returncode == 2 and "allowed parquet | csv" in r.stderr
    # without --format a file named .csv holds CSV (not parquet under that name)
    out = tmp_path / "named.csv"
    assert cli("study", "export", str(path), "--out", str(out)).returncode == 0
    assert len(pd.read_csv(out)) == st["rows"]
    r = cli("study", "export", str(path), "--format", "parquet", "--out", str(tmp_path / "x.csv"))
    assert r.returncode == 2 and r.stdout == "" and not (tmp_path / "x.csv").exists()
    assert r.stderr.strip() == (f"designer: error: invalid --out={str(tmp_path / 'x.csv')!r} "
                                "with --format=parquet: allowed a file not named .csv (a "
                                "parquet file)")


def test_flagship_ranks_red_light_first(tmp_path):
    body = (ROOT / "studies" / "red_light.toml").read_text()
    path = write_study(tmp_path, body, name="red_light")
    spec = load_study(path)
    store = open_store(spec)
    run_grid(spec, store)
    from designer.search.ranking import top

    best = top(store.rows(), spec, 1).iloc[0]
    assert (best.bad, best.good, best.goal, best.komi) == (4, 24, 50, 1)
    assert round(100 * best.first_player_win, 3) == 50.001


def _interrupt_then_resume(folder, body):
    """Run the study, Ctrl-C it after a tenth of its designs, read `study
    status`'s time left, time the resume; returns (time left, resume s)."""
    folder.mkdir()
    path = write_study(folder, body, name="red_light")
    spec = load_study(path)
    total = len(units(spec))
    assert total == 435
    code, err = _run_until(path, spec.store_path, total // 10, signal.SIGINT)
    assert code == 130, err
    code, out, err, _ = run_cli(["study", "status", str(path), "--json"], folder, limit=60)
    st = json.loads(out)
    assert total // 10 <= st["done"] < total and st["running"] is False
    code, text, err, _ = run_cli(["study", "status", str(path)], folder, limit=60)
    assert "time left: about" in text and "with 2 parallel processes" in text
    t0 = time.perf_counter()
    r = _cli("study", "resume", str(path))  # from a new process, as a user runs it
    actual = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr
    assert len(open_store(spec).done()) == total
    print(f"time left said {st['eta_seconds']:.1f} s, the resume took {actual:.1f} s")
    return st["eta_seconds"], actual


def test_status_time_left_matches_the_resume(tmp_path):
    """The flagship study, interrupted after its 43 largest designs (a tenth
    of 435, a third of the work): `study status`'s time left is within a
    factor of 2 of the resume's measured wall time (the estimate of median
    seconds per design x designs left was 3 to 4 times too long).

    Reduced copy: goal 30 instead of 50 (the same 435 compositions, a third
    of the work), to keep the test near 20 s on 2 cores; the full study is
    measured by benchmarks/eta.py. Both durations are measured on the same
    machine, but a machine whose load jumps between the first run (which
    calibrates the speed) and the resume makes any estimate wrong: then the
    whole measurement is made once more, and the test fails only if both
    miss. A wrong work model misses every time."""
    body = (ROOT / "studies" / "red_light.toml").read_text()
    assert "goal = 50" in body
    body = body.replace("goal = 50", "goal = 30")
    tries = []
    for attempt in range(2):
        eta, actual = _interrupt_then_resume(tmp_path / f"try{attempt}", body)
        tries.append((round(eta, 1), round(actual, 1)))
        if 0.5 <= eta / actual <= 2.0:
            break
    else:
        raise AssertionError(f"time left (said, took) not within a factor 2: {tries}")


OPTUNA_STUDY = """
[study]
name = "opt"
family = "deck"
method = "optuna"
workers = 1

[space]
bad = {min = 1, max = 3}
good = {min = 2, max = 5}
goal = 6
komi = {min = 0, max = 2}

[objectives]
rank = ["fairness", "expected_actions"]

[optuna]
trials = 25
seed = 1
"""


def test_optuna_study_answers_repeats_from_store(tmp_path):
    from designer.search import optuna_search

    spec = load_study(write_study(tmp_path, OPTUNA_STUDY))
    store = open_store(spec)
    out = optuna_search.run_optuna(spec, store)
    study = optuna_search.load(spec)
    assert optuna_search.counted(study) == 25
    # 12 compositions at most: most of the 25 trials were answered from the store
    assert out["computed"] == len(store.done()) <= 12
    for t in study.trials:
        if t.state.name != "COMPLETE":
            continue
        direct = solve(DeckGame(t.params["bad"], t.params["good"], 6, t.params["komi"]))
        assert t.values[0] == pytest.approx(abs(direct.first_player_win(komi=t.params["komi"]) - 0.5),
                                            abs=1e-12)
    # a trial orphaned by a killed process is failed and its parameters retried
    orphan = study.ask()
    params = {"bad": orphan.suggest_int("bad", 1, 3), "good": orphan.suggest_int("good", 2, 5),
              "komi": orphan.suggest_int("komi", 0, 2)}
    spec2 = load_study(write_study(tmp_path, OPTUNA_STUDY.replace("trials = 25", "trials = 26")))
    out2 = optuna_search.run_optuna(spec2, store)
    assert out2["recovered"] == 1
    study = optuna_search.load(spec2)
    states = [t.state.name for t in study.trials]
    assert "RUNNING" not in states
    assert study.trials[orphan.number].state.name == "FAIL"
    assert any(t.params == params and t.state.name == "COMPLETE"
               for t in study.trials[orphan.number + 1:])


def test_dask_backend_matches_loky(tmp_path):
    distributed = pytest.importorskip("distributed")
    spec = load_study(write_study(tmp_path, SMALL_DECK.format(name="d", workers=2)))
    loky_store = open_store(spec)
    run_grid(spec, loky_store)
    expected = loky_store.rows()
    (tmp_path / "dask").mkdir()
    spec_d = load_study(write_study(tmp_path / "dask", SMALL_DECK.format(name="d", workers=2)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        from designer.search.distributed import connect

        client = connect(cluster.scheduler_address)
        try:
            store = open_store(spec_d)
            out = run_grid(spec_d, store, backend="dask", client=client)
        finally:
            client.close()
    assert out["computed"] == 14
    pd.testing.assert_frame_equal(store.rows(), expected, check_exact=True)


def test_dask_unreachable_scheduler_is_one_line(tmp_path):
    path = write_study(tmp_path, SMALL_DECK.format(name="x", workers=1))
    r = cli("study", "run", str(path), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert r.returncode == 2
    assert "cannot reach the dask scheduler" in r.stderr and "Traceback" not in r.stderr


OPTUNA_KILL = """
[study]
name = "optkill"
family = "deck"
method = "optuna"
workers = 1

[space]
bad = {min = 1, max = 6}
good = {min = 10, max = 45}
goal = 45
komi = {min = 0, max = 4}

[optuna]
trials = 60
seed = 4
"""


def test_optuna_killed_mid_run_then_resumed(tmp_path):
    from designer.search import optuna_search
    from designer.search.families import evaluate_unit, family

    path = write_study(tmp_path, OPTUNA_KILL)
    spec = load_study(path)
    code, err = _run_until(path, spec.store_path, 6, signal.SIGKILL)
    assert code == -signal.SIGKILL
    r = _cli("study", "resume", str(path))
    assert r.returncode == 0, r.stderr
    study = optuna_search.load(spec)
    states = [t.state.name for t in study.trials]
    assert "RUNNING" not in states
    assert optuna_search.counted(study) == 60
    store = open_store(spec)
    df = store.rows()
    assert not df.duplicated(["bad", "good", "goal", "komi"]).any()
    # every stored composition is exactly what a fresh evaluation gives
    args = family("deck").unit_args(spec)
    for (bad, good), part in list(df.groupby(["bad", "good"]))[:4]:
        fresh = pd.DataFrame(evaluate_unit("deck", {"bad": bad, "good": good}, args)["rows"])
        pd.testing.assert_frame_equal(part.reset_index(drop=True)[fresh.columns], fresh,
                                      check_exact=True, check_dtype=False)
    # every completed trial's value is its stored row's fairness
    for t in study.trials:
        if t.state.name == "COMPLETE":
            row = df[(df.bad == t.params["bad"]) & (df.good == t.params["good"])
                     & (df.komi == t.params["komi"])]
            assert t.values[0] == row.fairness.iloc[0]


def test_ctrl_c_swallowed_by_a_finaliser_still_stops_the_run():
    """SIGINT landing in a finaliser is dropped by Python ("Exception
    ignored"); the run's latch raises it again at the next result."""
    from designer.commands._common import CtrlC

    results = []
    # SIGINT deliverable and at Python's default in this process, as in a
    # terminal (see study_helpers.ctrl_c_deliverable: a test process once had it off)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    with CtrlC() as ctrl_c:
        advance = ctrl_c.checked(results.append)
        advance(1)
        try:  # what a finaliser does with the KeyboardInterrupt: nothing
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        except KeyboardInterrupt:
            pass
        with pytest.raises(KeyboardInterrupt):
            advance(2)
    restored = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, before)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    assert results == [1, 2]
    assert restored is signal.default_int_handler
