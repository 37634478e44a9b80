"""Two fixed policies head to head under the rounds ending (two seats)
where a bust can lower a banked score (Two-Dice Pig's snake eyes, a skull
that wipes the score, a penalty down to a floor).

The game is the rounds ending of :mod:`designer.engine.rounds_falls`:
scores run from the floor ``lo`` to the cap ``C``, seat 1's score is held
at the cap, a round that ends with a score at or above the goal goes to
the higher score, and a tie for it is replayed from the tied scores or
goes to seat 1. The policies are those of :mod:`designer.engine.rounds_match`:
``optimal`` (the falls solve's play: inside a turn the argmax of the turn
equations over the solve's tables, with its ties), ``hold-at:N``,
``max-score`` and the table policies (``rule:``, ``py:``, read at both
scores from the floor to the cap); with ``bank_wins`` a fixed seat 2 also
holds as soon as holding wins the game, as optimal play does. So that a
fixed policy is not stopped by the cap, the cap is raised above the goal
by its largest turn total, and the solve (if optimal play takes part) is
made at that cap.

Evaluation
----------
With both policies fixed the match is a Markov chain whose values are the
falls solve's equations with every decision fixed:

.. math::

    X[a, b, h] = \\text{seat 1's turn at } (a, b) \\text{ with ends }
    1 - Y[b, \\min(a + t, C), h'], \\qquad
    Y[b, a, h] = \\text{seat 2's turn with ends } R(a, b + t, h'),

(a fall to ``f(a)`` worth ``1 - Y[b, f(a), h']``, to ``f(b)`` worth
``R(a, f(b), h')``), ``R`` the round's end as in the solve. They are
solved as the solve iterates: passes of block Gauss-Seidel over the pairs
of scores by decreasing sum, each pair's two turns iterated until they
agree (with one start state through a secant step: a pair's values are
affine in its own start value), until no stored win moves by more than
:data:`~designer._jit.TOL` in a pass (the residual reported), and the
expected actions too (to ``TOL`` of themselves). A pair reads the larger
sums of its own pass and the smaller sums (through a fall) of the last;
a pass runs on every thread as the solve's passes do (each takes the next
pair whose inputs are solved), and the numbers do not depend on the
threads. Each seating (A first, B first) is its own
chain.
"""

import time

import numpy as np

from designer import memory as mem
from designer._jit import TIE, load_first, threads
from designer.engine import _rounds_falls_match_kernels as FK
from designer.engine import _rounds_kernels as rk
from designer.engine import rounds as R
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import RulesMatch, RulesPolicy, endless, hold_pick, max_score_table
from designer.engine.rounds_falls import (MAX_INNER, MAX_PASSES, PAIR_TOL, _falling, _pairs,
                                          _sizes, iterate, solve_rounds_falls)
