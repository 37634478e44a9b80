"""The turn states of full Zombie Dice and their transition arrays.

A turn state is what the dice can tell, the *dice configuration*

    ``(B_g, B_y, B_r, S_g, S_y, S_r, F_g, F_y, F_r)``

(dice of each colour set aside as brains ``B``, as shotguns ``S``, footprint
dice in hand ``F``), together with the turn total ``b``. ``b`` is kept apart
because brains returned to the cup keep it: ``b >= sum(B)`` and the
configuration alone does not fix it. The cup holds the rest,
``cup_c = N_c - B_c - S_c - F_c``.

One roll from a configuration:

1. ``n = dice - sum(F)`` dice are needed from the cup. If the cup holds
   fewer, the brain dice set aside go back into it (``B = 0``; ``b`` kept).
2. ``n`` dice are drawn without replacement: colour counts ``d`` with the
   multivariate hypergeometric probability
   ``prod_c C(cup_c, d_c) / C(sum cup, n)``.
3. The ``m_c = F_c + d_c`` dice of each colour are rolled: ``(x_c, y_c, z_c)``
   brains, shotguns, footprints with the multinomial probability
   ``m_c! / (x_c! y_c! z_c!) * (β_c/T_c)^x_c (σ_c/T_c)^y_c (φ_c/T_c)^z_c``.
4. The next configuration is ``(B + x, S + y, z)`` and ``b`` grows by
   ``sum(x)``; ``sum(S + y) >= bust_shotguns`` busts the turn.

The probabilities are computed as exact fractions and every configuration's
outcomes are checked to sum to exactly 1 before they are rounded to floats.
Outcomes reaching the same ``(next configuration, brains gained)`` are
merged.

Enumeration and counting
------------------------
Breadth-first search from the empty configuration (the turn's start) over
the roll outcomes above gives every reachable configuration (a configuration
the rules can produce that no roll reaches is not counted). The turn states
are the pairs (configuration, ``b``) with ``b >= sum(B)``; with a score cap
the solver holds them for every ``b`` below its forced end.

Order
-----
A roll with brains raises ``b``; a roll without brains either adds a
shotgun, or returns the brains (``sum(B)`` falls to 0), or moves dice from
the cup into the hand, or, from a hand of ``dice`` footprint dice that all
show footprints again, returns to the same configuration (the only
self-loop). So the brainless transitions other than self-loops form an
acyclic graph; the configurations are numbered in a topological order of it
(every brainless successor has a larger index), and a backward sweep over
``b`` then over the index sees every successor before the state itself. The
self-loop's probability is divided out exactly, as the all-yellow solver
divides out the all-footprint roll.
"""

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from graphlib import TopologicalSorter
from itertools import product
from math import comb, factorial

import numpy as np


@dataclass(frozen=True, eq=False)
class TurnStates:
    """Reachable dice configurations of one dice set and their transitions.

    Attributes
    ----------
    configs : int64 array, shape (NC, 9)
        ``B_g, B_y, B_r, S_g, S_y, S_r, F_g, F_y, F_r`` per configuration, in
        the sweep order (index 0 is the empty configuration, the turn start).
    shotguns, brains_aside : int64 arrays, shape (NC,)
        ``sum(S)`` and ``sum(B)`` per configuration.
    nxt : int64 array, shape (NC, O)
        Successor configuration of each outcome, ``-1`` for a bust, ``-2``
        for padding (the outcome list of a configuration ends there).
    gain : int64 array, shape (NC, O)
        Brains the outcome adds to ``b``.
    prob : float64 array, shape (NC, O)
        Outcome probabilities (self-loops left out).
    stay : float64 array, shape (NC,)
        Probability of the self-loop (a brainless roll back to the same
        configuration); the solver divides it out.
    outcomes : int
        Number of (configuration, outcome) transitions, self-loops included.
    """

    configs: np.ndarray = field(repr=False)
    shotguns: np.ndarray = field(repr=False)
    brains_aside: np.ndarray = field(repr=False)
    nxt: np.ndarray = field(repr=False)
    gain: np.ndarray = field(repr=False)
    prob: np.ndarray = field(repr=False)
    stay: np.ndarray = field(repr=False)
    outcomes: int

    @property
    def count(self):
        """Number of reachable dice configurations."""
        return len(self.configs)

    def index(self, config):
        """Index of a configuration given as a 9-tuple (ValueError if unreachable)."""
        hits = np.flatnonzero((self.configs == np.asarray(config)).all(axis=1))
        if not hits.size:
            raise ValueError(f"configuration {tuple(config)} is not reachable")
        return int(hits[0])


