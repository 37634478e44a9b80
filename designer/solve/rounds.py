"""The rounds (equal-turns) ending: validate, allocate, solve, wrap.

:func:`solve_rounds_deck` and :func:`solve_rounds_dice` take plain integers
(the rules objects only add validation and names) and return a
:class:`RoundsSolution`. The state, the layers and the cap are described in
:mod:`designer.solve._rounds_common`. Two-seat games take a faster path
with the same answers (a test compares every table): a value is one number
there, the tie and final rounds are scalar chains
(:mod:`designer.solve._rounds_two_kernel`,
:mod:`designer.solve._rounds_two_dice_kernel`) and the open rounds have the
race's pair structure, so the race's kernels solve them
(:mod:`designer.solve._deck_kernel` with ``rounds=True``,
:mod:`designer.solve._dice_kernel` with ``Mmax``).
"""

import time
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import product

import numpy as np
import pandas as pd

from designer._jit import MAX_SWEEPS as PAIR_SWEEPS
from designer._jit import TIE, TIE_ROUND_TOL, TOL, load_first
from designer.errors import ConvergenceError, ParameterError
from designer.games._validate import check_int
from designer.memory import limit_source, memory_limit
from designer.solve import _rounds_deck_kernel as dk
from designer.solve import _rounds_two_dice_kernel as dtk
from designer.solve import _rounds_two_kernel as tk
from designer.solve._classes import check_pair_stats
from designer.solve._deck_kernel import solve_deck, solve_deck_threads
from designer.solve._dice_kernel import hold_margins, solve_dice, solve_dice_threads
from designer.solve import _rounds_dice_kernel as ik
from designer.solve._rounds_common import (deck_cap, final_offsets, open_order, table_bytes,
                                           tie_offsets)
from designer.solve.by_sum import run_by_sum

#: Sweeps per score tuple before a max-n position counts as unsettled.
MAX_SWEEPS = 50
#: Iterates of a tie round's start values before it counts as unsettled.
MAX_TIE_ITER = 5000
#: Default margin of the dice cap above the goal (a test shows it is enough
#: for the printed digits; ``cap`` may be raised).
DICE_CAP_MARGIN = 60


def _check_common(players, goal, cap):
    players = check_int("players", players, 2, 4)
    goal = check_int("goal", goal, 1, 1000)
    cap = check_int("cap", cap, goal + 1, goal + 2000)
    return players, goal, cap


def _guard(players, goal, cap, deck_states):
    need, limit = table_bytes(players, goal, cap, deck_states), memory_limit()
    if need > limit:
        raise ParameterError(
            "goal", goal, f"a rounds solve of at most {limit / 2**30:.1f} GiB "
            f"({limit_source()}; this one needs {need / 2**30:.1f} GiB)")


def _stats_check(stats, what):
    if stats[3] == 2.0:
        raise ConvergenceError(f"{what}: the game can go on forever under this policy")


def solve_rounds_deck(bad, good, goal, players=2, cap=None, game=None):
    """Solve a deck game under the rounds ending for every goal <= ``goal``.

    Parameters
    ----------
    bad, good, goal : int
        The deck and the goal.
    players : int
        Seats, 2..4.
    cap : int, optional
        Score cap; default ``goal + good``, which is exact for decks (a turn
        never gains more than ``good``).
    game : object, optional
        The rules object to attach to the solution.

    Returns
    -------
    RoundsSolution
    """
    bad = check_int("bad", bad, 1, 60)
    good = check_int("good", good, 1, 400)
    cap = deck_cap(goal, good) if cap is None else cap
    N, G, C = _check_common(players, goal, cap)
    nd = bad * (good + 1)
    _guard(N, G, C, nd)
    if N == 2:
        load_first((tk.solve_two_ties, tk.solve_two_finals, solve_deck_threads),
                   lambda: _solve_two_deck(1, 1, 1, 2, None))
        return _solve_two_deck(bad, good, G, C, game)
    load_first((dk.solve_ties, dk.solve_finals, dk.solve_open),
               lambda: _solve_seats_deck(1, 1, 3, 1, 2, None))
    return _solve_seats_deck(bad, good, N, G, C, game)


