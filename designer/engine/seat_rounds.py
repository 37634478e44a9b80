"""The rounds ending (equal turns) over any turn model: two to four seats,
max-n.

The game
--------
Play goes in rounds: seat 1, then 2, ..., then ``N``. A seat may stop at
any score and scores may pass the goal. When a round ends with a score at
or above the goal, the highest score wins; a tie for it is settled by the
tie rule:

``replay``
    the tied seats play another round among themselves (in seat order,
    only the points of that round counting), as often as needed;
``earlier-seat``
    the seat that moved earlier in the round wins it, so a later seat must
    strictly beat the leader.

Every seat maximises its own win probability (max-n); ties between actions
as in :mod:`designer.engine.seats`: stopping wins a tie (continuing must be
better by more than :data:`~designer._jit.TIE`) except at a turn total of
0, where continuing wins; among continuations and options the one listed
first wins. Scores never fall here (a model whose busts lower a banked
score is refused).

Three kinds of turn, solved in this order
-----------------------------------------
``tie`` (replay only)
    A tie round among ``t`` seats (``t = 2 .. N``) depends only on the
    points scored in it: one generic round per ``t``, position ``p`` to
    move, the largest gain so far ``Bg`` and the positions holding it. Gains
    are capped at ``cap - goal``; the last position stops as soon as it
    passes the bar. A round in which every position ends level starts the
    same round again (the only cycle): its start values are iterated from
    ``1/t`` until one iterate moves them by at most :data:`TIE_TOL`.
``final``
    Some seat before ``m`` ended its turn at or above the goal: seat ``m``
    moves against the bar ``B`` (the highest score) held by a set of
    earlier seats, the seats after it below the goal. A seat's score is
    capped at ``cap`` (a roll that reaches it stops there); the last seat
    stops as soon as it passes the bar, so its value depends only on its
    distance to it. Seats ``N - 1`` down to ``1``, one sweep each.
``open``
    No score has reached the goal: the scores of all seats, seat ``m`` to
    move. Tuples are solved in decreasing score sum; a round in which no
    seat scores returns to the same tuple, the only cycle. Its unknowns
    are the turn starts, of some seats, at the feedback states of the
    two-seat plan (:func:`designer.engine.solve.plan`: the start of the
    dice, a fresh deck), those whose value a sweep (blocks of the plan
    successors first, seats ``N - 1`` down to ``0`` in each) reads before it
    computes it: one for dice, ``N`` for a deck. Every value is affine in
    them, and policy iteration settles each tuple
    (:mod:`designer.engine._seat_rounds_kernels`).

Max-n with three or more seats is not always well posed (see
:mod:`designer.engine.seats`). One rule: policy iteration for
:data:`~designer._jit.PI_SWEEPS` sweeps, then half greedy backups, each
tuple accepted once one backup moves its estimate by at most
:data:`~designer._jit.TOL`; a tuple not accepted within :data:`VI_SWEEPS`
sweeps is *unsettled*: its estimate becomes the iterate of least residual
seen, counted in :attr:`SeatRoundsResult.unsettled_positions` with its
residual in ``unsettled_residual``. With two seats this is a bug and
raised.

The cap
-------
Scores are unbounded; as the two-seat solver (:mod:`designer.engine.rounds`)
the cap is ``goal + CAP_MARGIN`` by default, and the tests check that the
figures do not move when it grows.

The game length
---------------
Asked for (``length=True``), every row carries one more number: the
expected actions left (each throw or draw and each stop, a pass, a stop
forced by the cap and the last seat's winning stop included; a bust or an
end outcome adds none), under the decisions the win probabilities make.
Inside an open tuple these are affine in the unknowns' own actions, and
once the decisions settle one linear solve gives them exactly; a tie
round's are iterated with its wins (a relative change of at most
:data:`TIE_TOL`).

Size
----
Every stored value is a row of ``N`` float64 per start state (``N + 1``
with the game length): the open
turn starts of every seat (``N G^N`` rows), the final rounds' (``(C - G +
1) 2^m G^(N - m)`` rows for seat ``m < N - 1``, ``2^(N-1) (C + 1)`` for
the last) and the tie rounds'. :func:`estimate` counts them before
anything is allocated, and a game over the memory limit is refused.
"""

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, TIE, TOL, first_call, threads
from designer import memory as mem
from designer.engine import _seat_rounds_kernels as sk
from designer.engine.rounds import CAP_MARGIN, TIE_RULES, _moves, _order, _totals
from designer.engine.seats import SeatValues, _check_players
from designer.engine.solve import TooLargeError, _check_stuck, _edges, plan
from designer.errors import ConvergenceError, DesignError, SolverError

