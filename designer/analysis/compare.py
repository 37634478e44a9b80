"""Exact head-to-head evaluation of two fixed policies, and their agreement.

Evaluation (no simulation)
--------------------------
A match between policy A (player 0) and policy B (player 1) is a Markov chain
on the states ``(mover, i, j, k, w, c)``. The layered solver of SPEC section 3
evaluates it exactly: with both compact tables fixed, the kernels run in their
two-player mode (``optimize=False``), where each score pair's unknowns are the
turn-start values of both players at a fresh deck (decks) or at ``k = 0``
(dice). One backward sweep per pair gives them as the solution of a 2 x 2
linear system, so the whole match costs one sweep per score pair:

.. math::

    V_p(i, j, k, w, c) = \\begin{cases}
      1 & i + k \\ge goal \\\\
      1 - V_{1-p}(j, i + k, 0, w, c) & \\text{player } p \\text{ holds} \\\\
      \\frac{c_{rem}}{n} V_p(i, j, k+1, w, c+1)
        + \\frac{w_{rem}}{n} (1 - V_{1-p}(j, i, 0, w', c')) & \\text{draws}
    \\end{cases}

``V_p`` is the win probability of the mover when the mover is player ``p``.
The game's komi goes to the second player: A moving first wins with
``V_0(0, komi, 0, 0, 0)``; A moving second wins with
``1 - V_1(0, komi, 0, 0, 0)``. The tables cover every goal up to the game's
(scores offset by ``game.goal - goal``) and every komi.

Agreement
---------
The share of decision states at which the two policies choose the same
action. Decision states are the non-terminal states where the mover has a
choice, every one counted once, unweighted, reachable or not:

* decks: every ``(i, j, k, w, c)`` with ``0 <= i, j < goal``,
  ``0 <= w < bad``, ``1 <= k <= c <= good`` and ``i + k < goal``. The
  ``k = 0`` states (the forced first draw of a turn) are NOT counted: both
  policies must draw there. States beyond a turn's first hold count with the
  decision the policy would take there (see :mod:`designer.policies.base`).
* dice: every ``(i, j, k)`` with ``0 <= i, j < goal`` and
  ``0 <= k < goal - i``, ``k = 0`` included (holding at 0 is a legal pass);
  turn totals a die cannot produce (``k = 1`` in Pig) count as well.
"""

import time
from dataclasses import asdict, dataclass

import numpy as np

from designer._jit import MAX_SWEEPS, TIE, TOL
from designer.errors import ConvergenceError, DesignError
from designer.games._validate import check_int
from designer.policies._kernels import block_agreement
from designer.policies.base import Policy, dice_pips
from designer.solve._deck_kernel import solve_deck
from designer.solve._dice_kernel import solve_dice


@dataclass(frozen=True, eq=False)
class MatchTable:
    """Exact values of every position of a match between two fixed policies.

    Attributes
    ----------
    game : DeckGame or DiceGame
    win, actions : ndarray, shape ``(2,) + turn-start shape``
        ``win[p, i, j, ...]``: win probability of the mover at turn start
        when the mover is player ``p`` (0 = policy A, 1 = policy B);
        ``actions``: expected remaining actions (draws, rolls and holds).
    """

    game: object
    win: np.ndarray
    actions: np.ndarray

    def start(self, goal=None, komi=None):
        """Turn-start indices ``(i, j)`` of the first mover of (goal, komi)."""
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        komi = self.game.komi if komi is None else komi
        komi = check_int("komi", komi, 0, goal - 1)
        return G - goal, G - goal + komi

    def _at(self, arr, p, i, j):
        return float(arr[(p, i, j) + (0,) * (arr.ndim - 3)])

    def win_as_first(self, goal=None, komi=None):
        """A's win probability when A moves first (B starts with ``komi``)."""
        i, j = self.start(goal, komi)
        return self._at(self.win, 0, i, j)

    def win_as_second(self, goal=None, komi=None):
        """A's win probability when B moves first (A starts with ``komi``)."""
        i, j = self.start(goal, komi)
        return 1.0 - self._at(self.win, 1, i, j)

    def actions_as_first(self, goal=None, komi=None):
        """Expected actions of the game when A moves first."""
        i, j = self.start(goal, komi)
        return self._at(self.actions, 0, i, j)

    def actions_as_second(self, goal=None, komi=None):
        """Expected actions of the game when B moves first."""
        i, j = self.start(goal, komi)
        return self._at(self.actions, 1, i, j)


def _check(stats, what):
    if stats[3] == 2.0:
        raise ConvergenceError(f"{what}: the game can go on forever under these policies "
                               f"(no turn ever banks enough points to finish)")
    if stats[3] == 1.0:
        raise ConvergenceError(f"{what}: a score pair did not converge (residual {stats[0]:.3g})")


