"""Two fixed policies head to head under the rounds ending (two seats),
exactly.

The rounds ending is :mod:`designer.engine.rounds`'s: seat 1 then seat 2 in
each round; scores may pass the goal; when a round ends with a score at or
above the goal the higher score wins, and a tie for it is replayed (a tie
round, as often as needed) or goes to seat 1 (``earlier-seat``).

Policies
--------
``optimal``
    The rounds solve's optimal play (:func:`~designer.engine.rounds.solve_rounds_model`):
    inside a turn, the argmax of the turn equations over its turn-start
    tables, with the solver's ties and its two forced ends: seat 1's score
    stops at the cap (a total past it is held there), and seat 2 holds as
    soon as holding wins the game (a total reaching the goal in an open
    round, one above seat 1's score in a final round).
``hold-at:N`` and ``max-score``
    As in the race (:mod:`designer.engine.match`): stop once the turn total
    is at least ``N`` where stopping is allowed; maximise the expected
    points banked this turn. A fixed policy follows its rule literally,
    whatever the scores: it does not hold early because holding would win
    the game (seat 2 under ``hold-at:20`` with a winning total of 12 rolls
    on), and it holds at ``N`` even when that loses (seat 2 in a final
    round holding below seat 1). The reason: these are rules a person can
    state and follow, and the winning hold is exactly the decision that
    optimal play adds to them; a policy that banks every winning total is
    another policy. ``bank_wins=True`` gives that other reading (a fixed
    seat 2 also holds as soon as holding wins), the convention of the
    Zombie Dice solver's fixed policies, to compare with it.

So that a fixed policy is never stopped by the score cap, the cap is raised
above the goal by at least the largest turn total a fixed policy can reach
(its threshold plus the largest gain of one move), and the rounds solve,
if optimal play takes part, is made with the same cap.

Evaluation
----------
With both policies fixed the match is a Markov chain; ``p`` below is the
seating (0: A in seat 1, B in seat 2; 1: the other way), each evaluated on
its own. Every turn is one backward sweep (:func:`~designer.engine._rounds_match_kernels.turn`)
carrying win probabilities and expected actions as affine functions of a
few unknowns, in the solver's order. Three kinds of turn, as in the solve:

final round
    Seat 2 ``d`` points behind a seat 1 at or above the goal (``d >= 1``),
    or level in a tie round (``d = 0``): a hold at a total above ``d`` wins,
    below loses, at ``d`` ties (replay: worth ``1 - T[h]``, the tie round's
    start; earlier-seat: a loss). ``F[d, h]`` for ``d = 0 .. cap``, affine
    in ``T``.
tie round (replay)
    Seat 1's turn, its gain ``g`` then leaving seat 2 ``F[g]``: ``T = f(T)``
    affine, solved exactly (``H`` unknowns).
open rounds
    Pairs ``(a, b)`` below the goal by decreasing ``a + b``: seat 2's turn
    after seat 1 scored nothing reads ``X[a, b']`` (``b' > b``, solved), the
    pair's own ``X[a, b]`` after scoring nothing (the unknowns) and wins
    with a hold at the goal; seat 1's turn reads ``Y[b, A]`` (``A > a``,
    solved), ``F[A - b]`` from the goal on and seat 2's turn just swept
    after scoring nothing; ``X[a, b] = c + M X[a, b]`` is solved exactly.

Expected actions count each throw or draw and each stop (passes and the
game's last hold included). All of it is exact: no iteration, no residual.
"""

import time

import numpy as np

from designer._jit import TIE, compiled, threads
from designer.engine import _rounds_kernels as rk
from designer.engine import _rounds_match_kernels as RK
from designer.engine import rounds as R
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL
from designer.engine.match import (RulesMatch, RulesPolicy, hold_pick, max_score_horizon,
                                   max_score_table)
from designer.engine.solve import MEMORY_LIMIT, TooLargeError, plan
from designer.errors import ConvergenceError, DesignError

#: A fixed policy whose turns would raise the score cap past this many
#: units above the goal is refused (its tables would not fit anyway).
MAX_CAP_MARGIN = 100_000


def solver_final(model, lay, C, tv):
    """The rounds solve's seat 2 in a final round, ``F[d, h]`` for ``d = 0
    .. C`` (row 0: level in a tie round), ``tv[h]`` the value of a tie to
    seat 2 (the solve's own kernels, as :func:`designer.engine.rounds.solve_rounds_model`
    runs them from ``d = 1``)."""
    H, S = len(lay.starts), model.states
    tlo = max(model.min_bank, 1)
    Wr = np.zeros((S, C + 1))
    F = np.zeros((C + 1, H))
    args = R._model_args(model, lay)
    rk.final_table(C, tv, TIE, *args, Wr)
    rk.final_starts(0, C, tlo, model.min_bank, model.forced_first, tv, TIE, *args, lay.hidx,
                    lay.tmin, Wr, np.zeros((S, C + 1, tlo)), F)
    return F


def _gmax(model):
    return max(int(model.opt_gain.max(initial=0)), int(model.out_points.max(initial=0)), 1)


