"""Zombie Dice: the Python layer over :mod:`designer.solve._zombie_kernel`.

Validates nothing itself (the :class:`~designer.games.ZombieGame` did),
allocates the tables, calls the kernel and wraps the result.
"""

import time
from fractions import Fraction
from math import factorial

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL
from designer.errors import ConvergenceError
from designer.solve._zombie_kernel import solve_zombie


def roll_outcomes(game):
    """Every outcome of one roll as ``(brains, shotguns, probability)``.

    Returns
    -------
    OB, OS : int64 arrays
        Brains and shotguns of each possible outcome except the
        all-footprint one.
    OP : float64 array
        Their multinomial probabilities (computed exactly, then rounded).
    q0 : float
        Probability of the all-footprint roll (0 when the dice have no
        footprint face).
    """
    n, d = game.faces, game.dice
    pb, ps, pf = (Fraction(game.brains, n), Fraction(game.shotguns, n),
                  Fraction(game.footprints, n))
    ob, os_, op = [], [], []
    q0 = Fraction(0)
    for db in range(d + 1):
        for ds in range(d + 1 - db):
            df = d - db - ds
            q = (Fraction(factorial(d), factorial(db) * factorial(ds) * factorial(df))
                 * pb ** db * ps ** ds * pf ** df)
            if db == 0 and ds == 0:
                q0 = q
            elif q:  # outcomes a face-less kind cannot show are left out
                ob.append(db)
                os_.append(ds)
                op.append(float(q))
    return (np.array(ob, dtype=np.int64), np.array(os_, dtype=np.int64),
            np.array(op, dtype=np.float64), float(q0))


def zombie_states(game):
    """Number of non-terminal states ``(p, i, j, b, s)`` of the capped model.

    Player 1 moves at the rounds ``(a, c)`` with ``a, c < goal`` and at the
    tie round ``(goal, goal)`` with ``0 <= b < cap - a``; player 2 at
    ``(c, a')`` for ``c < goal, 0 <= a' <= cap`` and ``c = goal <= a'`` with
    ``b`` below the forced end ``min(max(goal, a' + 1), cap) - c``; every
    ``s < bust_shotguns``.
    """
    G, cap, K = game.goal, game.cap, game.bust_shotguns
    p1 = G * sum(cap - a for a in range(G)) + (cap - G)
    p2 = sum(min(max(G, ap + 1), cap) - c for c in range(G) for ap in range(cap + 1))
    p2 += sum(min(ap + 1, cap) - G for ap in range(G, cap + 1))
    return int((p1 + p2) * K)


def policy_shape(game):
    """Shape of a decision table ``roll[p, i, j, b, s]`` (``p`` 0 or 1)."""
    return (2, game.goal + 1, game.cap + 1, game.cap, game.bust_shotguns)


def _warm():
    if not solve_zombie.signatures:
        from designer.games import ZombieGame

        tiny = ZombieGame(dice=1, goal=1, cap=2)
        _run(tiny, np.zeros(policy_shape(tiny), dtype=np.bool_), True)


def _run(game, R, optimize):
    G, cap = game.goal, game.cap
    OB, OS, OP, q0 = roll_outcomes(game)
    W = np.zeros((G + 1, G + 1))
    LW = np.zeros((G + 1, G + 1))
    T2 = np.zeros((G + 1, cap + 1))
    LT2 = np.zeros((G + 1, cap + 1))
    stats = np.zeros(4)
    solve_zombie(G, cap, game.bust_shotguns, OB, OS, OP, q0, W, LW, T2, LT2, R, optimize, TOL,
                 TIE, MAX_SWEEPS, stats)
    if stats[3] == 1.0:
        raise ConvergenceError(
            f"{game.name}: a round did not converge within {MAX_SWEEPS} sweeps "
            f"(residual {stats[0]:.3g})")
    if stats[3] == 2.0:
        raise ConvergenceError(f"{game.name}: the game can go on forever under this policy")
    return W, LW, T2, LT2, stats


def solve_zombie_game(game):
    """Solve a Zombie Dice game exactly under optimal play by both players.

    Returns
    -------
    ZombieSolution
    """
    from designer.solve.solution import ZombieSolution

    _warm()
    R = np.zeros(policy_shape(game), dtype=np.bool_)
    t0 = time.perf_counter()
    W, LW, T2, LT2, stats = _run(game, R, True)
    seconds = time.perf_counter() - t0
    G = game.goal
    return ZombieSolution(game, W[:G, :G].copy(), LW[:G, :G].copy(), R, float(stats[0]),
                          int(stats[1]), seconds, zombie_states(game), T2, LT2,
                          float(W[G, G]), float(LW[G, G]))


def evaluate_zombie_match(game, first, second):
    """Exact evaluation of a match between two fixed policies.

    Parameters
    ----------
    game : ZombieGame
    first, second : bool arrays of shape :func:`policy_shape`
        Decision tables ``roll[p, i, j, b, s]``; player 1's decisions are read
        from ``first[0]``, player 2's from ``second[1]``.

    Returns
    -------
    dict
        ``first_player_win`` (player 1's win probability from the game's
        start ``(0, komi)``), ``expected_actions``, ``win`` (player 1's win
        probability at every round start ``(a, c)``, shape ``(goal, goal)``),
        ``tie_round_win`` and ``seconds`` (kernel time).
    """
    _warm()
    R = np.empty(policy_shape(game), dtype=np.bool_)
    R[0] = first[0]
    R[1] = second[1]
    t0 = time.perf_counter()
    W, LW, _, _, _ = _run(game, R, False)
    seconds = time.perf_counter() - t0
    G = game.goal
    return {"first_player_win": float(W[0, game.komi]),
            "expected_actions": float(LW[0, game.komi]),
            "win": W[:G, :G].copy(), "tie_round_win": float(W[G, G]), "seconds": seconds}
