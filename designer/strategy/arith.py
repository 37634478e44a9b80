"""Arithmetic rules: ratio shapes over the race, constants fitted exactly.

Max-score weighs what a draw may win against what it may lose (decks:
``c_rem > w_rem * k``). A person who wants to win, not to score, tilts that
balance by the race: bolder when the opponent is close to the goal, more
careful when oneself is. The shapes searched here say exactly that:

.. math::

    \\text{gain} \\cdot (P + a) \\;>\\; m \\cdot \\text{risk} \\cdot (Q + c)

where ``gain`` and ``risk`` are the family's two sides of max-score (decks:
``c_rem`` and ``w_rem * k``; dice and Zombie Dice: a constant ``g`` and the
turn total ``k``), ``P`` and ``Q`` are race factors (the points each player
still needs, combined by ``+ - * /``, ``min``, ``max`` or a square: arithmetic
on what a player sees costs nothing in a rule's size) and ``a``, ``m``, ``c``
are optional constants, each one unit of size.

The search is a beam over sizes, so that what it finds at a size never
depends on how large a rule it may go on to (``--max-size``):

* every pair of factors, with the one constant that makes it play
  max-score at the start of the game (none when the factors agree there),
  scored exactly;
* size ``s``: the ``beam`` best arithmetic rules of size below ``s`` each get
  one more constant (``a``, ``m`` or ``c``, started from a few values) or an
  end-of-race clause (``opp_need <= w_rem -> draw`` and the like, one
  condition); the best new rules are tuned by coordinate descent on their
  constants (integers, or one decimal for a multiplier), every step scored
  exactly.

Every candidate is scored by the exact evaluator (no simulation).
"""

from dataclasses import dataclass, field

from designer.errors import DesignError
from designer.policies.rules import Rule

#: The race features the factors combine.
RACE = ("need", "opp_need")

#: End-of-race conditions a clause may add (one condition, no constant).
END_RACE = {"deck": ("opp_need <= w_rem", "opp_need < w_rem", "opp_need <= k",
                     "opp_need < k"),
            "dice": ("opp_need <= k", "opp_need < k"),
            "zombie": ("opp_need <= k", "opp_need < k")}

#: End-of-race clauses with a constant ``x`` (two units of size).
END_RACE_AT = ("opp_need <= {x}", "need <= {x}")

#: Start values of a new constant, by slot.
STARTS = {"a": (-4, -2, 2, 4, 8), "c": (-4, -2, 2, 4, 8), "m": (0.5, 1.5, 2, 3),
          "d": (-2, -1, 1, 2), "x": (3, 5, 8, 12)}
#: Coordinate-descent steps, by slot (a multiplier moves by tenths too).
STEPS = {"a": (-4, -2, -1, 1, 2, 4), "c": (-4, -2, -1, 1, 2, 4), "g": (-4, -2, -1, 1, 2, 4),
         "m": (-1, -0.5, -0.1, 0.1, 0.5, 1), "n": (-1, -0.5, -0.1, 0.1, 0.5, 1),
         "d": (-2, -1, 1, 2), "x": (-4, -2, -1, 1, 2, 4)}


def factors(x="need", y="opp_need"):
    """The race factors over two features (``"1"``: no factor)."""
    return ["1", x, y, f"{x} + {y}", f"{x} - {y}", f"{y} - {x}", f"{x} * {y}", f"{x} / {y}",
            f"{y} / {x}", f"min({x}, {y})", f"max({x}, {y})", f"{x}**2", f"{y}**2"]


def _num(v):
    v = round(float(v), 1)
    return str(int(v)) if v.is_integer() else f"{v:.1f}"


def _offset(expr, x):
    """``expr + x`` written with the sign of ``x``."""
    return f"{expr} {'+' if x > 0 else '-'} {_num(abs(x))}"


def _factor(expr, offset):
    """A race factor with its offset, bracketed for a product (``""``: none)."""
    body = expr if expr != "1" else ""
    if offset:
        return f"({_offset(body or '1', offset)})"
    return f"({body})" if body else ""


