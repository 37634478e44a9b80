"""Study-level operations used by the command line and the reports."""

from designer.errors import SolverError
from designer.search.eta import estimate
from designer.search.families import units
from designer.search.lock import is_running
from designer.search.spec import StudyError
from designer.search.store import SQLiteStore


def open_store(spec, must_exist=False, readonly=False):
    """The study's results store, bound to ``spec`` (fingerprint checked).

    ``readonly`` (for commands that only read; implies ``must_exist``):
    opened read-only, so nothing is created or changed."""
    store = SQLiteStore(spec.store_path, readonly=readonly)
    if (must_exist or readonly) and not store.exists():
        raise StudyError(f"study {spec.name!r} has no results yet at {spec.store_path}: "
                         f"start it with `designer study run {spec.path}`")
    return store.open(spec)


def open_results(spec):
    """The study's store opened read-only, or None when the study has no
    results yet (never run): nothing is created either way."""
    store = SQLiteStore(spec.store_path, readonly=True)
    if not store.exists():
        return None
    return store.open(spec)


def status(spec, store, prior=None):
    """Progress of a study as a dict.

    ``store`` None: a study never run (nothing done). ``prior``
    (:class:`~designer.search.eta.Trial`): the speed its time left assumes
    while nothing stored calibrates one.

    Keys: ``name``, ``method``, ``units`` (units of work in the space:
    compositions, or designs where each is computed on its own; their name
    is ``units_word``), ``done``,
    ``failed``, ``solver_errors`` (failed designs whose solve hit a
    :class:`~designer.errors.SolverError`), ``pending``, ``rows``, ``running``, ``eta_seconds`` (None
    when unknown: see :mod:`designer.search.eta`), and for optuna studies
    ``trials`` and ``trials_target``.
    """
    total = len(units(spec))
    done = store.done() if store is not None else set()
    failed = store.failed() if store is not None else {}
    from designer.search.families import family_of

    out = {"name": spec.name, "method": spec.method, "units": total, "done": len(done),
           "units_word": family_of(spec).units_word,
           "failed": len(failed), "pending": max(0, total - len(done) - len(failed)),
           "rows": int(len(store.rows())) if store is not None else 0,
           "running": is_running(spec),
           "failures": dict(list(failed.items())[:5]),
           # the solver's own failures: bugs to report, not designs to avoid
           "solver_errors": sum(str(e).startswith(SolverError.__name__) for e in failed.values())}
    if spec.method == "grid":
        # the designs a plain `resume` computes: failed ones are skipped
        out["eta_seconds"] = estimate(spec, store, running=out["running"], prior=prior).seconds
    else:
        from designer.search import optuna_search

        out["trials"] = (optuna_search.trials_done(spec, store)
                         if store is not None or spec.optuna_storage else 0)
        out["trials_target"] = spec.trials
        # an optuna study is done when its trials are, not when every unit is
        out["pending_trials"] = max(0, spec.trials - out["trials"])
        out["eta_seconds"] = None  # depends on how many trials hit stored units
    return out


def export(spec, store, fmt, out=None):
    """Write every stored row to parquet or CSV; returns the path."""

    if fmt not in ("parquet", "csv"):
        raise StudyError(f"invalid --format={fmt!r}: allowed parquet | csv")
    if out:
        from designer.paths import make_dirs, output_file

        path = output_file(out)  # the user's own path (a missing folder only under cwd)
        make_dirs(path.parent)
    else:
        path = spec.results_dir / f"{spec.name}.{fmt}"  # the store's folder exists
    df = store.rows()
    if fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    return path
