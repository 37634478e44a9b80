"""Rules files: a push-your-luck game described in TOML, built from parts.

A rules file is data: it is parsed with :mod:`tomllib` and no code in it
ever runs. Every mistake is refused in one line naming the file, the key,
and what is allowed.

Layout::

    name = "Pig"          # optional display name
    goal = 100            # points that win (first to reach them)
    komi = 0              # points the second player starts with
    players = 2           # seats: 2 to 4
    ending = "race"       # "race": first to the goal wins; "rounds": equal turns
    ties = "replay"       # rounds only: tied leaders play another round, or
                          # "earlier-seat": a later seat must strictly beat the leader

    [turn]
    forced_first = false  # the first roll or draw of a turn is forced (a deck: true)
    min_bank = 0          # smallest turn total that may be banked

    [dice]                # either [dice] ...
    count = 1             # dice thrown per roll
    sides = 6             # faces numbered 1..sides, equally likely
    other_faces = "pips"  # what a face not listed scores: its number, or an integer
    face.1 = { bust = true }   # each listed face has one effect:
                               # points = n, bust = true or aside = true,
                               # and optionally a probability (all faces or none)
    aside_bust = 3        # the turn busts once this many dice are set aside
    refill = false        # true: dice set aside are replaced, every roll throws `count`
    one_throw = false     # true: a turn is one throw, which ends it (Hog)
    bust_points = 0       # one_throw only: points a busting throw banks
    aside_name = "shotgun"  # how the board names a die set aside (default "die set aside")
                          # count = [1, 10]: the mover chooses how many dice to throw
    [dice.bust_effect]    # a bust showing `bust_faces` bust faces or more
    bust_faces = 2        #   also changes the banked score:
    score = "zero"        #   "zero", or "penalty" (down by `penalty`, not below `floor`)

    [deck]                # ... or [deck]
    bad = 6               # bad items: drawing one busts the turn
    good = 42             # good items: each adds 1 point
    reshuffle = "last-bad"  # all items go back when the last bad one is drawn,
                          # "every-bust": after any bad one, "every-turn": before each turn
    [deck.items]          # or kinds of items instead of bad and good, each with
                          # a count and one effect: points = n, bust = true, stop = true
    green = { count = 20, points = 1 }
    gold = { count = 4, points = 3 }
    red = { count = 4, bust = true }
    skull = { count = 1, bust = true, score = "zero" }  # or "penalty", penalty = n
                          # (with deck.floor = F <= 0, the lowest banked score)
    bell = { count = 2, stop = true }   # ends the turn, banking the turn total
    hazard = { count = 3, bust = true, bust_at = 2 }  # the second of a turn busts,
                          # the first is set aside

    [cup]                 # ... or a cup of coloured dice (Zombie Dice)
    throw = 3             # dice per roll: footprints kept, the rest drawn from the cup
    bust = 3              # shotguns set aside that end the turn with nothing
    [cup.dice]            # colours: how many, and their brain/shotgun/footprint faces
    green = { count = 6, brain = 3, shotgun = 1, footprint = 2 }

    [scoring_dice]        # ... or dice scored by combinations (Farkle)
    count = 6             # dice; the turn state is the number left to throw
    sides = 6
    unit = 50             # every number of points is a multiple of it
    singles = { 1 = 100, 5 = 50 }
    three_of_a_kind = { 1 = 1000, 2 = 200, 3 = 300, 4 = 400, 5 = 500, 6 = 600 }
    more_of_a_kind = { 4 = 2, 5 = 4, 6 = 8 }   # times the three of a kind
    three_pairs = 750     # three different faces, each exactly twice (0: none)
    straight = 1500       # every face once (0: none)
    hot_dice = true       # all dice set aside: throw them all again
    farkle_penalty = { farkles = 3, points = 500, floor = -2500 }
                          # optional: the third farkle in a row of a player costs
                          # 500 banked points, not below -2500

With ``[scoring_dice]`` the goal, komi and ``min_bank`` are points too,
multiples of ``unit``; the engine counts in units (Farkle to 10,000 is a
race to 200).

The parts are enumerated into a :class:`~designer.engine.model.TurnModel`
(:mod:`designer.engine.parts`); the file is refused if a turn can go on
forever without scoring or busting, or if no turn can score a point.
"""

import re
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path

import numpy as np

