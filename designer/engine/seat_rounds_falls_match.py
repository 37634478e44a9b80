r"""A fixed policy at one seat of a 2-4 seat game under the rounds ending
where a bust can lower a banked score, the other seats playing the max-n
optimum, evaluated exactly.

The game and the rows are those of :mod:`designer.engine.seat_rounds_falls`.
Seat ``a`` plays ``hold-at:N`` (stop once the turn total is at least ``N``
where a stop is allowed, going on with the first way to go on and keeping
the option of the largest gain), ``max-score`` (maximise the points
banked this turn) or a table policy (``rule:``, ``py:``) reading its own
score and the highest other, both from the floor to the score cap; every
other seat plays the solve's decisions, each the argmax of its own win
over the solved table with the solver's ties (the optimal seats do not
know that seat ``a`` deviates). Like the optimal seats, a policy seat that
is last in its round stops as soon as stopping wins the game, and a turn
of any other seat ends at the cap: the conventions of the rounds compare
with three or four seats.

Evaluation
----------
With every decision fixed the game is a Markov chain over the solve's
rows. Its values are found by the solve's own passes over a table whose
rows hold ``2 N + 1`` numbers:

.. math::

    A[\text{row}, h] = (W_1, \dots, W_N,\; Z_1, \dots, Z_N,\; L),

``W`` the solve's wins (held: never written), ``Z`` every seat's win
under the fixed play and ``L`` its expected actions left. A turn of an
optimal seat ``m`` decides by ``W_m`` and carries every number through
the same decisions, so ``Z`` follows the solve's play; the policy seat's
turn decides by the policy. The passes iterate ``Z`` and ``L`` as the
solve iterates its table (Gauss-Seidel, a secant step where one start
state makes a round affine in its own start) until no ``Z`` moves by more
than :data:`~designer._jit.TOL` in a pass (that change is the reported
residual).

A tie among fewer seats (``replay``) reads the start of that smaller game
with the policy at the tied seats' place of seat ``a``: each smaller game
``t`` with the policy at each place ``d`` is evaluated first (two seats,
then three), its ``Z`` read where the policy seat is tied, the solve's
wins where it is not (every tied seat then plays the optimum).
"""

import time

import numpy as np

from designer._jit import threads
from designer.engine import seat_rounds_falls as SF
from designer.engine._match_kernels import MAX_SCORE, OPTIMAL, TABLE
from designer.engine.match import hold_pick, max_score_table
from designer.engine.rounds_falls_match import falls_plan
from designer.engine.solve import plan
from designer.errors import ConvergenceError

#: An evaluation of one game (the policy at one seat, or at one place of a
#: smaller game of a tie) costs about this many of the solve's estimates
#: for that game: it carries about twice the numbers through every turn.
#: Calibrated on the total (benchmarks/engine_seat_rounds_falls_match.py,
#: Two-Dice Pig to 12 with three seats, ``hold-at:10`` and a rule, two
#: cores: the estimate of the solve and the five evaluations 11.4 s, measured
#: 10.3-11.4 s; the evaluations alone 5.2-5.9 times the solve on a quiet
#: machine, 3.6-3.9 times beside a busy process).
EVALUATION_PER_SOLVE = 1.1


def _evaluations(N, replay):
    """``(t, d)`` of every game evaluated for a profile of ``N`` seats: the
    smaller games of a tie (``replay``) with the policy at each place, then
    the game with the policy at each seat."""
    sizes = range(2, N + 1) if replay else (N,)
    return [(t, d) for t in sizes for d in range(t)]


def profile_estimate(model, goal, players, policy, *, ties="replay", cap=None, nt=None,
                     name="this game"):
    """What :meth:`FallsSeatSolve.profile` and the solve before it need,
    before anything is solved: ``cap`` and ``Tc`` (the cap at which the
    policy's turns are never cut short, max-score's horizon), ``memory``
    (bytes: every table kept, the solve's and the evaluations', and the
    answer's table of every round start) and
    ``seconds`` (the solve's estimate, and each evaluation at
    :data:`EVALUATION_PER_SOLVE` solves of its game)."""
    from designer.engine.seat_rounds_match import policy_cap

    N, G = int(players), int(goal)
    C, Tc = policy_cap(model, G, policy, cap, name)
    nt = threads() if nt is None else nt
    replay = ties == "replay"
    lo = min(model.floor, 0)
    est = SF.estimate(model, G, N, ties=ties, cap=C, nt=nt)
    memory, seconds = est["memory"], est["seconds"]
    if policy.kind != OPTIMAL:
        H = len(model.start_states())
        for t, _ in _evaluations(N, replay):
            rows, _, mm, work = SF._sizes(model, t, G, C, lo, replay, nt)
            memory += rows * H * (2 * t + 1) * 8 + mm  # the table kept, the scratch
            seconds += EVALUATION_PER_SOLVE * SF.SECONDS_PER_WORK * SF.PASSES_GUESS * work
        memory += (G - lo) ** N * H * N * N * 8  # the answer: every seat's win, every start
        if policy.kind == MAX_SCORE:
            memory += model.states * Tc * 17
        if policy.kind == TABLE:
            memory += (C - lo + 1) ** 2 * falls_plan(model, C, lo)["nodes"]
    return dict(cap=C, Tc=Tc, memory=int(memory), seconds=seconds)


