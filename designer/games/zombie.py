"""Zombie Dice and its relatives: push-your-luck with rounds (SPEC 1.3).

Each roll throws ``dice`` identical dice; each die has ``brains`` brain
faces, ``shotguns`` shotgun faces and ``footprints`` footprint faces. Brains
add to the turn total ``b``, shotguns accumulate in ``s``, footprints do
nothing. ``bust_shotguns`` shotguns in one turn end it with nothing banked;
otherwise the mover may roll again or hold and bank ``b``.

Play goes in rounds, player 1 then player 2. When a round ends with a score of
``goal`` or more the higher score wins; a tie at ``goal`` or more plays another
full round. Player 2 holds whenever holding ends the game in their favour.
The second player starts with ``komi`` points.

Scores are unbounded (a turn may go on as long as the shotguns allow, and tie
rounds repeat), so the solver works with a score ``cap``: no score exceeds it,
and a mover whose score ``i + b`` reaches it holds. The default cap is far
enough above the goal that the reported probabilities and the optimal policy
do not change when it grows (``tests/test_zombie.py`` shows it).
"""

from dataclasses import dataclass

from designer.errors import ParameterError
from designer.games._validate import check_int

MAX_FACES = 20
MAX_DICE = 10
MAX_BUST = 20
MAX_GOAL = 100
MAX_CAP = 400
#: Default distance of the cap above the goal (see the module docstring).
CAP_MARGIN = 50
#: Largest policy table (2 * (goal + 1) * (cap + 1) * cap * bust_shotguns) accepted.
MAX_TABLE = 40_000_000


@dataclass(frozen=True)
class ZombieGame:
    """Rules of a Zombie Dice game; immutable and validated on construction.

    Parameters
    ----------
    brains, shotguns, footprints : int
        Faces of each kind on every die: ``1 <= brains <= 20``,
        ``1 <= shotguns <= 20`` (without a shotgun nothing is at risk),
        ``0 <= footprints <= 20``. All-yellow: 2, 2, 2.
    dice : int
        Dice thrown per roll, ``1 <= dice <= 10``.
    bust_shotguns : int
        Shotguns in one turn that end it with nothing banked,
        ``1 <= bust_shotguns <= 20``.
    goal : int
        A round that ends with a score of ``goal`` or more ends the game,
        ``1 <= goal <= 100``.
    komi : int
        Points the second player starts with, ``0 <= komi < goal``.
    cap : int, optional
        Largest score represented, ``goal < cap <= 400``; default
        ``goal + 50``.
    name : str
        Display name.
    """

    brains: int = 2
    shotguns: int = 2
    footprints: int = 2
    dice: int = 3
    bust_shotguns: int = 3
    goal: int = 13
    komi: int = 0
    cap: int = None
    name: str = ""

    family = "zombie"

    def __post_init__(self):
        setv = object.__setattr__
        setv(self, "brains", check_int("brains", self.brains, 1, MAX_FACES))
        setv(self, "shotguns", check_int("shotguns", self.shotguns, 1, MAX_FACES))
        setv(self, "footprints", check_int("footprints", self.footprints, 0, MAX_FACES))
        setv(self, "dice", check_int("dice", self.dice, 1, MAX_DICE))
        setv(self, "bust_shotguns", check_int("bust_shotguns", self.bust_shotguns, 1, MAX_BUST))
        setv(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        setv(self, "komi", check_int("komi", self.komi, 0, self.goal - 1))
        cap = self.goal + CAP_MARGIN if self.cap is None else self.cap
        setv(self, "cap", check_int("cap", cap, self.goal + 1, MAX_CAP))
        size = 2 * (self.goal + 1) * (self.cap + 1) * self.cap * self.bust_shotguns
        if size > MAX_TABLE:
            raise ParameterError(
                "cap", self.cap,
                f"2 * (goal + 1) * (cap + 1) * cap * bust_shotguns <= {MAX_TABLE:,} "
                f"(this design needs {size:,})")
        if not self.name:
            setv(self, "name", f"zombie {self.brains}/{self.shotguns}/{self.footprints} "
                               f"x{self.dice}")

    @property
    def faces(self):
        """Faces per die."""
        return self.brains + self.shotguns + self.footprints

    def with_goal(self, goal, komi=None):
        """Return the same dice with another goal (and komi), cap as far above it."""
        return ZombieGame(self.brains, self.shotguns, self.footprints, self.dice,
                          self.bust_shotguns, goal, self.komi if komi is None else komi,
                          goal + self.cap - self.goal, self.name)

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "zombie", "brains": self.brains, "shotguns": self.shotguns,
                "footprints": self.footprints, "dice": self.dice,
                "bust_shotguns": self.bust_shotguns, "goal": self.goal, "komi": self.komi,
                "cap": self.cap}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.dice} dice of {self.brains} brain / {self.shotguns} "
                f"shotgun / {self.footprints} footprint faces, {self.bust_shotguns} shotguns "
                f"bust, rounds to {self.goal}, second player starts with {self.komi} "
                f"point{'s' if self.komi != 1 else ''} (score cap {self.cap})")

    @property
    def components(self):
        """Number of physical components (the dice thrown together)."""
        return self.dice
