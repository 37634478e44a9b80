"""Benchmark: grid-study throughput with 1 and 2 workers.

Run by hand: ``python benchmarks/study.py [--study studies/red_light.toml]
[--repeats N]``. Each run computes the whole study into a fresh temporary
results store (kernels warm, worker start-up included) and prints the median
units (compositions solved) and configurations (goal x komi designs stored)
per second, and the speed-up of 2 workers over 1 measured in the same run.
"""

import argparse
import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from designer.search import load_study, open_store
from designer.search.families import warm
from designer.search.grid import run_grid


def one_run(spec, workers):
    tmp = Path(tempfile.mkdtemp(prefix="designer-bench-"))
    try:
        s = replace(spec, results_dir=tmp, workers=workers)
        store = open_store(s)
        t0 = time.perf_counter()
        out = run_grid(s, store, workers=workers)
        seconds = time.perf_counter() - t0
        return seconds, out["computed"], len(store.rows())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default=str(Path(__file__).resolve().parent.parent / "studies" /
                                           "red_light.toml"))
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    spec = load_study(args.study)
    warm(spec.family)
    print(f"study {spec.name}: {spec.describe_space()}")
    print(f"{'workers':>7} {'median s':>9} {'units/s':>8} {'configs/s':>10} {'speed-up':>8}")
    base = None
    for workers in (1, 2):
        runs = [one_run(spec, workers) for _ in range(args.repeats)]
        t = statistics.median(r[0] for r in runs)
        units, rows = runs[0][1], runs[0][2]
        base = base or t
        print(f"{workers:>7} {t:>9.2f} {units / t:>8.1f} {rows / t:>10.0f} {base / t:>7.2f}x")


if __name__ == "__main__":
    main()
