"""Deck jeopardy games: Fowl Play, Red Light and every bad/good count.

A shared container holds ``bad`` bad items and ``good`` good items. A turn is
a run of draws without replacement; each good item adds 1 to the turn total
``k``; after a good draw the mover may draw again or hold (bank ``k``); a bad
item ends the turn with nothing banked. When the last bad item is drawn the
whole container is returned and shuffled before the next turn. The first
player to reach ``goal`` wins; the second player starts with ``komi`` points.
"""

from dataclasses import dataclass

from designer.errors import ParameterError
from designer.games._validate import check_int

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
    komi : int
        Points the second player starts with, ``0 <= komi < goal``.
    name : str
        Display name (presets set it; otherwise derived from the counts).
    """

    bad: int
    good: int
    goal: int
    komi: int = 0
    name: str = ""

    family = "deck"

    def __post_init__(self):
        object.__setattr__(self, "bad", check_int("bad", self.bad, 1, MAX_BAD))
        object.__setattr__(self, "good", check_int("good", self.good, 1, MAX_GOOD))
        object.__setattr__(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        object.__setattr__(self, "komi", check_int("komi", self.komi, 0, self.goal - 1))
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
        return DeckGame(self.bad, self.good, goal, self.komi if komi is None else komi, self.name)

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "deck", "bad": self.bad, "good": self.good,
                "goal": self.goal, "komi": self.komi}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.bad} bad and {self.good} good items, goal {self.goal}, "
                f"second player starts with {self.komi} point{'s' if self.komi != 1 else ''}")

    @property
    def components(self):
        """Number of physical components (items in the container)."""
        return self.bad + self.good
