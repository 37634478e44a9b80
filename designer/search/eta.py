"""Time left in a study, from the work left rather than the designs left.

The designs of a study differ hugely in size: a 10 bad / 39 good deck to 50
sweeps 15 million states, a 1 / 3 deck 25 thousand. The grid starts the big
ones first, so after an interruption the designs left are the small ones,
and "median seconds per design x designs left" overshoots many times over.

Model
-----
Each design ``u`` has a predicted work :math:`W_u`, computed from its
parameters before solving (:meth:`designer.search.families.Family.work`:
the states its solve sweeps, weighted by their outcomes). Its measured
solve time is :math:`s_u` (stored with every design). The machine's speed
is calibrated online from the stored designs as the work-weighted mean of
their seconds per unit of work,

.. math::

    r = \\frac{\\sum_{u \\in K} s_u}{\\sum_{u \\in K} W_u}, \\qquad
    K = \\{u : s_u / W_u \\le 3 m\\}, \\quad
    m = \\operatorname{wmedian}_u \\left( s_u / W_u ;\\ \\text{weights } W_u \\right)

a mean, because the time left is a sum and a busy machine's slow spells
recur, but without the outliers beyond 3 times the weighted median: a
worker's first design carries the loading of its kernels (seconds, under
load; counted in the start-up below, once per run). With
``p`` parallel processes and ``P`` the designs not yet stored,

.. math::

    \\text{time left} = t_0 + \\frac{r \\sum_{u \\in P} W_u}{\\min(p, |P|)} + t_1

where :math:`t_0` is the start-up of a run (starting the processes, loading
the compiled kernels) as measured in the last run: the least, over the
designs it stored, of (finished - run start - :math:`\\min(s_u, r W_u)`):
how long the run took before its first design started solving, counting
the kernels a worker loads inside its first design (whose :math:`s_u` that
load inflates) as start-up. A running study has
no start-up left; a study whose store predates run notes counts none.
:math:`t_1` is the tail of a run, from its last design to its end (ranking
and listing the best designs), as measured in the last run that completed
(0 before one has).

Per-design times measured in worker processes already include the sharing
of cores between the ``p`` processes, so dividing by ``p`` gives wall time.

Before the first design is stored
---------------------------------
With nothing stored there is nothing to calibrate :math:`r` from, so a run
(and ``study status``) first measures it: :func:`trial` solves the study's
smallest design once (which loads the compiled kernels) and again (its
speed :math:`r_0`), then its largest design predicted to take at most
:data:`TRIAL_SECONDS` at that speed, ``p`` times at once on ``p`` threads
(the kernels release the GIL, so the ``p`` solves share the cores as the
run's ``p`` processes will), in rounds for twice that time (the second
solve the first round where that design is the smallest and ``p`` is 1). That design's
median seconds over its work is the prior :math:`r` (noted in the store as
:data:`PRIOR` when a run starts), used until the first design is stored. The start-up :math:`t_0` of a run
that has never run is taken as twice the time the process making the trial
needed to start, import and load the kernels (the run's own process, then
its workers, do the same), and once inside a run (its workers are still to
start). A trial costs about half a second.
"""

from dataclasses import dataclass

import numpy as np

from designer.search.families import family_of, unit_key, units

#: Store notes written by each grid run (see :func:`note_run`, :func:`note_end`).
RUN_STARTED = "run_started"
TAIL = "tail_seconds"
#: Seconds per unit of work measured by a run's :func:`trial` (nothing was
#: stored when it began): the prior until a design is stored.
PRIOR = "trial_seconds_per_work"

#: Seconds one solve of a :func:`trial` aims at (at most, at the speed of
#: the smallest design, which overstates the time of a larger one).
TRIAL_SECONDS = 0.15


@dataclass(frozen=True)
class Estimate:
    """What is left of a study, in work and in seconds.

    Attributes
    ----------
    designs_left : int
        Designs neither stored nor failed.
    work_total, work_left : float
        Predicted work of every design and of those left.
    seconds_per_work : float or None
        Calibrated :math:`r`; None before any design is stored.
    startup_seconds : float
        :math:`t_0` (0 when running, or unknown).
    tail_seconds : float
        :math:`t_1` (0 until a run has completed).
    workers : int
        Parallel processes assumed.
    seconds : float or None
        Estimated wall-clock seconds left (0 when nothing is left; None
        when nothing is stored yet to calibrate from and no trial was made).
    from_trial : bool
        ``seconds_per_work`` comes from a :func:`trial` (nothing stored yet),
        not from stored designs.
    """

    designs_left: int
    work_total: float
    work_left: float
    seconds_per_work: float
    startup_seconds: float
    tail_seconds: float
    workers: int
    seconds: float
    from_trial: bool = False


