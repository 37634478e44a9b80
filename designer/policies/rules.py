"""Human-playable rules as data: a decision list of clauses.

A rule is an ordered list of clauses ``(conditions, action)`` followed by a
default action. The first clause whose conditions all hold decides; when
none does, the default does. Every action is a threshold "keep drawing
(rolling) while X" read at the current state:

=============  =========================================  =========
action         draw / roll while                          constants
=============  =========================================  =========
``roll``       always (on to the goal)                    0
``hold``       never                                      0
``below a``    ``k < a``  (hold at ``a``)                 1
``pace a d``   ``k < a + round((j - i) / d)``             2
``maxscore``   ``c_rem > w_rem * k`` (decks; dice:        0
               ``sum(pips) > bust_faces * k``)
``bold m``     ``c_rem > w_rem * (k - m)`` (decks)        1
``mspace d``   ``c_rem > w_rem * (k - round((j-i)/d))``   1
``boldpace a   ``c_rem > w_rem * (k - a - round((j-i)/d))``  2
d``
``reach a``    ``i + k < a``                              1
``reachmax a   ``i + k < max(a, j + d)``                  2
d``
``lead d``     ``i + k < j + d``                          1
=============  =========================================  =========

``while COMPARISON``  ``COMPARISON`` (any arithmetic, below)     its own

A condition compares a feature with an integer or with another feature plus
an offset: ``max_ij >= 71``, ``s == 1``, ``i2 < j``, ``i2 < j+3``; or two
arithmetic expressions: ``opp_need * 2 <= need - k``
(:mod:`designer.policies.expressions`: ``+ - * /``, ``min``, ``max``,
squares, integer or one-decimal constants). The action ``while`` takes such
a comparison: ``while c_rem * (need + opp_need) > 2 * w_rem * k * opp_need``
draws while it holds. Features:
``i`` (own score), ``j`` (the opponent's), ``k`` (turn total; ``b`` in
Zombie Dice), ``w_rem``, ``c_rem`` (items left, decks), ``need``
(``goal - i``), ``opp_need`` (``goal - j``), ``diff`` (``j - i``, the
opponent's lead), ``max_ij`` (the higher score), ``sum_ij`` (``i + j``, how
far the game has gone: optimal Fowl Play draws to the goal once the two
scores together pass about 78), ``i2`` (``i + k``), ``s`` (shotguns) and
``p`` (seat, 1 or 2; Zombie Dice).

Size: the numeric constants (every integer written in a condition,
a zero offset of a feature comparison excepted, and the action's constants)
plus the number of conditions; arithmetic on what a player sees costs
nothing. What it costs at the table is counted apart, as operations per
decision (:attr:`Rule.ops`: every operator, rounding and comparison on the
longest way to a decision). ``maxscore`` has size 0, ``below 20`` size 1,
Pig's keep pace and end race (``max_ij >= 71 -> roll; else pace 21 8``)
size 4.

Rounding is Python's (and numba's) ``round``: halves go to the even integer.

The text form, saved by :meth:`Rule.save`, is a small TOML file (never
code)::

    family = "dice"
    clauses = [
      ["max_ij >= 71", "roll"],
      ["pace 21 8"],
    ]

Each clause is its conditions followed by its action; the last clause has no
conditions (the default).
"""

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from designer.errors import DesignError
from designer.policies.expressions import Comparison, ExpressionError, encode_all

#: Feature codes (the kernel's numbering).
FEATURES = {"i": 0, "j": 1, "k": 2, "w_rem": 3, "c_rem": 4, "need": 5, "opp_need": 6,
            "diff": 7, "max_ij": 8, "s": 9, "p": 10, "i2": 11, "sum_ij": 12}
