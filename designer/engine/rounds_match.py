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

``rule:`` and ``py:`` (table policies, :mod:`designer.engine.policy_tables`)
    Decide at every position from a table over both scores, the turn state
    and the turn total, read as in the race; ``bank_wins`` applies to them
    as to a fixed policy.

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

By scores
    A table policy reads the scores, so seat 2's final round is tabled per
    pair ``F[A, b]`` (seat 1 at ``A = goal .. cap``, seat 2 at ``b``) and the
    tie round per level ``T[A]`` (replay): levels from the cap down, each
    level's seat 2 turns affine in its own ``T[A]``, seat 1's tie-round turn
    reading them and the levels above, its rows solved exactly. Every
    score, either seat's and under every policy, stops at the cap (a total
    past it is held there), and a tie at the cap, where neither seat can
    score, counts half a win to each; optimal play there decides as the
    solve does, its turn ending at the cap. A non-table seat 2 reads the
    lead alone: its turns by lead serve every level, except where the cap
    cuts them short. As the cap grows the two readings meet (the by-lead
    path sets a replayed tie back to the goal; they differ by about 1e-11
    at the default cap on Pig and Farkle, 0 under ``earlier-seat``).

Expected actions count each throw or draw and each stop (passes and the
game's last hold included). All of it is exact: no iteration, no residual.
"""

import time

import numpy as np

from designer._jit import TIE, compiled, first_call, threads
from designer import memory as mem
from designer.engine import _rounds_match_kernels as RK
from designer.engine import rounds as R
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import (RulesMatch, RulesPolicy, defined_horizon, endless, hold_pick,
                                   max_score_table)
from designer.engine.solve import TooLargeError, _edges, plan
from designer.errors import DesignError

#: A fixed policy whose turns would raise the score cap past this many
#: units above the goal is refused (its tables would not fit anyway).
MAX_CAP_MARGIN = 100_000


def solver_final(model, lay, C, tv):
    """The rounds solve's seat 2 in a final round, ``F[d, h]`` for ``d = 0
    .. C`` (row 0: level in a tie round), ``tv[h]`` the value of a tie to
    seat 2 (the solve's own kernels, as :func:`designer.engine.rounds.solve_rounds_model`
    runs them from ``d = 1``)."""
    return R.final_round(model, lay, 0, C, tv)[0]


def _gmax(model):
    return max(int(model.opt_gain.max(initial=0)), int(model.out_points.max(initial=0)), 1)


def max_score_end(model, name):
    """The total from which ``max-score`` surely stops (its horizon, past the
    minimum bank).

    Raises
    ------
    DesignError
        Where ``max-score`` is not defined (a continuation that gains and
        never busts)."""
    return max(defined_horizon(model, name, "hold-at:N"), model.min_bank + 1)


def _fixed_end(pol, model, Tc):
    """The total from which a fixed policy's turn surely ends (0: optimal)."""
    if pol.kind == HOLD_AT:
        return max(pol.n, model.min_bank, 1)
    if pol.kind == MAX_SCORE:
        return Tc
    return 0


class _Rolls:
    """A table policy that always goes on (to load the table kernels)."""

    def table(self, model, goal, unit, p):
        return np.ones((p["n"], p["n"], max(p["nodes"], 1)), dtype=np.int8)


def _warm(tables=False):
    """Load (or compile) the kernels once, so ``seconds`` is evaluation time
    (with ``tables``, those of table policies too)."""
    from designer.engine.model import tiny_model

    tiny = tiny_model()
    with first_call():
        if not compiled(RK.open_rounds):
            for ties in R.TIE_RULES:
                match_rounds_model(tiny, 2, RulesPolicy(MAX_SCORE, "max-score"),
                                   RulesPolicy(OPTIMAL, "optimal"), ties=ties, _timed=False)
        if tables and not compiled(RK.final_level):
            match_rounds_model(tiny, 2, RulesPolicy(TABLE, "rule:roll", source=_Rolls()),
                               RulesPolicy(OPTIMAL, "optimal"), _timed=False)


def table_plan(model, C):
    """The node layout of a table policy's decisions under the rounds
    ending: every turn state at every turn total it can reach up to ``C``
    (the cap), for both scores ``0 .. C`` (the plan keys that
    :mod:`designer.engine.policy_tables` reads)."""
    src, dst, gain = R._moves(model)
    _, reach = R._totals(model.states, model.start_states(), src, dst, gain, C + 1)
    node_len = reach + 1  # reach: the largest total up to C, -1 where never reached
    node_base = np.concatenate(([0], np.cumsum(node_len)[:-1])).astype(np.int64)
    return {"n": C + 1, "lo": 0, "node_len": node_len.astype(np.int64), "node_base": node_base,
            "nodes": int(node_len.sum())}


def open_unknowns(model, goal, p=None):
    """``(fb, nF, chained, passes)``: the open rounds' unknowns of a pair.

    The unknowns are the start values at the race plan's feedback states
    (``p``, :func:`~designer.engine.solve.plan`; ``fb[h]``: start ``h``'s
    index among the ``nF`` of them, or -1), whose removal leaves the turns
    that score nothing no cycle. ``chained``: such a turn can hand the
    other seat a start that is not one (a deck's bust before its last bad
    item); then both seats' values at the feedback states are unknowns and
    a pair's two turns are swept ``passes`` times
    (:func:`designer.engine._rounds_match_kernels._open_pair`): seat 1's
    rows at a pass read seat 2's of the same pass, which read seat 1's of
    the pass before, so a start ``d`` links from the end of such a chain
    settles at pass ``d + 1``, and seat 2's rows, kept at every start, need
    the starts they read settled a pass before the last. A deck has one
    feedback state (the fresh deck) among hundreds of turn starts. Where
    both seats' unknowns would be as many as the starts, every start is one
    (seat 1's only, one pass)."""
    p = plan(model, goal) if p is None else p
    fb, nF = p["fb"], len(p["fh"])
    hidx = p["hidx"]
    moves, ends, _ = _edges(model)
    H = len(fb)
    if all(fb[hidx[h]] >= 0 for _, h in ends):
        return fb, nF, False, 1
    if 2 * nF >= H:  # both seats' unknowns would outnumber every start's
        return np.arange(H, dtype=np.int64), H, False, 1
    # the starts (not feedback states) a turn from each state can hand over
    # by scoring nothing, as bit sets, closed over the moves of a turn
    hand = [0] * model.states
    for s, h in ends:
        if fb[hidx[h]] < 0:
            hand[s] |= 1 << int(hidx[h])
    changed = True
    while changed:
        changed = False
        for s, s2, _ in moves:
            if hand[s] | hand[s2] != hand[s]:
                hand[s] |= hand[s2]
                changed = True
    one = [hand[s] for s in model.start_states()]  # start -> the other seat's starts
    two = [0] * H  # seat 1's start -> seat 1's starts two such turns later
    for h in range(H):
        for h1 in _members(one[h]):
            two[h] |= one[h1]
    # links to the end of the longest chain from each start (no cycle: the
    # feedback states cut them all, so this settles within H rounds)
    depth = [0] * H
    changed = True
    while changed:
        changed = False
        for h in range(H):
            d = 1 + max((depth[h2] for h2 in _members(two[h])), default=-1)
            if d != depth[h]:
                depth[h], changed = d, True
    handed = 0
    for bits in one:
        handed |= bits
    return fb, nF, True, max(1 + max(depth),
                             2 + max((depth[h] for h in _members(handed)), default=-1))


def _members(bits):
    """The indices of the set bits of ``bits``."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _bytes(kinds, S, G, C, H, Tmax, Tcl, Tc, nt, tp):
    """Bytes a match of policies ``kinds`` allocates (``tp``: the table
    plan when a policy reads the scores)."""
    K1 = H + 1
    # each thread its own turn tables, one more for the tie round
    need = 8 * ((nt + 1) * (2 * S * Tmax * K1 + S * Tmax + 3 * Tcl * H * K1)
                + 3 * (C + 1) * H * K1 + 6 * G * G * H + (S * Tc * 3 if MAX_SCORE in kinds else 0))
    if tp is not None:  # the decision tables and their ends, and the finals by both scores
        need += (sum(k == TABLE for k in kinds) * (C + 1) ** 2 * (max(tp["nodes"], 1) + 8)
                 + 8 * 2 * (C - G + 1) * (C + 1) * H)
    return need


def match_cap(model, goal, a, b, cap=None, name="this game"):
    """``(C, Tc, ends)``: the score cap of a match of ``a`` against ``b``
    under the rounds ending (``cap``, default the solve's, raised above
    the goal by the largest turn total a fixed policy can reach),
    ``max-score``'s horizon and the total from which each policy's turn
    surely ends (0: it has none).

    Raises
    ------
    DesignError
        A policy the rounds ending does not take, a cap not above the goal,
        or a fixed policy that would raise it by more than
        :data:`MAX_CAP_MARGIN`.
    """
    for pol in (a, b):
        if pol.kind not in (OPTIMAL, HOLD_AT, MAX_SCORE, TABLE):
            raise DesignError(f"{pol.name}: the rounds ending takes optimal, max-score, "
                              f"hold-at:N, rule: or py: policies")
    Tc = max_score_end(model, name) if MAX_SCORE in (a.kind, b.kind) else 1
    ends = [_fixed_end(p, model, Tc) for p in (a, b)]
    C = max(goal + R.CAP_MARGIN if cap is None else int(cap), goal + max(ends) + _gmax(model))
    if C <= goal:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    if C - goal > MAX_CAP_MARGIN:
        raise DesignError(f"{a.name} against {b.name} on {name}: a turn of the fixed policy "
                          f"can reach {C - goal} units past the goal; allowed at most "
                          f"{MAX_CAP_MARGIN} (use a smaller N)")
    return C, Tc, ends


def rule_match_bytes(model, goal):
    """Bytes ``designer compare`` allocates to match one ``rule:`` or
    ``py:`` policy against optimal play to ``goal`` (units) under the
    rounds ending, at the default cap (the rounds solve not counted)."""
    C = table_cap(model, goal)
    if model.falls:
        from designer.engine.rounds_falls_match import match_bytes

        return match_bytes(model, goal, (TABLE, OPTIMAL), C)
    gmax = _gmax(model)
    return _bytes((TABLE, OPTIMAL), model.states, goal, C, len(model.start_states()), C + 1,
                  C + gmax + 1, 1, threads(), table_plan(model, C))


def table_cap(model, goal):
    """The score cap of a match of table policies and optimal play to
    ``goal`` (units) under the default margin: where the rounds solve of
    such a match is made."""
    return max(goal + R.CAP_MARGIN, goal + _gmax(model))


def match_rounds_model(model, goal, a, b, *, ties="replay", cap=None, solution=None,
                       bank_wins=False, record=False, memory_limit=None,
                       name="this game", unit=1, _timed=True, _every_start=False):
    """Evaluate policy ``a`` against policy ``b`` over ``model`` under the
    rounds ending to ``goal``, exactly (a model whose busts lower a banked
    score by :func:`designer.engine.rounds_falls_match.match_rounds_falls`,
    to a residual; ``solution`` then its falls solve).

    Parameters
    ----------
    model : TurnModel
    goal : int
        Goal in units.
    a, b : RulesPolicy
        ``optimal``, ``hold-at``, ``max-score`` or a table policy (a rule
        or a function, :mod:`designer.engine.policy_tables`).
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
    record : bool
        Keep optimal play's decisions in the open rounds (``optimal_table``),
        when a policy is ``optimal``.
    name : str
        The game, for error messages.
    unit : int
        Points per unit of score (what a table policy reads is in points).

    Returns
    -------
    RulesMatch
        ``win[p, a, b, h]``: seat 1's win probability at a round's start
        with ``a`` banked against ``b``, the turn starting from
        ``start_states[h]``, seat 1 playing A (``p = 0``, B in seat 2) or
        B (``p = 1``); ``actions``: the expected actions left in the game.
        ``cap`` (an extra attribute): the score cap used, in units. With
        ``record``, ``optimal_table[q, i, j]``: optimal play's decisions as
        seat ``q + 1`` in the open rounds, its own score ``i`` and the other
        seat's ``j`` (0 stop, ``c`` the ``c``-th way to go on), over the
        nodes of :func:`table_plan` at ``cap``.

    Raises
    ------
    DesignError
        ``max-score`` where it is
        not defined, a tie rule not known, a table policy that names a way
        to go on a state does not have, or a fixed policy that would need
        an absurd cap.
    ConvergenceError
        A match whose turns can go on forever under these policies.
    TooLargeError
        Tables over ``memory_limit``.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in R.TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, R.TIE_RULES)))
    if model.falls:  # busts lower a banked score: the iterated match
        from designer.engine.rounds_falls import RoundsFallsResult
        from designer.engine.rounds_falls_match import match_rounds_falls

        return match_rounds_falls(model, goal, a, b, ties=ties, cap=cap,
                                  solution=solution if isinstance(solution, RoundsFallsResult)
                                  else None, bank_wins=bank_wins, record=record,
                                  memory_limit=memory_limit, name=name, unit=unit,
                                  _timed=_timed)
    order = R._order(model)  # refuses turns that return to a state without scoring
    G, S = goal, model.states
    gmax = _gmax(model)
    kinds = (a.kind, b.kind)
    need_opt = OPTIMAL in kinds
    absolute = TABLE in kinds  # a policy reads the scores: finals by both scores
    C, Tc, ends = match_cap(model, G, a, b, cap, name)
    starts = model.start_states()
    H = len(starts)
    K1 = H + 1
    Tmax = max(C, max(ends)) + 1
    Tcl = max(C, max(ends)) + gmax + 1 if absolute else max(C, max(ends) + gmax) + 1
    nt = threads()
    record = record and need_opt
    tp = table_plan(model, C) if absolute or record else None
    need_bytes = _bytes(kinds, S, G, C, H, Tmax, Tcl, Tc, nt, tp if absolute else None)
    if record:  # optimal play's decisions, both seats, open rounds
        need_bytes += 2 * G * G * max(tp["nodes"], 1)
    if need_bytes > memory_limit:
        raise TooLargeError(f"comparing policies on {name} needs {need_bytes / 2**20:,.0f} MB, "
                            f"over the limit of {mem.limit_text(memory_limit)}")
    if need_opt and (solution is None or solution.cap != C or solution.ties != ties
                     or solution.goal != G):
        solution = R.solve_rounds_model(model, G, ties=ties, cap=C)
    lay = R._layout(model, C, order)
    pl = plan(model, G)
    # (_every_start: every start an unknown, as before the feedback states:
    # the benchmark's baseline)
    fb, nF, chained, passes = ((np.arange(H, dtype=np.int64), H, False, 1) if _every_start
                               else open_unknowns(model, G, pl))
    replay = ties == "replay"
    if need_opt:
        tvO = 1.0 - solution.T if replay else np.zeros(H)
        Xs, Ys = solution.X, solution.Y
    else:
        tvO = np.zeros(H)
        Xs, Ys = np.zeros((G, G, H)), np.zeros((G, G, H))
    pick = hold_pick(model)
    if MAX_SCORE in kinds:
        E, mstop, mcont = max_score_table(model, pl, Tc)
    else:
        E = np.zeros((1, 1))
        mstop = np.zeros((1, 1), dtype=np.bool_)
        mcont = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros((1, 1, 1), dtype=np.int8)
    tabs = [pol.table(model, G, unit, tp) if pol.kind == TABLE else none for pol in (a, b)]
    tends = [_table_ends(tab, tp, model.min_bank) if pol.kind == TABLE
             else np.zeros((1, 1), dtype=np.int64) for tab, pol in zip(tabs, (a, b))]
    if _timed:
        _warm(absolute)
    t0 = time.perf_counter()
    Fs = solver_final(model, lay, C, tvO) if need_opt else np.zeros((C + 1, H))
    node_base, node_len = (tp["node_base"], tp["node_len"]) if tp is not None else (
        np.zeros(S, dtype=np.int64), np.zeros(S, dtype=np.int64))
    OD = np.zeros((2, G, G, tp["nodes"]) if record else (2, 1, 1, 0), dtype=np.int8)
    marr = (lay.blk_ptr, lay.blk_states, lay.tmin, model.cont_start, model.out_start,
            model.out_prob, model.cont_throws, model.out_kind, model.out_points, lay.out_h,
            model.opt_start,
            model.opt_gain, model.opt_next, lay.hand_h, lay.hidx, lay.pass_ok, pick, E, Tc,
            mstop, mcont, node_base, node_len)
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
        tab1, tab2 = tabs[p], tabs[1 - p]
        te1, te2 = tends[p], tends[1 - p]
        if absolute:
            Fn, FLn = _finals_by_scores(p1, p2, T1, T2, tab1, tab2, te1, te2, C, G, gmax, mb,
                                        forced,
                                        replay, bank_wins, marr, tvO, Fs, scratch, S, Tmax,
                                        Tcl, nt, H, K1, f"{a.name} against {b.name} on {name}")
        else:
            FW, FL = np.zeros((C + 1, H, K1)), np.zeros((C + 1, H, K1))
            FO = np.zeros((C + 1, H))
            RK.final_round(C, replay, p2.kind, p2.n, T2, bank_wins, gmax, mb, forced, TIE,
                           *marr, none, tvO, S, Tmax, Tcl, nt, FW, FL, FO)
            Tw, Tl = np.zeros(H), np.zeros(H)
            if replay:
                Tend = Tcl1 = C - G
                if p1.kind != OPTIMAL:
                    Tend, Tcl1 = T1, T1 - 1 + gmax
                Tw, Tl = _tie_turn(p1, Tend, Tcl1, mb, forced, marr, none[0, 0], FW, FL, Fs,
                                   scratch, H, K1)
                if Tw is None:
                    raise endless(f"{a.name} against {b.name} on {name}: a tie round "
                                  f"can go on forever under these policies (no turn "
                                  f"of it ever scores)",
                                  model.forced_first, model.min_bank)
            Fn = np.ascontiguousarray((FW[:, :, 0] + FW[:, :, 1:] @ Tw)[:, None, :])
            FLn = np.ascontiguousarray((FL[:, :, 0] + FL[:, :, 1:] @ Tl)[:, None, :])
        XW, XL = np.zeros((G, G, H)), np.zeros((G, G, H))
        YW, YL = np.zeros((G, G, H)), np.zeros((G, G, H))
        bad = RK.open_rounds(G, C, absolute, p1.kind, p1.n, T1, p2.kind, p2.n, T2, bank_wins,
                             gmax, mb, forced, TIE, *marr, tab1, tab2, te1, te2, OD, Xs, Ys, Fs,
                             Fn, FLn, XW, XL, YW, YL, fb, nF, chained, passes, S, Tmax,
                             Tcl, nt)
        if bad >= 0:
            raise endless(f"{a.name} against {b.name} on {name}: the turns at scores "
                          f"{(bad // G, bad % G)} can go on forever (no turn there "
                          f"ever ends with a score or a win)",
                          model.forced_first, model.min_bank)
        win[p], actions[p] = XW, XL
    seconds = time.perf_counter() - t0
    m = RulesMatch(win, actions, starts, 0, 0.0, 1, seconds, OD if record else None)
    object.__setattr__(m, "cap", C)
    return m


