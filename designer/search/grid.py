"""The grid method: every unit of the space, in parallel, each committed
to the store the moment it finishes.

Units are dispatched with joblib (``return_as="generator_unordered"``), so
results arrive as they finish; the parent process is the only writer of the
store. An interrupted run loses only the units that were in flight; running
again (``resume``) skips every unit already done.

Failures (see :mod:`designer.search.failures`): a unit whose evaluation
raises is stored as failed with its reason and the run goes on. A worker
process that dies breaks joblib's pool; then the units that were in flight
(handed to the pool, not returned) are run again one at a time, each in a
fresh one-process pool, so exactly the unit that kills its process is
recorded as failed, and the remaining units continue in parallel. Failed
units are skipped by later runs unless ``retry_failed`` is set.
"""

import time
from dataclasses import dataclass

from joblib import Parallel, delayed, parallel_config

from designer.search.eta import note_run
from designer.search.failures import evaluate_safely, failed_result
from designer.search.families import family_of, unit_key, units, warm


@dataclass(frozen=True)
class GridPlan:
    """What a run will do: all units, and the ones still to compute."""

    total: int
    pending: tuple
    failed_before: int


def plan(spec, store, retry_failed=False):
    """Units still to compute; failed ones only with ``retry_failed``."""
    everything = units(spec)
    skip = store.done() if retry_failed else store.done() | set(store.failed())
    pending = tuple(u for u in everything if unit_key(u) not in skip)
    return GridPlan(len(everything), pending, len(store.failed()))


def _pool_broken_errors():
    """Exceptions by which a pool reports a dead worker process."""
    from concurrent.futures.process import BrokenProcessPool

    from joblib.externals.loky.process_executor import TerminatedWorkerError

    errors = [TerminatedWorkerError, BrokenProcessPool]
    try:
        from distributed.scheduler import KilledWorker

        errors.append(KilledWorker)
    except ImportError:  # dask is optional
        pass
    return tuple(errors)


class _Isolator:
    """Runs units one at a time in a fresh one-process pool (loky's own
    executor, not joblib's shared one); a pool whose process died is replaced
    before the next unit."""

    def __init__(self):
        self.pool = None

    def run(self, family_name, unit, args):
        from joblib.externals.loky import ProcessPoolExecutor

        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1)
        try:
            return self.pool.submit(evaluate_safely, family_name, unit, args).result()
        except _pool_broken_errors() as exc:
            self.close()
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return failed_result(unit, "the worker process died (killed, or out of memory): "
                                       f"{type(exc).__name__} {first}")

    def close(self):
        if self.pool is not None:
            self.pool.shutdown(wait=True, kill_workers=True)
            self.pool = None


def run_grid(spec, store, *, workers=None, backend="loky", client=None, on_result=None,
             retry_failed=False, started=None):
    """Compute the pending units of ``spec`` and commit each to ``store``.

    Parameters
    ----------
    workers : int, optional
        Parallel processes (default: the study's ``workers``).
    backend : {"loky", "dask"}
        joblib backend; ``"dask"`` needs ``client`` (see
        :func:`designer.search.distributed.connect`).
    on_result : callable, optional
        Called as ``on_result(result)`` after each unit is committed (the
        command layer drives its progress bar with it).
    retry_failed : bool
        Also run the units that failed in earlier runs.
    started : float, optional
        When the run began (``time.time()``; default: now), noted in the
        store so that :mod:`designer.search.eta` can measure the start-up
        of a run (the command passes its own start, imports included).

    Returns
    -------
    dict
        ``computed``, ``failed`` counts for this run.
    """
    p = plan(spec, store, retry_failed)
    args = family_of(spec).unit_args(spec)
    counts = {"computed": 0, "failed": 0}
    if not p.pending:
        return counts
    note_run(store, time.time() if started is None else started)
    warm(spec.family)
    n_jobs = workers or spec.workers

    def record(result):
        if result["error"] is None:
            store.commit_unit(result)
            counts["computed"] += 1
        else:
            store.mark_failed(result)
            counts["failed"] += 1
        if on_result is not None:
            on_result(result)

    if n_jobs == 1 and backend != "dask":  # no pool for one worker
        for u in p.pending:
            record(evaluate_safely(spec.family, u, args))
        return counts

    pending = list(p.pending)
    while pending:
        handed, returned = [], set()

        def tasks(batch=pending, handed=handed):
            for u in batch:
                handed.append(u)  # joblib pulls tasks as it dispatches them
                yield delayed(_one_thread_unit)(spec.family, u, args)

        config = (parallel_config(backend="dask", n_jobs=-1) if backend == "dask"
                  else parallel_config(backend="loky", n_jobs=n_jobs))
        try:
            with config:
                for result in Parallel(return_as="generator_unordered",
                                       pre_dispatch="2*n_jobs")(tasks()):
                    returned.add(result["key"])
                    record(result)
            pending = []
        except _pool_broken_errors():
            in_flight = [u for u in list(handed) if unit_key(u) not in returned]
            started = {unit_key(u) for u in handed}
            isolator = _Isolator()
            try:
                for u in in_flight:  # find the culprit: one unit at a time
                    record(isolator.run(spec.family, u, args))
            finally:
                isolator.close()
            pending = [u for u in pending if unit_key(u) not in started]
    return counts


def _one_thread_unit(family_name, unit, args):
    """:func:`evaluate_safely` in a pool worker: numba kernels on one thread
    there, so that ``workers`` processes do not oversubscribe the cores."""
    from designer._jit import single_thread

    single_thread()
    return evaluate_safely(family_name, unit, args)
