"""Benchmark: is `study status`'s time left right after an interruption?

Run by hand: ``python benchmarks/eta.py [--study studies/red_light.toml]
[--stop 0.25] [--repeats 1]``. Each repeat copies the study file into a
fresh temporary folder, runs ``designer study run`` and interrupts it
(Ctrl-C) once ``--stop`` of its designs are stored (the largest, as the
grid starts with them), asks ``designer study status --json`` for the time
left, then times ``designer study resume`` from start to exit. It prints
both, their ratio, and the estimate the previous version gave from the
same store (median seconds per design x designs left / processes) as the
baseline. Give ``uptime`` beside the figures: a busy machine slows both.
"""

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True,
                          text=True, **kw)


def _done(store):
    try:
        con = sqlite3.connect(store, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM designer_units WHERE status='done'"
                               ).fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def _old_estimate(store, total, workers):
    """The estimate of designer before issue 15: median seconds x designs left."""
    con = sqlite3.connect(store)
    try:
        secs = [s for (s,) in con.execute(
            "SELECT seconds FROM designer_units WHERE status='done'")]
    finally:
        con.close()
    return statistics.median(secs) * (total - len(secs)) / workers


def one(study, stop):
    tmp = Path(tempfile.mkdtemp(prefix="designer-eta-"))
    try:
        path = tmp / Path(study).name
        shutil.copy(study, path)
        from designer.search import load_study

        spec = load_study(path)
        store = spec.store_path
        from designer.search.families import units

        total = len(units(spec))
        want = max(1, int(stop * total))
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "designer", "study", "run", str(path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while _done(store) < want and proc.poll() is None:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGINT)
        proc.wait()
        first = time.perf_counter() - t0
        st = json.loads(_cli("study", "status", str(path), "--json").stdout)
        old = _old_estimate(store, total, spec.workers)
        t1 = time.perf_counter()
        r = _cli("study", "resume", str(path))
        actual = time.perf_counter() - t1
        if r.returncode != 0:
            raise SystemExit(r.stderr)
        return {"done": st["done"], "total": total, "first_run": first,
                "eta": st["eta_seconds"], "old_eta": old, "actual": actual}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default=str(ROOT / "studies" / "red_light.toml"))
    ap.add_argument("--stop", type=float, default=0.25,
                    help="share of the designs stored before the interruption")
    ap.add_argument("--repeats", type=int, default=1)
    a = ap.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f}")
    for _ in range(a.repeats):
        r = one(a.study, a.stop)
        print(f"interrupted after {r['first_run']:.1f} s with {r['done']} of {r['total']} "
              f"designs stored; status said {r['eta']:.1f} s left (before issue 15: "
              f"{r['old_eta']:.1f} s); the resume took {r['actual']:.1f} s: ratio "
              f"{r['eta'] / r['actual']:.2f} (before: {r['old_eta'] / r['actual']:.2f})")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
