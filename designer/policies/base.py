"""The policy interface shared by every policy of every solvable family.

A policy is deterministic and bound to one game. It answers in three forms:

``table()``
    What an exact evaluation (:mod:`designer.analysis.compare`) and a replay
    (:mod:`designer.simulate.replay`) need. Decks: the compact int16 table
    ``T[i, j, w, c0]`` of good draws after which the mover holds, from every
    turn start (see :mod:`designer.policies._kernels` for the convention).
    Because a turn from ``(i, j, w, c0)`` can only continue through good draws,
    this table represents a deterministic deck policy's play exactly. Dice:
    the bool table ``roll[i, j, k]`` (shape ``(goal, goal, goal)``, entries
    with ``i + k >= goal`` unused), which already covers every state.
    Zombie Dice: the bool table ``roll[p, i, j, b, s]`` of
    :func:`designer.solve.zombie.policy_shape` (``p`` = seat - 1; full
    Zombie Dice: ``roll[p, i, j, b, k]`` over the dice configurations ``k``,
    a table over ``s`` being spread to every configuration with ``s``
    shotguns, :func:`designer.policies.zombie.full_game_table`), which
    covers every state as well.

``block(i)``
    The decision at EVERY non-terminal state with mover score ``i``, those
    beyond a turn's first hold included (the compact table cannot tell
    them). Decks: bool ``D[j, w, c, k]`` of shape
    ``(goal, bad, good + 1, min(good, goal - 1) + 1)``, meaningful where
    ``k <= c`` and ``i + k < goal``. Dice: bool ``roll[i]`` of shape
    ``(goal, goal)`` indexed ``[j, k]``, meaningful where ``i + k < goal``.
    Used for agreement; one score at a time keeps memory small.

``decisions()``
    All blocks at once, ``D[i, j, w, c, k]`` (decks) or the roll table
    (dice, Zombie Dice).

``draws(i, j, k, w, c)`` / ``rolls(i, j, k)``
    One decision, for play and for tests.

True always means "draw" (decks) or "roll" (dice). Every deck policy draws at
``k = 0`` (the first draw of a turn is forced), and a mover whose score plus
turn total reaches the goal has won: those states are terminal, no policy is
asked about them.
"""

import numpy as np

from designer.errors import DesignError
from designer.games import DeckGame, DiceGame, ZombieDiceGame, ZombieGame


class Policy:
    """Base class: subclasses set ``name`` and ``families`` and implement
    ``_deck_table`` and ``_deck_block`` (decks), ``_dice_table`` (dice)
    and/or ``_zombie_table`` (Zombie Dice): ``table()`` calls
    ``_<family>_table``, so a family is added by adding a method.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
        The rules the policy plays (deck and dice tables cover every goal up
        to ``game.goal``; Zombie Dice tables the game's goal).
    """

    #: Families this policy can play.
    families = ("deck", "dice")

    def __init__(self, game, name):
        if not isinstance(game, (DeckGame, DiceGame, ZombieGame, ZombieDiceGame)):
            what = getattr(game, "name", type(game).__name__)
            raise DesignError(f"policies play deck, dice and zombie games, not {what}")
        if game.family not in self.families:
            raise DesignError(f"the {name} policy plays {' and '.join(self.families)} games, "
                              f"not {game.family} games")
        self.game = game
        self.name = name
        self._table = None

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, game={self.game.name!r})"

    # -- the three forms ---------------------------------------------------
    def table(self):
        """The compact table (decks, int16) or the roll table (dice and
        Zombie Dice, bool).

        Computed once and cached; treat the returned array as read-only.
        """
        if self._table is None:
            t = getattr(self, f"_{self.game.family}_table")()
            if isinstance(self.game, ZombieDiceGame):
                from designer.policies.zombie import full_game_table

                t = full_game_table(self.game, t)
            t.setflags(write=False)
            self._table = t
        return self._table

    def block(self, i):
        """Decisions at every non-terminal state with mover score ``i``
        (deck and dice games)."""
        if self.game.family == "zombie":
            raise DesignError("block() is for deck and dice games; a Zombie Dice policy "
                              "answers every state with table()")
        if self.game.family == "deck":
            out = np.zeros(deck_block_shape(self.game), dtype=np.bool_)
            self._deck_block(int(i), out)
            return out
        return np.asarray(self.table()[int(i)])

    def decisions(self):
        """Every block stacked: bool ``D[i, j, w, c, k]`` (decks; one byte per
        entry, ~28 MB for Fowl Play) or ``roll[i, j, k]`` (dice)."""
        g = self.game
        if g.family != "deck":
            return np.array(self.table())
        out = np.zeros((g.goal,) + deck_block_shape(g), dtype=np.bool_)
        for i in range(g.goal):
            self._deck_block(i, out[i])
        return out

    def draws(self, i, j, k, w=0, c=0):
        """Deck games: True if the policy draws at ``(i, j, k, w, c)``."""
        g = self.game
        if g.family != "deck":
            raise DesignError("draws() is for deck games; use rolls(i, j, k) for dice")
        if not (0 <= k <= c <= g.good and 0 <= w < g.bad and 0 <= j < g.goal
                and 0 <= i and i + k < g.goal):
            raise DesignError(f"({i}, {j}, {k}, {w}, {c}) is not a non-terminal state of {g.name}")
        return bool(self.block(i)[j, w, c, k])

    def rolls(self, i, j, k):
        """Dice games: True if the policy rolls at ``(i, j, k)``."""
        g = self.game
        if g.family != "dice":
            raise DesignError("rolls() is for dice games; use draws(i, j, k, w, c) for decks")
        if not (0 <= i and 0 <= k and i + k < g.goal and 0 <= j < g.goal):
            raise DesignError(f"({i}, {j}, {k}) is not a non-terminal state of {g.name}")
        return bool(self.table()[i, j, k])

    # -- for subclasses ----------------------------------------------------
    def _deck_table(self):
        """Default: walk every chain of the decision blocks."""
        from designer.policies._kernels import table_from_block

        g = self.game
        out = np.empty((g.goal, g.goal, g.bad, g.good + 1), dtype=np.int16)
        block = np.zeros(deck_block_shape(g), dtype=np.bool_)
        for i in range(g.goal):
            self._deck_block(i, block)
            table_from_block(i, g.bad, g.good, g.goal, block, out[i])
        return out

    def _deck_block(self, i, out):
        raise NotImplementedError

    def _dice_table(self):
        raise NotImplementedError

    def _zombie_table(self):
        raise NotImplementedError


def deck_block_shape(game):
    """Shape ``(goal, bad, good + 1, min(good, goal - 1) + 1)`` of a deck block."""
    return (game.goal, game.bad, game.good + 1, min(game.good, game.goal - 1) + 1)


def dice_pips(game):
    """Pip values of the scoring faces of a dice game, as int64."""
    return np.array([f for f in range(1, game.faces + 1) if f not in game.bust_faces],
                    dtype=np.int64)
