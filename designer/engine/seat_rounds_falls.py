"""The rounds ending (equal turns) for two to four seats over a turn model
whose busts can lower a banked score (Two-Dice Pig's snake eyes, a skull
that wipes the score, a penalty down to a floor).

The game
--------
Play goes in rounds: seat 1, then 2, ..., then ``N``. When a round ends
with a score at or above the goal, the highest score wins; a tie for it
is settled by the tie rule:

``replay``
    the tied seats play on from their tied scores, alone, in seat order:
    a game of fewer seats (or of all of them) that starts level, in which
    a bust may lower a score, even below the goal, and that goes on until
    a round ends with a score at or above the goal and no tie;
``earlier-seat``
    the seat that moved earlier in the round wins it, so a later seat must
    strictly beat the leader.

A seat that is not the last of its round has its score held at the cap
``C`` (a turn that reaches it ends there); the last seat stops as soon as
its stop wins. Every seat maximises its own win probability (max-n); ties
between actions go to stopping (at a total of 0 to going on), among
continuations and options to the one listed first.

Values
------
A table of rows (:mod:`designer.engine._seat_rounds_falls_kernels` lists
them): each a start value for every start state, ``N`` wins and the
expected actions left. The rounds in which every score is below the goal
(``g^N`` score tuples, ``g = goal - floor``) are the open rows; once a
seat ends a turn at or above the goal the round is the last, and the
other seats' scores below the highest no longer matter (the final rows:
the highest score, the seats holding it, the scores of the seats still to
move); under ``replay`` the rounds that start with every seat level at or
above the goal have rows of their own, and a tie among fewer seats reads
the start of that smaller game, solved first (two seats, then three).

The solve
---------
Falls break the order by score sums, so the table is iterated: passes of
Gauss-Seidel, each

1. the rounds that start level (``replay``): their turns once a seat fell
   below the goal (one sweep, seats ``N - 1`` down to 1), then, level by
   level from the cap down, the final turns and the round's start swept
   in turn until they agree (such a round can end level again; with one
   start state the secant step), again until no level moves (a fall can
   end a round level lower); only the final turns where every earlier seat
   holds the bar can lead back to a level round, the others are swept
   once, in the first pass (one thread: this part is small);
2. the final rows, seats ``N - 1`` down to 1 (they read only later
   seats' final rows and the rounds' ends: swept again only where the
   level rounds' starts moved);
3. the open tuples in decreasing score sum: every seat's turn at a tuple,
   in rounds until they agree (a round in which no score changes comes
   back to it), with a secant step where one start state makes the round
   affine in its own start.

until no stored win moves by more than :data:`~designer._jit.TOL` in a
pass (that change is the reported residual; with ``lengths`` the expected
lengths too, relatively). All but the level rounds' iteration run on
every thread; an open tuple waits only for the tuples one point up in each
seat's score, and the numbers do not depend on the threads.

Size
----
``rows * H * (N + 1)`` float64 and each thread's scratch;
:func:`estimate` counts them before anything is allocated.
"""

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from designer import memory as mem
from designer._jit import TIE, TOL, load_first, threads
from designer.engine import _seat_rounds_falls_kernels as sk
from designer.engine.model import build_model
from designer.engine.rounds import CAP_MARGIN, TIE_RULES, _layout, _order
from designer.engine.rounds_falls import ENDLESS, MAX_INNER, PAIR_TOL, _falling, iterate
from designer.engine.seats import SeatValues, _check_players
from designer.engine.solve import TooLargeError, _check_stuck
from designer.errors import ConvergenceError, DesignError

#: Seconds per unit of work (an in-turn position a pass sweeps, an upper
#: bound, times its state's outcomes and options, times the numbers of a
#: row), on two threads of the development machine (two cores, load about
#: 1.5): with :data:`PASSES_GUESS` passes the estimate was 1.15, 1.0 and
#: 0.8 times the solve of Two-Dice Pig to 20 and 30 with three players
#: (replay; 30 earlier-seat), 1.65 times to 8 with four, 1.5 times Pig to
#: 20 with three.
SECONDS_PER_WORK = 1e-9
#: Passes assumed by the estimate (measured 5 to 15 on those games).
PASSES_GUESS = 12
#: Why the game length is not given where the passes went round a cycle.
CYCLE = ("at some scores the seats' best replies keep changing in a cycle (with three or "
         "more players each seat's best answer can depend on another's), so the expected "
         "game length does not settle (the win probabilities are given with how much they "
         "still move)")


