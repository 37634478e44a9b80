"""Full Zombie Dice (SPEC 1.7): the Python layer over
:mod:`designer.solve._zombie_dice_kernel`.

Enumerates the dice configurations once per dice set
(:mod:`designer.solve.zombie_dice_states`, cached per process), allocates the
tables, calls the kernel and wraps the result in a
:class:`ZombieDiceSolution`.
"""

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL
from designer.errors import ConvergenceError, ParameterError
from designer.games._validate import check_int
from designer.solve._zombie_dice_kernel import chase_turns, round_pairs, tie_round
from designer.solve.solution import Solution
from designer.solve.zombie_dice_states import enumerate_turn_states


@lru_cache(maxsize=8)
def _states(counts, faces, dice, bust):
    return enumerate_turn_states(counts, faces, dice, bust)


def turn_states(game):
    """The :class:`~designer.solve.zombie_dice_states.TurnStates` of a game's dice."""
    return _states(game.counts, game.faces, game.dice, game.bust_shotguns)


def policy_shape(game, ts=None):
    """Shape of a decision table ``roll[p, i, j, b, k]`` (``k`` a configuration)."""
    ts = turn_states(game) if ts is None else ts
    return (2, game.goal + 1, game.cap + 1, game.cap, ts.count)


def zombie_dice_states(game, ts=None):
    """Number of non-terminal states ``(p, i, j, b, k)`` of the capped model.

    The rounds and player-2 turns of the all-yellow model
    (:func:`designer.solve.zombie.zombie_states`), each turn holding every
    configuration ``k`` at every ``b`` with ``sum(B_k) <= b`` below the
    turn's forced end ``b_f``.
    """
    ts = turn_states(game) if ts is None else ts
    G, cap = game.goal, game.cap
    per_b = np.bincount(ts.brains_aside, minlength=cap + 1)
    # configurations alive at b: those with at most b brains set aside
    alive = np.cumsum(per_b)[: cap + 1]

    def turn(bf):
        return int(alive[:bf].sum())

    n = G * sum(turn(cap - a) for a in range(G)) + turn(cap - G)
    n += sum(turn(min(max(G, ap + 1), cap) - c) for c in range(G) for ap in range(cap + 1))
    n += sum(turn(min(ap + 1, cap) - G) for ap in range(G, cap + 1))
    return n


def _arrays(ts):
    return (ts.nxt, ts.gain, ts.prob, 1.0 / (1.0 - ts.stay), ts.shotguns, ts.brains_aside)


def _warm():
    if not round_pairs.signatures:
        from designer.games.zombie import ZombieDiceGame

        tiny = ZombieDiceGame(0, 3, 0, dice=1, goal=2, cap=3)
        _run(tiny, turn_states(tiny), np.zeros(policy_shape(tiny), dtype=np.bool_), True, 1)


