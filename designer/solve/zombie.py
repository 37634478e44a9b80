"""Zombie Dice: the Python layer over :mod:`designer.solve._zombie_kernel`.

Validates nothing itself (the :class:`~designer.games.ZombieGame` did),
builds the turn states' transition arrays, allocates the tables, runs the
kernel's three steps (:func:`run_rounds`, shared with full Zombie Dice) and
wraps the result.
"""

import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from fractions import Fraction
from math import factorial

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL, load_first
from designer.solve._classes import check_pair_stats, reduce_pair_stats
from designer.solve._zombie_kernel import chase_turns, round_pairs, scratch, tie_round


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


def yellow_states(game):
    """Transition arrays of the all-yellow game's turn states for the kernel.

    The configuration of an all-yellow turn is the shotguns ``s`` taken
    (every roll throws ``dice`` fresh dice, so the outcome probabilities do
    not depend on it): ``NXT[s, o] = s + ds`` (``-1`` once ``s + ds`` busts),
    ``GAIN[s, o] = db``, ``PROB[s, o] = q(db, ds)`` over the outcomes of
    :func:`roll_outcomes`, ``INV[s] = 1 / (1 - q_0)`` (the all-footprint
    roll is the self-loop), ``SHOT[s] = s`` and ``BMIN[s] = 0``.

    Returns
    -------
    tuple
        ``(NXT, GAIN, PROB, INV, SHOT, BMIN)`` as the kernel takes them.
    """
    OB, OS, OP, q0 = roll_outcomes(game)
    K = game.bust_shotguns
    s = np.arange(K, dtype=np.int64)[:, None]
    nxt = s + OS[None, :]
    nxt[nxt >= K] = -1
    return (np.ascontiguousarray(nxt), np.repeat(OB[None, :], K, axis=0),
            np.repeat(OP[None, :], K, axis=0), np.full(K, 1.0 / (1.0 - q0)),
            np.arange(K, dtype=np.int64), np.zeros(K, dtype=np.int64))


def default_workers():
    """Threads for a solve: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_rounds(game, arrays, R, optimize, workers=1, progress=None):
    """Run the three steps of :mod:`designer.solve._zombie_kernel`.

    Parameters
    ----------
    game : ZombieGame or ZombieDiceGame
    arrays : tuple
        The turn states' ``(NXT, GAIN, PROB, INV, SHOT, BMIN)``.
    R : bool array, shape ``(2, goal + 1, cap + 1, cap, NC)``
        Decisions: written when ``optimize``, read otherwise.
    workers : int
        Threads for steps 2 and 3 (cut into independent chunks); with 1 and
        no ``progress`` the whole step runs in one kernel call.
    progress : callable, optional
        ``progress(done, total)``, called from this thread as score
        positions are solved: the tie round counts one, then each chase
        ``(c, a')`` and each round ``(a, c)`` one; ``total`` is
        ``1 + goal * (cap + 1 - goal) + goal ** 2``. The tables do not
        depend on it (each position is solved by the same kernel code, in
        an order that solves its dependencies first).

    Returns
    -------
    W, LW, T2, LT2 : ndarray
        The kernel's tables (see :func:`~designer.solve._zombie_kernel.tie_round`).
    stats : ndarray, shape (4,)
        Largest residual, total sweeps, largest sweeps in one pair, status
        (:func:`~designer.solve._classes.reduce_pair_stats`).

    Raises
    ------
    ConvergenceError
        A round that did not settle, or a policy under which the game
        never ends.
    """
    G, cap = game.goal, game.cap
    W = np.zeros((G + 1, G + 1))
    LW = np.zeros((G + 1, G + 1))
    T2 = np.zeros((G + 1, cap + 1))
    LT2 = np.zeros((G + 1, cap + 1))
    tables = (W, LW, T2, LT2, R, optimize)
    outs = [np.zeros(4)]
    # player 2's chases (c, a'), c < G <= a', and the rounds (a, c) below
    # the goal by decreasing a, then c (an order that solves dependencies first)
    chase = np.ascontiguousarray(np.indices((G, cap + 1 - G)).reshape(2, -1).T + np.array([0, G]))
    total, done = 1 + len(chase) + G * G, 0
    if progress is not None:
        progress(0, total)
    tie_round(G, cap, *arrays, *tables, TOL, TIE, MAX_SWEEPS, outs[0])
    if progress is not None:
        done += 1
        progress(done, total)
    if outs[0][3] == 0.0 and workers == 1 and progress is None:
        outs.append(np.zeros(4))
        chase_turns(G, cap, chase, *arrays, *tables, TIE, outs[-1])
        rounds = np.ascontiguousarray(G - 1 - np.indices((G, G)).reshape(2, -1).T)
        round_pairs(G, cap, rounds, *arrays, *tables, TOL, TIE, MAX_SWEEPS, outs[-1],
                    scratch(cap, arrays[0].shape[0]))
    elif outs[0][3] == 0.0:
        diagonals = [np.array([(a, d - a) for a in range(G - 1, -1, -1) if 0 <= d - a < G],
                              dtype=np.int64) for d in range(2 * G - 2, -1, -1)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            # chunks interleaved so that long and short turns are spread
            # evenly; more chunks than threads when progress is reported
            pieces = workers if progress is None else max(workers, min(len(chase), 64))
            parts = [np.ascontiguousarray(chase[w::pieces]) for w in range(pieces)]
            res = [np.zeros(4) for _ in parts]
            jobs = {pool.submit(chase_turns, G, cap, part, *arrays, *tables, TIE, r): len(part)
                    for part, r in zip(parts, res, strict=True)}
            for job in as_completed(jobs):
                job.result()
                if progress is not None:
                    done += jobs[job]
                    progress(done, total)
            outs += res
            scratches = [scratch(cap, arrays[0].shape[0]) for _ in range(workers)]
            for diag in diagonals:
                parts = [np.ascontiguousarray(diag[w::workers])
                         for w in range(min(workers, len(diag)))]
                res = [np.zeros(4) for _ in parts]
                list(pool.map(lambda t: round_pairs(G, cap, t[0], *arrays, *tables, TOL, TIE,
                                                    MAX_SWEEPS, t[1], t[2]),
                              zip(parts, res, scratches[:len(parts)], strict=True)))
                outs += res
                if progress is not None:
                    done += len(diag)
                    progress(done, total)
                if any(o[3] for o in res):
                    break
    stats = np.zeros(4)
    reduce_pair_stats(np.array(outs), stats)
    check_pair_stats(stats, game.name, "a round")
    return W, LW, T2, LT2, stats


def _warm():
    """Load (or compile) the kernels before timing, so ``seconds`` is solve time."""
    from designer.games import ZombieGame

    tiny = ZombieGame(dice=1, goal=1, cap=2)
    load_first((round_pairs,),
               lambda: _run(tiny, np.zeros(policy_shape(tiny), dtype=np.bool_), True))


def _run(game, R, optimize, progress=None):
    """Solve (or evaluate) the all-yellow ``game`` on one thread."""
    return run_rounds(game, yellow_states(game), R, optimize, workers=1, progress=progress)


def solve_zombie_game(game, progress=None):
    """Solve a Zombie Dice game exactly under optimal play by both players.

    ``progress``: as in :func:`run_rounds`.

    Returns
    -------
    ZombieSolution
    """
    from designer.solve.solution import ZombieSolution

    _warm()
    R = np.zeros(policy_shape(game), dtype=np.bool_)
    t0 = time.perf_counter()
    W, LW, T2, LT2, stats = _run(game, R, True, progress)
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
