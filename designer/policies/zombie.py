"""Human-playable Zombie Dice policies and decision tables.

Each policy is a numba function ``policy(p, i, j, b, s) -> bool`` (True =
roll) of the seat ``p`` (1 or 2), the mover's banked score ``i``, the
opponent's ``j``, the turn total ``b`` and the shotguns ``s``, transcribed
exactly from their published rules (with ``i2 = i + b`` and ``h = [6, 3, 1]`` indexed by
``s``). The literal 13 is the all-yellow goal, as written there.

Whatever a policy says, the model rolls at ``b = s = 0`` (the turn's first
roll) and holds when the rules force it (player 2's winning hold, the score
cap); see :mod:`designer.solve._zombie_kernel`.

A user policy is any function of the same signature compiled with
``numba.njit``; :func:`policy_table` turns it into the decision table the
exact evaluator reads.

:class:`HumanPolicy` and :class:`TablePolicy` put the human policies and any
decision table behind the common :class:`~designer.policies.base.Policy`
interface, so that ``parse_policy``, ``compare`` and ``designer compare`` /
``play`` treat Zombie Dice like decks and dice.
"""

import numpy as np

from designer._jit import TIE, kernel
from designer.errors import DesignError
from designer.policies.base import Policy
from designer.solve.zombie import policy_shape, solve_zombie_game


@kernel
def _h(s):
    if s == 0:
        return 6
    if s == 1:
        return 3
    return 1


@kernel
def fixed_hold_at(p, i, j, b, s):
    """Roll on no shotgun, to 4 brains on one, to 1 brain on two; chase a 13+ lead."""
    i2 = i + b
    if p == 2 and j >= 13 and i2 < j:
        return True
    elif s == 0:
        return True
    elif s == 1:
        return b < 4
    else:
        return b < 1


@kernel
def minh(p, i, j, b, s):
    """As :func:`fixed_hold_at`, except when ``s == 1 and j >= 8``: ``i2 < max(13, j + 3)``."""
    if s == 1 and j >= 8:
        return i + b < max(13, j + 3)
    return fixed_hold_at(p, i, j, b, s)


@kernel
def llano(p, i, j, b, s):
    """Llano's rules."""
    i2 = i + b
    if i >= 13 or j >= 13:
        if i == j:
            return (b < _h(s)) if p == 1 else (b < 1)
        elif p == 2 and i < j:
            return (s < 2 and i2 <= j) or (s == 2 and i2 < j)
        else:
            return False
    elif s == 0:
        return i2 < max(13, j + 9) if p == 1 else i2 < 13
    elif s == 1:
        return i2 < 13 if (i >= 10 or j >= 10) else b < 4
    else:
        return b < 1


@kernel
def neller(p, i, j, b, s):
    """Neller's rules."""
    i2 = i + b
    if p == 1:
        if i >= 13 and i == j:
            return b < _h(s)
        if s == 0:
            return i2 < max(13, j + 8)
        e = 8
    else:
        if j >= 13:
            return (s < 2 and i2 <= j) or (s == 2 and i2 < j)
        if i >= 13 and i > j:
            return False
        if s == 0:
            return True
        e = 10
    if s == 1:
        return i2 < 13 if (i >= e or j >= e) else b < 4
    return b < 1


#: The built-in human policies, by name; their codes for :func:`_fill_human`.
HUMAN = {"fixed_hold_at": 0, "minh": 1, "llano": 2, "neller": 3}
_FUNCTIONS = {"fixed_hold_at": fixed_hold_at, "minh": minh, "llano": llano, "neller": neller}


@kernel
def _fill_human(code, R):
    for p in range(R.shape[0]):
        for i in range(R.shape[1]):
            for j in range(R.shape[2]):
                for b in range(R.shape[3]):
                    for s in range(R.shape[4]):
                        if code == 0:
                            r = fixed_hold_at(p + 1, i, j, b, s)
                        elif code == 1:
                            r = minh(p + 1, i, j, b, s)
                        elif code == 2:
                            r = llano(p + 1, i, j, b, s)
                        else:
                            r = neller(p + 1, i, j, b, s)
                        R[p, i, j, b, s] = r


_FILLERS = {}


def _numba_filler(fn):
    """An (uncached) jitted loop calling the user's numba function ``fn``."""
    from numba import njit

    filler = _FILLERS.get(fn)
    if filler is None:
        @njit
        def filler(R):
            for p in range(R.shape[0]):
                for i in range(R.shape[1]):
                    for j in range(R.shape[2]):
                        for b in range(R.shape[3]):
                            for s in range(R.shape[4]):
                                R[p, i, j, b, s] = fn(p + 1, i, j, b, s)
        _FILLERS[fn] = filler
    return filler