@dataclass(frozen=True)
class Trial:
    """The machine's speed measured by :func:`trial`.

    Attributes
    ----------
    seconds_per_work : float
        Seconds per unit of work of a solve sharing the cores with
        ``workers - 1`` others.
    startup_seconds : float
        The start-up a run still has to pay (:math:`t_0`, 0 when this
        process's start is unknown): the time this process took to start,
        import and load the kernels, once for the workers of a run that is
        starting (``in_run``), twice for a run not begun (its own process,
        then its workers).
    seconds : float
        Wall time of the trial.
    """

    seconds_per_work: float
    startup_seconds: float
    seconds: float


def weighted_median(values, weights):
    """The smallest value at which the cumulative weight reaches half the total.

    Parameters
    ----------
    values, weights : array_like
        Same length; weights > 0.
    """
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.size == 0:
        raise ValueError("weighted_median of no values")
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cum, 0.5 * cum[-1])])


#: Designs slower than this many times the weighted median (seconds per
#: unit of work) are left out of the calibration.
OUTLIER = 3.0


def calibrate(work, seconds):
    """Seconds per unit of work from designs of predicted ``work`` that took
    ``seconds`` each: the trimmed work-weighted mean of the module
    docstring; None without data."""
    work = np.asarray(work, dtype=float)
    seconds = np.asarray(seconds, dtype=float)
    keep = (work > 0) & np.isfinite(seconds) & (seconds >= 0)
    if not keep.any():
        return None
    work, seconds = work[keep], seconds[keep]
    ratio = seconds / work
    usual = ratio <= OUTLIER * weighted_median(ratio, work)
    return float(seconds[usual].sum() / work[usual].sum())


def startup(started, finished, seconds, predicted):
    """Start-up of a run begun at ``started`` (epoch seconds) whose designs
    finished at ``finished`` after ``seconds`` of solving each, predicted
    ``predicted``: the least of ``finished - started - min(seconds,
    predicted)`` over the designs finished since ``started``, never below 0
    (0 when the run stored none)."""
    finished = np.asarray(finished, dtype=float)
    solving = np.minimum(np.asarray(seconds, dtype=float), np.asarray(predicted, dtype=float))
    after = finished >= started
    if not after.any():
        return 0.0
    return float(max(0.0, np.min(finished[after] - started - solving[after])))


def work_of(spec):
    """Predicted work of every design of ``spec``, by unit key."""
    fam = family_of(spec)
    args = fam.unit_args(spec)
    return {unit_key(u): fam.work(u, args) for u in units(spec)}


def trial(spec, workers=None, started=None, in_run=False, budget=TRIAL_SECONDS):
    """Measure the seconds per unit of work of ``spec``'s designs on this
    machine, now (module docstring, "Before the first design is stored").

    Parameters
    ----------
    workers : int, optional
        Solves run at once (default: the study's ``workers``; at most 8).
    started : float, optional
        When this process started (epoch seconds), for the start-up.
    in_run : bool
        The trial is made by the run it estimates (see
        :attr:`Trial.startup_seconds`).
    budget : float
        Seconds one solve of the trial aims at.

    Returns
    -------
    Trial or None
        None when a design of the trial fails (the run will say why) or
        the study has no design.
    """
    import threading
    import time

    from designer.search.families import evaluate_unit

    began = time.perf_counter()
    fam = family_of(spec)
    args = fam.unit_args(spec)
    # largest first; a unit refused before any work (work 0) tells no speed
    todo = [u for u in units(spec) if fam.work(u, args) > 0]
    work = [float(fam.work(u, args)) for u in todo]
    if not todo:
        return None

    def solve(unit, n=1):
        out = [None] * n

        def one(i):
            from designer._jit import single_thread

            single_thread()  # as in a run's workers (this thread only)
            try:
                out[i] = evaluate_unit(spec.family, unit, args)
            except Exception as exc:  # noqa: BLE001 - the run itself reports it
                out[i] = exc

        threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if any(not isinstance(r, dict) or r["error"] is not None for r in out):
            return None
        return [r["seconds"] for r in out]

    if solve(todo[-1]) is None:  # loads the compiled kernels
        return None
    loaded = time.time()
    timed = time.perf_counter()
    first = solve(todo[-1])
    if first is None:
        return None
    rate = first[0] / work[-1]
    k = next((i for i, w in enumerate(work) if rate * w <= budget), len(work) - 1)
    n = max(1, min(int(workers or spec.workers), 8))
    # the solve just timed is the rounds' first where they time the same
    # design on one thread (a smallest design that takes their whole time
    # is then timed once, not again)
    same = k == len(work) - 1 and n == 1
    secs = list(first) if same else []
    timing = timed if same else time.perf_counter()
    while not secs or (time.perf_counter() - timing < 2 * budget and len(secs) < 20 * n):
        more = solve(todo[k], n)  # rounds for 2 budgets: a busy instant weighs less
        if more is None:
            return None
        secs += more
    startup = max(0.0, loaded - started) * (1 if in_run else 2) if started is not None else 0.0
    return Trial(float(np.median(secs)) / work[k], startup, time.perf_counter() - began)


