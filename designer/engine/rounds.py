"""The rounds ending (equal turns, ties replayed or to the earlier seat) over
any turn model: two seats.

Play goes in rounds, seat 1 then seat 2. Scores may pass the goal; when a
round ends with a score at or above the goal the higher score wins. A tie
for the highest score is settled by the tie rule:

``replay``
    the tied seats play another round (as often as needed);
``earlier-seat``
    seat 1 (the seat that moved earlier in the round) wins it, so seat 2
    must strictly beat seat 1.

Scores never fall here (a model whose busts can lower a banked score is
refused). Values are per seat to move within the round, in three kinds of
turn:

``open``
    Both scores below the goal. ``X[a, b, h]``: seat 1's win probability at
    the start of a round, seat 1 at ``a``, seat 2 at ``b``, the turn
    starting from start state ``h``; ``Y[b, a, h]``: seat 2's, to move
    with ``b`` after seat 1 ended its turn at ``a < goal``. A seat-2 hold
    at ``b + t >= goal`` wins. Seat 1's score is capped at ``cap``: a roll
    that reaches it stops there (a forced hold; the cap is far enough above
    the goal that nothing printed moves with it, see the tests).
``final``
    Seat 1 ended its turn at ``a >= goal``: ``F[d, h]`` is seat 2's win
    probability ``d = a - b`` points behind. A hold at gain ``t > d`` wins,
    below loses, at ``t = d`` ties (replay: a tie round; earlier-seat: a
    loss).
``tie``
    Both seats level at or above the goal (replay only): only the gains of
    the round count. ``T[h]``: seat 1's win probability at a tie round's
    start; its gain is capped at ``cap - goal``; a round that ties again
    starts the same tie round.

Ties between actions: stopping wins a tie (continuing must be better by
more than :data:`~designer._jit.TIE`), except at a turn total of 0 (a
pass), where continuing wins; among continuations and among the options of
one outcome the one listed first wins unless another beats it by more than
the same margin.

The final round: one table for every distance
----------------------------------------------
In a final round seat 2's value at turn state ``s`` and total ``t`` depends
on ``d`` only through ``r = d - t``, the points still to make to tie, once
stopping is allowed and the turn's start is behind (``t >= max(min_bank,
1)``): a stop is worth 1 for ``r < 0``, the tie for ``r = 0``, 0 above, and
every move lowers ``r`` by its gain. So one sweep over ``r = 0 .. cap``
(:func:`~designer.engine._rounds_kernels.final_table`) serves every
distance, and only the totals below ``max(min_bank, 1)`` are swept for
each ``d``: ``cap + 1`` short sweeps instead of ``cap`` whole turns.

The tie round
-------------
Seat 1's tie-round turn ends at a gain ``g`` (capped at ``cap - goal``),
after which seat 2 moves ``g`` behind: ``F[g]`` again, with ``g = 0``
after a bust or a pass. ``T`` enters only as the value of a tie: one
greedy backup ``f`` sweeps seat 2's final-round table with the tie worth
``1 - T`` and then seat 1's turn, and ``T = f(T)`` is found from ``T =
1/2`` until one backup moves no start value by more than :data:`TIE_TOL`.
With one start state ``f`` is affine in ``T`` while its decisions stay, so
the iterates go to the fixed point of the line through the last two
backups (a secant step; a handful of backups in all); with several they
are iterated plainly (a contraction by the chance of another tie).

The open rounds
---------------
A hold moves to a larger ``a + b``; a round in which both seats score
nothing returns to the same pair ``(a, b)``, the only cycle. Pairs are
solved in decreasing ``a + b``: pair ``(a, b)`` reads pairs ``(a', b)``,
``a' > a`` (seat 1's holds, through ``Y``) and ``(a, b')``, ``b' > b``
(seat 2's, through ``X``). Inside a pair, side 0 is seat 1's turn and side
1 seat 2's, and the pair has the race's structure
(:mod:`designer.engine.solve`): the start values of a *feedback state* (the
game's start for dice; a fresh deck) on both sides are its two unknowns,
every value is carried as an affine function of them, and policy
iteration settles them (the race's rule), accepting a new estimate without
another sweep when no decision of the sweep can flip on the way to it.
When some decisions kept near a tie do flip, the next sweep goes again
only from the highest total where one does (with one start state the two
sides meet only through the unknowns, and a block of states reads only
earlier blocks, at totals no lower than its own): the totals above keep
their values, which a whole sweep would give again.

A sweep goes block by block (the strongly connected components of the
moves within a turn, successors first, each from its largest total down),
and leaves out the positions below the least total a state is reached
with. Each pair is solved as soon as the pairs it reads are solved, by one
worker to each of numba's threads, as in the race
(:func:`~designer.engine._rounds_kernels.open_worker`); a game of a few
milliseconds runs on one (:data:`SERIAL_WORK`). A turn model that needs two
or more feedback states takes a plain path: every start state is an
unknown, each pair settled by policy iteration over vectors
(:func:`_open_general`).

Seat 1's sure holds
-------------------
Above the goal seat 1 holds in the end, and its turn would otherwise run
to the cap. With ``y`` the least of seat 2's values after a bust of seat 1
(start values of the pair: with one start state, its second unknown) and
holding at every total from score ``A`` on, continuing a continuation
``c`` at ``A`` is worth at most holding when

.. math::

    M_c(b, A) = F(A - b, h_s) - \\sum_{o \\notin \\mathrm{bust}} p_o\\,
    F'_o \\le p_b(c)\\, y ,

with ``F'_o`` the final-round value after the outcome (the least over an
outcome's options; a score past the cap held at the cap) and ``p_b(c)``
the continuation's bust probability. By induction down from the cap,
seat 1 holds everywhere from the first ``A^* >= goal`` with ``Q(b, A^*)
= max_{A' >= A^*, s, c} (M_c(b, A') + 10^{-12}) / p_b(c) <= y``
(:func:`~designer.engine._rounds_kernels.hold_bounds`; the ``10^{-12}``
keeps a hold that only rounding proves out). A pair's sweep cuts seat 1's
turn at ``A^*`` for ``y`` of :data:`CUT_AT` times its estimate (the
neighbouring pairs' warm starts), and the pair is only accepted at
unknowns with ``y >= Q(b, A^*)``: the cut turn holds where the whole one
would, and its values are the same. A pair whose solved ``y`` falls short
is solved again with the whole turn.

Seat 1's sure wins
------------------
Where seat 2 cannot make up ``d`` points in its last turn from the start
state it is handed (``F[d', h] = 0`` for every ``d' >= d``: a deck with
fewer good items left than ``d``), seat 1 at or above the goal wins for
sure by holding, and the position is worth exactly 1 whatever it could
still draw. A pair's sweep writes 1 there and sweeps a state's turn only
as far as its own uncertain positions and the moves into it reach
(:func:`_sure_wins`). With a deck (258 start states in Fowl Play, where
the cut above is too weak to help: a near-empty deck rarely busts) this
is what ends seat 1's turn, as a player ends it once the lead is larger
than the good items left.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from designer import memory as mem
from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, TIE, TOL, kernel, load_first
from designer.engine import _rounds_kernels as rk
from designer.engine.model import BUST, CHOOSE, END, tiny_model
from designer.engine.solve import TooLargeError
from designer.errors import ConvergenceError, DesignError, SolverError

#: Why a two-seat game whose busts lower a banked score is refused here
#: (:mod:`designer.engine.rounds_falls` solves it: every command goes there).
FALLS_SOLVE_ONLY = ("under the rounds ending, a game whose busts lower a banked score is "
                    "solved by iterating (designer.engine.rounds_falls), not by the rounds "
                    "solver")

#: Tie rules of the rounds ending.
TIE_RULES = ("replay", "earlier-seat")
#: Default margin of the score cap above the goal, in the model's units
#: (as today's dice solver: :data:`designer.solve.rounds.DICE_CAP_MARGIN`).
CAP_MARGIN = 60
#: A pair of the general path is accepted when one greedy backup moves no
#: start value by more than this.
PAIR_TOL = 1e-14
#: Policy-iteration steps per pair of the general path before giving up.
MAX_STEPS = 200
#: Iterates of the tie round before giving up.
MAX_TIE_ITER = 100_000
#: The tie round is accepted when one iterate moves no start value by more
#: than this.
TIE_TOL = 1e-15
#: Added to every margin of seat 1's sure holds (module doc).
HOLD_GUARD = 1e-12
#: Seat 1's turn is cut where its sure holds need at most this times the
#: estimate of seat 2's turn starts after a bust (module doc): the room
#: for the solved starts to fall short of the estimate.
CUT_AT = 0.9
#: Open rounds of less work than this (pairs times the most totals of seat
#: 2's turn times the model's outcomes and options: a few milliseconds) run
#: on one thread: another costs its start, and on a busy machine the wait
#: for it to finish when it has no core (all-yellow Zombie Dice took ten
#: times longer on two threads than on one beside a busy process).
SERIAL_WORK = 500_000
#: Decisions kept near a tie per turn state (and 4096 more), per worker.
KEPT_PER_STATE = 4


@dataclass(frozen=True, eq=False)
class RoundsResult:
    """Exact optimal play of a two-seat game under the rounds ending.

    Attributes
    ----------
    first_player_win : float
        Seat 1's win probability at the game's start (scores ``start``).
    goal, cap : int
    ties : str
    start : tuple
        Start scores of seat 1 and seat 2.
    X : ndarray, shape (goal, goal, H)
        Seat 1 to move at a round's start (open rounds).
    Y : ndarray, shape (goal, goal, H)
        ``Y[b, a, h]``: seat 2 to move with ``b`` after seat 1 ended at ``a``.
    F : ndarray, shape (cap + 1, H)
        Seat 2 to move ``d`` points behind a seat 1 at or above the goal.
    T : ndarray, shape (H,)
        Seat 1 at a tie round's start (replay; 0.5 unused for earlier-seat).
    start_states : ndarray
        The turn states indexing the last axes.
    states : int
        In-turn positions of the open rounds.
    residual : float
        Largest accepted backup change.
    steps : int
        Sweeps over all open pairs, each of both seats' turns (on the
        general path, :func:`_open_general`, policy-iteration steps).
    seconds : float
    one_feedback : bool
        The turns start over from one feedback state (the pair kernels
        solved it, and :func:`designer.engine.rounds_length.rounds_lengths`
        takes it); False: the general path.
    """

    first_player_win: float
    goal: int
    cap: int
    ties: str
    start: tuple
    X: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    F: np.ndarray = field(repr=False)
    T: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    states: int
    residual: float
    steps: int
    seconds: float
    one_feedback: bool = True

    def value(self, a, b, state=0):
        """Seat 1's win probability at a round's start, scores ``(a, b)``."""
        h = int(np.searchsorted(self.start_states, state))
        return float(self.X[a, b, h])


def _order(model):
    """States so that a zero-gain move ``s -> s'`` puts ``s'`` first."""
    from graphlib import CycleError, TopologicalSorter

    src, dst, gain = _moves(model)
    ts = TopologicalSorter({s: [] for s in range(model.states)})
    for s, s2 in zip(src[gain == 0].tolist(), dst[gain == 0].tolist()):
        ts.add(s, s2)
    try:
        return np.array(list(ts.static_order()), dtype=np.int64)
    except CycleError as exc:
        raise DesignError("the rounds ending does not solve yet turns that can return to a "
                          "state without scoring through other states or through a choice (" +
                          model.describe(exc.args[1][0]) + "); a roll that brings the turn "
                          "straight back to the same state is solved") from None


def _moves(model):
    """Moves within a turn over outcomes of positive probability: arrays
    ``(state, next state, gain)``, one row per option."""
    owner_c = np.repeat(np.arange(model.states), np.diff(model.cont_start))
    owner_o = np.repeat(owner_c, np.diff(model.out_start))
    live = (model.out_kind == CHOOSE) & (model.out_prob > 0.0)
    nopt = np.diff(model.opt_start)
    src = np.repeat(owner_o, nopt)
    keep = np.repeat(live, nopt)
    return src[keep], model.opt_next[keep], model.opt_gain[keep]


@kernel
def _totals(S, starts, src, dst, gain, tn):
    """Least and largest turn total each of the ``S`` states is reached
    with (the largest at most ``tn - 1``); a state never reached gets
    ``(tn, -1)``."""
    lo = np.full(S, tn, dtype=np.int64)
    hi = np.full(S, -1, dtype=np.int64)
    for h in range(starts.shape[0]):
        lo[starts[h]] = 0
        hi[starts[h]] = 0
    changed = True
    while changed:
        changed = False
        for k in range(src.shape[0]):
            s = src[k]
            if hi[s] < 0:
                continue
            a = lo[s] + gain[k]
            if a < lo[dst[k]]:
                lo[dst[k]] = a
                changed = True
            b = min(hi[s] + gain[k], tn - 1)
            if b > hi[dst[k]]:
                hi[dst[k]] = b
                changed = True
    return lo, hi



@kernel
def _components(S, ptr, adj):
    """Strongly connected components of the graph ``ptr, adj`` (CSR) by
    Tarjan's algorithm, iteratively: ``comp[s]``, numbered successors first
    (a component only reaches components of smaller numbers), and their
    count."""
    index = np.full(S, -1, dtype=np.int64)
    low = np.zeros(S, dtype=np.int64)
    on = np.zeros(S, dtype=np.bool_)
    stack = np.empty(S, dtype=np.int64)
    comp = np.full(S, -1, dtype=np.int64)
    work_v = np.empty(S, dtype=np.int64)
    work_i = np.empty(S, dtype=np.int64)
    sp = 0
    ncomp = 0
    counter = 0
    for root in range(S):
        if index[root] >= 0:
            continue
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        on[root] = True
        work_v[0] = root
        work_i[0] = ptr[root]
        wp = 1
        while wp > 0:
            v = work_v[wp - 1]
            i = work_i[wp - 1]
            if i < ptr[v + 1]:
                work_i[wp - 1] = i + 1
                w = adj[i]
                if index[w] < 0:
                    index[w] = counter
                    low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    on[w] = True
                    work_v[wp] = w
                    work_i[wp] = ptr[w]
                    wp += 1
                elif on[w]:
                    low[v] = min(low[v], index[w])
            else:
                wp -= 1
                if low[v] == index[v]:
                    while True:
                        sp -= 1
                        w = stack[sp]
                        on[w] = False
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
                if wp > 0:
                    u = work_v[wp - 1]
                    low[u] = min(low[u], low[v])
    return comp, ncomp


def _blocks(S, src, dst, order):
    """The blocks of a sweep: the strongly connected components of the moves
    ``src -> dst``, successors first, each in ``order`` (zero-gain moves'
    targets first). Returns ``blk_ptr, blk_states``."""
    by = np.argsort(src, kind="stable")
    ptr = np.concatenate(([0], np.cumsum(np.bincount(src, minlength=S)))).astype(np.int64)
    comp, n = _components(S, ptr, np.ascontiguousarray(dst[by], dtype=np.int64))
    rank = np.empty(S, dtype=np.int64)
    rank[order] = np.arange(S)
    states = np.argsort(comp * S + rank, kind="stable").astype(np.int64)
    blk_ptr = np.concatenate(([0], np.cumsum(np.bincount(comp, minlength=n)))).astype(np.int64)
    return blk_ptr, states



@dataclass(frozen=True, eq=False)
class _Layout:
    """How the kernels walk ``model``: the order of the states, the packed
    outcomes (:mod:`designer.engine._rounds_kernels`), the blocks of a
    pair's sweep, the feedback start ``fbh`` (an index into the start
    states; -1: two or more feedback states, the general path) and the
    least and largest total each state is reached with."""

    order: np.ndarray
    starts: np.ndarray
    hidx: np.ndarray
    hand_h: np.ndarray
    out_h: np.ndarray
    oq: np.ndarray
    fb_p: np.ndarray
    moves: tuple
    opt_hh: np.ndarray
    pass_ok: np.ndarray
    blk_ptr: np.ndarray
    blk_states: np.ndarray
    blk_tmax: np.ndarray
    tmin: np.ndarray
    tlen: np.ndarray
    fbh: int
    Tn: int
    simple: bool


def _layout(model, cap, order):
    """The :class:`_Layout` of ``model`` for a score cap ``cap``, its
    states in ``order`` (:func:`_order`)."""
    S = model.states
    starts = model.start_states()
    H = len(starts)
    hidx = np.full(S, -1, dtype=np.int64)
    hidx[starts] = np.arange(H)
    out_h = np.where(model.out_kind != CHOOSE, hidx[np.maximum(model.out_next, 0)], 0)
    hand_h = hidx[model.handover]
    Tn = max(cap, model.min_bank)
    src, dst, gain = _moves(model)
    if H == 1:
        # every turn ends at the one start state, whose start values cut
        # every cycle through a turn's end
        blk_ptr, blk_states = _blocks(S, src, dst, order)
        fbh = 0
    else:
        from designer.engine.solve import plan

        p = plan(model, Tn)
        blk_ptr, blk_states = p["blk_ptr"], p["blk_states"]
        fh = p["fh"]
        fbh = -1 if len(fh) > 1 else int(fh[0]) if len(fh) else int(hidx[0])
    tmin, reach = _totals(S, starts, src, dst, gain, Tn)
    tlen = reach + 1
    blk_tmax = np.array([int(tlen[blk_states[a:b]].max()) - 1
                         for a, b in zip(blk_ptr[:-1], blk_ptr[1:])], dtype=np.int64)
    # where a stop can be a pass: a start the mover may pass at, or a state
    # reached at a total of 0 by moves that score nothing
    pass_ok = np.zeros(S, dtype=np.bool_)
    if model.min_bank == 0:
        at_zero = np.zeros(S, dtype=np.bool_)
        at_zero[starts] = True
        pass_ok[starts] = not model.forced_first
        zs, zd = src[gain == 0], dst[gain == 0]
        while True:
            new = zd[at_zero[zs] & ~pass_ok[zd]]
            if not new.size:
                break
            at_zero[new] = pass_ok[new] = True
    kind = model.out_kind
    nopt = np.diff(model.opt_start)
    first = np.minimum(model.opt_start[:-1], max(len(model.opt_gain) - 1, 0))
    single = (kind == CHOOSE) & (nopt == 1)
    op = np.full(model.outcomes, rk.OP_START, dtype=np.int64)
    op[(kind == BUST) & (out_h == fbh)] = rk.OP_FEEDBACK
    op[kind == END] = rk.OP_END
    op[single] = rk.OP_MOVE
    op[(kind == CHOOSE) & (nopt > 1)] = rk.OP_CHOICE
    op[model.out_prob <= 0.0] = rk.OP_SKIP
    oq = np.zeros((model.outcomes, 4), dtype=np.int64)
    oq[:, rk.OQ_OP] = op
    oq[:, rk.OQ_AUX] = out_h
    oq[:, rk.OQ_GAIN] = np.where(kind == END, model.out_points, 0)
    if len(model.opt_gain):
        oq[single, rk.OQ_GAIN] = model.opt_gain[first[single]]
        oq[single, rk.OQ_NEXT] = model.opt_next[first[single]]
        oq[single, rk.OQ_AUX] = hand_h[model.opt_next[first[single]]]
    if np.abs(oq).max(initial=0) >= 2**31:
        raise DesignError("the rounds ending takes turn states and gains below 2,147,483,648")
    oq = oq.astype(np.int32)  # half the bytes: Zombie Dice's blocks stay in the cache
    # a pair's sweep reads the outcomes of a continuation in three groups
    # (designer.engine._rounds_kernels): busts to the feedback start, moves,
    # and the others
    owner = np.repeat(np.arange(model.continuations), np.diff(model.out_start))
    fb = op == rk.OP_FEEDBACK
    # float64 even with no feedback outcome (np.bincount of nothing gives
    # int64, and the kernels would compile again for that)
    fb_p = np.bincount(owner[fb], weights=model.out_prob[fb],
                       minlength=model.continuations).astype(np.float64)
    mv = np.flatnonzero(op == rk.OP_MOVE)
    ot = np.flatnonzero((op != rk.OP_MOVE) & (op != rk.OP_FEEDBACK) & (op != rk.OP_SKIP))

    def ptr(idx):
        counts = np.bincount(owner[idx], minlength=model.continuations)
        return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    moves = (ptr(mv), np.ascontiguousarray(model.out_prob[mv]), oq[mv, rk.OQ_GAIN].copy(),
             (oq[mv, rk.OQ_NEXT].astype(np.int64) * Tn + oq[mv, rk.OQ_GAIN]).astype(np.int32),
             oq[mv, rk.OQ_AUX].copy(), ptr(ot), ot.astype(np.int32))
    opt_hh = hand_h[model.opt_next].astype(np.int64)
    # simple states (a deck's): one state a block, one continuation each,
    # whose outcomes are busts to turn starts and at most one move (swept by
    # designer.engine._rounds_kernels._sweep_simple)
    simple = (bool(S) and bool(np.all(np.diff(blk_ptr) == 1))
              and bool(np.all(np.diff(model.cont_start) == 1))
              and bool(np.all(np.isin(op, (rk.OP_MOVE, rk.OP_START, rk.OP_FEEDBACK))))
              and bool(np.all(np.bincount(owner[mv], minlength=model.continuations) <= 1)))
    return _Layout(order, starts, hidx, hand_h, out_h, oq, fb_p, moves, opt_hh, pass_ok, blk_ptr,
                   blk_states, blk_tmax, tmin, tlen, fbh, Tn, simple)


def _model_args(model, lay):
    """The model's arrays as the scalar kernels take them, after the blocks."""
    return (lay.blk_ptr, lay.blk_states, model.cont_start, model.out_start, model.out_prob,
            lay.oq, model.opt_start, model.opt_gain, model.opt_next, lay.hand_h)


