"""Exact comparison of Zombie Dice policies, in the form of a dict.

Zombie Dice plays through the common API: :func:`designer.analysis.compare`
takes the same policy strings and :class:`~designer.policies.Policy` objects
as for decks and dice. ``compare_zombie`` is that comparison for the inputs
the Zombie Dice module has always taken (a name, a function
``f(p, i, j, b, s)`` or a decision table), reported as a dict with the gap
of
"""

import time

import numpy as np

from designer.analysis.agreement import decision_mask
from designer.analysis.compare import compare
from designer.errors import DesignError
from designer.games import ZombieGame
from designer.policies.base import Policy
from designer.policies.builtin import OptimalPolicy
from designer.policies.zombie import TablePolicy, human_name
from designer.policies.parse import parse_policy

__all__ = ["compare_zombie", "decision_mask"]


def _as_policy(game, policy, solution):
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, str):
        if policy.strip().lower() == "optimal":
            return OptimalPolicy(game, solution)
        key = human_name(policy)
        return parse_policy(key if key else policy, game, solution=solution)
    if isinstance(policy, np.ndarray) or callable(policy):
        return TablePolicy(game, policy)
    raise DesignError(f"not a Zombie Dice policy: {policy!r}")


def compare_zombie(game, policy, against="optimal", solution=None):
    """Exact win probabilities of ``policy`` against ``against``, in both seats.

    Parameters
    ----------
    game : ZombieGame
    policy, against : str, callable, ndarray or Policy
        A policy string (``"optimal"``, ``"fixed_hold_at"``, ``"minh"``,
        ``"llano"``, ``"neller"``, ``"hold-at:N"``, ``"py:FILE.py:FUNC"``),
        a function ``f(p, i, j, b, s) -> bool`` (numba-compiled or plain), a
        decision table, or a :class:`~designer.policies.Policy`.
    solution : ZombieSolution, optional
        A solve of ``game`` to take the optimal policy from (solved if needed).

    Returns
    -------
    dict
        ``win_as_first``: the policy's win probability as player 1 from the
        game's start ``(0, komi)``; ``win_as_second``: as player 2;
        ``win_average``: their mean; ``gap``: ``win_as_first + win_as_second
        - 1`` (the policy's average win rate against ``against``
        minus ``against``'s average win rate against it); ``agreement``: the
        share of the states of :func:`decision_mask` where the two policies
        choose the same action; ``states_compared``: their number;
        ``expected_actions_as_first`` / ``_as_second``; ``policy``,
        ``against``, ``game``; ``seconds`` (wall time of the whole
        comparison, the optimal solve included when one was needed).
    """
    if not isinstance(game, ZombieGame):
        raise DesignError(f"compare_zombie needs a ZombieGame, not {type(game).__name__}")
    t0 = time.perf_counter()
    a = _as_policy(game, policy, solution)
    b = _as_policy(game, against, solution)
    r = compare(game, a, b)
    return {
        "game": {"name": game.name, **game.params},
        "policy": r.policy,
        "against": r.against,
        "win_as_first": r.win_as_first,
        "win_as_second": r.win_as_second,
        "win_average": r.win_average,
        "gap": r.gap,
        "agreement": r.agreement,
        "states_compared": r.states,
        "expected_actions_as_first": r.actions_as_first,
        "expected_actions_as_second": r.actions_as_second,
        "seconds": time.perf_counter() - t0,
    }