from designer.engine.cup import Colour, Cup
from designer.engine.features import bad_feature_name, part_features
from designer.engine.model import CHOOSE, END, TurnModel
from designer.engine.parts import RESHUFFLES, Deck, Dice, Face, Item, ScoringDice, enumerate_turn
from designer.errors import DesignError

MAX_DICE = 10
MAX_SIDES = 100
MAX_BAD = 60
MAX_GOOD = 400
MAX_GOAL = 100_000

_TOP = ("name", "goal", "komi", "players", "ending", "ties", "turn", "dice", "deck", "scoring_dice",
        "cup")
_CUP = ("throw", "bust", "dice")
_COLOUR = ("count", "brain", "shotgun", "footprint")
MAX_CUP = 30
_TURN = ("forced_first", "min_bank")
_DICE = ("count", "sides", "other_faces", "face", "aside_bust", "refill", "one_throw",
         "bust_points", "bust_effect", "aside_name")
#: Longest name of the dice set aside.
MAX_NAME = 30
_FACE = ("points", "bust", "aside", "probability")
_EFFECT = ("bust_faces", "score", "penalty", "floor")
_DECK = ("bad", "good", "reshuffle", "items", "floor")
_ITEM = ("count", "points", "bust", "stop", "score", "penalty", "bust_at")
#: Kinds of items a deck may hold, the deck states (the product over the
#: kinds of their counts plus one, times their bust_at) it may have, and
#: the largest bust_at (the n-th item of a kind in one turn busts).
MAX_KINDS = 8
MAX_DECK_STATES = 100_000
MAX_BUST_AT = 10
_KIND = re.compile(r"[a-z][a-z0-9_]{0,19}")
_SCORING = ("count", "sides", "unit", "singles", "three_of_a_kind", "more_of_a_kind",
            "three_pairs", "straight", "hot_dice", "farkle_penalty")
_FARKLE = ("farkles", "points", "floor")
MAX_SCORING_DICE = 8
MAX_SCORING_SIDES = 12


class RulesError(DesignError):
    """A rules file that cannot be read or describes no playable game."""


