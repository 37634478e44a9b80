"""One running process per study on a machine, and a way to know none is.

The lock is a :class:`filelock.FileLock` on ``<results>/run.lock``: on every
platform it is an operating-system lock (``flock`` on Unix, ``msvcrt`` on
Windows) that the system releases when the holder dies, even by SIGKILL, so a
later ``resume`` can tell that RUNNING work left behind has no live owner.
The holder writes its pid to ``<results>/run.pid`` for the message a second
process gets (not to the lock file, which the library owns).
"""

import os

from filelock import FileLock, Timeout

from designer.search.spec import StudyError


def _paths(spec):
    return spec.results_dir / "run.lock", spec.results_dir / "run.pid"


class StudyLock:
    """Context manager holding the study's run lock (non-blocking)."""

    def __init__(self, spec):
        self.spec = spec
        self.path, self.pid_path = _paths(spec)
        self._lock = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            try:
                pid = self.pid_path.read_text().strip() or "?"
            except OSError:
                pid = "?"
            raise StudyError(f"study {self.spec.name!r} is being run by another process "
                             f"(pid {pid}); wait for it or stop it first") from None
        self._lock = lock
        self.pid_path.write_text(str(os.getpid()))
        return self

    def __exit__(self, *exc):
        try:
            self.pid_path.unlink(missing_ok=True)
        finally:
            self._lock.release()
        return False


def is_running(spec):
    """True if a live process holds the study's run lock."""
    path, _ = _paths(spec)
    if not path.exists():
        return False
    lock = FileLock(path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return True
    lock.release()
    return False
