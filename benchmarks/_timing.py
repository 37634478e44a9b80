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
