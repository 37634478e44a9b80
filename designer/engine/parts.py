"""Parts a turn is built from, and their enumeration into a turn model.

A *part* says what one continuation of a turn does from a turn state, with
exact probabilities (:class:`fractions.Fraction`); :func:`enumerate_turn`
explores every turn state the part can reach from the start of the game
and writes the :class:`~designer.engine.model.TurnModel` arrays. No game
logic lives in the solver: it only sees those arrays.

Dice
----
``count`` dice are thrown together; each face does exactly one thing:
scores ``points`` (added to the turn total), **busts**, or is **set aside**
(kept off the table for the rest of the turn, scoring nothing). The turn
state is the number ``a`` of dice set aside; a roll throws the ``count - a``
others. Summing over the face counts ``(k_f)`` of one throw of ``n`` dice,
each with the multinomial probability

.. math::

    \\frac{n!}{\\prod_f k_f!} \\prod_f p_f^{k_f},

a throw showing a bust face busts the turn (and, when it shows at least
``effect_faces`` of them, changes the banked score: to 0, or down by a
penalty to a floor); a throw that brings the dice set aside to ``aside_bust``
busts too; otherwise it adds the points of its scoring faces and sets its
``aside`` faces aside. With every die set aside there is nothing to throw
and the turn must stop. With ``refill`` the dice set aside are replaced,
so every roll throws all ``count`` dice and only ``aside_bust`` limits the
turn. Dice always start a turn afresh.

Scoring dice (Farkle)
---------------------
``count`` dice of ``sides`` faces and a table of scoring combinations,
each within one roll: single faces (a 1, a 5), ``n`` of a kind (three of
a kind worth its face's value in the table, four, five and six of a kind
a multiple of it), three pairs (three different faces, each exactly
twice) and a straight (every face once). The turn state is the number
``n`` of dice left to throw. A throw of ``n`` dice showing no scoring die
busts; otherwise the mover sets aside any non-empty set of its dice that
splits entirely into combinations, worth its best split, and goes on with
the ``n - k`` others, or with all ``count`` again when ``k = n`` ("hot
dice"; the turn total is kept). Of the sets of one size ``k`` the mover
takes one worth the most: the rest of the turn depends only on the dice
left and the total, and more points never hurt, so the others are never
better. Points are counted in units of ``unit`` (all points are
multiples of it). With the probability of a face multiset as above, the
throws with the same choices are merged into one outcome.

Deck
----
A deck of items of several *kinds*, each with a count and exactly one
effect: it scores ``points`` (added to the turn total), it **busts** the
turn (and may also change the banked score: to 0, or down by a penalty to
a floor), or it **stops** the turn (the turn total is banked). Each draw is
without replacement. The turn state is the tuple ``(d_1, ..., d_K)`` of
items of each kind drawn since the last shuffle; with ``n_k = count_k -
d_k`` items of kind ``k`` left, the next draw is of kind ``k`` with
probability

.. math::

    \\frac{n_k}{\\sum_l n_l}.

A bust kind may bust only from its ``bust_at``-th item drawn in one turn:
the ones before are set aside, scoring nothing (the state then also counts
them). The deck persists from turn to turn: the next turn starts where the
last one stopped or busted, and every item goes back and is shuffled when
(``reshuffle``) no bust item is left in the deck after a turn
(``"last-bad"``), when any bust item busts a turn (``"every-bust"``), or
before every turn (``"every-turn"``: each turn draws from a full deck).
The deck of ``bad`` bust items and ``good`` items worth 1 point each
(:meth:`Deck.of`) has the state ``(w, c)``, bad and good items drawn.
"""

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

from designer.engine.model import build_model, fold_self_loops, start_like

#: Outcome keys used between a part and the enumeration.
#: ``("bust", effect, penalty, next_key)``, ``("go", gain, next_key)``,
#: ``("end", points, next_key)``, ``("choose", ((gain, next_key), ...))``.


@dataclass(frozen=True)
class Face:
    """One face of a die: exactly one of scoring ``points``, ``bust`` or
    ``aside``, and its probability (a Fraction)."""

    points: int = 0
    bust: bool = False
    aside: bool = False
    probability: Fraction = Fraction(0)


