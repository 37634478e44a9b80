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
action: :func:`designer.analysis.agreement.policy_agreement`.

The game may be of any solvable family (deck, dice, Zombie Dice): the
family-specific parts are the policies' tables
(:class:`designer.policies.base.Policy`), the match evaluation
(:data:`designer.solve.match.MATCHES`) and the agreement count
(:data:`designer.analysis.agreement.AGREEMENT`).
"""

import time
from dataclasses import asdict, dataclass

from designer.analysis.agreement import policy_agreement
from designer.errors import DesignError
from designer.policies.base import Policy
from designer.policies.parse import parse_policy
from designer.solve.match import MatchTable, match_table, warm

__all__ = ["Comparison", "MatchTable", "compare", "match_table", "policy_agreement"]


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
    gap : float
        ``win_as_first + win_as_second - 1``: A's average win rate against B
        minus B's against A (the "gap").
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
    gap: float
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


def compare(game, policy, against, *, solution=None, with_agreement=True, progress=None):
    """Policy ``policy`` (A) against policy ``against`` (B), exactly.

    Parameters
    ----------
    game : DeckGame, DiceGame, ZombieGame or RulesGame
        The design; its komi goes to the second mover in both seatings. A
        rules-file game is evaluated by the engine
        (:func:`designer.analysis.rules_compare.compare_rules`: ``optimal``,
        ``hold-at:N``, ``max-score``, and under the race ``rule:`` and
        ``py:`` policies; no agreement under the rounds ending).
    policy, against : str or Policy
        Policy strings as on the command line (``"optimal"``,
        ``"max-score"``, ``"hold-at:5"``, ``"nn:FILE"``,
        ``"py:FILE.py:FUNC"``, ``"neller"``, ...; see
        :mod:`designer.policies.parse`) or :class:`~designer.policies.Policy`
        objects.
    solution : Solution, optional
        An exact solve of ``game``, used by ``"optimal"`` (solved and cached
        otherwise).
    with_agreement : bool
        Also count the agreement of the two policies (over all states).
    progress : callable, optional
        For a two-seat rules game in the race, ``progress(passes, change,
        what)`` for each pass where scores fall
        (:func:`designer.analysis.rules_compare.compare_rules`).

    Raises
    ------
    DesignError
        A deck or dice game with the rounds ending (only the race is
        evaluated), or a policy that does not fit the game.

    Returns
    -------
    Comparison, or SeatComparison for a game of 3-4 players
        With 3-4 players, ``policy`` is a two-player policy played at each
        seat in turn against N-player optimal play
        (:func:`designer.analysis.seat_compare.compare_seats`); ``against``
        must be ``"optimal"``.
    """
    if game.family == "rules":  # a rules-file game: the engine evaluates the match
        from designer.analysis.rules_compare import compare_rules

        return compare_rules(game, policy, against, solution=solution,
                             with_agreement=with_agreement, progress=progress)
    if game.family in ("deck", "dice") and game.ending != "race":
        # a deck or dice game's policies are evaluated under the race only;
        # Zombie Dice's own rounds are its rules (its only ending)
        raise DesignError(f"designer compare evaluates the race ending (first to the goal "
                          f"wins), not --ending {game.ending}")
    if getattr(game, "players", 2) > 2:
        from designer.analysis.seat_compare import compare_seats

        return compare_seats(game, policy, against, solution=solution)
    a = _policy(policy, game, solution)
    b = _policy(against, game, solution)
    warm(game)  # load the kernels first: ``seconds`` is evaluation time
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
                      w1 + w2 - 1.0, share, states, match.actions_as_first(),
                      match.actions_as_second(), seconds, t_agree)
