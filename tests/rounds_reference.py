"""Slow pure-Python reference for the rounds (equal-turns) ending, N seats.

Written from the rules, not from the kernels: plain value iteration over
every state reachable from the start, no layers, no affine trick.

State ``(scores, active, pos, k, w, c)``: the banked scores of all seats, the
seats still playing (all of them until a tie), the index in ``active`` of the
mover, the turn total and the deck (``w = c = 0`` for dice; for the
all-yellow Zombie game ``w`` is the shotguns of the turn). Rules:

* A turn is as in the deck game, the dice game or Zombie Dice (every roll
  throws the same dice, each showing a brain, a shotgun or a footprint;
  brains add to the turn total, ``bust`` shotguns in the turn end it with
  nothing; a turn starts with a roll, and a roll of footprints only leaves
  the turn where it was); a deck persists.
* After the last active seat's turn the round ends; if some active score is
  at least ``goal``, the highest wins, and a tie for highest plays another
  round among the tied seats only (a tie round).
* The last seat of a round holds as soon as holding wins (its score is at
  least the goal and above every other active score).
* Cap: a seat that is not the last of its round and whose score reaches
  ``cap`` holds there (a dice roll past it stops at it).
* Scores in a tie round are reset to ``goal`` for the tied seats (every later
  comparison is between tied seats, whose scores are equal; shifting them
  all by the same amount changes nothing) and to 0 for the others, so the
  state space is finite.

Every seat maximises its own win probability (max-n); draw must beat hold by
more than ``TIE`` in the mover's own component, else hold.
"""

from math import factorial

import numpy as np

TIE = 1e-12


