"""Agreement of two policies: the share of decision states where they choose
the same action.

Decision states are the non-terminal states where the mover has a choice,
every one counted once, unweighted, reachable or not:

* decks: every ``(i, j, k, w, c)`` with ``0 <= i, j < goal``,
  ``0 <= w < bad``, ``1 <= k <= c <= good`` and ``i + k < goal``. The
  ``k = 0`` states (the forced first draw of a turn) are NOT counted: both
  policies must draw there. States beyond a turn's first hold count with the
  decision the policy would take there (see :mod:`designer.policies.base`).
* dice: every ``(i, j, k)`` with ``0 <= i, j < goal`` and
  ``0 <= k < goal - i``, ``k = 0`` included (holding at 0 is a legal pass);
  turn totals a die cannot produce (``k = 1`` in Pig) count as well.
* Zombie Dice: the states of :func:`decision_mask` (full game:
  :func:`full_decision_mask`).

Each family is one entry of :data:`AGREEMENT`.
"""

import numpy as np

from designer.errors import DesignError
from designer.policies._kernels import block_agreement
from designer.solve.zombie import policy_shape


def decision_mask(game):
    """Bool mask (shape of a Zombie Dice policy table) of the states
    agreement counts.

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


def _deck_agreement(a, b):
    g = a.game
    same = total = 0
    for i in range(g.goal):
        s, t = block_agreement(i, g.bad, g.good, g.goal, a.block(i), b.block(i))
        same += s
        total += t
    return same, total


def _dice_agreement(a, b):
    G = a.game.goal
    valid = np.arange(G)[:, None] + np.arange(G)[None, :] < G  # [i, k]: i + k < goal
    eq = a.table() == b.table()  # [i, j, k]
    return int((eq & valid[:, None, :]).sum()), int(valid.sum()) * G


def full_decision_mask(game):
    """:func:`decision_mask` of full Zombie Dice over the configurations
    ``k``: the mask at ``s = S(k)``, where the turn total can hold the
    brains set aside (``b >= sum(B_k)``)."""
    from designer.solve.zombie_dice import turn_states

    ts = turn_states(game)
    mask = decision_mask(game)[..., ts.shotguns]
    return mask & (np.arange(game.cap)[:, None] >= ts.brains_aside[None, :])


def _zombie_agreement(a, b):
    g = a.game
    mask = full_decision_mask(g) if hasattr(g, "counts") else decision_mask(g)
    same = np.count_nonzero((a.table() == b.table()) & mask)
    return int(same), int(np.count_nonzero(mask))


#: ``{family: agreement(a, b) -> (same, total)}``.
AGREEMENT = {"deck": _deck_agreement, "dice": _dice_agreement, "zombie": _zombie_agreement}


def policy_agreement(a, b):
    """Share of decision states where policies ``a`` and ``b`` act alike.

    See the module docstring for the states counted.

    Returns
    -------
    (float, int)
        The share and the number of decision states.
    """
    family = a.game.family
    if family not in AGREEMENT:
        raise DesignError(f"no agreement count for {family} games")
    same, total = AGREEMENT[family](a, b)
    return same / total, total