def _solve_seats_deck(bad, good, N, G, C, game):
    """Any number of seats: the N-vector kernels of
    :mod:`designer.solve._rounds_deck_kernel` (for two seats the tests
    check them against :func:`_solve_two_deck`, table by table)."""
    ncap = C - G + 1
    off = final_offsets(N, G, C)
    toff = tie_offsets(N, ncap)
    Wt = np.zeros((toff[0, 0], bad, good + 1, N))
    Lt = np.zeros(Wt.shape[:3])
    Pt = np.zeros(Wt.shape[:3], dtype=np.int16)
    Wf = np.zeros((max(off[0], 1), bad, good + 1, N))
    Lf = np.zeros(Wf.shape[:3])
    Pf = np.zeros(Wf.shape[:3], dtype=np.int16)
    Wo = np.zeros((N, G ** N, bad, good + 1, N))
    Lo = np.zeros(Wo.shape[:4])
    Po = np.zeros(Wo.shape[:4], dtype=np.int16)
    flat, tuples, groups = open_order(N, G)
    stats = np.zeros(7)
    t0 = time.perf_counter()
    dk.solve_ties(N, G, C, bad, good, toff, Wt, Lt, Pt, TIE_ROUND_TOL, TIE, MAX_TIE_ITER, stats)
    dk.solve_finals(N, G, C, bad, good, off, toff, Wf, Lf, Pf, Wt, Lt, TIE)
    run_by_sum(lambda f, t, st: dk.solve_open(N, G, C, bad, good, f, t,
                                                np.array([0, len(f)], dtype=np.int64), off, Wo,
                                                Lo, Po, Wf, Lf, TIE, TOL, MAX_SWEEPS, 1, st),
                 flat, tuples, groups, stats)
    seconds = time.perf_counter() - t0
    _stats_check(stats, f"deck {bad}/{good} rounds")
    return RoundsSolution(game, N, G, C, Wo[0, :, 0, 0], Lo[0, :, 0, 0],
                          (Wo, Lo, Po, (Wf, Lf, Pf), (Wt, Lt, Pt)), float(stats[0]), int(stats[1]),
                          int(stats[4]), float(stats[5]), int(stats[6]), seconds)


def _solve_two_deck(bad, good, G, C, game):
    """Two seats: scalar tie and final rounds, then the open rounds on the
    race's pair kernel (module docs of :mod:`designer.solve._rounds_two_kernel`
    and :mod:`designer.solve._deck_kernel`)."""
    ncap = C - G + 1
    deck = (bad, good + 1)
    T0, TL0, T1, TL1 = np.zeros(deck), np.zeros(deck), np.zeros((ncap,) + deck), np.zeros((ncap,) + deck)
    P0, P1 = np.zeros(deck, dtype=np.int16), np.zeros((ncap,) + deck, dtype=np.int16)
    F, LF = np.zeros((C + 1,) + deck), np.zeros((C + 1,) + deck)
    PF = np.zeros((C + 1,) + deck, dtype=np.int16)
    # open turn starts; seat 2's table runs on past the goal into the final
    # round, as far as seat 1's chains read: a hold at a + t >= G comes
    # before the sure win at max(G - a, (good - c0 + b - a) // 2 + 1) draws,
    # so a + t <= G + good // 2 (a, b < G). (Fowl Play: 25 MB of values and
    # lengths instead of 30 MB with the whole final round.)
    ext = good // 2 + 1
    V = np.zeros((2, G, G + ext) + deck)
    L = np.zeros(V.shape)
    T = np.zeros(V.shape, dtype=np.int16)
    stats = np.zeros(7)
    pair = np.zeros(4)
    t0 = time.perf_counter()
    tk.solve_two_ties(bad, good, ncap, TIE_ROUND_TOL, TIE, MAX_TIE_ITER, T0, TL0, P0, T1, TL1, P1, stats)
    tk.solve_two_finals(bad, good, T0, TL0, F, LF, PF, TIE)
    for b in range(G):  # seat 2 at b, seat 1 at x >= G: distance d = x - b
        V[1, b, G:] = F[G - b:G - b + ext]
        L[1, b, G:] = LF[G - b:G - b + ext]
    solve_deck(bad, good, G, V, L, T, True, TOL, TIE, PAIR_SWEEPS, pair, rounds=True)
    seconds = time.perf_counter() - t0
    check_pair_stats(pair, f"deck {bad}/{good} rounds")
    stats[:3] = pair[:3]
    return _two_seat_solution(game, G, C, V, L, T, (F, LF, PF), (T0, TL0, P0), (T1, TL1, P1),
                              stats, seconds)


