"""The rounds ending (two seats) over a turn model whose busts can lower a
banked score (Two-Dice Pig's snake eyes, a skull that wipes the score, a
penalty down to a floor).

The game is the rounds ending of :mod:`designer.engine.rounds`: seat 1
then seat 2 take a turn; when a round ends with a score at or above the
goal the higher score wins, and a tie for it is replayed as another round
(``replay``) or goes to seat 1 (``earlier-seat``). With two seats a
replayed round is a round like any other, played on from the tied scores:
a bust in it may lower a score, even below the goal, and the game then
goes on until a round ends with a score at or above the goal and no tie.

Values
------
Scores run from the floor ``lo`` (0 unless a penalty goes lower) to the
cap ``C``; seat 1's score is held at the cap (a turn that reaches it stops
there), seat 2 stops as soon as its stop wins. ``X[a, b, h]`` is seat 1's
win probability at a round's start (seat 1 at ``a``, seat 2 at ``b``, the
turn from start state ``h``), for ``a, b < goal`` and, under ``replay``,
``a = b`` at or above it; ``Y[b, a, h]`` is seat 2's, to move with ``b``
once seat 1 ended its turn at ``a`` (any ``a``; ``b`` at or above the goal
only in a replayed round). With ``R(a, b', h)`` seat 2's value at the
round's end (1 if ``b' > a`` and ``b' >= goal``, 0 if ``a > b'`` and
``a >= goal``, a tie ``1 - X[a, b', h]`` under replay and 0 under
earlier-seat, else ``1 - X[a, b', h]``), a turn is the engine's turn with
the stop values

.. math::

    \\text{seat 1: } 1 - Y[b, \\min(a + t, C), h], \\qquad
    \\text{seat 2: } R(a, b + t, h),

and a bust that lowers the score to ``f(a)`` worth ``1 - Y[b, f(a), h]``
(``R(a, f(b), h)``). Every seat maximises its own win; ties between actions
as in the engine (stopping wins a tie, except at a total of 0, where
continuing wins; among continuations and options the one listed first).

The solve
---------
Falls break the order by score sums that the rounds solver without them
follows, so the whole table is iterated: passes of block Gauss-Seidel over
the pairs of scores in decreasing sum (each pair's two turns iterated until
they agree, with one start state through a secant step: a pair's values
are affine in its own start value while its decisions stay), until no
stored win moves by more than :data:`~designer._jit.TOL` in a pass; that
last change is the reported residual. Scores that never fall settle in two
passes (the second checks the first).

A pass runs on every thread: each takes the next pair whose inputs of the
pass are solved. Pair ``(a, b)`` reads the pairs ``(a', b)``, ``a' > a``,
and ``(a, b')``, ``b' > b``, of the pass (it waits for its two neighbours
towards them), and through a fall pairs of smaller sums, which wait for it
in turn and so still hold the last pass's values: every pair reads what it
reads in one thread's order, and the numbers do not depend on the threads.
A thread waits only when every ready pair is in another's hands; one kept
off its core by another process holds back only the pairs below its own.

The expected game length (actions: every throw or draw and every stop, a
pass, a stop forced by the cap and seat 2's winning stop included) is
carried beside every value under the same decisions, and the passes go on
until the lengths too move by no more than ``TOL`` of themselves (they can
lag the wins: where a fall sends play back to where it was, each pass adds
about a round to them). A length too long to measure is said, not given:
a pair whose round comes back to it with a chance within
:data:`~designer.engine._rounds_falls_kernels.STEEP` of 1, or lengths that
would not settle within the passes allowed
(:func:`~designer.engine.length.stalled`).

Size
----
Four tables of ``n * n * H`` float64 (``n = C - lo + 1``) and one turn's
scratch; :func:`falls_estimate` counts them before anything is allocated.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from designer import memory as mem
from designer._jit import TIE, TOL, load_first, threads
from designer.engine import _rounds_falls_kernels as fk
from designer.engine import _rounds_kernels as rk
from designer.engine.model import BUST, NONE, PENALTY, build_model
from designer.engine.length import stalled
from designer.engine.rounds import CAP_MARGIN, TIE_RULES, _layout, _order
from designer.engine.seats import STALL, STALL_PASSES
from designer.engine.solve import TooLargeError
from designer.errors import ConvergenceError, DesignError

#: Passes over the whole table allowed before the solve gives up.
MAX_PASSES = 10_000
#: Rounds of a pair's two turns allowed in one pass.
MAX_INNER = 2_000
#: A pair's turns agree once one round of both moves no start value (and
#: no expected length, relatively) by more than this.
PAIR_TOL = 1e-14
#: Seconds per unit of work (an in-turn position a pass sweeps, times its
#: state's outcomes and options), on one thread of the development machine
#: (two cores, load about 1): Two-Dice Pig to 100 1.2e-8 (a pair's turns
#: are swept two or three times a pass).
SECONDS_PER_WORK = 1.2e-8


#: Why a game's length is not given where optimal play can pass for ever.
ENDLESS = ("optimal play can pass for ever at some scores (both seats passing): the game "
           "has no expected length, and its win probabilities are one solution of several")


def passes_guess(goal):
    """Passes :func:`falls_estimate` assumes: measured 4, 16 and 28 on
    Two-Dice Pig to 20, 50 and 100 (a wipe reaches further back as the
    goal grows)."""
    return 10 + goal // 5


@dataclass(frozen=True, eq=False)
class RoundsFallsResult:
    """Exact optimal play of two seats under the rounds ending, scores
    that can fall.

    Attributes
    ----------
    first_player_win : float
        Seat 1's win probability at scores ``start``.
    goal, cap, floor : int
    ties : str
    start : tuple
    X, LX : ndarray, shape (n, n, H)
        ``X[a - floor, b - floor, h]``: seat 1's win at a round's start;
        ``LX`` the expected actions left there.
    Y, LY : ndarray, shape (n, n, H)
        ``Y[b - floor, a - floor, h]``: seat 2's, to move.
    start_states : ndarray
    states : int
        In-turn positions one pass sweeps.
    residual : float
        The last pass's largest change of a stored win.
    passes : int
    seconds : float
    length_problem : str
        ``""`` where ``LX`` and ``LY`` are the expected lengths; else they
        are not, the wins standing: ``"endless"`` where optimal play can pass for ever (both
        seats passing at some scores); ``"too long"`` where some scores
        come back to themselves for so many rounds on average (more than
        ``1 / STEEP``, or lengths that still grow after the wins settled)
        that double precision cannot give the length; ``"not asked"``
        with ``lengths`` False.
    """

    first_player_win: float
    goal: int
    cap: int
    floor: int
    ties: str
    start: tuple
    X: np.ndarray = field(repr=False)
    LX: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    LY: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    states: int
    residual: float
    passes: int
    seconds: float
    length_problem: str = ""

    @property
    def length_finite(self):
        """Whether ``LX`` and ``LY`` are the expected lengths
        (:attr:`length_problem` empty)."""
        return not self.length_problem

    def _at(self, table, a, b, state):
        h = int(np.searchsorted(self.start_states, state))
        if h >= len(self.start_states) or self.start_states[h] != state:
            raise DesignError(f"state {state} never starts a turn")
        return float(table[a - self.floor, b - self.floor, h])

    def win(self, a, b, state=0):
        """Seat 1's win probability at a round's start, seat 1 at ``a`` and
        seat 2 at ``b`` (both below the goal)."""
        return self._at(self.X, a, b, state)

    def actions(self, a, b, state=0):
        """Expected actions left from the same position."""
        return self._at(self.LX, a, b, state)


def _falling(model):
    """The outcomes whose bust lowers the banked score: indices, effects,
    penalties."""
    e, pen = model.out_effect, model.out_penalty
    idx = np.flatnonzero((model.out_kind == BUST) & (e != NONE) & ((e != PENALTY) | (pen > 0))
                         & (model.out_prob > 0.0))
    return idx, e[idx].astype(np.int64), pen[idx].astype(np.int64)


def _sizes(model, goal, cap):
    lo = min(model.floor, 0)
    C = goal + CAP_MARGIN if cap is None else int(cap)
    return lo, C, C - lo + 1, max(C + 1 - lo, model.min_bank)


def _positions(model, goal, C, lo, ties):
    """In-turn positions one pass sweeps (totals below each turn's end, times
    the turn states)."""
    G, mb = goal, model.min_bank
    a = np.arange(lo, C + 1)
    seat1 = int((C - a[a < G]).sum()) * (G - lo) + (int((C - a[a >= G]).sum())
                                                    if ties == "replay" else 0)
    bs = np.arange(lo, C + 1 if ties == "replay" else G)
    T2 = np.maximum(np.maximum(G - bs[:, None], a[None, :] + 1 - bs[:, None]), mb)
    return int(model.states * (seat1 + int(T2.sum())))


def falls_estimate(model, goal, cap=None, ties="replay"):
    """What :func:`solve_rounds_falls` needs, before solving: ``positions``
    (in-turn positions of one pass), ``start_states``, ``memory`` (bytes)
    and a rough ``seconds`` (one thread; ``passes``, :func:`passes_guess`)."""
    lo, C, n, Tm = _sizes(model, goal, cap)
    H = len(model.start_states())
    F = len(_falling(model)[0])
    positions = _positions(model, goal, C, lo, ties)
    per_state = (model.outcomes + len(model.opt_gain)) / model.states
    nt = threads()
    # the tables; each thread's scratch (a turn's stop values and sweep);
    # the pairs in order, their rows and claim and solved marks
    memory = 8 * (4 * n * n * H + nt * (2 * (Tm + 1) * (H + F) + 2 * model.states * Tm + 6 * H)
                  + 5 * n * n + 2 * nt)
    return dict(positions=positions, start_states=H, memory=int(memory),
                seconds=0.01 + SECONDS_PER_WORK * passes_guess(goal) * positions * per_state,
                at_least=False, passes=passes_guess(goal))


def _pairs(goal, C, lo, replay):
    """The pairs of scores a pass solves, by decreasing sum (``(n_pairs,
    2)`` int64, scores), and each pair's row there (``row[a - lo, b -
    lo]``, -1 for a pair no pass solves: seat 2 at or past the goal outside
    a replayed tie, where the round is over)."""
    n = C - lo + 1
    a, b = np.meshgrid(np.arange(lo, C + 1), np.arange(lo, C + 1), indexing="ij")
    a, b = a.ravel(), b.ravel()
    keep = (b < goal) | replay
    a, b = a[keep], b[keep]
    order = np.lexsort((a, -(a + b)))
    pairs = np.ascontiguousarray(np.stack([a[order], b[order]], axis=1).astype(np.int64))
    row = np.full((n, n), -1, dtype=np.int64)
    row[pairs[:, 0] - lo, pairs[:, 1] - lo] = np.arange(len(pairs))
    return pairs, row


def iterate(run_pass, flags, lengths, progress, unsettled, never, stall=False):
    """Passes ``run_pass()`` (its largest change of a stored win, -1 where a
    pair did not settle, and of a length, relatively) until no win moves
    by more than :data:`~designer._jit.TOL` in a pass and, with
    ``lengths``, no length either, or a pair's ``flags`` says the lengths
    have no limit or are too long to measure; lengths that would not
    settle within the passes allowed (:func:`~designer.engine.length.stalled`)
    set ``flags[1]``. ``progress(passes, change)`` after every pass.
    With ``stall`` (three or more seats, whose best replies can cycle) the
    passes also stop once :data:`~designer.engine.seats.STALL_PASSES`
    passes in a row have not brought the change below
    :data:`~designer.engine.seats.STALL` times the least one before: the
    iterates go round a cycle, and the last change, above the tolerance,
    tells the caller so. Returns the last change and the passes.

    Raises
    ------
    ConvergenceError
        ``unsettled`` where a pair did not settle, ``never(change)`` where
        :data:`MAX_PASSES` passes did not.
    """
    lagging = []  # the lengths' largest relative change, pass by pass, once the wins settled
    best, since = np.inf, 0
    for passes in range(1, MAX_PASSES + 1):
        delta, ldelta = run_pass()
        if delta < 0:
            raise unsettled
        if progress is not None:
            progress(passes, float(delta))
        best, since = (delta, 0) if delta < STALL * best else (best, since + 1)
        if stall and delta > TOL and since >= STALL_PASSES:
            return float(delta), passes
        if delta <= TOL:
            if not lengths or ldelta <= TOL or flags.any():
                return float(delta), passes
            lagging.append(ldelta)
            if stalled(lagging, MAX_PASSES - passes + len(lagging)):
                flags[1] = 1
                return float(delta), passes
    raise never(delta)


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is solve time."""
    tiny = build_model([[[(0.5, "bust", 0, "zero", 0), (0.5, "choose", [(1, 0)])]]], [0])
    load_first((fk.solve_pass,), lambda: solve_rounds_falls(tiny, 2, _timed=False))


