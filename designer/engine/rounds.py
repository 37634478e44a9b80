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

This is a plain solver of its own over the engine's
:class:`~designer.engine.model.TurnModel` (it does not reuse the race's
kernels), written for correctness first. Scores never fall here (a model
whose busts can lower a banked score is refused).

Values are per seat to move within the round, in three kinds of turn:

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
    starts the same tie round, so ``T`` is iterated to its fixed point.

The open rounds are solved pair by pair in decreasing ``a + b``: a hold
moves to a larger sum, and a round in which both seats score nothing
returns to the same pair, the only cycle. Inside a pair the unknowns are
the ``H`` start values ``X[a, b, :]``; every in-turn value is carried as an
affine function of them (``K = H + 1`` coefficients), and policy iteration
(sweep at the estimate, solve the policy's linear system) settles the pair.

Ties between actions follow the race solver's rule: stopping wins a tie, except at a turn
total of 0 (a pass), where continuing wins; among continuations and options
the one listed first wins.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from designer._jit import TIE, kernel
from designer.engine.model import BUST, CHOOSE, END
from designer.errors import ConvergenceError, DesignError

#: Tie rules of the rounds ending.
TIE_RULES = ("replay", "earlier-seat")
#: Default margin of the score cap above the goal, in the model's units
#: (as today's dice solver: :data:`designer.solve.rounds.DICE_CAP_MARGIN`).
CAP_MARGIN = 60
#: A pair (or the tie round) is accepted when one greedy backup moves no
#: start value by more than this.
PAIR_TOL = 1e-14
#: Policy-iteration steps per pair before giving up.
MAX_STEPS = 200
#: Iterates of the tie round before giving up.
MAX_TIE_ITER = 100_000


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
        Policy-iteration steps over all pairs.
    seconds : float
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

    def value(self, a, b, state=0):
        """Seat 1's win probability at a round's start, scores ``(a, b)``."""
        h = int(np.searchsorted(self.start_states, state))
        return float(self.X[a, b, h])


def _order(model):
    """States so that a zero-gain move ``s -> s'`` puts ``s'`` first."""
    from graphlib import CycleError, TopologicalSorter

    ts = TopologicalSorter({s: [] for s in range(model.states)})
    for s in range(model.states):
        for c in range(model.cont_start[s], model.cont_start[s + 1]):
            for o in range(model.out_start[c], model.out_start[c + 1]):
                if model.out_kind[o] == CHOOSE and model.out_prob[o] > 0.0:
                    for r in range(model.opt_start[o], model.opt_start[o + 1]):
                        if model.opt_gain[r] == 0:
                            ts.add(s, int(model.opt_next[r]))
    try:
        return np.array(list(ts.static_order()), dtype=np.int64)
    except CycleError as exc:
        raise DesignError("the rounds ending does not solve yet turns that can return to a "
                          "state without scoring through other states or through a choice (" +
                          model.describe(exc.args[1][0]) + "); a roll that brings the turn "
                          "straight back to the same state is solved") from None


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


def solve_rounds_model(model, goal, *, ties="replay", start=(0, 0), cap=None):
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

    Returns
    -------
    RoundsResult
    """
    goal = int(goal)
    if goal < 1:
        raise DesignError(f"invalid goal={goal}: allowed goal >= 1")
    if ties not in TIE_RULES:
        raise DesignError(f"invalid ties={ties!r}: allowed " + " or ".join(map(repr, TIE_RULES)))
    if model.falls:
        raise DesignError("the rounds ending does not take yet a game whose busts lower a "
                          "banked score")
    if not all(0 <= s < goal for s in start):
        raise DesignError(f"start scores {tuple(start)}: each must be 0..{goal - 1}")
    C = goal + CAP_MARGIN if cap is None else int(cap)
    if C <= goal:
        raise DesignError(f"invalid cap={C}: allowed cap > goal = {goal}")
    G = goal
    t0 = time.perf_counter()
    order = _order(model)
    starts = model.start_states()
    H = len(starts)
    hidx = np.full(model.states, -1, dtype=np.int64)
    hidx[starts] = np.arange(H)
    out_h = np.where(model.out_kind != CHOOSE, hidx[np.maximum(model.out_next, 0)], 0)
    hand_h = hidx[model.handover]
    mb = model.min_bank
    S = model.states
    arrs = (order, model.cont_start, model.out_start, model.out_prob, model.out_kind,
            model.out_points, out_h, model.opt_start, model.opt_gain, model.opt_next, hand_h,
            mb, model.forced_first)
    empty = np.zeros(0)

    def turn(T, stopv, x):
        K = stopv.shape[2]
        W = np.zeros((S, max(T, 1), K))
        best = np.zeros((S, K))
        res = np.zeros((H, K))
        _turn(T, stopv, x, *arrs, W, np.zeros(K), best, starts, res)
        return res

    # -- the tie round (replay) --------------------------------------------
    Cg = C - G
    Tv = np.full(H, 0.5)
    if ties == "replay":
        for _ in range(MAX_TIE_ITER):
            S2 = np.empty((Cg + 1, H))  # seat 2's value after seat 1's gain g
            for g in range(Cg + 1):
                T2 = max(g + 1, mb)
                sv = np.zeros((T2 + 1, H, 1))
                sv[g + 1:, :, 0] = 1.0
                sv[g, :, 0] = 1.0 - Tv
                S2[g] = turn(T2, sv, empty)[:, 0]
            sv = (1.0 - S2)[:, :, None]
            new = turn(Cg, np.ascontiguousarray(sv), empty)[:, 0]
            change = float(np.abs(new - Tv).max())
            Tv = new
            if change <= PAIR_TOL * 0.01:
                break
        else:
            raise ConvergenceError("the tie round did not settle")
    # -- the final round ---------------------------------------------------
    F = np.zeros((C + 1, H))
    for d in range(1, C + 1):
        T2 = max(d + 1, mb)
        sv = np.zeros((T2 + 1, H, 1))
        sv[d + 1:, :, 0] = 1.0
        if ties == "replay":
            sv[d, :, 0] = 1.0 - Tv
        F[d] = turn(T2, sv, empty)[:, 0]
    # -- the open rounds ---------------------------------------------------
    X = np.zeros((G, G, H))
    Y = np.zeros((G, G, H))
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
    seconds = time.perf_counter() - t0
    positions = _positions(model, G, C)
    h0 = int(hidx[0])
    return RoundsResult(float(X[start[0], start[1], h0]), G, C, ties, tuple(start), X, Y, F, Tv,
                        starts, positions, residual, steps, seconds)


def _positions(model, goal, cap):
    """In-turn positions the open rounds sweep (:attr:`RoundsResult.states`)."""
    G, mb = goal, model.min_bank
    a = np.arange(G)
    per_a = (cap - a).sum() * G
    per_b = np.maximum(G - a, mb).sum() * G
    return int(model.states * (per_a + per_b))


#: Seconds per in-turn position and outcome, measured here (Pig, The Great
#: Rolled Ones: about 1e-8 with policy iteration's few steps per pair).
SECONDS_PER_WORK = 1.5e-8


def rounds_estimate(model, goal, cap=None):
    """What :func:`solve_rounds_model` needs, before solving: ``positions``,
    ``start_states``, ``memory`` (bytes) and a rough ``seconds``."""
    if model.falls:
        raise DesignError("the rounds ending does not take yet a game whose busts lower a "
                          "banked score")
    _order(model)
    C = goal + CAP_MARGIN if cap is None else int(cap)
    H = len(model.start_states())
    positions = _positions(model, goal, C)
    per_state = (model.outcomes + len(model.opt_gain)) / model.states
    memory = (2 * goal * goal * H + (C + 1) * H) * 8 + model.states * (2 * C + 2) * (H + 1) * 8
    return dict(positions=positions, start_states=H, memory=memory,
                seconds=0.01 + SECONDS_PER_WORK * 3 * positions * per_state, at_least=False)


__all__ = ["CAP_MARGIN", "RoundsResult", "TIE_RULES", "rounds_estimate", "solve_rounds_model"]
