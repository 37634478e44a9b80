"""Rules files: a push-your-luck game described in TOML, built from parts.

A rules file is data: it is parsed with :mod:`tomllib` and no code in it
ever runs. Every mistake is refused in one line naming the file, the key,
and what is allowed.

Layout::

    name = "Pig"          # optional display name
    goal = 100            # points that win (first to reach them)
    komi = 0              # points the second player starts with
    players = 2           # seats (only 2 for now)
    ending = "race"       # first to the goal wins (only "race" for now)

    [turn]
    forced_first = false  # the first roll or draw of a turn is forced
    min_bank = 0          # smallest turn total that may be banked

    [dice]                # either [dice] ...
    count = 1             # dice thrown per roll
    sides = 6             # faces numbered 1..sides, equally likely
    other_faces = "pips"  # what a face not listed scores: its number, or an integer
    face.1 = { bust = true }   # each listed face has one effect:
                               # points = n, bust = true or aside = true,
                               # and optionally a probability (all faces or none)
    aside_bust = 3        # the turn busts once this many dice are set aside
    [dice.bust_effect]    # a bust showing `bust_faces` bust faces or more
    bust_faces = 2        #   also changes the banked score:
    score = "zero"        #   "zero", or "penalty" (down by `penalty`, not below `floor`)

    [deck]                # ... or [deck]
    bad = 6               # bad items: drawing one busts the turn
    good = 42             # good items: each adds 1 point
    reshuffle = "last-bad"  # all items go back when the last bad one is drawn

The parts are enumerated into a :class:`~designer.engine.model.TurnModel`
(:mod:`designer.engine.parts`); the file is refused if a turn can go on
forever without scoring or busting, or if no turn can score a point.
"""

import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path

import numpy as np

from designer.engine.model import CHOOSE, END, TurnModel
from designer.engine.parts import Deck, Dice, Face, enumerate_turn
from designer.errors import DesignError

MAX_DICE = 10
MAX_SIDES = 100
MAX_BAD = 60
MAX_GOOD = 400
MAX_GOAL = 100_000

_TOP = ("name", "goal", "komi", "players", "ending", "turn", "dice", "deck")
_TURN = ("forced_first", "min_bank")
_DICE = ("count", "sides", "other_faces", "face", "aside_bust", "bust_effect")
_FACE = ("points", "bust", "aside", "probability")
_EFFECT = ("bust_faces", "score", "penalty", "floor")
_DECK = ("bad", "good", "reshuffle")


class RulesError(DesignError):
    """A rules file that cannot be read or describes no playable game."""


@dataclass(frozen=True, eq=False)
class Rules:
    """A game read from a rules file.

    Attributes
    ----------
    name : str
    goal, komi, players : int
    ending : str
    model : TurnModel
        The enumerated turn process.
    part : Dice or Deck
        The part the turn is built from.
    keys : list
        The part's description of each turn state (state 0 first).
    path : str
        The file read (or ``"<string>"``).
    """

    name: str
    goal: int
    komi: int
    players: int
    ending: str
    model: TurnModel = field(repr=False)
    part: object = field(repr=False)
    keys: list = field(repr=False)
    path: str = ""


def examples():
    """Names of the shipped example rules files (without ``.toml``)."""
    folder = resources.files("designer.engine") / "examples"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def example_path(name):
    """Path of the shipped example ``name`` (``"pig"``, ``"fowl-play"``, ...)."""
    path = resources.files("designer.engine") / "examples" / f"{name}.toml"
    if not path.is_file():
        raise RulesError(f"no example rules named {name!r}: choose one of "
                         f"{', '.join(examples())}")
    return Path(str(path))


def load_rules(path):
    """Read and check the rules file at ``path``; see the module doc.

    Raises
    ------
    RulesError
        In one line naming the file, the key and what is allowed.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"{path}: cannot read it ({exc.__class__.__name__}: {exc})") from None
    return parse_rules(text, str(path))


def parse_rules(text, where="<string>"):
    """Parse rules from TOML text; ``where`` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{where}: not valid TOML ({exc})") from None
    return _Reader(where).rules(data)