def _two_seat_solution(game, G, C, V, L, P, final, start, tie, stats, seconds):
    """Wrap a two-seat solve: the start tables now, the N-seat layout of
    :class:`RoundsSolution` on first use (:func:`_two_seat_layout`; most
    callers only read the start tables, and writing out the layout costs
    as much as the tie and final rounds together). ``V, L, P``: the open
    turn starts ``[seat, own score, other score, w, c]``; ``final``,
    ``start``, ``tie`` as in :func:`_two_seat_layout`."""
    v = V[0, :, :G, 0, 0].reshape(G * G)  # seat 1 to move at a fresh deck
    start_win = np.stack([v, 1.0 - v], axis=1)
    start_actions = L[0, :, :G, 0, 0].reshape(G * G).copy()
    return RoundsSolution(game, 2, G, C, start_win, start_actions,
                          partial(_two_seat_layout, G, C, V, L, P, final, start, tie),
                          float(stats[0]), int(stats[1]), int(stats[4]), float(stats[5]),
                          int(stats[6]), seconds)


def _two_seat_layout(G, C, V, L, P, final, start, tie):
    """A two-seat solve written out in the N-seat layout of
    :class:`RoundsSolution`: open tables per seat to move (scores from the
    mover on), final rows (seat 2, mask {seat 1}, distance ``d``) and tie
    rows. ``V, L, P``: the open turn starts ``[seat, own score, other
    score, w, c]`` (seat 2's beyond the goal unused); ``final = (F, LF,
    PF)`` seat 2 at distance ``d``; ``start = (T0, TL0, P0)`` the tie
    round's start and ``tie = (T1, TL1, P1)`` seat 2 at gain ``g``. The
    policy entries are None for dice.

    Returns
    -------
    tuple
        ``(win, actions, policy, final, tie)`` as the attributes of
        :class:`RoundsSolution`.
    """
    (F, LF, PF), (T0, TL0, P0), (T1, TL1, P1) = final, start, tie
    deck = V.shape[3:]
    ncap = C - G + 1
    off = final_offsets(2, G, C)
    toff = tie_offsets(2, ncap)
    Wo = np.empty((2, G * G) + deck + (2,))
    Lo = np.empty((2, G * G) + deck)
    Po = np.empty((2, G * G) + deck, dtype=np.int16)
    grid = (2, G, G) + deck  # views of the flat tables by (own score, other score)
    Lo.reshape(grid)[...] = L[:, :, :G]
    Po.reshape(grid)[...] = P[:, :, :G]
    for m in range(2):
        Wo.reshape(grid + (2,))[m, ..., m] = V[m, :, :G]
        np.subtract(1.0, V[m, :, :G], out=Wo.reshape(grid + (2,))[m, ..., 1 - m])
    Wf = np.zeros((off[0],) + deck + (2,))
    Lf = np.zeros(Wf.shape[:3])
    Pf = np.zeros(Wf.shape[:3], dtype=np.int16)
    rows = off[1] + C + np.arange(C)  # d = 1 .. C, mask {seat 1}
    Wf[rows, ..., 1] = F[1:]
    Wf[rows, ..., 0] = 1.0 - F[1:]
    Lf[rows] = LF[1:]
    Wt = np.zeros((toff[0, 0],) + deck + (2,))
    Lt = np.zeros(Wt.shape[:3])
    Pt = np.zeros(Wt.shape[:3], dtype=np.int16)
    s0 = toff[2, 0]
    Wt[s0, ..., 0], Wt[s0, ..., 1], Lt[s0] = T0, 1.0 - T0, TL0
    trows = toff[2, 1] + 2 * np.arange(ncap) + 1  # position 2 at bar g, mask {position 1}
    Wt[trows, ..., 1], Wt[trows, ..., 0], Lt[trows] = T1, 1.0 - T1, TL1
    if PF is None:
        Pf = Pt = None
    else:
        Pf[rows], Pt[s0], Pt[trows] = PF[1:], P0, P1
    return Wo, Lo, Po, (Wf, Lf, Pf), (Wt, Lt, Pt)