#: ``b`` is Zombie Dice's name for the turn total.
ALIASES = {"b": "k"}
#: Features each family can see.
FAMILY_FEATURES = {
    "deck": {"i", "j", "k", "w_rem", "c_rem", "need", "opp_need", "diff", "max_ij", "i2",
             "sum_ij"},
    "dice": {"i", "j", "k", "need", "opp_need", "diff", "max_ij", "i2", "sum_ij"},
    "zombie": {"i", "j", "k", "need", "opp_need", "diff", "max_ij", "i2", "s", "p", "sum_ij"},
}
OPS = {">=": 0, "<=": 1, "==": 2, "<": 3, ">": 4, "!=": 5}
#: Action codes and their number of constants.
ACTIONS = {"roll": (0, 0), "hold": (1, 0), "below": (2, 1), "pace": (3, 2), "maxscore": (4, 0),
           "bold": (5, 1), "mspace": (6, 1), "reach": (7, 1), "reachmax": (8, 2),
           "lead": (9, 1), "boldpace": (10, 2)}
#: Operations each threshold action takes to decide (its formula's
#: operators, a rounding and the comparison).
ACTION_OPS = {"roll": 0, "hold": 0, "below": 1, "pace": 5, "maxscore": 2, "bold": 3,
              "mspace": 6, "reach": 2, "reachmax": 4, "lead": 3, "boldpace": 7}
FAMILY_ACTIONS = {
    "deck": set(ACTIONS) | {"while"},
    "dice": set(ACTIONS) - {"bold", "mspace", "boldpace"} | {"while"},
    "zombie": set(ACTIONS) - {"maxscore", "bold", "mspace", "boldpace"} | {"while"},
}
#: What a rule over a rules game sees of the position (in points); the
#: game's own turn-state features come after (:mod:`designer.engine.features`).
RULES_FEATURES = ("i", "j", "k", "need", "opp_need", "diff", "max_ij", "sum_ij", "i2", "goal")
FAMILY_FEATURES["rules"] = set(RULES_FEATURES)
FAMILY_ACTIONS["rules"] = {"roll", "hold", "below", "pace", "reach", "reachmax", "lead", "while"}


def feature_codes(family, extra=()):
    """The features a rule of ``family`` may name, with their codes: the
    families' fixed numbering, or for a rules game its position's numbers
    then ``extra``, its turn state's own."""
    if family != "rules":
        return FEATURES
    return {name: n for n, name in enumerate(RULES_FEATURES + tuple(extra))}


#: Most clauses a rule may have (the kernel's arrays are small and fixed).
MAX_CLAUSES = 24

_NOUN = {"i": "your score", "j": "the opponent's score", "k": "the turn total",
         "w_rem": "the bad items left", "c_rem": "the good items left",
         "need": "the points you still need", "opp_need": "the points the opponent needs",
         "diff": "the opponent's lead", "max_ij": "the higher score",
         "i2": "your score plus the turn total", "s": "the shotguns", "p": "your seat",
         "sum_ij": "the sum of the two scores"}
_VERB = {">=": "is {} or more", "<=": "is {} or less", "==": "is {}", "<": "is below {}",
         ">": "is above {}", "!=": "is not {}"}


_SPECIAL = {("max_ij", ">="): "either score is {} or more", ("p", "=="): "you are player {}",
            ("s", "=="): "you have {} shotguns",
            ("sum_ij", ">="): "the two scores add up to {} or more",
            ("s", "<="): "you have {} shotguns or fewer",
            ("diff", ">="): "the opponent leads by {} or more",
            ("need", "<="): "you need {} points or fewer",
            ("opp_need", "<="): "the opponent needs {} points or fewer",
            ("w_rem", "<="): "{} bad items or fewer are left",
            ("c_rem", "<="): "{} good items or fewer are left"}


#: With 3 or 4 players the opponent a rule reads is the one with the highest
#: score (``j``): the two-player words, as they read then (in this order).
_MANY_SEATS = (("either score", "any score"), ("the higher score", "the highest score"),
               ("the two scores add up to", "your score and the highest other add up to"),
               ("the sum of the two scores", "your score plus the highest other"),
               ("the opponent's lead", "the leading opponent's lead"),
               ("the opponent's score", "the highest other score"),
               ("the opponent leads", "an opponent leads"),
               ("the opponent needs", "the leading opponent needs"),
               ("the points the opponent needs", "the points the leading opponent needs"))