@dataclass(frozen=True)
class Dice:
    """Dice thrown together; see the module doc.

    Parameters
    ----------
    count : int
        Dice per roll.
    faces : tuple of Face
        The faces of each die (all dice alike), probabilities summing to 1.
    aside_bust : int
        Dice set aside in one turn that bust it (0: never).
    effect : str
        What a bust showing at least ``effect_faces`` bust faces does to the
        banked score: ``"none"``, ``"zero"`` or ``"penalty"``.
    effect_faces : int
        Bust faces in one throw that trigger ``effect``.
    penalty : int
        Points a ``"penalty"`` takes.
    refill : bool
        Dice set aside are replaced by fresh ones, so every roll throws
        ``count`` dice (all-yellow Zombie Dice: the shotguns stay counted,
        the cup never runs out).
    choose : tuple of two ints, optional
        ``(lo, hi)``: the mover chooses how many dice to throw, ``lo`` to
        ``hi`` of those in hand (one continuation each, fewest first);
        empty: every die in hand is thrown.
    one_throw : bool
        A turn is one throw (Hog): its outcome ends the turn, banking the
        points thrown.
    bust_points : int
        With ``one_throw``: points a busting throw banks (Hog's "any 1
        scores 1"); 0 loses the turn as any bust does.
    aside_words : tuple of two str
        How the board names one die set aside and several (all-yellow
        Zombie Dice: ``("shotgun", "shotguns")``).
    """

    count: int
    faces: tuple
    aside_bust: int = 0
    effect: str = "none"
    effect_faces: int = 1
    penalty: int = 0
    refill: bool = False
    choose: tuple = ()
    one_throw: bool = False
    bust_points: int = 0
    aside_words: tuple = ("die set aside", "dice set aside")

    start = 0

    def handover(self, key):
        """Dice start every turn afresh."""
        return 0

    def name(self, key):
        """A state in words."""
        if not any(f.aside for f in self.faces):
            return "dice in hand"
        return f"{key} {self.aside_words[0] if key == 1 else self.aside_words[1]}"

    def features(self, key):
        """What a player sees of the state (with dice set aside)."""
        if not any(f.aside for f in self.faces):
            return {}
        return {"aside": key, "dice_left": self.count if self.refill else self.count - key}

    def continuations(self, aside):
        """The rolls possible with ``aside`` dice set aside: ``[{outcome: p}]``,
        one per number of dice the mover may throw."""
        n = self.count if self.refill else self.count - aside
        if n == 0:
            return []
        if not self.choose:
            return [self.throw(aside, n)]
        lo, hi = self.choose
        return [self.throw(aside, k) for k in range(lo, min(hi, n) + 1)]

    def throw(self, aside, n):
        """One throw of ``n`` dice with ``aside`` set aside: ``{outcome: p}``."""
        out = {}
        for combo in combinations_with_replacement(range(len(self.faces)), n):
            counts = [combo.count(f) for f in range(len(self.faces))]
            p = Fraction(factorial(n))
            for f, k in enumerate(counts):
                p = p / factorial(k) * self.faces[f].probability ** k
            if not p:
                continue
            busts = sum(k for f, k in enumerate(counts) if self.faces[f].bust)
            asides = sum(k for f, k in enumerate(counts) if self.faces[f].aside)
            if busts:
                heavy = self.effect != "none" and busts >= self.effect_faces
                key = ("bust", self.effect if heavy else "none",
                       self.penalty if heavy and self.effect == "penalty" else 0, 0)
            elif self.aside_bust and aside + asides >= self.aside_bust:
                key = ("bust", "none", 0, 0)
            else:
                gain = sum(k * self.faces[f].points for f, k in enumerate(counts)
                           if not self.faces[f].bust and not self.faces[f].aside)
                key = ("go", gain, aside + asides)
            if self.one_throw:  # the throw ends the turn, whatever it shows
                if key[0] == "go":
                    key = ("end", key[1], 0)
                elif self.bust_points:
                    key = ("end", self.bust_points, 0)
            out[key] = out.get(key, 0) + p
        return out


