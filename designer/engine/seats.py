"""Solve any turn model exactly for two to four seats, first to the goal wins.

The game
--------
Seats ``1 .. N`` take turns in that order, over and over. Seat ``s``
starts with its start points (its komi); a turn is the turn process of
:mod:`designer.engine.model`, and it ends in one of three ways: the mover
stops and banks its turn total ``t`` (at ``t = 0`` it passes), a bust
loses the turn total (and, with the bust effects ``ZERO`` and
``PENALTY``, sets the mover's banked score to 0 or lowers it by the
penalty, not below the floor), or an ``END`` outcome banks the turn total
and its points. The next seat then starts its turn from the hand-over
state (a deck stays as the last turn left it; dice start afresh). The
first banked score at or above the goal wins at once.

Values and optimal play
-----------------------
A value is a vector: every seat's probability of winning. Optimal play is
*max-n*: the mover takes the action that maximises its own component.
``V(s_0, ..., s_{N-1}, h)`` is that vector at the start of a turn from
state ``h``, the scores listed in seat order from the mover and the
components too (component ``r`` belongs to the seat ``r`` places after
the mover). Inside a turn the mover's vector ``W(s, t)`` follows the
two-seat equations of :mod:`designer.engine.model` with ``1 - V(j, ...)``
replaced by the next mover's vector turned one seat back: a stop at
``t > 0`` is worth ``V(s_1, ..., s_{N-1}, s_0 + t, handover[s])`` read in
the mover's order, a win is the vector with 1 for the mover and 0
elsewhere.

Ties between actions are those of the two-seat solver: stopping wins a
tie (a continuation must beat it by more than :data:`~designer._jit.TIE`
in the mover's own component), except at a turn total of 0, where
stopping passes and continuing wins the tie; among continuations, and
among the options of one outcome, the one listed first wins a tie.

Rotation classes
----------------
Where scores never fall, a stop with ``t > 0`` raises the sum of the
scores; a turn that ends with no change of score (a bust, a pass, an
empty end) hands the same tuple, turned by one seat, to the next mover.
The ``N`` rotations of one tuple form a *class*, and the only cycles of
the game are inside a class. Classes are solved by decreasing score sum;
on two threads each class as soon as the classes it reads are solved
(:func:`designer.engine._seat_kernels.worker`, the scheme of the
two-seat solver: no thread waits for a whole score sum).

Inside a class the unknowns are the turn-start vectors of the *feedback
states* (chosen by the two-seat plan, :func:`designer.engine.solve.plan`:
the start of the dice, a fresh deck) of every rotation, ``K = N |F|``
vectors. Written with one component per seat of the class (whoever
moves), a chance step averages vectors without turning them, so under a
fixed policy every vector of the class is ``c + sum_k b_k X_k``: a
constant vector and ``K`` scalar weights. One backward sweep at the
estimate ``X``, deciding greedily, gives the unknowns' rows ``X = C + B X``
and policy iteration solves ``(I - B) Y = C`` (``K`` unknowns, ``N``
right-hand sides). The class is accepted at ``Y`` without another sweep
when no decision of the sweep can flip between ``X`` and ``Y`` (each
margin is affine in the unknowns), or otherwise once one greedy backup
moves the estimate by at most :data:`~designer._jit.TOL` (from the
:data:`~designer._jit.PI_EXACT`-th sweep on). Each class starts from the
solved tuples one point above it (inclusion-exclusion over the corners of
that cube), usually close enough that one sweep settles it.

Max-n with three or more seats is not always well posed: at a few tuples
the mutual best replies have two solutions, or none in pure strategies, or
every seat would rather pass for ever. One rule, the same for every class
and every number of seats: policy iteration for
:data:`~designer._jit.PI_SWEEPS` sweeps, then value iteration, each step
half a greedy backup (the two-seat rule; it settles most classes where
policy iteration cycles), accepted once one backup moves the estimate by
at most :data:`~designer._jit.TOL`. A class of three or more seats not
accepted within :data:`VI_SWEEPS` sweeps is *unsettled*: its estimate
becomes the iterate of smallest Bellman residual seen, and one more sweep
gives the values one greedy backup from it.
:attr:`SeatsResult.unsettled_positions` counts the score tuples of those
classes and :attr:`SeatsResult.unsettled_residual` is the largest residual
kept there. With two seats this cannot happen; a pair not accepted within
:data:`~designer._jit.MAX_SWEEPS` sweeps is a bug and is reported as one.
Where a class has two equilibria the one found depends on where the
iteration starts (the warm start above), as it does for any solver.

Scores that can fall
--------------------
When a bust can lower a banked score, a class also reads tuples of a
smaller sum, not yet solved. The classes are then swept in the same order
again and again (a block Gauss-Seidel iteration over the whole table, each
class solved exactly given the others; the smaller sums read as the last
pass left them, so every thread takes part and the numbers are those of
one worker taking the classes in order) until no stored value moves by
more than :data:`~designer._jit.TOL`; that change is reported in the
residual. Each class starts a pass from its stored
values, except a class that did not settle in the pass before: it starts
afresh from the tuples above it, so that its values follow its inputs and
not its own last iterate. With three or more seats the passes need not
converge: classes that read each other through falling scores may each
have two equilibria and pass after pass take them in turn. Once
:data:`STALL_PASSES` passes in a row bring the largest change no lower
(:data:`STALL`), the passes stop, and every class that still moved by
more than :data:`~designer._jit.TOL` in the last one counts as unsettled,
its last change in its residual.

Size
----
Only turn starts are stored: ``N`` probabilities per tuple of scores
``floor .. goal - 1`` and start state, ``n^N H N`` float64 in all, with a
class index per tuple; each thread holds the rows of one class's turns.
Both are estimated before anything is allocated, and a game above the
memory limit is refused.
"""

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, TIE, TOL, load_first, threads
from designer import memory as mem
from designer.engine import _seat_kernels
from designer.engine.solve import (PASSES_IF_FALLS, PLAN_STATES, SECONDS_FIXED,
                                   TooLargeError, _check_stuck, plan)