class RoundsReference:
    def __init__(self, N, goal, cap, deck=None, dice=None, zombie=None):
        self.N, self.G, self.C = N, goal, cap
        self.deck = deck      # (bad, good)
        self.dice = dice      # (faces, pips)
        self.zombie = zombie  # (dice, (brain, shotgun, footprint) faces, bust shotguns)
        self.states = {}
        self.V = {}
        self.choice = {}  # True: draw/roll
        self.L = {}       # expected remaining actions under the solved policy

    # -- rules -------------------------------------------------------------
    def _next_turn(self, scores, active, pos, w, c):
        """After the mover's turn ends: the next state, or a terminal vector."""
        if pos + 1 < len(active):
            return ("s", (scores, active, pos + 1, 0, w, c))
        top = max(scores[s] for s in active)
        if top < self.G:
            return ("s", (scores, active, 0, 0, w, c))
        tied = tuple(s for s in active if scores[s] == top)
        if len(tied) == 1:
            v = [0.0] * self.N
            v[tied[0]] = 1.0
            return ("t", tuple(v))
        sc = tuple(self.G if s in tied else 0 for s in range(self.N))
        return ("s", (sc, tied, 0, 0, w, c))

    def _holding_wins(self, scores, active, pos, f):
        if pos != len(active) - 1 or f < self.G:
            return False
        me = active[pos]
        return all(f > scores[s] for s in active if s != me)

    def _hold(self, scores, active, pos, k, w, c):
        me = active[pos]
        sc = list(scores)
        sc[me] += k
        return self._next_turn(tuple(sc), active, pos, w, c)

    def options(self, st):
        """List of options; each is a list of (prob, outcome) with an
        ``is_draw`` flag: ``[(is_draw, [(p, outcome), ...]), ...]``."""
        scores, active, pos, k, w, c = st
        me = active[pos]
        f = scores[me] + k
        last = pos == len(active) - 1
        # a deck persists from turn to turn; a Zombie turn's shotguns do not
        kept = (0, 0) if self.zombie is not None else (w, c)
        hold = (False, [(1.0, self._hold(scores, active, pos, k, *kept))])
        if self._holding_wins(scores, active, pos, f):
            return [hold]
        if not last and f >= self.C:
            return [hold]
        draws = []
        if self.deck is not None:
            bad, good = self.deck
            g_left, b_left = good - c, bad - w
            if g_left:
                draws.append((g_left / (g_left + b_left), ("s", (scores, active, pos, k + 1, w, c + 1))))
            nw, nc = (w + 1, c) if w + 1 < bad else (0, 0)
            draws.append((b_left / (g_left + b_left), self._next_turn(scores, active, pos, nw, nc)))
            opts = [(True, draws)]
            if k > 0:
                opts.append(hold)
            return opts
        if self.zombie is not None:
            return self._zombie_options(scores, active, pos, k, w, me, last, hold)
        faces, pips = self.dice
        nbust = faces - len(pips)
        if nbust:
            draws.append((nbust / faces, self._next_turn(scores, active, pos, 0, 0)))
        for p in pips:
            nk = k + p
            if not last and scores[me] + nk > self.C:
                nk = self.C - scores[me]
            draws.append((1 / faces, ("s", (scores, active, pos, nk, 0, 0))))
        return [(True, draws), hold]

    def _zombie_options(self, scores, active, pos, k, shots, me, last, hold):
        """Options of a Zombie turn state (``shots``: shotguns so far)."""
        n, faces, bust = self.zombie
        total = sum(faces)
        draws = []
        for db in range(n + 1):
            for ds in range(n + 1 - db):
                df = n - db - ds
                p = (factorial(n) / (factorial(db) * factorial(ds) * factorial(df))
                     * (faces[0] / total) ** db * (faces[1] / total) ** ds
                     * (faces[2] / total) ** df)
                if p == 0.0:
                    continue
                if shots + ds >= bust:
                    draws.append((p, self._next_turn(scores, active, pos, 0, 0)))
                    continue
                nk = k + db
                if not last and scores[me] + nk > self.C:
                    nk = self.C - scores[me]
                draws.append((p, ("s", (scores, active, pos, nk, shots + ds, 0))))
        if k == 0 and shots == 0:  # the turn's first roll (or a roll of footprints only)
            return [(True, draws)]
        return [(True, draws), hold]

    # -- solve -------------------------------------------------------------
    def explore(self, start):
        todo = [start]
        while todo:
            st = todo.pop()
            if st in self.states:
                continue
            opts = self.options(st)
            self.states[st] = opts
            for _, outs in opts:
                for _, (kind, x) in outs:
                    if kind == "s" and x not in self.states:
                        todo.append(x)

    def _value(self, outs):
        v = np.zeros(self.N)
        for p, (kind, x) in outs:
            v += p * (np.array(x) if kind == "t" else self.V[x])
        return v

    def solve(self, starts, tol=1e-14, max_iter=100000):
        for s in starts:
            self.explore(s)
        for st in self.states:
            self.V.setdefault(st, np.full(self.N, 1.0 / self.N))
        # Gauss-Seidel in an order that follows the play backwards (larger
        # scores, later seats, longer turns first): only speeds convergence
        order = sorted(self.states, key=lambda st: (-sum(st[0]), -len(st[1]), -st[2], -st[3],
                                                    -(st[4] + st[5])))
        for _ in range(max_iter):
            delta = 0.0
            for st in order:
                opts = self.states[st]
                me = st[1][st[2]]
                best = None
                for is_draw, outs in opts:
                    v = self._value(outs)
                    if best is None:
                        best, bd = v, is_draw
                    elif is_draw and v[me] > best[me] + TIE:
                        best, bd = v, True
                    elif not is_draw and not (bd and best[me] > v[me] + TIE):
                        best, bd = v, False
                delta = max(delta, float(np.max(np.abs(best - self.V[st]))))
                self.V[st] = best
                self.choice[st] = bd
            if delta <= tol:
                self._lengths(order, tol)
                return self
        raise RuntimeError(f"reference did not converge (delta {delta})")

    def _lengths(self, order, tol):
        """Expected remaining actions (every draw/roll and hold is one) under
        the policy found: fixed-policy value iteration."""
        L = {st: 0.0 for st in order}
        for _ in range(100000):
            delta = 0.0
            for st in order:
                opts = self.states[st]
                outs = next(o for d, o in opts if d == self.choice[st])
                v = 1.0 + sum(p * L[x] for p, (kind, x) in outs if kind == "s")
                delta = max(delta, abs(v - L[st]) / max(1.0, v))
                L[st] = v
            if delta <= tol:
                self.L = L
                return
        raise RuntimeError("reference lengths did not converge")

    def start(self, scores):
        return (tuple(scores), tuple(range(self.N)), 0, 0, 0, 0)
