"""Exact N-player race solves: allocate, check memory, run, wrap.

The two-player race keeps its specialised kernels (:mod:`designer.solve.api`);
three and four players use the rotation-class kernels
(:mod:`designer.solve._race_deck_kernel`, :mod:`designer.solve._race_dice_kernel`).
Both answer every goal up to the solved one and every komi vector.
"""

import time

import numba
import numpy as np

from designer._jit import MAX_ROUNDS, TIE, TOL, load_first
from designer.errors import ConvergenceError, DesignError
from designer.memory import limit_source, memory_limit
from designer.solve._classes import CLASS_COLUMNS, class_report, rotation_classes
from designer.solve._race_deck_kernel import solve_race_deck
from designer.solve._race_dice_kernel import solve_race_dice



def race_memory(game, players=None):
    """Bytes an N-player race solve of ``game`` allocates (tables, classes, scratch).

    Decks: per score tuple and deck state, ``N`` win probabilities and the
    expected actions (float64) and the compact policy (int16). Dice: per
    tuple ``N + 1`` float64 and ``goal`` roll flags. Plus the class list
    (``N + 1`` int64 and the report's 4 float64 per class, about one class
    per ``N`` tuples).
    """
    N = game.players if players is None else players
    G = game.goal
    tuples = G ** N
    if game.family == "deck":
        turn = game.bad * (game.good + 1)
        per = turn * (8 * N + 8 + 2)
        span = min(game.good, G) + 1
        scratch = numba.config.NUMBA_NUM_THREADS * N * turn * (span * (8 * (N + 1) + 1) + 16 * N + 32)
    else:
        per = 8 * N + 8 + G
        scratch = numba.config.NUMBA_NUM_THREADS * N * G * (8 * (3 * N + 2) + 1)
    classes = (tuples // N + G) * (8 * (N + 1) + 8 * CLASS_COLUMNS)
    # rotation_classes builds a few int64 arrays over all tuples while it runs
    return tuples * per + classes + scratch + tuples * 8 * (N + 3)


def _check_memory(game):
    need = race_memory(game)
    limit = memory_limit()
    if need > limit:
        raise DesignError(
            f"{game.name} with {game.players} players to goal {game.goal} needs about "
            f"{need / 2 ** 30:.1f} GiB; the limit is {limit / 2 ** 30:.1f} GiB "
            f"({limit_source()}): lower the goal or the players")


def race_states(game):
    """Non-terminal states: ``goal**(N-1)`` times the two-player count per mover score."""
    from designer.solve.api import deck_states, dice_states

    G, N = game.goal, game.players
    two = deck_states(game) if game.family == "deck" else dice_states(game)
    return two * G ** (N - 2)


def _threads():
    return int(numba.config.NUMBA_NUM_THREADS)


def solve_race(game, players=None):
    """Solve the race ending of ``game`` with ``players`` seats (default:
    ``game.players``) by the rotation-class kernels.

    Returns
    -------
    SeatSolution

    Raises
    ------
    DesignError
        The tables would not fit in memory (:func:`memory_limit`).
    ConvergenceError
        A class's linear system is singular (a policy under which the game
        never ends; not observed).
    """
    N = game.players if players is None else players
    if N != game.players:
        game = type(game)(**{**_fields(game), "players": N, "komi": 0})
    _check_memory(game)
    load_first((solve_race_deck if game.family == "deck" else solve_race_dice,),
               lambda: _solve(type(game)(**{**_fields(game), "goal": 1, "komi": 0})))
    return _solve(game)


def _solve(game):
    """:func:`solve_race` of ``game`` with its own seats, kernels loaded."""
    from designer.solve.solution import SeatSolution

    N = game.players
    G = game.goal
    reps, groups = rotation_classes(N, G)
    cstats = np.zeros((len(reps), CLASS_COLUMNS))
    if game.family == "deck":
        turn = (game.bad, game.good + 1)
        V = np.zeros((G ** N,) + turn + (N,))
        L = np.zeros((G ** N,) + turn)
        P = np.zeros((G ** N,) + turn, dtype=np.int16)
        t0 = time.perf_counter()
        solve_race_deck(game.bad, game.good, G, reps, groups, V, L, P, TOL, TIE, MAX_ROUNDS,
                        _threads(), cstats)
    else:
        from designer.solve.api import scoring_pips

        turn = ()
        V = np.zeros((G ** N, N))
        L = np.zeros(G ** N)
        P = np.zeros((G ** N, G), dtype=np.bool_)
        t0 = time.perf_counter()
        solve_race_dice(game.faces, scoring_pips(game), G, reps, groups, V, L, P, TOL, TIE,
                        MAX_ROUNDS, _threads(), cstats)
    seconds = time.perf_counter() - t0
    rep = class_report(cstats, N)
    if rep["singular"]:
        raise ConvergenceError(f"{game.name}: the game can go on forever under this policy")
    shape = (G,) * N + turn
    return SeatSolution(
        game, V.reshape(shape + (N,)), L.reshape(shape), P.reshape(shape + P.shape[len(turn) + 1:]),
        rep["residual"], rep["sweeps"], seconds, race_states(game),
        unsettled_positions=rep["unsettled_positions"],
        unsettled_residual=rep["unsettled_residual"])


def _fields(game):
    return {f: getattr(game, f) for f in game.__dataclass_fields__}