def turn_args(model, lay):
    """The model's arrays as the one-number-a-position kernels take them
    (:func:`~designer.engine._rounds_kernels.final_table`,
    :func:`~designer.engine._rounds_kernels.final_starts`,
    :func:`~designer.engine._rounds_kernels.turn_starts`), after the
    blocks."""
    return (lay.blk_ptr, lay.blk_states, model.cont_start, model.out_start, model.out_prob,
            model.cont_throws, lay.oq, model.opt_start, model.opt_gain, model.opt_next,
            lay.hand_h)


def _tie_round(model, lay, C, G):
    """``T``, the tie round's start values (replay)."""
    H, S = len(lay.starts), model.states
    Cg = C - G
    tlo = max(model.min_bank, 1)
    Tv = np.full(H, 0.5)
    # the lengths' scratch: carried by the kernels, not read here
    L = (np.zeros(H), np.zeros((S, Cg + 1)), np.zeros((S, tlo)), np.zeros((Cg + 1, H)),
         np.zeros((Cg + 1, H)), np.zeros((S, Cg)), np.zeros(H))
    it = rk.tie_round(Cg, True, TIE_TOL, MAX_TIE_ITER, model.min_bank, model.forced_first, TIE,
                      *turn_args(model, lay), lay.hidx, lay.tmin, Tv, np.zeros((S, Cg + 1)),
                      np.zeros((S, tlo)), np.zeros((Cg + 1, H)), np.zeros((Cg + 1, H)),
                      np.zeros((S, Cg)), np.zeros(H), L)
    if it < 0:
        raise ConvergenceError("the tie round did not settle")
    return Tv


