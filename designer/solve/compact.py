"""The compact form of a deck-game policy, saved and loaded as npz.

A turn from ``(i, j, w, c0)`` can only continue through good draws, so any
deterministic policy is exactly "draw until ``T[i, j, w, c0]`` good items have
been drawn this turn, then hold" (or reach the goal). This is the form the
Red Light paper prints; it is all that is needed to replay optimal play.
"""

from dataclasses import dataclass, field

import numpy as np

from designer.errors import DesignError
from designer.games import DeckGame


@dataclass(frozen=True, eq=False)
class CompactPolicy:
    """Draws-before-hold for every turn start of a deck game.

    Parameters
    ----------
    game : DeckGame
        The rules the table belongs to (the table covers every goal up to
        ``game.goal``).
    table : ndarray of int16, shape (goal, goal, bad, good + 1)
        ``table[i, j, w, c0]``: good draws after which the mover holds.
    name : str
        A label ("optimal", "max-score", ...).
    """

    game: DeckGame
    table: np.ndarray = field(repr=False)
    name: str = "optimal"

    def __post_init__(self):
        g = self.game
        shape = (g.goal, g.goal, g.bad, g.good + 1)
        if self.table.shape != shape:
            raise DesignError(f"policy table has shape {self.table.shape}, the game needs {shape}")

    def draws_before_hold(self, i, j, w=0, c=0):
        """Good draws the mover makes from turn start ``(i, j, w, c)``."""
        return int(self.table[i, j, w, c])

    def should_draw(self, i, j, k, w, c):
        """True if the policy draws at state ``(i, j, k, w, c)``."""
        if k == 0:
            return True
        if i + k >= self.game.goal:
            return False
        return k < self.table[i, j, w, c - k]

    def save(self, path):
        """Write the policy and its game to an ``.npz`` file."""
        g = self.game
        np.savez_compressed(path, table=self.table, bad=g.bad, good=g.good, goal=g.goal,
                            komi=g.komi, game_name=g.name, name=self.name)

    @classmethod
    def load(cls, path):
        """Read a policy written by :meth:`save`."""
        try:
            with np.load(path, allow_pickle=False) as z:
                game = DeckGame(int(z["bad"]), int(z["good"]), int(z["goal"]), int(z["komi"]),
                                str(z["game_name"]))
                table = z["table"]
                if table.dtype.kind not in "iu" or table.size and (
                        table.min() < 0 or table.max() > game.goal):
                    raise DesignError("the table holds values outside 0..goal")
                return cls(game, table.astype(np.int16), str(z["name"]))
        except DesignError as exc:
            raise DesignError(f"cannot use the policy table {path}: {exc}") from None
        except IsADirectoryError:
            raise DesignError(f"cannot read a policy from {path}: it is a folder") from None
        except Exception as exc:  # noqa: BLE001 - truncated zip, bad member, wrong dtype ...
            raise DesignError(f"cannot read a policy from {path}: not an intact policy file "
                              f"({type(exc).__name__}: {exc})") from None
