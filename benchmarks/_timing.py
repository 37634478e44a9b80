"""Timing helper shared by the benchmark scripts."""

import statistics
import time


def median_time(fn, repeats):
    """Median wall time of ``repeats`` calls of ``fn`` and its last result."""
    times = []
    out = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out