def _fixed_end(pol, model, Tc):
    """The total from which a fixed policy's turn surely ends (0: optimal)."""
    if pol.kind == HOLD_AT:
        return max(pol.n, model.min_bank, 1)
    if pol.kind == MAX_SCORE:
        return Tc
    return 0


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is evaluation time."""
    if not compiled(RK.open_rounds):
        from designer.engine.model import build_model

        tiny = build_model([[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0)])]]], [0])
        for ties in R.TIE_RULES:
            match_rounds_model(tiny, 2, RulesPolicy(MAX_SCORE, "max-score"),
                               RulesPolicy(OPTIMAL, "optimal"), ties=ties, _timed=False)


def match_rounds_model(model, goal, a, b, *, ties="replay", cap=None, solution=None,
                       bank_wins=False, memory_limit=MEMORY_LIMIT, name="this game", _timed=True):
    """Evaluate policy ``a`` against policy ``b`` over ``model`` under the
    rounds ending to ``goal``, exactly.

    Parameters
    ----------
    model : TurnModel
    goal : int
        Goal in units.
    a, b : RulesPolicy
    ties : str
        ``"replay"`` or ``"earlier-seat"``.
    cap : int, optional
        Score cap (default the solve's, raised for a fixed policy as the
        module doc says).
    solution : RoundsResult, optional
        The rounds solve for ``optimal``, at the cap used (solved again
        otherwise).
    bank_wins : bool
        A fixed seat 2 also holds as soon as holding wins (module doc).
    name : str
        The game, for error messages.

    Returns
    -------
    RulesMatch
        ``win[p, a, b, h]``: seat 1's win probability at a round's start
        with ``a`` banked against ``b``, the turn starting from
        ``start_states[h]``, seat 1 playing A (``p = 0``, B in seat 2) or
        B (``p = 1``); ``actions``: the expected actions left in the game.
        ``cap`` (an extra attribute): the score cap used, in units.

    Raises
    ------
    DesignError
        A model whose busts lower a banked score, ``max-score`` where it is
        not defined, a tie rule not known, or a fixed policy that would
        need an absurd cap.
    ConvergenceError
        A match whose turns can go on forever under these policies.
    TooLargeError
        Tables over ``memory_limit``.
    """
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in R.TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, R.TIE_RULES)))
    if model.falls:
        raise DesignError("the rounds ending does not take yet a game whose busts lower a "
                          "banked score")
    order = R._order(model)  # refuses turns that return to a state without scoring
    G, S = goal, model.states
    gmax = _gmax(model)
    kinds = (a.kind, b.kind)
    for pol in (a, b):
        if pol.kind not in (OPTIMAL, HOLD_AT, MAX_SCORE):
            raise DesignError(f"{pol.name}: the rounds ending takes optimal, max-score or "
                              f"hold-at:N; rule: and py: policies play the race ending")
    need_opt = OPTIMAL in kinds
    Tc = 1
    if MAX_SCORE in kinds:
        horizon, bad = max_score_horizon(model)
        if horizon is None:
            raise DesignError(f"max-score is not defined for {name}: at {model.describe(bad)} a "
                              f"throw or draw gains and can never bust, so a turn that "
                              f"maximises its points never stops; use hold-at:N")
        Tc = max(horizon, model.min_bank + 1)
    ends = [_fixed_end(p, model, Tc) for p in (a, b)]
    need = G + max(ends) + gmax
    C = max(G + R.CAP_MARGIN if cap is None else int(cap), need)
    if C <= G:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    if C - G > MAX_CAP_MARGIN:
        raise DesignError(f"{a.name} against {b.name} on {name}: a turn of the fixed policy "
                          f"can reach {C - G} units past the goal; allowed at most "
                          f"{MAX_CAP_MARGIN} (use a smaller N)")
    starts = model.start_states()
    H = len(starts)
    K1 = H + 1
    Tmax = max(C, max(ends)) + 1
    Tcl = max(C, max(ends) + gmax) + 1
    nt = threads()  # each thread its own turn tables, one more for the tie round
    need_bytes = 8 * ((nt + 1) * (2 * S * Tmax * K1 + S * Tmax + 3 * Tcl * H * K1)
                      + 3 * (C + 1) * H * K1 + 6 * G * G * H
                      + (S * Tc * 3 if MAX_SCORE in kinds else 0))
    if need_bytes > memory_limit:
        raise TooLargeError(f"comparing policies on {name} needs {need_bytes / 2**20:,.0f} MB, "
                            f"over the limit of {memory_limit / 2**20:,.0f} MB")
    if need_opt and (solution is None or solution.cap != C or solution.ties != ties
                     or solution.goal != G):
        solution = R.solve_rounds_model(model, G, ties=ties, cap=C)
    lay = R._layout(model, C, order)
    replay = ties == "replay"
    if need_opt:
        tvO = 1.0 - solution.T if replay else np.zeros(H)
        Xs, Ys = solution.X, solution.Y
    else:
        tvO = np.zeros(H)
        Xs, Ys = np.zeros((G, G, H)), np.zeros((G, G, H))
    pick = hold_pick(model)
    if MAX_SCORE in kinds:
        E, mstop, mcont = max_score_table(model, plan(model, G), Tc)
    else:
        E = np.zeros((1, 1))
        mstop = np.zeros((1, 1), dtype=np.bool_)
        mcont = np.zeros((1, 1), dtype=np.int64)
    if _timed:
        _warm()
    t0 = time.perf_counter()
    Fs = solver_final(model, lay, C, tvO) if need_opt else np.zeros((C + 1, H))
    marr = (lay.blk_ptr, lay.blk_states, lay.tmin, model.cont_start, model.out_start,
            model.out_prob, model.cont_throws, model.out_kind, model.out_points, lay.out_h,
            model.opt_start,
            model.opt_gain, model.opt_next, lay.hand_h, lay.hidx, lay.pass_ok, pick, E, Tc,
            mstop, mcont)
    stopW = np.zeros((Tcl + 1, H, K1))
    stopL = np.zeros((Tcl + 1, H, K1))
    stopO = np.zeros((Tcl + 1, H))
    W = np.zeros((S, Tmax, K1))
    LW = np.zeros((S, Tmax, K1))
    WO = np.zeros((S, Tmax))
    cacc, clacc = np.zeros(K1), np.zeros(K1)
    scratch = (stopW, stopL, stopO, W, LW, WO, cacc, clacc)
    pols = (a, b)
    win = np.zeros((2, G, G, H))
    actions = np.zeros((2, G, G, H))
    mb, forced = model.min_bank, model.forced_first
    for p in range(2):
        if p == 1 and a == b:
            win[1], actions[1] = win[0], actions[0]
            break
        p1, p2 = pols[p], pols[1 - p]
        T1, T2 = ends[p], ends[1 - p]
        FW, FL = np.zeros((C + 1, H, K1)), np.zeros((C + 1, H, K1))
        FO = np.zeros((C + 1, H))
        RK.final_round(C, replay, p2.kind, p2.n, T2, bank_wins, gmax, mb, forced, TIE, *marr,
                       tvO, S, Tmax, Tcl, nt, FW, FL, FO)
        if replay:
            Tw, Tl = _tie_round(p1, T1, C, G, gmax, mb, forced, marr, FW, FL, Fs, scratch, H, K1)
            if Tw is None:
                raise ConvergenceError(f"{a.name} against {b.name} on {name}: a tie round can "
                                       f"go on forever under these policies (no turn of it "
                                       f"ever scores)")
            Fn = FW[:, :, 0] + FW[:, :, 1:] @ Tw
            FLn = FL[:, :, 0] + FL[:, :, 1:] @ Tl
        else:
            Fn, FLn = FW[:, :, 0].copy(), FL[:, :, 0].copy()
        XW, XL = np.zeros((G, G, H)), np.zeros((G, G, H))
        YW, YL = np.zeros((G, G, H)), np.zeros((G, G, H))
        bad = RK.open_rounds(G, C, p1.kind, p1.n, T1, p2.kind, p2.n, T2, bank_wins, gmax, mb,
                             forced, TIE, *marr, Xs, Ys, Fs, Fn, FLn, XW, XL, YW, YL, S, Tmax,
                             Tcl, nt)
        if bad >= 0:
            raise ConvergenceError(f"{a.name} against {b.name} on {name}: the turns at scores "
                                   f"{(bad // G, bad % G)} can go on forever (no turn there "
                                   f"ever ends with a score or a win)")
        win[p], actions[p] = XW, XL
    seconds = time.perf_counter() - t0
    m = RulesMatch(win, actions, starts, 0, 0.0, 1, seconds)
    object.__setattr__(m, "cap", C)
    return m


def _tie_round(p1, T1, C, G, gmax, mb, forced, marr, FW, FL, Fs, scratch, H, K1):
    """The tie round's start values ``T[h]`` (seat 1 playing ``p1``) and
    their expected actions, or ``(None, None)`` when it never ends."""
    stopW, stopL, stopO = scratch[:3]
    if p1.kind == OPTIMAL:
        Tend = Tcl = C - G
    else:
        Tend, Tcl = T1, T1 - 1 + gmax
    stopW[:Tcl + 1] = -FW[:Tcl + 1]
    stopW[:Tcl + 1, :, 0] += 1.0
    stopL[:Tcl + 1] = FL[:Tcl + 1]
    stopO[:Tcl + 1] = 1.0 - Fs[:Tcl + 1]
    rW, rL, rO = np.zeros((H, K1)), np.zeros((H, K1)), np.zeros(H)
    RK.turn(p1.kind, p1.n, 1 << 62, Tend, Tcl, mb, forced, TIE, *marr, *scratch, rW, rL, rO)
    Tw, Tl = np.zeros(H), np.zeros(H)
    if not RK._solve_small(rW, Tw) or not RK._solve_small(rL, Tl):
        return None, None
    return Tw, Tl


__all__ = ["match_rounds_model", "solver_final"]
