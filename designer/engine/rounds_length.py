r"""Expected game length under optimal play: two seats, the rounds ending.

Counted in actions, as everywhere: every throw or draw (a roll folded out
of the turn model counts the throws it stands for) and every stop, a pass
and the stop that wins included; a roll that ends the turn by itself (a
bust, or a turn of one throw) adds none. With the solve's tables
(:func:`designer.engine.rounds.solve_rounds_model`) every decision is
fixed, taken from the win probabilities with the solve's tie rules, and
the expected actions left ``L`` follow the turn equations with ``1 +`` per
action, in the solve's order:

final round
    Seat 2 ``d`` points behind a seat 1 at or above the goal: one turn per
    distance, ending at 0 actions when the game is decided (a win, a loss,
    a bust) and at ``L_T[h]`` when it ties a replayed round.
tie round (replay)
    Seat 1's turn of gains capped at ``cap - goal``, each stop at gain
    ``g`` handing seat 2 a final round ``g`` behind: ``L_T = f(L_T)``,
    affine in ``L_T`` and solved exactly (:func:`_tie_lengths`).
open rounds
    Pairs of scores by decreasing sum, one sweep each over both seats'
    turns; the lengths at the two feedback starts are the pair's unknowns,
    every other length is affine in them, and their two rows are solved
    exactly (:mod:`designer.engine._rounds_length_kernels`).

This is one sweep per pair and distance, about the solve's own cost; a
turn model with two or more feedback states is evaluated by the rounds
match instead (:func:`designer.engine.rounds_match.match_rounds_model`,
optimal against optimal), which gives the same numbers.
"""

import time

import numpy as np

from designer._jit import TIE, load_first
from designer.engine import _rounds_kernels as rk
from designer.engine import _rounds_length_kernels as K
from designer.engine import rounds as R
from designer.engine.model import tiny_model

#: Plain backups of the tie round's lengths tried before solving for them.
PLAIN_TIE_BACKUPS = 60
#: The plain backups are accepted when the last moved no start by more than
#: this times its length.
TIE_TOL = 1e-14


def _warm():
    def tiny():
        m = tiny_model()
        rounds_lengths(m, R.solve_rounds_model(m, 2, _timed=False), _timed=False)

    load_first((K.open_lengths,), tiny)


def _tie_lengths(model, lay, G, C, tv, scratch):
    """``L_T[h]``: expected actions from a tie round's start (replay).

    With every decision fixed, one backup ``f`` (seat 2's final rounds up
    to ``cap - goal`` behind, then seat 1's tie-round turn, a tie worth
    ``L_T``) is affine in ``L_T``: ``f(L) = c + E L``, ``E[h, h']`` the
    chance of another tie round from ``h'``. ``c`` and ``E`` are read off
    ``H + 1`` backups and ``(I - E) L_T = c`` solved; a singular system is
    play whose tie rounds never end. Plain backups from 0 are tried first
    (:data:`PLAIN_TIE_BACKUPS`; they contract by the chance of another tie
    and settle in a few where it is small)."""
    H = len(lay.starts)
    Cg = C - G
    res_v, res_l = np.zeros(H), np.zeros(H)

    def backup(lt):
        VF, LF = R.final_round(model, lay, 0, Cg, tv, lt)
        rk.turn_starts(Cg, 1.0 - VF, LF, model.min_bank, model.forced_first, TIE,
                       *R.turn_args(model, lay), lay.hidx, lay.tmin, *scratch, res_v, res_l)
        return res_l.copy()

    # most games tie again rarely: plain backups from 0 settle in a few
    LT = np.zeros(H)
    for _ in range(PLAIN_TIE_BACKUPS):
        nxt = backup(LT)
        done = np.all(np.abs(nxt - LT) <= TIE_TOL * np.maximum(1.0, nxt))
        LT = nxt
        if done:
            return LT
    c = backup(np.zeros(H))
    E = np.empty((H, H))
    for h in range(H):
        E[:, h] = backup(np.eye(H)[h]) - c
    A = np.eye(H) - E
    LT = None
    if np.linalg.cond(A) < 1e12:
        LT = np.linalg.solve(A, c)
    if LT is None or np.any(LT < 0) or np.abs(backup(LT) - LT).max() > 1e-9 * max(1.0, LT.max()):
        from designer.engine.match import endless

        raise endless("under optimal play a tie round can go on forever (no turn of it ever "
                      "scores)", model.forced_first, model.min_bank)
    return LT


def rounds_lengths(model, result, *, _timed=True):
    """Expected actions left at every round start of a two-seat rounds game
    under the solved optimal play.

    Parameters
    ----------
    model : TurnModel
    result : RoundsResult
        :func:`designer.engine.rounds.solve_rounds_model` of ``model``.

    Returns
    -------
    actions : ndarray, shape (goal, goal, H), or None
        ``actions[a, b, h]``: seat 1 to move at a round's start with ``a``
        against ``b``, the turn from ``result.start_states[h]``. None for a
        turn model with two or more feedback states (use the rounds match).
    seconds : float

    Raises
    ------
    ConvergenceError
        Optimal play can go on for ever (turns that never score).
    """
    if not result.one_feedback:
        return None, 0.0
    G, C = result.goal, result.cap
    lay = R._layout(model, C, R._order(model))
    if _timed:
        _warm()
    t0 = time.perf_counter()
    S, H, mb = model.states, len(lay.starts), model.min_bank
    replay = result.ties == "replay"
    tv = 1.0 - result.T if replay else np.zeros(H)
    Tn = max(C, mb) + 1
    scratch = (np.zeros((S, Tn)), np.zeros((S, Tn)))
    LT = _tie_lengths(model, lay, G, C, tv, scratch) if replay else np.zeros(H)
    _, LF = R.final_round(model, lay, 1, C, tv, LT)
    # the solved tables as the solve's pairs read them, and the lengths alike
    Xe = np.zeros((G, G + max(mb, 1) + 1, H))
    Xe[:, :G] = result.X
    Z = np.zeros((G, C + 1, H))
    Z[:, :G] = result.Y
    LX = np.zeros_like(Xe)
    LZ = np.zeros_like(Z)
    for b in range(G):
        Z[b, G:] = result.F[G - b:C + 1 - b]
        LZ[b, G:] = LF[G - b:C + 1 - b]
    pairs, _ = R._pairs(G)
    Tw = max(C, mb)
    cuts = R._cuts(model, lay, G, C, result.F)
    bad = K.open_lengths(pairs, G, C, mb, model.forced_first, TIE, lay.fbh, lay.blk_ptr,
                         lay.blk_states, lay.blk_tmax, lay.tmin, lay.tlen, model.cont_start,
                         model.out_start, model.out_prob, model.cont_throws, lay.oq,
                         model.opt_start, model.opt_gain, model.opt_next, lay.opt_hh, lay.hand_h,
                         lay.pass_ok, lay.hidx, Xe.reshape(-1), Z.reshape(-1), LX, LZ, *cuts, lay.simple,
                         np.zeros(2 * S * Tw), np.zeros((2 * S * Tw, 3)), np.zeros((2 * H, 3)))
    if bad >= 0:
        from designer.engine.match import endless

        raise endless(f"under optimal play the turns at scores {(bad // G, bad % G)} can go on "
                      f"forever (no turn there ever ends with a score or a win)",
                      model.forced_first, mb)
    return np.ascontiguousarray(LX[:, :G]), time.perf_counter() - t0


__all__ = ["rounds_lengths"]
