r"""Studies over a rules file: its integer keys are the design space.

A study of family ``rules`` names a rules file (a shipped example's name,
or ``FILE.toml`` relative to the study file) and sweeps some of its integer
keys, written dotted as in the file (``"dice.sides"``, ``"turn.min_bank"``,
``"deck.bad"``), and optionally its ``ending``; ``goal`` and ``komi`` are
the plane read off the solves, in points (multiples of the game's unit:
50 in Farkle).

A unit is one assignment of the swept keys. Its rules are the file with
those keys replaced, written back to TOML and read by the rules reader
(:func:`designer.engine.rulesfile.parse_rules`), so a unit obeys exactly
the rules a file with those values would. One solve per goal answers
every komi of that goal: the engine's solve of a race to ``G`` gives the
first player's win :math:`V_G(0, k)` for every komi ``k < G`` at once
(:func:`designer.engine.game.solve_game`, its ``komi_table``). Unlike the
coded families, whose solve at the largest goal answers every smaller goal
too, the engine solves each goal of the study on its own (scores that can
fall to a floor, the rounds ending and a minimum bank make positions of
different goals differ), so a unit costs one solve per goal; the turn
model is enumerated once per unit.

Each row holds ``first_player_win`` at its goal and komi, ``fairness``
:math:`|p - 1/2|`, ``fair_komi`` (the start points of the second seat,
negative: of the first, that bring the first player's win closest to 1/2,
in points) and its win ``fair_first_player_win``, ``states`` (positions of
that goal's solve), ``expected_actions`` (the expected game length under
optimal play, in throws, draws and stops) and ``components`` (dice thrown
at most, the deck's items, the dice in the cup, or the scoring dice).
"""

import copy
import dataclasses
import functools
import json
import math
import re
import tomllib

from designer.errors import DesignError
from designer.search.families import Family

#: Every metric column of a rules study's rows.
RULES_METRICS = ("first_player_win", "fairness", "expected_actions", "components", "fair_komi",
                 "fair_first_player_win", "states")

#: Metrics of the coded families a rules study does not have, and why.
MISSING = {"skill_gap": "a rules-file game has no max-score player to measure skill against"}

_BARE = re.compile(r"[A-Za-z0-9_-]+")


# -- rules documents -------------------------------------------------------------

def toml_text(doc):
    """A rules document (the dict :mod:`tomllib` reads) as TOML text.

    Every top-level key is written as ``key = value``, tables as inline
    tables: ``tomllib.loads(toml_text(d)) == d`` for every document a rules
    file holds (tables, strings, integers, floats, booleans, lists).
    """
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in doc.items())


def _key(k):
    return k if _BARE.fullmatch(k) else _string(k)


def _string(s):
    # JSON's escapes are TOML's (\", \\, \n, \uXXXX); DEL is a control
    # character TOML refuses raw
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise DesignError(f"a rules file holds no value like {v!r} ({type(v).__name__})")


def lookup(doc, key):
    """``(found, value)`` of the dotted ``key`` in a rules document;
    raises DesignError naming the part of the key that is not a table."""
    node = doc
    parts = key.split(".")
    for i, part in enumerate(parts):
        if not isinstance(node, dict):
            raise DesignError(f"{'.'.join(parts[:i])} is {node!r} in the rules, not a table")
        if part not in node:
            return False, None
        node = node[part]
    return True, node


