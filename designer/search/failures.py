"""A unit that fails must not stop a study.

:func:`evaluate_safely` runs one unit in a worker and turns ANY exception
(a :class:`MemoryError`, a numba error, a bug) into a failed result carrying
a one-line reason; the grid records it as failed and goes on. A worker
process that dies outright (SIGKILL, the kernel's OOM killer, a segfault) is
handled by the grid (:mod:`designer.search.grid`): the units that were in
flight are re-run one at a time in a fresh process, so only the unit that
kills its process is recorded as failed. ``designer study status`` lists
failures; ``designer study resume --retry-failed`` runs them again.

Fault injection (tests only)
----------------------------
``DESIGNER_INJECT_FAILURE`` makes chosen units fail, so the tests can prove
the above without a real out-of-memory or crash. Its value is a list of
``KIND:PARAM=VALUE[,PARAM=VALUE...]`` entries separated by ``;``; a unit
whose parameters match every ``PARAM=VALUE`` fails as KIND says:

* ``memory``: raises :class:`MemoryError`;
* ``numba``: raises a numba error (as a kernel that fails to compile would);
* ``kill``: the worker process kills itself with SIGKILL (never in the
  study's own process: there the unit fails with a RuntimeError instead);
* ``solver``: raises :class:`~designer.errors.SolverError` (as a solve
  that reaches its sweep budget would);
* ``slow``: no failure: the unit takes 0.3 s longer, and so does an optuna
  trial answered from the store, so that a test's SIGKILL lands inside a
  running unit or trial rather than between two.

An entry with no condition (``slow:``) matches every unit.

Example: ``DESIGNER_INJECT_FAILURE="memory:bad=2,good=3;kill:bad=1,good=2"``.
Nobody sets it outside the tests; unset, it costs one dictionary lookup.
"""

import multiprocessing
import os
import signal
import time

from designer.errors import SolverError
from designer.search.families import evaluate_unit, unit_key

ENV = "DESIGNER_INJECT_FAILURE"


def _one_line(text, limit=300):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def injected(unit):
    """The injected failure KIND for ``unit``, or None."""
    spec = os.environ.get(ENV)
    if not spec:
        return None
    for entry in spec.split(";"):
        kind, _, cond = entry.strip().partition(":")
        pairs = [c.split("=", 1) for c in cond.split(",") if "=" in c]
        if not cond.strip() or (
                pairs and all(str(unit.get(k.strip())) == v.strip() for k, v in pairs)):
            return kind.strip()
    return None


def _inject(kind):
    if kind == "memory":
        raise MemoryError("injected MemoryError")
    if kind == "numba":
        from numba.core.errors import TypingError

        raise TypingError("injected numba typing error")
    if kind == "kill":
        if multiprocessing.parent_process() is None:
            raise RuntimeError("injected kill (not done in the study's own process)")
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "solver":
        raise SolverError("injected: a score pair did not converge")
    if kind == "slow":
        time.sleep(0.3)
        return
    raise ValueError(f"{ENV}: unknown failure kind {kind!r}: allowed memory, numba, kill, "
                     f"solver, slow")


def evaluate_safely(family_name, unit, args):
    """:func:`~designer.search.families.evaluate_unit`, but any exception
    becomes a failed result (``error`` = ``"TypeName: message"``)."""
    t0 = time.perf_counter()
    try:
        kind = injected(unit)
        if kind is not None:
            _inject(kind)
        return evaluate_unit(family_name, unit, args)
    except Exception as exc:  # noqa: BLE001 - every failure is recorded, none stops the study
        return failed_result(unit, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0)


def failed_result(unit, reason, seconds=0.0):
    """A failed unit's result dict (as :func:`evaluate_unit` returns)."""
    return {"key": unit_key(unit), "rows": [], "seconds": seconds, "residual": None,
            "error": _one_line(reason)}