def match_table(game, table_a, table_b):
    """Evaluate a match between two policy tables exactly.

    Parameters
    ----------
    game : DeckGame or DiceGame
    table_a, table_b : ndarray
        :meth:`Policy.table` of the two players (int16 compact tables for
        decks, bool roll tables for dice).

    Returns
    -------
    MatchTable

    Raises
    ------
    ConvergenceError
        If the match can last forever (e.g. two dice players that always
        pass, or deck players that never hold and cannot reach the goal in
        one turn).
    """
    from designer.solve.api import _warm

    _warm()
    stats = np.zeros(4)
    if game.family == "deck":
        T = np.ascontiguousarray(np.stack([table_a, table_b]), dtype=np.int16)
        V = np.zeros(T.shape)
        L = np.zeros(T.shape)
        solve_deck(game.bad, game.good, game.goal, V, L, T, False, TOL, TIE, MAX_SWEEPS, stats)
    else:
        R = np.ascontiguousarray(np.stack([table_a, table_b]), dtype=np.bool_)
        V = np.zeros(R.shape[:3])
        L = np.zeros(R.shape[:3])
        solve_dice(game.faces, dice_pips(game), game.goal, V, L, R, False, TOL, TIE,
                   MAX_SWEEPS, stats)
    _check(stats, game.name)
    return MatchTable(game, V, L)


def policy_agreement(a, b):
    """Share of decision states where policies ``a`` and ``b`` act alike.

    See the module docstring for the states counted.

    Returns
    -------
    (float, int)
        The share and the number of decision states.
    """
    g = a.game
    same = total = 0
    if g.family == "deck":
        for i in range(g.goal):
            s, t = block_agreement(i, g.bad, g.good, g.goal, a.block(i), b.block(i))
            same += s
            total += t
    else:
        G = g.goal
        valid = np.arange(G)[:, None] + np.arange(G)[None, :] < G  # [i, k]: i + k < goal
        eq = a.table() == b.table()  # [i, j, k]
        same = int((eq & valid[:, None, :]).sum())
        total = int(valid.sum()) * G
    return same / total, total


@dataclass(frozen=True)
class Comparison:
    """Policy A against policy B, exactly, at the game's goal and komi.

    Attributes
    ----------
    game : str
        The game's display name.
    goal, komi : int
        The design evaluated (komi goes to whoever moves second).
    policy, against : str
        Names of policy A and policy B.
    win_as_first : float
        A's win probability when A moves first.
    win_as_second : float
        A's win probability when B moves first.
    win_average : float
        The mean of the two (A's win rate with seats alternated).
    agreement : float or None
        Share of decision states where A and B choose the same action (see
        the module docstring); None when not computed.
    states : int
        Number of decision states the agreement counts (0 when not computed).
    actions_as_first, actions_as_second : float
        Expected number of actions of the game in each seating.
    seconds : float
        Wall time of the exact evaluation: building both policy tables (if
        not built yet) and the match kernel; solving for ``optimal`` and
        loading the kernels are not included, nor is the agreement.
    agreement_seconds : float
        Wall time of the agreement count.
    """

    game: str
    goal: int
    komi: int
    policy: str
    against: str
    win_as_first: float
    win_as_second: float
    win_average: float
    agreement: float | None
    states: int
    actions_as_first: float
    actions_as_second: float
    seconds: float
    agreement_seconds: float

    def to_dict(self):
        """The fields as a plain dict (JSON-ready)."""
        return asdict(self)


def _policy(spec, game, solution):
    if isinstance(spec, Policy):
        if spec.game.params | {"komi": 0} != game.params | {"komi": 0}:
            raise DesignError(f"policy {spec.name!r} is bound to {spec.game.describe()}, "
                              f"not {game.describe()}")
        return spec
    if isinstance(spec, str):
        from designer.policies.parse import parse_policy

        return parse_policy(spec, game, solution=solution)
    raise DesignError(f"a policy must be a policy string or a Policy, not {type(spec).__name__}")


def compare(game, policy, against, *, solution=None, with_agreement=True):
    """Policy ``policy`` (A) against policy ``against`` (B), exactly.

    Parameters
    ----------
    game : DeckGame or DiceGame
        The design; its komi goes to the second mover in both seatings.
    policy, against : str or Policy
        Policy strings as on the command line (``"optimal"``,
        ``"max-score"``, ``"hold-at:5"``, ``"nn:FILE"``,
        ``"py:FILE.py:FUNC"``) or :class:`~designer.policies.Policy` objects.
    solution : Solution, optional
        An exact solve of ``game``, used by ``"optimal"`` (solved and cached
        otherwise).
    with_agreement : bool
        Also count the agreement of the two policies (over all states).

    Returns
    -------
    Comparison
    """
    from designer.solve.api import _warm

    a = _policy(policy, game, solution)
    b = _policy(against, game, solution)
    _warm()  # load the kernels first: ``seconds`` is evaluation time
    t0 = time.perf_counter()
    match = match_table(game, a.table(), b.table())
    seconds = time.perf_counter() - t0
    share, states, t_agree = None, 0, 0.0
    if with_agreement:
        t0 = time.perf_counter()
        share, states = policy_agreement(a, b)
        t_agree = time.perf_counter() - t0
    w1, w2 = match.win_as_first(), match.win_as_second()
    return Comparison(game.name, game.goal, game.komi, a.name, b.name, w1, w2, (w1 + w2) / 2,
                      share, states, match.actions_as_first(), match.actions_as_second(),
                      seconds, t_agree)
