"""Shared fixtures: solves of the presets are done once per session, so the
numba kernels compile (or load from cache) once."""

import pytest

from designer import load_game
from designer.solve import solve


@pytest.fixture(scope="session")
def fowl_play():
    return solve(load_game("fowl-play"))


@pytest.fixture(scope="session")
def red_light():
    return solve(load_game("red-light"))


@pytest.fixture(scope="session")
def pig():
    return solve(load_game("pig"))