#: Comparisons of two features that read better in words of their own.
_SPECIAL_PAIR = {("opp_need", "<=", "w_rem"): "the opponent needs no more points than there "
                                               "are bad items left",
                 ("opp_need", "<", "w_rem"): "the opponent needs fewer points than there are "
                                              "bad items left",
                 ("opp_need", "<=", "k"): "the opponent needs no more points than your turn "
                                          "total",
                 ("opp_need", "<", "k"): "the opponent needs fewer points than your turn total",
                 ("j", "<", "i"): "you lead", ("j", "<=", "i"): "you lead or the scores are tied",
                 ("j", ">", "i"): "the opponent leads",
                 ("j", ">=", "i"): "the opponent leads or the scores are tied"}


#: Largest constant a rule may hold: the compiled decisions compute in 64-bit
#: integers, and no game has scores anywhere near it.
MAX_CONSTANT = 10**9


def _constant(text, digits):
    """The integer ``digits`` of rule ``text``, at most :data:`MAX_CONSTANT`
    in size (a bigger one would overflow the compiled decision)."""
    v = int(digits)
    if abs(v) > MAX_CONSTANT:
        raise _err(text, f"constants are integers from -{MAX_CONSTANT:,} to {MAX_CONSTANT:,}")
    return v


def _err(text, why):
    return DesignError(f"invalid rule {text!r}: {why}")


@dataclass(frozen=True)
class Condition:
    """``feature op rhs_feature + const`` (``rhs_feature`` None: ``feature op const``)."""

    feature: str
    op: str
    const: int
    rhs: str | None = None

    @classmethod
    def parse(cls, text, names=FEATURES):
        parts = text.split()
        if len(parts) != 3 or not _SIMPLE.fullmatch(parts[0]) or not _SIMPLE_RHS.fullmatch(
                parts[2]):
            return ExprCondition.parse(text, names)
        feat, op, rhs = parts
        feat = ALIASES.get(feat, feat)
        if feat not in names:
            raise _err(text, f"unknown feature {feat!r} (allowed {', '.join(names)})")
        if op not in OPS:
            raise _err(text, f"unknown comparison {op!r} (allowed {' '.join(OPS)})")
        m = re.fullmatch(r"(-?\d+)|([a-z_0-9]+?)(?:([+-])(\d+))?", rhs)
        if m is None:
            raise _err(text, "the right side is an integer or FEATURE[+-N]")
        if m.group(1) is not None:
            return cls(feat, op, _constant(text, m.group(1)))
        other = ALIASES.get(m.group(2), m.group(2))
        if other not in names:
            raise _err(text, f"unknown feature {other!r} (allowed {', '.join(names)})")
        n = _constant(text, m.group(4) or "0") * (-1 if m.group(3) == "-" else 1)
        return cls(feat, op, n, other)

    @property
    def size(self):
        return 1 + (1 if (self.rhs is None or self.const != 0) else 0)

    @property
    def ops(self):
        """The comparison, and the offset's addition if any."""
        return 1 + (1 if (self.rhs is not None and self.const != 0) else 0)

    @property
    def features(self):
        return {f for f in (self.feature, self.rhs) if f is not None}

    def formula(self, family="deck"):
        rhs = str(self.const) if self.rhs is None else _offset(_fname(self.rhs, family), self.const)
        return f"{_fname(self.feature, family)} {self.op} {rhs}"

    def phrase(self):
        if self.rhs is not None and self.const == 0:
            pair = _SPECIAL_PAIR.get((self.feature, self.op, self.rhs))
            if pair:
                return pair
        if (self.feature, self.rhs) == ("opp_need", "w_rem") and self.op in ("<=", ">="):
            n = self.const
            more = f"{abs(n)} {'more' if n > 0 else 'fewer'}"
            # opp_need <= w_rem + n: at most n more, or (n < 0) at least |n| fewer
            least = "at most" if (self.op == "<=") == (n > 0) else "at least"
            return f"the opponent needs {least} {more} points than there are bad items left"
        special = _SPECIAL.get((self.feature, self.op)) if self.rhs is None else None
        if special:
            return special.format(self.const)
        if self.rhs is None:
            value = str(self.const)
            if self.feature == "p":
                value = f"player {self.const}"
        else:
            value = _noun(self.rhs)
            if self.const:
                value += f" {'plus' if self.const > 0 else 'minus'} {abs(self.const)}"
        return f"{_noun(self.feature)} {_VERB[self.op].format(value)}"


