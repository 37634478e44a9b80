"""Dice jeopardy games: Pig and its relatives.

One die with ``faces`` faces numbered 1..faces; rolling a face in
``bust_faces`` ends the turn with nothing banked, any other face adds its pip
value to the turn total ``k``. The mover may roll or hold at any point (holding
at ``k = 0`` passes). The first player to reach ``goal`` wins; the second
player starts with ``komi`` points.

``players`` (2..4), ``ending`` and a per-seat komi work as for deck games
(:mod:`designer.games.deck`).
"""

from dataclasses import dataclass

from designer.errors import ParameterError
from designer.games._validate import (check_ending, check_int, check_players, describe_seats,
                                      komi_param, seat_params, start_scores)

MAX_FACES = 100
MAX_GOAL = 400


@dataclass(frozen=True)
class DiceGame:
    """Rules of a dice game; immutable and validated on construction.

    Parameters
    ----------
    faces : int
        Number of faces of the die, ``2 <= faces <= 100``.
    goal : int
        Points needed to win, ``1 <= goal <= 400``.
    komi : int or sequence of int
        Start points, as for :class:`~designer.games.deck.DeckGame`.
    bust_faces : tuple of int
        Faces that bust, each in ``1..faces``; at least one face must not bust.
    name : str
        Display name.
    players : int
        Number of seats, ``2 <= players <= 4``.
    ending : str
        ``"race"`` (first to the goal wins) or ``"rounds"`` (equal turns).

    Attributes
    ----------
    start_scores : tuple of int
        Points each seat starts with, seat 1 first (length ``players``).
    """

    faces: int = 6
    goal: int = 100
    komi: int = 0
    bust_faces: tuple = (1,)
    name: str = ""
    players: int = 2
    ending: str = "race"

    family = "dice"

    def __post_init__(self):
        faces = check_int("faces", self.faces, 2, MAX_FACES)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        object.__setattr__(self, "players", check_players(self.players))
        object.__setattr__(self, "ending", check_ending(self.ending))
        scores, komi = start_scores(self.komi, self.players, self.goal, self.ending)
        object.__setattr__(self, "komi", komi)
        object.__setattr__(self, "start_scores", scores)
        try:
            raw = tuple(self.bust_faces)
        except TypeError:
            raw = (self.bust_faces,)
        bust = tuple(sorted({check_int("bust_faces", f, 1, faces) for f in raw}))
        if not bust or len(bust) >= faces:
            raise ParameterError("bust_faces", self.bust_faces,
                                 f"a non-empty set of faces in 1..{faces} that leaves a scoring face")
        object.__setattr__(self, "bust_faces", bust)
        if not self.name:
            object.__setattr__(self, "name", f"d{faces} bust on {','.join(map(str, bust))}")

    def with_goal(self, goal, komi=None):
        """Return the same die with another goal (and komi)."""
        return DiceGame(self.faces, goal, self.komi if komi is None else komi, self.bust_faces,
                        self.name, self.players, self.ending)

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "dice", "faces": self.faces, "bust_faces": list(self.bust_faces),
                "goal": self.goal, "komi": komi_param(self.komi), **seat_params(self)}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.faces}-sided die busting on "
                f"{', '.join(map(str, self.bust_faces))}, goal {self.goal}, " + describe_seats(self))

    @property
    def components(self):
        """Number of physical components (one die)."""
        return 1