from designer.errors import ConvergenceError, DesignError, SolverError
from designer.engine.model import tiny_model

#: Seats the solver takes.
MIN_SEATS, MAX_SEATS = 2, 4

#: Sweeps allowed per class of three or more seats (policy iteration for
#: the first :data:`~designer._jit.PI_SWEEPS`, then value iteration)
#: before it is declared unsettled.
VI_SWEEPS = 1000
#: Passes over the whole table allowed when scores can fall.
MAX_PASSES = 100_000
#: With three or more seats, the passes stop once :data:`STALL_PASSES`
#: passes in a row have not brought the largest change below this share of
#: the least one before (module doc).
STALL = 0.999
STALL_PASSES = 4

#: Seconds per position and number of its row (a value carries ``N + 1``
#: numbers with one start state, else about ``2 (N + K)`` of work), and per
#: unit of sweep work (a position times the outcomes and options of its
#: state), on two threads: fitted to Pig, Fowl Play and Farkle with three
#: and four seats on the development machine (two cores, busy).
SECONDS_PER_CELL = 5e-9
SECONDS_PER_WORK = 1.2e-9


class SeatValues:
    """Reading a table of every seat's win probability, ``win[scores + (h,
    seat)]``, that starts ``start_states`` (the race's and the rounds'
    results; ``floor``: the lowest score held, 0 unless given)."""

    def value(self, scores, state=0):
        """Every seat's win probability, the seats at ``scores`` (each from
        ``floor`` to ``goal - 1``), from turn state ``state``: at a turn
        start, scores from the mover on (the race), or at the start of a
        round, in seat order (the rounds)."""
        floor = getattr(self, "floor", 0)
        scores = tuple(int(s) for s in scores)
        if len(scores) != self.players or not all(floor <= s < self.goal for s in scores):
            raise DesignError(f"scores {list(scores)}: allowed {self.players} scores, each "
                              f"{floor}..{self.goal - 1}")
        h = int(np.searchsorted(self.start_states, state))
        if h >= len(self.start_states) or self.start_states[h] != state:
            raise DesignError(f"state {state} never starts a turn")
        idx = tuple(s - floor for s in scores) + (h,)
        return np.array(self.win[idx], dtype=float)

    def seat_win(self, start=None):
        """Every seat's win probability, seat 1 first, when seat ``s``
        starts with ``start[s]`` points (default: none) and seat 1 moves
        first from state 0."""
        return self.value((0,) * self.players if start is None else start, 0)


