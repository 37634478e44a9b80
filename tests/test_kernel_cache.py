"""numba's on-disk cache works: a second process compiles no solver kernel.

Every kernel is ``@kernel`` (``cache=True``); a CLI call or a joblib worker
should load the machine code from the cache instead of compiling it again.
Things that silently defeat the cache (a jitted function passed as an
argument, a global array, ``numba.get_num_threads`` inside a kernel) would
show up here as cache misses in the second process.

The test process solves small games first (compiling their kernels, or
loading them, through numba's cache, which saves whatever it compiles); a
fresh process then solves the same games and reports, for every dispatcher
of ``designer.solve``, its cache hits and misses (``Dispatcher.stats``):
every kernel it calls must come from the cache, none compiled again. (An
earlier version compiled everything from nothing in a private cache first:
the same check for 20 s more CPU.)

The games are a representative subset: the two-player dice race (a
``parallel_kernel`` with ``prange`` and a thread count passed in) and both
Zombie games and a fixed-policy Zombie match (plain kernels, tuple scratch,
one kernel module for two kinds of transition arrays). The deck, rounds and
N-player race kernels are built from the same decorators and helpers;
tests/test_seats.py probes the N-player race the same way.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

GAMES = textwrap.dedent("""
    from designer import load_game
    from designer.games.zombie import ZombieDiceGame
    from designer.solve import solve
    from designer.solve.zombie import evaluate_zombie_match

    wins = {}
    wins["pig"] = solve(load_game("pig", goal=4)).first_player_win()
    y = solve(load_game("zombie-yellow", goal=3, cap=6))
    wins["zombie-yellow"] = y.first_player_win()
    wins["zombie-match"] = evaluate_zombie_match(y.game, y.policy, y.policy)["first_player_win"]
    wins["zombie-dice"] = solve(ZombieDiceGame(2, 1, 1, dice=2, goal=3, cap=5)).first_player_win()
""")

SCRIPT = GAMES + textwrap.dedent("""
    import importlib, json, pkgutil
    from numba.core.dispatcher import Dispatcher
    import designer.solve as S

    stats = {}
    for info in pkgutil.iter_modules(S.__path__):
        mod = importlib.import_module(f"designer.solve.{info.name}")
        for attr, obj in vars(mod).items():
            if isinstance(obj, Dispatcher) and obj.__module__ == mod.__name__:
                st = obj.stats
                stats[f"{info.name}.{attr}"] = (sum(st.cache_hits.values()),
                                                sum(st.cache_misses.values()))
    print(json.dumps({"wins": wins, "stats": stats}))
""")


def _run():
    import designer

    # the package this process imported, whatever the working directory
    env = {**os.environ, "PYTHONPATH": str(Path(designer.__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def two_runs():
    """The games solved here (numba's cache then holds their kernels), then
    in a fresh process."""
    here = {}
    exec(GAMES, here)
    return {"wins": here["wins"]}, _run()


def test_second_process_compiles_nothing(two_runs):
    _, second = two_runs
    missed = {k: v[1] for k, v in second["stats"].items() if v[1]}
    assert missed == {}, f"kernels compiled again in a second process: {missed}"
    # ... because it loaded every kernel it called from the cache
    loaded = {k for k, v in second["stats"].items() if v[0]}
    assert {"_dice_kernel.solve_dice_threads", "_zombie_kernel.tie_round",
            "_zombie_kernel.chase_turns", "_zombie_kernel.round_pairs"} <= loaded


def test_cached_kernels_give_the_same_answers(two_runs):
    first, second = two_runs
    assert first["wins"] == second["wins"]
    assert all(0.0 < p < 1.0 for p in first["wins"].values())
