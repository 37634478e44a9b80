"""Solve any turn model exactly: two seats, first to the goal wins.

Values
------
``V(i, j, h)`` is the win probability of the player to move with ``i``
banked points against ``j``, at the start of a turn from state ``h``, when
both players maximise their own chance of winning. Inside a turn the
mover's value ``W(i, j, s, t)`` follows the equations of
:mod:`designer.engine.model`; only turn starts are stored, shape
``(n, n, H)`` with ``n`` the possible scores ``floor .. goal - 1`` and
``H`` the states a turn can start from. The first player of a game with
komi ``m`` (points the second player starts with) wins with probability
``V(0, m, start)``.

Ties: stopping wins a tie (continuing must be better by more than
:data:`~designer._jit.TIE`), except at a turn total of 0, where stopping
passes and continuing wins the tie; among continuations, and among the
options of one outcome, the one listed first wins a tie.

Scores that never fall: layers
------------------------------
A stop with ``t > 0`` raises the mover's score, so it lands in a pair of
scores ``{(i, j), (j, i)}`` with a larger sum, solved before. Pairs are
solved in decreasing order of ``i + j``; on several threads each pair as
soon as the pairs it reads are solved
(:func:`designer.engine._kernels.solve_pairs`: no thread waits for a whole
score sum, nor long for a thread that another process keeps off its core).
Inside a pair, turns end without scoring only by a bust, a pass or an
empty end, and the next turn starts at the other side's start value of
the same pair: those are the only cycles.

The plan (:func:`plan`) picks *feedback states* ``F``: start states whose
start values, on both sides, are the pair's ``K = 2 |F|`` unknowns ``x``.
``F`` is chosen greedily until the graph of turn states (edges: a move
within a turn, and a turn end to the next turn's start, cut where it
reaches ``F``) has no turn end inside a strongly connected component; its
components are then swept successors first, each from its largest turn
total down to 0, and every value is carried as an affine function of
``x``. A deck needs ``F = {fresh deck}``, a die ``F = {start}``: two
unknowns, as in the hand-written solvers. A sweep at the estimate ``x``
gives, for its greedy policy, the rows ``x = u + M x`` of the unknowns;
policy iteration solves that system for the next estimate ``y``. The pair
is accepted at ``y`` without another sweep when no decision of the sweep
can flip between ``x`` and ``y`` (each decision's margin is affine in the
unknowns: those far from a tie bound how far the estimate may move, those
near one are checked one by one at ``y``), or otherwise once one greedy
backup moves the estimate by at most :data:`~designer._jit.TOL` (after
:data:`~designer._jit.PI_SWEEPS` sweeps, or when the policy's system is
singular, the estimate moves halfway to its greedy backup instead, which
converges whatever the decisions do). Each pair starts from a quadratic
through solved neighbours, usually close enough that one sweep settles it.

Scores that can fall
--------------------
When a bust can lower a banked score, a pair also reads pairs of smaller
sum, not yet solved. The pairs are then swept in the same order again and
again (a block Gauss-Seidel iteration over the whole table, each pair
solved exactly given the others) until no stored value moves by more than
:data:`~designer._jit.TOL`; that last change is reported as the residual.
A pair reads the smaller sums as the last pass left them (a copy of the
table taken before the pass), so the pairs of a pass go to every thread as
where scores never fall, and the numbers are those of one thread taking
them in order, which reads the same values.

Two unknowns
------------
With one feedback state (every game that ships) a value is three numbers,
``c + e_own x_own + e_oth x_oth`` in its side's own coordinates, kept in
registers by a sweep written for that case
(:func:`designer.engine._kernels._sweep2`; where every state has one
continuation whose outcomes are turn starts and at most one move, as a
deck's, :func:`designer.engine._kernels._sweep2s` sums a state's turn
starts once instead of at every turn total); several feedback states use
the general sweep over vectors of length ``K + 1``.

Size
----
The table holds ``n * n * H`` float64 values and each thread a scratch of
about ``(4 nodes + 2 H) (K + 1)`` (``nodes``: the turn positions ``(s, t)``
one sweep visits). Both are estimated before anything is allocated, and a
game above the memory limit is refused.
"""