def policy_names():
    """Names :func:`policy_table` accepts besides functions and tables."""
    return ["optimal", *HUMAN]


def policy_table(game, policy, solution=None):
    """The decision table ``roll[p, i, j, b, s]`` of ``policy`` for ``game``.

    Parameters
    ----------
    game : ZombieGame
    policy : str, callable or ndarray
        ``"optimal"`` (from ``solution`` or a new solve), a human policy name
        (``fixed_hold_at``, ``minh``, ``llano``, ``neller``; hyphens
        accepted), a function ``f(p, i, j, b, s) -> bool`` (compiled with
        numba for speed; a plain Python function works, slowly), or a bool
        table of shape :func:`designer.solve.zombie.policy_shape`.
    solution : ZombieSolution, optional
        The solve of ``game`` to take ``"optimal"`` from.

    Raises
    ------
    DesignError
        Unknown name, a table of the wrong shape, or a human policy used with
        more than 3 shotguns to bust (``h[s]`` is defined for ``s < 3``).
    """
    shape = policy_shape(game)
    if isinstance(policy, np.ndarray):
        if policy.shape != shape or policy.dtype != np.bool_:
            raise DesignError(f"policy table has shape {policy.shape} and dtype {policy.dtype}, "
                              f"the game needs bool {shape}")
        return policy
    if isinstance(policy, str):
        name = policy.replace("-", "_")
        if name == "optimal":
            if solution is None:
                solution = solve_zombie_game(game)
            elif solution.game != game:
                raise DesignError("the solution given is for another game")
            return solution.policy
        if name not in HUMAN:
            raise DesignError(f"unknown Zombie Dice policy {policy!r}: choose one of "
                              f"{', '.join(policy_names())}")
        if game.bust_shotguns > 3:
            raise DesignError(f"policy {policy!r} is defined for at most 3 shotguns to bust "
                              f"(this game busts at {game.bust_shotguns})")
        R = np.zeros(shape, dtype=np.bool_)
        _fill_human(HUMAN[name], R)
        return R
    if callable(policy):
        R = np.zeros(shape, dtype=np.bool_)
        if hasattr(policy, "py_func"):  # a numba dispatcher
            _numba_filler(policy)(R)
        else:
            for idx in np.ndindex(*shape):
                p, i, j, b, s = idx
                R[idx] = bool(policy(p + 1, i, j, b, s))
        return R
    raise DesignError(f"not a Zombie Dice policy: {policy!r}")


def human_name(name):
    """The canonical name of a human policy (hyphens accepted), or None."""
    key = name.strip().lower().replace("-", "_")
    return key if key in HUMAN else None


class HumanPolicy(Policy):
    """One of the four human Zombie Dice policies, by name.

    Parameters
    ----------
    game : ZombieGame
    name : str
        ``fixed_hold_at``, ``minh``, ``llano`` or ``neller`` (hyphens accepted).
    """

    families = ("zombie",)

    def __init__(self, game, name):
        key = human_name(name)
        if key is None:
            raise DesignError(f"unknown Zombie Dice policy {name!r}: choose one of "
                              f"{', '.join(HUMAN)}")
        super().__init__(game, key)

    def _zombie_table(self):
        return policy_table(self.game, self.name)


class TablePolicy(Policy):
    """A Zombie Dice policy given by its decision table ``roll[p, i, j, b, s]``
    (or by a function ``f(p, i, j, b, s) -> bool``, tabulated once).

    Parameters
    ----------
    game : ZombieGame
    policy : ndarray or callable
        Anything :func:`policy_table` accepts except a name.
    name : str, optional
        Label in reports (default ``"table"`` or the function's name).
    """

    families = ("zombie",)

    def __init__(self, game, policy, name=None):
        if isinstance(policy, str):
            raise DesignError("TablePolicy takes a table or a function; "
                              "use parse_policy for names")
        if name is None:
            name = "table" if isinstance(policy, np.ndarray) else getattr(policy, "__name__",
                                                                          "user")
        super().__init__(game, name)
        self._source = policy

    def _zombie_table(self):
        return np.array(policy_table(self.game, self._source), dtype=np.bool_)


# -- full Zombie Dice (three colours) -------------------------------