@dataclass(frozen=True, eq=False)
class SeatsResult(SeatValues):
    """Exact max-n play of a race over a turn model, every start at once.

    Attributes
    ----------
    players, goal : int
    states : int
        Turn positions ``(scores, s, t)`` covered by the solve.
    residual : float
        Largest accepted Bellman residual of a class that settled; when
        scores can fall, at least the last pass's largest change.
    unsettled_positions : int
        Score tuples of the classes that did not settle (0 with two
        seats; module doc).
    unsettled_residual : float
        Largest Bellman residual kept there (0.0 if none).
    seconds : float
        Wall time of the kernels.
    passes, sweeps : int
        Passes over the table (1 when scores never fall), backward sweeps
        over all classes and passes.
    feedback : int
        Feedback states (unknowns per rotation of a class).
    win : ndarray, shape (n,) * N + (H, N)
        ``win[s_0 - floor, ..., s_{N-1} - floor, h, r]``: at a turn start
        from ``start_states[h]``, the win probability of the seat ``r``
        places after the mover (scores from the mover on). A view of the
        kernels' table, held with the last score after ``h``.
    start_states : ndarray
        The turn states indexing ``win``'s axis ``N`` (state 0 first).
    floor : int
        Lowest score held (0 unless penalties can take it lower).
    """

    players: int
    goal: int
    states: int
    residual: float
    unsettled_positions: int
    unsettled_residual: float
    seconds: float
    passes: int
    sweeps: int
    feedback: int
    win: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    floor: int = 0


def _check_players(players):
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or \
            not MIN_SEATS <= players <= MAX_SEATS:
        raise DesignError(f"invalid players={players}: allowed {MIN_SEATS} <= players <= "
                          f"{MAX_SEATS}")
    return int(players)


def table_at_least(model, goal, players):
    """``(positions, bytes)`` that solving ``model`` to ``goal`` with
    ``players`` seats needs at least, counted without planning it: ``N``
    float64 per tuple of scores and start state."""
    n = int(goal) - min(model.floor, 0)
    cells = n ** players * len(model.start_states())
    return cells, cells * players * 8


def memory_needed(p, players, nt):
    """Bytes the solve of plan ``p`` (:func:`designer.engine.solve.plan`)
    allocates with ``players`` seats on ``nt`` threads: the table, the
    class of every tuple (int32), the classes (their tuples, reports and
    flags) and each thread's rows."""
    N, n, H = players, p["n"], p["H"]
    tuples = n ** N
    K = N * len(p["fh"])
    D = N + K
    classes = tuples // N + n
    # the table (and, where scores fall, the last pass's) and each tuple's class
    table = (2 if p["falls"] else 1) * tuples * H * N * 8 + tuples * 4
    cls = classes * (N * 8 + _seat_kernels.REPORT * 8 + 8)
    # the class enumeration's flags over all tuples
    enum = tuples
    cap = N * p["nodes"] + 16
    scratch = nt * (N * p["nodes"] * (D + 2) + N * H * D + cap * (K + 3) + 6 * K * N + K * K
                    + K * (K + N) + 3 * D) * 8
    return table + cls + enum + scratch


def positions(p, players):
    """Turn positions ``(scores, s, t)`` a solve covers (plan ``p``)."""
    return p["positions"] // p["n"] * p["n"] ** (players - 1)


