r"""Expected game length under max-n play: two to four seats, first to the goal wins.

Counted in actions, as for two seats (:mod:`designer.engine.length`):
every throw or draw and every stop, a pass and the winning stop included.
With the win table of :func:`designer.engine.seats.solve_seats_model`
solved, each decision is fixed (the solver's rules: the mover maximises
its own win; the best continuation, ties to the one listed first; stopping
wins a tie except at a turn total of 0), and the expected actions left
``L`` follow the turn equations with ``1 +`` per action:

.. math::

    L(s_0, \ldots, s_{N-1}, s, t) &= 1 + L(s_1, \ldots, s_{N-1}, s_0 + t,
        \mathrm{handover}(s)) \quad \text{(a stop; } 1 \text{ if it wins)} \\
    L(s_0, \ldots, s_{N-1}, s, t) &= 1 + \sum_o p_o\, \ell_o
        \quad \text{(a throw or draw)}

(scores listed from the mover on) with :math:`\ell_o` the next node's
length (1 where a winning stop follows), 0 for an end that reaches the
goal, and the next seat's turn start otherwise. Score tuples are taken by
rotation class, as the solve takes them (by decreasing score sum, the
classes of one sum side by side); inside a class the unknowns are the
lengths at the feedback starts of its ``N`` rotations, one sweep gives
every length as an affine function of them, and their own rows are solved
exactly. Where scores can fall, the classes are swept again until no
length moves by more than :data:`~designer._jit.TOL` of itself.

Where max-n play is not well posed (classes the solve reports unsettled)
the decisions are those the stored table gives; if under them some turns
never end, the length is not defined, and it is refused in one line.
"""

import time

import numba
import numpy as np

from designer._jit import TIE, load_first, threads
from designer import memory as mem
from designer.engine import _seat_length_kernels as K
from designer.engine._seat_kernels import rotation_classes
from designer.engine.length import settle
from designer.engine.solve import TooLargeError, plan
from designer.engine.model import tiny_model

def memory_needed(p, players, nt):
    """Bytes :func:`seat_lengths` allocates for plan ``p`` with ``players``
    seats on ``nt`` threads: the lengths table and its copy in the solve's
    order, and each thread's rows (the win table is the solve's own)."""
    K1 = players * len(p["fh"]) + 1
    return (p["n"] ** players * p["H"] * 2
            + nt * players * (p["nodes"] * (K1 + 1) + p["H"] * K1)) * 8


def _warm():
    def tiny():
        from designer.engine.seats import solve_seats_model

        m = tiny_model()
        seat_lengths(m, solve_seats_model(m, 2, 3, _timed=False), _timed=False)

    load_first((K.length_classes,), tiny)


def seat_lengths(model, solution, *, memory_limit=None, progress=None, _timed=True):
    """Expected actions left at every turn start under max-n play.

    Parameters
    ----------
    model : TurnModel
    solution : SeatsResult
        :func:`~designer.engine.seats.solve_seats_model` of ``model`` (its
        goal and seats).
    memory_limit : int, optional
        Bytes allowed (default :func:`designer.memory.memory_limit`); more
        is refused before anything is allocated.
    progress : callable, optional
        ``progress(passes, change)`` after every pass where scores can fall
        (``change``: the largest relative change of a length).

    Returns
    -------
    lengths : ndarray, shape (n,) * N + (H,)
        Indexed as ``solution.win`` without its last axis (scores from the
        mover on).
    seconds : float
        Wall time of the kernels.

    Raises
    ------
    TooLargeError
        The lengths table passes ``memory_limit``.
    ConvergenceError
        Turns that never end under the stored decisions, or lengths that
        do not settle where scores can fall.
    """
    memory_limit = mem.resolve(memory_limit)
    N, goal = solution.players, solution.goal
    p = plan(model, goal)
    n, H = p["n"], p["H"]
    nt = max(1, min(numba.get_num_threads(), threads()))
    need = memory_needed(p, N, nt)
    if need > memory_limit:
        raise TooLargeError(f"the game length of {N} players needs {need / 2**20:,.0f} MB, over "
                            f"the limit of {mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    reps, groups, _ = rotation_classes(N, n)
    # held as V[prefix, h, last, seat] and L[prefix, h, last] in the kernels
    # (the first N - 1 scores, then the last): a state's stops read neighbours
    # (the solve's own table, under its view: no copy)
    V = np.ascontiguousarray(np.moveaxis(np.asarray(solution.win), N, N - 1)).reshape(
        n ** (N - 1), H, n, N)
    L = np.zeros((n ** (N - 1), H, n))
    out = np.zeros(len(reps))
    cf = np.array([goal, p["lo"], model.min_bank, int(model.forced_first)], dtype=np.int64)
    t0 = time.perf_counter()

    def one_pass():
        out[:] = 0.0
        _run(model, p, reps, groups, N, cf, V, L, nt, out)
        return out, out < 0

    settle(one_pass, model.falls, reps, p["lo"],
           lambda bad: f"under the solved play of {N} players the turns at scores {bad} never "
                       f"end, so the game length is not defined", progress)
    seconds = time.perf_counter() - t0
    return np.ascontiguousarray(L.transpose(0, 2, 1)).reshape((n,) * N + (H,)), seconds


def _run(model, p, reps, groups, N, cf, V, L, nt, out):
    args = (reps, groups, p["n"], nt, len(p["fh"]), cf, TIE, p["st"], model.out_start,
            model.out_prob, model.cont_throws, p["oq"], p["oc"], model.opt_start, model.opt_gain,
            p["opt_nb"], p["fb"], p["fh"], p["blk_ptr"], p["blk_states"], p["blk_tmax"], V, L,
            p["nodes"], out)
    K.length_classes(*args)


__all__ = ["memory_needed", "seat_lengths"]
