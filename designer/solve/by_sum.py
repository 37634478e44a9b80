"""Run independent score tuples of equal sum on threads (layered solvers).

Scores never fall, so the tuples of one score sum only read tuples of larger
sums: each run of equal sum can be cut into chunks that threads solve side
by side, the runs one after the other. The kernels release the GIL
(``nogil``), so plain threads use every core, without the minute that
numba's ``parallel=True`` compilation of a large kernel costs on a cold
cache.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np


def run_by_sum(call, flat, tuples, groups, stats, min_chunk=1):
    """Solve every tuple, the runs of equal sum in order, each run on threads.

    Parameters
    ----------
    call : callable
        ``call(flat, tuples, stats)`` solves the given tuples in order and
        reports into ``stats`` (a kernel call).
    flat, tuples : ndarray
        The tuples by decreasing sum (flat index, scores).
    groups : ndarray
        ``flat[groups[g]:groups[g + 1]]`` share one sum.
    stats : ndarray of float64, length >= 6
        The caller's report, folded as the kernels do: ``[0]`` largest
        residual, ``[1]`` total sweeps, ``[2]`` largest sweeps, ``[3]``
        worst status (non-zero stops the run), ``[4]`` unsettled count,
        ``[5]`` largest unsettled residual.
    min_chunk : int
        A run shorter than ``min_chunk`` tuples per thread stays on the
        calling thread, merged with its neighbours into one call (cheap
        tuples do not repay a hand-over).

    Threads: as many as numba may use in this process (one in a study's
    worker processes).
    """
    import numba

    workers = numba.get_num_threads()
    sizes = np.diff(groups)
    if workers == 1 or not (sizes >= workers * min_chunk).any():
        call(flat, tuples, stats)
        return
    parts = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        start = 0  # first tuple of the runs waiting to go to this thread in one call
        for g in range(len(groups) - 1):
            lo, hi = int(groups[g]), int(groups[g + 1])
            if hi - lo < workers * min_chunk and g < len(groups) - 2:
                continue
            if hi - lo < workers * min_chunk:  # the last runs: one call on this thread
                lo = hi
            if start < lo:
                parts.append(np.zeros_like(stats))
                call(flat[start:lo], tuples[start:lo], parts[-1])
            start = hi
            if lo == hi:
                continue
            idx = np.arange(lo, hi)
            res = [np.zeros_like(stats) for _ in range(workers)]
            list(pool.map(lambda t: call(np.ascontiguousarray(flat[t[0]]),
                                         np.ascontiguousarray(tuples[t[0]]), t[1]),
                          zip([idx[w::workers] for w in range(workers)], res, strict=True)))
            parts += res
            if any(r[3] for r in parts):
                break
    for r in parts:
        stats[0] = max(stats[0], r[0])
        stats[1] += r[1]
        stats[2] = max(stats[2], r[2])
        stats[3] = max(stats[3], r[3])
        stats[4] += r[4]
        stats[5] = max(stats[5], r[5])