def _finals_by_scores(p1, p2, T1, T2, tab1, tab2, te1, te2, C, G, gmax, mb, forced, replay,
                      bank_wins, marr, tvO, Fs, scratch, S, Tmax, Tcl, nt, H, K1, what):
    """Seat 2's final-round values by both scores, ``F[A - G, b, h]`` for
    seat 1 at ``A = G .. C`` and seat 2 at ``b = 0 .. min(A, C - 1)`` (wins
    and expected actions), for policies that read the scores.

    Levels go down from the cap: at level ``A`` seat 2's turns
    (:func:`~designer.engine._rounds_match_kernels.final_level`) are affine
    in the tie round's start values at ``A`` (replay), seat 1's tie-round
    turn at ``A`` reads them and the levels above (numbers), and its rows
    are solved exactly. Every score stops at the cap ``C`` (a total past it
    is held there), and a tie at the cap itself, where neither seat can
    score, counts half a win to each seat."""
    FN = np.zeros((C - G + 1, C + 1, H))
    FLN = np.zeros((C - G + 1, C + 1, H))
    FW, FL = np.zeros((C + 1, H, K1)), np.zeros((C + 1, H, K1))
    FO = np.zeros((C + 1, H))
    if p2.kind != TABLE:  # seat 2 reads the lead alone: one turn per lead serves every level
        Fd, FLd = np.zeros((C + 1, H, K1)), np.zeros((C + 1, H, K1))
        RK.final_round(C, replay, p2.kind, p2.n, T2, bank_wins, gmax, mb, forced, TIE, *marr,
                       tab2, tvO, S, Tmax, Tcl, nt, Fd, FLd, FO)
    for A in range(C, G - 1, -1):
        FW[:] = 0.0
        FL[:] = 0.0
        b0 = 0
        if p2.kind != TABLE:  # except where the cap cuts its turn short
            b0 = _uncut(p2.kind, T2, bank_wins, mb, A, C)
            d = A - np.arange(min(b0, C))  # b = A - d
            FW[:len(d)], FL[:len(d)] = Fd[d], FLd[d]
        RK.final_level(A, C, b0, replay, p2.kind, p2.n, T2, bank_wins, gmax, mb, forced, TIE,
                       *marr, tab2, te2, tvO, S, Tmax, Tcl, nt, FW, FL, FO)
        Tw, Tl = np.zeros(H), np.zeros(H)
        if replay and A == C:
            Tw[:] = 0.5
        elif replay:
            if p1.kind == OPTIMAL:
                Tend = Tcl1 = C - A
            elif p1.kind == TABLE:
                Tend = min(C - A, int(te1[A, A]))
                Tcl1 = Tend - 1 + gmax
            else:
                Tend = min(T1, C - A)
                Tcl1 = Tend - 1 + gmax
            # seat 1 ending the tie round with u > 0 leaves seat 2 at A
            # behind A + u: a level above, solved
            Fu = np.zeros((Tcl1 + 1, H, K1))
            FLu = np.zeros((Tcl1 + 1, H, K1))
            Fu[0], FLu[0] = FW[A], FL[A]
            lv = np.minimum(A + np.arange(1, Tcl1 + 1), C) - G
            Fu[1:, :, 0], FLu[1:, :, 0] = FN[lv, A], FLN[lv, A]
            dec = tab1[A, A] if p1.kind == TABLE else tab1[0, 0]
            Tw, Tl = _tie_turn(p1, Tend, Tcl1, mb, forced, marr, dec, Fu, FLu, Fs, scratch, H, K1)
            if Tw is None:
                raise endless(f"{what}: a tie round at {A} can go on forever under "
                              f"these policies (no turn of it ever scores)", forced, mb)
        nb = min(A, C - 1) + 1
        FN[A - G, :nb] = FW[:nb, :, 0] + FW[:nb, :, 1:] @ Tw
        FLN[A - G, :nb] = FL[:nb, :, 0] + FL[:nb, :, 1:] @ Tl
    return FN, FLN