import time
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter

import numpy as np

from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, TIE, TOL, load_first, threads
from designer.engine import _kernels
from designer.engine.model import BUST, CHOOSE, NONE, ModelError, tiny_model
from designer import memory as mem
from designer.errors import ConvergenceError, DesignError, SolverError

#: Passes over the whole table allowed when scores can fall.
MAX_PASSES = 100_000


class TooLargeError(DesignError):
    """A game whose tables would not fit in the memory limit."""


@dataclass(frozen=True, eq=False)
class EngineResult:
    """Exact optimal play of one game by the engine.

    Attributes
    ----------
    first_player_win : float
        Win probability of the first mover (the second starts with ``komi``).
    goal, komi : int
        The race's goal and the second player's start points.
    states : int
        Turn positions ``(i, j, s, t)`` covered by the solve.
    residual : float
        Largest accepted Bellman residual of a pair; when scores can fall,
        at least the last pass's largest change.
    seconds : float
        Wall time of the kernels.
    passes : int
        Passes over the table (1 when scores never fall).
    sweeps : int
        Backward sweeps over all pairs and passes.
    feedback : int
        Feedback states (unknowns per side of a pair).
    win : ndarray, shape (n, n, H)
        ``win[i - floor, j - floor, h]``: the mover's win probability at a
        turn start from ``start_states[h]``.
    start_states : ndarray
        The turn states indexing ``win``'s last axis (state 0 first).
    floor : int
        Lowest score held (0 unless penalties can take it lower).
    """

    first_player_win: float
    goal: int
    komi: int
    states: int
    residual: float
    seconds: float
    passes: int
    sweeps: int
    feedback: int
    win: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    floor: int = 0

    def value(self, i, j, state=0):
        """Win probability of the mover at scores ``(i, j)``, turn start ``state``."""
        h = int(np.searchsorted(self.start_states, state))
        if h >= len(self.start_states) or self.start_states[h] != state:
            raise DesignError(f"state {state} never starts a turn")
        return float(self.win[i - self.floor, j - self.floor, h])


# -- the plan -----------------------------------------------------------------

def _sccs(n, succ):
    """Strongly connected components (iterative Tarjan), successors first."""
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack, comps = [], []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, it = work.pop()
            if it == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            recurse = False
            nbrs = succ[v]
            while it < len(nbrs):
                w = nbrs[it]
                it += 1
                if index[w] < 0:
                    work.append((v, it))
                    work.append((w, 0))
                    recurse = True
                    break
                if on[w]:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return comps


def _edges(model):
    """Moves within a turn ``(s, s', gain)`` and the turn ends that can stay
    in a pair ``(s, next start)``, over outcomes of positive probability;
    and ``pass_ok``, the states where a stop can be a pass (reached at turn
    total 0 past the turn's start, or a start the mover may pass at)."""
    moves, ends, empty_ends = [], [], []
    for s in range(model.states):
        for c in range(model.cont_start[s], model.cont_start[s + 1]):
            for o in range(model.out_start[c], model.out_start[c + 1]):
                if model.out_prob[o] <= 0.0:
                    continue
                if model.out_kind[o] == CHOOSE:
                    for r in range(model.opt_start[o], model.opt_start[o + 1]):
                        moves.append((s, int(model.opt_next[r]), int(model.opt_gain[r])))
                elif model.out_kind[o] == BUST:  # the score stays, or falls: not a layer up
                    ends.append((s, int(model.out_next[o])))
                elif model.out_points[o] == 0:  # ends with nothing only from a total of 0
                    empty_ends.append((s, int(model.out_next[o])))
    starts = model.start_states()
    at_zero = np.zeros(model.states, dtype=bool)  # reachable with turn total 0
    at_zero[starts] = True
    pass_ok = np.zeros(model.states, dtype=bool)
    if not model.forced_first:
        pass_ok[starts] = True
    changed = True
    while changed:  # closure of the moves that score nothing
        changed = False
        for s, s2, g in moves:
            if g == 0 and at_zero[s] and not pass_ok[s2]:
                at_zero[s2] = pass_ok[s2] = changed = True
    ends += [(s, h) for s, h in empty_ends if at_zero[s]]
    if model.min_bank == 0:
        ends += [(s, int(model.handover[s])) for s in np.flatnonzero(pass_ok)]
    else:
        pass_ok[:] = False
    return moves, ends, pass_ok


