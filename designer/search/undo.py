"""Leave no file behind when a study run fails before it stores anything.

A run creates the study's folder, its results store and its run lock before
it knows whether the run can go on: an optuna storage that cannot be
opened, a cluster that goes away or a bad design space is found only later.
A run that ends in such an error, with nothing stored, removes what it
created, so that the folder looks as it did before the command.
"""

import contextlib

from designer.search.lock import lock_paths
from designer.search.spec import StudyError

#: What SQLite adds beside a store in write-ahead-log mode.
_SIDE_FILES = ("-wal", "-shm", "-journal")


def _own_files(spec):
    store = spec.store_path
    return [store, *(store.with_name(store.name + s) for s in _SIDE_FILES), *lock_paths(spec)]


@contextlib.contextmanager
def created_files_undone(spec, store=None):
    """Remove the study files this block created if it raises an error
    while the store holds no result.

    Parameters
    ----------
    spec : StudySpec
    store : callable, optional
        Returns the open store (or None): its connection is closed before
        the files go, and a store that holds any result (a design computed
        or failed) keeps everything.

    Notes
    -----
    Ctrl-C is not an error here: an interrupted run keeps its files so that
    ``resume`` knows the study.
    """
    folder_existed = spec.results_dir.exists()
    existed = {p for p in _own_files(spec) if p.exists()}
    try:
        yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        if _holds_results(store):
            raise
        for p in _own_files(spec):
            if p not in existed:
                p.unlink(missing_ok=True)
        if not folder_existed:
            # only if nothing else was put there (never a user's file)
            with contextlib.suppress(OSError):
                spec.results_dir.rmdir()
        raise


def _holds_results(store):
    """True if the store holds a result (or cannot be read: then keep it);
    otherwise its connection is closed so that its files can go."""
    opened = store() if store is not None else None
    if opened is None:
        return False
    try:
        held = bool(opened.done() or opened.failed())
    except StudyError:
        return True
    opened.close()
    return held
