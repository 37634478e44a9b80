"""Benchmark: how long a ``designer`` process takes to answer.

Run by hand: ``python benchmarks/startup.py [--repeats N] [--no-busy]``.
Every command runs as a user runs it, a new process each time; the median
of ``N`` runs. The baseline, in the same run, is the same command with the
parser built as it was before the policies loaded on first use (the
policies' kernels and tables imported while the parser is built: what
every command paid at start-up). Then the same beside one CPU-bound
process.
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Busy, cpu, load  # noqa: E402

COMMANDS = (["--help"], ["solve", "deck", "--bad", "x"], ["compare", "--help"],
            ["solve", "fowl-play", "--json"])
#: The start-up before: every policy module imported with the parser.
EAGER = ("import designer.policies.builtin, designer.policies.compact, "
         "designer.policies.user\n")


def _run(argv, eager):
    code = (EAGER if eager else "") + f"from designer.cli import main\nraise SystemExit(main({argv!r}))"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def table(repeats):
    print(f"{'designer ...':<28} {'before s':>9} {'now s':>8} {'ratio':>7}")
    for argv in COMMANDS:
        before, now = [], []
        for _ in range(repeats):  # alternate, so both see the same load
            before.append(_run(argv, True))
            now.append(_run(argv, False))
        b, n = statistics.median(before), statistics.median(now)
        print(f"{' '.join(argv):<28} {b:9.3f} {n:8.3f} {b / n:6.1f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--no-busy", action="store_true", help="skip the run beside a busy process")
    args = ap.parse_args()
    _run(["solve", "fowl-play", "--json"], False)  # numba's cache loaded once before timing
    print(f"{cpu()}; {load()}")
    print("\nquiet:")
    table(args.repeats)
    if not args.no_busy:
        with Busy():
            print(f"\nbeside one CPU-bound process ({load()}):")
            table(args.repeats)


if __name__ == "__main__":
    main()
