"""One running process per study on a machine, and a way to know none is.

The lock is an ``flock`` on ``<results>/run.lock``: the kernel releases it
when the holder dies, even by SIGKILL, so a later ``resume`` can tell that
RUNNING work left behind has no live owner.
"""

import fcntl
import os

from designer.search.spec import StudyError


class StudyLock:
    """Context manager holding the study's run lock (non-blocking)."""

    def __init__(self, spec):
        self.spec = spec
        self.path = spec.results_dir / "run.lock"
        self._fh = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "a+")
        try:
            fcntl.flock(self._fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._fh.seek(0)
            pid = self._fh.read().strip() or "?"
            self._fh.close()
            raise StudyError(f"study {self.spec.name!r} is being run by another process "
                             f"(pid {pid}); wait for it or stop it first") from None
        self._fh.seek(0)
        self._fh.truncate()
        self._fh.write(str(os.getpid()))
        self._fh.flush()
        return self

    def __exit__(self, *exc):
        fcntl.flock(self._fh, fcntl.LOCK_UN)
        self._fh.close()
        return False


def is_running(spec):
    """True if a live process holds the study's run lock."""
    path = spec.results_dir / "run.lock"
    if not path.exists():
        return False
    with open(path) as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False
