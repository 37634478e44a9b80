"""Zombie Dice and its relatives: push-your-luck with rounds.

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
from designer.games._validate import check_int, check_players, komi_param, start_scores

MAX_FACES = 20
MAX_DICE = 10
MAX_BUST = 20
MAX_GOAL = 100
MAX_CAP = 400
#: Default distance of the cap above the goal (see the module docstring).
CAP_MARGIN = 50
#: Largest policy table (2 * (goal + 1) * (cap + 1) * cap * bust_shotguns) accepted.
MAX_TABLE = 40_000_000


def _seats(game):
    """Validate ``players`` and ``komi``; set ``start_scores``.

    Two players keep the classic form: ``komi`` points for the second
    player, ``0 <= komi < goal``. Three or four players take a komi as the
    deck and dice games do under the rounds ending (one integer for every
    seat after the first, negative for seat 1, or one entry per seat).
    """
    setv = object.__setattr__
    setv(game, "players", check_players(game.players))
    if game.players == 2:
        setv(game, "komi", check_int("komi", game.komi, 0, game.goal - 1))
        setv(game, "start_scores", (0, game.komi))
    else:
        scores, komi = start_scores(game.komi, game.players, game.goal, "rounds")
        setv(game, "komi", komi)
        setv(game, "start_scores", scores)


def _seat_text(game):
    """Who starts with what, for ``describe()``."""
    if game.players == 2:
        k = game.komi
        return f"second player starts with {k} point{'s' if k != 1 else ''}"
    s = game.start_scores
    if not any(s):
        return f"{game.players} players, no komi"
    return f"{game.players} players, start scores " + ", ".join(
        f"seat {n + 1}: {v}" for n, v in enumerate(s))


def _seat_params(game):
    """``komi`` (a list when per seat) and, beyond two players, ``players``."""
    out = {"komi": komi_param(game.komi)}
    if game.players != 2:
        out["players"] = game.players
    return out


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
    komi : int or sequence of int
        Points the second player starts with, ``0 <= komi < goal``. With
        three or four players: one integer for every seat after the first
        (negative: for seat 1) or one entry per seat, seat 1 first.
    cap : int, optional
        Largest score represented, ``goal < cap <= 400``; default
        ``goal + 50``.
    name : str
        Display name.
    players : int
        Seats, ``2 <= players <= 4`` (three or more play in
        rounds with tie rounds among the tied seats).
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
    players: int = 2

    family = "zombie"

    def __post_init__(self):
        setv = object.__setattr__
        setv(self, "brains", check_int("brains", self.brains, 1, MAX_FACES))
        setv(self, "shotguns", check_int("shotguns", self.shotguns, 1, MAX_FACES))
        setv(self, "footprints", check_int("footprints", self.footprints, 0, MAX_FACES))
        setv(self, "dice", check_int("dice", self.dice, 1, MAX_DICE))
        setv(self, "bust_shotguns", check_int("bust_shotguns", self.bust_shotguns, 1, MAX_BUST))
        setv(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        _seats(self)
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
                          goal + self.cap - self.goal, self.name, self.players)

    @property
    def ending(self):
        """Always ``"rounds"``: Zombie Dice is played in equal turns, a tie
        playing another round."""
        return "rounds"

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "zombie", "brains": self.brains, "shotguns": self.shotguns,
                "footprints": self.footprints, "dice": self.dice,
                "bust_shotguns": self.bust_shotguns, "goal": self.goal, **_seat_params(self),
                "cap": self.cap}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.dice} dice of {self.brains} brain / {self.shotguns} "
                f"shotgun / {self.footprints} footprint faces, {self.bust_shotguns} shotguns "
                f"bust, rounds to {self.goal}, {_seat_text(self)} (score cap {self.cap})")

    @property
    def components(self):
        """Number of physical components (the dice thrown together)."""
        return self.dice


#: Faces (brain, shotgun, footprint) of the three colours of Zombie Dice.
GREEN = (3, 1, 2)
YELLOW = (2, 2, 2)
RED = (1, 3, 2)
MAX_COLOUR = 20
#: Default distance of the full game's cap above the goal (shown not to matter
#: in ``tests/test_zombie_dice.py``; smaller than the all-yellow default
#: because the policy table holds every dice configuration).
DICE_CAP_MARGIN = 30


def _check_faces(name, value):
    try:
        faces = tuple(value)
    except TypeError:
        raise ParameterError(name, value, "three face counts (brain, shotgun, footprint)") from None
    if len(faces) != 3:
        raise ParameterError(name, value, "three face counts (brain, shotgun, footprint)")
    faces = tuple(check_int(name, f, 0, MAX_FACES) for f in faces)
    if sum(faces) == 0:
        raise ParameterError(name, value, "at least one face")
    return faces


@dataclass(frozen=True)
class ZombieDiceGame:
    """Rules of full Zombie Dice: dice of three colours in a cup.

    Each roll throws ``dice`` dice: the footprint dice kept from the last
    roll plus dice drawn at random from the cup. Brains and shotguns are set
    aside; ``bust_shotguns`` shotguns end the turn with nothing banked. If the
    cup holds fewer dice than a roll needs, the brain dice set aside go back
    into it (the turn total is kept). Rounds to ``goal`` with tie rounds as in
    :class:`ZombieGame`; the second player starts with ``komi`` points.

    Parameters
    ----------
    green, yellow, red : int
        Dice of each colour, ``0..20`` each; together at least
        ``dice + bust_shotguns - 1`` (so that the cup, with the brains
        returned, can always supply a roll) and at most 20.
    green_faces, yellow_faces, red_faces : tuple of 3 int
        (brain, shotgun, footprint) faces of each colour, ``0..20`` each;
        defaults (3, 1, 2), (2, 2, 2), (1, 3, 2).
    dice, bust_shotguns, goal, komi : int
        As in :class:`ZombieGame`.
    cap : int, optional
        Largest score represented, ``goal < cap <= 200``; default
        ``goal + 30``.
    name : str
    players : int
        Seats, ``2 <= players <= 4``, as in :class:`ZombieGame`.
    """

    green: int = 6
    yellow: int = 4
    red: int = 3
    green_faces: tuple = GREEN
    yellow_faces: tuple = YELLOW
    red_faces: tuple = RED
    dice: int = 3
    bust_shotguns: int = 3
    goal: int = 13
    komi: int = 0
    cap: int = None
    name: str = ""
    players: int = 2

    family = "zombie"

    def __post_init__(self):
        setv = object.__setattr__
        for c in ("green", "yellow", "red"):
            setv(self, c, check_int(c, getattr(self, c), 0, MAX_COLOUR))
            setv(self, f"{c}_faces", _check_faces(f"{c}_faces", getattr(self, f"{c}_faces")))
        setv(self, "dice", check_int("dice", self.dice, 1, MAX_DICE))
        setv(self, "bust_shotguns", check_int("bust_shotguns", self.bust_shotguns, 1, MAX_BUST))
        need = self.dice + self.bust_shotguns - 1
        total = self.green + self.yellow + self.red
        if not need <= total <= MAX_COLOUR:
            raise ParameterError(
                "green + yellow + red", total,
                f"{need} <= green + yellow + red <= {MAX_COLOUR} (dice + bust_shotguns - 1 "
                "so that the cup can always supply a roll)")
        used = [f for n, f in zip(self.counts, self.faces, strict=True) if n]
        if not any(f[0] for f in used):
            raise ParameterError("faces", self.faces, "a brain face on some die in the cup")
        if not any(f[1] for f in used):
            raise ParameterError("faces", self.faces, "a shotgun face on some die in the cup")
        setv(self, "goal", check_int("goal", self.goal, 1, MAX_GOAL))
        _seats(self)
        cap = self.goal + DICE_CAP_MARGIN if self.cap is None else self.cap
        setv(self, "cap", check_int("cap", cap, self.goal + 1, 200))
        if not self.name:
            setv(self, "name", f"zombie dice {self.green}g/{self.yellow}y/{self.red}r")

    @property
    def counts(self):
        """Dice of each colour (green, yellow, red)."""
        return (self.green, self.yellow, self.red)

    @property
    def faces(self):
        """(brain, shotgun, footprint) faces of each colour."""
        return (self.green_faces, self.yellow_faces, self.red_faces)

    def with_goal(self, goal, komi=None):
        """The same dice with another goal (and komi), cap as far above it."""
        return ZombieDiceGame(*self.counts, *self.faces, self.dice, self.bust_shotguns, goal,
                              self.komi if komi is None else komi,
                              goal + self.cap - self.goal, self.name, self.players)

    @property
    def ending(self):
        """Always ``"rounds"``: Zombie Dice is played in equal turns, a tie
        playing another round."""
        return "rounds"

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "zombie", "green": self.green, "yellow": self.yellow,
                "red": self.red, "green_faces": list(self.green_faces),
                "yellow_faces": list(self.yellow_faces), "red_faces": list(self.red_faces),
                "dice": self.dice, "bust_shotguns": self.bust_shotguns, "goal": self.goal,
                **_seat_params(self), "cap": self.cap}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.green} green, {self.yellow} yellow, {self.red} red dice "
                f"(brain/shotgun/footprint faces {'/'.join(map(str, self.green_faces))}, "
                f"{'/'.join(map(str, self.yellow_faces))}, "
                f"{'/'.join(map(str, self.red_faces))}), {self.dice} per roll, "
                f"{self.bust_shotguns} shotguns bust, rounds to {self.goal}, "
                f"{_seat_text(self)} (score cap {self.cap})")

    @property
    def components(self):
        """Number of physical components (the dice in the cup)."""
        return self.green + self.yellow + self.red