@dataclass(frozen=True, eq=False)
class SeatRoundsFallsResult(SeatValues):
    """Exact max-n play of ``players`` seats under the rounds ending, scores
    that can fall.

    Attributes
    ----------
    players, goal, cap, floor : int
    ties : str
    win : ndarray, shape (goal - floor,) * players + (H, players)
        ``win[s_1 - floor, ..., s_N - floor, h, r]``: seat ``r``'s win
        probability at the start of a round (seat 1 to move from
        ``start_states[h]``), the seats at scores ``s``.
    actions : ndarray, shape (goal - floor,) * players + (H,)
        Expected actions left there (meaningful where ``length_problem``
        is empty).
    start_states : ndarray
    states : int
        In-turn positions one pass sweeps.
    residual : float
        The last pass's largest change of a stored win.
    passes : int
    seconds : float
    length_problem : str
        ``""``, ``"endless"`` (optimal play can pass for ever), ``"too
        long"`` (lengths that would not settle), ``"cycle"`` (the seats'
        best replies go round a cycle: :data:`CYCLE`) or ``"not asked"``.
    unsettled_positions : int
        Tuples of scores whose decisions cycle (three or more seats: max-n
        is not always well posed), in the last pass; each keeps the
        iterate of least change seen. Where the passes themselves go round
        a cycle (the change of a pass stops falling), the rows of the
        table whose wins still moved in one more pass.
    unsettled_residual : float
        The largest such change (then also ``residual``).
    """

    players: int
    goal: int
    cap: int
    floor: int
    ties: str
    win: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    states: int
    residual: float
    passes: int
    seconds: float
    length_problem: str = ""
    unsettled_positions: int = 0
    unsettled_residual: float = 0.0

    @property
    def sweeps(self):
        return self.passes


@dataclass(frozen=True)
class _Geometry:
    """Where each block of rows lies (kernel module doc)."""

    pw: np.ndarray
    tie_off: np.ndarray
    oa: int
    fa_off: np.ndarray
    ob_off: np.ndarray
    fb_off: np.ndarray
    rows: int


def _geometry(N, G, C, lo, replay):
    g, nb = G - lo, C - G + 1
    pw = np.array([g ** k for k in range(N + 1)], dtype=np.int64)
    rows = N
    tie_off = np.full(1 << N, -1, dtype=np.int64)
    if replay:
        for mask in range(1 << N):
            if 2 <= bin(mask).count("1") < N:
                tie_off[mask] = rows
                rows += nb
    oa = rows
    rows += N * g ** N
    fa_off = np.zeros(N, dtype=np.int64)
    for m in range(1, N):
        fa_off[m] = rows
        rows += nb * 2 ** m * g ** (N - m)
    ob_off = np.zeros(N, dtype=np.int64)
    fb_off = np.zeros(N, dtype=np.int64)
    if replay:
        for m in range(N):
            ob_off[m] = rows
            rows += nb * g ** m
        for m in range(1, N):
            fb_off[m] = rows
            rows += nb * nb * 2 ** m
    return _Geometry(pw, tie_off, oa, fa_off, ob_off, fb_off, rows)


def _blocks(N, G, C, lo, geo, replay):
    """``(kind, m, base, count)`` of every block but the open rows: the
    level rounds' turns below the goal, the level rounds' final turns and
    starts (iterated together), the final rows."""
    g, nb = G - lo, C - G + 1
    ob = [(sk.K_OB, m, geo.ob_off[m], nb * g ** m) for m in range(N - 1, 0, -1)] if replay else []
    tie = ([(sk.K_FB, m, geo.fb_off[m], nb * nb * 2 ** m) for m in range(N - 1, 0, -1)]
           + [(sk.K_OB, 0, geo.ob_off[0], nb)]) if replay else []
    fa = [(sk.K_FA, m, geo.fa_off[m], nb * 2 ** m * g ** (N - m)) for m in range(N - 1, 0, -1)]
    as_array = lambda b: np.array(b, dtype=np.int64).reshape(-1, 4)  # noqa: E731
    return as_array(ob), as_array(tie), as_array(fa)


def _open_order(N, g):
    """The open tuples' codes by decreasing score sum (then code) and each
    code's place in that order."""
    codes = np.arange(g ** N, dtype=np.int64)
    sums = np.indices((g,) * N).reshape(N, -1).sum(axis=0)
    order = codes[np.lexsort((codes, -sums))]
    pos = np.empty_like(order)
    pos[order] = np.arange(len(order))
    return order, pos