def default_workers():
    """Threads for a solve: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run(game, ts, R, optimize, workers=None):
    """Solve (or evaluate) on ``workers`` threads; returns the tables and stats.

    Step order as :mod:`designer.solve._zombie_kernel`; steps 2 and 3 are cut
    into independent chunks (see :mod:`designer.solve._zombie_dice_kernel`).
    """
    G, cap = game.goal, game.cap
    workers = default_workers() if workers is None else workers
    W = np.zeros((G + 1, G + 1))
    LW = np.zeros((G + 1, G + 1))
    T2 = np.zeros((G + 1, cap + 1))
    LT2 = np.zeros((G + 1, cap + 1))
    arrays = _arrays(ts)
    out = np.zeros(3)
    tie_round(G, cap, *arrays, W, LW, T2, LT2, R, optimize, TOL, TIE, MAX_SWEEPS, out)
    outs = [out]
    chase = np.array([(c, ap) for c in range(G) for ap in range(G, cap + 1)],
                     dtype=np.int64).reshape(-1, 2)
    diagonals = [np.array([(a, d - a) for a in range(G - 1, -1, -1) if 0 <= d - a < G],
                          dtype=np.int64) for d in range(2 * G - 2, -1, -1)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # chunks interleaved so that long and short turns are spread evenly
        list(pool.map(lambda part: chase_turns(G, cap, part, *arrays, W, LW, T2, LT2, R,
                                               optimize, TIE),
                      [np.ascontiguousarray(chase[w::workers]) for w in range(workers)]))
        for diag in diagonals:
            parts = [np.ascontiguousarray(diag[w::workers]) for w in range(min(workers, len(diag)))]
            res = [np.zeros(3) for _ in parts]
            list(pool.map(lambda t: round_pairs(G, cap, t[0], *arrays, W, LW, T2, LT2, R,
                                                optimize, TOL, TIE, MAX_SWEEPS, t[1]),
                          zip(parts, res, strict=True)))
            outs += res
    stats = np.array([max(o[0] for o in outs), sum(o[1] for o in outs) + len(chase), 0.0,
                      max(o[2] for o in outs)])
    if stats[3] == 1.0:
        raise ConvergenceError(
            f"{game.name}: a round did not converge within {MAX_SWEEPS} sweeps "
            f"(residual {stats[0]:.3g})")
    if stats[3] == 2.0:
        raise ConvergenceError(f"{game.name}: the game can go on forever under this policy")
    return W, LW, T2, LT2, stats


def solve_zombie_dice_game(game, workers=None):
    """Solve full Zombie Dice exactly under optimal play by both players.

    Parameters
    ----------
    game : ZombieDiceGame
    workers : int, optional
        Threads (default: every core this process may use).

    Returns
    -------
    ZombieDiceSolution
    """
    ts = turn_states(game)
    _warm()
    R = np.zeros(policy_shape(game, ts), dtype=np.bool_)
    t0 = time.perf_counter()
    W, LW, T2, LT2, stats = _run(game, ts, R, True, workers)
    seconds = time.perf_counter() - t0
    G = game.goal
    return ZombieDiceSolution(game, W[:G, :G].copy(), LW[:G, :G].copy(), R, float(stats[0]),
                              int(stats[1]), seconds, zombie_dice_states(game, ts), T2, LT2,
                              float(W[G, G]), float(LW[G, G]), ts)


def evaluate_zombie_dice_match(game, first, second):
    """Exact evaluation of a match between two fixed policies.

    Parameters
    ----------
    game : ZombieDiceGame
    first, second : bool arrays of shape :func:`policy_shape`
        Decision tables ``roll[p, i, j, b, k]``; player 1's decisions are
        read from ``first[0]``, player 2's from ``second[1]``.

    Returns
    -------
    dict
        ``first_player_win``, ``expected_actions``, ``win`` (player 1's win
        probability at every round start), ``tie_round_win``, ``seconds``.
    """
    ts = turn_states(game)
    _warm()
    R = np.empty(policy_shape(game, ts), dtype=np.bool_)
    R[0] = first[0]
    R[1] = second[1]
    t0 = time.perf_counter()
    W, LW, _, _, _ = _run(game, ts, R, False)
    seconds = time.perf_counter() - t0
    G = game.goal
    return {"first_player_win": float(W[0, game.komi]),
            "expected_actions": float(LW[0, game.komi]),
            "win": W[:G, :G].copy(), "tie_round_win": float(W[G, G]), "seconds": seconds}


@dataclass(frozen=True, eq=False)
class ZombieDiceSolution(Solution):
    """Solution of full Zombie Dice (SPEC 1.7).

    As :class:`~designer.solve.solution.ZombieSolution`, with the turn state
    ``(b, k)``: ``k`` indexes ``turn_states.configs`` (the dice set aside as
    brains and shotguns and the footprint dice in hand, by colour), and
    ``policy`` is ``roll[p, i, j, b, k]``.
    """

    second_win: np.ndarray = field(repr=False)
    second_actions: np.ndarray = field(repr=False)
    tie_round_win: float
    tie_round_actions: float
    turn_states: object = field(repr=False)

    def decision(self, p, i, j, b, config):
        """The optimal action at ``(p, i, j, b, config)``, ``p`` 1 or 2.

        ``config`` is the 9-tuple ``(B_g, B_y, B_r, S_g, S_y, S_r, F_g, F_y,
        F_r)``. Returns ``"roll"`` or ``"hold"`` (forced holds included).
        """
        g = self.game
        G, cap = g.goal, g.cap
        p = check_int("p", p, 1, 2)
        i = check_int("i", i, 0, G)
        j = check_int("j", j, 0, cap)
        b = check_int("b", b, 0, cap - i)
        try:
            k = self.turn_states.index(config)
        except ValueError as exc:
            raise ParameterError("config", config, "a reachable dice configuration") from exc
        if b < self.turn_states.brains_aside[k]:
            raise ParameterError("b", b, "at least the brains set aside")
        if p == 1 and not ((i < G and j < G) or i == j == G):
            raise ParameterError("j", j, f"player 1 moves at scores below {G} or at {G}, {G}")
        if p == 2 and i == G and j < G:
            raise ParameterError("j", j, f"{G} <= j when player 2 has {G}")
        bf = cap - i if p == 1 else min(max(G, j + 1), cap) - i
        if b >= bf:
            return "hold"
        if b == 0 and self.turn_states.shotguns[k] == 0:
            return "roll"
        return "roll" if self.policy[p - 1, i, j, b, k] else "hold"

    def summary(self, max_komi=10):
        """As :meth:`Solution.summary`, plus ``tie_round_win`` and ``configurations``."""
        out = super().summary(max_komi)
        out["tie_round_win"] = float(self.tie_round_win)
        out["configurations"] = int(self.turn_states.count)
        return out
