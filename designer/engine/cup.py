"""A cup of coloured dice drawn a few at a time (Zombie Dice), as a part.

The cup holds ``count_c`` dice of each colour ``c``; a die of colour ``c``
shows a brain, a shotgun or footprints with chances ``brain_c / T_c``,
``shotgun_c / T_c``, ``footprint_c / T_c`` (``T_c`` its faces). Every roll
throws ``throw`` dice: the footprint dice kept from the last roll and, to
make up the number, dice drawn at random from the cup. Brains (1 point
each) and shotguns are set aside; ``bust`` shotguns set aside end the turn
with nothing; footprints stay in hand to be thrown again. When the cup
holds fewer dice than a roll needs, the brain dice set aside go back into
it (the points they scored are kept; shotguns stay out).

Turn state
----------
What the dice on the table tell: per colour the brain dice set aside
``B_c``, the shotgun dice ``S_c`` and the footprint dice in hand ``F_c``;
the cup holds ``count_c - B_c - S_c - F_c``. The turn total (brains
scored) is the engine's own; it can exceed ``sum B`` once brains went
back to the cup. A roll needing ``n = throw - sum F`` dice from a cup of
``u_c`` dice per colour draws ``d`` with the multivariate hypergeometric
chance ``prod_c C(u_c, d_c) / C(sum u, n)``; the ``m_c = F_c + d_c`` dice
of each colour then show ``(x_c, y_c, z_c)`` brains, shotguns and
footprints with the multinomial chance ``m_c! / (x_c! y_c! z_c!) *
(brain_c/T_c)^x_c (shotgun_c/T_c)^y_c (footprint_c/T_c)^z_c``. The next
state is ``(B + x, S + y, z)`` with ``sum x`` points, or a bust.

A roll of nothing but footprints from a hand of ``throw`` footprint dice
comes back to the same state; the engine folds that away exactly
(:func:`designer.engine.model.fold_self_loops`).
"""

from dataclasses import dataclass
from functools import cache
from itertools import product
from math import comb, factorial, lcm, prod

import numpy as np

from designer.engine.model import BUST, CHOOSE, TurnModel
from designer.engine.parts import Weights


@dataclass(frozen=True)
class Colour:
    """One colour of dice in the cup: how many, and its faces."""

    name: str
    count: int
    brain: int
    shotgun: int
    footprint: int