@cache
def _face_outcomes(faces, m):
    """Roll ``m`` dice with ``faces = (brain, shotgun, footprint)``: ``[(x, y, z, p)]``."""
    t = sum(faces)
    out = []
    for x in range(m + 1):
        for y in range(m + 1 - x):
            z = m - x - y
            p = (Fraction(factorial(m), factorial(x) * factorial(y) * factorial(z))
                 * Fraction(faces[0], t) ** x * Fraction(faces[1], t) ** y
                 * Fraction(faces[2], t) ** z)
            if p:
                out.append((x, y, z, p))
    return out


def roll_from(config, counts, faces, dice, bust):
    """Exact outcomes of one roll from ``config``.

    Returns
    -------
    dict
        ``{(next_config or None for a bust, brains gained): Fraction}``.
    """
    B, S, F = list(config[0:3]), list(config[3:6]), list(config[6:9])
    cup = [counts[c] - B[c] - S[c] - F[c] for c in range(3)]
    n = dice - sum(F)
    if sum(cup) < n:  # the cup runs short: brains go back, b is kept
        cup = [cup[c] + B[c] for c in range(3)]
        B = [0, 0, 0]
    if sum(cup) < n:
        raise ValueError(f"configuration {config}: the cup cannot supply {n} dice")
    total = comb(sum(cup), n)
    out = {}
    for d in product(*(range(min(cup[c], n) + 1) for c in range(3))):
        if sum(d) != n:
            continue
        pd = Fraction(comb(cup[0], d[0]) * comb(cup[1], d[1]) * comb(cup[2], d[2]), total)
        per = [_face_outcomes(tuple(faces[c]), F[c] + d[c]) for c in range(3)]
        for o in product(*per):
            p = pd * o[0][3] * o[1][3] * o[2][3]
            nB = tuple(B[c] + o[c][0] for c in range(3))
            nS = tuple(S[c] + o[c][1] for c in range(3))
            nF = tuple(o[c][2] for c in range(3))
            gain = sum(o[c][0] for c in range(3))
            key = (None, 0) if sum(nS) >= bust else (nB + nS + nF, gain)
            out[key] = out.get(key, 0) + p
    return out


def enumerate_turn_states(counts, faces, dice, bust):
    """Enumerate the reachable configurations of a dice set; see the module doc.

    Parameters
    ----------
    counts : tuple of 3 int
        Dice of each colour (green, yellow, red).
    faces : tuple of 3 (brain, shotgun, footprint) tuples
    dice : int
        Dice thrown per roll.
    bust : int
        Shotguns that bust a turn.

    Returns
    -------
    TurnStates
    """
    start = (0,) * 9
    trans = {}
    queue = deque([start])
    seen = {start}
    while queue:
        cfg = queue.popleft()
        outs = roll_from(cfg, counts, faces, dice, bust)
        if sum(outs.values()) != 1:  # exact arithmetic: a bug, never rounding
            raise AssertionError(f"outcomes of {cfg} sum to {sum(outs.values())}")
        trans[cfg] = outs
        for nc, _ in outs:
            if nc is not None and nc not in seen:
                seen.add(nc)
                queue.append(nc)
    # brainless, non-self successors must come later in the order
    ts = TopologicalSorter()
    for cfg, outs in trans.items():
        ts.add(cfg)
        for nc, g in outs:
            if nc is not None and g == 0 and nc != cfg:
                ts.add(nc, cfg)  # nc after cfg
    order = list(ts.static_order())
    order.remove(start)
    order.insert(0, start)  # no brainless roll leads back to the empty configuration
    idx = {cfg: k for k, cfg in enumerate(order)}
    width = max(sum(1 for (nc, g) in outs if not (nc == cfg and g == 0))
                for cfg, outs in trans.items())
    NC = len(order)
    nxt = np.full((NC, width), -2, dtype=np.int64)
    gain = np.zeros((NC, width), dtype=np.int64)
    prob = np.zeros((NC, width))
    stay = np.zeros(NC)
    n_out = 0
    for cfg in order:
        k = idx[cfg]
        o = 0
        # a fixed outcome order (bust first, then by successor index) keeps sums reproducible
        items = sorted(trans[cfg].items(),
                       key=lambda t: (-1 if t[0][0] is None else idx[t[0][0]], t[0][1]))
        for (nc, g), p in items:
            n_out += 1
            if nc == cfg and g == 0:
                stay[k] = float(p)
                continue
            nxt[k, o] = -1 if nc is None else idx[nc]
            if nc is not None and g == 0 and idx[nc] <= k:
                raise AssertionError("configuration order is not topological")
            gain[k, o] = g
            prob[k, o] = float(p)
            o += 1
    configs = np.array(order, dtype=np.int64)
    return TurnStates(configs, configs[:, 3:6].sum(axis=1), configs[:, 0:3].sum(axis=1),
                      nxt, gain, prob, stay, n_out)
