"""The optuna method: a sampler proposes designs, the store answers them.

The optuna study lives in an RDB storage (by default the study's own SQLite
file; any optuna storage URL works, e.g. PostgreSQL shared by several
machines, each running ``designer study run``). A trial proposes a design;
if its unit (composition) is already in the results store the row is read
from there, otherwise the unit is solved once and its whole goal x komi
plane committed, so repeated configurations are never solved again.

Trials left RUNNING by a killed process: on a local SQLite storage the run
lock (:mod:`designer.search.lock`) proves no other process is running the
study, so they are failed and their parameters re-enqueued at once; on a
shared storage the heartbeat marks them stale after ``[optuna] grace``
seconds (default :data:`GRACE`) and
:class:`optuna.storages.RetryHeartbeatStaleTrialCallback` retries them.
"""

import os
import socket
import threading
import time

from designer.errors import DesignError
from designer.search.failures import evaluate_safely, injected
from designer.search.families import family_of, unit_key, warm, within

#: Default seconds without a heartbeat before a trial counts as dead (a
#: study file may set ``[optuna] grace``); heartbeats come every grace / 4 s.
GRACE = 20


def storage_url(spec):
    """The optuna storage URL of a study."""
    return spec.optuna_storage or f"sqlite:///{spec.store_path}"