@dataclass(frozen=True)
class Shape:
    """``n * gain * (P + a) > m * risk * (Q + c)``, with ``clauses`` before it.

    ``values`` maps the constants present (``a``, ``m``, ``n``, ``c``, and
    ``g`` for a constant gain) to their values.
    """

    family: str
    P: str
    Q: str
    values: tuple = ()  # ((slot, value), ...)
    clauses: tuple = ()  # ("COND -> roll", ...)
    gain: str = field(default="c_rem")
    risk: str = field(default="w_rem * k")

    @property
    def vals(self):
        return dict(self.values)

    def with_values(self, vals):
        return Shape(self.family, self.P, self.Q, tuple(sorted(vals.items())), self.clauses,
                     self.gain, self.risk)

    def with_clause(self, cond):
        return Shape(self.family, self.P, self.Q, self.values, (f"{cond} -> roll",)
                     + self.clauses, self.gain, self.risk)

    def comparison(self):
        v = self.vals
        gain = _num(v["g"]) if self.gain == "g" else self.gain
        left = _factor(self.P, v.get("a", 0))
        left = f"{gain} * {left}" if left else gain
        if v.get("n", 1) != 1:
            left = f"{_num(v['n'])} * {left}"
        right = _factor(self.Q, v.get("c", 0))
        risk = self.risk
        if v.get("d", 0) != 0:
            risk = risk.replace("k", f"({_offset('k', v['d'])})")
        right = f"{risk} * {right}" if right else risk
        if v.get("m", 1) != 1:
            right = f"{_num(v['m'])} * {right}"
        return f"{left} > {right}"

    def rule(self):
        v = self.vals
        clauses = tuple(c.replace("{x}", _num(v.get("x", 0))) for c in self.clauses)
        return Rule.parse(self.family, "; ".join(clauses + (f"while {self.comparison()}",)))

    @property
    def key(self):
        """The shape without its constants' values (a beam keeps one of each)."""
        return (self.P, self.Q, tuple(sorted(self.vals)), self.clauses)


def _at_start(expr, G):
    """Value of a factor when both players need ``G`` points (the start)."""
    from designer.policies.expressions import Comparison

    if expr == "1":
        return 1.0
    c = Comparison.parse(f"{expr} > 0", RACE)
    return float(c.values({"need": G, "opp_need": G})[0])


def _calibrated(x):
    """A start value for a constant: one decimal below 10, whole above."""
    return round(x, 1) if x < 10 else float(round(x))


def base_shapes(game):
    """Every pair of factors, calibrated so that at the start of the game
    (both players need the goal) the rule plays max-score: the multiplier
    ``m`` (decks) or the gain ``g`` (dice, Zombie Dice) is set from the
    factors' values there. A pair that needs no constant has size 0."""
    fs = factors()
    G = game.goal
    out = []
    for P in fs:
        for Q in fs:
            if P != "1" and P == Q:
                continue
            p, q = _at_start(P, G), _at_start(Q, G)
            if p <= 0 or q <= 0:
                continue  # a factor that starts at 0 or below: not max-score at the start
            if game.family == "deck":
                # the constant multiplies the smaller side, so it is at least 1
                slot, m = ("m", _calibrated(p / q)) if p >= q else ("n", _calibrated(q / p))
                vals = () if m == 1 else ((slot, m),)
                out.append(Shape("deck", P, Q, vals))
            else:
                # dice and Zombie Dice: roll while g * P > k * Q, g such that
                # the start's threshold is max-score's (dice) or a common hold
                g = _calibrated(_dice_gain(game) * q / p)
                out.append(Shape(game.family, P, Q, (("g", g),), gain="g", risk="k"))
    return out


def _dice_gain(game):
    if game.family == "dice":
        from designer.policies.base import dice_pips

        return max(1, round(float(dice_pips(game).sum()) / len(game.bust_faces)))
    return 3


