"""Shared fixtures: solves of the presets are done once per session, so the
numba kernels compile (or load from cache) once; with several test
processes the heavy kernels are compiled once for all of them first."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from kernel_warmup import compile_all
from slow_tests import SLOW, matches

from designer import load_game
from designer.solve import solve

# Every solve refuses a game over a memory limit (half the machine's memory
# by default). The tests fix it at 2 GiB, so that what is refused does not
# depend on the machine they run on (subprocesses inherit it);
# tests/test_memory.py checks the default and the variable itself.
os.environ["DESIGNER_MEMORY_LIMIT"] = "2G"


def pytest_collection_modifyitems(config, items):
    """Mark the slow tier (tests/slow_tests.py) ``slow``, which the default
    run deselects (``-m "not slow"`` in pyproject.toml). When the whole
    suite is collected, an entry that names no test is refused, so the
    list cannot outlive a renamed test."""
    used = set()
    for item in items:
        for entry in SLOW:
            if matches(entry, item.nodeid):
                item.add_marker(pytest.mark.slow)
                used.add(entry)
    whole = [Path(a).resolve() for a in config.args] == [Path(config.rootpath, "tests")]
    stale = [e for e in SLOW if e not in used]
    if whole and stale and not config.getoption("deselect") and not config.getoption("keyword"):
        raise pytest.UsageError(f"tests/slow_tests.py names no collected test: {stale[0]}")


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled():
    """With several test processes (pytest-xdist; the default is ``-n 2``),
    split the compilation of the heavy kernels between them before the
    first test (tests/kernel_warmup.py): on a fresh clone each would
    otherwise compile most of them, often at the same time. With a warm
    cache this only loads them. A run in one process compiles as it goes."""
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not uid or int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) < 2:
        yield
        return
    lock_dir = Path(tempfile.gettempdir()) / f"designer-kernels-{uid}"
    compile_all(lock_dir, half=int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0))
    yield
    shutil.rmtree(lock_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def fowl_play():
    return solve(load_game("fowl-play"))


@pytest.fixture(scope="session")
def red_light():
    return solve(load_game("red-light"))


@pytest.fixture(scope="session")
def pig():
    return solve(load_game("pig"))