def _reach(model, moves, cap):
    """Largest turn total each state is reached with (at most ``cap``)."""
    S = model.states
    reach = np.full(S, -1, dtype=np.int64)
    reach[model.start_states()] = 0
    if not moves:
        return reach
    src, dst, gain = (np.array(c, dtype=np.int64) for c in zip(*moves))
    while True:
        ok = reach[src] >= 0
        cand = np.minimum(reach[src[ok]] + gain[ok], cap)
        new = reach.copy()
        np.maximum.at(new, dst[ok], cand)
        if np.array_equal(new, reach):
            return reach
        reach = new


def plan(model, goal):
    """Feedback states, sweep order and node layout for ``model`` (module doc).

    Returns
    -------
    dict
        Arrays for :func:`designer.engine._kernels.solve_pairs` and sizes.
    """
    S = model.states
    lo = min(model.floor, 0)
    n = goal - lo
    tmax = max(goal - lo, model.min_bank) - 1  # largest turn total a node can have
    moves, ends, pass_ok = _edges(model)
    starts = model.start_states()
    # a turn that can end where it started (a pass handing the same deck
    # over) is a cycle of its own: that state is a feedback state whatever
    # else is chosen, so all such are taken at once (one at a time, a deck
    # of 20,000 states that may pass took minutes to plan)
    feedback = {h for s, h in ends if s == h}
    while True:
        succ = [[] for _ in range(S)]
        for s, s2, _ in moves:
            succ[s].append(s2)
        for s, h in ends:
            if h not in feedback:
                succ[s].append(h)
        comps = _sccs(S, succ)
        comp_of = np.empty(S, dtype=np.int64)
        for ci, comp in enumerate(comps):
            comp_of[comp] = ci
        inside = {}
        for s, h in ends:
            if h not in feedback and comp_of[s] == comp_of[h]:
                inside[h] = inside.get(h, 0) + 1
        if not inside:
            break
        feedback.add(max(sorted(inside), key=inside.get))  # most cycles through it
    order = []
    ptr = [0]
    # the moves that score nothing within a component, by component (read
    # once: a turn of many states has as many components)
    level = {}
    for s, s2, g in moves:
        if g == 0 and comp_of[s] == comp_of[s2]:
            level.setdefault(int(comp_of[s]), []).append((s, s2))
    for ci, comp in enumerate(comps):
        if ci not in level:  # nothing to order within it
            order.extend(comp)
            ptr.append(len(order))
            continue
        ts = TopologicalSorter({s: [] for s in comp})
        for s, s2 in level[ci]:
            ts.add(s, s2)  # s2 is swept before s at the same turn total
        try:
            order.extend(ts.static_order())
        except CycleError as exc:
            raise DesignError("this engine does not solve yet turns that can return to a state "
                              "without scoring through other states or through a choice (" +
                              model.describe(exc.args[1][0]) + "); a roll that brings the turn "
                              "straight back to the same state is solved") from None
        ptr.append(len(order))
    reach = _reach(model, moves, tmax)
    node_len = np.minimum(reach, tmax) + 1  # turn totals 0 .. reach at each state
    node_len[reach < 0] = 0
    node_base = np.concatenate(([0], np.cumsum(node_len)[:-1])).astype(np.int64)
    blk_states = np.array(order, dtype=np.int64)
    blk_ptr = np.array(ptr, dtype=np.int64)
    blk_tmax = np.array([int(node_len[blk_states[a:b]].max()) - 1
                         for a, b in zip(ptr[:-1], ptr[1:])], dtype=np.int64)
    hidx = np.full(S, -1, dtype=np.int64)
    hidx[starts] = np.arange(len(starts))
    fh = np.array(sorted(hidx[f] for f in feedback), dtype=np.int64)
    fb = np.full(len(starts), -1, dtype=np.int64)
    fb[fh] = np.arange(len(fh))
    out_h = np.where(model.out_kind != CHOOSE, hidx[np.maximum(model.out_next, 0)], -1)
    # how a sweep reads each outcome (designer.engine._kernels.OP_*): the
    # common ones straight from a few contiguous arrays
    nopt = np.diff(model.opt_start)
    single = (model.out_kind == CHOOSE) & (nopt == 1)
    keep = (model.out_kind == BUST) & (model.out_effect == NONE)
    first = np.minimum(model.opt_start[:-1], max(len(model.opt_gain) - 1, 0))
    out_op = np.full(model.outcomes, _kernels.OP_GENERAL, dtype=np.int64)
    out_op[keep] = _kernels.OP_START
    if len(fh) == 1:
        out_op[keep & (out_h == fh[0])] = _kernels.OP_FEEDBACK
    out_op[single] = _kernels.OP_MOVE
    out_op[(model.out_kind == CHOOSE) & (nopt > 1)] = _kernels.OP_CHOICE
    out_g = np.where(single, model.opt_gain[first] if len(model.opt_gain) else 0, 0)
    out_nb = np.where(single, node_base[model.opt_next[first]] if len(model.opt_gain) else 0, 0)
    K = _kernels
    st = np.zeros((S, 7), dtype=np.int64)
    st[:, K.ST_C0], st[:, K.ST_C1] = model.cont_start[:-1], model.cont_start[1:]
    st[:, K.ST_BASE], st[:, K.ST_PASS] = node_base, pass_ok
    st[:, K.ST_HAND], st[:, K.ST_START], st[:, K.ST_LEN] = hidx[model.handover], hidx, node_len
    oc = np.zeros((model.outcomes, 8), dtype=np.int64)
    for col, a in ((K.OC_OP, out_op), (K.OC_GAIN, out_g), (K.OC_NODE, out_nb), (K.OC_H, out_h),
                   (K.OC_KIND, model.out_kind), (K.OC_POINTS, model.out_points),
                   (K.OC_EFFECT, model.out_effect), (K.OC_PENALTY, model.out_penalty)):
        oc[:, col] = a
    # simple states (a deck's): one state per block, one continuation each,
    # whose outcomes are turn starts and at most one move; swept without
    # outcome dispatch (designer.engine._kernels._sweep2s; with one feedback
    # state, the only sweep that reads the flag)
    simple = bool(S) and bool(np.all(np.diff(blk_ptr) == 1)) and bool(
        np.all(np.diff(model.cont_start) == 1))
    if simple:
        owner = np.repeat(np.arange(model.continuations), np.diff(model.out_start))
        moving = np.bincount(owner[out_op == K.OP_MOVE], minlength=model.continuations)
        simple = bool(np.all(np.isin(out_op, (K.OP_MOVE, K.OP_START, K.OP_FEEDBACK)))
                      and np.all(moving <= 1))
    # in-turn positions per mover score: totals t < max(goal - i, min_bank)
    scores = np.arange(lo, goal)
    tcap = np.maximum(goal - scores, model.min_bank)
    positions = int(_sum_min(node_len, tcap).sum()) * n
    return dict(lo=lo, n=n, H=len(starts), K=2 * len(fh), nodes=int(node_len.sum()),
                starts=starts, hidx=hidx, fb=fb, fh=fh, out_h=out_h.astype(np.int64),
                st=st, oc=oc, oq=np.ascontiguousarray(oc[:, :4]), opt_nb=node_base[model.opt_next].astype(np.int64),
                hand_h=hidx[model.handover], pass_ok=pass_ok, blk_ptr=blk_ptr, blk_states=blk_states,
                blk_tmax=blk_tmax, node_base=node_base, node_len=node_len.astype(np.int64),
                simple=simple, positions=positions, falls=bool(model.falls))


