"""A study run that fails leaves no file behind; Ctrl-C in an optuna study
is one line; status reads an optuna study without writing.

Through the command line, in this process (``cli``) or, where a signal is
the point, in a real process.
"""

import hashlib
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from cli_runner import cli
from designer.search import load_study
from study_helpers import ctrl_c_deliverable, write_study

OPTUNA = """
[study]
name = "opt"
family = "deck"
method = "optuna"
workers = 1

[space]
bad = {{min = 1, max = 3}}
good = {{min = 2, max = 6}}
goal = 8
komi = [0, 1]

[optuna]
trials = {trials}
seed = 3
{storage}
"""

#: Storages that cannot be opened: no server, a folder that does not exist,
#: a driver that is not installed.
BAD_STORAGES = ["postgresql://nobody@127.0.0.1:1/none", "sqlite:////nonexistent/folder/x.db",
                "mysql://nobody@127.0.0.1:1/none"]


def _tree(folder):
    """Every path under ``folder`` with a digest of each file's bytes."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest()
                                         if p.is_file() else "folder")
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("url", BAD_STORAGES, ids=["postgresql", "sqlite", "mysql"])
def test_a_storage_that_cannot_be_opened_leaves_nothing_behind(tmp_path, url, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_study(tmp_path, OPTUNA.format(trials=3, storage=f"storage = '{url}'"))
    before = _tree(tmp_path)
    r = cli("study", "run", str(path))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("designer: error: cannot open the optuna "
                                                   "storage"), r.stderr
    assert _tree(tmp_path) == before  # no results folder, no store, no run lock


def test_a_failing_run_keeps_a_study_that_has_results(tmp_path, monkeypatch):
    """The study's folder already holds results (and a file of the user's):
    a later run that fails removes none of it."""
    monkeypatch.chdir(tmp_path)
    path = write_study(tmp_path, OPTUNA.format(trials=3, storage=""))
    assert cli("study", "run", str(path)).returncode == 0
    spec = load_study(path)
    (spec.results_dir / "notes.txt").write_text("mine")
    before = _tree(tmp_path)
    path.write_text(OPTUNA.format(trials=3, storage=f"storage = '{BAD_STORAGES[0]}'"))
    r = cli("study", "run", str(path))
    assert r.returncode == 2 and "cannot open the optuna storage" in r.stderr
    after = _tree(tmp_path)
    del before[path.name], after[path.name]  # the study file was edited above
    assert after == before


def test_a_failing_run_in_an_existing_folder_removes_only_its_own_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_study(tmp_path, OPTUNA.format(trials=3, storage=f"storage = '{BAD_STORAGES[1]}'"))
    spec = load_study(path)
    spec.results_dir.mkdir()
    (spec.results_dir / "notes.txt").write_text("mine")
    before = _tree(tmp_path)
    assert cli("study", "run", str(path)).returncode == 2
    assert _tree(tmp_path) == before


def test_status_of_an_optuna_study_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_study(tmp_path, OPTUNA.format(trials=4, storage=""))
    assert cli("study", "run", str(path)).returncode == 0
    before = _tree(tmp_path)
    r = cli("study", "status", str(path), "--json")
    assert r.returncode == 0, r.stderr
    assert '"trials": 4' in r.stdout
    assert _tree(tmp_path) == before


SLOW_OPTUNA = OPTUNA.replace("max = 3}}", "max = 6}}").replace("max = 6}}\ngoal", "max = 30}}\ngoal")


def _interrupt(path):
    """Run the study in a real process, Ctrl-C it a few trials in."""
    proc = subprocess.Popen([sys.executable, "-m", "designer", "study", "run", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=path.parent, start_new_session=True, preexec_fn=ctrl_c_deliverable)
    store = load_study(path).store_path
    deadline = time.time() + 120
    # wait for a trial to run (imports and kernel loading come first, and
    # take seconds more on a loaded machine), then land inside it (0.3 s)
    while _running_trials(store) == 0 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)
    assert proc.poll() is None, "the study finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, err


def _running_trials(store):
    """Trials the study's store shows running (0 before the store exists)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store.resolve().as_uri() + "?mode=ro", uri=True) as con:
            return con.execute("SELECT count(*) FROM trials WHERE state = 'RUNNING'").fetchone()[0]
    except sqlite3.Error:  # the store is being created
        return 0


def _stopped_trials(path):
    """Trials that optuna marked failed: Ctrl-C landed inside them."""
    uri = load_study(path).store_path.resolve().as_uri() + "?mode=ro"
    with sqlite3.connect(uri, uri=True) as con:
        return con.execute("SELECT count(*) FROM trials WHERE state = 'FAIL'").fetchone()[0]


def test_ctrl_c_in_an_optuna_study_is_one_line_and_resumes(tmp_path, monkeypatch):
    """Ctrl-C lands inside a trial (each design takes 0.3 s longer here):
    optuna's own report of the stopped trial, a traceback, is not shown.
    A Ctrl-C that lands between two trials proves nothing, so the run is
    resumed and interrupted again until one lands inside (at most 4 times)."""
    monkeypatch.setenv("DESIGNER_INJECT_FAILURE", "slow:")
    path = write_study(tmp_path, SLOW_OPTUNA.format(trials=30, storage=""))
    for _ in range(4):
        code, err = _interrupt(path)
        assert code == 130, err
        for noise in ("Traceback", "KeyboardInterrupt", "failed with", "[W "):
            assert noise not in err, err
        assert "designer study resume" in err
        if _stopped_trials(path):
            break
    else:
        pytest.fail("no Ctrl-C landed inside a trial in 4 runs")
    r = cli("study", "resume", str(path), limit=300)
    assert r.returncode == 0, r.stderr
    r = cli("study", "status", str(path), "--json")
    assert '"trials": 30' in r.stdout
