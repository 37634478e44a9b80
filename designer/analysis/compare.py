"""Head-to-head comparison of two policies, exactly, and their agreement.

Evaluation (no simulation)
--------------------------
The match itself is evaluated in the solve layer,
:func:`designer.solve.match.match_table` (re-exported here): a backward sweep
of the layered solver per score pair with both policies fixed. This module
turns policy strings into policies, times the evaluation and counts how
often the two policies agree.

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

from designer.errors import DesignError
from designer.policies._kernels import block_agreement
from designer.policies.base import Policy
from designer.policies.parse import parse_policy
from designer.solve.api import _warm
from designer.solve.match import MatchTable, match_table

__all__ = ["Comparison", "MatchTable", "compare", "match_table", "policy_agreement"]


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