#: Seats the solver takes.
#: Sweeps allowed per open tuple of three or more seats before it is
#: declared unsettled.
VI_SWEEPS = 1000
#: The tie round's start values are accepted once one iterate moves them
#: by at most this (or once rounding stops them from moving less).
TIE_TOL = 1e-15
#: Iterates of a tie round before it is declared unsettled.
MAX_TIE_ITER = 10_000
#: Seconds per unit of work (an in-turn position times the outcomes and
#: options of its state times the numbers of a value), on two threads of
#: the development machine (two cores, busy): 3-player Pig 2.1e-9, Farkle
#: 2.7e-9, Hog 4.7e-9, Red Light 6e-9.
SECONDS_PER_WORK = 3e-9
#: Seconds of any solve, however small.
SECONDS_FIXED = 0.01


@dataclass(frozen=True, eq=False)
class SeatRoundsResult(SeatValues):
    """Exact max-n play of ``players`` seats under the rounds ending.

    Attributes
    ----------
    players, goal, cap : int
    ties : str
    win : ndarray, shape (goal,) * players + (H, players)
        ``win[s_1, ..., s_N, h, r]``: seat ``r``'s win probability at the
        start of a round (seat 1 to move from ``start_states[h]``), the
        seats at scores ``s`` (seat order, not turned).
    start_states : ndarray
    states : int
        In-turn positions of one sweep of the open and final rounds.
    residual : float
        Largest accepted residual (open tuples and tie rounds).
    unsettled_positions : int
        Open tuples and tie rounds that did not settle (0 with two seats).
    unsettled_residual : float
    sweeps : int
        Backward sweeps over open tuples.
    tie_iterations : int
    feedback : int
        Unknown turn-start vectors per open tuple.
    seconds : float
    actions : ndarray or None, shape (goal,) * players + (H,)
        Expected actions left at the start of a round (indexed as ``win``
        without its last axis); None unless the length was asked, NaN at
        scores where the solved play has turns that never end.
    """

    players: int
    goal: int
    cap: int
    ties: str
    win: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    states: int
    residual: float
    unsettled_positions: int
    unsettled_residual: float
    sweeps: int
    tie_iterations: int
    feedback: int
    seconds: float
    actions: np.ndarray = field(default=None, repr=False)


def _masks(m, replay):
    """Sets of seats before ``m`` that can hold the bar: every non-empty
    one (replay), one seat (earlier-seat)."""
    if replay:
        return list(range(1, 1 << m))
    return [1 << q for q in range(m)]


def _geometry(N, G, C, H, replay):
    """Row offsets (``geo`` of :mod:`designer.engine._seat_rounds_kernels`),
    the tie rounds' offsets ``toff[t, p]`` and the rows in all."""
    ncap = C - G + 1
    Cg = C - G
    rows = 1 << N  # OUT: a mask's result (one seat wins, or a tie round)
    toff = np.zeros((N + 1, N + 1), dtype=np.int64)
    if replay:
        for t in range(2, N + 1):
            for p in range(1, t):
                toff[t, p] = rows
                rows += (Cg + 1) * (1 << p)
    fl = rows
    rows += (1 << (N - 1)) * (C + 1)
    ff = np.zeros(3, dtype=np.int64)
    for m in range(1, N - 1):
        ff[m] = rows
        rows += ncap * (1 << m) * G ** (N - m)
    opn = rows
    rows += N * G ** N
    geo = np.array([N, G, C, 1 if replay else 0, 0, fl, opn, *ff], dtype=np.int64)
    return geo, toff, rows + 1  # and one scratch row


def _counts(lo, hi, T):
    """In-turn positions of one turn forced to end at total ``T`` (an array
    of ``T``), over every state."""
    T = np.asarray(T, dtype=np.int64)
    top = np.minimum(hi[None, :], T[:, None] - 1)
    return np.maximum(top - lo[None, :] + 1, 0).sum(axis=1)


