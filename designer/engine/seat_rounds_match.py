r"""A fixed policy at one seat of a 2-4 seat game under the rounds ending,
the other seats playing the max-n optimum, evaluated exactly.

How well does a simple rule do at a table of three or four that plays in
equal turns? Seat ``a`` plays ``hold-at:N`` (stop once the turn total is at
least ``N`` where a stop is allowed, going on with the first way to go on
and keeping the option of the largest gain) or ``max-score`` (maximise the
points banked this turn), as in the race's seat profile
(:mod:`designer.engine.seat_match`), or a table policy (``rule:``,
``py:``) reading its own score and the highest other, both up to the score
cap (in a replayed round: the level its players tied at, plus the points of
the round, see below); every other seat plays the optimum of
:func:`designer.engine.seat_rounds.solve_seat_rounds_model`, each decision
the argmax of its own win over the solved table with the solver's ties
(the optimal seats do not know that seat ``a`` deviates). Like the optimal
seats, a policy seat that is last in its round stops as soon as stopping
wins the game (a total that passes the bar, or reaches the goal with every
other seat below it): no player goes on with the game won. That is the
convention of the two-seat rounds compare.

With every decision fixed the game is a Markov chain over the solve's own
rows (:mod:`designer.engine._seat_rounds_kernels`), and its values ``Z``,
every seat's win, are found in the solve's order (with a table policy at
the last seat, its final-round rows by both scores are added after the
solve's, which go by the lead alone; the optimal seats still decide on the
solve's rows):

tie rounds (replay)
    For each size ``t`` and each place ``d`` of the policy seat among the
    tied seats, the generic round of the solve with position ``d`` playing
    the policy; its start values are iterated as the solve iterates them
    (a round in which every position ends level starts it again). A tie
    round without the policy seat is the solve's; the rounds are the same
    wherever the policy seat sits, and solved once.
tie rounds by level (replay, a table policy)
    The tied seats' scores go on from the level ``L`` they tied at (the
    solve's round counts only its own points, and caps its gains at ``cap -
    goal``): the policy reads its own score ``L`` and the highest other
    ``L`` plus the best gain so far, both held at the cap, and a round
    whose best gain is ``g`` ties again at ``L + g``. One round per level,
    from the cap down, each reading the levels above (at the cap, every
    tie of the round returns to it). From the lowest level at which the
    policy decides as at the cap up to the cap, every round is the cap's;
    where that is every level (a rule reading no score past the goal),
    one round at the cap serves all. A turn that ends in a tie (the last
    seat of a final round, the last position of a tie round) reads the
    round at its level, so the last seat's final rounds go by both scores
    (:func:`~designer.engine._seat_rounds_eval_kernels.level_row`).
final rounds
    Each turn reads rows already evaluated (the next seat's, or the
    round's result), one sweep each.
open rounds
    Score tuples by decreasing sum. Inside a tuple, a round in which no seat
    scores returns to it: every value is affine in the unknown turn starts
    of the solve's plan, ``Z = c + B Z``, solved exactly per tuple (a
    singular ``I - B``: the play has rounds that never end).

So that the policy is never stopped by the score cap, the cap is raised
above the goal by at least the largest total its turn can reach (its
threshold, or max-score's horizon, plus the largest gain of one move), and
the solve is made at that cap. All of it is exact except the tie rounds'
start values (a relative change of at most
:data:`~designer.engine.seat_rounds.TIE_TOL`) and, with three or more seats,
the solve's own unsettled tuples (reported).
"""

import time

import numba
import numpy as np

from designer._jit import TIE, load_first, threads
from designer import memory as mem
from designer.engine import _seat_rounds_eval_kernels as EK
from designer.engine import _seat_rounds_kernels as sk
from designer.engine._match_kernels import HOLD_AT, MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import FORMS, hold_pick, max_score_table
from designer.engine.rounds import CAP_MARGIN
from designer.engine.rounds_match import (MAX_CAP_MARGIN, _fixed_end, _gmax, max_score_end,
                                          table_plan)
from designer.engine.seat_rounds import (_geometry, _masks, estimate, final_jobs,
                                         iterate_tie, solve_seat_rounds_model, tie_jobs)
from designer.engine.seats import _check_players
from designer.engine.solve import TooLargeError, plan
from designer.errors import ConvergenceError, DesignError
from designer.engine.model import tiny_model

