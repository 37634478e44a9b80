"""Full Zombie Dice: the Python layer over
:mod:`designer.solve._zombie_kernel` (the kernel of every Zombie game).

Enumerates the dice configurations once per dice set
(:mod:`designer.solve.zombie_dice_states`, cached per process), runs the
kernel through :func:`designer.solve.zombie.run_rounds` on several threads
and wraps the result in a :class:`ZombieDiceSolution`.
"""

import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from designer.errors import ParameterError
from designer.solve.solution import Solution, zombie_forced_end, zombie_position
from designer.solve.zombie import _warm as _warm_kernels
from designer.solve.zombie import default_workers, run_rounds
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
    """Load (or compile) the kernels (shared with the all-yellow game)."""
    _warm_kernels()


def _run(game, ts, R, optimize, workers=None, progress=None):
    """Solve (or evaluate) on ``workers`` threads (default: every core this
    process may use); returns the tables and stats of
    :func:`designer.solve.zombie.run_rounds`."""
    workers = default_workers() if workers is None else workers
    return run_rounds(game, _arrays(ts), R, optimize, workers, progress)


__all__ = ["default_workers", "evaluate_zombie_dice_match", "policy_shape",
           "solve_zombie_dice_game", "turn_states", "zombie_dice_states", "ZombieDiceSolution"]


def solve_zombie_dice_game(game, workers=None, progress=None):
    """Solve full Zombie Dice exactly under optimal play by both players.

    Parameters
    ----------
    game : ZombieDiceGame
    workers : int, optional
        Threads (default: every core this process may use).
    progress : callable, optional
        ``progress(done, total)`` over score positions, as in
        :func:`designer.solve.zombie.run_rounds`.

    Returns
    -------
    ZombieDiceSolution
    """
    ts = turn_states(game)
    _warm()
    R = np.zeros(policy_shape(game, ts), dtype=np.bool_)
    t0 = time.perf_counter()
    W, LW, T2, LT2, stats = _run(game, ts, R, True, workers, progress)
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
    """Solution of full Zombie Dice.

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
        p, i, j, b = zombie_position(self.game, p, i, j, b)
        try:
            k = self.turn_states.index(config)
        except ValueError as exc:
            raise ParameterError("config", config, "a reachable dice configuration") from exc
        if b < self.turn_states.brains_aside[k]:
            raise ParameterError("b", b, "at least the brains set aside")
        if b >= zombie_forced_end(self.game, p, i, j):
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