def final_round(model, lay, d0, C, tv, lt=None):
    """Seat 2's final rounds ``d = d0 .. C`` points behind: values and
    expected actions left, ``(F, LF)`` of shape ``(C + 1, H)`` (rows below
    ``d0`` left 0; row 0, level, is a tie round's second turn). ``tv[h]``:
    seat 2's value of a tie, ``lt[h]`` the actions after it (default 0)."""
    H, S = len(lay.starts), model.states
    tlo = max(model.min_bank, 1)
    lt = np.zeros(H) if lt is None else lt
    Wr, Lr = np.zeros((S, C + 1)), np.zeros((S, C + 1))
    F, LF = np.zeros((C + 1, H)), np.zeros((C + 1, H))
    args = turn_args(model, lay)
    rk.final_table(C, tv, lt, TIE, *args, Wr, Lr)
    rk.final_starts(d0, C, tlo, model.min_bank, model.forced_first, tv, lt, TIE, *args, lay.hidx,
                    lay.tmin, Wr, Lr, np.zeros((S, tlo)), np.zeros((S, tlo)), F, LF)
    return F, LF


def _final_round(model, lay, C, tv):
    """``F[d, h]`` for ``d = 1 .. C`` (row 0 is left 0)."""
    return final_round(model, lay, 1, C, tv)[0]