@dataclass(frozen=True, eq=False)
class Rules:
    """A game read from a rules file.

    Attributes
    ----------
    name : str
    goal, komi, players : int
        Goal and komi in units of score (:attr:`unit` points each).
    ending : str
        ``"race"`` or ``"rounds"``.
    model : TurnModel
        The enumerated turn process.
    part : Dice or Deck
        The part the turn is built from.
    keys : list
        The part's description of each turn state (state 0 first).
    path : str
        The file read (or ``"<string>"``).
    unit : int
        Points per unit of score.
    ties : str
        The rounds ending's tie rule: ``"replay"`` or ``"earlier-seat"``.
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
    unit: int = 1
    ties: str = "replay"

    @property
    def goal_points(self):
        """The goal in points."""
        return self.goal * self.unit


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
    except FileNotFoundError:
        raise RulesError(f"{path}: cannot read it: there is no such file") from None
    except IsADirectoryError:
        raise RulesError(f"{path}: cannot read it: it is a directory (give a rules file, "
                         "TOML)") from None
    except UnicodeDecodeError as exc:
        raise RulesError(f"{path}: cannot read it: not a UTF-8 text file (byte {exc.start}); "
                         "rules files are UTF-8 TOML") from None
    except OSError as exc:
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
        choose = ()
        if isinstance(d.get("count"), list):  # the mover chooses how many to throw
            span = d["count"]
            if (len(span) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in span)
                    or not 1 <= span[0] <= span[1] <= MAX_DICE):
                self.fail("dice.count", f"{span!r} is not allowed: an integer 1..{MAX_DICE}, or "
                          f"[lo, hi] with 1 <= lo <= hi <= {MAX_DICE} (the mover chooses how "
                          "many dice to throw)")
            choose = tuple(span)
            count = span[1]
        else:
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
        refill = self.bool(d, "refill", False, "dice.")
        one_throw = self.bool(d, "one_throw", False, "dice.")
        bust_points = 0
        if "bust_points" in d:
            if not one_throw:
                self.fail("dice.bust_points", "only with one_throw = true (a turn of one throw "
                          "banks these points when it busts)")
            bust_points = self.int(d, "bust_points", 0, 0, None, "dice.")
            if not any(f.bust for f in faces):
                self.fail("dice.bust_points", "no face busts (give a face { bust = true })")
        if refill and not aside_bust:
            self.fail("dice.refill", "true needs dice.aside_bust: with every roll throwing all "
                      "the dice, only set-aside dice can end a turn that way")
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
        words = Dice.aside_words
        if "aside_name" in d:
            if not any(f.aside for f in faces):
                self.fail("dice.aside_name", "no face is set aside (give a face "
                          "{ aside = true })")
            words = self.aside_name(d["aside_name"])
        return Dice(count, tuple(faces), aside_bust, effect, nfaces, penalty, refill, choose,
                    one_throw, bust_points, words), floor

    def aside_name(self, v):
        """``dice.aside_name``: one name (its plural adds an s) or two, one
        die and several, as the board says them."""
        names = [v] if isinstance(v, str) else v
        ok = (isinstance(names, list) and len(names) in (1, 2)
              and all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME
                      and n.isprintable() for n in names))
        if not ok:
            self.fail("dice.aside_name", f"{v!r} is not allowed: a name such as \"shotgun\" "
                      f"(the plural adds an s) or two, [\"die on the rack\", \"dice on the "
                      f"rack\"], each 1 to {MAX_NAME} printable characters")
        names = [n.strip() for n in names]
        return (names[0], names[1] if len(names) == 2 else names[0] + "s")

    def deck(self, d):
        """``[deck]``: bad and good items, or kinds of items (``[deck.items]``);
        returns the part and the floor of its penalties."""
        pre = "deck."
        self.keys(d, _DECK, pre)
        reshuffle = self.choice(d, "reshuffle", "last-bad", RESHUFFLES, pre)
        if "items" not in d:
            if "floor" in d:
                self.fail(pre + "floor", "only with [deck.items] holding an item with "
                          "score = \"penalty\"")
            bad = self.int(d, "bad", None, 1, MAX_BAD, pre)
            good = self.int(d, "good", None, 1, MAX_GOOD, pre)
            return Deck.of(bad, good, reshuffle), 0
        for k in ("bad", "good"):
            if k in d:
                self.fail(pre + k, "give either bad and good, or the kinds of [deck.items], "
                          "not both")
        kinds = self.items(self.table(d, "items", pre))
        floor = 0
        if any(k.effect == "penalty" for k in kinds):
            floor = d.get("floor", 0)
            if (isinstance(floor, bool) or not isinstance(floor, int)
                    or not -MAX_GOAL <= floor <= 0):
                self.fail(pre + "floor", f"{floor!r} is not allowed: an integer "
                          f"-{MAX_GOAL}..0 (the lowest banked score)")
        elif "floor" in d:
            self.fail(pre + "floor", "only with an item of score = \"penalty\"")
        return Deck(kinds, reshuffle), floor

    def items(self, table):
        """``[deck.items]``: each kind's count and its one effect."""
        pre = "deck.items"
        if not table:
            self.fail(pre, "is empty: give the kinds of items, such as "
                      "green = { count = 24, points = 1 } and red = { count = 4, bust = true }")
        if len(table) > MAX_KINDS:
            self.fail(pre, f"{len(table)} kinds is not allowed: at most {MAX_KINDS}")
        kinds = []
        for name, spec in table.items():
            key = f"{pre}.{name}"
            if not _KIND.fullmatch(name) or bad_feature_name(name + "_rem"):
                self.fail(key, "not allowed as a kind's name: lower-case letters, digits and "
                          "_, starting with a letter, at most 20 characters")
            if name in ("w", "c", "pts"):
                self.fail(key, f"not allowed as a kind's name: {name}_rem already counts "
                          + {"w": "the bust items", "c": "the other items",
                             "pts": "the points"}[name] + " left")
            if not isinstance(spec, dict):
                self.fail(key, "must be a table such as { count = 4, points = 2 }, "
                          "{ count = 4, bust = true } or { count = 1, stop = true }")
            self.keys(spec, _ITEM, key + ".")
            count = self.int(spec, "count", None, 0, MAX_GOOD, key + ".")
            what = [k for k in ("points", "bust", "stop") if k in spec]
            if len(what) != 1:
                self.fail(key, "an item has one effect: points = n, bust = true or stop = true"
                          + (f"; this one has {' and '.join(what)}" if what else ""))
            for flag in ("bust", "stop"):
                if flag in spec and spec[flag] is not True:
                    self.fail(f"{key}.{flag}", f"{spec[flag]!r} is not allowed: true "
                              "(leave the key out otherwise)")
            points = self.int(spec, "points", 0, 0, MAX_GOAL, key + ".")
            effect, penalty = "none", 0
            if "score" in spec:
                if what != ["bust"]:
                    self.fail(key + ".score", "only with bust = true")
                effect = self.choice(spec, "score", None, ("zero", "penalty"), key + ".")
            if effect == "penalty":
                penalty = self.int(spec, "penalty", None, 1, MAX_GOAL, key + ".")
            elif "penalty" in spec:
                self.fail(key + ".penalty", "only with score = \"penalty\"")
            bust_at = 1
            if "bust_at" in spec:
                if what != ["bust"]:
                    self.fail(key + ".bust_at", "only with bust = true")
                bust_at = self.int(spec, "bust_at", 1, 1, MAX_BUST_AT, key + ".")
            kinds.append(Item(name, count, points, "bust" in spec, "stop" in spec, effect,
                              penalty, bust_at))
        if not any(k.bust and k.count >= k.bust_at for k in kinds):
            self.fail(pre, "no item busts: give a kind { count = n, bust = true } with n >= 1 "
                      "(and n >= bust_at)")
        states = 1
        for k in kinds:
            states *= (k.count + 1) * k.bust_at
        if states > MAX_DECK_STATES:
            self.fail(pre, f"these counts make {states:,} deck states (the product of each "
                      f"kind's count plus one, times its bust_at): at most {MAX_DECK_STATES:,}")
        return tuple(kinds)

    def scoring_dice(self, d):
        pre = "scoring_dice."
        self.keys(d, _SCORING, pre)
        count = self.int(d, "count", 6, 1, MAX_SCORING_DICE, pre)
        sides = self.int(d, "sides", 6, 2, MAX_SCORING_SIDES, pre)
        unit = self.int(d, "unit", 1, 1, None, pre)

        def points(v, key):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v % unit:
                self.fail(key, f"{v!r} is not allowed: points, an integer >= 0 and a "
                          f"multiple of unit = {unit}")
            return v

        def faces(key):
            table = self.table(d, key, pre)
            out = []
            for face, v in table.items():
                if not face.isdigit() or not 1 <= int(face) <= sides:
                    self.fail(f"{pre}{key}.{face}", f"no such face: faces are numbered 1..{sides}")
                out.append((int(face), points(v, f"{pre}{key}.{face}")))
            return tuple(sorted(out))

        singles = faces("singles")
        kinds = faces("three_of_a_kind")
        more = []
        for n, v in self.table(d, "more_of_a_kind", pre).items():
            key = f"{pre}more_of_a_kind.{n}"
            if not n.isdigit() or not 4 <= int(n) <= MAX_SCORING_DICE:
                self.fail(key, f"not allowed: 4..{MAX_SCORING_DICE} of a kind")
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                self.fail(key, f"{v!r} is not allowed: an integer >= 1 (times the face's "
                          "three of a kind)")
            more.append((int(n), v))
        pairs = points(d.get("three_pairs", 0), pre + "three_pairs")
        straight = points(d.get("straight", 0), pre + "straight")
        if straight and sides > count:
            self.fail(pre + "straight", f"a straight needs a die per face: {sides} faces, "
                      f"{count} dice")
        hot = self.bool(d, "hot_dice", True, pre)
        if not singles and not kinds and not pairs and not straight:
            self.fail(pre + "singles", "no combination scores: give singles, "
                      "three_of_a_kind, three_pairs or straight")
        farkles, penalty, floor = 0, 0, 0
        if "farkle_penalty" in d:
            fp = self.table(d, "farkle_penalty", pre)
            key = pre + "farkle_penalty."
            self.keys(fp, _FARKLE, key)
            farkles = self.int(fp, "farkles", 3, 1, 10, key)
            penalty = points(self.int(fp, "points", None, 1, None, key), key + "points")
            floor = fp.get("floor", 0)
            if isinstance(floor, bool) or not isinstance(floor, int) or floor > 0 or floor % unit:
                self.fail(key + "floor", f"{floor!r} is not allowed: an integer <= 0 (the "
                          f"lowest banked score), a multiple of unit = {unit}")
        return ScoringDice(count, sides, singles, kinds, tuple(sorted(more)), pairs, straight,
                           hot, unit, farkles, penalty // unit), floor // unit

    def cup(self, d):
        pre = "cup."
        self.keys(d, _CUP, pre)
        dice = self.table(d, "dice", pre)
        if not dice:
            self.fail(pre + "dice", "give at least one colour, such as green = { count = 6, "
                      "brain = 3, shotgun = 1, footprint = 2 }")
        colours = []
        for name, spec in dice.items():
            key = f"{pre}dice.{name}"
            if not isinstance(spec, dict):
                self.fail(key, "must be a table such as { count = 6, brain = 3, shotgun = 1, "
                          "footprint = 2 }")
            self.keys(spec, _COLOUR, key + ".")
            count = self.int(spec, "count", None, 1, MAX_CUP, key + ".")
            faces = [self.int(spec, f, 0, 0, None, key + ".") for f in _COLOUR[1:]]
            if not sum(faces):
                self.fail(key, "a die needs at least one face: brain, shotgun or footprint")
            colours.append(Colour(name, count, *faces))
        total = sum(c.count for c in colours)
        if total > MAX_CUP:
            self.fail(pre + "dice", f"{total} dice is not allowed: at most {MAX_CUP} in the cup")
        throw = self.int(d, "throw", 3, 1, total, pre)
        bust = self.int(d, "bust", 3, 1, total, pre)
        return Cup(tuple(colours), throw, bust)

    def in_units(self, value, key, unit):
        if value % unit:
            self.fail(key, f"{value} is not allowed: a multiple of scoring_dice.unit = {unit}")
        return value // unit

    def rules(self, data):
        self.keys(data, _TOP, "")
        name = data.get("name", Path(self.where).stem)
        if not isinstance(name, str):
            self.fail("name", "must be a string")
        goal = self.int(data, "goal", None, 1, MAX_GOAL)
        komi = self.int(data, "komi", 0, 0, goal - 1)
        players = self.int(data, "players", 2, 2, 4)
        ending = self.choice(data, "ending", "race", ("race", "rounds"))
        ties = self.choice(data, "ties", "replay", ("replay", "earlier-seat"))
        if "ties" in data and ending != "rounds":
            self.fail("ties", "only with ending = \"rounds\" (the race has no ties)")
        turn = self.table(data, "turn")
        self.keys(turn, _TURN, "turn.")
        min_bank = self.int(turn, "min_bank", 0, 0, None, "turn.")
        kinds = [k for k in ("dice", "deck", "scoring_dice", "cup") if k in data]
        if len(kinds) != 1:
            self.fail("dice" if not kinds else kinds[-1], "a game has one part: [dice], [deck], "
                      "[scoring_dice] or [cup]" + (f" (this file has {' and '.join(kinds)})"
                                                   if kinds else " (this file has none)"))
        # a deck turn starts with a draw unless the file says otherwise: a
        # pass would hand the next player the same deck, and a deck of bad
        # items only is passed back and forth for ever
        forced = self.bool(turn, "forced_first", kinds == ["deck"], "turn.")
        floor = 0
        unit = 1
        if kinds == ["dice"]:
            part, floor = self.dice(self.table(data, "dice"))
            if part.one_throw:
                if min_bank:
                    self.fail("turn.min_bank", "not allowed with dice.one_throw = true: a turn "
                              "of one throw banks whatever it throws")
                forced = True  # a turn of one throw always throws
        elif kinds == ["deck"]:
            part, floor = self.deck(self.table(data, "deck"))
        elif kinds == ["cup"]:
            part = self.cup(self.table(data, "cup"))
        else:
            part, floor = self.scoring_dice(self.table(data, "scoring_dice"))
            unit = part.unit
            goal = self.in_units(goal, "goal", unit)
            komi = self.in_units(komi, "komi", unit)
            min_bank = self.in_units(min_bank, "turn.min_bank", unit)
        model, keys = enumerate_turn(part, forced_first=forced, min_bank=min_bank, floor=floor)
        model = model.with_features(*part_features(part, keys))
        self.playable(model, kinds[0], goal, min_bank)
        return Rules(name, goal, komi, players, ending, model, part, keys, self.where, unit, ties)

    def playable(self, model, part, goal, min_bank):
        """Refuse a turn that can go on forever, a dead end below the
        minimum bank, and a game in which no turn scores."""
        blame = {"dice": "dice.face", "deck": "deck", "scoring_dice": "scoring_dice",
                 "cup": "cup.dice"}[part]
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