def solve_rounds_dice(faces, pips, goal, players=2, cap=None, game=None):
    """Solve a dice game under the rounds ending for every goal <= ``goal``.

    Parameters
    ----------
    faces : int
        Faces of the die.
    pips : sequence of int
        The pip values of the faces that do not bust (Pig: 2..6).
    goal, players : int
    cap : int, optional
        Score cap; default ``goal + DICE_CAP_MARGIN``.
    game : object, optional
        The rules object to attach to the solution.
    """
    faces = check_int("faces", faces, 2, 100)
    pips = np.asarray(pips, dtype=np.int64)
    cap = goal + DICE_CAP_MARGIN if cap is None else cap
    N, G, C = _check_common(players, goal, cap)
    _guard(N, G, C, 1)
    two = np.array([2], dtype=np.int64)
    if N == 2:
        load_first((dtk.solve_two_dice_ties, dtk.solve_two_dice_finals, solve_dice_threads),
                   lambda: _solve_two_dice(2, two, 1, 2, None))
        return _solve_two_dice(faces, pips, G, C, game)
    load_first((ik.solve_ties, ik.solve_finals, ik.solve_open),
               lambda: _solve_seats_dice(2, two, 3, 1, 2, None))
    return _solve_seats_dice(faces, pips, N, G, C, game)


def _solve_two_dice(faces, pips, G, C, game):
    """Two seats: scalar tie and final rounds
    (:mod:`designer.solve._rounds_two_dice_kernel`), then the open rounds on
    the race's pair kernel (:mod:`designer.solve._dice_kernel` with
    ``Mmax``); the tests compare every table with the N-seat kernels."""
    ncap = C - G + 1
    T1, TL1 = np.zeros(ncap), np.zeros(ncap)
    F, LF = np.zeros(C + 1), np.zeros(C + 1)
    V = np.zeros((2, G, C + 1))  # seat 2's table runs on into the final round
    L = np.zeros(V.shape)
    R = np.zeros((2, G, G, C + 1), dtype=np.bool_)
    stats = np.zeros(7)
    pair = np.zeros(4)
    final = np.arange(G, C + 1)[None, :] - np.arange(G)[:, None]  # d = x - b
    t0 = time.perf_counter()
    T0, TL0 = dtk.solve_two_dice_ties(faces, pips, ncap, TIE_ROUND_TOL, MAX_TIE_ITER, TIE, T1, TL1, stats)
    dtk.solve_two_dice_finals(faces, pips, T0, TL0, TIE, F, LF)
    V[1, :, G:] = F[final]
    L[1, :, G:] = LF[final]
    Mmax = hold_margins(faces, pips, G, F)  # where seat 1 surely holds
    solve_dice(faces, pips, G, V, L, R, True, TOL, TIE, PAIR_SWEEPS, pair, Mmax=Mmax)
    seconds = time.perf_counter() - t0
    check_pair_stats(pair, f"dice d{faces} rounds")
    stats[:3] = pair[:3]
    # the first total at which the mover holds: the first False of each
    # chain (the entry past a chain's end is never written)
    first = np.argmin(R, axis=3).astype(np.int16)[..., None, None]
    d = (1, 1)
    return _two_seat_solution(game, G, C, V[..., None, None], L[..., None, None], first,
                              (F.reshape(-1, *d), LF.reshape(-1, *d), None),
                              (np.full(d, T0), np.full(d, TL0), None),
                              (T1.reshape(-1, *d), TL1.reshape(-1, *d), None), stats, seconds)