def _pairs(G):
    """Pairs ``(a, b)`` by decreasing ``a + b``, then ``a``, with the group bounds."""
    rows, groups = [], [0]
    for total in range(2 * (G - 1), -1, -1):
        for a in range(max(0, total - (G - 1)), min(total, G - 1) + 1):
            rows.append((a, total - a))
        groups.append(len(rows))
    return np.array(rows, dtype=np.int64).reshape(-1, 2), np.array(groups, dtype=np.int64)


def _sure_wins(model, lay, F, C):
    """Where seat 1's hold wins for sure: ``(sw_l, sw_bu)``.

    Seat 2 ``d`` points behind in the final round, its turn from start
    ``h``, cannot win from ``d >= dz[h]`` on when ``F[d', h] = 0`` for every
    ``d' >= dz[h]`` (no gain of a turn reaches ``d'``: a deck with few good
    items left). Seat 1 at turn state ``s`` with total ``t``, scores ``(a,
    b)``, then wins by holding once ``t >= max(goal - a, min_bank)`` and
    ``a + t - b >= dz[hand_h[s]]``: holding is worth exactly 1, which no
    continuation beats, so the position is 1 and its turn need not be
    swept further. ``sw_l[s] = dz[hand_h[s]]``; ``sw_bu[blk]`` bounds the
    totals a block's positions are read at, relative to ``b - a`` (column
    0) and to ``max(goal - a, min_bank)`` (column 1): its own positions
    below the sure win, and the positions the moves into it reach from
    below theirs (a predecessor ``s'`` swept to ``max(goal - a, dz' + b -
    a) - 1``, with gain ``g``, reads up to ``g - 1`` more)."""
    H = len(lay.starts)
    dz = np.full(H, C + 1, dtype=np.int64)
    for h in range(H):
        nz = np.flatnonzero(F[1:, h] != 0.0)
        dz[h] = (int(nz[-1]) + 2) if nz.size else 1
    dz[dz > C] = C + 1  # never sure below the cap
    sw_l = dz[lay.hand_h]
    src, dst, gain = _moves(model)
    low = -4 * (C + 1)
    r1 = np.full(model.states, low, dtype=np.int64)
    r2 = np.full(model.states, low, dtype=np.int64)
    np.maximum.at(r1, dst, sw_l[src] + gain - 1)
    np.maximum.at(r2, dst, gain - 1)
    u1 = np.maximum(sw_l - 1, r1)
    u2 = np.maximum(-1, r2)
    comp = np.repeat(np.arange(len(lay.blk_ptr) - 1), np.diff(lay.blk_ptr))
    sw_bu = np.full((len(lay.blk_ptr) - 1, 2), low, dtype=np.int64)
    np.maximum.at(sw_bu[:, 0], comp, u1[lay.blk_states])
    np.maximum.at(sw_bu[:, 1], comp, u2[lay.blk_states])
    return sw_l.astype(np.int64), sw_bu