#: Longest estimated work (the solve at the raised cap and one evaluation
#: per seat, in seconds) accepted: a threshold far past the goal raises the
#: cap, and the work grows with its square.
MAX_SECONDS = 6 * 3600


def policy_cap(model, goal, policy, cap=None, name="this game"):
    """``(cap, Tc)``: the score cap at which ``policy``'s turns are never
    cut short (at least ``cap``, default the solve's; a table policy's
    turns stop at the cap, as every seat's) and max-score's horizon (1 for
    other policies).

    Raises
    ------
    DesignError
        A policy this evaluation does not take, max-score where it is not
        defined, or a turn that reaches too far past the goal.
    """
    if policy.kind not in (OPTIMAL, HOLD_AT, MAX_SCORE, TABLE):
        raise DesignError(f"{policy.name}: with 3 or 4 players under the rounds ending a seat "
                          f"plays {FORMS}")
    G = int(goal)
    Tc = max_score_end(model, name) if policy.kind == MAX_SCORE else 1
    need = G + _fixed_end(policy, model, Tc) + _gmax(model)
    C = max(G + CAP_MARGIN if cap is None else int(cap), need)
    if C - G > MAX_CAP_MARGIN:
        raise DesignError(f"{policy.name} on {name}: a turn of the policy can reach {C - G} "
                          f"units past the goal; allowed at most {MAX_CAP_MARGIN} (use a "
                          f"smaller N)")
    return C, Tc


def last_seat_rows(N, G, C):
    """Rows of the last seat's final rounds by both scores (every mask of
    the seats before it, bar ``G .. C``, score ``0 .. G - 1``), as
    :func:`~designer.engine._seat_rounds_eval_kernels.last_seat_row`
    numbers them."""
    return (1 << (N - 1)) * (C - G + 1) * G


def _tie_sets(n, below=None):
    """``(M, members)`` for every set ``M`` of two or more of ``n`` seats
    (or a round's positions), those below ``below`` if given."""
    top = 1 << n if below is None else below
    return [(M, [q for q in range(n) if M >> q & 1]) for M in range(3, top)
            if M & (M - 1)]


def level_rows(N, G, C):
    """Rows of the tie rounds by level (every set of seats, or of a tie
    round's positions, at every level ``G .. C``), as
    :func:`~designer.engine._seat_rounds_eval_kernels.level_row` numbers
    them."""
    return (C - G + 1) * (1 << N)


