"""Rule templates: the shapes the search fills with integer constants.

A :class:`Template` is a rule text with named integer slots, e.g.
``"max_ij >= {a} -> roll; pace {b} {d}"``, and an inclusive range per slot.
Ranges are written relative to the game (its goal, its turn totals) by the
family's template list, so the same shapes serve every design of a family.
Every instance of a template has the same size (slots are constants).
"""

from dataclasses import dataclass
from math import prod

from designer.policies.rules import Rule


@dataclass(frozen=True)
class Template:
    """A rule shape: ``text`` with ``{slot}`` fields, ``ranges[slot] = (lo, hi)``.

    ``choices`` names the slots that pick a piece of text (a condition) by
    index instead of an integer: ``((slot, (text, ...)), ...)``; their range
    is ``0 .. len - 1`` and every choice must give the same rule size.
    """

    family: str
    text: str
    ranges: tuple  # ((slot, lo, hi), ...)
    choices: tuple = ()
    extra: tuple = ()  # a rules game's own feature names
    unit: int = 1
    scaled: tuple = ()  # slots counted in units of ``unit`` points

    def rule(self, values):
        """The rule with ``values[slot]`` filled in (``scaled`` slots times
        ``unit``: a rules game's points)."""
        fill = dict(values)
        for slot, texts in self.choices:
            fill[slot] = texts[values[slot]]
        for slot in self.scaled:
            fill[slot] = values[slot] * self.unit
        return Rule.parse(self.family, self.text.format(**fill), self.extra)

    @property
    def slots(self):
        return [s for s, _, _ in self.ranges]

    @property
    def count(self):
        """Number of instances (the exhaustive grid's size)."""
        return prod(hi - lo + 1 for _, lo, hi in self.ranges)

    @property
    def size(self):
        return self.rule({s: lo for s, lo, _ in self.ranges}).size

    def grid(self):
        """Every assignment of the slots, in lexicographic order."""
        out = [{}]
        for s, lo, hi in self.ranges:
            out = [{**v, s: x} for v in out for x in range(lo, hi + 1)]
        return out

    def clip(self, values):
        return {s: min(max(int(values[s]), lo), hi) for s, lo, hi in self.ranges}


def _t(family, text, choices=None, **ranges):
    choices = choices or {}
    rng = tuple((k, 0, len(v) - 1) for k, v in choices.items())
    rng += tuple((k, lo, hi) for k, (lo, hi) in ranges.items())
    return Template(family, text, rng, tuple(choices.items()))


#: Cheap conditions (two features compared, no constant: size 1, like
#: max-score's comparison) for the end of the race and for who leads.
END_RACE = ("opp_need <= w_rem", "opp_need < w_rem", "opp_need <= k", "opp_need < k")
LEADS = ("j < i", "j <= i", "i2 < j", "i2 <= j")