def _table_ends(tab, tp, min_bank):
    """``E[i, j]``: the turn total from which the table ``tab`` stops at
    every state with the scores ``(i, j)`` (one past its last "go on", at
    least ``min_bank`` and 1, where a stop is always allowed), so that its
    turns are swept no further."""
    n = tab.shape[0]
    node_t = np.arange(tp["nodes"]) - np.repeat(tp["node_base"], tp["node_len"])
    out = np.empty((n, n), dtype=np.int64)
    for i in range(n):
        out[i] = np.where(tab[i, :, :tp["nodes"]] != 0, node_t[None, :], -1).max(axis=1,
                                                                                  initial=-1)
    return np.maximum(out + 1, max(min_bank, 1))


def _uncut(kind, T2, bank_wins, mb, A, C):
    """The first score ``b`` of seat 2 (playing ``kind``, not a table) whose
    final-round turn against ``A`` the cap ``C`` cuts short: its turn would
    go on past total ``C - b``."""
    if A == C:  # a total past the cap ties at best
        return 0
    b = np.arange(A + 1)
    d = A - b
    if kind == OPTIMAL:
        tend = np.maximum(d + 1, mb)
    else:
        tend = np.full(A + 1, T2)
        if bank_wins:
            tend = np.minimum(tend, np.maximum(d + 1, max(mb, 1)))
    cut = np.flatnonzero(tend > C - b)
    return int(cut[0]) if len(cut) else A + 1