#: ``FEATURE OP VALUE`` conditions (any other is an arithmetic comparison).
_SIMPLE = re.compile(r"[a-z_][a-z_0-9]*")
_SIMPLE_RHS = re.compile(r"-?\d+|[a-z_][a-z_0-9]*?(?:[+-]\d+)?")


#: How a sentence says a rules game's position and turn-state features
#: (:mod:`designer.engine.features`) that the families do not have.
_RULES_NOUN = {"goal": "the goal", "aside": "the dice set aside",
               "dice_left": "the dice left to throw", "farkles": "your farkles in a row",
               "opp_farkles": "the opponent's farkles in a row",
               "feet": "the footprints in hand", "in_cup": "the dice in the cup"}


def _noun(f):
    """How a sentence says feature ``f`` (a Python rules module's own by its
    name)."""
    return _NOUN.get(f) or _RULES_NOUN.get(f) or f.replace("_", " ")


class _Nouns(dict):
    """:data:`_NOUN` that also says a rules game's own features."""

    def __missing__(self, f):
        return _noun(f)


def _comparison(text, whole=None, names=FEATURES):
    """``text`` as an arithmetic :class:`Comparison` of the features
    ``names`` (default: any family's; ``whole``: the clause text the
    message quotes)."""
    try:
        return Comparison.parse(text, tuple(names), ALIASES)
    except ExpressionError as exc:
        raise _err((whole or text).strip(), str(exc)) from None


def _named(text, family):
    """A formula with Zombie Dice's name for the turn total."""
    return re.sub(r"\bk\b", "b", text) if family == "zombie" else text


@dataclass(frozen=True)
class ExprCondition:
    """A condition comparing two arithmetic expressions (one condition plus
    its constants in the size)."""

    comparison: Comparison

    @classmethod
    def parse(cls, text, names=FEATURES):
        return cls(_comparison(text, names=names))

    @property
    def size(self):
        return 1 + self.comparison.constants

    @property
    def ops(self):
        return self.comparison.ops

    @property
    def features(self):
        return self.comparison.features

    def formula(self, family="deck"):
        return _named(self.comparison.text(), family)

    def phrase(self):
        return self.comparison.phrase(_Nouns(), _VERB)


def _top_level_split(text):
    """``text`` split at the commas outside brackets (``min(a, b)`` keeps its own)."""
    out, depth, cur = [], 0, []
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def _fname(f, family):
    return "b" if (f == "k" and family == "zombie") else f


def _offset(name, n):
    return name if n == 0 else f"{name}{'+' if n > 0 else '-'}{abs(n)}"