def templates(game):
    """The template list of ``game``'s family, with ranges fitted to it."""
    if game.family == "rules":
        from designer.strategy.rules_game import rules_templates

        return rules_templates(game)
    G = game.goal
    if game.family == "deck":
        t = max(2, min(game.good, G - 1))
        return [
            _t("deck", "maxscore"),
            _t("deck", "below {a}", a=(1, min(t, 30))),
            _t("deck", "bold {a}", a=(-3, 4)),
            _t("deck", "mspace {d}", d=(1, 30)),
            _t("deck", "boldpace {a} {d}", a=(-2, 3), d=(1, 30)),
            _t("deck", "opp_need <= {a} -> roll; maxscore", a=(1, G)),
            # the end race read off the deck: draw on when the opponent needs
            # no more than the bad items left (no constant to remember)
            _t("deck", "{E} -> roll; boldpace {a} {d}", {"E": END_RACE}, a=(-2, 3), d=(1, 30)),
            _t("deck", "{E} -> roll; {L} -> mspace {d}; bold {b}", {"E": END_RACE, "L": LEADS},
               d=(1, 30), b=(-2, 4)),
            _t("deck", "{E} -> roll; {L} -> maxscore; boldpace {a} {d}",
               {"E": END_RACE, "L": LEADS}, a=(-2, 3), d=(1, 30)),
            # (the larger deck shapes searched before, sizes 3 to 7, all fell
            # below the best size-4 rule on Fowl Play; larger rules now come
            # from the induced source)
        ]
    if game.family == "dice":
        t = min(G, 60)
        return [
            _t("dice", "maxscore"),
            _t("dice", "below {a}", a=(1, t)),
            _t("dice", "pace {a} {d}", a=(1, t), d=(1, 40)),
            _t("dice", "max_ij >= {a} -> roll; below {b}", a=(1, G - 1), b=(1, t)),
            _t("dice", "opp_need <= {a} -> roll; below {b}", a=(1, G), b=(1, t)),
            _t("dice", "max_ij >= {a} -> roll; pace {b} {d}", a=(1, G - 1), b=(1, t), d=(1, 40)),
            _t("dice", "opp_need <= {a} -> roll; pace {b} {d}", a=(1, G), b=(1, t), d=(1, 40)),
            _t("dice", "need <= {a} -> roll; pace {b} {d}", a=(1, G), b=(1, t), d=(1, 40)),
            _t("dice", "max_ij >= {a} -> roll; need <= {c} -> roll; pace {b} {d}", a=(1, G - 1),
               c=(1, G), b=(1, t), d=(1, 40)),
        ]
    # zombie: shotgun-indexed thresholds, player 2's chase, the end race
    chase = "p == 2, j >= {g}, i2 < j -> roll; "
    last = f"s == {game.bust_shotguns - 1}"
    gr = dict(g=(G - 2, G + 2))
    return [
        _t("zombie", "below {a}", a=(1, 15)),
        _t("zombie", "s == 0 -> roll; below {a}", a=(1, 8)),
        _t("zombie", "s == 0 -> roll; s == 1 -> below {a}; below {b}", a=(1, 8), b=(1, 4)),
        _t("zombie", "s <= {c} -> reachmax {a} {d}; below {b}", c=(0, 1), a=(G - 5, G + 5),
           d=(0, 12), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> roll; s == 1 -> below {a}; below {b}", **gr,
           a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; s == 1 -> below {a}; below {b}", **gr,
           m=(G - 4, G + 4), f=(0, 12), a=(1, 8), b=(0, 4)),
        # a cheaper chase ("lead e" when the opponent has the goal) leaves room elsewhere
        _t("zombie", "j >= {g} -> lead {e}; s == 0 -> reachmax {m} {f}; s == 1 -> pace {a} {d}; "
                     "below {b}", **gr, e=(0, 1), m=(G - 4, G + 4), f=(0, 12), a=(1, 10),
           d=(1, 12), b=(0, 4)),
        _t("zombie", "j >= {g} -> lead {e}; s == 0 -> reachmax {m} {f}; "
                     "s == 1, j >= {h} -> reachmax {r} {x}; s == 1 -> below {a}; below {b}",
           **gr, e=(0, 1), m=(G - 4, G + 4), f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8),
           a=(1, 8), b=(0, 4)),
        _t("zombie", "j >= {g} -> lead {e}; p == 1, s == 0 -> reachmax {m} {f}; s == 0 -> roll; "
                     "s == 1 -> pace {a} {d}; below {b}", **gr, e=(0, 1), m=(G - 4, G + 4),
           f=(0, 12), a=(1, 10), d=(1, 12), b=(0, 4)),
        _t("zombie", chase + "s <= {c}, j >= {h} -> reachmax {r} {x}; s == 0 -> roll; "
                             "s == 1 -> below {a}; below {b}", **gr, c=(0, 1), h=(4, G),
           r=(G - 3, G + 5), x=(0, 10), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; j >= {h} -> reachmax {r} {x}; "
                             "s == 1 -> below {a}; below {b}", **gr, m=(G - 4, G + 4),
           f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8), b=(0, 4)),
        _t("zombie", "p == 2, i2 < j -> roll; s == 0 -> reachmax {m} {f}; "
                     "s == 1, j >= {h} -> reachmax {r} {x}; s == 1 -> below {a}; below {b}",
           m=(G - 4, G + 4), f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8),
           b=(0, 4)),
        # the last shotgun before a bust gets its own clause, so that the score
        # clause after it needs no shotgun condition
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; " + last + " -> below {b}; "
                             "pace {a} {d}", **gr, m=(G - 4, G + 4), f=(0, 12), b=(0, 4),
           a=(1, 10), d=(1, 12)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; " + last + " -> below {b}; "
                             "j >= {h} -> reachmax {r} {x}; below {a}", **gr, m=(G - 4, G + 4),
           f=(0, 12), b=(0, 4), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8)),
        # and the end of the game by seat (the tie round, player 2 ahead at the goal)
        _t("zombie", "p == 1, i >= {g}, i == j -> below {t}; " + chase
           + "p == 2, i >= {g}, i > j -> hold; s == 0 -> reachmax {m} {f}; " + last
           + " -> below {b}; j >= {h} -> reachmax {r} {x}; below {a}", **gr, t=(0, 8),
           m=(G - 4, G + 4), f=(0, 12), b=(0, 4), h=(4, G), r=(G - 3, G + 5), x=(0, 8),
           a=(1, 8)),
        _t("zombie", "p == 1, i >= {g}, i == j -> below {t}; " + chase
           + "p == 2, i >= {g}, i > j -> hold; p == 2, s == 0 -> reachmax {n} {y}; "
           "s == 0 -> reachmax {m} {f}; " + last + " -> below {b}; j >= {h} -> reachmax {r} {x}; "
           "below {a}", **gr, t=(0, 8), n=(G - 4, G + 4), y=(0, 12),
           m=(G - 4, G + 4), f=(0, 12), b=(0, 4), h=(4, G), r=(G - 3, G + 5), x=(0, 8),
           a=(1, 8)),
        _t("zombie", chase + "p == 1, s == 0 -> reachmax {m} {f}; s == 0 -> roll; "
                             "s == 1 -> below {a}; below {b}", **gr, m=(G - 4, G + 4),
           f=(0, 12), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; s == 1 -> pace {a} {d}; below {b}",
           **gr, m=(G - 4, G + 4), f=(0, 12), a=(1, 10), d=(1, 12), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; s == 1 -> pace {a} {d}; pace {b} {e}",
           **gr, m=(G - 4, G + 4), f=(0, 12), a=(1, 10), d=(1, 12), b=(0, 4), e=(1, 12)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; max_ij >= {h} -> reach {r}; "
                             "s == 1 -> below {a}; below {b}", **gr, m=(G - 4, G + 4),
           f=(0, 12), h=(4, G), r=(G - 3, G + 5), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> roll; s == 1, j >= {h} -> reachmax {r} {x}; "
                             "s == 1 -> below {a}; below {b}", **gr, h=(4, G), r=(G - 3, G + 5),
           x=(0, 8), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; s == 1, j >= {h} -> reachmax {r} {x}; "
                             "s == 1 -> below {a}; below {b}", **gr, m=(G - 4, G + 4),
           f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s <= {c}, j >= {h} -> reachmax {r} {x}; s == 0 -> roll; "
                             "s == 1 -> below {a}; below {b}", **gr, c=(0, 1), h=(4, G),
           r=(G - 3, G + 5), x=(0, 10), a=(1, 8), b=(0, 4)),
        _t("zombie", chase + "s == 0 -> reachmax {m} {f}; j >= {h} -> reachmax {r} {x}; "
                             "s == 1 -> below {a}; below {b}", **gr, m=(G - 4, G + 4),
           f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8), b=(0, 4)),
        _t("zombie", "p == 2, i2 < j -> roll; s == 0 -> reachmax {m} {f}; "
                     "s == 1, j >= {h} -> reachmax {r} {x}; s == 1 -> below {a}; below {b}",
           m=(G - 4, G + 4), f=(0, 12), h=(4, G), r=(G - 3, G + 5), x=(0, 8), a=(1, 8),
           b=(0, 4)),
        _t("zombie", chase + "p == 1, s == 0 -> reachmax {m} {f}; s == 0 -> roll; "
                             "s == 1, max_ij >= {h} -> reach {r}; s == 1 -> below {a}; below {b}",
           **gr, m=(G - 4, G + 4), f=(0, 12), h=(4, G), r=(G - 3, G + 5), a=(1, 8), b=(0, 4)),
        # arithmetic on the seat and the shotguns folds the slides' seat-by-seat
        # lists into one clause each: once the opponent has the goal, roll on to
        # beat it by a margin that shrinks with the shotguns (more for the
        # first seat, whose turn opens a tie round); with no shotgun the first
        # seat rolls to max(m, j + f) and the second (p = 2 doubles it) on; the
        # end race at one shotgun starts later for the second seat; otherwise
        # hold at a brains total that falls with the square of the shotguns
        _t("zombie", "j >= {g} -> while i + b < j + (2 - s) * {t} / p**2; "
                     "s == 0 -> while i + b < max({m}, j + {f}) * p; "
                     "s == 1, max_ij >= {h} + {e} * p -> reach {r}; while b * s**2 < {a}",
           **gr, t=(1, 6), m=(G - 4, G + 4), f=(0, 12), h=(0, G), e=(0, 4),
           r=(G - 3, G + 5), a=(1, 8)),
        # the same, and never pass: with no brains yet, roll (holding at 0 hands
        # the opponent the round)
        _t("zombie", "b == {z} -> roll; j >= {g} -> while i + b < j + (2 - s) * {t} / p**2; "
                     "s == 0 -> while i + b < max({m}, j + {f}) * p; "
                     "s == 1, max_ij >= {h} + {e} * p -> reach {r}; while b * s**2 < {a}",
           **gr, z=(0, 1), t=(1, 6), m=(G - 4, G + 4), f=(0, 12), h=(0, G), e=(0, 4),
           r=(G - 3, G + 5), a=(1, 8)),
    ]


