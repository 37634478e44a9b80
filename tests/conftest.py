"""Shared fixtures: solves of the presets are done once per session, so the
numba kernels compile (or load from cache) once.

Before the test processes start, the controller compiles the kernels into
numba's cache in two processes (``_warm_kernels.py``), so that on a cold
cache the two test processes do not both compile the same kernels at once.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from designer import load_game
from designer.solve import solve


def pytest_configure(config):
    if hasattr(config, "workerinput") or os.environ.get("DESIGNER_NO_WARM"):
        return  # a test process (or warming turned off)
    script = Path(__file__).with_name("_warm_kernels.py")
    procs = [subprocess.Popen([sys.executable, str(script), g]) for g in ("a", "b")]
    for p in procs:
        p.wait()  # a failure here shows again, with its test, in the run itself


@pytest.fixture(scope="session")
def fowl_play():
    return solve(load_game("fowl-play"))


@pytest.fixture(scope="session")
def red_light():
    return solve(load_game("red-light"))


@pytest.fixture(scope="session")
def pig():
    return solve(load_game("pig"))