def _sum_min(lengths, caps):
    """``sum_i min(L, caps[i])`` for each ``L`` of ``lengths``, without the
    ``len(lengths) x len(caps)`` array (a deck of 24,000 states to a goal of
    100,000 would need 19 GB for it)."""
    c = np.sort(np.asarray(caps, dtype=np.int64))
    prefix = np.concatenate(([0], np.cumsum(c)))
    k = np.searchsorted(c, lengths, side="left")
    return prefix[k] + np.asarray(lengths, dtype=np.int64) * (len(c) - k)


#: Turn states above which a game whose table alone passes the memory limit
#: is refused from :func:`table_at_least` instead of its plan (which takes
#: seconds to minutes for tens of thousands of states); below, the plan
#: gives the exact figures.
PLAN_STATES = 1000


def table_at_least(model, goal):
    """``(positions, bytes)`` that solving ``model`` to ``goal`` needs at
    least, counted without planning it: one turn start per pair of scores
    and start state, in a float64 table. A game of many turn states
    (:data:`PLAN_STATES`) too large for the memory limit is refused from
    these before :func:`plan`, which takes long on such a game."""
    n = int(goal) - min(model.floor, 0)
    cells = n * n * len(model.start_states())
    return cells, cells * 8


def memory_needed(p, nt):
    """Bytes the solve of plan ``p`` allocates on ``nt`` threads."""
    k1 = p["K"] + 1
    # the kernels' layout and the result's, and where scores fall the last
    # pass's table, which the pairs read below their own score sum
    table = (3 if p["falls"] else 2) * p["n"] * p["n"] * p["H"] * 8
    # in-turn values and turn starts of both sides, the decisions kept
    # near a tie, and a few vectors, per thread
    scratch = nt * ((2 * (p["nodes"] + p["H"]) + 2 * p["nodes"] + 16) * k1 + 6 * k1 + k1 * k1) * 8
    pairs = p["n"] * (p["n"] + 1) // 2 * (2 * 8 + 4 * 8)
    return table + scratch + pairs