def _cuts(model, lay, G, C, F):
    """Where seat 1's turn need not be swept (module doc): ``Q`` of its
    sure holds, the start states a bust leads to, and its sure wins
    (:func:`_sure_wins`)."""
    Q = np.empty((G, C - G))
    gmax = max(int(model.opt_gain.max(initial=0)), int(model.out_points.max(initial=0)))
    rk.hold_bounds(G, C, gmax, HOLD_GUARD, F, *_model_args(model, lay)[2:], Q)
    busts = (model.out_kind == BUST) & (model.out_prob > 0.0)
    bust_h = np.unique(lay.out_h[busts]).astype(np.int64)
    return (Q, bust_h) + _sure_wins(model, lay, F, C)


def _open_rounds(model, lay, G, C, F, X, Z):
    """The open rounds on the pair kernels (one feedback state), one worker
    to each of numba's threads (a small game on one, :data:`SERIAL_WORK`);
    returns the residual and the sweeps."""
    import numba

    Q, bust_h, sw_l, sw_bu = _cuts(model, lay, G, C, F)
    pairs, groups = _pairs(G)
    work_units = G * G * (G + model.min_bank + 1) * (model.outcomes + len(model.opt_gain))
    nt = 1 if work_units < SERIAL_WORK else max(1, numba.get_num_threads())
    S, H, Tn = model.states, len(lay.starts), lay.Tn
    nblk = len(lay.blk_ptr) - 1
    # each worker's scratch: a pair's values, its turn starts, the decisions
    # kept near a tie (Zombie Dice keeps about 1,100 a sweep for its 10,766
    # states; one past the room only makes the radius smaller) and where a
    # sweep goes again
    scratch = (np.zeros((nt, 2, nblk), dtype=np.int64), np.zeros((nt, 2 * S * Tn, 3)),
               np.zeros((nt, 2 * H, 3)), np.empty((nt, KEPT_PER_STATE * S + 4096, 7)),
               np.zeros((nt, 1), dtype=np.int64))
    out = np.zeros((len(pairs), 3))
    work = np.zeros((nt, 2), dtype=np.int64)
    state = np.zeros(len(pairs), dtype=np.int64)  # claims, one counter a pair
    done = np.zeros(len(pairs), dtype=np.int64)
    before = numba.get_num_threads()
    numba.set_num_threads(nt)
    try:
        rk.solve_open(nt, pairs, groups, G, C, model.min_bank, model.forced_first, TIE, TOL,
                      PI_SWEEPS, PI_EXACT, MAX_SWEEPS, lay.fbh, lay.blk_ptr, lay.blk_states,
                      lay.blk_tmax, lay.tmin, lay.tlen, model.cont_start, lay.fb_p, *lay.moves,
                      model.out_prob, lay.oq, model.opt_start, model.opt_gain, model.opt_next,
                      lay.opt_hh, lay.hand_h, lay.pass_ok, lay.hidx, X, Z, X.reshape(-1),
                      Z.reshape(-1), Q, CUT_AT, bust_h, sw_l, sw_bu, lay.simple, *scratch, out, work, np.zeros(2 * nt, dtype=np.int64),
                      state, done)
    finally:
        numba.set_num_threads(before)
    if np.any(out[:, 2]):
        a, b = pairs[int(np.flatnonzero(out[:, 2])[0])]
        raise SolverError(f"the rounds ending did not settle the scores ({a}, {b}) within "
                          f"{MAX_SWEEPS} sweeps")
    return float(out[:, 0].max()), int(out[:, 1].sum())


