"""A deck or dice game written as rules, for the engine.

The deck and dice families are push-your-luck games like any other, so the
engine solves them from their rules as it solves a rules file; this module
reads a family game's parameters (no import of the families: the engine
stays apart from them) and writes its rules. The commands use it where
today's family solvers do not reach (:data:`designer.support.AS_RULES`:
the equal-turns ending of ``compare``, ``play`` and ``strategy``): the
same game, the same figures, by the engine.

The rules, as the families play them:

* **deck** (Fowl Play, Red Light): ``bad`` bad and ``good`` good items in
  one shared deck; a turn must draw at least once; a good item adds 1 to the
  turn total, a bad one loses it and ends the turn; drawn items stay out
  until the last bad one is drawn, when all are shuffled back before the
  next turn.
* **dice** (Pig): one die of ``faces`` faces; a face of ``bust_faces``
  loses the turn total and ends the turn, any other adds its number; the
  mover may bank at any point (banking at 0 passes).
"""

import json

from designer.engine.game import RulesGame
from designer.engine.rulesfile import parse_rules

#: The families that have a rules form.
FAMILIES = ("deck", "dice")


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
    busts = "".join(f"face.{f} = {{ bust = true }}\n" for f in game.bust_faces)
    return head + (f"[dice]\ncount = 1\nsides = {game.faces}\nother_faces = \"pips\"\n"
                   + busts)


def as_rules_game(game):
    """The deck or dice ``game`` as a :class:`~designer.engine.game.RulesGame`:
    its rules (:func:`rules_text`), players, ending, start points and komi.

    Raises
    ------
    ValueError
        A game of another family (:data:`FAMILIES` have a rules form).
    """
    rules = parse_rules(rules_text(game), where=game.name)
    return RulesGame(rules, game.name, tuple(game.start_scores), game.players, game.ending,
                     list(game.komi) if isinstance(game.komi, tuple) else game.komi,
                     f"a {game.family} game played as rules under the {game.ending} ending")