@dataclass(frozen=True)
class ScoringDice:
    """Dice scored by combinations within one roll (Farkle); see the module doc.

    Parameters
    ----------
    count, sides : int
        Dice per turn and faces per die (equally likely).
    singles : tuple of (face, points)
        Faces that score alone.
    kinds : tuple of (face, points)
        Three of a kind of each face listed.
    more_of_a_kind : tuple of (n, multiple)
        ``n`` of a kind (``n >= 4``) is ``multiple`` times that face's
        three of a kind.
    three_pairs, straight : int
        Points of three pairs and of a straight (0: not a combination).
    hot_dice : bool
        Setting every die aside gives all ``count`` back.
    unit : int
        Points of one unit of score.
    farkles : int
        Farkles in a row (turns of one player that bust) that cost the
        banked score ``farkle_penalty`` units (0: no penalty). The count is
        each player's own, kept across the opponent's turns and cleared by
        a turn that banks and by the penalty; so the turn state is
        ``(dice to throw, the mover's farkles in a row, the opponent's)``
        and a turn hands over ``(count, the opponent's, the mover's)``.
    farkle_penalty : int
        Units the ``farkles``-th farkle in a row takes from the banked
        score (down to the model's floor).
    """

    count: int
    sides: int
    singles: tuple
    kinds: tuple
    more_of_a_kind: tuple = ()
    three_pairs: int = 0
    straight: int = 0
    hot_dice: bool = True
    unit: int = 1
    farkles: int = 0
    farkle_penalty: int = 0

    @property
    def start(self):
        return (self.count, 0, 0) if self.farkles else self.count

    def handover(self, key):
        """Dice start every turn afresh; with a farkle penalty the next
        mover's count comes first and a turn that banks clears the mover's."""
        return (self.count, key[2], 0) if self.farkles else self.count

    def name(self, key):
        """A state in words."""
        n = key[0] if self.farkles else key
        text = f"{n} {'die' if n == 1 else 'dice'} to throw"
        if self.farkles:
            text += f"; farkles in a row: {key[1]} (opponent {key[2]})"
        return text

    def features(self, key):
        """What a player sees of the state."""
        if not self.farkles:
            return {"dice_left": key}
        return {"dice_left": key[0], "farkles": key[1], "opp_farkles": key[2]}

    def best(self, counts):
        """Best points of the dice ``counts`` (one count per face, faces
        1..sides) split entirely into combinations, or None."""
        return _best_split(tuple(counts), self.sides, dict(self.singles), dict(self.kinds),
                           dict(self.more_of_a_kind), self.three_pairs, self.straight)

    def options(self, counts):
        """The choices after a throw showing ``counts``: ``{k: points}``, the
        most points of a scoring set of ``k`` dice."""
        best = {}
        for sub in _submultisets(counts):
            k = sum(sub)
            if k == 0:
                continue
            pts = self.best(sub)
            if pts is not None and pts > best.get(k, -1):
                best[k] = pts
        return best

    def continuations(self, key):
        """One throw of the dice left: ``[{outcome: p}]``."""
        n, mine, theirs = key if self.farkles else (key, 0, 0)
        if n == 0:
            return []
        if not self.farkles:
            bust = ("bust", "none", 0, self.count)
        elif mine + 1 >= self.farkles:  # the penalty, and the count starts again
            bust = ("bust", "penalty", self.farkle_penalty, (self.count, theirs, 0))
        else:
            bust = ("bust", "none", 0, (self.count, theirs, mine + 1))
        out = {}
        p_face = Fraction(1, self.sides)
        for combo in combinations_with_replacement(range(self.sides), n):
            counts = tuple(combo.count(f) for f in range(self.sides))
            p = Fraction(factorial(n))
            for k in counts:
                p = p / factorial(k)
            p *= p_face ** n
            opts = self.options(counts)
            if not opts:
                o = bust
            else:
                choices = []
                for k, pts in sorted(opts.items()):
                    left = n - k
                    if left == 0 and self.hot_dice:
                        left = self.count
                    choices.append((pts // self.unit,
                                    (left, mine, theirs) if self.farkles else left))
                o = ("choose", tuple(choices))
            out[o] = out.get(o, 0) + p
        return [out]


def _submultisets(counts):
    """Every multiset within ``counts`` (per-face counts)."""
    if not counts:
        yield ()
        return
    for rest in _submultisets(counts[1:]):
        for k in range(counts[0] + 1):
            yield (k,) + rest


_SPLITS = {}


def _best_split(counts, sides, singles, kinds, more, three_pairs, straight):
    key = (counts, sides, tuple(sorted(singles.items())), tuple(sorted(kinds.items())),
           tuple(sorted(more.items())), three_pairs, straight)
    if key in _SPLITS:
        return _SPLITS[key]
    total = sum(counts)
    if total == 0:
        return 0
    best = None

    def consider(points, rest):
        nonlocal best
        sub = _best_split(rest, sides, singles, kinds, more, three_pairs, straight)
        if sub is not None and (best is None or points + sub > best):
            best = points + sub

    if straight and all(c == 1 for c in counts) and total == sides:
        consider(straight, tuple(0 for _ in counts))
    if (three_pairs and total == 6 and sum(1 for c in counts if c == 2) == 3
            and sum(1 for c in counts if c) == 3):
        consider(three_pairs, tuple(0 for _ in counts))
    for f, c in enumerate(counts):
        face = f + 1
        if c >= 3 and face in kinds:
            for n in range(3, c + 1):
                mult = 1 if n == 3 else more.get(n)
                if mult:
                    rest = counts[:f] + (c - n,) + counts[f + 1:]
                    consider(kinds[face] * mult, rest)
        if c >= 1 and face in singles:
            rest = counts[:f] + (c - 1,) + counts[f + 1:]
            consider(singles[face], rest)
    _SPLITS[key] = best
    return best