@dataclass(frozen=True)
class Action:
    """A threshold: keep drawing (rolling) while it holds; see the module table."""

    kind: str
    args: tuple = ()
    comparison: Comparison | None = None  # the ``while`` action's

    @classmethod
    def parse(cls, text, names=FEATURES):
        parts = text.split()
        if parts and parts[0] == "while":
            rest = text.strip()[len("while"):].strip()
            if not rest:
                raise _err(text, "while takes a comparison, e.g. 'while c_rem > w_rem * k'")
            return cls("while", (), _comparison(rest, text.strip(), names))
        if not parts or parts[0] not in ACTIONS:
            raise _err(text, f"an action is one of {', '.join(ACTIONS)} followed by its "
                             f"integers, or 'while COMPARISON'")
        kind = parts[0]
        n = ACTIONS[kind][1]
        if len(parts) != n + 1:
            raise _err(text, f"{kind} takes {n} integer{'s' if n != 1 else ''}")
        try:
            [int(x) for x in parts[1:]]
        except ValueError:
            raise _err(text, f"{kind} takes integers") from None
        args = tuple(_constant(text, x) for x in parts[1:])
        if kind in ("pace", "mspace", "boldpace") and args[-1] < 1:
            raise _err(text, "the divisor of pace/mspace must be 1 or more")
        return cls(kind, args)

    @property
    def size(self):
        return self.comparison.constants if self.kind == "while" else len(self.args)

    @property
    def ops(self):
        """Operations to decide (the module table's formula, rounding included)."""
        if self.kind == "while":
            return self.comparison.ops
        return ACTION_OPS[self.kind]

    @property
    def features(self):
        return self.comparison.features if self.kind == "while" else set()

    def text(self):
        if self.kind == "while":
            return f"while {self.comparison.text()}"
        return " ".join([self.kind, *map(str, self.args)])

    def formula(self, family="deck"):
        k = _fname("k", family)
        a = self.args
        if self.kind == "while":
            return _named(self.comparison.text(), family)
        return {
            "roll": "draw" if family == "deck" else "roll",
            "hold": "hold",
            "below": f"{k} < {a[0]}" if a else "",
            "pace": f"{k} < {a[0]} + round((j - i) / {a[1]})" if len(a) == 2 else "",
            "maxscore": ("c_rem > w_rem * k" if family == "deck" else "pips > busts * k"),
            "bold": f"c_rem > w_rem * (k - {a[0]})" if a else "",
            "mspace": f"c_rem > w_rem * (k - round((j - i) / {a[0]}))" if a else "",
            "boldpace": (f"c_rem > w_rem * (k - {a[0]} - round((j - i) / {a[1]}))"
                         if len(a) == 2 else ""),
            "reach": f"i + {k} < {a[0]}" if a else "",
            "reachmax": f"i + {k} < max({a[0]}, j + {a[1]})" if len(a) == 2 else "",
            "lead": f"i + {k} < j + {a[0]}" if a else "",
        }[self.kind]

    def phrase(self, family="deck", ending="race"):
        draw = "draw" if family == "deck" else "roll"
        tot = "the turn total" if family != "zombie" else "your brains this turn"
        a = self.args
        if self.kind == "while":
            return f"{draw} while {self.comparison.phrase(_Nouns(), _VERB)}"
        if self.kind == "roll":
            if family == "rules" and ending == "rounds":  # no goal ends a turn there
                return f"{draw} on, holding once holding wins the game"
            return f"{draw} on to the goal" if family != "zombie" else "roll"
        if self.kind == "hold":
            return "hold" if family == "deck" else "hold (at 0: pass)"
        if self.kind == "below":
            return f"hold once {tot} reaches {a[0]}"
        if self.kind == "pace":
            return (f"hold once {tot} reaches {a[0]} plus the opponent's lead divided by "
                    f"{a[1]}, rounded")
        if self.kind == "maxscore":
            if family == "deck":
                return "draw while the good items left outnumber the bad items left times the turn total"
            return "roll while the scoring pips outweigh the bust faces times the turn total"
        if self.kind == "bold":
            return (f"draw while the good items left outnumber the bad items left times "
                    f"(the turn total minus {a[0]})")
        if self.kind == "mspace":
            return (f"draw while the good items left outnumber the bad items left times (the "
                    f"turn total minus the opponent's lead divided by {a[0]}, rounded)")
        if self.kind == "boldpace":
            return (f"draw while the good items left outnumber the bad items left times (the "
                    f"turn total minus {a[0]} minus the opponent's lead divided by {a[1]}, "
                    f"rounded)")
        if self.kind == "reach":
            return f"hold once your score plus {tot} reaches {a[0]}"
        if self.kind == "reachmax":
            return (f"hold once your score plus {tot} reaches {a[0]} and the opponent's score "
                    f"plus {a[1]}")
        return f"hold once your score plus {tot} reaches the opponent's score plus {a[0]}"


@dataclass(frozen=True)
class Clause:
    conditions: tuple
    action: Action

    @property
    def size(self):
        return sum(c.size for c in self.conditions) + self.action.size

    @property
    def condition_ops(self):
        return sum(c.ops for c in self.conditions)