def overridden(doc, values, goal=None):
    """A copy of ``doc`` with each dotted key of ``values`` set (tables
    made where missing), the goal set to ``goal`` points and the komi to 0
    (a study's komi is read off the solve)."""
    out = copy.deepcopy(doc)
    for key, v in values.items():
        node = out
        parts = key.split(".")
        for i, part in enumerate(parts[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise DesignError(f"{'.'.join(parts[:i + 1])} is {node!r} in the rules, "
                                  "not a table")
        node[parts[-1]] = v
    if goal is not None:
        out["goal"] = goal
        out["komi"] = 0
    return out


def integer_keys(doc, prefix=""):
    """The dotted keys of ``doc`` whose value is an integer (the keys a
    study can sweep that the file already sets)."""
    out = []
    for k, v in doc.items():
        key = prefix + k
        if isinstance(v, dict):
            out += integer_keys(v, key + ".")
        elif _is_integer(v) and key not in ("goal", "komi", "players"):
            out.append(key)
    return out


def _is_integer(v):
    return isinstance(v, int) and not isinstance(v, bool)


def sweepable(v):
    """Whether a value the file holds may be replaced by an integer: an
    integer, or a list of integers (a choice such as Hog's ``count = [1, 10]``,
    replaced by one fixed count)."""
    return _is_integer(v) or (isinstance(v, list) and bool(v) and all(map(_is_integer, v)))


def components(doc):
    """Physical components of a rules document's game: the most dice one
    throw uses, the deck's items, the dice in the cup or the scoring dice;
    None for a part without such a count."""
    try:
        if "dice" in doc:
            count = doc["dice"].get("count", 1)
            return int(max(count) if isinstance(count, list) else count)
        if "deck" in doc:
            if "items" in doc["deck"]:
                return int(sum(k["count"] for k in doc["deck"]["items"].values()))
            return int(doc["deck"]["bad"]) + int(doc["deck"]["good"])
        if "cup" in doc:
            return int(sum(c.get("count", 0) for c in doc["cup"]["dice"].values()))
        if "scoring_dice" in doc:
            return int(doc["scoring_dice"].get("count", 6))
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    return None


def _throws(doc):
    """Distinct outcomes of one throw or draw, roughly (for work estimates)."""
    try:
        if "dice" in doc:
            count, sides = doc["dice"].get("count", 1), doc["dice"]["sides"]
            counts = range(count[0], count[1] + 1) if isinstance(count, list) else (count,)
            return sum(math.comb(n + sides - 1, n) for n in counts)
        if "scoring_dice" in doc:
            d = doc["scoring_dice"]
            n, sides = d.get("count", 6), d.get("sides", 6)
            return math.comb(n + sides - 1, n)
        if "deck" in doc:
            if "items" in doc["deck"]:
                return math.prod(k["count"] + 1 for k in doc["deck"]["items"].values())
            return (doc["deck"]["bad"] + 1) * (doc["deck"]["good"] + 1)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        pass
    return 1 + (components(doc) or 0)


@functools.lru_cache(maxsize=32)
def parse(text, where):
    """:func:`designer.engine.rulesfile.parse_rules`, remembered: a study
    reads the same rules at its probes and its first units."""
    from designer.engine.rulesfile import parse_rules

    return parse_rules(text, where)


def unit_rules(args, unit):
    """The :class:`~designer.engine.rulesfile.Rules` of ``unit`` at the
    largest goal of ``args`` (from :meth:`RulesFamily.unit_args`)."""
    doc = overridden(tomllib.loads(args["rules"]), unit, max(args["goals"]))
    return parse(toml_text(doc), args["where"])


# -- the family ------------------------------------------------------------------

class RulesFamily(Family):
    """Rules files; see the module docstring.

    The registered instance (no rules) evaluates units in worker processes;
    :meth:`bind` makes the family of one study, with its columns.
    """

    name = "rules"
    metrics = {"fairness": "min", "first_player_win": "min", "expected_actions": "min",
               "components": "min", "states": "min"}
    default_rank = ("fairness", "expected_actions", "components")
    stored = RULES_METRICS
    text_columns = frozenset({"ending"})
    missing = MISSING
    #: How the report says where the numbers come from.
    exact_words = ("Every number is exact (no simulation): each variant's turn is enumerated "
                   "from its rules, and each goal of the study is solved once by the rules "
                   "engine, which answers every komi of that goal.")
    skill_rival = None

    def __init__(self, source=None, keys=(), columns=None):
        self.source = source  # a RulesSource, or None for the registered family
        self.keys = tuple(keys)
        self.columns = dict(columns or {})
        self.space_params = self.keys + ("goal", "komi")
        self.design_columns = tuple(self.columns[k] for k in self.keys)
        self.int_columns = (Family.int_columns | {"states"}
                            | {self.columns[k] for k in self.keys if k != "ending"})

    def bind(self, source, keys):
        """The family of a study over ``source`` sweeping ``keys``.

        Each dotted key is stored in a column named after it with every
        character other than a letter, digit or ``_`` written ``_``
        (``dice.sides`` -> ``dice_sides``): the store's columns are plain
        SQL names.
        """
        columns = {k: re.sub(r"[^A-Za-z0-9_]", "_", k) for k in keys}
        return type(self)(source, keys, columns)

    @property
    def units_word(self):
        return "variants"

    # -- units -----------------------------------------------------------------
    def unit_args(self, spec):
        return {"rules": self.source.text, "where": self.source.label,
                "columns": self.columns, "goals": tuple(spec.space["goal"]),
                "komis": tuple(spec.space["komi"])}

    def components(self, unit):
        return components(overridden(self.source.doc, unit))

    def work(self, unit, args):
        """Distinct outcomes of a throw (or draw) times the positions of
        every goal's solve, :math:`\\sum_G (G/u)^2`: a rough proxy (the
        enumeration and the solves both grow with it), calibrated in
        seconds by :mod:`designer.search.eta` from the units stored."""
        doc = overridden(self.source.doc, unit)
        u = unit_points(doc)
        return float(_throws(doc) * sum((g // u) ** 2 for g in args["goals"]))

    def check_space(self, space, fixed):
        """Done by :func:`designer.search.spec.load_study`, which names the
        study file, the key and the rules' own words."""

    # -- evaluation (runs in worker processes) ---------------------------------
    def evaluate(self, unit, args):
        """Rows of one unit: the turn enumerated once, one solve per goal.

        The goal of each solve is set on the rules read at the largest goal
        (as :func:`designer.engine.game.load_rules_game` sets a goal), and
        every komi below it is read off that solve's komi table.
        """
        from designer.engine.game import RulesGame, solve_game

        rules = unit_rules(args, unit)
        u = rules.unit
        design = {args["columns"][k]: v for k, v in unit.items()}
        n = components(overridden(tomllib.loads(args["rules"]), unit))
        rows, residual = [], 0.0
        for goal in args["goals"]:
            komis = [k for k in args["komis"] if k < goal]
            if not komis:
                continue
            if goal % u or any(k % u for k in komis):
                raise DesignError(f"goal {goal} and komi {komis}: the rules count in units of "
                                  f"{u} points, so goal and komi must be multiples of {u}")
            game = RulesGame(rules=dataclasses.replace(rules, goal=goal // u),
                             source=args["where"], start=(0, 0), players=2,
                             ending=rules.ending, komi=0)
            sol = solve_game(game, max_komi=max(komis) // u, length=True)
            table = {t["komi"]: t for t in sol["komi_table"]}
            residual = max(residual, float(sol["residual"]))
            for k in komis:
                win = float(table[k]["first_player_win"])
                rows.append({**design, "goal": goal, "komi": k, "first_player_win": win,
                             "fairness": abs(win - 0.5),
                             "expected_actions": float(table[k]["expected_actions"]),
                             "components": n,
                             "fair_komi": int(sol["fair_komi"]),
                             "fair_first_player_win": float(sol["fair_komi_first_player_win"]),
                             "states": int(sol["states"])})
        return rows, residual

    def tiny_unit(self):
        return {}

    def tiny_args(self):
        """Piglet to 2: loads the engine's race kernels (a worker's first
        unit then starts compiled)."""
        from designer.engine.rulesfile import example_path

        return {"rules": example_path("piglet").read_text(encoding="utf-8"), "where": "piglet",
                "columns": {}, "goals": (2,), "komis": (0,)}

    # -- reading rows ----------------------------------------------------------
    def describe_design(self, row):
        name = self.source.label if self.source is not None else "rules"
        if not self.keys:
            return name
        return name + " with " + ", ".join(
            f"{k} = {row[self.columns[k]] if k == 'ending' else int(row[self.columns[k]])}"
            for k in self.keys)

    def short_label(self, row):
        text = ", ".join(
            f"{k.rsplit('.', 1)[-1]} {row[self.columns[k]] if k == 'ending' else int(row[self.columns[k]])}"
            for k in self.keys) or (self.source.label if self.source is not None else "rules")
        return text + (f", goal {int(row['goal'])}" if "goal" in row else "")

    def sentence(self, row):
        pts = "point" if int(row["komi"]) == 1 else "points"
        return (f"{self.describe_design(row)}, goal {int(row['goal'])}, second player starts "
                f"with {int(row['komi'])} {pts}: first player wins "
                f"{100 * row['first_player_win']:.3f}%, games last "
                f"{row['expected_actions']:.1f} actions; fair komi "
                f"{int(row['fair_komi'])} ({100 * row['fair_first_player_win']:.3f}%)")


def unit_points(doc):
    """Points per unit of score of a rules document (``scoring_dice.unit``,
    else 1)."""
    sd = doc.get("scoring_dice")
    u = sd.get("unit", 1) if isinstance(sd, dict) else 1
    return u if _is_integer(u) and u > 0 else 1


@dataclasses.dataclass(frozen=True)
class RulesSource:
    """The rules file of a study.

    Attributes
    ----------
    label : str
        As the study names it (an example's name or the path written).
    path : pathlib.Path
        The file read.
    text : str
        Its content (units are evaluated from it, so a file edited during
        a run changes nothing).
    doc : dict
        The content read by :mod:`tomllib`.
    """

    label: str
    path: object
    text: str = dataclasses.field(repr=False)
    doc: dict = dataclasses.field(repr=False, compare=False, hash=False)

    @property
    def sha(self):
        import hashlib

        return hashlib.sha256(self.text.encode()).hexdigest()[:16]