def full_game_table(game, table):
    """A decision table of full Zombie Dice, ``roll[p, i, j, b, k]``.

    A table over the shotguns, ``roll[p, i, j, b, s]`` (every policy that
    reads only ``b``, ``s`` and the scores: the four human policies,
    ``hold-at``, ``py:`` functions, rules), is spread to every dice
    configuration ``k`` with ``s`` shotguns set aside:
    ``roll[p, i, j, b, k] = roll_s[p, i, j, b, S(k)]``. A table already over
    the configurations is returned as it is.

    Parameters
    ----------
    game : ZombieDiceGame
    table : bool ndarray
        Of shape :func:`designer.solve.zombie.policy_shape` (over ``s``) or
        :func:`designer.solve.zombie_dice.policy_shape` (over ``k``).
    """
    from designer.solve.zombie_dice import policy_shape as full_shape
    from designer.solve.zombie_dice import turn_states

    ts = turn_states(game)
    if table.shape == full_shape(game, ts):
        return table
    if table.shape != policy_shape(game):
        raise DesignError(f"a full Zombie Dice table has shape {full_shape(game, ts)} (or "
                          f"{policy_shape(game)} over the shotguns), not {table.shape}")
    return np.ascontiguousarray(table[..., ts.shotguns])


def roll_odds(game):
    """Expected brains kept and bust probability of the next roll, per turn state.

    ``gain`` is :math:`E[\\text{brains rolled} \\cdot 1\\{\\text{no bust}\\}]` (a
    bust loses the brains just rolled with the rest), ``bust`` the chance
    that the roll brings the shotguns to ``bust_shotguns``.

    Returns
    -------
    (gain, bust) : float arrays
        Indexed by the shotguns ``s`` (all-yellow game: every die thrown is
        new, :func:`designer.solve.zombie.roll_outcomes`) or by the dice
        configuration ``k`` (full game, from the exact transition arrays of
        :mod:`designer.solve.zombie_dice_states`, whose busts carry no gain).
    """
    if hasattr(game, "counts"):
        from designer.solve.zombie_dice import turn_states

        ts = turn_states(game)
        kept = ts.nxt >= 0
        gain = np.where(kept, ts.prob * ts.gain, 0.0).sum(axis=1)
        bust = np.where(ts.nxt == -1, ts.prob, 0.0).sum(axis=1)
        return gain, bust
    from designer.solve.zombie import roll_outcomes

    OB, OS, OP, _ = roll_outcomes(game)
    K = game.bust_shotguns
    s = np.arange(K)[:, None]
    busts = s + OS[None, :] >= K
    return (np.where(busts, 0.0, OP * OB).sum(axis=1), np.where(busts, OP, 0.0).sum(axis=1))


class MaxBrainsPolicy(Policy):
    """Max expected brains: roll while the roll raises the expected turn
    total, i.e. the brains it brings (when it does not bust) beat the turn
    total it risks.

    .. math::

        \\text{roll} \\iff E[\\text{brains kept from the roll}] > P(\\text{bust on the roll}) \\, b

    with both sides exact for the dice the roll will throw (the full game:
    the dice in hand and the cup's mix, :func:`roll_odds`); a tie holds. It
    ignores the scores, as a player maximising each turn's expected gain
    does.
    """

    families = ("zombie",)

    def __init__(self, game):
        super().__init__(game, "max-brains")

    def _zombie_table(self):
        g = self.game
        gain, bust = roll_odds(g)
        b = np.arange(g.cap)[:, None]
        # an exact tie holds: TIE absorbs the rounding of the two sides
        rolls = gain[None, :] > bust[None, :] * b + TIE  # [b, s or k]
        if hasattr(g, "counts"):
            from designer.solve.zombie_dice import policy_shape as full_shape

            shape = full_shape(g)
        else:
            shape = policy_shape(g)
        return np.ascontiguousarray(np.broadcast_to(rolls, shape))


class ColourBlindPolicy(Policy):
    """The optimal policy of the all-yellow game played without
    looking at colours.

    For full Zombie Dice with ``dice``, ``bust_shotguns``, ``goal``, ``komi``
    and ``cap``, the all-yellow game with the same numbers (every die 2
    brain / 2 shotgun / 2 footprint faces) is solved, and its decision at
    ``(p, i, j, b, s)`` is played at every configuration with ``s``
    shotguns: what a player who cannot tell the colours apart, and plays the
    yellow-dice optimum, does. On an all-yellow game it is the optimal
    policy.
    """

    families = ("zombie",)

    def __init__(self, game):
        super().__init__(game, "colour-blind")

    def _zombie_table(self):
        from designer.games import ZombieGame
        from designer.solve import solve

        g = self.game
        yellow = ZombieGame(2, 2, 2, g.dice, g.bust_shotguns, g.goal, g.komi, g.cap)
        return np.array(solve(yellow).policy, dtype=np.bool_)