def _sizes(model, N, G, C, lo, replay, nt):
    """``(rows, positions, memory, work)``: the table's rows, the in-turn
    positions one pass sweeps, bytes and work (module doc)."""
    geo = _geometry(N, G, C, lo, replay)
    g = G - lo
    H, S = len(model.start_states()), model.states
    F = len(_falling(model)[0])
    Tm = max(C + 1 - lo, model.min_bank)
    scores = np.arange(lo, G)
    # an open or final turn from a score below the goal runs to the cap
    # (the last seat to the goal or the bar: counted as the cap, an upper bound)
    below = int((C - scores).sum())
    opn = N * g ** (N - 1) * below
    nb = C - G + 1
    fin = sum(nb * (2 ** m - 1 if replay else m) * g ** (N - m - 1) * below for m in range(1, N))
    level = (sum(nb * g ** m for m in range(N)) + sum(nb * nb * (2 ** m - 1)
                                                      for m in range(1, N))) * (nb if replay else 0)
    positions = int(S * (opn + fin + level))
    per_state = (model.outcomes + len(model.opt_gain)) / max(S, 1)
    work = float(positions) * per_state * (N + 1)
    na = N + 1
    scratch = nt * ((Tm + 1) * (H + F) * na + S * Tm * na + 3 * na + H * na + N * H * na
                    + 3 * na) * 8
    memory = geo.rows * H * na * 8 + scratch + 2 * g ** N * 8 * 3
    return geo.rows, positions, int(memory), work


def _bounds(model, goal, players, ties, cap):
    N = 2 if players == 2 else _check_players(players)
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, TIE_RULES)))
    lo = min(model.floor, 0)
    C = goal + CAP_MARGIN if cap is None else int(cap)
    if C <= goal:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    return N, goal, lo, C


