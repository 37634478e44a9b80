"""Timing helpers shared by the benchmark scripts."""

import os
import statistics
import subprocess
import sys
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


def one_and_two_threads(fn, repeats):
    """``fn()`` on one of numba's threads and on two, alternating (so both
    meet the same load), ``repeats`` times each: ``(median one-thread
    seconds, median two-thread seconds, last one-thread result, last
    two-thread result)``; numba's threads are restored after."""
    import numba

    times = {1: [], 2: []}
    got = {}
    try:
        for _ in range(repeats):
            for nt in (1, 2):
                numba.set_num_threads(nt)
                t0 = time.perf_counter()
                got[nt] = fn()
                times[nt].append(time.perf_counter() - t0)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return statistics.median(times[1]), statistics.median(times[2]), got[1], got[2]


def cpu():
    """The processor's model name (as ``lscpu`` gives it)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "unknown processor"


def load():
    """The machine's load averages, in words."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


class Busy:
    """One CPU-bound process beside the solves, while the block runs."""

    def __enter__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(1.0)
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()
        return False


def run_rows(doc, rows, warm):
    """A benchmark script's ``main``: ``--repeats N`` and ``--busy`` from
    the command line (``doc``: the script's docstring, its first line the
    description), the processor and the load, ``warm()`` (kernels loaded
    before timing), then every ``row(repeats)`` of ``rows`` on a quiet
    machine and, with ``--busy``, again beside one CPU-bound process."""
    import argparse

    import numba

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per row (median)")
    ap.add_argument("--busy", action="store_true",
                    help="also run beside one CPU-bound process")
    args = ap.parse_args()
    print(f"{cpu()}, {load()}")
    warm()
    print(f"quiet ({numba.config.NUMBA_NUM_THREADS} threads):")
    for row in rows:
        row(args.repeats)
    if args.busy:
        with Busy():
            print(f"beside one CPU-bound process ({load()}):")
            for row in rows:
                row(args.repeats)
