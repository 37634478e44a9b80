r"""A policy at one seat of a 2-4 seat race, the other seats playing the
max-n optimum, evaluated exactly.

How well does a simple rule do at a table of three or four? Seat ``a``
plays a fixed policy (``hold-at:N``, ``max-score``, a ``rule:`` or a
``py:`` function, as in the two-seat match of :mod:`designer.engine.match`;
a rule or a function reads the position as two seats: ``j`` is the highest
score of the other seats), and every other seat plays the optimum of
:func:`designer.engine.seats.solve_seats_model`, each decision taken from
its solved win table with the solver's ties (the optimal seats do not know
that seat ``a`` deviates). Every seat's exact win probability follows.

With every decision fixed the game is a Markov chain. Its values are
vectors, every seat's win, and they are held in the seats of each class's
representative tuple, so that a chance step averages vectors without
turning them:

.. math::

    Z(\text{stop}) = Z'(s_1, \ldots, s_{N-1}, s_0 + t, \mathrm{handover}(s)),
    \qquad Z(\text{throw}) = \sum_o p_o\, z_o,

with :math:`z_o` the winning vector of the mover where a turn total or an
end reaches the goal. The table is :math:`Z[s_0, \ldots, s_{N-1}, h, d, q]`
(scores from the mover on, the policy seat :math:`d` places after the
mover, seat :math:`q` places after the mover). Classes of tuples are taken
as the solve takes them, by decreasing score sum; inside a class each
placement of the policy seat is one cycle of the ``N`` rotations, every
value is affine in the turn starts of the feedback states of the cycle
(``N |F|`` unknown vectors), and those are solved exactly, one right-hand
side per seat. Where scores can fall, the classes are swept again until no
win moves by more than :data:`~designer._jit.TOL`.
"""

import time

import numba
import numpy as np

from designer._jit import TIE, TOL, load_first, threads
from designer import memory as mem
from designer.engine import _seat_match_kernels as K
from designer.engine._match_kernels import MAX_SCORE, TABLE
from designer.engine._seat_kernels import rotation_classes
from designer.engine.match import endless, hold_pick, max_score_arrays
from designer.engine.solve import TooLargeError, plan
from designer.errors import ConvergenceError, DesignError
from designer.engine.model import tiny_model

#: Passes over the table allowed where scores can fall.
MAX_PASSES = 100_000


def _most_outcomes(model):
    return int(np.diff(model.out_start).max(initial=1))


def memory_needed(p, players, nt, table=False, model=None):
    """Bytes :func:`seat_profile` allocates for plan ``p``: the table of
    every placement of the policy seat, the solve's table in the kernels'
    order, each thread's rows (with the optimal seats' decisions and the
    options they keep, ``model``'s most outcomes of one continuation per
    node) and a policy's decision table."""
    N, n, H = players, p["n"], p["H"]
    K1 = N * len(p["fh"]) + N
    mo = _most_outcomes(model) if model is not None else 1
    size = n ** N * H * (N * N + N)
    rows = nt * N * (p["nodes"] * (K1 + 3 + mo) + H * K1)
    tab = n * n * p["nodes"] if table else 0
    return (size + rows) * 8 + tab


def check_memory(model, p, players, policy, name, memory_limit=None):
    """Refuse, before anything is allocated (or solved), a seat profile of
    ``policy`` over the plan ``p`` whose tables pass ``memory_limit``
    (:func:`memory_needed` on the threads it would run). Returns that
    thread count."""
    memory_limit = mem.resolve(memory_limit)
    nt = max(1, min(numba.get_num_threads(), threads()))
    need = memory_needed(p, players, nt, policy.kind == TABLE, model)
    if need > memory_limit:
        raise TooLargeError(f"{policy.name} at one seat of {players} on {name} needs "
                            f"{need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}: lower the goal")
    return nt


def _warm():
    def tiny():
        from designer.engine._match_kernels import HOLD_AT
        from designer.engine.match import RulesPolicy
        from designer.engine.seats import solve_seats_model

        m = tiny_model()
        seat_profile(m, solve_seats_model(m, 2, 3, _timed=False),
                     RulesPolicy(HOLD_AT, "hold-at:1", 1), _timed=False)

    load_first((K.profile_classes,), tiny)


