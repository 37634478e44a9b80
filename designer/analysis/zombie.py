"""Exact comparison of Zombie Dice policies (SPEC 1.3).

A match between two fixed policies is evaluated exactly by the layered
kernel in fixed-policy mode (:func:`designer.solve.zombie.evaluate_zombie_match`):
no simulation. ``compare_zombie`` plays the policy in each seat against the
other one and reports the gap of SPEC 1.3.
"""

import time

import numpy as np

from designer.errors import DesignError
from designer.games import ZombieGame
from designer.policies.zombie import policy_table
from designer.solve.zombie import evaluate_zombie_match, policy_shape, solve_zombie_game


def decision_mask(game):
    """Bool mask (shape of a policy table) of the states ``agreement`` counts.

    A state ``(p, i, j, b, s)`` counts when the mover has a real choice in
    the solved model and its scores are in the playing range:

    * it is a state of the model: player 1 at a round ``(i, j)`` with
      ``i, j < goal`` or at the tie round ``i = j = goal``; player 2 at
      ``i < goal`` (any ``j``) or at ``i = goal <= j``;
    * it is not the turn's forced first roll (``b = s = 0``) and not a forced
      hold (player 2's winning total ``i + b >= goal, i + b > j``, or the cap);
    * ``i + b <= limit`` and ``j <= limit`` with ``limit = min(2 * goal,
      cap - 1)``, so that the count does not depend on the cap once
      ``cap > 2 * goal`` (the default cap is ``goal + 50``).
    """
    G, cap = game.goal, game.cap
    shape = policy_shape(game)
    p = np.arange(2)[:, None, None, None, None]
    i = np.arange(G + 1)[None, :, None, None, None]
    j = np.arange(cap + 1)[None, None, :, None, None]
    b = np.arange(cap)[None, None, None, :, None]
    s = np.arange(game.bust_shotguns)[None, None, None, None, :]
    seat1 = (p == 0) & (((i < G) & (j < G)) | ((i == G) & (j == G)))
    seat2 = (p == 1) & ((i < G) | (j >= G))
    end = np.where(p == 0, cap - i, np.minimum(np.maximum(G, j + 1), cap) - i)
    limit = min(2 * G, cap - 1)
    mask = ((seat1 | seat2) & (b < end) & ~((b == 0) & (s == 0))
            & (i + b <= limit) & (j <= limit))
    return np.broadcast_to(mask, shape)


def _label(policy):
    if isinstance(policy, str):
        return policy
    if isinstance(policy, np.ndarray):
        return "table"
    return getattr(policy, "__name__", repr(policy))


def compare_zombie(game, policy, against="optimal", solution=None):
    """Exact win probabilities of ``policy`` against ``against``, in both seats.

    Parameters
    ----------
    game : ZombieGame
    policy, against : str, callable or ndarray
        Anything :func:`designer.policies.zombie.policy_table` accepts:
        ``"optimal"``, ``"fixed_hold_at"``, ``"minh"``, ``"llano"``,
        ``"neller"``, a numba function ``f(p, i, j, b, s) -> bool``, or a
        decision table.
    solution : ZombieSolution, optional
        A solve of ``game`` to take the optimal policy from (solved if needed).

    Returns
    -------
    dict
        ``win_as_first``: the policy's win probability as player 1 from the
        game's start ``(0, komi)``; ``win_as_second``: as player 2;
        ``win_average``: their mean; ``gap``: ``win_as_first + win_as_second
        - 1`` (SPEC 1.3: the policy's average win rate against ``against``
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
    needs_opt = any(isinstance(x, str) and x == "optimal" for x in (policy, against))
    if needs_opt and solution is None:
        solution = solve_zombie_game(game)
    mine = policy_table(game, policy, solution)
    theirs = policy_table(game, against, solution)
    first = evaluate_zombie_match(game, mine, theirs)
    second = evaluate_zombie_match(game, theirs, mine)
    mask = decision_mask(game)
    agree = float(np.mean(mine[mask] == theirs[mask]))
    wf = first["first_player_win"]
    ws = 1.0 - second["first_player_win"]
    return {
        "game": {"name": game.name, **game.params},
        "policy": _label(policy),
        "against": _label(against),
        "win_as_first": wf,
        "win_as_second": ws,
        "win_average": (wf + ws) / 2,
        "gap": wf + ws - 1.0,
        "agreement": agree,
        "states_compared": int(mask.sum()),
        "expected_actions_as_first": first["expected_actions"],
        "expected_actions_as_second": second["expected_actions"],
        "seconds": time.perf_counter() - t0,
    }
