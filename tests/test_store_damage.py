"""Damaged stores and commands that only read.

A truncated or garbled store, a store that is a folder, hand-edited tables
(a table dropped, text or NULL where numbers belong): every command ends
in one line naming the store and what to do, exit status 2, and changes
nothing. The commands that only read (status, top, export, report) open
the store read-only: an intact store's file is not touched either.
"""

import shutil
import sqlite3
import subprocess
import sys

import pytest

from fuzz_cases import run_cli
from study_helpers import SMALL_DECK, write_study


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A small study finished by a real run, so its store is at rest as a
    user finds it (its process gone, the write-ahead log folded into the
    file); tests work on copies of its folder."""
    root = tmp_path_factory.mktemp("finished")
    path = write_study(root, SMALL_DECK.format(name="dmg", workers=1))
    run = subprocess.run([sys.executable, "-m", "designer", "study", "run", str(path)],
                         capture_output=True, text=True, cwd=root, timeout=300)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (root / "small.results").iterdir()) == ["run.lock", "store.sqlite"]
    return root


def _copy(finished, tmp_path):
    shutil.copytree(finished, tmp_path, dirs_exist_ok=True)
    return tmp_path / "small.toml", tmp_path / "small.results" / "store.sqlite"


def _snapshot(folder):
    return {p.relative_to(folder): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def _edit(store, sql):
    con = sqlite3.connect(store)
    with con:
        con.execute(sql)
    con.close()


def _truncate(store):
    data = store.read_bytes()
    store.write_bytes(data[: len(data) // 2])


def _garble(store):
    data = bytearray(store.read_bytes())
    data[:16] = b"not a database!!"
    store.write_bytes(bytes(data))


def _folder(store):
    store.unlink()
    store.mkdir()


DAMAGE = {
    "truncated": (_truncate, "is damaged"),
    "garbled header": (_garble, "is damaged (file is not a database)"),
    "a folder": (_folder, "cannot be opened"),
    "rows dropped": (lambda s: _edit(s, "DROP TABLE designer_rows"),
                     "is damaged (table designer_rows missing)"),
    "units dropped": (lambda s: _edit(s, "DROP TABLE designer_units"),
                      "is damaged (table designer_units missing)"),
    "identity gone": (lambda s: _edit(s, "DELETE FROM designer_meta"),
                      "is damaged (the study's identity (designer_meta) is gone)"),
    "text for a number": (lambda s: _edit(s, "UPDATE designer_rows SET first_player_win = 'x' "
                                             "WHERE rowid = 3"),
                          "column first_player_win of designer_rows holds values that are not "
                          "numbers"),
    "no goal": (lambda s: _edit(s, "UPDATE designer_rows SET goal = NULL WHERE rowid = 1"),
                "column goal of designer_rows holds values that are not numbers"),
}

COMMANDS = [("study", "status"), ("study", "status", "--json"), ("study", "top"),
            ("study", "top", "--json"), ("study", "export", "--format", "csv"),
            ("report",), ("study", "resume")]


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_damaged_store_is_one_line_and_left_as_it_is(finished, tmp_path, damage, command):
    study, store = _copy(finished, tmp_path)
    spoil, words = DAMAGE[damage]
    spoil(store)
    before = _snapshot(tmp_path)
    argv = [*command[:2], str(study), *command[2:]] if command[0] == "study" else \
        ["report", str(study), "--out", str(tmp_path / "rep"), "--no-card", "--quiet"]
    code, out, err, _ = run_cli(argv, tmp_path)
    assert code == 2, (code, out, err)
    assert err.startswith(f"designer: error: the results store {store} ")
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert _snapshot(tmp_path) == before  # nothing repaired, created or written


@pytest.mark.parametrize("command", COMMANDS[:5], ids=" ".join)
def test_reading_commands_leave_an_intact_store_untouched(finished, tmp_path, command):
    study, store = _copy(finished, tmp_path)
    before = _snapshot(tmp_path / "small.results")
    code, out, err, _ = run_cli([*command[:2], str(study), *command[2:]], tmp_path)
    assert code == 0, err
    after = _snapshot(tmp_path / "small.results")
    if command[1] == "export":  # its one output, beside the store by default
        assert after.pop(store.parent.relative_to(tmp_path / "small.results") / "dmg.csv") > b""
    assert after == before
