"""Run ``designer ARGS`` in this test process.

The same code path as the console script (``designer.cli.main``, as in
tests/fuzz_cases.py), without a new interpreter's start-up: importing numba,
pandas and the cached kernels costs 1-1.5 s of CPU per call, which over a
suite of CLI checks was a minute of the test run. What only a real process
shows (signals, a closed pipe, a terminal, DESIGNER_DEBUG's traceback, the
console script itself) is tested in real processes elsewhere.
"""

import os
from types import SimpleNamespace

from fuzz_cases import run_cli


def cli(*args, limit=300):
    """``designer ARGS`` in the current directory: an object with
    ``returncode``, ``stdout`` and ``stderr``, like ``subprocess.run``'s."""
    status, out, err, _ = run_cli([str(a) for a in args], os.getcwd(), limit=limit)
    assert status is not None, f"designer {' '.join(map(str, args))} ran past {limit} s"
    return SimpleNamespace(returncode=status, stdout=out, stderr=err)


def one_line_refusal(r, *words):
    """Assert that ``r`` (from :func:`cli`) is a refusal: exit status 2,
    nothing on stdout, one line ``designer: error: ...`` holding every one
    of ``words``; returns the line."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("designer: error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]