#: Seconds per unit of sweep work (a position times the outcomes and options
#: of its state), measured on the development machine (two cores, busy):
#: Pig 3.2e-9, Farkle 1.7e-9, Fowl Play 5.5e-9, Two-Dice Pig 1.7e-9 per pass.
SECONDS_PER_WORK = 2.5e-9
#: Passes over the table assumed when scores can fall (Two-Dice Pig: 11).
PASSES_IF_FALLS = 10
#: With several feedback states a sweep carries vectors of ``K + 1``
#: numbers through calls that pass arrays (the general sweep): its work
#: costs about this times ``K + 1`` that of the two-unknown sweeps (Farkle
#: with its farkle penalty, ``K = 4``, to a goal of 1,000: 257 s on two
#: threads, 11 passes, against the 41 s estimated without it).
GENERAL_SWEEP_FACTOR = 1.25
#: Seconds of any solve, however small (calls, allocation).
SECONDS_FIXED = 0.005


def estimate(model, goal, nt=None):
    """What solving ``model`` to ``goal`` needs, before anything is solved.

    Returns
    -------
    dict
        ``positions`` (the solver's state count, as
        :attr:`EngineResult.states`), ``start_states``, ``memory`` (bytes,
        on ``nt`` threads, default :func:`~designer._jit.threads`) and
        ``seconds``: a rough estimate of the kernels' time, the sweep work
        (each position times the outcomes and options of its state; ten
        passes when scores can fall; :data:`GENERAL_SWEEP_FACTOR` ``(K +
        1)`` times as much with several feedback states) at
        :data:`SECONDS_PER_WORK`. It is a
        guide within a factor of about 3 on the machine it was measured
        on, not a promise. ``at_least``: the game has more than
        :data:`PLAN_STATES` turn states and its table alone passes
        :func:`designer.memory.memory_limit`; ``positions`` and
        ``memory`` are then lower bounds (:func:`table_at_least`) and
        ``seconds`` is None. Where scores can fall, ``passes``: the passes
        ``seconds`` assumes.

    Raises
    ------
    DesignError
        As :func:`solve_model` would, for a model it refuses to solve.
    """
    _check_stuck(model)
    cells, least = table_at_least(model, goal)
    if least > mem.memory_limit() and model.states > PLAN_STATES:
        return dict(positions=cells, start_states=len(model.start_states()), memory=least,
                    seconds=None, at_least=True)
    p = plan(model, int(goal))
    nt = threads() if nt is None else nt
    scores = np.arange(p["lo"], goal)
    tcap = np.maximum(goal - scores, model.min_bank)
    per_state = _sum_min(p["node_len"], tcap) * p["n"]
    outs = np.diff(model.out_start)
    opts = np.diff(model.opt_start[model.out_start])  # options of each continuation
    owner = np.repeat(np.arange(model.states), np.diff(model.cont_start))
    weight = np.bincount(owner, weights=outs + opts, minlength=model.states)
    work = float((per_state * weight).sum()) * (PASSES_IF_FALLS if model.falls else 1)
    if p["K"] > 2:
        work *= GENERAL_SWEEP_FACTOR * (p["K"] + 1)
    return dict(positions=p["positions"], start_states=p["H"], memory=memory_needed(p, nt),
                seconds=SECONDS_FIXED + SECONDS_PER_WORK * work, at_least=False,
                **({"passes": PASSES_IF_FALLS} if model.falls else {}))