def extensions(shape, family):
    """Shapes one unit of size larger: one more constant, or one clause."""
    out = []
    v = shape.vals
    for slot in ("m", "a", "c", "d"):
        if slot in v or (slot == "m" and "n" in v):
            continue
        if slot == "a" and shape.P == "1" and shape.gain != "g":
            continue
        for x in STARTS[slot]:
            out.append(shape.with_values({**v, slot: x}))
    for cond in END_RACE[family]:
        if not any(cl.startswith(cond + " ") for cl in shape.clauses):
            out.append(shape.with_clause(cond))
    if "x" not in v:
        for cond in END_RACE_AT:
            for x in STARTS["x"]:
                out.append(shape.with_clause(cond).with_values({**v, "x": x}))
    return out


def steps_of(shape, G):
    """The coordinate-descent moves from ``shape``."""
    out = []
    v = shape.vals
    for slot, x in v.items():
        for st in STEPS[slot]:
            y = round(x + st, 1)
            if slot in ("m", "n") and not 0 < y <= 10 * G:
                continue
            if slot in ("a", "c") and not -2 * G <= y <= 2 * G:
                continue
            if slot in ("g", "x") and not 0 < y <= 2 * G:
                continue
            out.append(shape.with_values({**v, slot: y}))
    return out


def plan_count(game, max_size, beam):
    """Candidates planned for the phase up to ``max_size`` (before polish)."""
    n0 = len(base_shapes(game))
    per = (4 * max(len(s) for s in STARTS.values()) + len(END_RACE[game.family])
           + len(END_RACE_AT) * len(STARTS["x"]))
    first = 0 if game.family == "deck" else 1
    return n0 + max(0, max_size - first) * beam * per


def search(game, score, max_size, *, beam=8, polish=3, rounds=6, max_ops=None,
           progress_phase=None):
    """Beam search of the arithmetic shapes up to ``max_size`` (module docstring).

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    score : callable
        ``score(rules, phase) -> [(win at seat 1, win at seat 2, ...), ...]``
        (the search's memoised exact scorer).
    max_size : int
    beam : int
        Rules of each size extended to the next.
    polish : int
        New rules of each size tuned by coordinate descent.
    rounds : int
        Descent rounds at most per tuned rule.
    max_ops : int, optional
        Rules taking more operations per decision are not scored.

    Returns
    -------
    list of (Rule, (win at each seat), Shape)
    """
    phase = progress_phase or "arithmetic"
    found = {}  # rule text -> (rule, scores, shape)

    def run(shapes):
        rules, keep = [], []
        for sh in shapes:
            try:
                r = sh.rule()
            except DesignError:  # a constant out of the grammar's range: not a candidate
                continue
            if r.size > max_size or (max_ops is not None and r.ops > max_ops):
                continue
            rules.append(r)
            keep.append(sh)
        out = []
        for r, v, sh in zip(rules, score(rules, phase), keep):
            t = r.text()
            if t not in found:
                found[t] = (r, v, sh)
            out.append((r, v, sh))
        return out

    def avg(item):
        return sum(item[1]) / len(item[1])

    def tune(new, size):
        best = sorted(new, key=lambda x: (-avg(x), x[0].text()))[:polish]
        for item in best:
            cur = item
            for _ in range(rounds):
                moves = [m for m in steps_of(cur[2], game.goal)]
                scored = [x for x in run(moves) if x[0].size <= size]
                if not scored:
                    break
                top = max(scored, key=avg)
                if avg(top) <= avg(cur) + 1e-12:
                    break
                cur = top

    base = run(base_shapes(game))
    first = min((r.size for r, _, _ in base), default=0)
    tune([x for x in base if x[2].values], first)
    for size in range(first + 1, max_size + 1):
        parents, keys = [], set()
        for x in sorted((x for x in found.values() if x[0].size < size),
                        key=lambda x: (-avg(x), x[0].text())):
            if x[2].key not in keys:  # one rule of each shape: a beam of shapes
                keys.add(x[2].key)
                parents.append(x)
            if len(parents) == beam:
                break
        new = run([e for _, _, sh in parents for e in extensions(sh, game.family)])
        tune([x for x in new if x[0].size == size], size)
    return list(found.values())