def falls_seat_solve(model, goal, players, cap, *, ties="replay", name="this game",
                     memory_limit=None, _timed=True):
    """The optimal seats' solve at ``cap`` (at which the policies to
    evaluate are never cut short), its tables kept to evaluate any policy
    of that cap at each seat (:meth:`FallsSeatSolve.profile`); the size is
    checked by :func:`designer.engine.seat_rounds_match.seat_rounds_solve`,
    which calls this."""
    solution, subs = SF.solve_seat_rounds_falls(model, goal, players, ties=ties, cap=cap,
                                                lengths=False, memory_limit=memory_limit,
                                                _timed=_timed, _keep=True)
    return FallsSeatSolve(model, solution, subs, ties, cap, name)


class FallsSeatSolve:
    """The optimal seats' solve at one score cap with the tables of every
    game it solved (the smaller games of a tie too), for evaluating
    policies at one seat (:func:`falls_seat_solve`).

    Attributes
    ----------
    solution : SeatRoundsFallsResult
    cap : int
    """

    def __init__(self, model, solution, subs, ties, cap, name):
        self.model, self.solution, self.subs = model, solution, subs
        self.ties, self.cap, self.name = ties, cap, name

    def profile(self, policy, unit=1):
        """Every seat's win with ``policy`` at each seat in turn, the others
        optimal (:class:`~designer.engine.seat_rounds_match.SeatRoundsProfile`,
        ``tie_iterations`` the passes of every evaluation).

        Raises
        ------
        ValueError
            A policy whose turns need another cap than this solve's.
        ConvergenceError
            Play that goes on for ever under this policy, or that does not
            settle.
        """
        from designer.engine.seat_rounds_match import SeatRoundsProfile, policy_cap

        sol, model = self.solution, self.model
        G, N, C, lo = sol.goal, sol.players, self.cap, sol.floor
        Cp, Tc = policy_cap(model, G, policy, self.cap, self.name)
        if Cp != C:
            raise ValueError(f"{policy.name} needs the cap {Cp}, this solve has {C}")
        t0 = time.perf_counter()
        H, g = len(sol.start_states), G - lo
        win = np.empty((g,) * N + (H, N, N))
        residual, passes = 0.0, 0
        if policy.kind == OPTIMAL:
            for a in range(N):
                win[..., a, :] = sol.win
        else:
            arrays = self._policy_arrays(policy, unit, Tc)
            replay = self.ties == "replay"
            evs = {}
            for t, d in _evaluations(N, replay):
                pol = (np.array([policy.kind, d, policy.n, Tc, t], dtype=np.int64), *arrays)
                A = self._first_table(t, d, evs)
                endless = ConvergenceError(
                    f"{policy.name} on {self.name}: play can go on for ever at some scores "
                    f"under this policy (with {t} seats playing, the rounds there come back "
                    "to the same scores, turn after turn passing)")
                try:
                    r = SF._solve(model, t, G, C, lo, replay, None, False, None, A=A, pol=pol)
                except ConvergenceError:  # every decision fixed: a round that never ends
                    raise endless from None
                if r.flags[0]:
                    raise endless
                evs[(t, d)] = r
                residual, passes = max(residual, r.delta), passes + r.passes
            for a in range(N):
                r = evs[(N, a)]
                block = r.A[r.geo.oa:r.geo.oa + g ** N, :, N:2 * N]
                win[..., a, :] = block.reshape((g,) * N + (H, N))
        seconds = time.perf_counter() - t0
        return SeatRoundsProfile(win, sol, C, passes, residual, seconds)

    def _policy_arrays(self, policy, unit, Tc):
        """The kernels' arrays of ``policy`` (after its numbers, as
        :func:`~designer.engine.seat_rounds_falls.no_policy` lists them):
        hold-at's option, max-score's table, a table policy's node layout
        and decisions by both scores."""
        model, G, C, lo = self.model, self.solution.goal, self.cap, self.solution.floor
        dummy = SF.no_policy(model)
        if policy.kind == MAX_SCORE:
            E, mstop, mcont = max_score_table(model, plan(model, G), Tc)
        else:
            E, mstop, mcont = dummy[2:5]
        node_base, node_len, tab = dummy[5:8]
        if policy.kind == TABLE:
            tp = falls_plan(model, C, lo)
            tab = np.ascontiguousarray(policy.table(model, G, unit, tp), dtype=np.int8)
            node_base, node_len = tp["node_base"], tp["node_len"]
        return (hold_pick(model), np.ascontiguousarray(E, dtype=np.float64),
                np.ascontiguousarray(mstop, dtype=np.bool_),
                np.ascontiguousarray(mcont, dtype=np.int64),
                np.ascontiguousarray(node_base, dtype=np.int64),
                np.ascontiguousarray(node_len, dtype=np.int64), tab)

    def _first_table(self, t, d, evs):
        """The first table of game ``t`` with the policy at seat ``d``: the
        solve's rows twice (the held wins, the first guess of the
        evaluation) and its lengths; a tie that holds seat ``d`` the start
        of that smaller game's evaluation, the policy at ``d``'s place."""
        base = self.subs[t]
        B = base.A
        A = np.empty(B.shape[:2] + (2 * t + 1,))
        A[:, :, :t] = B[:, :, :t]
        A[:, :, t:2 * t] = B[:, :, :t]
        A[:, :, 2 * t] = B[:, :, t]
        nb = self.cap - self.solution.goal + 1
        for mask, seats in SF.tie_sets(t, base.geo):
            if d not in seats:  # every tied seat plays the optimum
                continue
            k = len(seats)
            lev = evs[(k, seats.index(d))].level(nb)
            off = base.geo.tie_off[mask]
            A[off:off + nb, :, t:2 * t] = 0.0
            A[off:off + nb, :, [t + q for q in seats]] = lev[:, :, k:2 * k]
            A[off:off + nb, :, 2 * t] = lev[:, :, 2 * k]
        return A


__all__ = ["FallsSeatSolve", "falls_seat_solve", "profile_estimate"]