@kernel
def _num(v, x):
    r = v[0]
    for k in range(x.shape[0]):
        r += v[k + 1] * x[k]
    return r


@kernel
def _turn(T, stopv, x, order, cont_start, out_start, out_prob, out_kind, out_points, out_h,
          opt_start, opt_gain, opt_next, hand_h, min_bank, forced, W, acc, best, starts_h, res):
    """One turn, swept backwards: ``stopv[t, hh]`` (affine, ``K`` numbers)
    is the mover's value of ending the turn with total ``t`` (``t = T``:
    any total ``>= T``, where the turn ends at once) and the next turn
    starting from start ``hh``; ``W[s, t]`` the in-turn values; the start
    values go to ``res[h]`` for each start state ``starts_h[h]``."""
    K = stopv.shape[2]
    for t in range(T - 1, -1, -1):
        for q in range(order.shape[0]):
            s = order[q]
            have = False
            bestn = 0.0
            for c in range(cont_start[s], cont_start[s + 1]):
                for k in range(K):
                    acc[k] = 0.0
                for o in range(out_start[c], out_start[c + 1]):
                    p = out_prob[o]
                    if out_kind[o] == BUST:
                        for k in range(K):
                            acc[k] += p * stopv[0, out_h[o], k]
                    elif out_kind[o] == END:
                        u = min(t + out_points[o], T)
                        for k in range(K):
                            acc[k] += p * stopv[u, out_h[o], k]
                    else:
                        bo = -1
                        bn = 0.0
                        for r in range(opt_start[o], opt_start[o + 1]):
                            u = t + opt_gain[r]
                            s2 = opt_next[r]
                            if u >= T:
                                n = _num(stopv[T, hand_h[s2]], x)
                            else:
                                n = _num(W[s2, u], x)
                            if bo < 0 or n > bn + TIE:
                                bo, bn = r, n
                        u = t + opt_gain[bo]
                        s2 = opt_next[bo]
                        if u >= T:
                            for k in range(K):
                                acc[k] += p * stopv[T, hand_h[s2], k]
                        else:
                            for k in range(K):
                                acc[k] += p * W[s2, u, k]
                n = _num(acc, x)
                if not have or n > bestn + TIE:
                    have = True
                    bestn = n
                    for k in range(K):
                        best[s, k] = acc[k]
            stop = stopv[t, hand_h[s]]
            if t >= min_bank:
                sn = _num(stop, x)
                go = have and (bestn > sn + TIE if t > 0 else bestn > sn - TIE)
            else:
                go = True
            if go and have:
                for k in range(K):
                    W[s, t, k] = best[s, k]
            else:
                for k in range(K):
                    W[s, t, k] = stop[k]
    for h in range(starts_h.shape[0]):
        s = starts_h[h]
        src = best[s] if forced else W[s, 0]
        for k in range(K):
            res[h, k] = src[k]