#: Ranges of an action's constants when a rule is turned into a template
#: (``G`` the goal, ``t`` the largest useful turn total).
def _action_ranges(kind, G, t):
    return {"below": [(1, t)], "pace": [(1, t), (1, 40)], "bold": [(-5, 12)],
            "mspace": [(1, 40)], "boldpace": [(-4, 8), (1, 40)], "reach": [(1, G)],
            "reachmax": [(1, G + 10), (-10, 20)], "lead": [(-10, 20)]}.get(kind, [])


def _feature_range(feature, game):
    G = game.goal
    return {"i": (0, G), "j": (0, G + 20), "k": (0, G), "need": (1, G), "opp_need": (1, G),
            "diff": (-G, G), "max_ij": (0, G + 20), "sum_ij": (0, 2 * G), "i2": (0, G + 20),
            "w_rem": (1, getattr(game, "bad", 1)), "c_rem": (0, getattr(game, "good", 1)),
            "s": (0, 3), "p": (1, 2)}[feature]


def template_of(rule, game):
    """The template of ``rule``'s shape: each integer constant of a condition
    compared with a number, and of an action, becomes a slot (ranges from
    the game); comparisons of two features keep their offsets (changing one
    from 0 would change the size). Returns ``(template, values)`` with the
    rule's own constants as the values."""
    G = game.goal
    t = max(2, min(getattr(game, "good", G), G - 1))
    parts, ranges, values = [], [], {}
    n = 0
    for cl in rule.clauses:
        items = []
        for c in cl.conditions:
            if c.rhs is None:
                name = f"x{n}"
                n += 1
                lo, hi = _feature_range(c.feature, game)
                ranges.append((name, min(lo, c.const), max(hi, c.const)))
                values[name] = c.const
                items.append(f"{c.feature} {c.op} {{{name}}}")
            else:
                items.append(c.formula("deck"))
        act = [cl.action.kind]
        for v, (lo, hi) in zip(cl.action.args, _action_ranges(cl.action.kind, G, t)):
            name = f"x{n}"
            n += 1
            ranges.append((name, min(lo, v), max(hi, v)))
            values[name] = v
            act.append(f"{{{name}}}")
        act = " ".join(act)
        parts.append(f"{', '.join(items)} -> {act}" if items else act)
    return Template(rule.family, "; ".join(parts), tuple(ranges)), values