def estimate(model, goal, players, nt=None):
    """What solving ``model`` to ``goal`` with ``players`` seats needs,
    before anything is solved.

    Returns
    -------
    dict
        As :func:`designer.engine.solve.estimate`: ``positions``,
        ``start_states``, ``memory`` (bytes on ``nt`` threads), ``seconds``
        (a rough guide within a factor of about 2 on the machine it was
        measured on: :data:`SECONDS_PER_CELL`, :data:`SECONDS_PER_WORK`) and
        ``at_least`` (a game of many turn states whose table alone passes
        the memory limit: ``positions`` and ``memory`` are lower bounds and
        ``seconds`` is None).
    """
    players = _check_players(players)
    _check_stuck(model)
    cells, least = table_at_least(model, goal, players)
    if least > mem.memory_limit() and model.states > PLAN_STATES:
        return dict(positions=cells, start_states=len(model.start_states()), memory=least,
                    seconds=None, at_least=True)
    p = plan(model, int(goal))
    nt = threads() if nt is None else nt
    scores = np.arange(p["lo"], goal)
    tcap = np.maximum(goal - scores, model.min_bank)
    per_state = np.array([np.minimum(L, tcap).sum() for L in p["node_len"]], dtype=float)
    outs = np.diff(model.out_start)
    opts = np.diff(model.opt_start[model.out_start])
    owner = np.repeat(np.arange(model.states), np.diff(model.cont_start))
    weight = np.bincount(owner, weights=outs + opts, minlength=model.states)
    work = float((per_state * weight).sum()) * float(p["n"]) ** (players - 1)
    count = positions(p, players)
    row = players + 1 if p["H"] == 1 else 2 * (players + players * len(p["fh"]))
    seconds = SECONDS_PER_CELL * count * row + SECONDS_PER_WORK * work
    # where scores can fall: passes
    seconds *= PASSES_IF_FALLS if model.falls else 1
    return dict(positions=count, start_states=p["H"], memory=memory_needed(p, players, nt),
                seconds=SECONDS_FIXED + seconds, at_least=False,
                **({"passes": PASSES_IF_FALLS} if model.falls else {}))


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is solve time."""
    load_first((_seat_kernels.worker,), lambda: solve_seats_model(tiny_model(), 2, 3, _timed=False))


def _run(model, p, goal, players, V, Vf, warm, nt, reps, class_of, out, work):
    """Solve every class once (a pass) on ``nt`` threads, one worker each
    (:func:`designer.engine._seat_kernels.worker`). Where scores can fall
    ``Vf`` holds the table as the last pass left it (copied here), which a
    class reads below its own score sum: the numbers do not depend on the
    threads."""
    import threading

    if Vf is not V:
        np.copyto(Vf, V)
    cf = np.array([goal, p["lo"], model.min_bank, 1 if model.forced_first else 0, p["n"]],
                  dtype=np.int64)
    # policy iteration, then half greedy backups (module doc); two seats
    # as the two-seat solver: never unsettled
    damp = 0.5
    if players == 2:
        pi_limit, limit, unsettle = PI_SWEEPS, MAX_SWEEPS, False
    else:
        pi_limit, limit, unsettle = PI_SWEEPS, VI_SWEEPS, True
    claim = np.zeros(1, dtype=np.int64)
    done = np.zeros(len(reps), dtype=np.int64)
    # a fresh C array whether ``warm`` is one flag or one a class (a
    # broadcast view has another layout, which the worker compiles again for)
    warm = np.array(np.broadcast_to(np.asarray(warm, dtype=np.bool_), (len(reps),)))
    shared = (reps, class_of, cf, TIE, TOL, pi_limit, PI_EXACT, limit, unsettle, damp, warm,
              p["st"], model.out_start, model.out_prob, p["oq"], p["oc"], model.opt_start,
              model.opt_gain, p["opt_nb"], p["fb"], p["fh"], p["blk_ptr"], p["blk_states"],
              p["blk_tmax"], V, Vf, out, work, claim, done)

    failed = []

    def one(w):
        try:
            sc = _seat_kernels.scratch(players, len(p["fh"]), p["H"], p["nodes"], p["n"])
            _seat_kernels.worker(w, nt, *shared, *sc)
        except BaseException as exc:  # raised again in the caller's thread
            failed.append(exc)

    if nt == 1:
        one(0)
    else:
        pool = [threading.Thread(target=one, args=(w,), daemon=True) for w in range(nt)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
    if failed:
        raise failed[0]


def solve_seats_model(model, goal, players, *, memory_limit=None, progress=None, _timed=True):
    """Solve a race of ``players`` seats over ``model`` exactly (max-n).

    Parameters
    ----------
    model : TurnModel
        The turn process (state 0 starts the game).
    goal : int
        Points that win, ``>= 1``.
    players : int
        Seats, 2 to 4.
    memory_limit : int, optional
        Bytes the solve may allocate; a larger game is refused before
        anything is allocated (default :func:`designer.memory.memory_limit`).
    progress : callable, optional
        ``progress(passes, change)`` after every pass where scores can fall.

    Returns
    -------
    SeatsResult
        Every start (komi vector) of every goal up to ``goal`` at once.

    Raises
    ------
    TooLargeError
        The game needs more than ``memory_limit`` bytes.
    DesignError
        A goal or number of seats out of range, or a turn model the
        two-seat plan refuses.
    SolverError, ConvergenceError
        A class that does not settle with two seats (a bug), or scores
        that fall and a table that does not settle.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    N = _check_players(players)
    _check_stuck(model)
    cells, least = table_at_least(model, goal, N)
    if least > memory_limit and model.states > PLAN_STATES:
        raise TooLargeError(f"this game has at least {cells:,} positions and needs at least "
                            f"{least / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    p = plan(model, goal)
    need = memory_needed(p, N, threads())
    # numba's thread count as this thread set it (a study's workers each
    # take one), at most its pool's
    nt = max(1, min(numba.get_num_threads(), threads()))
    count = positions(p, N)
    if need > memory_limit:
        raise TooLargeError(f"this game has {count:,} positions with {N} players and needs "
                            f"{need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    n, H = p["n"], p["H"]
    t0 = time.perf_counter()
    reps, groups, class_of = _seat_kernels.rotation_classes(N, n)
    out = np.zeros((len(reps), _seat_kernels.REPORT))
    work = np.zeros((nt, 2), dtype=np.int64)
    # where scores can fall a class reads smaller classes before they are
    # solved: an equal share is the least misleading guess for them
    # held as V[prefix, h, last, seat] (the kernels' order: a state's stops
    # read neighbours), read as win[s_0, ..., s_{N-1}, h, seat] through a view
    V = np.full((n ** (N - 1), H, n, N), 1.0 / N if model.falls else 0.0)
    Vf = np.empty_like(V) if model.falls else V
    _run(model, p, goal, N, V, Vf, False, nt, reps, class_of, out, work)
    passes, sweeps = 1, int(out[:, _seat_kernels.R_SWEEPS].sum())
    if model.falls:
        best, since = np.inf, 0
        while True:
            if np.any(out[:, _seat_kernels.R_STATUS]):
                break
            change = float(out[:, _seat_kernels.R_CHANGE].max())
            if progress is not None:
                progress(passes, change)
            if change <= TOL:
                break
            best, since = (change, 0) if change < STALL * best else (best, since + 1)
            if N > 2 and since >= STALL_PASSES:
                # the passes go round in a cycle (module doc): the classes
                # still moving did not settle, by their last change
                moving = out[:, _seat_kernels.R_CHANGE] > TOL
                out[moving, _seat_kernels.R_SETTLED] = 0.0
                break
            if passes >= MAX_PASSES:
                raise ConvergenceError(f"the table still moves by {change:.1e} after "
                                       f"{passes} passes")
            # a class that did not settle starts afresh from the tuples above
            # it, not from its last iterate: its values then follow its inputs
            warm = out[:, _seat_kernels.R_SETTLED] == 1.0
            out[:] = 0.0
            _run(model, p, goal, N, V, Vf, warm, nt, reps, class_of, out, work)
            passes += 1
            sweeps += int(out[:, _seat_kernels.R_SWEEPS].sum())
    seconds = time.perf_counter() - t0
    if np.any(out[:, _seat_kernels.R_STATUS]):
        bad = reps[int(np.flatnonzero(out[:, _seat_kernels.R_STATUS])[0])] + p["lo"]
        raise SolverError(f"the engine did not settle the scores {tuple(int(v) for v in bad)} "
                          f"within {MAX_SWEEPS} sweeps")
    settled = out[:, _seat_kernels.R_SETTLED] == 1.0
    res = out[:, _seat_kernels.R_RESIDUAL]
    if model.falls:  # the last pass's change is a residual too
        res = np.maximum(res, out[:, _seat_kernels.R_CHANGE])
    residual = float(res[settled].max(initial=0.0))
    unsettled = reps[~settled]
    # the distinct tuples of the unsettled classes (a tuple such as
    # (3, 3, 3) is one tuple, whatever its rotations)
    distinct = sum(len({tuple(np.roll(c, -r)) for r in range(N)}) for c in unsettled)
    win = np.moveaxis(V.reshape((n,) * (N - 1) + (H, n, N)), N - 1, N)
    return SeatsResult(N, goal, count, residual, distinct,
                       float(res[~settled].max(initial=0.0)), seconds, passes, sweeps,
                       len(p["fh"]), win, p["starts"], p["lo"])


__all__ = ["SeatsResult", "estimate", "memory_needed", "solve_seats_model"]