def _solve_affine(c, E):
    """``x = c + E x``; None when singular."""
    A = np.eye(len(c)) - E
    if abs(np.linalg.det(A)) < 1e-13:
        return None
    return np.linalg.solve(A, c)




def _open_general(model, lay, G, C, F, X, Y):
    """The open rounds of a model with two or more feedback states: every
    start state's start value is an unknown of the pair (``K = H + 1``
    numbers a value), and policy iteration (sweep at the estimate, solve the
    policy's linear system) settles each pair until one greedy backup moves
    no start value by more than :data:`PAIR_TOL`. Returns the residual and
    the policy-iteration steps."""
    S, H = model.states, len(lay.starts)
    order, hand_h, mb = lay.order, lay.hand_h, model.min_bank
    arrs = (order, model.cont_start, model.out_start, model.out_prob, model.out_kind,
            model.out_points, lay.out_h, model.opt_start, model.opt_gain, model.opt_next, hand_h,
            mb, model.forced_first)

    def turn(T, stopv, x):
        K = stopv.shape[2]
        W = np.zeros((S, max(T, 1), K))
        best = np.zeros((S, K))
        res = np.zeros((H, K))
        _turn(T, stopv, x, *arrs, W, np.zeros(K), best, lay.starts, res)
        return res

    K = H + 1
    eye = np.zeros((H, K))
    eye[:, 1:] = np.eye(H)
    residual, steps = 0.0, 0
    for D in range(2 * G - 2, -1, -1):
        for a in range(max(0, D - G + 1), min(D, G - 1) + 1):
            b = D - a
            T2 = max(G - b, mb)
            sv2 = np.zeros((T2 + 1, H, K))
            sv2[0] = -eye
            sv2[0, :, 0] = 1.0  # a pass or a bust: 1 - x[hh]
            for t in range(1, T2 + 1):
                if b + t >= G:
                    sv2[t, :, 0] = 1.0
                else:
                    sv2[t, :, 0] = 1.0 - X[a, b + t]
            T1 = C - a
            sv1 = np.zeros((T1 + 1, H, K))
            for t in range(1, T1 + 1):
                if a + t >= G:
                    sv1[t, :, 0] = 1.0 - F[a + t - b]
                else:
                    sv1[t, :, 0] = 1.0 - Y[b, a + t]
            x = np.full(H, 0.5)
            for step in range(MAX_STEPS):
                steps += 1
                y2 = turn(T2, sv2, x)  # seat 2 after seat 1 scored nothing
                sv1[0] = -y2
                sv1[0, :, 0] += 1.0
                r = turn(T1, sv1, x)
                c, E = r[:, 0], r[:, 1:]
                g = c + E @ x
                change = float(np.abs(g - x).max())
                if change <= PAIR_TOL:
                    residual = max(residual, change)
                    x = g
                    break
                nxt = _solve_affine(c, E)
                x = g if nxt is None else nxt
            else:
                raise ConvergenceError(f"the rounds ending did not settle the scores "
                                       f"({a}, {b}) within {MAX_STEPS} steps")
            X[a, b] = x
            Y[b, a] = y2[:, 0] + y2[:, 1:] @ x
    return residual, steps


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is solve time."""
    load_first((rk.solve_open,), lambda: solve_rounds_model(tiny_model(), 2, _timed=False))


def solve_rounds_model(model, goal, *, ties="replay", start=(0, 0), cap=None, memory_limit=None,
                       _timed=True):
    """Solve two seats under the rounds ending over ``model`` exactly.

    Parameters
    ----------
    model : TurnModel
        The turn process; its busts must not lower a banked score.
    goal : int
    ties : str
        ``"replay"`` or ``"earlier-seat"``.
    start : tuple of int
        Start scores of seat 1 and seat 2 (each below the goal).
    cap : int, optional
        Score cap (default ``goal + CAP_MARGIN``).
    memory_limit : int, optional
        Bytes the solve may take (:func:`rounds_estimate`), checked before
        anything is allocated (default :func:`designer.memory.memory_limit`).

    Returns
    -------
    RoundsResult

    Raises
    ------
    DesignError
        A goal, tie rule, start or cap out of range, scores that can fall,
        or a turn that can return to a state without scoring.
    TooLargeError
        The solve needs more than ``memory_limit`` bytes.
    ConvergenceError, SolverError
        A tie round or a pair that does not settle.
    """
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, TIE_RULES)))
    if model.falls:
        raise DesignError(FALLS_SOLVE_ONLY)
    if not all(0 <= s < goal for s in start):
        raise DesignError(f"start scores {tuple(start)}: each must be 0..{goal - 1}")
    C = goal + CAP_MARGIN if cap is None else int(cap)
    if C <= goal:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    G = goal
    order = _order(model)
    memory_limit = mem.resolve(memory_limit)
    est = rounds_estimate(model, goal, C)
    if est["memory"] > memory_limit:
        raise TooLargeError(f"this game has {est['positions']:,} positions in rounds and needs "
                            f"{est['memory'] / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    t0 = time.perf_counter()
    lay = _layout(model, C, order)
    H = len(lay.starts)
    Tv = _tie_round(model, lay, C, G) if ties == "replay" else np.full(H, 0.5)
    F = _final_round(model, lay, C, 1.0 - Tv if ties == "replay" else np.zeros(H))
    if lay.fbh >= 0:
        # seat 1 to move at (a, b'): X below the goal, 0 from it on (seat 2
        # has won); seat 2 to move at (b, A): Y below the goal, the final
        # round from it on
        Xe = np.zeros((G, G + max(model.min_bank, 1) + 1, H))
        Z = np.zeros((G, C + 1, H))
        for b in range(G):
            Z[b, G:] = F[G - b:C + 1 - b]
        residual, steps = _open_rounds(model, lay, G, C, F, Xe, Z)
        X = np.ascontiguousarray(Xe[:, :G])
        Y = np.ascontiguousarray(Z[:, :G])
    else:
        X = np.zeros((G, G, H))
        Y = np.zeros((G, G, H))
        residual, steps = _open_general(model, lay, G, C, F, X, Y)
    seconds = time.perf_counter() - t0
    positions = _positions(model, G, C)
    h0 = int(lay.hidx[0])
    return RoundsResult(float(X[start[0], start[1], h0]), G, C, ties, tuple(start), X, Y, F, Tv,
                        lay.starts, positions, residual, steps, seconds, lay.fbh >= 0)


def _positions(model, goal, cap):
    """In-turn positions the open rounds sweep (:attr:`RoundsResult.states`)."""
    G, mb = goal, model.min_bank
    a = np.arange(G)
    per_a = (cap - a).sum() * G
    per_b = np.maximum(G - a, mb).sum() * G
    return int(model.states * (per_a + per_b))


#: Seconds per unit of work (an in-turn position of :func:`_positions`, of
#: which the sweeps visit about a third, times the outcomes and options of
#: its state), on one thread of the development machine (two cores, busy):
#: Pig to 100 4e-10, full Zombie Dice 2e-10.
SECONDS_PER_WORK = 3e-10


def _general_values(model, Tn):
    """Numbers the open rounds' general path (two or more feedback states,
    :func:`_open_general`) holds at once: a turn's in-turn values and its
    stop values, ``K = H + 1`` numbers each; 0 for the pair kernels."""
    H = len(model.start_states())
    if H == 1:
        return 0
    from designer.engine.solve import plan

    if len(plan(model, Tn)["fh"]) <= 1:
        return 0
    K = H + 1
    return (model.states * (Tn + 1) + 3 * (Tn + 1) * H) * K


def rounds_estimate(model, goal, cap=None, nt=None):
    """What :func:`solve_rounds_model` needs, before solving: ``positions``,
    ``start_states``, ``memory`` (bytes, on ``nt`` threads, default
    :func:`~designer._jit.threads`) and a rough ``seconds`` on one thread
    (a guide within a factor of about 3)."""
    from designer._jit import threads

    if model.falls:
        raise DesignError(FALLS_SOLVE_ONLY)
    _order(model)
    C = goal + CAP_MARGIN if cap is None else int(cap)
    S, H = model.states, len(model.start_states())
    nt = threads() if nt is None else nt
    Tn = max(C, model.min_bank)
    positions = _positions(model, goal, C)
    per_state = (model.outcomes + len(model.opt_gain)) / S
    # the tables (seat 1's round starts, seat 2's with the final round, the
    # final round), the final and tie rounds' sweeps, and each worker's
    # scratch: a pair's values and the decisions kept near a tie
    tables = (goal * (goal + max(model.min_bank, 1) + 1) + goal * (C + 1) + (C + 1)) * H
    rounds = S * (3 * (C + 1) + C * max(model.min_bank, 1))
    scratch = nt * (2 * S * Tn * 3 + (KEPT_PER_STATE * S + 4096) * 7 + 6 * H)
    memory = (tables + rounds + scratch + _general_values(model, Tn)) * 8
    return dict(positions=positions, start_states=H, memory=memory,
                seconds=0.01 + SECONDS_PER_WORK * 3 * positions * per_state, at_least=False)


__all__ = ["CAP_MARGIN", "RoundsResult", "TIE_RULES", "rounds_estimate", "solve_rounds_model"]