def _storage(spec, url=None):
    import warnings

    import optuna

    url = url or storage_url(spec)
    grace = getattr(spec, "optuna_grace", GRACE)
    # Heartbeats are "experimental" in optuna's terms; they are what makes
    # killed trials recoverable on shared storages, so we use them knowingly.
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    warnings.filterwarnings("ignore", message="Heartbeat of storage is supposed")
    # Several machines starting at once on a fresh database race to create
    # optuna's tables; the loser gets a unique-key violation. The tables
    # exist by then, so opening again succeeds: retry a few times.
    for attempt in range(4):
        try:
            return optuna.storages.RDBStorage(
                url, heartbeat_interval=max(1, grace // 4), grace_period=grace,
                heartbeat_stale_trial_callback=optuna.storages.RetryHeartbeatStaleTrialCallback(3))
        except Exception as exc:  # noqa: BLE001 - bad URL, missing driver, unreachable server
            error = exc
            if attempt < 3 and "already exists" in str(exc):
                time.sleep(0.5 * (attempt + 1))
                continue
            break
    raise DesignError(f"cannot open the optuna storage {url!r}: "
                      f"{' '.join(str(error).split())[:300]}") from None


def load(spec):
    """Create (once) or load the optuna study of ``spec``."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directions = [("minimize" if o.direction == "min" else "maximize") for o in spec.objectives]
    return optuna.create_study(study_name=spec.name, storage=_storage(spec),
                               directions=directions, load_if_exists=True,
                               sampler=optuna.samplers.TPESampler(seed=spec.seed))


def trials_done(spec, store):
    """Trials that count towards the budget, read without writing anything.

    The study's own SQLite storage (the results store) is opened read-only,
    as the store itself is; a storage URL of the user's is only read. A
    study that optuna does not know yet has run no trial.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    url = None if spec.optuna_storage else "sqlite:///" + store.read_only_uri() + "&uri=true"
    storage = _storage(spec, url)
    try:
        study = optuna.load_study(study_name=spec.name, storage=storage)
    except KeyError:  # optuna's "no such study"
        return 0
    return counted(study)


def recover(study, local):
    """Fail trials left RUNNING by dead processes and retry their parameters.

    ``local`` is True when the caller holds the run lock on a storage no
    other machine uses: then every RUNNING trial is orphaned.
    """
    import optuna
    from optuna.trial import TrialState

    if not local:
        optuna.storages.fail_stale_trials(study)
        return 0
    n = 0
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(t.number, state=TrialState.FAIL)
        study.enqueue_trial(t.params, skip_if_exists=False)
        n += 1
    return n


def counted(study):
    """Trials that count towards the budget (complete or pruned)."""
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def _suggest(trial, name, values):
    v = tuple(values)
    if len(v) == 1:
        return v[0]
    if list(v) == list(range(v[0], v[-1] + 1)):
        return trial.suggest_int(name, v[0], v[-1])
    return trial.suggest_categorical(name, list(v))


class _QuietCtrlC:
    """A logging filter for optuna's logger: Ctrl-C is not a failed trial.

    optuna logs the trial that Ctrl-C stopped as a failure, with a full
    traceback, and then its value; the command then says in one line that
    it was interrupted and how to resume. From the first record that
    carries a ``KeyboardInterrupt`` on, optuna's warnings of this run are
    dropped (the run is ending)."""

    def __init__(self):
        self.interrupted = False

    def filter(self, record):
        if record.exc_info and isinstance(record.exc_info[1], KeyboardInterrupt):
            self.interrupted = True
        return not self.interrupted


def make_objective(spec, store, solved_here):
    """The objective function: propose, answer from the store or solve."""
    import optuna

    lock = threading.Lock()
    # which machine and process ran each trial (a user attribute), so that
    # a shared study shows who ran what, and whose trials a dead machine left
    machine = f"{socket.gethostname()}:{os.getpid()}"
    fam = family_of(spec)
    args = fam.unit_args(spec)
    comp = spec.constraints.get("components", {})

    def objective(trial):
        trial.set_user_attr("machine", machine)
        params = {p: _suggest(trial, p, spec.space[p]) for p in spec.space}
        if "komi" in params and params["komi"] >= params["goal"]:
            raise optuna.TrialPruned("komi must be below the goal")
        unit = {p: params[p] for p in fam.unit_params()}
        unit.update({k: list(v) for k, v in spec.fixed.items()})
        if not within(fam.components(unit), comp):
            raise optuna.TrialPruned("outside the components constraint")
        key = unit_key(unit)
        if injected(unit) == "slow":  # tests: a trial answered from the store lasts too
            time.sleep(0.3)
        with lock:
            known = key in store.done()
        if not known:
            result = evaluate_safely(spec.family, unit, args)
            with lock:
                if result["error"] is not None:
                    store.mark_failed(result)
                    raise DesignError(result["error"])
                store.commit_unit(result)
                solved_here.append(key)
        with lock:
            rows = store.unit_rows(key)
        for p in fam.plane:
            rows = rows[rows[p] == params[p]]
        row = rows.iloc[0]
        for c in fam.stored:
            trial.set_user_attr(c, float(row[c]))
        violations = []
        for metric, bounds in spec.constraints.items():
            if metric == "components" or metric not in row:
                continue
            if "min" in bounds:
                violations.append(bounds["min"] - float(row[metric]))
            if "max" in bounds:
                violations.append(float(row[metric]) - bounds["max"])
        if violations:
            trial.set_constraint(violations)
        return tuple(float(row[o.metric]) for o in spec.objectives)

    return objective


def run_optuna(spec, store, *, workers=None, local=True, on_trial=None):
    """Run trials until the study holds ``spec.trials`` counted trials.

    Returns
    -------
    dict
        ``computed`` (units solved in this run), ``trials`` (run now),
        ``recovered`` (orphaned trials retried).
    """
    import optuna

    warm(spec.family)
    study = load(spec)
    recovered = recover(study, local)
    # trials enqueued for retry (of a killed process) are run even when the
    # budget is met, so no trial is lost
    from optuna.trial import TrialState

    waiting = len(study.get_trials(deepcopy=False, states=(TrialState.WAITING,)))
    remaining = max(spec.trials - counted(study), waiting)
    solved = []
    if remaining <= 0:
        return {"computed": 0, "trials": 0, "recovered": recovered}
    callbacks = []
    if counted(study) < spec.trials:  # (only retries left: n_trials bounds the run)
        callbacks.append(optuna.study.MaxTrialsCallback(
            spec.trials, states=(optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)))
    if on_trial is not None:
        callbacks.append(lambda st, tr: on_trial(tr))
    before = len(study.trials)
    # records of optuna's modules reach the handlers of the "optuna" logger
    # (a filter on that logger itself would not see them)
    quiet, handlers = _QuietCtrlC(), optuna.logging.get_logger("optuna").handlers
    for h in handlers:
        h.addFilter(quiet)
    try:
        study.optimize(make_objective(spec, store, solved), n_trials=remaining,
                       n_jobs=workers or spec.workers, callbacks=callbacks,
                       catch=(DesignError,), show_progress_bar=False)
    finally:
        for h in handlers:
            h.removeFilter(quiet)
    return {"computed": len(solved), "trials": len(study.trials) - before, "recovered": recovered}


