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
    """A rule shape: ``text`` with ``{slot}`` fields, ``ranges[slot] = (lo, hi)``."""

    family: str
    text: str
    ranges: tuple  # ((slot, lo, hi), ...)

    def rule(self, values):
        """The rule with ``values[slot]`` filled in."""
        return Rule.parse(self.family, self.text.format(**values))

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


def _t(family, text, **ranges):
    return Template(family, text, tuple((k, lo, hi) for k, (lo, hi) in ranges.items()))


def templates(game):
    """The template list of ``game``'s family, with ranges fitted to it."""
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
            _t("deck", "diff >= {a} -> bold {b}; maxscore", a=(-G, G), b=(-2, 3)),
            _t("deck", "opp_need <= {a} -> roll; boldpace {b} {d}", a=(1, G), b=(-2, 3),
               d=(1, 30)),
            _t("deck", "w_rem <= {a} -> bold {b}; boldpace {c} {d}", a=(1, game.bad), b=(-2, 4),
               c=(-2, 3), d=(1, 30)),
            _t("deck", "j >= {h} -> boldpace {a} {d}; boldpace {b} {e}", h=(G // 2, G - 1),
               a=(-2, 4), d=(1, 30), b=(-2, 3), e=(1, 30)),
            _t("deck", "opp_need <= {a} -> bold {b}; boldpace {c} {d}", a=(1, G // 2), b=(0, 8),
               c=(-2, 3), d=(1, 30)),
            _t("deck", "opp_need <= {a} -> roll; diff >= {b} -> bold {c}; maxscore", a=(1, G),
               b=(-G, G), c=(-2, 3)),
            _t("deck", "opp_need <= {a} -> roll; diff >= {b} -> bold {c}; boldpace {e} {d}",
               a=(1, G), b=(-G, G), c=(-2, 4), e=(-2, 3), d=(1, 30)),
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
    ]