#: When a deck's drawn items go back: after its last bust item, after any
#: bust item, or before every turn.
RESHUFFLES = ("last-bad", "every-bust", "every-turn")


@dataclass(frozen=True)
class Item:
    """One kind of item of a deck: ``count`` alike, each with one effect.

    Parameters
    ----------
    name : str
        How the board and the features name the kind (``"gold"``).
    count : int
        Items of the kind in the full deck (0: none).
    points : int
        Points a drawn item adds to the turn total (neither bust nor stop).
    bust : bool
        A drawn item busts the turn (from the ``bust_at``-th of the turn).
    stop : bool
        A drawn item ends the turn, banking the turn total.
    effect : str
        What a bust item also does to the banked score: ``"none"``,
        ``"zero"`` or ``"penalty"``.
    penalty : int
        Points a ``"penalty"`` takes (down to the model's floor).
    bust_at : int
        A bust item busts the turn when it is the ``bust_at``-th of its
        kind drawn in that turn; the ones before it are set aside and
        score nothing.
    """

    name: str
    count: int
    points: int = 0
    bust: bool = False
    stop: bool = False
    effect: str = "none"
    penalty: int = 0
    bust_at: int = 1


@dataclass(frozen=True)
class Deck:
    """A deck of kinds of items that persists across turns; see the module
    doc.

    The state is the items of each kind drawn since the shuffle, followed,
    for each kind that busts from its ``bust_at``-th item (``bust_at >
    1``), by the items of that kind drawn this turn.

    Parameters
    ----------
    kinds : tuple of Item
        The kinds, in the order of the state's counts.
    reshuffle : str
        One of :data:`RESHUFFLES`.
    named : bool
        The features include each kind's items left (``<name>_rem``) and
        the points left (``pts_rem``); the deck of bad and good items has
        only ``w_rem`` and ``c_rem``.
    """

    kinds: tuple
    reshuffle: str = "last-bad"
    named: bool = True

    @classmethod
    def of(cls, bad, good, reshuffle="last-bad"):
        """``bad`` bust items and ``good`` items worth 1 point each."""
        return cls((Item("bad", bad, bust=True), Item("good", good, points=1)), reshuffle,
                   named=False)

    @property
    def counted(self):
        """Indices of the kinds whose items drawn this turn are counted."""
        return tuple(i for i, k in enumerate(self.kinds) if k.bust and k.bust_at > 1)

    @property
    def start(self):
        return (0,) * (len(self.kinds) + len(self.counted))

    @property
    def bad(self):
        """Items that bust, in the full deck."""
        return sum(k.count for k in self.kinds if k.bust)

    @property
    def good(self):
        """Items that do not bust, in the full deck."""
        return sum(k.count for k in self.kinds if not k.bust)

    def handover(self, key):
        """The deck the next turn draws from: as it is, or full again before
        every turn, or when no bust item is left in it (its last one set
        aside)."""
        drawn = key[:len(self.kinds)]
        if self.reshuffle == "every-turn" or all(d == k.count for k, d in zip(self.kinds, drawn)
                                                 if k.bust):
            return self.start
        return drawn + (0,) * len(self.counted)

    def left(self, key):
        """Items of each kind left in the deck at ``key``."""
        return [k.count - d for k, d in zip(self.kinds, key)]

    def name(self, key):
        """A state in words."""
        if not self.named:
            return f"{key[0]} bad, {key[1]} good drawn since the shuffle"
        text = "left: " + ", ".join(f"{n} {k.name}" for k, n in zip(self.kinds, self.left(key)))
        turn = key[len(self.kinds):]
        if any(turn):
            text += "; this turn: " + ", ".join(f"{n} {self.kinds[i].name}"
                                                for i, n in zip(self.counted, turn) if n)
        return text

    def features(self, key):
        """What a player sees of the state: the items left (bust items
        ``w_rem``, the others ``c_rem``; by kind and the points left when the
        kinds are named) and, for a kind that busts from its second item or
        later, its items drawn this turn (``<name>_turn``)."""
        left = self.left(key)
        out = {"w_rem": sum(n for k, n in zip(self.kinds, left) if k.bust),
               "c_rem": sum(n for k, n in zip(self.kinds, left) if not k.bust)}
        if self.named:
            out["pts_rem"] = sum(n * k.points for k, n in zip(self.kinds, left))
            out.update({f"{k.name}_rem": n for k, n in zip(self.kinds, left)})
            out.update({f"{self.kinds[i].name}_turn": n
                        for i, n in zip(self.counted, key[len(self.kinds):])})
        return out

    def continuations(self, key):
        """One draw: ``[{outcome: p}]`` (none from an empty deck)."""
        K = len(self.kinds)
        left = self.left(key)
        total = sum(left)
        if not total:
            return []
        slot = {i: K + j for j, i in enumerate(self.counted)}
        out = {}
        for i, (kind, n) in enumerate(zip(self.kinds, left)):
            if not n:
                continue
            nxt = list(key)
            nxt[i] += 1
            if i in slot:
                nxt[slot[i]] += 1
            nxt = tuple(nxt)
            if kind.bust and (i not in slot or nxt[slot[i]] >= kind.bust_at):
                after = self.start if self.reshuffle == "every-bust" else self.handover(nxt)
                o = ("bust", kind.effect, kind.penalty, after)
            elif kind.stop:
                o = ("end", 0, self.handover(nxt))
            else:  # points, or a bust item set aside before its bust_at-th
                o = ("go", kind.points, nxt)
            out[o] = out.get(o, 0) + Fraction(n, total)
        return [out]