def _pairs(n):
    """Pairs ``(a, b)``, ``a <= b``, by decreasing ``a + b``, with the group bounds."""
    rows, groups = [], [0]
    for total in range(2 * (n - 1), -1, -1):
        for a in range(max(0, total - (n - 1)), total // 2 + 1):
            rows.append((a, total - a))
        groups.append(len(rows))
    return np.array(rows, dtype=np.int64).reshape(-1, 2), np.array(groups, dtype=np.int64)


def _check_stuck(model):
    """A state with nothing to throw or draw must allow the mover to stop."""
    for s in range(model.states):
        if model.cont_start[s] == model.cont_start[s + 1]:
            if model.min_bank > 0 or (model.forced_first and s in set(model.start_states())):
                raise ModelError(f"turn model: {model.describe(s)} has no continuation and "
                                 "the mover may not stop there")


def _run(model, p, goal, V, Vf, warm, nt, out, pairs, groups, work):
    # where scores fall the pairs read the last pass's table Vf below their
    # own score sum (_kernels.solve_pairs): Vf is that table, copied
    if Vf is not V:
        np.copyto(Vf, V)
    _kernels.solve_pairs(*_args(model, p, goal, V, Vf, warm, nt, out, pairs, groups, work))


def _args(model, p, goal, V, Vf, warm, nt, out, pairs, groups, work):
    return (pairs, groups, goal, p["lo"], model.min_bank, model.forced_first, TIE,
            TOL, PI_SWEEPS, PI_EXACT, MAX_SWEEPS, warm, model.cont_start, model.out_start,
            model.out_prob, model.out_kind, model.out_points, p["out_h"], model.out_effect,
            model.out_penalty, model.opt_start, model.opt_gain, model.opt_next, p["hand_h"],
            p["pass_ok"], p["hidx"], p["fb"], p["fh"], p["blk_ptr"], p["blk_states"],
            p["blk_tmax"], p["node_base"], p["node_len"], p["st"], p["oc"], p["oq"], p["opt_nb"],
            p["simple"], V, Vf, nt, p["nodes"], out, work)


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is solve time."""
    load_first((_kernels.solve_pairs,), lambda: solve_model(tiny_model(), 2, _timed=False))


def solve_model(model, goal, komi=0, *, memory_limit=None, progress=None, _timed=True):
    """Solve a two-seat race over ``model`` exactly.

    Parameters
    ----------
    model : TurnModel
        The turn process (state 0 starts the game).
    goal : int
        Points that win, ``>= 1``.
    komi : int
        Points the second player starts with, ``0 <= komi < goal``.
    memory_limit : int, optional
        Bytes the solve may allocate; a larger game is refused before
        anything is allocated (default :func:`designer.memory.memory_limit`).
    progress : callable, optional
        ``progress(passes, change)`` after every pass where scores can fall
        (the passes go on until no win moves by more than
        :data:`~designer._jit.TOL`).

    Returns
    -------
    EngineResult

    Raises
    ------
    TooLargeError
        The game needs more than ``memory_limit`` bytes.
    DesignError
        A goal or komi out of range, or a turn that can return to a state
        without scoring (not solved by this engine yet).
    ConvergenceError
        Scores that fall and a table that does not settle.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if not 0 <= komi < goal:
        raise DesignError(f"invalid komi={komi}: allowed 0 <= komi < {goal}")
    _check_stuck(model)
    cells, least = table_at_least(model, goal)
    if least > memory_limit and model.states > PLAN_STATES:
        raise TooLargeError(f"this game has at least {cells:,} positions and needs at least "
                            f"{least / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    p = plan(model, goal)
    nt = threads()
    need = memory_needed(p, nt)
    if need > memory_limit:
        raise TooLargeError(f"this game has {p['positions']:,} positions and needs "
                            f"{need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}")
    if _timed:
        _warm()
    n = p["n"]
    pairs, groups = _pairs(n)
    out = np.zeros((len(pairs), 4))
    work = np.zeros((nt, 2), dtype=np.int64)
    # where scores can fall a pair reads smaller pairs before they are
    # solved: an even chance is the least misleading guess for them
    # held as V[i, h, j] in the kernels: a turn's stops at t = 0, 1, 2, ...
    # read V[j, h, i + t], neighbours in memory
    V = np.full((n, p["H"], n), 0.5 if model.falls else 0.0)
    Vf = np.empty_like(V) if model.falls else V
    t0 = time.perf_counter()
    _run(model, p, goal, V, Vf, False, nt, out, pairs, groups, work)
    passes, sweeps = 1, int(out[:, 1].sum())
    residual = float(out[:, 0].max())
    if model.falls:
        while True:
            if np.any(out[:, 2]):
                break
            change = float(out[:, 3].max())
            if progress is not None:
                progress(passes, change)
            if change <= TOL:
                residual = max(residual, change)
                break
            if passes >= MAX_PASSES:
                raise ConvergenceError(f"the table still moves by {change:.1e} after "
                                       f"{passes} passes")
            out[:] = 0.0
            _run(model, p, goal, V, Vf, True, nt, out, pairs, groups, work)
            passes += 1
            sweeps += int(out[:, 1].sum())
            residual = float(out[:, 0].max())
    seconds = time.perf_counter() - t0
    if np.any(out[:, 2]):
        bad = pairs[int(np.flatnonzero(out[:, 2])[0])] + p["lo"]
        raise SolverError(f"the engine did not settle the scores {tuple(bad)} within "
                          f"{MAX_SWEEPS} sweeps")
    lo = p["lo"]
    win = np.ascontiguousarray(V.transpose(0, 2, 1))
    return EngineResult(float(win[-lo, komi - lo, p["hidx"][0]]), goal, komi, p["positions"],
                        residual, seconds, passes, sweeps, len(p["fh"]), win, p["starts"], lo)


def solve_rules(rules, *, memory_limit=None):
    """Solve a :class:`~designer.engine.rulesfile.Rules` game at its goal and komi."""
    memory_limit = mem.resolve(memory_limit)
    return solve_model(rules.model, rules.goal, rules.komi, memory_limit=memory_limit)
