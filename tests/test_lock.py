"""The study run lock (filelock): one holder at a time, the holder's pid in the
refusal, and a lock held by a SIGKILLed process is free again, so a resume
knows that the RUNNING work left behind has no owner."""

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from designer.search.lock import StudyLock, is_running
from designer.search.spec import StudyError

HOLDER = """
import sys
from pathlib import Path
from types import SimpleNamespace
from designer.search.lock import StudyLock
spec = SimpleNamespace(name="s", results_dir=Path(sys.argv[1]))
with StudyLock(spec):
    print("locked", flush=True)
    sys.stdin.readline()  # hold until told (or killed)
print("released", flush=True)
"""


def _holder(results):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(results)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "locked"
    return p


def test_one_holder_and_release(tmp_path):
    spec = SimpleNamespace(name="s", results_dir=tmp_path / "res")
    assert not is_running(spec)  # no lock file yet: nothing written either
    assert not (tmp_path / "res").exists()
    p = _holder(spec.results_dir)
    try:
        assert is_running(spec)
        with pytest.raises(StudyError, match=rf"being run by another process \(pid {p.pid}\)"):
            with StudyLock(spec):
                pass
        p.stdin.write("\n")
        p.stdin.flush()
        assert p.stdout.readline().strip() == "released"
        assert p.wait(timeout=60) == 0
    finally:
        p.kill()
    assert not is_running(spec)
    with StudyLock(spec):
        assert is_running(spec)  # a second lock object, even in this process, sees it
    assert not is_running(spec)


def test_sigkilled_holder_leaves_the_lock_free(tmp_path):
    spec = SimpleNamespace(name="s", results_dir=tmp_path)
    p = _holder(tmp_path)
    assert is_running(spec)
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=60)
    assert not is_running(spec)
    with StudyLock(spec):
        pass