def profile_estimate(model, goal, players, policy, *, ties="replay", cap=None, nt=None,
                     name="this game"):
    """What :func:`seat_rounds_profile` needs, before anything is solved:
    ``cap`` and ``Tc`` (:func:`policy_cap`), ``memory`` (bytes: the solve's
    at that cap, the evaluation's table of the same rows, its workers' rows,
    max-score's one-turn table and the answer's table of every start; a
    lower bound where the solve's table alone passes the memory limit) and
    ``seconds`` (the solve's estimate times one plus the evaluations; None
    with a lower bound)."""
    if model.falls:  # busts lower a banked score: the falls evaluation
        from designer.engine.seat_rounds_falls_match import profile_estimate as falls_estimate

        return falls_estimate(model, goal, players, policy, ties=ties, cap=cap, nt=nt, name=name)
    N, G = players, int(goal)
    C, Tc = policy_cap(model, G, policy, cap, name)
    nt = threads() if nt is None else nt
    est = estimate(model, G, N, ties=ties, cap=C, nt=nt)
    if est["at_least"]:
        return dict(cap=C, Tc=Tc, memory=est["memory"], seconds=None)
    H = est["start_states"]
    _, _, rows = _geometry(N, G, C, H, ties == "replay")
    S, Tn = model.states, max(C, model.min_bank) + 1
    K = N * H  # at most
    Dp = -(-(N + K) // 8) * 8
    scratch = nt * (N * S * Tn * (Dp + 1) + S * Dp + N * H * Dp)
    mscore = model.states * Tc * 17 if policy.kind == MAX_SCORE else 0
    # a table policy: its decisions by both scores, and the last seat's final
    # rounds by both scores (the evaluation with the policy there), where
    # ties are replayed the tie rounds by level
    by_level = level_rows(N, G, C) if ties == "replay" else 0
    table = ((C + 1) ** 2 * table_plan(model, C)["nodes"]
             + (last_seat_rows(N, G, C) + by_level) * H * N * 8 if policy.kind == TABLE else 0)
    answer = G ** N * H * N * N
    memory = int(est["memory"] + (rows * H * N + scratch + answer) * 8 + mscore + table)
    evaluations = N * N * EVALUATION_PER_SEAT if policy.kind != OPTIMAL else 0
    return dict(cap=C, Tc=Tc, memory=memory, seconds=est["seconds"] * (1 + evaluations))


#: An evaluation with the policy at one of ``N`` seats costs about ``N``
#: times this many solves at the same cap: it carries every seat's win
#: through each turn where the solve carries the mover's alone (measured on
#: the development machine: 0.9-2.3 solves with three seats, 1.6-1.9 with
#: four, on Piglet, Pig, Hog and The Great Rolled Ones; one solve each, as
#: this estimate counted before, left four-seat games at half their time).
EVALUATION_PER_SEAT = 1 / 2.4


def _warm():
    def tiny():
        from designer.engine.match import RulesPolicy

        seat_rounds_profile(tiny_model(), 2, 3, RulesPolicy(HOLD_AT, "hold-at:1", 1),
                            _timed=False)

    load_first((EK.eval_open,), tiny)


class _Evaluation:
    """The solve's table and layout, and the model's arrays as the kernels
    take them, for evaluations with the policy at each seat."""

    def __init__(self, model, table, policy, Tc, nt, unit=1):
        A, geo, toff, lay = table
        self.model, self.A, self.geo, self.toff, self.lay, self.nt = model, A, geo, toff, lay, nt
        N = int(geo[sk.G_N])
        self.N, self.G, self.C = N, int(geo[sk.G_G]), int(geo[sk.G_C])
        self.replay = bool(geo[sk.G_REPLAY])
        pc = np.zeros(EK.PC_LEN, dtype=np.int64)
        pc[EK.PC_KIND], pc[EK.PC_HOLD], pc[EK.PC_TC] = policy.kind, policy.n, Tc
        self.pc = pc
        S = model.states
        if policy.kind == MAX_SCORE:
            E, mstop, mcont = max_score_table(model, plan(model, self.G), Tc)
        else:
            E, mstop, mcont = (np.zeros((S, 1)), np.zeros((S, 1), dtype=np.bool_),
                               np.zeros((S, 1), dtype=np.int64))
        if policy.kind == TABLE:  # every score to the cap, as the two-seat rounds match
            tp = table_plan(model, self.C)
            tab = np.ascontiguousarray(policy.table(model, self.G, unit, tp))
            tnb, tnl = tp["node_base"], tp["node_len"]
        else:
            tab = np.zeros((1, 1, 1), dtype=np.int8)
            tnb, tnl = np.zeros(S, dtype=np.int64), np.zeros(S, dtype=np.int64)
        m = model
        self.tab = tab
        self._tied = None  # the tie rounds' starts: the same with the policy at every seat
        # where ties are replayed a table policy reads a replayed round's
        # level; from L0 up to the cap it decides alike at every level, and
        # where that is every level the rounds need no level
        self.L0 = self._alike_from() if policy.kind == TABLE and self.replay else self.G
        self.levels = self.L0 > self.G
        self.args = (TIE, lay.blk_ptr, lay.blk_states, lay.blk_tmax, lay.lo, lay.hi,
                     m.cont_start, m.out_start, m.out_prob, m.out_kind, m.out_points, lay.out_h,
                     m.opt_start, m.opt_gain, m.opt_next, lay.hand_h, lay.hidx, lay.pass_ok,
                     m.min_bank, m.forced_first, hold_pick(m), E, mstop, mcont, tab, tnb, tnl)

    def _rows(self, kind, jobs, a, Z, ext=-1, lout=-1, level=-1):
        if len(jobs):
            EK.eval_rows(kind, jobs, self.geo, self.toff, min(self.nt, len(jobs)), a, self.pc,
                         self.A, Z, *self.args, ext, self.lay.Tn, lout, level)

    def _alike_from(self):
        """The lowest level ``L0`` from which up to the cap a table policy
        decides alike in a replayed round: its decisions at the level ``L``
        (its own score) and ``L + g`` (the highest other, for every gain so
        far ``g``), held at the cap, the same as at the cap's."""
        G, C = self.G, self.C

        def reads(L):
            return self.tab[L, np.minimum(L + np.arange(C - G + 1), C)]

        L0, top = C, reads(C)
        while L0 > G and np.array_equal(reads(L0 - 1), top):
            L0 -= 1
        return L0

    def _last_seat_jobs(self, ext, a, Z):
        """The last seat's final-round turns by both scores (the bar ``B``
        held by a set ``Tm`` of earlier seats: one seat where a tie goes to
        the earlier seat, any where ties are replayed; its own score
        ``s``), for a table policy: ``(row, mover, T, lead, Tm, 0, s)``
        (:func:`~designer.engine._seat_rounds_eval_kernels.last_seat_row`),
        where the policy seat ``a`` is the last or holds the bar; the rows
        of the other sets are the solve's by lead, copied into ``Z``."""
        N, G, C, mb, geo = self.N, self.G, self.C, self.model.min_bank, self.geo
        B, s = np.meshgrid(np.arange(G, C + 1), np.arange(G), indexing="ij")
        B, s = B.ravel(), s.ravel()
        rows = []
        for Tm in _masks(N - 1, self.replay):
            at = ext + (Tm * (C - G + 1) + B - G) * G + s  # last_seat_row
            if a == N - 1 or Tm >> a & 1:
                rows.append(np.stack([at, np.full_like(at, N - 1), np.maximum(B - s + 1, mb),
                                      B - s, np.full_like(at, Tm), 0 * at, s], axis=1))
            else:
                Z[at] = Z[geo[sk.G_FL] + Tm * (C + 1) + B - s]
        return np.concatenate(rows).astype(np.int64)

    def _place(self, Z, row, Y, seats):
        """Row ``row`` of a tie round among ``seats`` from ``Y[h, rank]``."""
        Z[row] = 0.0
        for rank, q in enumerate(seats):
            Z[row, :, q] = Y[:, rank]

    def _settle(self, t, d, row, jobs, Z, lout=-1, level=-1, again=None):
        """Iterate the start ``row`` of the tie round among ``t`` seats, the
        policy at place ``d``, until it settles (:func:`iterate_tie`): each
        iterate sweeps ``jobs`` (``again`` after the first, if given; at
        ``level`` with ``lout``'s rows by level, as :meth:`_rows`); returns
        ``(iterates, last change)``.

        Raises
        ------
        ConvergenceError
            A round that does not settle.
        """
        scratch = self.A.shape[0] - 1
        swept = []

        def sweep():
            for j in (again if swept and again is not None else jobs):
                self._rows(0, j, d, Z, -1, lout, level)
            swept.append(1)
            change = float(np.abs(Z[scratch] - Z[row]).max())
            Z[row] = Z[scratch]
            return change

        it, change, settled = iterate_tie(sweep)
        if not settled:
            at = f" at the score {level}" if lout >= 0 else ""
            raise ConvergenceError(f"a tie round of {t} seats{at} with the policy at place "
                                   f"{d + 1} did not settle (last change {change:.1e})")
        return it, change

    def _ties(self, Z, level=-1):
        """Every tie round's start with the policy at each place: ``{(t, d):
        Y}``, and the iterates and the largest change accepted (a table
        policy reading its scores as at ``level``)."""
        N, A = self.N, self.A
        Yv = {t: A[(1 << t) - 1, :, :t].copy() for t in range(2, N + 1)}
        Yz, iters, residual = {}, 0, 0.0
        scratch = A.shape[0] - 1
        Cg, mb = self.C - self.G, self.model.min_bank
        for t in range(2, N + 1):
            full = (1 << t) - 1
            jobs = tie_jobs(t, self.toff, Cg, mb, scratch)
            for d in range(t):
                for M, members in _tie_sets(t, full):  # this round's sub-ties, by position
                    Y = Yz[len(members), members.index(d)] if d in members else \
                        Yv[len(members)]
                    self._place(Z, M, Y, members)
                Z[full] = 0.0
                Z[full, :, :t] = 1.0 / t
                it, change = self._settle(t, d, full, jobs, Z, level=level)
                iters += it
                residual = max(residual, change)
                Yz[t, d] = Z[full, :, :t].copy()
        return Yv, Yz, iters, residual

    def _ties_by_level(self, Z, lout):
        """Every tie round's start with a table policy at each place and at
        each level ``L = goal .. cap`` (the tied score, which the policy
        reads): ``{(t, d): Y[L - goal]}``, as :meth:`_ties`. A round at ``L``
        whose best gain is ``g`` ties at ``L + g`` (held at the cap): levels
        from the cap down, each reading the ones above; at the cap every
        tie of the round returns to it, below it only a round in which
        every position gains nothing, so after a first sweep only the rows
        with no gain yet are swept again. From the level ``L0`` up to the
        cap where the policy decides alike at every level (its decisions at
        ``L`` and ``L + g`` for every gain so far ``g`` the same as at the
        cap's), every level's round is the cap's (the same equations), and
        only the cap's is solved."""
        N, A, G, C, geo = self.N, self.A, self.G, self.C, self.geo
        Yv = {t: A[(1 << t) - 1, :, :t].copy() for t in range(2, N + 1)}
        Yz, iters, residual = {}, 0, 0.0
        scratch = A.shape[0] - 1
        Cg, mb, H, L0 = C - G, self.model.min_bank, A.shape[1], self.L0
        for t in range(2, N + 1):
            full = (1 << t) - 1
            jobs = tie_jobs(t, self.toff, Cg, mb, scratch)
            again = [j[j[:, 5] == 0] for j in jobs]  # no gain yet (the start included)
            for d in range(t):
                for M, members in _tie_sets(t, full):  # this round's sub-ties, by position
                    for L in range(G, C + 1):
                        Y = Yz[len(members), members.index(d)][L - G] if d in members \
                            else Yv[len(members)]
                        self._place(Z, EK.level_row(lout, geo, L, M), Y, members)
                Y = np.empty((C - G + 1, H, t))
                guess = np.full((H, t), 1.0 / t)
                for L in range(C, G - 1, -1):
                    row = EK.level_row(lout, geo, L, full)
                    Z[row] = 0.0
                    Z[row, :, :t] = guess
                    if L0 <= L < C:  # decided as at the cap: the cap's round
                        Y[L - G] = guess
                        continue
                    it, change = self._settle(t, d, row, jobs, Z, lout, L,
                                              again if L < C else None)
                    iters += it
                    residual = max(residual, change)
                    Y[L - G] = guess = Z[row, :, :t]
                Yz[t, d] = Y
        return Yv, Yz, iters, residual

    def evaluate(self, a):
        """Every seat's win at every turn start with the policy at seat
        ``a``: the table ``Z`` and the tie rounds' iterates and change."""
        N, G, A = self.N, self.G, self.A
        # every row starts as the solve's: where the policy seat has moved
        # and only optimal seats are left to move, that is the answer
        Z = A[:, :, :N].copy()
        # a table policy at the last seat reads both scores in its final
        # round, whose rows go by the lead: rows by both scores after the
        # solve's, read by the seat before it; where ties are replayed a
        # tie's round is by its level (the policy reads it), and so the last
        # seat's final rounds are by both scores wherever the policy sits
        table = self.pc[EK.PC_KIND] == TABLE
        ext = A.shape[0] if table and (a == N - 1 or self.levels) else -1
        lout = -1
        if ext >= 0:
            more = last_seat_rows(N, G, self.C)
            if self.levels:
                lout = ext + more
                more += level_rows(N, G, self.C)
            Z = np.concatenate([Z, np.zeros((more,) + Z.shape[1:])])
        iters, residual = 0, 0.0
        if self.replay and self._tied is None:  # counted once, for the first seat
            # a table policy deciding alike at every level reads the cap's
            self._tied = Yv, Yz, iters, residual = (
                self._ties_by_level(Z, lout) if self.levels
                else self._ties(Z, self.C if table else -1))
        elif self.replay:
            Yv, Yz = self._tied[:2]
        for M, seats in _tie_sets(N) if self.replay else []:
            Y = Yz[len(seats), seats.index(a)] if a in seats else None
            if self.levels:
                for L in range(G, self.C + 1):
                    self._place(Z, EK.level_row(lout, self.geo, L, M),
                                Yv[len(seats)] if Y is None else Y[L - G], seats)
            else:
                self._place(Z, M, Yv[len(seats)] if Y is None else Y, seats)
        for jobs in final_jobs(self.geo, N, G, self.C, self.model.min_bank, self.replay):
            # a final round moves the policy seat now or later, or (replay)
            # may end in a tie round it plays: it holds the bar
            keep = jobs[:, 1] <= a
            if self.replay:
                keep |= (jobs[:, 4] >> a) & 1 == 1
            if ext >= 0 and jobs[0, 1] == N - 1:
                jobs, keep = self._last_seat_jobs(ext, a, Z), slice(None)
            self._rows(1, jobs[keep], a, Z, ext, lout)
        from designer.solve._rounds_common import open_order

        flat, tuples, groups = open_order(N, G)
        status = np.zeros(self.nt, dtype=np.int64)
        lay = self.lay
        EK.eval_open(self.geo, flat, tuples, groups, lay.uk, lay.ukm, a, self.pc, TIE, self.A, Z,
                     *self.args[1:], ext, lay.Tn, self.nt, status)
        if np.any(status):
            i = int(status[np.flatnonzero(status)[0]]) - 1
            raise ConvergenceError(f"with the policy at seat {a + 1} the rounds at scores "
                                   f"{tuple(int(v) for v in tuples[i])} can go on forever "
                                   f"(no seat's turn there ever scores)")
        return Z, iters, residual


def seat_rounds_profile(model, goal, players, policy, *, ties="replay", cap=None,
                        name="this game", unit=1, memory_limit=None, _timed=True):
    """Every seat's win with ``policy`` at each seat in turn, the others
    optimal, under the rounds ending.

    Parameters
    ----------
    model : TurnModel
        Where its busts lower a banked score, solved and evaluated by
        :mod:`designer.engine.seat_rounds_falls_match`.
    goal : int
    players : int
        Seats, 2 to 4.
    policy : RulesPolicy
        ``optimal``, ``hold-at:N``, ``max-score``, or a table policy
        (``rule:``, ``py:``): it reads its own score
        and the highest other, both up to the cap, in the game's units.
    ties : str
        ``"replay"`` or ``"earlier-seat"``.
    cap : int, optional
        Score cap (raised where the policy's turns would pass it).
    name : str
        The game, for error messages.
    unit : int
        Points per unit, for a table policy's features.

    Returns
    -------
    SeatRoundsProfile

    Raises
    ------
    DesignError
        A policy this evaluation does not take, or max-score where it is
        not defined.
    TooLargeError
        Tables over ``memory_limit``, refused before anything is allocated.
    ConvergenceError
        Rounds that never end under this play.
    """
    return seat_rounds_solve(model, goal, players, policy, ties=ties, cap=cap, name=name,
                             memory_limit=memory_limit, _timed=_timed).profile(policy, unit)


def seat_rounds_solve(model, goal, players, policy, *, ties="replay", cap=None,
                      name="this game", memory_limit=None, _timed=True):
    """The optimal seats' solve at the cap of ``policy``
    (:func:`policy_cap`), kept to evaluate that policy, or any other of the
    same cap, at each seat (:meth:`SeatRoundsSolve.profile`): every table
    policy (``rule:``, ``py:``) shares one, so a search over rules solves
    once. Parameters and refusals as :func:`seat_rounds_profile`, whose
    first half this is (the memory and time checked for ``policy``).

    Returns
    -------
    SeatRoundsSolve
    """
    memory_limit = mem.resolve(memory_limit)
    N = _check_players(players)
    G = int(goal)
    nt = max(1, min(numba.get_num_threads(), threads()))
    est = profile_estimate(model, G, N, policy, ties=ties, cap=cap, nt=nt, name=name)
    C, need, work = est["cap"], est["memory"], est["seconds"]
    if need > memory_limit:
        raise TooLargeError(f"{policy.name} at one seat of {N} on {name} under the rounds ending "
                            f"needs {need / 2**20:,.0f} MB, over the limit of "
                            f"{mem.limit_text(memory_limit)}: lower the goal")
    if work is not None and work > MAX_SECONDS:  # None: a table past the default memory limit
        raise TooLargeError(f"{policy.name} at one seat of {N} on {name} under the rounds ending "
                            f"would take about {work / 3600:,.1f} h (the solve with the score "
                            f"cap {C - G} units past the goal, so that the policy's turns are "
                            f"never cut short, and one evaluation per seat), over the limit of "
                            f"{MAX_SECONDS / 3600:.0f} h: lower N or the goal")
    if model.falls:  # busts lower a banked score: the falls solve, its tables kept
        from designer.engine.seat_rounds_falls_match import falls_seat_solve

        return falls_seat_solve(model, G, N, C, ties=ties, name=name, memory_limit=memory_limit,
                                _timed=_timed)
    if _timed:
        _warm()
    solution, table = solve_seat_rounds_model(model, G, N, ties=ties, cap=C, _table=True,
                                              _timed=_timed)
    return SeatRoundsSolve(model, solution, table, ties, C, nt, name)


class SeatRoundsSolve:
    """The optimal seats' solve at one score cap, with its table, for
    evaluating policies at one seat (:func:`seat_rounds_solve`).

    Attributes
    ----------
    solution : SeatRoundsResult
    cap : int
    """

    def __init__(self, model, solution, table, ties, cap, nt, name):
        self.model, self.solution, self.table = model, solution, table
        self.ties, self.cap, self.nt, self.name = ties, cap, nt, name

    def profile(self, policy, unit=1):
        """Every seat's win with ``policy`` at each seat in turn, the
        others optimal (:class:`SeatRoundsProfile`).

        Raises
        ------
        ValueError
            A policy whose turns need another cap than this solve's.
        ConvergenceError
            Rounds that never end under this play.
        """
        solution, model = self.solution, self.model
        G, N = solution.goal, solution.players
        C, Tc = policy_cap(model, G, policy, self.cap, self.name)
        if C != self.cap:
            raise ValueError(f"{policy.name} needs the cap {C}, this solve has {self.cap}")
        t0 = time.perf_counter()
        H = len(solution.start_states)
        win = np.empty((G,) * N + (H, N, N))
        iters, residual = 0, 0.0
        if policy.kind == OPTIMAL:
            for a in range(N):
                win[..., a, :] = solution.win
        else:
            ev = _Evaluation(model, self.table, policy, Tc, self.nt, unit)
            opn = int(self.table[1][sk.G_OPEN])
            for a in range(N):
                Z, it, res = ev.evaluate(a)
                win[..., a, :] = Z[opn:opn + G ** N].reshape((G,) * N + (H, N))
                iters, residual = iters + it, max(residual, res)
        seconds = time.perf_counter() - t0
        return SeatRoundsProfile(win, solution, C, iters, residual, seconds)


class SeatRoundsProfile:
    """Exact wins under the rounds ending with a policy at one seat
    (:func:`seat_rounds_profile`).

    Attributes
    ----------
    win : ndarray, shape (goal - floor,) * N + (H, N, N)
        ``win[s_1 - floor, ..., s_N - floor, h, a, q]``: at the start of a
        round (seat 1 to move from ``start_states[h]``, the seats at scores
        ``s``), with the policy at seat ``a``, the win probability of seat
        ``q``.
    solution : SeatRoundsResult
        The optimal seats' solve, at ``cap``.
    cap : int
        The score cap used.
    tie_iterations : int
        Iterates of the tie rounds' start values, every place of the policy
        (where busts lower a banked score: the passes of every evaluation).
    residual : float
        The largest last change of a tie round's start values accepted (of
        an evaluation's last pass).
    floor : int
        The lowest score (below 0 where a bust's penalty can take a score
        there).
    seconds : float
        Wall time of the evaluation (the solve not counted).
    """

    def __init__(self, win, solution, cap, tie_iterations, residual, seconds):
        self.win, self.solution, self.cap = win, solution, cap
        self.tie_iterations, self.residual, self.seconds = tie_iterations, residual, seconds
        self.players, self.goal = solution.players, solution.goal
        self.floor = getattr(solution, "floor", 0)
        self.start_states = solution.start_states

    def seat_win(self, seat, start, state=0):
        """Every seat's win (seat 1 first) at the game's start, seat 1
        moving from turn state ``state``, with the policy at ``seat``
        (0-based) and the seats at ``start`` (units, seat 1 first)."""
        N, lo = self.players, self.floor
        if len(start) != N or not all(lo <= s < self.goal for s in start):
            raise DesignError(f"start {list(start)}: allowed {N} scores, each "
                              f"{lo}..{self.goal - 1}")
        h = int(np.searchsorted(self.start_states, state))
        idx = tuple(int(s) - lo for s in start) + (h, seat % N)
        return np.array(self.win[idx], dtype=float)


__all__ = ["SeatRoundsProfile", "SeatRoundsSolve", "policy_cap", "profile_estimate",
           "seat_rounds_profile", "seat_rounds_solve"]
