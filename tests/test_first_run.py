"""The line a first run prints at a terminal while numba compiles."""

import os
import re
import sys
import time

import pytest
from cli_runner import cli

from designer import first_run
from designer.games import DiceGame
from designer.solve import solve
from designer.first_run import first_call, on_first_compile


@pytest.fixture
def heard(monkeypatch):
    """The notices said, with a notice after 0.05 s."""
    said = []
    monkeypatch.setattr(first_run, "NOTICE_AFTER", 0.05)
    on_first_compile(lambda: said.append(time.monotonic()))
    yield said
    on_first_compile(None)


def test_a_long_warm_up_is_announced_once(heard):
    with first_call():
        time.sleep(0.3)
    assert len(heard) == 1
    with first_call():  # a second compile in the same run says nothing more
        time.sleep(0.3)
    assert len(heard) == 1


def test_a_quick_warm_up_says_nothing(heard):
    with first_call():
        pass
    time.sleep(0.2)  # the timer was cancelled, not only late
    assert heard == []


def test_nothing_is_said_without_a_listener(monkeypatch):
    monkeypatch.setattr(first_run, "NOTICE_AFTER", 0.0)
    on_first_compile(None)
    with first_call():
        time.sleep(0.1)  # nothing to call: no error, no output


def test_the_command_line_listens_only_at_a_terminal(capsys):
    # the tests' stderr is not a terminal: output stays exactly the command's
    r = cli("solve", "piglet", "--goal", "2", "--json")
    assert r.returncode == 0 and r.stderr == ""
    assert first_run._notice["say"] is None


def test_a_first_run_at_a_terminal_says_it_compiles(tmp_path):
    """A fresh numba cache, a terminal: the notice, then the answer; the
    second run loads the kernels from the cache and says nothing. (The
    first run gives the notice after 0.5 s, not 3 s, so that it does not
    depend on how fast this machine compiles; the second keeps 3 s.)"""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "100"}
    command = ["solve", "dice", "--faces", "3", "--goal", "4"]
    soon = ("import sys; from designer import cli, first_run; first_run.NOTICE_AFTER = 0.5; "
            f"sys.exit(cli.main({command!r}))")
    outs = []
    for argv in (["-c", soon], ["-m", "designer", *command]):
        child = pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8", timeout=240,
                              cwd=str(tmp_path))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before
        outs.append(re.sub(r"\x1b\[[0-9;]*m", "", child.before))  # no colours
    first, second = outs
    assert "compiling the solver for this kind of game" in first
    assert first.count("compiling the solver") == 1
    assert "compiling" not in second
    # the answer follows the notice, and is the one the second run gives
    want = f"first player wins {solve(DiceGame(3, 4)).first_player_win():.4%}"
    for out in outs:
        assert want in out
    assert first.index("compiling the solver") < first.index("first player wins")
