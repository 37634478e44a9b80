"""Wagering card games: Persian Monarchs and its variants.

A pack of ``pack`` cards whose strengths are 1..pack (no ties). Two players
start with ``start`` counters each. A hand: both ante ``ante`` (the stake is
``2 * ante``); the non-dealer, then the dealer, take one card each from the
remaining pack; the non-dealer may raise by ``extra``, drawn uniformly from
1..max_raise; a raised dealer covers (both add ``extra``, the higher card takes
``2 * (ante + extra)``) or declines (the non-dealer takes the stake at once);
an unraised hand goes to the higher card. Used cards are set aside; when fewer
than two remain the full pack returns. A round is two hands with the deal
alternating; a game is ``rounds`` rounds.

There is no exact solver for this family: it is evaluated by simulation
(:mod:`designer.simulate.wager`), which also documents how counters that run
short are handled.
"""

from dataclasses import dataclass

from designer.errors import ParameterError
from designer.games._validate import check_int

#: Upper bounds: beyond them a game is no longer a table game and a
#: simulation of many games would take minutes.
MAX_PACK = 1000
MAX_RAISE = 1000
MAX_ANTE = 1000
MAX_START = 1_000_000
MAX_ROUNDS = 1000


@dataclass(frozen=True)
class WagerGame:
    """Rules of a Persian Monarchs-like wagering game; immutable, validated.

    Parameters
    ----------
    max_raise : int
        Largest raise; the raise size is uniform on ``1..max_raise``,
        ``1 <= max_raise <= 1000``.
    ante : int
        Counters each player puts in at the start of every hand,
        ``1 <= ante <= 1000``.
    start : int
        Counters each player starts the game with, ``ante <= start <= 1000000``.
    rounds : int
        Rounds per game (two hands each, deal alternating),
        ``1 <= rounds <= 1000``.
    pack : int
        Cards in the pack, strengths ``1..pack``, ``2 <= pack <= 1000``.
    name : str
        Display name (presets set it; otherwise derived from the parameters).
    """

    max_raise: int = 10
    ante: int = 1
    start: int = 100
    rounds: int = 26
    pack: int = 52
    name: str = ""

    family = "wager"

    def __post_init__(self):
        object.__setattr__(self, "max_raise", check_int("max_raise", self.max_raise, 1, MAX_RAISE))
        object.__setattr__(self, "ante", check_int("ante", self.ante, 1, MAX_ANTE))
        start = check_int("start", self.start, 1, MAX_START)
        if start < self.ante:
            raise ParameterError("start", self.start,
                                 f"an integer with ante={self.ante} <= start <= {MAX_START}")
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "rounds", check_int("rounds", self.rounds, 1, MAX_ROUNDS))
        object.__setattr__(self, "pack", check_int("pack", self.pack, 2, MAX_PACK))
        if not self.name:
            object.__setattr__(self, "name", f"wager pack {self.pack}, raise 1..{self.max_raise}")

    @property
    def hands(self):
        """Hands per game (two per round)."""
        return 2 * self.rounds

    @property
    def stake(self):
        """Counters in the pot before any raise (both antes)."""
        return 2 * self.ante

    @property
    def params(self):
        """The design parameters as a dict (for tables and JSON)."""
        return {"family": "wager", "max_raise": self.max_raise, "ante": self.ante,
                "start": self.start, "rounds": self.rounds, "pack": self.pack}

    def describe(self):
        """One line a person can read."""
        return (f"{self.name}: {self.pack}-card pack, ante {self.ante}, raises 1..{self.max_raise}, "
                f"{self.start} counters each, {self.rounds} rounds ({self.hands} hands)")

    @property
    def components(self):
        """Number of physical components (the cards)."""
        return self.pack