@dataclass(frozen=True, eq=False)
class _Layout:
    order: np.ndarray
    starts: np.ndarray
    hidx: np.ndarray
    out_h: np.ndarray
    hand_h: np.ndarray
    pass_ok: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    blk_ptr: np.ndarray
    blk_states: np.ndarray
    blk_tmax: np.ndarray
    uk: np.ndarray
    ukm: np.ndarray
    ukh: np.ndarray
    Tn: int


def _layout(model, N, C):
    """How the kernels walk ``model`` with ``N`` seats and the cap ``C``:
    the states' order, totals reached, the plan's blocks and the unknowns
    of an open tuple (module doc)."""
    S = model.states
    order = _order(model)
    starts = model.start_states()
    H = len(starts)
    hidx = np.full(S, -1, dtype=np.int64)
    hidx[starts] = np.arange(H)
    out_h = np.where(model.out_kind != 1, hidx[np.maximum(model.out_next, 0)], 0)
    hand_h = hidx[model.handover]
    Tn = max(C, model.min_bank) + 1
    src, dst, gain = _moves(model)
    lo, hi = _totals(S, starts, src, dst, gain, Tn)
    _, ends, pass_ok = _edges(model)
    p = plan(model, Tn)
    blk_ptr, blk_states = p["blk_ptr"], p["blk_states"]
    blk_of = np.empty(S, dtype=np.int64)
    for b in range(len(blk_ptr) - 1):
        blk_of[blk_states[blk_ptr[b]:blk_ptr[b + 1]]] = b
    blk_tmax = np.array([int(hi[blk_states[a:b]].max()) for a, b in zip(blk_ptr[:-1], blk_ptr[1:])],
                        dtype=np.int64)
    # a turn start (m', h) is an unknown where a sweep (blocks successors
    # first, seats N-1 .. 0 in each) reads it before computing it
    need = np.zeros((N, H), dtype=bool)
    for s, hs in ends:
        h = hidx[hs]
        for m in range(N):
            mn = (m + 1) % N
            if not (blk_of[hs] < blk_of[s] or (blk_of[hs] == blk_of[s] and m != N - 1)):
                need[mn, h] = True
    uk = np.full((N, H), -1, dtype=np.int64)
    ukm, ukh = np.nonzero(need)
    uk[ukm, ukh] = np.arange(len(ukm))
    return _Layout(order, starts, hidx, out_h.astype(np.int64), hand_h.astype(np.int64),
                   pass_ok.astype(np.bool_), lo, hi, blk_ptr, blk_states, blk_tmax, uk,
                   ukm.astype(np.int64), ukh.astype(np.int64), Tn)


def _refuse_falls(model):
    if model.falls:
        raise DesignError("this solver takes 3 or 4 players in rounds only where busts never "
                          "lower a banked score (designer.engine.seat_rounds_falls solves the "
                          "others)")