class _Reader:
    def __init__(self, where):
        self.where = where

    def fail(self, key, text):
        raise RulesError(f"{self.where}: {key}: {text}")

    def keys(self, table, allowed, prefix):
        for k in table:
            if k not in allowed:
                self.fail(prefix + k, f"unknown key; allowed here: {', '.join(allowed)}")

    def table(self, data, key, prefix=""):
        v = data.get(key, {})
        if not isinstance(v, dict):
            self.fail(prefix + key, "must be a table")
        return v

    def int(self, data, key, default, lo, hi=None, prefix=""):
        v = data.get(key, default)
        if v is None:
            self.fail(prefix + key, "is required")
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            rng = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
            self.fail(prefix + key, f"{v!r} is not allowed: {rng}")
        return v

    def choice(self, data, key, default, allowed, prefix=""):
        v = data.get(key, default)
        if v not in allowed:
            self.fail(prefix + key, f"{v!r} is not allowed: "
                      + " or ".join(repr(a) for a in allowed))
        return v

    def bool(self, data, key, default, prefix=""):
        v = data.get(key, default)
        if not isinstance(v, bool):
            self.fail(prefix + key, f"{v!r} is not allowed: true or false")
        return v

    def probability(self, v, key):
        if isinstance(v, str) and "/" in v:
            try:
                num, den = v.split("/")
                p = Fraction(int(num), int(den))
            except (ValueError, ZeroDivisionError):
                p = None
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            p = Fraction(v) if np.isfinite(v) else None
        else:
            p = None
        if p is None or not 0 <= p <= 1:
            self.fail(key, f"{v!r} is not allowed: a number 0..1 or a fraction like \"1/6\"")
        return p

    # -- the parts ----------------------------------------------------------
    def dice(self, d):
        self.keys(d, _DICE, "dice.")
        count = self.int(d, "count", 1, 1, MAX_DICE, "dice.")
        sides = self.int(d, "sides", None, 2, MAX_SIDES, "dice.")
        other = d.get("other_faces", "pips")
        if other != "pips" and (isinstance(other, bool) or not isinstance(other, int) or other < 0):
            self.fail("dice.other_faces", f"{other!r} is not allowed: \"pips\" (a face scores "
                      "its number) or an integer >= 0")
        listed = self.table(d, "face", "dice.")
        effects = {}
        probs = {}
        for name, spec in listed.items():
            key = f"dice.face.{name}"
            if not name.isdigit() or not 1 <= int(name) <= sides:
                self.fail(key, f"no such face: faces are numbered 1..{sides}")
            if not isinstance(spec, dict):
                self.fail(key, "must be a table such as { points = 2 }, { bust = true } "
                          "or { aside = true }")
            self.keys(spec, _FACE, key + ".")
            what = [k for k in ("points", "bust", "aside") if k in spec]
            if len(what) > 1:
                self.fail(key, f"a face has one effect (points, bust or aside); this one has "
                          f"{' and '.join(what)}")
            for flag in ("bust", "aside"):
                if flag in spec and spec[flag] is not True:
                    self.fail(f"{key}.{flag}", f"{spec[flag]!r} is not allowed: true "
                              "(leave the key out otherwise)")
            if "points" in spec:
                self.int(spec, "points", 0, 0, None, key + ".")
            effects[int(name)] = what[0] if what else None, spec.get("points")
            if "probability" in spec:
                probs[int(name)] = self.probability(spec["probability"], key + ".probability")
        if probs:
            if len(probs) < sides:
                missing = min(set(range(1, sides + 1)) - set(probs))
                self.fail(f"dice.face.{missing}.probability", "missing: give a probability "
                          "for every face or for none")
            total = sum(probs.values())
            if abs(total - 1) > Fraction(1, 10**12):
                self.fail("dice.face", f"the faces' probabilities sum to {float(total):.12g}: "
                          "they must sum to 1")
            probs = {f: p / total for f, p in probs.items()}  # exact, for the products
        faces = []
        for f in range(1, sides + 1):
            kind, pts = effects.get(f, (None, None))
            p = probs.get(f, Fraction(1, sides))
            if kind == "bust":
                faces.append(Face(bust=True, probability=p))
            elif kind == "aside":
                faces.append(Face(aside=True, probability=p))
            else:
                value = pts if kind == "points" else (f if other == "pips" else other)
                faces.append(Face(points=value, probability=p))
        aside_bust = self.int(d, "aside_bust", 0, 1, None, "dice.") if "aside_bust" in d else 0
        if aside_bust and not any(f.aside for f in faces):
            self.fail("dice.aside_bust", "no face is set aside (give a face { aside = true })")
        eff = self.table(d, "bust_effect", "dice.")
        self.keys(eff, _EFFECT, "dice.bust_effect.")
        effect, nfaces, penalty, floor = "none", 1, 0, 0
        if eff:
            effect = self.choice(eff, "score", None, ("zero", "penalty"), "dice.bust_effect.")
            nfaces = self.int(eff, "bust_faces", 1, 1, count, "dice.bust_effect.")
            if effect == "penalty":
                penalty = self.int(eff, "penalty", None, 1, None, "dice.bust_effect.")
                floor = eff.get("floor", 0)
                if isinstance(floor, bool) or not isinstance(floor, int) or floor > 0:
                    self.fail("dice.bust_effect.floor", f"{floor!r} is not allowed: an "
                              "integer <= 0 (the lowest banked score)")
            else:
                for k in ("penalty", "floor"):
                    if k in eff:
                        self.fail(f"dice.bust_effect.{k}", "only with score = \"penalty\"")
            if not any(f.bust for f in faces):
                self.fail("dice.bust_effect", "no face busts (give a face { bust = true })")
        return Dice(count, tuple(faces), aside_bust, effect, nfaces, penalty), floor

    def deck(self, d):
        self.keys(d, _DECK, "deck.")
        bad = self.int(d, "bad", None, 1, MAX_BAD, "deck.")
        good = self.int(d, "good", None, 1, MAX_GOOD, "deck.")
        self.choice(d, "reshuffle", "last-bad", ("last-bad",), "deck.")
        return Deck(bad, good)

    def rules(self, data):
        self.keys(data, _TOP, "")
        name = data.get("name", Path(self.where).stem)
        if not isinstance(name, str):
            self.fail("name", "must be a string")
        goal = self.int(data, "goal", None, 1, MAX_GOAL)
        komi = self.int(data, "komi", 0, 0, goal - 1)
        players = self.int(data, "players", 2, 2, 2)
        ending = self.choice(data, "ending", "race", ("race",))
        turn = self.table(data, "turn")
        self.keys(turn, _TURN, "turn.")
        forced = self.bool(turn, "forced_first", False, "turn.")
        min_bank = self.int(turn, "min_bank", 0, 0, None, "turn.")
        kinds = [k for k in ("dice", "deck") if k in data]
        if len(kinds) != 1:
            self.fail("dice" if not kinds else "deck", "a game has one part: [dice] or [deck]"
                      + (" (this file has both)" if kinds else " (this file has none)"))
        floor = 0
        if kinds == ["dice"]:
            part, floor = self.dice(self.table(data, "dice"))
        else:
            part = self.deck(self.table(data, "deck"))
        model, keys = enumerate_turn(part, forced_first=forced, min_bank=min_bank, floor=floor)
        self.playable(model, kinds[0], goal, min_bank)
        return Rules(name, goal, komi, players, ending, model, part, keys, self.where)

    def playable(self, model, part, goal, min_bank):
        """Refuse a turn that can go on forever, a dead end below the
        minimum bank, and a game in which no turn scores."""
        blame = "dice.face" if part == "dice" else "deck"
        loop = endless_states(model)
        if loop:
            self.fail(blame, f"a turn can go on forever without scoring or busting (from "
                      f"{model.describe(loop[0])}): some outcome must score or bust")
        for s in range(model.states):
            if model.cont_start[s] == model.cont_start[s + 1] and min_bank > 0:
                self.fail("turn.min_bank", f"a turn can reach {model.describe(s)}, with nothing "
                          f"left to throw, below min_bank = {min_bank}: it could neither go "
                          "on nor stop")
        if not scores(model):
            self.fail("goal", f"no turn can score a point, so no score reaches the goal {goal}")


