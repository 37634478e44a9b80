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


def lock_paths(spec):
    """The run lock and the pid file beside it."""
    return spec.results_dir / "run.lock", spec.results_dir / "run.pid"


class StudyLock:
    """Context manager holding the study's run lock (non-blocking)."""

    def __init__(self, spec):
        self.spec = spec
        self.path, self.pid_path = lock_paths(spec)
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
    """True if a live process holds the study's run lock.

    Asked without writing anything: the lock file is opened read-only and
    probed with a shared ``flock``, which an exclusive lock held by a
    running study refuses (so ``status`` works in a folder the user may
    only read). Where ``fcntl`` is missing (Windows) the lock is probed by
    taking it.
    """
    path, _ = lock_paths(spec)
    if not path.exists():
        return False
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        lock = FileLock(path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return True
        lock.release()
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise StudyError(f"cannot read the run lock {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases a shared lock taken here
    return False