def _solve_seats_dice(faces, pips, N, G, C, game):
    """Any number of seats: the N-vector kernels of
    :mod:`designer.solve._rounds_dice_kernel` on a die's turn graph."""
    return _solve_seats_graph(ik.dice_graph(faces, pips), N, G, C, game, f"dice d{faces} rounds",
                              True)


def _solve_seats_graph(TG, N, G, C, game, what, with_policy):
    """The N-seat rounds kernels over the turn graph ``TG``
    (:mod:`designer.solve._rounds_dice_kernel`); ``with_policy``: keep each
    open turn start's first hold (a die's whole policy) as ``policy``."""
    ncap = C - G + 1
    off = final_offsets(N, G, C)
    toff = tie_offsets(N, ncap)
    Wt = np.zeros((toff[0, 0], 1, 1, N))
    Lt = np.zeros(Wt.shape[:3])
    Wf = np.zeros((max(off[0], 1), 1, 1, N))
    Lf = np.zeros(Wf.shape[:3])
    Wo = np.zeros((N, G ** N, 1, 1, N))
    Lo = np.zeros(Wo.shape[:4])
    Ho = np.zeros(Wo.shape[:4], dtype=np.int16)
    flat, tuples, groups = open_order(N, G)
    stats = np.zeros(7)
    t0 = time.perf_counter()
    ik.solve_ties(N, G, C, TG, toff, Wt, Lt, TIE_ROUND_TOL, TIE, MAX_TIE_ITER, stats)
    ik.solve_finals(N, G, C, TG, off, toff, Wf, Lf, Wt, Lt, TIE)
    run_by_sum(lambda f, t, st: ik.solve_open(N, G, C, TG, f, t, off, Wo, Lo, Ho, Wf, Lf, TIE,
                                                TOL, MAX_SWEEPS, st),
                 flat, tuples, groups, stats, min_chunk=64)
    seconds = time.perf_counter() - t0
    _stats_check(stats, what)
    return RoundsSolution(game, N, G, C, Wo[0, :, 0, 0], Lo[0, :, 0, 0],
                          (Wo, Lo, Ho if with_policy else None, (Wf, Lf, None), (Wt, Lt, None)),
                          float(stats[0]), int(stats[1]), int(stats[4]), float(stats[5]),
                          int(stats[6]), seconds)


#: Largest Zombie rounds solve accepted, in turn-state updates (one outcome
#: of one roll from one turn state): about five minutes on 2 cores. Full
#: Zombie Dice with three players (2.6e11, about 27 minutes) is refused.
MAX_ZOMBIE_WORK = 5e10
#: Turn-state updates per second measured on 2 cores (AMD EPYC; full
#: Zombie Dice, 3 players, goal 6, cap 25: 1.7e10 in 106 s).
ZOMBIE_RATE = 1.6e8


def zombie_work(game, NXT):
    """Turn-state updates of one N-seat Zombie solve, an estimate: every open
    turn start (``goal ** N`` score tuples, ``N`` movers, two sweeps each)
    and every final-round turn start of a seat before the last, each a turn
    of up to ``cap`` totals over the configurations and their outcomes."""
    N, G, C = game.players, game.goal, game.cap
    per_turn = C * int((NXT != -2).sum())
    finals = sum((C - G + 1) * (2 ** m) * G ** (N - m) for m in range(1, N - 1))
    return float(per_turn) * (2 * N * G ** N + finals)


def _duration(seconds):
    """``5 minutes``, ``7.3 hours``."""
    if seconds < 2 * 3600:
        return f"{max(1, round(seconds / 60))} minutes"
    return f"{seconds / 3600:.1f} hours"