@dataclass(frozen=True)
class Rule:
    """A decision list: ``clauses[:-1]`` have conditions, ``clauses[-1]`` none.

    Build with :meth:`parse` / :meth:`from_clauses` / :meth:`load`; see the
    module docstring for the grammar and the size.
    """

    family: str
    clauses: tuple
    extra: tuple = ()

    def __post_init__(self):
        if self.family not in FAMILY_FEATURES:
            raise DesignError(f"invalid rule family {self.family!r}: allowed deck, dice, zombie, "
                              f"rules")
        if not self.clauses or self.clauses[-1].conditions:
            raise DesignError("invalid rule: the last clause is the default (no conditions)")
        if len(self.clauses) > MAX_CLAUSES:
            raise DesignError(f"invalid rule: {len(self.clauses)} clauses, at most {MAX_CLAUSES}")
        for cl in self.clauses:
            if cl.action.kind not in FAMILY_ACTIONS[self.family]:
                raise DesignError(f"invalid rule: action {cl.action.kind!r} is not for "
                                  f"{self.family} games")
            for f in sorted(set().union(cl.action.features,
                                        *(c.features for c in cl.conditions))):
                if f not in FAMILY_FEATURES[self.family] and f not in self.extra:
                    raise DesignError(f"invalid rule: feature {f!r} is not seen in "
                                      f"{self.family} games")

    @classmethod
    def from_clauses(cls, family, clauses, extra=()):
        """``clauses``: list of lists of strings, each conditions then action;
        ``extra``: a rules game's own feature names (family ``"rules"``)."""
        names = feature_codes(family, extra)
        out = []
        for cl in clauses:
            if isinstance(cl, str):
                cl = [cl]
            if not cl:
                raise DesignError("invalid rule: an empty clause")
            out.append(Clause(tuple(Condition.parse(c, names) for c in cl[:-1]),
                              Action.parse(cl[-1], names)))
        return cls(family, tuple(out), tuple(extra))

    @classmethod
    def parse(cls, family, text, extra=()):
        """Parse the compact text ``"cond, cond -> action; ...; action"``."""
        clauses = []
        for part in text.split(";"):
            part = part.strip()
            if not part:
                continue
            head, arrow, act = part.rpartition("->")
            conds = [c.strip() for c in _top_level_split(head) if c.strip()] if arrow else []
            clauses.append(conds + [act.strip()])
        return cls.from_clauses(family, clauses, extra)

    # -- what a person reads ----------------------------------------------
    @property
    def size(self):
        """Numeric constants plus conditions."""
        return sum(cl.size for cl in self.clauses)

    @property
    def ops(self):
        """Operations per decision, at most: the conditions of every clause
        tried before the one that decides, that clause's, and its action's
        (the longest such way through the list)."""
        out, before = 0, 0
        for cl in self.clauses:
            before += cl.condition_ops
            out = max(out, before + cl.action.ops)
        return out

    def text(self):
        """The compact text :meth:`parse` reads back."""
        parts = []
        for cl in self.clauses:
            conds = ", ".join(c.formula("deck") for c in cl.conditions)
            parts.append(f"{conds} -> {cl.action.text()}" if conds else cl.action.text())
        return "; ".join(parts)

    def formula(self):
        """A formula: ``if COND and COND: ACTION; elif ...; else: ACTION``."""
        f = self.family
        if len(self.clauses) == 1:
            return self.clauses[0].action.formula(f)
        parts = []
        for n, cl in enumerate(self.clauses):
            act = cl.action.formula(f)
            if n == len(self.clauses) - 1:
                parts.append(f"else: {act}")
            else:
                cond = " and ".join(c.formula(f) for c in cl.conditions)
                parts.append(f"{'if' if n == 0 else 'elif'} {cond}: {act}")
        return "; ".join(parts)

    def sentence(self, ending="race", players=2):
        """One plain English sentence (``ending``: the game's, which changes
        what ``roll`` means in a rules game; ``players``: with more than two
        the opponent is the one with the highest score)."""
        f = self.family
        if len(self.clauses) == 1:
            s = self.clauses[0].action.phrase(f, ending)
        else:
            parts = []
            for n, cl in enumerate(self.clauses[:-1]):
                cond = " and ".join(c.phrase() for c in cl.conditions)
                parts.append(f"{'if' if n == 0 else 'otherwise, if'} {cond}, "
                             f"{cl.action.phrase(f, ending)}")
            parts.append(f"otherwise {self.clauses[-1].action.phrase(f, ending)}")
            s = "; ".join(parts)
        if players > 2:
            for two, many in _MANY_SEATS:
                s = s.replace(two, many)
        return s[0].upper() + s[1:] + "."

    # -- files ---------------------------------------------------------------
    def dumps(self, ending="race", players=2):
        """The TOML text of the rule (a comment with its sentence first,
        worded for the game's ``ending`` and ``players``)."""
        lines = [f"# {self.sentence(ending, players)}", f"# size {self.size}: {self.formula()}",
                 f'family = "{self.family}"', "clauses = ["]
        for cl in self.clauses:
            items = [c.formula("deck") for c in cl.conditions] + [cl.action.text()]
            lines.append("  [" + ", ".join(f'"{x}"' for x in items) + "],")
        lines.append("]")
        return "\n".join(lines) + "\n"

    def save(self, path, ending="race", players=2):
        Path(path).write_text(self.dumps(ending, players))

    @classmethod
    def loads(cls, text, where="rule", extra=()):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DesignError(f"invalid rule file {where}: {exc}") from None
        fam, clauses = data.get("family"), data.get("clauses")
        if not isinstance(fam, str) or not isinstance(clauses, list) or not all(
                isinstance(c, list) and all(isinstance(x, str) for x in c) for c in clauses):
            raise DesignError(f"invalid rule file {where}: needs family = "
                              f"\"deck|dice|zombie|rules\" and clauses = [[\"COND\", ..., "
                              f"\"ACTION\"], ...]")
        try:
            return cls.from_clauses(fam, clauses, extra if fam == "rules" else ())
        except DesignError as exc:
            raise DesignError(f"invalid rule file {where}: {exc}") from None

    @classmethod
    def load(cls, path, extra=()):
        try:
            text = Path(path).read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise DesignError(f"cannot read rule file {str(path)!r}: "
                              f"{getattr(exc, 'strerror', None) or exc}") from None
        return cls.loads(text, repr(str(path)), extra)

    # -- for the kernel ------------------------------------------------------
    def encode(self):
        """``(C, A, E, X)`` arrays for :mod:`designer.policies._rule_kernels`.

        ``C[n] = (clause, feature, op, rhs feature or -1, const)`` (int64; an
        arithmetic condition: feature ``EXPR`` and ``const`` its comparison's
        index), ``A[c] = (code, a, b)`` (``while``: code ``WHILE``, ``a`` the
        comparison's index), and the comparisons' programs ``E``, ``X``
        (:func:`designer.policies.expressions.encode_all`).
        """
        from designer.policies._rule_kernels import EXPR, WHILE

        conds, acts, comparisons = [], [], []
        for n, cl in enumerate(self.clauses):
            for c in cl.conditions:
                if isinstance(c, ExprCondition):
                    conds.append((n, EXPR, 0, -1, len(comparisons)))
                    comparisons.append(c.comparison)
                else:
                    conds.append((n, FEATURES[c.feature], OPS[c.op],
                                  -1 if c.rhs is None else FEATURES[c.rhs], c.const))
            if cl.action.kind == "while":
                acts.append((WHILE, len(comparisons), 0))
                comparisons.append(cl.action.comparison)
            else:
                a = cl.action.args + (0,) * (2 - len(cl.action.args))
                acts.append((ACTIONS[cl.action.kind][0], a[0], a[1]))
        C = np.array(conds, dtype=np.int64).reshape(-1, 5)
        A = np.array(acts, dtype=np.int64).reshape(-1, 3)
        E, X = encode_all(comparisons, FEATURES, OPS)
        return C, A, E, X

    def __str__(self):
        return self.text()