from designer.engine.rounds_match import _gmax, _table_ends, match_cap, table_plan
from designer.engine.solve import TooLargeError, plan
from designer.errors import ConvergenceError, DesignError


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is evaluation time."""
    from designer.engine.model import build_model

    tiny = build_model([[[(0.5, "bust", 0, "zero", 0), (0.5, "choose", [(1, 0)])]]], [0])
    load_first((FK.match_pass,), lambda: match_rounds_falls(
        tiny, 2, RulesPolicy(HOLD_AT, "hold-at:1", 1), RulesPolicy(OPTIMAL, "optimal"),
        _timed=False))


def falls_plan(model, C, lo):
    """The node layout of a table policy's decisions (the plan keys that
    :mod:`designer.engine.policy_tables` reads) over both scores ``lo ..
    C``: every turn state at every total a turn from the floor can reach."""
    tp = table_plan(model, C - lo)
    tp["lo"] = lo
    return tp


def match_bytes(model, goal, kinds, cap=None, nt=None):
    """Bytes a match of policies ``kinds`` allocates at the cap ``cap``
    (the solve for ``optimal`` not counted)."""
    lo, C, n, Tm = _sizes(model, goal, cap)
    S, H = model.states, len(model.start_states())
    F = len(_falling(model)[0])
    nt = threads() if nt is None else nt
    Tmax = Tm + 1
    Tcl = Tm + _gmax(model) + 1
    need = 8 * (4 * n * n * H * 2 + nt * (3 * S * Tmax + 3 * (Tcl + 1) * (H + F) + 8 * H))
    if TABLE in kinds:
        tp = falls_plan(model, C, lo)
        need += sum(k == TABLE for k in kinds) * n * n * (max(tp["nodes"], 1) + 8)
    if OPTIMAL in kinds:  # optimal play's decisions, recorded for the agreement
        need += 2 * goal * goal * max(falls_plan(model, C, lo)["nodes"], 1)
    return int(need)


def match_rounds_falls(model, goal, a, b, *, ties="replay", cap=None, solution=None,
                       bank_wins=False, record=False, memory_limit=None, name="this game",
                       unit=1, _timed=True):
    """Evaluate policy ``a`` against policy ``b`` over ``model`` (busts that
    lower a banked score) under the rounds ending to ``goal``.

    Parameters
    ----------
    model : TurnModel
    goal : int
        Goal in units.
    a, b : RulesPolicy
        ``optimal``, ``hold-at``, ``max-score`` or a table policy.
    ties : {"replay", "earlier-seat"}
    cap : int, optional
        Score cap (default the solve's, raised for a fixed policy).
    solution : RoundsFallsResult, optional
        The falls solve for ``optimal``, at the cap used (solved again
        otherwise).
    bank_wins : bool
        A fixed seat 2 also holds as soon as holding wins.
    record : bool
        Keep optimal play's decisions over the scores ``0 .. goal - 1``
        (``optimal_table``, over the nodes of :func:`falls_plan` at
        ``plan_cap``: the cap less the floor).

    Returns
    -------
    RulesMatch
        ``win[p, a - lo, b - lo, h]``: seat 1's win at a round's start,
        seat 1 playing A (``p = 0``) or B (``p = 1``); ``actions`` the
        expected actions left (NaN where they are too long to measure);
        ``residual`` the last pass's largest change, ``passes`` the passes
        of the slower seating. Extra attributes ``cap`` and ``plan_cap``.

    Raises
    ------
    DesignError
        A goal, tie rule or cap out of range, a policy kind the rounds
        ending does not take, a fixed policy that would need an absurd
        cap.
    ConvergenceError
        Play that can go on for ever under these policies, or a match that
        does not settle.
    TooLargeError
        Tables over ``memory_limit``.
    """
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in R.TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, R.TIE_RULES)))
    order = R._order(model)
    kinds = (a.kind, b.kind)
    G = goal
    gmax = _gmax(model)
    C, Tc, ends = match_cap(model, G, a, b, cap, name)
    lo, C, n, Tm = _sizes(model, G, C)
    memory_limit = mem.resolve(memory_limit)
    need = match_bytes(model, G, kinds, C)
    if need > memory_limit:
        raise TooLargeError(f"comparing policies on {name} needs {need / 2**20:,.0f} MB, "
                            f"over the limit of {mem.limit_text(memory_limit)}")
    need_opt = OPTIMAL in kinds
    record = record and need_opt
    if need_opt and (solution is None or solution.cap != C or solution.ties != ties
                     or solution.goal != G):
        solution = solve_rounds_falls(model, G, ties=ties, cap=C, lengths=False,
                                      memory_limit=memory_limit)
    replay = ties == "replay"
    lay = R._layout(model, C, order)
    S, H = model.states, len(lay.starts)
    idx, eff, pen = _falling(model)
    oq = lay.oq.copy()
    oq[idx, rk.OQ_AUX] = H + np.arange(len(idx))  # a fall reads its own column
    fall_h = lay.out_h[idx].astype(np.int64)
    pick = hold_pick(model)
    if MAX_SCORE in kinds:
        E, mstop, mcont = max_score_table(model, plan(model, G), Tc)
    else:
        E = np.zeros((1, 1))
        mstop = np.zeros((1, 1), dtype=np.bool_)
        mcont = np.zeros((1, 1), dtype=np.int64)
    tp = falls_plan(model, C, lo) if TABLE in kinds or record else None
    none = np.zeros((1, 1, 1), dtype=np.int8)
    tabs = [pol.table(model, G, unit, tp) if pol.kind == TABLE else none for pol in (a, b)]
    tends = [_table_ends(tab, tp, model.min_bank) if pol.kind == TABLE
             else np.zeros((1, 1), dtype=np.int64) for tab, pol in zip(tabs, (a, b))]
    node_base, node_len = (tp["node_base"], tp["node_len"]) if tp is not None else (
        np.zeros(S, dtype=np.int64), np.zeros(S, dtype=np.int64))
    OD = np.zeros((2, G, G, tp["nodes"]) if record else (2, 1, 1, 0), dtype=np.int8)
    Xs, Ys = (solution.X, solution.Y) if need_opt else (np.zeros((n, n, H)),) * 2
    if _timed:
        _warm()
    t0 = time.perf_counter()
    pairs, row = _pairs(G, C, lo, replay)
    nt = threads()
    marr = (lay.blk_ptr, lay.blk_states, lay.tmin, model.cont_start, model.out_start,
            model.out_prob, model.cont_throws, oq, model.opt_start, model.opt_gain,
            model.opt_next, lay.hand_h, lay.hidx, lay.pass_ok, pick, E, Tc, mstop, mcont,
            node_base, node_len)
    Tmax = max(Tm, max(ends)) + 2
    Tcl = Tmax + gmax
    F = len(idx)
    # each worker's scratch: a turn's ends (the mover's, the solve's) and
    # sweep, its start values, the pair's values before the pass
    scratch = (np.zeros((nt, Tcl + 1, H + F)), np.zeros((nt, Tcl + 1, H + F)),
               np.zeros((nt, Tcl + 1, H + F)), np.zeros((nt, S, Tmax)), np.zeros((nt, S, Tmax)),
               np.zeros((nt, S, Tmax)), np.zeros((nt, H)), np.zeros((nt, H)),
               np.zeros((nt, 4, H)))
    claims = (np.zeros(len(pairs), dtype=np.int64), np.zeros(len(pairs), dtype=np.int64),
              np.zeros(nt), np.zeros(nt))
    pols = (a, b)
    win = np.zeros((2, n, n, H))
    actions = np.zeros((2, n, n, H))
    residual, most = 0.0, 0
    for p in range(2):
        if p == 1 and a == b:
            win[1], actions[1] = win[0], actions[0]
            break
        p1, p2 = pols[p], pols[1 - p]
        XW, XL = np.full((n, n, H), 0.5), np.zeros((n, n, H))
        YW, YL = np.full((n, n, H), 0.5), np.zeros((n, n, H))
        flags = np.zeros(2, dtype=np.int64)
        args = (nt, pairs, row, G, C, lo, replay, p1.kind, p1.n, ends[p], p2.kind, p2.n,
                ends[1 - p], bank_wins, gmax, model.min_bank, model.forced_first, TIE, PAIR_TOL,
                MAX_INNER, *marr, tabs[p], tabs[1 - p], tends[p], tends[1 - p], OD, eff, pen,
                fall_h, Xs, Ys, XW, XL, YW, YL, *scratch, flags, *claims)
        what = f"{a.name} against {b.name} on {name}"
        delta, passes = iterate(
            lambda: FK.match_pass(*args), flags, True, None,
            endless(f"{what}: the turns at some scores did not settle in {MAX_INNER:,} rounds",
                    model.forced_first, model.min_bank),
            lambda d: ConvergenceError(f"{what}: the match did not settle in {MAX_PASSES:,} "
                                       f"passes (last change {d:.3g})"))
        if flags[0]:
            raise endless(f"{what}: play can go on for ever at some scores under these "
                          f"policies (no turn there ever ends with a score or a win)",
                          model.forced_first, model.min_bank)
        win[p] = XW
        actions[p] = np.nan if flags[1] else XL
        residual, most = max(residual, delta), max(most, passes)
    seconds = time.perf_counter() - t0
    m = RulesMatch(win, actions, lay.starts, lo, residual, most, seconds,
                   OD if record else None)
    object.__setattr__(m, "cap", C)
    object.__setattr__(m, "plan_cap", C - lo)
    return m


__all__ = ["match_bytes", "match_rounds_falls"]