def estimate(model, goal, players, *, ties="replay", cap=None, nt=None, length=True):
    """What :func:`solve_seat_rounds_falls` needs, before solving:
    ``positions`` (in-turn positions of one pass), ``start_states``,
    ``memory`` (bytes on ``nt`` threads, the smaller games of a tie
    included), ``seconds`` (a rough guide, at ``passes`` passes) and
    ``at_least`` (False)."""
    N, G, lo, C = _bounds(model, goal, players, ties, cap)
    nt = threads() if nt is None else nt
    replay = ties == "replay"
    _, positions, memory, work = _sizes(model, N, G, C, lo, replay, nt)
    if replay:
        for t in range(2, N):
            _, p, mm, w = _sizes(model, t, G, C, lo, True, nt)  # kept while the game is solved
            positions, memory, work = positions + p, memory + mm, work + w
    return dict(positions=positions, start_states=len(model.start_states()), memory=memory,
                seconds=0.01 + SECONDS_PER_WORK * PASSES_GUESS * work, at_least=False,
                passes=PASSES_GUESS)


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is solve time."""
    tiny = build_model([[[(0.5, "bust", 0, "zero", 0), (0.5, "choose", [(1, 0)])]]], [0])
    load_first((sk.run,),
               lambda: solve_seat_rounds_falls(tiny, 2, 3, _timed=False))


def solve_seat_rounds_falls(model, goal, players, *, ties="replay", cap=None, memory_limit=None,
                            progress=None, lengths=True, _timed=True, _keep=False):
    """Solve ``players`` seats under the rounds ending, scores that can fall.

    Parameters
    ----------
    model : TurnModel
    goal, players : int
    ties : {"replay", "earlier-seat"}
    cap : int, optional
        Score cap (default ``goal + CAP_MARGIN``).
    memory_limit : int, optional
        Bytes the solve may take, checked before anything is allocated.
    progress : callable, optional
        ``progress(passes, change)`` after every pass of the game itself
        (not of the smaller games of a tie).
    lengths : bool
        Go on, once the wins settle, until the expected lengths settle too.
    _keep : bool
        Also return every game's table (``{seats: table}``, the smaller
        games of a tie too), for evaluating a policy at one seat.

    Returns
    -------
    SeatRoundsFallsResult

    Raises
    ------
    DesignError
        A goal, seats, tie rule or cap out of range, or a turn model the
        engine does not take.
    TooLargeError
        The solve needs more than ``memory_limit`` bytes.
    ConvergenceError
        A tuple of scores or the whole table that does not settle.
    """
    N, G, lo, C = _bounds(model, goal, players, ties, cap)
    _check_stuck(model)
    memory_limit = mem.resolve(memory_limit)
    est = estimate(model, G, N, ties=ties, cap=C)
    if est["memory"] > memory_limit:
        raise TooLargeError(f"this game has {est['positions']:,} positions with {N} players in "
                            f"rounds and needs {est['memory'] / 2**20:,.0f} MB, over the limit "
                            f"of {mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    t0 = time.perf_counter()
    replay = ties == "replay"
    # the smaller games a tie leaves, solved first: two seats, then three
    subs, positions, passes, problem, un, un_res = {}, 0, 0, "", 0, 0.0
    for t in range(2, N + 1) if replay else (N,):
        r = _solve(model, t, G, C, lo, replay, subs, lengths, progress if t == N else None)
        subs[t] = r
        positions += r.positions
        passes += r.passes
        un, un_res = un + r.unsettled, max(un_res, r.unsettled_residual)
        problem = problem or ("not asked" if not lengths else "endless" if r.flags[0] else
                              "cycle" if r.delta > TOL else "too long" if r.flags[1] else "")
    seconds = time.perf_counter() - t0
    g, H = G - lo, len(r.starts)
    block = r.A[r.geo.oa:r.geo.oa + g ** N]
    win = block[:, :, :N].reshape((g,) * N + (H, N)).copy()
    actions = block[:, :, N].reshape((g,) * N + (H,)).copy()
    result = SeatRoundsFallsResult(N, G, C, lo, ties, win, actions, r.starts, positions, r.delta,
                                   passes, seconds, problem, un, un_res)
    return (result, subs) if _keep else result


@dataclass(frozen=True, eq=False)
class _Solved:
    """One game of :func:`_solve`: its table, where its rows lie (``geo``,
    and the kernels' numbers ``gv``), each turn state's index among the
    start states (``hidx``), and how it went."""

    A: np.ndarray
    geo: _Geometry
    starts: np.ndarray
    delta: float
    passes: int
    flags: np.ndarray
    positions: int
    unsettled: int
    unsettled_residual: float
    gv: np.ndarray
    hidx: np.ndarray

    def level(self, nb):
        """The rounds' starts with every seat level at ``G .. C``: ``(nb,
        H, t + 1)``."""
        off = self.geo.ob_off[0]
        return self.A[off:off + nb]


def no_policy(model):
    """A fixed policy for :func:`_solve` when every seat plays max-n (kind
    -1): its numbers, hold-at's options, max-score's table, a table
    policy's layout and decisions, in arrays of the types an evaluation
    passes, so that one compiled kernel serves both."""
    z = lambda dt: np.zeros((1, 1), dtype=dt)  # noqa: E731
    return (np.array([-1, 0, 0, 1, 0], dtype=np.int64),
            np.zeros(model.outcomes, dtype=np.int64), z(np.float64), z(np.bool_), z(np.int64),
            np.zeros(model.states, dtype=np.int64), np.zeros(model.states, dtype=np.int64),
            np.zeros((1, 1, 1), dtype=np.int8))


def solve_table(N, geo, H, subs, nb):
    """The solve's first table: every seat's win ``1 / N`` and no actions,
    a won game's unit vector, a tie among fewer seats the start of that
    smaller game (``subs[t]``, solved)."""
    A = np.zeros((geo.rows, H, N + 1))
    A[:, :, :N] = 1.0 / N
    for q in range(N):
        A[q, :, :] = 0.0
        A[q, :, q] = 1.0
    for mask, seats in tie_sets(N, geo):
        off, t = geo.tie_off[mask], len(seats)
        lev = subs[t].level(nb)
        A[off:off + nb, :, :] = 0.0
        A[off:off + nb, :, seats] = lev[:, :, :t]
        A[off:off + nb, :, N] = lev[:, :, -1]
    return A


def tie_sets(N, geo):
    """``(mask, seats)`` of every tie among fewer seats that has rows."""
    return [(mask, [q for q in range(N) if mask >> q & 1]) for mask in range(1 << N)
            if geo.tie_off[mask] >= 0]


def _solve(model, N, G, C, lo, replay, subs, lengths, progress, A=None, pol=None):
    """One game of ``N`` seats: its table iterated to the end (``A``, a
    first table, :func:`solve_table` by default; ``pol`` a fixed policy
    whose seat's decisions the kernels follow, as :func:`no_policy` gives
    it (the default), its table's numbers before ``pol[0][P_F0]`` held;
    the kernels read it with the layout's starts that may pass second)."""
    order_states = _order(model)
    lay = _layout(model, C, order_states)
    H = len(lay.starts)
    idx, eff, pen = _falling(model)
    oq = lay.oq.copy()  # a fall reads the column of its own rank past the start states
    oq[idx, 3] = H + np.arange(len(idx))
    fall_h = lay.out_h[idx].astype(np.int64)
    geo = _geometry(N, G, C, lo, replay)
    g, nb = G - lo, C - G + 1
    if A is None:
        A = solve_table(N, geo, H, subs, nb)
    pol = no_policy(model) if pol is None else pol
    pol = (pol[0], lay.pass_ok.astype(np.bool_), *pol[1:])
    NA = A.shape[2]
    ob, tie, fa = _blocks(N, G, C, lo, geo, replay)
    order, pos = _open_order(N, g)
    nt = max(1, min(numba.get_num_threads(), threads()))
    S = model.states
    Tm = max(C + 1 - lo, model.min_bank)
    F = len(idx)
    stopv = np.zeros((nt, Tm + 1, H + F, NA))
    W = np.zeros((nt, S, Tm, NA))
    acc, best = np.zeros((nt, NA + 8)), np.zeros((nt, NA + 8))
    res = np.zeros((nt, H, NA))
    old = np.zeros((nt, 2 * N + 1, H, NA))
    sec = np.zeros((nt, 3, NA))
    flags = np.zeros(3, dtype=np.int64)
    unsettled = np.zeros((nt, 1))
    state, done = np.zeros(len(order), dtype=np.int64), np.zeros(len(order), dtype=np.int64)
    deltas, ldeltas = np.zeros(nt), np.zeros(nt)
    gv = np.array([N, G, C, lo, int(replay), geo.oa, model.min_bank, int(model.forced_first)],
                  dtype=np.int64)
    where = (gv, geo.pw, geo.fa_off, geo.ob_off, geo.fb_off, geo.tie_off, eff, pen, fall_h, A)
    turn = (lay.starts.astype(np.int64), lay.blk_ptr, lay.blk_states, model.cont_start,
            model.out_start, model.out_prob, model.cont_throws, oq, model.opt_start,
            model.opt_gain, model.opt_next, lay.hand_h, lay.hidx, lay.tmin)
    window = 4 * g ** (N - 1) + 4
    stuck = ConvergenceError("the rounds ending with falling scores: a tuple of scores did "
                                 f"not settle in {MAX_INNER:,} rounds")

    scratch = (stopv, W, acc, best, res, old, sec, flags, unsettled, state, done, deltas,
               ldeltas)

    def step(mode, blocks, k=0):
        return sk.run(mode, blocks, k, nt, order, pos, window, *where, TIE, pol, PAIR_TOL,
                      MAX_INNER, *turn, *scratch)

    passes = [0]

    def run_pass():
        d, ld = 0.0, 0.0
        for k in range(len(ob)):
            a, b = step(0, ob, k)
            d, ld = max(d, a), max(ld, b)
        tie_moved = 0.0
        if len(tie):
            a, b = step(1, tie, 1 if passes[0] == 0 else 0)
            if a < 0:
                return -1.0, b
            d, ld = max(d, a), max(ld, b)
            tie_moved = a + b
        # the final rows read only later seats' and the level rounds' starts:
        # once swept they change only with those
        if passes[0] == 0 or tie_moved > 0.0:
            for k in range(len(fa)):
                a, b = step(0, fa, k)
                d, ld = max(d, a), max(ld, b)
        passes[0] += 1
        a, b = step(2, fa)
        if a < 0:
            return -1.0, b
        return max(d, a), max(ld, b)

    delta, done_passes = iterate(
        run_pass, flags[:2], lengths, progress, stuck,
        lambda d: ConvergenceError(f"the rounds ending with falling scores and {N} players did "
                                   f"not settle (last change {d:.3g})"), stall=N > 2)
    moving, residual = int(flags[2]), float(unsettled.max())
    if delta > TOL:  # the passes go round a cycle of best replies: which rows still move
        before = A[:, :, :N].copy()
        delta = max(delta, run_pass()[0])
        done_passes += 1
        moving = int((np.abs(A[:, :, :N] - before).max(axis=(1, 2)) > TOL).sum())
        residual = max(residual, delta)
    return _Solved(A, geo, lay.starts, delta, done_passes, flags,
                   _sizes(model, N, G, C, lo, replay, nt)[1], moving, residual, gv, lay.hidx)


__all__ = ["ENDLESS", "SeatRoundsFallsResult", "estimate", "solve_seat_rounds_falls"]