#: An empty record: a tie round's decisions are not kept.
_NOREC = np.zeros(0, dtype=np.int8)


def _tie_turn(p1, Tend, Tcl, mb, forced, marr, dec, FW, FL, Fs, scratch, H, K1):
    """The tie round's start values ``T[h]`` (seat 1 playing ``p1``, its turn
    ending from total ``Tend`` on, ends read up to ``Tcl``; ``FW[u]``,
    ``FL[u]``: seat 2's turn after seat 1 banked ``u``, affine in ``T``)
    and their expected actions, or ``(None, None)`` when it never ends."""
    stopW, stopL, stopO = scratch[:3]
    stopW[:Tcl + 1] = -FW[:Tcl + 1]
    stopW[:Tcl + 1, :, 0] += 1.0
    stopL[:Tcl + 1] = FL[:Tcl + 1]
    stopO[:Tcl + 1] = 1.0 - Fs[np.minimum(np.arange(Tcl + 1), len(Fs) - 1)]
    rW, rL, rO = np.zeros((H, K1)), np.zeros((H, K1)), np.zeros(H)
    RK.turn(p1.kind, p1.n, 1 << 62, Tend, Tcl, mb, forced, TIE, *marr, dec, _NOREC, *scratch,
            rW, rL, rO)
    Tw, Tl = np.zeros(H), np.zeros(H)
    if not RK._solve_small(rW, Tw) or not RK._solve_small(rL, Tl):
        return None, None
    return Tw, Tl


__all__ = ["match_cap", "match_rounds_model", "rule_match_bytes", "solver_final", "table_cap"]