@dataclass(frozen=True)
class Cup:
    """A cup of coloured dice; see the module doc.

    Parameters
    ----------
    colours : tuple of Colour
    throw : int
        Dice per roll.
    bust : int
        Shotguns set aside that end the turn with nothing.
    """

    colours: tuple
    throw: int = 3
    bust: int = 3

    @property
    def start(self):
        k = len(self.colours)
        return ((0,) * k, (0,) * k, (0,) * k)

    def handover(self, key):
        """Every turn starts with all dice in the cup."""
        return self.start

    def name(self, key):
        """A state in words: brains and shotguns set aside, footprints in hand."""
        B, S, F = key
        if not any(B) and not any(S) and not any(F):
            return "all dice in the cup"

        def part(v, what):
            items = [f"{n} {c.name}" for n, c in zip(v, self.colours) if n]
            return f"{what}: {', '.join(items)}" if items else ""

        return "; ".join(p for p in (part(B, "brains aside"), part(S, "shotguns"),
                                     part(F, "footprints in hand")) if p)

    def features(self, key):
        """What a player sees of the state: shotguns, footprints in hand and
        dice in the cup."""
        B, S, F = key
        total = sum(c.count for c in self.colours)
        return {"s": sum(S), "feet": sum(F), "in_cup": total - sum(B) - sum(S) - sum(F)}

    def enumerate(self, *, forced_first=False, min_bank=0, floor=0):
        """Every turn state reachable from the start, and the turn model:
        what :func:`designer.engine.parts.enumerate_turn` does for any part,
        here in bulk (full Zombie Dice has 10,766 states and about 250,000
        outcomes). A state is coded as one integer, ``sum_c B_c r_c + S_c
        r'_c + F_c r''_c`` in mixed radix, so that the state after a roll is
        the code of ``(B, S, 0)`` plus a code that depends on the roll alone.
        A roll of nothing but footprints from a full hand comes back to the
        same state and is folded (its chance divided out), as
        :func:`designer.engine.model.fold_self_loops` would; the start has
        no hand, so a forced first roll never comes back to it.

        The states are explored a breadth-first level at a time with whole
        arrays (:func:`_level`) where the codes and the integer weights fit
        in 64 bits, else one at a time with Python's integers
        (:meth:`_enumerate_exact`); both number the states in the same
        order and give the same model.

        Returns
        -------
        TurnModel, list
            The model and each state's key ``(B, S, F)`` (state 0 first).
        """
        places = self._places()
        L = lcm(*(c.brain + c.shotgun + c.footprint for c in self.colours))
        biggest = comb(sum(c.count for c in self.colours), self.throw) * L ** self.throw
        if places[-1] >= 2**62 or biggest >= 2**62:  # (Python's integers: no overflow here)
            return self._enumerate_exact(forced_first, min_bank, floor)
        radix = np.array(places[:-1], dtype=np.int64)
        base = np.array([c.count + 1 for c in self.colours] * 3, dtype=np.int64)
        level = np.zeros(1, dtype=np.int64)  # the start's code
        codes, parts, rolls = [level], [], {}
        known = level.copy()  # every code seen, sorted, and its state
        known_state = np.zeros(1, dtype=np.int64)
        while len(level):
            walk = _level(self, level, radix, base, L, rolls)
            # the codes first reached at this level, in the order of their first outcome
            seen = walk["code"]
            at = np.minimum(np.searchsorted(known, seen), len(known) - 1)
            new, first = np.unique(seen[known[at] != seen], return_index=True)
            level = new[np.argsort(first, kind="stable")]
            states = sum(map(len, codes)) + np.arange(len(level), dtype=np.int64)
            codes.append(level)
            order = np.argsort(np.concatenate((known, level)), kind="stable")
            known = np.concatenate((known, level))[order]
            known_state = np.concatenate((known_state, states))[order]
            parts.append(_rows(walk, known_state[np.searchsorted(known, seen)]))
        code = np.concatenate(codes)
        keys = [_key(r, len(self.colours)) for r in ((code[:, None] // radix) % base).tolist()]
        cat = lambda f: np.concatenate([p[f] for p in parts])  # noqa: E731
        cont_start = np.concatenate(([0], np.cumsum(cat("has")))).astype(np.int64)
        out_start = np.concatenate(([0], np.cumsum(cat("count")))).astype(np.int64)
        return self._model(keys, cont_start, out_start, cat("weight"), cat("denom"),
                           cat("gains"), cat("nexts"), cat("throws"), forced_first, min_bank,
                           floor), keys

    def _places(self):
        """The place value of each digit of a state's code (``B`` per
        colour, then ``S``, then ``F``, each digit ``0 .. count``), in
        Python's integers, and last the number of codes."""
        places = [1]
        for c in self.colours * 3:
            places.append(places[-1] * (c.count + 1))
        return places

    def _enumerate_exact(self, forced_first, min_bank, floor):
        """:meth:`enumerate` a state at a time in Python's integers (any
        number of dice and faces)."""
        k = len(self.colours)
        places = self._places()
        RB, RS, RF = (tuple(places[i * k:(i + 1) * k]) for i in range(3))

        def code(B, S, F):
            return sum(B[i] * RB[i] + S[i] * RS[i] + F[i] * RF[i] for i in range(k))

        start = self.start
        index = {code(*start): 0}
        keys = [start]
        # the turn model's arrays, filled state by state: one continuation
        # (a roll) per state that can roll, its outcomes busts first
        cont_start, out_start = [0], [0]
        weight, denom, gains, nexts, throws = [], [], [], [], []
        q = 0
        while q < len(keys):
            B, S, F = keys[q]
            here = code(B, S, F)
            q += 1
            cup = [c.count - B[i] - S[i] - F[i] for i, c in enumerate(self.colours)]
            n = self.throw - sum(F)
            if sum(cup) < n:  # brains go back into the cup; the points stay scored
                cup = [cup[i] + B[i] for i in range(k)]
                B = (0,) * k
            if sum(cup) < n:
                cont_start.append(len(out_start) - 1)
                continue
            rolls, D = _coded_roll(self.colours, tuple(cup), tuple(F), n, RB, RS, RF)
            base = code(B, S, (0,) * k)
            room = self.bust - sum(S)  # shotguns this roll may show without busting
            busted = back = 0
            out = {}
            for off, shots, gain, y, x, z, w in rolls:
                if shots >= room:
                    busted += w
                    continue
                nxt = base + off
                if nxt == here and gain == 0:
                    back += w
                    continue
                j = index.get(nxt)
                if j is None:
                    j = index[nxt] = len(keys)
                    keys.append((tuple(B[i] + x[i] for i in range(k)),
                                 tuple(S[i] + y[i] for i in range(k)), z))
                out[(gain, j)] = out.get((gain, j), 0) + w
            total = D - back
            if busted + sum(out.values()) != total:  # exact: a bug, never rounding
                raise AssertionError(f"{self.name(keys[q - 1])}: weights do not sum to 1")
            items = sorted(out.items())
            if busted:
                weight.append(busted)
                gains.append(-1)
                nexts.append(-1)
            weight.extend(w for _, w in items)
            gains.extend(g for (g, _), _ in items)
            nexts.extend(j for (_, j), _ in items)
            denom.extend([total] * (len(items) + (busted > 0)))
            throws.append(D / total)  # the rolls until one does not come back, on average
            out_start.append(len(weight))
            cont_start.append(len(out_start) - 1)
        return self._model(keys, cont_start, out_start, weight, denom, gains, nexts, throws,
                           forced_first, min_bank, floor), keys

    def _model(self, keys, cont_start, out_start, weight, denom, gains, nexts, throws,
               forced_first, min_bank, floor):
        """The turn model from :meth:`enumerate`'s flat lists (gain -1: a bust)."""
        i64 = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        g = i64(gains)
        bust = g < 0
        top = max(denom, default=0) if isinstance(denom, list) else int(denom.max(initial=0))
        if top < 2**53:  # both exact in floats: one correctly rounded division
            prob = np.asarray(weight, dtype=np.float64) / np.asarray(denom, dtype=np.float64)
        else:
            prob = np.array([w / d for w, d in zip(weight, denom)], dtype=np.float64)
        choose = ~bust
        NO = len(g)
        opt_start = np.concatenate(([0], np.cumsum(choose))).astype(np.int64)
        zeros = np.zeros(NO, dtype=np.int64)
        return TurnModel(i64(cont_start), i64(out_start), prob,
                         np.where(bust, BUST, CHOOSE).astype(np.int64), zeros,
                         np.where(bust, 0, -1).astype(np.int64), zeros, zeros, opt_start,
                         g[choose], i64(nexts)[choose], np.zeros(len(keys), dtype=np.int64),
                         forced_first, min_bank, floor, [self.name(key) for key in keys],
                         np.asarray(throws, dtype=np.float64))

    def continuations(self, key):
        """One roll: ``[{outcome: p}]`` (the module doc's chances)."""
        B, S, F = (list(v) for v in key)
        k = len(self.colours)
        cup = [c.count - B[i] - S[i] - F[i] for i, c in enumerate(self.colours)]
        n = self.throw - sum(F)
        if sum(cup) < n:  # brains go back into the cup; the points stay scored
            cup = [cup[i] + B[i] for i in range(k)]
            B = [0] * k
        if sum(cup) < n:  # too few dice left to make up a roll: the turn must stop
            return []
        out = {}
        rolls, D = _roll(self.colours, tuple(cup), tuple(F), n)
        for x, y, z, w in rolls:  # integer weights over D: exact and fast to merge
            nS = tuple(S[i] + y[i] for i in range(k))
            if sum(nS) >= self.bust:
                o = ("bust", "none", 0, self.start)
            else:
                o = ("go", sum(x), (tuple(B[i] + x[i] for i in range(k)), nS, z))
            out[o] = out.get(o, 0) + w
        return [Weights(out, D)]


@cache
def _roll(colours, cup, F, n):
    """Draw ``n`` dice from ``cup`` and throw them with the footprint dice
    ``F``: ``[(brains, shotguns, footprints, w)]``, each a tuple per colour,
    merged, with integer weights ``w`` over the common denominator ``D``
    (returned too): ``C(sum cup, n) * L^(n + sum F)``, ``L`` the least
    common multiple of the colours' numbers of faces. Many states share a
    cup and a hand (the dice set aside differ only in which were brains
    and which shotguns), so this is cached."""
    k = len(colours)
    L = lcm(*(c.brain + c.shotgun + c.footprint for c in colours))
    D = comb(sum(cup), n) * L ** (n + sum(F))
    out = {}
    for d in product(*(range(min(u, n) + 1) for u in cup)):
        if sum(d) != n:
            continue
        draw = prod_comb(cup, d)
        rolls = [_faces(colours[i], F[i] + d[i], L) for i in range(k)]
        for shown in product(*rolls):
            w = draw
            for r in shown:
                w *= r[3]
            key = tuple(tuple(r[j] for r in shown) for j in range(3))
            out[key] = out.get(key, 0) + w
    return [(*key, w) for key, w in out.items()], D


@cache
def _coded_roll(colours, cup, F, n, RB, RS, RF):
    """:func:`_roll` with each roll's state code (brains and shotguns
    added, the footprints as the new hand), shotguns and points:
    ``[(offset, shotguns, points, y, x, z, w)]`` and the denominator."""
    rolls, D = _roll(colours, cup, F, n)
    k = len(colours)
    out = []
    for x, y, z, w in rolls:
        off = sum(x[i] * RB[i] + y[i] * RS[i] + z[i] * RF[i] for i in range(k))
        out.append((off, sum(y), sum(x), y, x, z, w))
    return out, D


def _level(cup, level, radix, base, L, rolls):
    """One breadth-first level of :meth:`Cup.enumerate` in whole arrays.

    ``level`` holds the states' codes. Returns per state ``has`` (it can
    roll), ``busted`` and ``total`` (the weight of the busting rolls and of
    every roll that does not come back, over the denominator ``D`` of its
    roll: the chances are ``w / total``), ``throws`` (``D / total``, for the
    states that can roll), and per outcome that goes on, in the order the
    states and their rolls come (the order new states are numbered in),
    its state ``st``, ``gain``, ``code`` and ``w``. ``rolls`` caches
    :func:`_coded_block` per cup and hand."""
    k = len(cup.colours)
    d = (level[:, None] // radix) % base
    B, S, F = d[:, :k], d[:, k:2 * k], d[:, 2 * k:]
    inside = np.array([c.count for c in cup.colours], dtype=np.int64) - B - S - F
    n = cup.throw - F.sum(1)
    short = inside.sum(1) < n  # brains go back into the cup; the points stay scored
    inside = np.where(short[:, None], inside + B, inside)
    B = np.where(short[:, None], 0, B)
    has = inside.sum(1) >= n
    Q = len(level)
    roll = np.flatnonzero(has)
    hand = np.concatenate((inside[roll], F[roll]), axis=1)
    kinds, inv = np.unique(hand, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    blocks = []
    for row in kinds.tolist():
        key = tuple(row)
        if key not in rolls:
            rolls[key] = _coded_block(cup, key[:k], key[k:], radix, L)
        blocks.append(rolls[key])
    D = np.zeros(Q, dtype=np.int64)
    off, shots, gain, w = (np.concatenate([b[f] for b in blocks] + [np.zeros(0, np.int64)])
                           for f in range(4))
    R = np.array([len(b[0]) for b in blocks], dtype=np.int64)
    D[roll] = np.array([b[4] for b in blocks], dtype=np.int64)[inv]
    # each rolling state's outcomes are its kind's block of the table, in order
    size = R[inv]
    st = np.repeat(roll, size)
    first = np.concatenate(([0], np.cumsum(R)[:-1])).astype(np.int64)[inv]
    at = np.arange(len(st)) + np.repeat(first - (np.cumsum(size) - size), size)
    off, shots, gain, w = off[at], shots[at], gain[at], w[at]
    nxt = (B @ radix[:k] + S @ radix[k:2 * k])[st] + off
    bust = shots >= (cup.bust - S.sum(1))[st]
    back = ~bust & (gain == 0) & (nxt == level[st])  # all footprints, thrown again
    go = ~bust & ~back

    def per_state(mask):
        out = np.zeros(Q, dtype=np.int64)
        np.add.at(out, st[mask], w[mask])
        return out

    busted, total = per_state(bust), D - per_state(back)
    wrong = np.flatnonzero(has & (busted + per_state(go) != total))
    if len(wrong):  # exact: a bug, never rounding
        raise AssertionError(f"{cup.name(_key(d[wrong[0]].tolist(), k))}: weights do not sum "
                             "to 1")
    return {"has": has, "busted": busted, "total": total,
            "throws": D[has] / total[has], "st": st[go], "gain": gain[go],
            "code": nxt[go], "w": w[go]}


def _rows(walk, nexts):
    """The outcome rows of a level from :func:`_level`, given the state
    each outcome goes to: per state that can roll, its busts merged into
    one row first, then its outcomes by points and by next state (as
    :func:`designer.engine.parts.enumerate_turn` orders them); ``count``
    rows per such state."""
    busted, total = walk["busted"], walk["total"]
    bst = np.flatnonzero(busted > 0)
    st = np.concatenate((bst, walk["st"]))
    gain = np.concatenate((np.full(len(bst), -1, dtype=np.int64), walk["gain"]))
    nxt = np.concatenate((np.full(len(bst), -1, dtype=np.int64), nexts))
    w = np.concatenate((busted[bst], walk["w"]))
    order = np.lexsort((nxt, gain, st))
    st, gain, nxt, w = st[order], gain[order], nxt[order], w[order]
    return {"has": walk["has"], "count": np.bincount(st, minlength=len(total))[walk["has"]],
            "weight": w, "denom": total[st], "gains": gain, "nexts": nxt,
            "throws": walk["throws"]}


def _coded_block(cup, inside, F, radix, L):
    """The roll of a hand ``F`` topped up from a cup holding ``inside``:
    per outcome its code offset (brains and shotguns added, the footprints
    as the new hand), shotguns, points and integer weight over the
    denominator (returned too), in :func:`_roll`'s order."""
    k = len(cup.colours)
    n = cup.throw - sum(F)
    blocks = []
    for d in product(*(range(min(u, n) + 1) for u in inside)):
        if sum(d) != n:
            continue
        x, y, z, w = _thrown(cup.colours, tuple(F[i] + d[i] for i in range(k)), L)
        blocks.append((x, y, z, w * prod_comb(inside, d)))
    x, y, z, w = (np.concatenate(f) for f in zip(*blocks))
    off = x @ radix[:k] + y @ radix[k:2 * k] + z @ radix[2 * k:]
    return off, y.sum(1), x.sum(1), w, comb(sum(inside), n) * L ** cup.throw


@cache
def _thrown(colours, m, L):
    """``m[c]`` dice of each colour thrown: arrays of brains, shotguns and
    footprints per colour (one row per outcome) and integer weights over
    ``L^sum(m)``, in :func:`_roll`'s order."""
    rows = list(product(*(_faces(c, mc, L) for c, mc in zip(colours, m))))
    x, y, z = (np.array([[r[j] for r in shown] for shown in rows], dtype=np.int64)
               .reshape(len(rows), len(colours)) for j in range(3))
    w = np.array([prod(r[3] for r in shown) for shown in rows], dtype=np.int64)
    return x, y, z, w


def _key(digits, k):
    """A state's key ``(B, S, F)`` from the digits of its code."""
    return tuple(digits[:k]), tuple(digits[k:2 * k]), tuple(digits[2 * k:])


def prod_comb(cup, d):
    """``prod_c C(cup_c, d_c)``: the ways to draw ``d`` from ``cup``."""
    r = 1
    for u, x in zip(cup, d):
        r *= comb(u, x)
    return r


@cache
def _faces(colour, m, L):
    """``m`` dice of ``colour`` thrown: ``[(brains, shotguns, footprints, w)]``
    with ``w / L^m`` the multinomial chance (the module doc), ``L`` a
    multiple of the colour's number of faces."""
    T = colour.brain + colour.shotgun + colour.footprint
    b, s, f = (v * (L // T) for v in (colour.brain, colour.shotgun, colour.footprint))
    out = []
    for x in range(m + 1):
        for y in range(m + 1 - x):
            z = m - x - y
            w = factorial(m) // (factorial(x) * factorial(y) * factorial(z)) * b**x * s**y * f**z
            if w:
                out.append((x, y, z, w))
    return out
