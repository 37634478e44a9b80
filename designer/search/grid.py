"""The grid method: every unit of the space, in parallel, each committed
to the store the moment it finishes.

Units are dispatched with joblib (``return_as="generator_unordered"``), so
results arrive as they finish; the parent process is the only writer of the
store. An interrupted run loses only the units that were in flight; running
again (``resume``) skips every unit already done.
"""

from dataclasses import dataclass

from joblib import Parallel, delayed, parallel_config

from designer.search.families import evaluate_unit, family, unit_key, units, warm


@dataclass(frozen=True)
class GridPlan:
    """What a run will do: all units, and the ones still to compute."""

    total: int
    pending: tuple
    failed_before: int


def plan(spec, store):
    """Units still to compute (failed ones are retried)."""
    everything = units(spec)
    done = store.done()
    pending = tuple(u for u in everything if unit_key(u) not in done)
    return GridPlan(len(everything), pending, len(store.failed()))


def run_grid(spec, store, *, workers=None, backend="loky", client=None, on_result=None):
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

    Returns
    -------
    dict
        ``computed``, ``failed`` counts for this run.
    """
    p = plan(spec, store)
    args = family(spec.family).unit_args(spec)
    computed = failed = 0
    if not p.pending:
        return {"computed": 0, "failed": 0}
    warm(spec.family)
    n_jobs = workers or spec.workers
    if backend == "dask":
        config = parallel_config(backend="dask", n_jobs=-1)
    else:
        config = parallel_config(backend="loky", n_jobs=n_jobs)
    tasks = (delayed(evaluate_unit)(spec.family, u, args) for u in p.pending)
    with config:
        if n_jobs == 1 and backend != "dask":
            results = (t[0](*t[1], **t[2]) for t in tasks)  # no pool for one worker
        else:
            results = Parallel(return_as="generator_unordered", pre_dispatch="2*n_jobs")(tasks)
        for result in results:
            if result["error"] is None:
                store.commit_unit(result)
                computed += 1
            else:
                store.mark_failed(result)
                failed += 1
            if on_result is not None:
                on_result(result)
    return {"computed": computed, "failed": failed}
