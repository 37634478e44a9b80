"""Deck jeopardy games: Fowl Play, Red Light and every bad/good count.

A shared container holds ``bad`` bad items and ``good`` good items. A turn is
a run of draws without replacement; each good item adds 1 to the turn total
``k``; after a good draw the mover may draw again or hold (bank ``k``); a bad
item ends the turn with nothing banked. When the last bad item is drawn the
whole container is returned and shuffled before the next turn. The first
player to reach ``goal`` wins; the second player starts with ``komi`` points.

``players`` seats (2..4) share one container and move in order;
``ending`` is ``"race"`` (first to the goal) or ``"rounds"`` (equal turns).
The komi is one integer or a list with one entry per seat, see
:func:`designer.games._validate.start_scores`.
"""

from dataclasses import dataclass

from designer.errors import ParameterError
from designer.games._validate import (check_ending, check_int, check_players, describe_seats,
                                      komi_param, seat_params, start_scores)

#: Upper bounds that keep one solve within a few hundred MB and minutes.
MAX_BAD = 60
MAX_GOOD = 400
MAX_GOAL = 1000
#: Largest turn-start table (goal * goal * bad * (good + 1) entries) accepted.
MAX_TABLE = 60_000_000


@dataclass(frozen=True)
class DeckGame:
    """Rules of a deck game; immutable and validated on construction.

    Parameters
    ----------
    bad : int
        Number of bad items (wolves, red chips), ``1 <= bad <= 60``.
    good : int
        Number of good items (chickens, green chips), ``1 <= good <= 400``.
    goal : int
        Points needed to win, ``1 <= goal <= 1000``.
    komi : int or sequence of int
        Start points. One integer ``m``: ``m >= 0`` gives every seat after
        the first ``m`` points (two players: the second player's), ``m < 0``
        gives seat 1 ``-m`` points; ``|m| < goal``. A sequence: one entry per
        seat, seat 1 first, each ``0 <= komi[s] < goal``. Points for seat 1
        need ``ending="rounds"``. Stored in normal
        form (an int when one number says it, else a tuple).
    name : str
        Display name (presets set it; otherwise derived from the counts).
    players : int
        Number of seats, ``2 <= players <= 4``.
    ending : str
        ``"race"`` (first to the goal wins) or ``"rounds"`` (equal turns).

    Attributes
    ----------
    start_scores : tuple of int
        Points each seat starts with, seat 1 first (length ``players``).
    """

    bad: int
    good: int
    goal: int
    komi: int = 0
    name: str = ""
    players: int = 2
    ending: str = "race"

    family = "deck"

    def __post_init__(self):
        object.__setattr__(self, "bad", check_int("bad", self.bad, 1, MAX_BAD))
        object.__setattr__(self, "good", check_int("good", self.good, 1, MAX_GOOD))
        object.__setattr__(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        object.__setattr__(self, "players", check_players(self.players))
        object.__setattr__(self, "ending", check_ending(self.ending))
        scores, komi = start_scores(self.komi, self.players, self.goal, self.ending)
        object.__setattr__(self, "komi", komi)
        object.__setattr__(self, "start_scores", scores)
        size = self.goal * self.goal * self.bad * (self.good + 1)
        if size > MAX_TABLE:
            raise ParameterError(
                "goal", self.goal,
                f"goal**2 * bad * (good + 1) <= {MAX_TABLE:,} (this design needs {size:,})",
            )
        if not self.name:
            object.__setattr__(self, "name", f"deck {self.bad} bad / {self.good} good")

    def with_goal(self, goal, komi=None):
        """Return the same deck with another goal (and komi)."""
        return DeckGame(self.bad, self.good, goal, self.komi if komi is None else komi, self.name,
                        self.players, self.ending)

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "deck", "bad": self.bad, "good": self.good,
                "goal": self.goal, "komi": komi_param(self.komi), **seat_params(self)}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.bad} bad and {self.good} good items, goal {self.goal}, "
                + describe_seats(self))

    @property
    def components(self):
        """Number of physical components (items in the container)."""
        return self.bad + self.good