def solve_rounds_zombie(game):
    """Zombie Dice (all-yellow or full) with three or four seats: the N-seat rounds kernels over the game's turn graph, for
    every goal up to ``game.goal`` and every komi vector. ``policy`` is
    None (a turn's policy is a table over the dice configurations; it is
    not kept).

    Raises
    ------
    ParameterError
        Tables beyond :func:`~designer.memory.memory_limit`, or work beyond
        :data:`MAX_ZOMBIE_WORK`.
    """
    from designer.games.zombie import ZombieGame

    if isinstance(game, ZombieGame):
        from designer.solve.zombie import yellow_states

        NXT, GAIN, PROB, INV, SHOT, BMIN = yellow_states(game)
    else:
        from designer.solve.zombie_dice import _arrays, turn_states

        NXT, GAIN, PROB, INV, SHOT, BMIN = _arrays(turn_states(game))
    N, G, C = game.players, game.goal, game.cap
    _guard(N, G, C, 1)
    work = zombie_work(game, NXT)
    if work > MAX_ZOMBIE_WORK:
        raise ParameterError(
            "players", N, f"a Zombie game whose {N}-seat solve takes at most "
            f"{MAX_ZOMBIE_WORK:.0e} turn-state updates, about "
            f"{_duration(MAX_ZOMBIE_WORK / ZOMBIE_RATE)} on 2 cores (this one needs {work:.1e}, "
            f"about {_duration(work / ZOMBIE_RATE)}: use fewer players, a lower goal or cap, or "
            "fewer dice in the cup)")
    # a pass (a hold at b = 0) is open once a shotgun shows; the first roll is forced
    TG = (np.ascontiguousarray(NXT), np.ascontiguousarray(GAIN), np.ascontiguousarray(PROB),
          np.ascontiguousarray(INV), (np.asarray(SHOT) > 0).astype(np.int64),
          np.ascontiguousarray(BMIN, dtype=np.int64))
    return _solve_seats_graph(TG, N, G, C, game, game.name, False)


def _table(k, doc):
    """Entry ``k`` of :attr:`RoundsSolution.tables`, written out on first use."""
    return property(lambda self: self._tables[k], doc=doc)


