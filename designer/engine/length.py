r"""Expected game length under optimal play: two seats, first to the goal wins.

Counted in actions, as for the coded families: every throw or draw and
every stop (a pass, and the winning stop, included). A roll that brings
the turn straight back to where it was is folded out of the turn model
(:func:`designer.engine.model.fold_self_loops`) but still thrown: a
continuation counts the throws it stands for on average,
:attr:`~designer.engine.model.TurnModel.cont_throws`. With the win table
``V`` of :func:`designer.engine.solve.solve_model` solved, each decision is
fixed (the solver's rules: the best continuation, ties to the one listed
first; stopping wins a tie except at a turn total of 0), and the expected
actions left ``L`` follow the turn equations with ``1 +`` per action:

.. math::

    L(i, j, s, t) &= 1 + L(j, i + t, \mathrm{handover}(s))
        \quad \text{(a stop; } 1 \text{ if it wins)} \\
    L(i, j, s, t) &= 1 + \sum_o p_o\, \ell_o \quad \text{(a throw or draw)}

with :math:`\ell_o` the next node's length (1 where a winning stop
follows), 0 for an end that reaches the goal, and the opponent's turn
start otherwise. Pairs of scores are taken in the solve's order; inside a
pair the unknowns are the two sides' lengths at the feedback start, and
one sweep gives every length as an affine function of them (their own two
rows are then solved exactly). Where scores can fall, the pairs are swept
again until no length moves by more than :data:`~designer._jit.TOL` of
itself. One sweep per pair and pass: about the cost of the solve itself.
A game with several feedback states is evaluated by the general match
(:func:`designer.engine.match.match_model`, optimal against optimal).
"""

import math
import time

import numpy as np

from designer._jit import TIE, TOL, load_first, threads
from designer import memory as mem
from designer.engine import _length_kernels as K
from designer.engine.solve import TooLargeError, _pairs, plan
from designer.errors import ConvergenceError
from designer.engine.model import tiny_model

#: Passes over the table allowed when scores can fall.
MAX_PASSES = 100_000


def _warm():
    def tiny():
        from designer.engine.solve import solve_model

        m = tiny_model()
        game_lengths(m, solve_model(m, 2, _timed=False), _timed=False)

    load_first((K.length_pairs,), tiny)


def memory_needed(p, nt):
    """Bytes :func:`game_lengths` allocates for plan ``p`` on ``nt`` threads."""
    tables = 2 if p["falls"] else 1  # and the last pass's, where scores fall
    return (tables * p["n"] * p["n"] * p["H"] + nt * (8 * p["nodes"] + 6 * p["H"])) * 8


