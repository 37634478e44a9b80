"""Rules of the game families and the registry of named presets.

>>> load_game("fowl-play")
DeckGame(bad=6, good=42, goal=50, komi=0, name='Fowl Play')
>>> load_game("pig", goal=50).goal
50
"""

from designer.errors import DesignError, ParameterError, ParameterNamesError
from designer.games.deck import DeckGame
from designer.games.dice import DiceGame
from designer.games.wager import WagerGame
from designer.games.zombie import ZombieDiceGame, ZombieGame

#: Named presets: name -> (constructor, default parameters).
PRESETS = {
    "fowl-play": (DeckGame, dict(bad=6, good=42, goal=50, komi=0, name="Fowl Play")),
    "red-light": (DeckGame, dict(bad=4, good=24, goal=50, komi=1, name="Red Light")),
    "pig": (DiceGame, dict(faces=6, goal=100, komi=0, bust_faces=(1,), name="Pig")),
    "persian-monarchs": (WagerGame, dict(max_raise=10, ante=1, start=100, rounds=26, pack=52,
                                         name="Persian Monarchs")),
    "zombie-yellow": (ZombieGame, dict(brains=2, shotguns=2, footprints=2, dice=3,
                                       bust_shotguns=3, goal=13, komi=0,
                                       name="Zombie Dice (all yellow)")),
    "zombie-dice": (ZombieDiceGame, dict(green=6, yellow=4, red=3, dice=3, bust_shotguns=3,
                                         goal=13, komi=0, name="Zombie Dice")),
}

#: Parameters that make the ``zombie`` family the full game.
ZOMBIE_COLOUR_PARAMS = ("green", "yellow", "red", "green_faces", "yellow_faces", "red_faces")

#: Families that take all their parameters from the caller.
FAMILIES = {"deck": DeckGame, "dice": DiceGame, "wager": WagerGame, "zombie": ZombieGame}


def preset_names():
    """Names accepted by :func:`load_game`: presets first, then families."""
    return list(PRESETS) + list(FAMILIES)


def load_game(name, **params):
    """Build a game by preset or family name, overriding parameters.

    Parameters
    ----------
    name : str
        A preset (``"fowl-play"``, ``"red-light"``, ``"pig"``,
        ``"persian-monarchs"``, ``"zombie-yellow"``, ``"zombie-dice"``) or a family (``"deck"``, ``"dice"``,
        ``"wager"``, ``"zombie"``; with any of ``green``, ``yellow``, ``red``
        or their ``*_faces`` the zombie family is the full three-colour game,
        colours left out counting 0 dice).
    **params
        Parameters of the family; ``None`` values are ignored so that
        command-line defaults pass through.

    Raises
    ------
    DesignError
        Unknown name, or parameters the family does not take.
    ParameterError
        A parameter out of range.
    """
    params = {k: v for k, v in params.items() if v is not None}
    if name in PRESETS:
        cls, defaults = PRESETS[name]
        merged = {**defaults, **params}
    elif name == "zombie" and any(k in params for k in ZOMBIE_COLOUR_PARAMS):
        # colour counts or faces ask for the full game (unset colours count 0)
        cls = ZombieDiceGame
        merged = {"green": 0, "yellow": 0, "red": 0, **params}
    elif name in FAMILIES:
        cls, merged = FAMILIES[name], params
    else:
        raise DesignError(f"unknown game {name!r}: choose one of {', '.join(preset_names())}")
    if cls in (ZombieGame, ZombieDiceGame) and "ending" in merged:
        # Zombie Dice has one ending, its own: equal turns (rounds)
        ending = merged.pop("ending")
        if ending != "rounds":
            raise ParameterError("ending", ending, "rounds (Zombie Dice is played in equal "
                                                   "turns; a tie plays another round)")
    fields = set(cls.__dataclass_fields__)
    unknown = sorted(set(merged) - fields)
    if unknown:
        raise ParameterNamesError(name, "does not take", unknown, sorted(fields - {"name"}))
    try:
        return cls(**merged)
    except TypeError as exc:  # a missing required parameter
        missing = sorted(f for f in fields if f not in merged and
                         cls.__dataclass_fields__[f].default is cls.__dataclass_fields__[f].default_factory)
        raise ParameterNamesError(name, "needs", missing or ["more parameters"], []) from exc