def solve_rounds_falls(model, goal, *, ties="replay", start=(0, 0), cap=None, memory_limit=None,
                       progress=None, lengths=True, _timed=True):
    """Solve two seats under the rounds ending, scores that can fall.

    Parameters
    ----------
    model : TurnModel
    goal : int
    ties : {"replay", "earlier-seat"}
    start : tuple of int
        Start scores of seat 1 and seat 2 (each ``floor .. goal - 1``).
    cap : int, optional
        Score cap (default ``goal + CAP_MARGIN``).
    memory_limit : int, optional
        Bytes the solve may take, checked before anything is allocated.
    progress : callable, optional
        ``progress(passes, change)`` after every pass: the passes made and
        the largest change of a stored win in the last (the solve stops
        once it is at most :data:`~designer._jit.TOL`).
    lengths : bool
        Go on, once the wins settle, until the expected lengths settle too
        (to :data:`~designer._jit.TOL` of themselves), or until they are
        found too long to measure (:func:`~designer.engine.length.stalled`).
        False: ``LX`` and ``LY`` are what the passes made of them, not
        lengths (``length_finite`` False).

    Returns
    -------
    RoundsFallsResult

    Raises
    ------
    DesignError
        A goal, tie rule, start or cap out of range, or a turn that can
        return to a state without scoring.
    TooLargeError
        The solve needs more than ``memory_limit`` bytes.
    ConvergenceError
        A pair or the whole table that does not settle.
    """
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, TIE_RULES)))
    lo, C, n, Tm = _sizes(model, goal, cap)
    if C <= goal:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    if not all(lo <= s < goal for s in start):
        raise DesignError(f"start scores {tuple(start)}: each must be {lo}..{goal - 1}")
    order = _order(model)
    est = falls_estimate(model, goal, C, ties)
    memory_limit = mem.resolve(memory_limit)
    if est["memory"] > memory_limit:
        raise TooLargeError(f"this game has {est['positions']:,} positions in rounds and needs "
                            f"{est['memory'] / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    t0 = time.perf_counter()
    lay = _layout(model, C, order)
    H = len(lay.starts)
    idx, eff, pen = _falling(model)
    # a fall reads the column of its own rank past the start states
    oq = lay.oq.copy()
    oq[idx, rk.OQ_AUX] = H + np.arange(len(idx))
    fall_h = lay.out_h[idx].astype(np.int64)
    X, LX = np.full((n, n, H), 0.5), np.zeros((n, n, H))
    Y, LY = np.full((n, n, H), 0.5), np.zeros((n, n, H))
    S, nt = model.states, threads()
    pairs, row = _pairs(goal, C, lo, ties == "replay")
    scratch = (np.zeros((nt, Tm + 1, H + len(idx))), np.zeros((nt, Tm + 1, H + len(idx))),
               np.zeros((nt, S, Tm)), np.zeros((nt, S, Tm)), np.zeros((nt, H)), np.zeros((nt, H)),
               np.zeros((nt, 4, H)))
    flags = np.zeros(2, dtype=np.int64)
    args = (nt, pairs, row, goal, C, lo, ties == "replay", model.min_bank, model.forced_first,
            TIE, PAIR_TOL, MAX_INNER, lay.starts.astype(np.int64), lay.blk_ptr, lay.blk_states,
            model.cont_start, model.out_start, model.out_prob, model.cont_throws, oq,
            model.opt_start, model.opt_gain, model.opt_next, lay.hand_h, lay.hidx, lay.tmin, eff,
            pen, fall_h, X, LX, Y, LY, *scratch, flags, np.zeros(len(pairs), dtype=np.int64),
            np.zeros(len(pairs), dtype=np.int64), np.zeros(nt), np.zeros(nt))
    delta, passes = iterate(
        lambda: fk.solve_pass(*args), flags, lengths, progress,
        ConvergenceError(f"the rounds ending with falling scores: a pair of scores did not "
                         f"settle in {MAX_INNER:,} rounds"),
        lambda d: ConvergenceError(f"the rounds ending with falling scores did not settle in "
                                   f"{MAX_PASSES:,} passes (last change {d:.3g})"))
    seconds = time.perf_counter() - t0
    h0 = int(lay.hidx[0])
    return RoundsFallsResult(float(X[start[0] - lo, start[1] - lo, h0]), goal, C, lo, ties,
                             tuple(start), X, LX, Y, LY, lay.starts, est["positions"],
                             delta, passes, seconds,
                             "not asked" if not lengths else "endless" if flags[0] else
                             "too long" if flags[1] else "")


__all__ = ["ENDLESS", "RoundsFallsResult", "falls_estimate", "solve_rounds_falls"]