def run_estimate(spec, store, workers, retry_failed=False, started=None, measure=True):
    """The estimate a run starts with: :func:`estimate`, after a
    :func:`trial` (noted in ``store`` as :data:`PRIOR`) when nothing
    stored can calibrate it and ``measure`` (not on a remote cluster)."""
    est = estimate(spec, store, workers, retry_failed=retry_failed)
    if est.seconds_per_work is not None or not est.designs_left or not measure:
        return est
    found = trial(spec, workers, started=started, in_run=True)
    if found is None:
        return est
    store.set_note(PRIOR, repr(found.seconds_per_work))
    return estimate(spec, store, workers, retry_failed=retry_failed, prior=found)


def _number(text):
    """A note's positive number, or None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if np.isfinite(value) and value > 0 else None


def note_run(store, started):
    """Record that a run began at ``started`` (epoch seconds)."""
    store.set_note(RUN_STARTED, repr(float(started)))


def note_end(store, ended):
    """Record that a run that stored designs ended at ``ended`` (epoch
    seconds, after listing the best designs): the time after its last
    design is the tail :math:`t_1` every later run pays too."""
    last = store.unit_stats().finished.max()
    if last == last:  # not NaN: some design is stored
        store.set_note(TAIL, repr(max(0.0, float(ended) - float(last))))


def estimate(spec, store, workers=None, running=False, retry_failed=False, prior=None):
    """Time left to finish ``spec`` from what ``store`` holds.

    Parameters
    ----------
    store : ResultStore or None
        None: the study has never run (nothing stored, no notes).
    workers : int, optional
        Parallel processes of the next run (default: the study's).
    running : bool
        The study is running now (no start-up left to pay).
    retry_failed : bool
        Count failed designs as left (``resume --retry-failed``).
    prior : Trial, optional
        The speed to assume while no stored design calibrates one (else
        the :data:`PRIOR` a run noted, if any).

    Returns
    -------
    Estimate
    """
    import pandas as pd

    work = work_of(spec)
    stats = (store.unit_stats() if store is not None else
             pd.DataFrame({"key": [], "status": [], "seconds": [], "finished": []}))
    done = stats[stats.status == "done"]
    failed = set(stats.key[stats.status == "failed"])
    skip = set(done.key) | (set() if retry_failed else failed)
    left = [k for k in work if k not in skip]
    work_left = float(sum(work[k] for k in left))
    workers = int(workers or spec.workers)
    known = done[done.key.isin(list(work))]
    w_done = np.array([work[k] for k in known.key], dtype=float)
    rate = calibrate(w_done, known.seconds.to_numpy(dtype=float))
    t0 = 0.0
    notes = store.notes() if store is not None else {}
    if rate is not None and not running:
        started = notes.get(RUN_STARTED)
        if started is not None:
            t0 = startup(float(started), known.finished.to_numpy(dtype=float),
                         known.seconds.to_numpy(dtype=float), rate * w_done)
    from_trial = False
    if rate is None:  # nothing stored to calibrate from: a trial's speed, if any
        rate = prior.seconds_per_work if prior is not None else _number(notes.get(PRIOR))
        from_trial = rate is not None
        if prior is not None and not running:
            t0 = prior.startup_seconds
    t1 = float(notes.get(TAIL, 0.0))
    if not left:
        seconds = 0.0
    elif rate is None:
        seconds = None
    else:
        seconds = t0 + rate * work_left / max(1, min(workers, len(left))) + t1
    return Estimate(len(left), float(sum(work.values())), work_left, rate, t0, t1, workers,
                    seconds, from_trial)