def game_lengths(model, solution, *, memory_limit=None, progress=None, _timed=True):
    """Expected actions left at every turn start under optimal play.

    Parameters
    ----------
    model : TurnModel
    solution : EngineResult
        :func:`~designer.engine.solve.solve_model` of ``model`` (its goal).
    memory_limit : int, optional
        Bytes allowed (default :func:`designer.memory.memory_limit`); more
        is refused before anything is allocated.
    progress : callable, optional
        ``progress(passes, change)`` after every pass where scores can fall
        (``change``: the largest relative change of a length).

    Returns
    -------
    lengths : ndarray, shape (n, n, H)
        Indexed as ``solution.win``.
    seconds : float
        Wall time of the kernels.

    Raises
    ------
    TooLargeError
        The lengths table passes ``memory_limit``.
    ConvergenceError
        A pair whose turns never end under the solved policy, or lengths
        that do not settle where scores can fall.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = solution.goal
    p = plan(model, goal)
    nt = threads()
    need = memory_needed(p, nt)
    if need > memory_limit:
        raise TooLargeError(f"the game length needs {need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if len(p["fh"]) > 1:
        return _by_match(model, solution)
    if _timed:
        _warm()
    V = np.ascontiguousarray(solution.win)
    n = p["n"]
    L = np.zeros((n, n, p["H"]))
    Lf = np.empty_like(L) if model.falls else L
    pairs, groups = _pairs(n)
    out = np.zeros((len(pairs), 2))
    cf = np.array([goal, p["lo"], model.min_bank, int(model.forced_first)], dtype=np.int64)
    fbh = int(p["fh"][0]) if len(p["fh"]) else -1
    t0 = time.perf_counter()

    def one_pass():
        out[:] = 0.0
        _run(model, p, pairs, groups, cf, fbh, V, L, Lf, nt, out)
        return out[:, 0], out[:, 1] != 0

    settle(one_pass, model.falls, pairs, p["lo"],
           lambda bad: f"under optimal play the turns at scores {bad} never end", progress)
    return L, time.perf_counter() - t0


#: Passes over which :func:`stalled` measures how fast lengths settle.
STALL_WINDOW = 20
#: Passes in all within which lengths must be on course to settle (a
#: length converging as a geometric series that needs more is refused as
#: too long to measure, long before :data:`MAX_PASSES`).
STALL_BUDGET = 10_000


def stalled(changes, budget):
    """Whether lengths that still move (``changes``: their largest
    relative change, pass by pass) will not settle within ``budget`` passes
    in all: at the rate their change shrank over the last
    :data:`STALL_WINDOW` passes, ``rho`` per pass, reaching
    :data:`~designer._jit.TOL` takes ``log(TOL / r) / log(rho)`` more. A
    geometric series settles at a steady rate; lengths that grow by about
    a round's worth every pass, towards a game of astronomically many
    rounds, shrink their relative change ever more slowly, and the passes
    they need outgrow any budget."""
    n = len(changes)
    if n <= STALL_WINDOW:
        return False
    r, r0 = changes[-1], changes[-1 - STALL_WINDOW]
    if r <= TOL:
        return False
    if r >= r0:
        return True
    rho = (r / r0) ** (1.0 / STALL_WINDOW)
    return n + math.log(TOL / r) / math.log(rho) > budget


#: Why a game's length is not given where it would take astronomically many
#: rounds (:func:`stalled`).
TOO_LONG = ("the game is too long to measure: at some scores play comes back to the same "
            "scores so many times on average that its expected length is past what double "
            "precision and the passes allowed can give (the win probabilities are given as "
            "solved)")


class LengthTooLong(ConvergenceError):
    """A game whose expected length cannot be measured (:data:`TOO_LONG`):
    its solve stands without it."""


def settle(one_pass, falls, rows, lo, never, progress=None):
    """Run passes of a length's kernel until the lengths settle.

    ``one_pass()`` runs one pass and returns, per row of ``rows`` (score
    pairs or rotation classes, as score indices), the largest relative
    change of a length and whether its turns never end. One pass where
    scores never fall; else passes until no length moves by more than
    :data:`~designer._jit.TOL` of itself, each told to ``progress(passes,
    change)`` if given.

    Raises
    ------
    ConvergenceError
        Turns that never end (``never(scores)`` says so), lengths that
        stall (:func:`stalled`: :class:`LengthTooLong`) or that still move after
        :data:`MAX_PASSES` passes.
    """
    passes, changes = 0, []
    while True:
        change, stuck = one_pass()
        passes += 1
        if np.any(stuck):
            bad = rows[int(np.flatnonzero(stuck)[0])] + lo
            raise ConvergenceError(never(tuple(int(v) for v in bad)))
        if not falls or float(change.max()) <= TOL:
            return
        if progress is not None:
            progress(passes, float(change.max()))
        changes.append(float(change.max()))
        if stalled(changes, min(STALL_BUDGET, MAX_PASSES)):
            raise LengthTooLong(TOO_LONG)
        if passes >= MAX_PASSES:
            raise ConvergenceError(f"the game length still moves by {change.max():.1e} after "
                                   f"{passes} passes")


def _run(model, p, pairs, groups, cf, fbh, V, L, Lf, nt, out):
    if Lf is not L:  # where scores fall: the last pass's lengths, read below a pair's sum
        np.copyto(Lf, L)
    K.length_pairs(pairs, groups, p["simple"], cf, TIE, p["st"], model.out_start, model.out_prob,
                   model.cont_throws, p["oq"], p["oc"], model.opt_start, model.opt_gain,
                   p["opt_nb"], fbh, p["blk_ptr"], p["blk_states"], p["blk_tmax"], V, L, Lf,
                   p["nodes"], nt, out)


def _by_match(model, solution):
    """Several feedback states: the general match, optimal against optimal."""
    from designer.engine._match_kernels import OPTIMAL
    from designer.engine.match import RulesPolicy, match_model

    opt = RulesPolicy(OPTIMAL, "optimal")
    m = match_model(model, solution.goal, opt, opt, solution=solution)
    return np.ascontiguousarray(m.actions[0]), m.seconds


__all__ = ["game_lengths", "memory_needed", "settle"]