@dataclass(frozen=True, eq=False)
class RoundsSolution:
    """Exact optimal (max-n) play under the rounds ending, every goal and komi.

    Attributes
    ----------
    game : object or None
        The rules object, if one was given.
    players, goal, cap : int
        Seats, the solved goal (the largest answered) and the score cap.
    start_win : ndarray, shape (goal ** players, players)
        Win probability of every seat at the start of a round, fresh deck,
        indexed by the flat base-``goal`` score tuple (seat 1 most
        significant).
    start_actions : ndarray, shape (goal ** players,)
        Expected remaining actions there.
    win, actions : ndarray
        Open-round turn starts ``[m, S_m, w, c, r]`` / ``[m, S_m, w, c]``:
        seat m to move, ``S_m`` the flat index of the scores in seat order
        m, m+1, ..., m-1 (for m = 0 the natural order).
    policy : ndarray
        Decks: int16 good draws after which the mover holds at each open
        turn start (above the goods left: never). Dice: the smallest turn
        total at which the mover holds.
    final, tie : tuple
        The final-round and generic tie-round tables (see
        :mod:`designer.solve._rounds_common`).
    tables : tuple or callable
        ``(win, actions, policy, final, tie)``, or a function that makes
        them: two-seat solves write out these N-seat tables only when one
        of the five attributes is first read.
    residual : float
        Largest Bellman residual at an accepted score tuple.
    sweeps : int
        Backward sweeps over open score tuples.
    unsettled : int
        Score tuples (and tie rounds) whose max-n policy did not settle.
    unsettled_residual : float
        Largest residual among them (0 when none).
    tie_sweeps : int
        Sweeps spent on the tie rounds.
    seconds : float
        Wall time of the kernels.
    """

    game: object
    players: int
    goal: int
    cap: int
    start_win: np.ndarray = field(repr=False)
    start_actions: np.ndarray = field(repr=False)
    tables: object = field(repr=False)
    residual: float
    sweeps: int
    unsettled: int
    unsettled_residual: float
    tie_sweeps: int
    seconds: float

    ending = "rounds"

    @cached_property
    def _tables(self):
        t = self.tables
        return t() if callable(t) else t

    win = _table(0, "Open-round win probabilities (class docs).")
    actions = _table(1, "Open-round expected remaining actions (class docs).")
    policy = _table(2, "Open-round policy (class docs).")
    final = _table(3, "Final-round tables (class docs).")
    tie = _table(4, "Tie-round tables (class docs).")

    def _komi_vector(self, komi, goal):
        N = self.players
        if np.ndim(komi) == 0:
            # one number: m >= 0 for every seat after the first, m < 0 for seat 1
            k = check_int("komi", komi, -(goal - 1), goal - 1)
            return [0] + [k] * (N - 1) if k >= 0 else [-k] + [0] * (N - 1)
        vec = [int(v) for v in komi]
        if len(vec) != N:
            raise ParameterError("komi", komi, f"one entry per seat ({N})")
        for v in vec:
            check_int("komi", v, 0, goal - 1)
        return vec

    def _index(self, goal, komi):
        G = self.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        vec = self._komi_vector(komi, goal)
        o = G - goal
        si = 0
        for v in vec:
            si = si * G + o + v
        return si

    def seat_win(self, goal=None, komi=0):
        """Each seat's win probability at the start of the game.

        Parameters
        ----------
        goal : int, optional
            Any goal ``1 <= goal <= self.goal``.
        komi : int or sequence of int
            Two players: points for seat 2 (negative: for seat 1). A list:
            the starting points of every seat, seat 1 first.

        Returns
        -------
        list of float
        """
        return [float(v) for v in self.start_win[self._index(goal, komi)]]

    def first_player_win(self, goal=None, komi=0):
        """Seat 1's win probability (the first entry of :meth:`seat_win`)."""
        return self.seat_win(goal, komi)[0]

    def expected_actions(self, goal=None, komi=0):
        """Expected number of actions (draws/rolls and holds) under optimal play."""
        return float(self.start_actions[self._index(goal, komi)])

    def fairness(self, goal=None, komi=0):
        """``max_s |P_s - 1/N|``."""
        p = np.array(self.seat_win(goal, komi))
        return float(np.max(np.abs(p - 1.0 / self.players)))

    def _plane(self, goal):
        """Every komi vector with one entry 0 (shifting all entries is another
        goal), and the seat probabilities there."""
        G, N = self.goal, self.players
        goal = G if goal is None else check_int("goal", goal, 1, G)
        o = G - goal
        vecs = np.array([v for v in product(range(goal), repeat=N) if min(v) == 0],
                        dtype=np.int64)
        si = np.zeros(len(vecs), dtype=np.int64)
        for s in range(N):
            si = si * G + o + vecs[:, s]
        return goal, vecs, self.start_win[si], self.start_actions[si]

    def fair_komi(self, goal=None):
        """The fairest komi: an int for two players (negative: seat 1 gets the
        points), else the vector (seat 1 first) with the smallest fairness.

        Ties go to the smallest total komi, then to the first in seat order.
        """
        _, vecs, p, _ = self._plane(goal)
        fair = np.max(np.abs(p - 1.0 / self.players), axis=1)
        key = np.lexsort((np.arange(len(vecs)), vecs.sum(axis=1), np.round(fair, 15)))
        best = vecs[key[0]]
        if self.players == 2:
            return int(best[1] - best[0])
        return [int(v) for v in best]

    def to_frame(self):
        """Every (goal, komi vector) design the solve answers, one row each.

        Columns: ``goal``, ``komi`` (two players: an int, negative for seat 1;
        otherwise a tuple), ``seat_1..seat_N`` win probabilities,
        ``expected_actions``, ``fairness``.
        """
        rows = []
        N = self.players
        for g in range(1, self.goal + 1):
            _, vecs, p, act = self._plane(g)
            df = pd.DataFrame(p, columns=[f"seat_{s + 1}" for s in range(N)])
            if N == 2:
                df.insert(0, "komi", vecs[:, 1] - vecs[:, 0])
            else:
                df.insert(0, "komi", [tuple(int(x) for x in v) for v in vecs])
            df.insert(0, "goal", g)
            df["expected_actions"] = act
            df["fairness"] = np.max(np.abs(p - 1.0 / N), axis=1)
            rows.append(df)
        return pd.concat(rows, ignore_index=True)

    def komi_table(self, goal=None, max_komi=10):
        """Seat win probabilities for one-number komis ``-max_komi..max_komi``
        (two players) or ``0..max_komi`` for every seat after the first.

        Returns
        -------
        pandas.DataFrame
            Columns ``komi``, ``first_player_win``, ``seat_win`` (a list;
            three or more players only), ``expected_actions``.
        """
        g = self.goal if goal is None else check_int("goal", goal, 1, self.goal)
        top = min(check_int("max_komi", max_komi, 0), g - 1)
        lo = -top if self.players == 2 else 0
        rows = []
        for k in range(lo, top + 1):
            p = self.seat_win(g, k)
            row = {"komi": k, "first_player_win": p[0]}
            if self.players > 2:
                row["seat_win"] = p
            row["expected_actions"] = self.expected_actions(g, k)
            rows.append(row)
        return pd.DataFrame(rows)

    def summary(self, max_komi=10):
        """The headline figures at the game's own goal and komi, as a dict.

        The keys of :meth:`designer.solve.solution.Solution.summary` plus
        ``players``, ``ending``, ``seat_win``, ``fairness``,
        ``fair_komi_seat_win``, ``fair_komi_fairness``, ``cap``,
        ``unsettled_positions`` and ``unsettled_residual``; ``states`` counts
        the score tuples (``goal ** players``), not the turn states.
        """
        g = self.game
        komi = list(g.start_scores) if g is not None else [0] * self.players
        fk = self.fair_komi()
        table = self.komi_table(max_komi=max_komi)
        seat = self.seat_win(komi=komi)
        fk_seat = self.seat_win(komi=fk)
        return {
            "game": {"name": g.name, **g.params} if g is not None else {},
            "players": self.players,
            "ending": "rounds",
            "first_player_win": seat[0],
            "seat_win": seat,
            "fairness": self.fairness(komi=komi),
            "expected_actions": self.expected_actions(komi=komi),
            "fair_komi": fk,
            "fair_komi_first_player_win": fk_seat[0],
            "fair_komi_seat_win": fk_seat,
            "fair_komi_fairness": self.fairness(komi=fk),
            "komi_table": [
                {k: (float(v) if k != "komi" and np.ndim(v) == 0 else
                     int(v) if k == "komi" else [float(x) for x in v]) for k, v in r.items()}
                for r in table.to_dict("records")
            ],
            "states": int(self.start_win.shape[0]),
            "cap": self.cap,
            "residual": float(self.residual),
            "unsettled_positions": int(self.unsettled),
            "unsettled_residual": float(self.unsettled_residual),
            "sweeps": int(self.sweeps),
            "seconds": float(self.seconds),
        }


def rounds_bytes(game):
    """Bytes of the tables a rounds solve of a deck or dice ``game``
    allocates, with the default cap: what the solve checks against
    :func:`~designer.memory.memory_limit` before allocating anything."""
    if game.family == "deck":
        return table_bytes(game.players, game.goal, deck_cap(game.goal, game.good),
                           game.bad * (game.good + 1))
    return table_bytes(game.players, game.goal, game.goal + DICE_CAP_MARGIN, 1)


def solve_rounds(game):
    """Solve a :class:`DeckGame` or :class:`DiceGame` whose ``ending`` is
    ``"rounds"`` (for every goal up to ``game.goal`` and every komi)."""
    if game.family == "deck":
        return solve_rounds_deck(game.bad, game.good, game.goal, game.players, game=game)
    if game.family == "dice":
        from designer.solve.api import scoring_pips

        return solve_rounds_dice(game.faces, scoring_pips(game), game.goal, game.players,
                                 game=game)
    raise ParameterError("ending", "rounds", f"deck or dice games (not {game.family})")