@dataclass(frozen=True)
class Weights:
    """A continuation's outcomes as integer weights over a common
    denominator (exact, and much faster to merge than fractions): outcome
    ``o`` has probability ``weights[o] / denominator``."""

    weights: dict
    denominator: int


def _order(outs):
    """Busts first, then outcomes by gain: a fixed order, so that ties
    between equal options are broken the same way in every run."""
    return sorted(outs.items(), key=_rank)


def _rank(kv):
    o = kv[0]
    # the common shapes compare without repr: ("go", gain, key) by gain and key
    if o[0] == "go" and isinstance(o[2], (int, tuple)):
        return (1, "'go'", o[1], o[2])
    return (o[0] != "bust", repr(o), 0, ())


def enumerate_turn(part, *, forced_first=False, min_bank=0, floor=0):
    """Explore every turn state ``part`` reaches and build its turn model.

    Breadth-first from ``part.start`` over the states a roll moves to and
    the states a next turn starts from. Each continuation's exact
    probabilities must sum to exactly 1 before they are rounded to floats.

    Returns
    -------
    TurnModel
        State 0 is ``part.start``.
    list
        The part's key of each state.
    """
    if hasattr(part, "enumerate"):  # a part that enumerates itself in bulk
        return part.enumerate(forced_first=forced_first, min_bank=min_bank, floor=floor)
    index = {part.start: 0}
    keys = [part.start]
    queue = deque([part.start])

    def see(key):
        if key not in index:
            index[key] = len(keys)
            keys.append(key)
            queue.append(key)
        return index[key]

    conts = {}
    while queue:
        key = queue.popleft()
        see(part.handover(key))
        rows = []
        for outs in part.continuations(key):
            if isinstance(outs, Weights):  # integer weights over one denominator
                if sum(outs.weights.values()) != outs.denominator:
                    raise AssertionError(f"{part.name(key)}: weights do not sum to "
                                         f"{outs.denominator}")
                items = [(o, w / outs.denominator) for o, w in _order(outs.weights)]
            else:
                total = sum(outs.values())
                if total != 1:  # exact arithmetic: a bug in a part, never rounding
                    raise AssertionError(f"{part.name(key)}: outcomes sum to {total}")
                items = _order(outs)
            row = []
            for o, p in items:
                if o[0] == "bust":
                    row.append((float(p), "bust", see(o[3]), o[1], o[2]))
                elif o[0] == "end":
                    row.append((float(p), "end", o[1], see(o[2])))
                elif o[0] == "choose":
                    row.append((float(p), "choose", [(g, see(k)) for g, k in o[1]]))
                else:
                    row.append((float(p), "choose", [(o[1], see(o[2]))]))
            rows.append(row)
        conts[key] = rows
    rows = [conts[k] for k in keys]
    handover = [index[part.handover(k)] for k in keys]
    rows, handover, names, origin, throws = fold_self_loops(
        rows, handover, [part.name(k) for k in keys],
        start_like(rows, handover) if forced_first else ())
    model = build_model(rows, handover, forced_first=forced_first, min_bank=min_bank,
                        floor=floor, names=names, fold=False, throws=throws)
    return model, [keys[s] for s in origin]
