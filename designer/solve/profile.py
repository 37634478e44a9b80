"""Exact evaluation of an N-seat race game where the seats play different
fixed policies, the solve layer's N-player match.

The question it answers is the Fowl Play paper's first open one: how well
does two-player play carry over to three or four players? One seat plays a
two-player policy, reading the two-player state as (own score, the highest
opponent score); every other seat plays the N-player max-n optimal policy of
:func:`designer.solve.race.solve_race`. Because the seats differ, values are
kept per absolute seat and per mover; the kernel
(:mod:`designer.solve._profile_kernel`) evaluates each score tuple with one
backward sweep and an ``N x N`` linear system, tuples of equal score sum in
parallel.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from designer.errors import ConvergenceError, DesignError
from designer.games._validate import check_int


#: Policy tables a seat can read: ``OPTIMAL`` the N-player optimum, ``TWO``
#: the two-player table read at (own score, highest opponent score).
OPTIMAL, TWO = 0, 1


def profile_memory(game):
    """Bytes of the value and length tables of :func:`evaluate_profile`."""
    N, G = game.players, game.goal
    turn = game.bad * (game.good + 1) if game.family == "deck" else 1
    return G ** N * N * turn * (N + 1) * 8


def check_profile_memory(game):
    """Refuse, before anything is allocated or solved, a game whose profile
    tables (:func:`profile_memory`) would not fit in
    :func:`~designer.memory.memory_limit`."""
    from designer.memory import limit_source, memory_limit

    need, limit = profile_memory(game), memory_limit()
    if need > limit:
        raise DesignError(f"{game.name} with {game.players} players to goal {game.goal} needs "
                          f"{need / 2**30:.1f} GiB to evaluate a policy profile; the limit is "
                          f"{limit / 2**30:.1f} GiB ({limit_source()}): lower the goal")


@dataclass(frozen=True, eq=False)
class ProfileValues:
    """Exact values of an N-seat race game under a fixed policy profile.

    Attributes
    ----------
    game : DeckGame or DiceGame
        The rules (``goal`` the largest goal answered; every komi vector).
    kinds : tuple of int
        Per seat, :data:`OPTIMAL` or :data:`TWO`.
    win : ndarray
        ``win[s_1, ..., s_N, m, <turn start>, a]``: seat ``a``'s win
        probability at the turn start of mover ``m`` with the scores in
        seat order (points scored towards ``game.goal``).
    actions : ndarray
        Expected remaining actions at the same positions.
    seconds : float
        Kernel wall time.
    """

    game: object
    kinds: tuple
    win: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)
    seconds: float

    def _start(self, goal, komi):
        from designer.games._validate import start_scores

        G, N = self.game.goal, self.game.players
        goal = G if goal is None else check_int("goal", goal, 1, G)
        scores, _ = start_scores(komi, N, goal, "race")
        turn = (0,) * (self.actions.ndim - N - 1)
        return tuple(G - goal + s for s in scores) + (0,) + turn

    def seat_win(self, goal=None, komi=0):
        """Every seat's win probability at the start, seat 1 first (sums to 1)."""
        return np.array(self.win[self._start(goal, komi)], dtype=float)

    def expected_actions(self, goal=None, komi=0):
        """Expected number of actions of the game."""
        return float(self.actions[self._start(goal, komi)])


def evaluate_profile(game, kinds, optimal_table, two_table):
    """Exact values of ``game`` when seat ``s`` plays the table ``kinds[s]``.

    Parameters
    ----------
    game : DeckGame or DiceGame
        Race ending, ``game.players`` seats.
    kinds : sequence of int
        One entry per seat: :data:`OPTIMAL` or :data:`TWO`.
    optimal_table : ndarray
        The N-player policy (``SeatSolution.policy``): decks int16
        ``[s_0, ..., s_{N-1}, w, c0]``, dice bool ``[s_0, ..., s_{N-1}, k]``,
        scores from the mover.
    two_table : ndarray or None
        A two-player table of the same rules and goal (``Policy.table()``):
        decks int16 ``[i, j, w, c0]``, dice bool ``[i, j, k]``. Needed when
        some seat plays :data:`TWO`.

    Returns
    -------
    ProfileValues

    Raises
    ------
    DesignError
        The tables would not fit in memory, or a table has the wrong shape.
    ConvergenceError
        Under the profile some round of turns never ends (every seat passes).
    """
    from designer.solve._profile_kernel import evaluate_deck, evaluate_dice
    from designer.solve._rounds_common import open_order
    from designer.solve.by_sum import run_by_sum

    N, G = game.players, game.goal
    if game.ending != "race":
        raise DesignError("a policy profile is evaluated under the race ending only, "
                          f"not {game.ending!r}")
    kinds = np.array([int(k) for k in kinds], dtype=np.int64)
    if kinds.shape != (N,) or not np.isin(kinds, (OPTIMAL, TWO)).all():
        raise DesignError(f"one policy kind per seat is needed ({N} seats), got {list(kinds)}")
    check_profile_memory(game)
    if game.family == "deck":
        turn = (game.bad, game.good + 1)
        opt_shape, two_shape, dtype = (G ** N,) + turn, (G, G) + turn, np.int16
    else:
        turn = ()
        opt_shape, two_shape, dtype = (G ** N, G), (G, G, G), np.bool_
    # writable C arrays: a read-only table would compile the kernels again
    opt = np.require(optimal_table, dtype, ("C", "W")).reshape(opt_shape)
    two = (np.zeros(two_shape, dtype=dtype) if two_table is None
           else np.asarray(two_table))
    if two.shape != two_shape:
        raise DesignError(f"the two-player table has shape {two.shape}, the game needs {two_shape}")
    two = np.require(two, dtype, ("C", "W"))
    W = np.zeros((G ** N, N) + turn + (N,))
    Lt = np.zeros((G ** N, N) + turn)
    flat, tuples, groups = open_order(N, G)  # tuples by decreasing sum, runs of equal sum
    stats = np.zeros(6)
    t0 = time.perf_counter()
    if game.family == "deck":
        run_by_sum(lambda f, t, st: evaluate_deck(game.bad, game.good, G, N, kinds, opt, two, W,
                                                  Lt, f, st), flat, tuples, groups, stats)
    else:
        from designer.solve.api import scoring_pips

        pips = scoring_pips(game)
        run_by_sum(lambda f, t, st: evaluate_dice(game.faces, pips, G, N, kinds, opt, two, W, Lt,
                                                  f, st), flat, tuples, groups, stats,
                   min_chunk=16)
    seconds = time.perf_counter() - t0
    if stats[3] > 0:
        raise ConvergenceError(f"{game.name}: under this policy profile a round of turns can go "
                               f"on forever (every seat passes)")
    shape = (G,) * N + (N,) + turn
    return ProfileValues(game, tuple(int(k) for k in kinds), W.reshape(shape + (N,)),
                         Lt.reshape(shape), seconds)