def seat_profile(model, solution, policy, *, unit=1, name="this game",
                 memory_limit=None, _timed=True):
    """Every seat's win with ``policy`` at each seat in turn, the others optimal.

    Parameters
    ----------
    model : TurnModel
    solution : SeatsResult
        :func:`~designer.engine.seats.solve_seats_model` of ``model`` (its
        goal and seats): the optimal seats' play.
    policy : RulesPolicy
        The policy seat's play (``optimal``: every seat optimal).
    unit : int
        Points per unit of score (what a rule or a function reads).
    name : str
        The game, for error messages.

    Returns
    -------
    SeatProfile

    Raises
    ------
    DesignError
        ``max-score`` where it is not defined.
    TooLargeError
        Tables over ``memory_limit``, refused before anything is allocated.
    ConvergenceError
        Turns that never end under these policies, or values that do not
        settle where scores can fall.
    """
    memory_limit = mem.resolve(memory_limit)
    N, goal = solution.players, solution.goal
    p = plan(model, goal)
    n, H = p["n"], p["H"]
    nt = check_memory(model, p, N, policy, name, memory_limit)
    pc = np.zeros(K.PC_LEN, dtype=np.int64)
    pc[K.PC_KIND], pc[K.PC_HOLD] = policy.kind, policy.n
    horizon, E, mstop, mcont = max_score_arrays(model, p, goal, name,
                                                policy.kind == MAX_SCORE)
    pc[K.PC_TC] = horizon
    tab = (policy.table(model, goal, unit, p) if policy.kind == TABLE
           else np.zeros((1, 1, 1), dtype=np.int8))
    if _timed:
        _warm()
    reps, groups, _ = rotation_classes(N, n)
    V = np.ascontiguousarray(np.moveaxis(np.asarray(solution.win), N, N - 1)).reshape(
        n ** (N - 1), H, n, N)
    Z = np.zeros((n ** (N - 1), H, n, N, N))
    if model.falls:
        Z[:] = 1.0 / N
    out = np.zeros(len(reps))
    cf = np.array([goal, p["lo"], model.min_bank, int(model.forced_first)], dtype=np.int64)
    args = (reps, groups, n, nt, len(p["fh"]), cf, pc, TIE, p["st"], model.out_start,
            model.out_prob, p["oq"], p["oc"], model.opt_start, model.opt_gain, model.opt_next,
            p["opt_nb"], p["fb"], p["fh"], p["blk_ptr"], p["blk_states"], p["blk_tmax"], V, Z,
            hold_pick(model), E, mstop, mcont, tab, p["nodes"], _most_outcomes(model), out)
    t0 = time.perf_counter()
    passes, residual = 0, 0.0
    while True:
        out[:] = 0.0
        K.profile_classes(*args)
        passes += 1
        if np.any(out < 0):
            bad = tuple(int(v) + p["lo"] for v in reps[int(np.flatnonzero(out < 0)[0])])
            raise endless(f"{policy.name} at one seat of {N} on {name}: the turns at "
                          f"scores {bad} can go on forever (no turn there ever ends "
                          f"with a score or a win)",
                          model.forced_first, model.min_bank)
        if not model.falls:
            break
        residual = float(out.max())
        if residual <= TOL:
            break
        if passes >= MAX_PASSES:
            raise ConvergenceError(f"{policy.name} at one seat of {N} on {name}: the values "
                                   f"still move by {residual:.1e} after {passes} passes")
    seconds = time.perf_counter() - t0
    win = np.moveaxis(Z.reshape((n,) * (N - 1) + (H, n, N, N)), N - 1, N)
    return SeatProfile(win, p["starts"], p["lo"], N, goal, residual, passes, seconds)


class SeatProfile:
    """Exact wins of a race with a policy at one seat (:func:`seat_profile`).

    Attributes
    ----------
    win : ndarray, shape (n,) * N + (H, N, N)
        ``win[s_0 - lo, ..., s_{N-1} - lo, h, d, q]``: at a turn start
        from ``start_states[h]`` with the scores from the mover on, the
        policy seat ``d`` places after the mover, the win probability of
        the seat ``q`` places after the mover.
    start_states : ndarray
    lo, players, goal : int
    residual : float
        0 where scores never fall; else the last pass's largest change.
    passes : int
    seconds : float
        Wall time of the kernels.
    """

    def __init__(self, win, start_states, lo, players, goal, residual, passes, seconds):
        self.win, self.start_states, self.lo = win, start_states, lo
        self.players, self.goal = players, goal
        self.residual, self.passes, self.seconds = residual, passes, seconds

    def seat_win(self, seat, start):
        """Every seat's win (seat 1 first) at the game's start, seat 1
        moving, with the policy at ``seat`` (0-based) and the seats at
        ``start`` points (units, seat 1 first)."""
        N = self.players
        if len(start) != N or not all(self.lo <= s < self.goal for s in start):
            raise DesignError(f"start {list(start)}: allowed {N} scores, each "
                              f"{self.lo}..{self.goal - 1}")
        h = int(np.searchsorted(self.start_states, 0))
        idx = tuple(int(s) - self.lo for s in start) + (h, seat % N)
        return np.array(self.win[idx], dtype=float)


__all__ = ["SeatProfile", "check_memory", "memory_needed", "seat_profile"]