def endless_states(model):
    """States from which the mover can keep a turn going forever without
    scoring and without any chance of it ending: the largest set ``Z`` such
    that every state of ``Z`` has a continuation all of whose outcomes
    offer an option of 0 points back into ``Z``."""
    S = model.states
    Z = np.ones(S, dtype=bool)
    changed = True
    while changed:
        changed = False
        for s in np.flatnonzero(Z):
            if not any(_stays(model, c, Z)
                       for c in range(model.cont_start[s], model.cont_start[s + 1])):
                Z[s] = False
                changed = True
    return [int(s) for s in np.flatnonzero(Z)]


def _stays(model, c, Z):
    for o in range(model.out_start[c], model.out_start[c + 1]):
        if model.out_prob[o] <= 0.0:
            continue
        if model.out_kind[o] != CHOOSE:
            return False
        if not any(model.opt_gain[r] == 0 and Z[model.opt_next[r]]
                   for r in range(model.opt_start[o], model.opt_start[o + 1])):
            return False
    return True


def scores(model):
    """True if some outcome of positive probability adds points."""
    live = model.out_prob > 0.0
    gains = np.repeat(live, np.diff(model.opt_start)) & (model.opt_gain > 0)
    ends = live & (model.out_kind == END) & (model.out_points > 0)
    return bool(gains.any() or ends.any())


__all__ = ["Rules", "RulesError", "example_path", "examples", "load_rules",
           "parse_rules"]
