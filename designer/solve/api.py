"""Public solve functions: validate, allocate, call the kernel, wrap.

The Python layer owns shapes and dtypes; kernels only see arrays.
"""

import time

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL, load_first
from designer.errors import DesignError
from designer.games import DeckGame, DiceGame, ZombieDiceGame, ZombieGame
from designer.solve._classes import check_pair_stats
from designer.solve._deck_kernel import solve_deck, solve_deck_threads
from designer.solve._dice_kernel import solve_dice, solve_dice_threads
from designer.solve.solution import DeckSolution, DiceSolution
from designer.solve.zombie import solve_zombie_game
from designer.solve.zombie_dice import solve_zombie_dice_game


def _warm(families=("deck", "dice")):
    """Load (or compile) the kernels of ``families`` before timing, so
    ``seconds`` is solve time (a first solve compiles only its own family)."""
    if "deck" in families:
        args = (np.zeros((1, 1, 1, 1, 2)), np.zeros((1, 1, 1, 1, 2)),
                np.zeros((1, 1, 1, 1, 2), dtype=np.int16))
        load_first((solve_deck_threads,),
                   lambda: solve_deck(1, 1, 1, *args, True, TOL, TIE, MAX_SWEEPS, np.zeros(4)))
    if "dice" in families:
        load_first((solve_dice_threads,), lambda: solve_dice(
            2, np.array([2], dtype=np.int64), 1, np.zeros((1, 1, 1)), np.zeros((1, 1, 1)),
            np.zeros((1, 1, 1, 1), dtype=np.bool_), True, TOL, TIE, MAX_SWEEPS, np.zeros(4)))


def _check_stats(stats, game):
    check_pair_stats(stats, game.name)


def deck_states(game):
    """Number of non-terminal states ``(i, j, k, w, c)`` with ``k <= c``."""
    G, good = game.goal, game.good
    i = np.arange(G)[:, None]
    c = np.arange(good + 1)[None, :]
    # k ranges over 0..min(c, G - 1 - i)
    per = np.minimum(c, G - 1 - i) + 1
    return int(per.sum()) * G * game.bad


def dice_states(game):
    """Number of non-terminal states ``(i, j, k)`` with ``i + k < goal``."""
    G = game.goal
    return G * G * (G + 1) // 2


def solve_deck_game(game):
    """Solve a deck game exactly; see :class:`DeckSolution`."""
    shape = (1, game.goal, game.goal, game.bad, game.good + 1)
    V = np.zeros(shape)
    L = np.zeros(shape)
    T = np.zeros(shape, dtype=np.int16)
    stats = np.zeros(4)
    _warm(("deck",))
    t0 = time.perf_counter()
    solve_deck(game.bad, game.good, game.goal, V, L, T, True, TOL, TIE, MAX_SWEEPS, stats)
    seconds = time.perf_counter() - t0
    _check_stats(stats, game)
    return DeckSolution(game, V[0], L[0], T[0], float(stats[0]), int(stats[1]), seconds,
                        deck_states(game))


def scoring_pips(game):
    """The pip values of the faces that do not bust, as int64."""
    return np.array([f for f in range(1, game.faces + 1) if f not in game.bust_faces],
                    dtype=np.int64)


def solve_dice_game(game):
    """Solve a dice game exactly; see :class:`DiceSolution`."""
    G = game.goal
    V = np.zeros((1, G, G))
    L = np.zeros((1, G, G))
    R = np.zeros((1, G, G, G), dtype=np.bool_)
    stats = np.zeros(4)
    _warm(("dice",))
    t0 = time.perf_counter()
    solve_dice(game.faces, scoring_pips(game), G, V, L, R, True, TOL, TIE, MAX_SWEEPS, stats)
    seconds = time.perf_counter() - t0
    _check_stats(stats, game)
    return DiceSolution(game, V[0], L[0], R[0], float(stats[0]), int(stats[1]), seconds,
                        dice_states(game))


def solve(game, progress=None):
    """Solve ``game`` exactly under optimal play by both players.

    Parameters
    ----------
    game : DeckGame, DiceGame, ZombieGame or ZombieDiceGame
    progress : callable, optional
        ``progress(done, total)``, called as two-player Zombie Dice solves
        (the longest single solves, close to a minute for the full game)
        advance over score positions; other solves do not call it.

    Returns
    -------
    DeckSolution, DiceSolution, SeatSolution, ZombieSolution or ZombieDiceSolution
        Win probabilities, expected actions and the optimal policy for every
        goal up to ``game.goal`` and every komi. Three or four players
        (``game.players``) give a :class:`SeatSolution` (max-n play);
        the rounds ending, and Zombie games with three or four
        players, a :class:`~designer.solve.rounds.RoundsSolution`.

    Raises
    ------
    ConvergenceError
        If a score pair fails to converge (not observed in practice).
    DesignError
        An N-player game whose tables would not fit in memory.
    """
    if isinstance(game, (DeckGame, DiceGame)):
        if game.ending == "rounds":
            from designer.solve.rounds import (
                solve_rounds,  # the equal-turns ending
            )

            return solve_rounds(game)
        if game.players > 2:
            from designer.solve.race import solve_race

            return solve_race(game)
    if isinstance(game, DeckGame):
        return solve_deck_game(game)
    if isinstance(game, DiceGame):
        return solve_dice_game(game)
    if isinstance(game, (ZombieGame, ZombieDiceGame)) and game.players > 2:
        from designer.solve.rounds import solve_rounds_zombie

        return solve_rounds_zombie(game)  # N seats in rounds
    if isinstance(game, ZombieGame):
        return solve_zombie_game(game, progress=progress)
    if isinstance(game, ZombieDiceGame):
        return solve_zombie_dice_game(game, progress=progress)
    if getattr(game, "family", None) == "wager":
        raise DesignError(f"no exact solver for {game.name} (a wagering game): "
                          "use `designer simulate` instead")
    raise DesignError(f"no exact solver for {type(game).__name__}")
