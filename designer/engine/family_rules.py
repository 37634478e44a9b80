"""A deck, dice or Zombie Dice game written as rules, for the engine.

The deck, dice and Zombie Dice families are push-your-luck games like any
other, so the
engine solves them from their rules as it solves a rules file; this module
reads a family game's parameters (no import of the families: the engine
stays apart from them) and writes its rules. The commands use it where
today's family solvers do not reach (:data:`designer.support.AS_RULES`:
the equal-turns ending of ``compare``, ``play`` and ``strategy``, and
Zombie Dice with three or four players there): the same game, the same
figures, by the engine.

The rules, as the families play them:

* **deck** (Fowl Play, Red Light): ``bad`` bad and ``good`` good items in
  one shared deck; a turn must draw at least once; a good item adds 1 to the
  turn total, a bad one loses it and ends the turn; drawn items stay out
  until the last bad one is drawn, when all are shuffled back before the
  next turn.
* **dice** (Pig): one die of ``faces`` faces; a face of ``bust_faces``
  loses the turn total and ends the turn, any other adds its number; the
  mover may bank at any point (banking at 0 passes).
* **all-yellow Zombie Dice**: every roll throws ``dice`` dice, each with
  ``brains`` brain faces (1 point), ``shotguns`` shotgun faces (set aside,
  counted) and ``footprints`` faces that do nothing; ``bust_shotguns``
  shotguns end the turn with nothing; the mover may bank after any roll.
* **Zombie Dice** (three colours): a cup of green, yellow and red dice
  (:mod:`designer.engine.cup`); each roll throws ``dice`` dice, the
  footprints kept and the rest drawn from the cup; the first roll of a turn
  is forced.

A Zombie Dice game keeps its score cap (the largest score represented in
the equal-turns ending), so that the engine solves the very game the family
solver does: :attr:`~designer.engine.game.RulesGame.cap`.
"""

import json

from designer.engine.game import RulesGame
from designer.engine.rulesfile import parse_rules

#: The families that have a rules form.
FAMILIES = ("deck", "dice", "zombie")
#: Each family's games, in words (for messages).
_KIND_WORDS = {"deck": "a deck game", "dice": "a dice game", "zombie": "a Zombie Dice game"}
#: The colours of a cup, in the order of a Zombie Dice game's counts and faces.
COLOURS = ("green", "yellow", "red")


def rules_text(game):
    """The rules file (TOML) of the deck or dice ``game``: its part, goal,
    players and ending (the start points are the game's, not the file's).

    >>> from designer.games import load_game
    >>> print(rules_text(load_game("pig", goal=20)))  # doctest: +NORMALIZE_WHITESPACE
    name = "Pig"
    goal = 20
    players = 2
    ending = "race"
    [dice]
    count = 1
    sides = 6
    other_faces = "pips"
    face.1 = { bust = true }
    """
    if game.family not in FAMILIES:
        raise ValueError(f"no rules form for a {game.family} game")
    head = (f"name = {json.dumps(game.name)}\ngoal = {game.goal}\nplayers = {game.players}\n"
            f"ending = {json.dumps(game.ending)}\n")
    if game.family == "deck":
        return head + (f"[turn]\nforced_first = true\n"
                       f"[deck]\nbad = {game.bad}\ngood = {game.good}\n"
                       f"reshuffle = \"last-bad\"\n")
    if game.family == "zombie":
        return head + _zombie_part(game)
    busts = "".join(f"face.{f} = {{ bust = true }}\n" for f in game.bust_faces)
    return head + (f"[dice]\ncount = 1\nsides = {game.faces}\nother_faces = \"pips\"\n"
                   + busts)


def _zombie_part(game):
    """The part of a Zombie Dice game: a cup of its colours (full Zombie
    Dice: it has ``green``), else dice that are all thrown at every roll,
    the brain faces first, then the shotgun faces (set aside)."""
    if hasattr(game, "green"):
        dice = "".join(f"{c} = {{ count = {n}, brain = {b}, shotgun = {s}, footprint = {f} }}\n"
                       for c, n, (b, s, f) in zip(COLOURS, game.counts, game.faces, strict=True)
                       if n)
        return (f"[turn]\nforced_first = true\n[cup]\nthrow = {game.dice}\n"
                f"bust = {game.bust_shotguns}\n[cup.dice]\n{dice}")
    b, s = game.brains, game.shotguns
    faces = "".join(f"face.{f} = {{ points = 1 }}\n" for f in range(1, b + 1))
    faces += "".join(f"face.{f} = {{ aside = true }}\n" for f in range(b + 1, b + s + 1))
    return (f"[dice]\ncount = {game.dice}\nsides = {game.faces}\nother_faces = 0\n"
            f"aside_bust = {game.bust_shotguns}\nrefill = true\naside_name = \"shotgun\"\n"
            f"{faces}")


def _source(game):
    """What the rules game says it was read from: a deck or dice game's name
    (which names its every parameter); a Zombie Dice game's name and the
    parameters its name leaves out (its dice, their faces, the shotguns
    that bust, the cap), so that two designs never share one (the play
    statistics key their records by it)."""
    if game.family != "zombie":
        return game.name
    seats = ("family", "goal", "komi", "players")
    rest = ", ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in game.params.items() if k not in seats)
    return f"{game.name} [{rest}]"


def as_rules_game(game):
    """The deck, dice or Zombie Dice ``game`` as a
    :class:`~designer.engine.game.RulesGame`: its rules (:func:`rules_text`),
    players, ending, start points and komi (and a Zombie Dice game's score
    cap).

    Raises
    ------
    ValueError
        A game of another family (:data:`FAMILIES` have a rules form).
    """
    rules = parse_rules(rules_text(game), where=game.name)
    return RulesGame(rules, _source(game), tuple(game.start_scores), game.players, game.ending,
                     list(game.komi) if isinstance(game.komi, tuple) else game.komi,
                     f"{_KIND_WORDS[game.family]} played as rules under the {game.ending} "
                     "ending",
                     getattr(game, "cap", None) if game.family == "zombie" else None)