def _sizes(model, lay, N, G, C, replay, nt, na=None):
    """``(positions, bytes, work)`` of a solve (module doc, Size), ``na``
    numbers a row (``N``, or ``N + 1`` with the game length)."""
    na = N if na is None else na
    H, S, mb = len(lay.starts), model.states, model.min_bank
    K = len(lay.ukm)
    _, _, rows = _geometry(N, G, C, H, replay)
    v = np.arange(G)
    last = _counts(lay.lo, lay.hi, np.maximum(G - v, mb)).sum()
    other = _counts(lay.lo, lay.hi, np.maximum(C - v, mb)).sum()
    opn = (last + (N - 1) * other) * G ** (N - 1)
    nm = lambda m: len(_masks(m, replay))  # noqa: E731
    fin = nm(N - 1) * _counts(lay.lo, lay.hi, np.maximum(np.arange(1, C + 1) + 1, mb)).sum()
    for m in range(1, N - 1):
        fin += (C - G + 1) * nm(m) * other * G ** (N - m - 1)
    positions = int(opn + fin)
    per_state = (model.outcomes + len(model.opt_gain)) / max(S, 1)
    work = float(opn) * per_state * (na + K) + float(fin) * per_state * na
    # each worker's: the open sweep's rows and own values, its turn starts,
    # a plain turn's values and the rows its turns end at (with the length
    # the open sweep's rows are padded to whole cache lines, 8 numbers)
    dw = na + K if na == N else -(-(na + K) // 8) * 8
    scratch = nt * (N * S * lay.Tn * (dw + 1) + N * S * dw + N * H * dw
                    + S * lay.Tn * na + 2 * N * lay.Tn) * 8
    jobs = max((C - G + 1) * nm(m) * G ** (N - m) for m in range(1, N)) * 7 * 8 if N > 2 else 0
    memory = rows * H * na * 8 + scratch + jobs + G ** N * na * 16
    return positions, int(memory), work


def table_at_least(model, goal, players, cap=None, length=False):
    """``(rows, bytes)`` of the table alone, counted without planning."""
    N, G = players, int(goal)
    C = G + CAP_MARGIN if cap is None else int(cap)
    _, _, rows = _geometry(N, G, C, 1, True)
    H = len(model.start_states())
    return rows * H, rows * H * (N + bool(length)) * 8


def estimate(model, goal, players, *, ties="replay", cap=None, nt=None, length=False):
    """What solving ``model`` to ``goal`` with ``players`` seats under the
    rounds ending needs (with the game length if ``length``), before
    anything is solved: ``positions`` (in-turn positions swept),
    ``start_states``, ``memory`` (bytes on ``nt`` threads),
    ``seconds`` (a rough guide, within a factor of about 3 on the machine it
    was measured on) and ``at_least``: the table alone passes the memory
    limit, ``positions`` (then the table's rows) and ``memory`` are lower
    bounds and ``seconds`` is None."""
    N = _check_players(players)
    _refuse_falls(model)
    _check_stuck(model)
    G = int(goal)
    C = G + CAP_MARGIN if cap is None else int(cap)
    nt = threads() if nt is None else nt
    rows, least = table_at_least(model, G, N, C, length)
    if least > mem.memory_limit():  # counted without planning: lower bounds
        return dict(positions=rows, start_states=len(model.start_states()), memory=least,
                    seconds=None, at_least=True)
    lay = _layout(model, N, C)
    positions, memory, work = _sizes(model, lay, N, G, C, ties == "replay", nt,
                                     N + bool(length))
    return dict(positions=positions, start_states=len(lay.starts), memory=memory,
                seconds=SECONDS_FIXED + SECONDS_PER_WORK * work, at_least=False)


def _model_args(model, lay, length):
    """The model's arrays as the kernels take them; the throws of each
    continuation only with the game length (None compiles the kernels
    without it)."""
    return (lay.lo, lay.hi, model.cont_start, model.out_start, model.out_prob,
            model.cont_throws if length else None, model.out_kind, model.out_points, lay.out_h,
            model.opt_start, model.opt_gain, model.opt_next, lay.hand_h)


def _rows(kind, jobs, geo, toff, nt, A, model, lay):
    if not len(jobs):
        return
    lo, hi, *rest = _model_args(model, lay, A.shape[2] > geo[sk.G_N])
    sk.solve_rows(kind, jobs, geo, toff, min(nt, len(jobs)), A, TIE, lay.order, lo, hi, *rest,
                  lay.pass_ok, model.min_bank, model.forced_first, lay.starts, lay.Tn)


def _tie_rounds(model, lay, geo, toff, A, N, G, C, nt):
    """The tie rounds ``t = 2 .. N`` (replay); returns ``(iterations,
    residual, unsettled, unsettled residual)`` and fills the OUT rows of
    every set of two or more seats (the actions left too, if carried: their
    change is measured relative to them)."""
    Cg, mb = C - G, model.min_bank
    scratch = A.shape[0] - 1
    length = A.shape[2] > N
    iters, residual, unsettled, un_res = 0, 0.0, 0, 0.0
    for t in range(2, N + 1):
        full = (1 << t) - 1
        A[full, :, :] = 0.0
        A[full, :, :t] = 1.0 / t
        jobs = tie_jobs(t, toff, Cg, mb, scratch)

        def sweep():
            for j in jobs:
                _rows(0, j, geo, toff, nt, A, model, lay)
            d = np.abs(A[scratch] - A[full])
            change = float(d[:, :N].max())
            if length:
                change = max(change, float((d[:, N] / np.maximum(1.0, A[scratch, :, N])).max()))
            A[full] = A[scratch]
            return change

        it, change, settled = iterate_tie(sweep)
        iters += it
        if settled:
            residual = max(residual, change)
        else:
            unsettled += 1
            un_res = max(un_res, change)
        Y = A[full, :, :t].copy()
        YL = A[full, :, N:].copy()
        for M in range(1 << N):
            seats = [q for q in range(N) if M >> q & 1]
            if len(seats) == t:
                A[M] = 0.0
                for rank, q in enumerate(seats):
                    A[M, :, q] = Y[:, rank]
                A[M, :, N:] = YL
    return iters, residual, unsettled, un_res


def tie_jobs(t, toff, Cg, mb, scratch):
    """The jobs of a tie round among ``t`` seats, in the order they are
    solved: positions ``t - 1`` down to 1, then the round's start (written
    to the ``scratch`` row)."""
    jobs = []
    for p in range(t - 1, 0, -1):
        rows = [(toff[t, p] + Bg * (1 << p) + Tm, p,
                 max(Bg + 1, mb) if p == t - 1 else max(Cg, mb), t, p, Bg, Tm)
                for Bg in range(Cg + 1) for Tm in range(1, 1 << p)]
        jobs.append(np.array(rows, dtype=np.int64).reshape(-1, 7))
    jobs.append(np.array([(-scratch - 1, 0, max(Cg, mb) if t > 1 else 1, t, 0, 0, 0)],
                         dtype=np.int64))
    return jobs


def iterate_tie(sweep):
    """Iterate a tie round's start values (``sweep()`` runs one iterate and
    returns its largest change) until one moves them by at most
    :data:`TIE_TOL`, or rounding stops them from moving less: ``(iterates,
    last change, settled)``."""
    prev = np.inf
    for it in range(1, MAX_TIE_ITER + 1):
        change = sweep()
        if change <= TIE_TOL or (change <= 1e3 * TIE_TOL and change >= prev):
            return it, change, True
        prev = change
    return MAX_TIE_ITER, change, False


def final_jobs(geo, N, G, C, mb, replay):
    """The final rounds' jobs, batch by batch in the order they are solved
    (the last seat first); each batch reads only the batches before it."""
    rows = [(geo[sk.G_FL] + Tm * (C + 1) + d, N - 1, max(d + 1, mb), d, Tm, 0, 0)
            for Tm in _masks(N - 1, replay) for d in range(1, C + 1)]
    yield np.array(rows, dtype=np.int64)
    for m in range(N - 2, 0, -1):
        P = G ** (N - m)
        tail = np.arange(P, dtype=np.int64)
        s = tail // G ** (N - m - 1)
        rest = tail % G ** (N - m - 1)
        parts = []
        for Bg in range(C - G + 1):
            for Tm in _masks(m, replay):
                j = np.empty((P, 7), dtype=np.int64)
                j[:, 0] = geo[sk.G_FF + m] + (Tm * P + tail) * (C - G + 1) + Bg
                j[:, 1] = m
                j[:, 2] = np.maximum(C - s, mb)
                j[:, 3] = G + Bg
                j[:, 4] = Tm
                j[:, 5] = s
                j[:, 6] = rest
                parts.append(j)
        yield np.concatenate(parts)


def _final_rounds(model, lay, geo, A, N, G, C, replay, nt):
    """The final rounds, the last seat first."""
    toff = np.zeros((N + 1, N + 1), dtype=np.int64)
    for jobs in final_jobs(geo, N, G, C, model.min_bank, replay):
        _rows(1, jobs, geo, toff, nt, A, model, lay)


#: The kernels loaded in this process: with the game length, without.
_LOADED = set()


def _warm(length):
    """Load (or compile) the kernels once per process, with or without the
    game length (two compilations), so that ``seconds`` is solve time."""
    if length not in _LOADED:
        with first_call():
            from designer.engine.model import tiny_model

            tiny = tiny_model()
            solve_seat_rounds_model(tiny, 2, 3, cap=4, length=length, _timed=False)
            _LOADED.add(length)


def solve_seat_rounds_model(model, goal, players, *, ties="replay", cap=None, length=False,
                            memory_limit=None, _timed=True, _table=False):
    """Solve ``players`` seats under the rounds ending over ``model``
    exactly (max-n), every start at once.

    Parameters
    ----------
    model : TurnModel
        The turn process; its busts must not lower a banked score.
    goal : int
    players : int
        Seats, 2 to 4 (two seats for checks: the two-seat solver,
        :func:`designer.engine.rounds.solve_rounds_model`, is faster).
    ties : str
        ``"replay"`` or ``"earlier-seat"``.
    cap : int, optional
        Score cap (default ``goal + CAP_MARGIN``).
    length : bool
        Also the expected game length (``actions`` of the result), carried
        along the solve (module doc).
    memory_limit : int, optional
        Bytes the solve may allocate; a larger game is refused before
        anything is allocated (default :func:`designer.memory.memory_limit`).
    _table : bool
        Also return the whole table and how it is laid out, ``(A, geo,
        toff, layout)``, for an evaluation of other play over the same rows
        (:mod:`designer.engine.seat_rounds_match`).

    Returns
    -------
    SeatRoundsResult

    Raises
    ------
    TooLargeError
        The game needs more than ``memory_limit`` bytes.
    DesignError
        A goal, seats, tie rule or cap out of range, or a model the rounds
        ending does not take.
    SolverError, ConvergenceError
        A two-seat tuple that does not settle (a bug), or a policy under
        which a round never ends.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    N = _check_players(players)
    if ties not in TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, TIE_RULES)))
    _refuse_falls(model)
    _check_stuck(model)
    G = goal
    C = G + CAP_MARGIN if cap is None else int(cap)
    if C <= G:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {G}")
    na = N + bool(length)
    rows_least, least = table_at_least(model, G, N, C, length)
    if least > memory_limit:
        raise TooLargeError(f"this game has at least {rows_least:,} turn starts with {N} players "
                            f"and needs at least {least / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    replay = ties == "replay"
    nt = max(1, min(numba.get_num_threads(), threads()))
    lay = _layout(model, N, C)
    H = len(lay.starts)
    positions, need, _ = _sizes(model, lay, N, G, C, replay, nt, na)
    if need > memory_limit:
        raise TooLargeError(f"this game has {positions:,} positions with {N} players and needs "
                            f"{need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if _timed:
        _warm(bool(length))
    t0 = time.perf_counter()
    geo, toff, rows = _geometry(N, G, C, H, replay)
    A = np.zeros((rows, H, na))
    for q in range(N):
        A[1 << q, :, q] = 1.0
    tie_it, tie_res, tie_un, tie_un_res = 0, 0.0, 0, 0.0
    if replay:
        tie_it, tie_res, tie_un, tie_un_res = _tie_rounds(model, lay, geo, toff, A, N, G, C, nt)
    _final_rounds(model, lay, geo, A, N, G, C, replay, nt)
    from designer.solve._rounds_common import open_order

    flat, tuples, groups = open_order(N, G)
    report = np.zeros((nt, sk.REPORT))
    limit = MAX_SWEEPS if N == 2 else VI_SWEEPS
    lo, hi, *rest = _model_args(model, lay, length)
    sk.solve_open(geo, flat, tuples, groups, lay.uk, lay.ukm, lay.ukh, TIE, TOL, PI_SWEEPS,
                  PI_EXACT, limit, N == 2, A, lay.blk_ptr, lay.blk_states, lay.blk_tmax, lo, hi,
                  *rest, lay.hidx, lay.pass_ok, model.min_bank, model.forced_first, lay.Tn, nt,
                  report)
    seconds = time.perf_counter() - t0
    status = report[:, sk.R_STATUS]
    if np.any(status):
        i = int(status[np.flatnonzero(status)[0]]) - 1
        raise SolverError(f"the rounds ending did not settle the scores "
                          f"{tuple(int(v) for v in tuples[i])} within {MAX_SWEEPS} sweeps")
    if N == 2 and tie_un:
        raise ConvergenceError("the tie round did not settle")
    opn = int(geo[sk.G_OPEN])
    win = A[opn:opn + G ** N, :, :N].reshape((G,) * N + (H, N)).copy()
    actions = A[opn:opn + G ** N, :, N].reshape((G,) * N + (H,)).copy() if length else None
    result = SeatRoundsResult(
        N, G, C, ties, win, lay.starts, positions,
        float(max(report[:, sk.R_RESIDUAL].max(), tie_res)),
        int(report[:, sk.R_UNSETTLED].sum()) + tie_un,
        float(max(report[:, sk.R_UNSETTLED_RES].max(), tie_un_res)),
        int(report[:, sk.R_SWEEPS].sum()), tie_it, len(lay.ukm), seconds, actions)
    return (result, (A, geo, toff, lay)) if _table else result


__all__ = ["SeatRoundsResult", "estimate", "solve_seat_rounds_model"]
