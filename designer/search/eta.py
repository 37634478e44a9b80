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
"""

from dataclasses import dataclass

import numpy as np

from designer.search.families import family, unit_key, units

#: Store notes written by each grid run (see :func:`note_run`, :func:`note_end`).
RUN_STARTED = "run_started"
TAIL = "tail_seconds"


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
        when nothing is stored yet to calibrate from).
    """

    designs_left: int
    work_total: float
    work_left: float
    seconds_per_work: float
    startup_seconds: float
    tail_seconds: float
    workers: int
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
    fam = family(spec.family)
    args = fam.unit_args(spec)
    return {unit_key(u): fam.work(u, args) for u in units(spec)}


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


def estimate(spec, store, workers=None, running=False, retry_failed=False):
    """Time left to finish ``spec`` from what ``store`` holds.

    Parameters
    ----------
    workers : int, optional
        Parallel processes of the next run (default: the study's).
    running : bool
        The study is running now (no start-up left to pay).
    retry_failed : bool
        Count failed designs as left (``resume --retry-failed``).

    Returns
    -------
    Estimate
    """
    work = work_of(spec)
    stats = store.unit_stats()
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
    notes = store.notes()
    if rate is not None and not running:
        started = notes.get(RUN_STARTED)
        if started is not None:
            t0 = startup(float(started), known.finished.to_numpy(dtype=float),
                         known.seconds.to_numpy(dtype=float), rate * w_done)
    t1 = float(notes.get(TAIL, 0.0))
    if not left:
        seconds = 0.0
    elif rate is None:
        seconds = None
    else:
        seconds = t0 + rate * work_left / max(1, min(workers, len(left))) + t1
    return Estimate(len(left), float(sum(work.values())), work_left, rate, t0, t1, workers,
                    seconds)
