"""Slow, obviously correct reference for all-yellow Zombie Dice: plain value
iteration over every state ``(p, i, j, b, s)`` of the capped model, written
straight from the rules.

No layering, no affine tricks, no numba, and the all-footprint roll is an
ordinary transition back to the same state (the kernel divides it out).
The modelling conventions are those of ``designer.solve._zombie_kernel``:
a score stops at ``cap`` and a mover who reaches it holds; player 2 holds
whenever holding wins; ties at the goal or more restart at ``(goal, goal)``;
the turn's first roll (``b = s = 0``) is forced. Only for small games.
"""

from fractions import Fraction
from math import factorial

TIE = 1e-13  # roll only if strictly better by more than this, as the package


def outcomes(brains, shotguns, footprints, dice):
    """All roll outcomes ``(db, ds, probability)``, the all-footprint one included."""
    n = brains + shotguns + footprints
    out = []
    for db in range(dice + 1):
        for ds in range(dice + 1 - db):
            df = dice - db - ds
            q = (Fraction(factorial(dice), factorial(db) * factorial(ds) * factorial(df))
                 * Fraction(brains, n) ** db * Fraction(shotguns, n) ** ds
                 * Fraction(footprints, n) ** df)
            if q:
                out.append((db, ds, float(q)))
    return out


def zombie_reference(brains, shotguns, footprints, dice, K, goal, cap, policies=None,
                     tol=1e-15):
    """Return ``(P, L, roll)`` keyed by state ``(p, i, j, b, s)``, ``p`` in {1, 2}.

    ``P``: win probability of the mover; ``L``: expected remaining actions;
    ``roll``: the decision. With ``policies = (f1, f2)`` the seats play those
    fixed policies ``f(p, i, j, b, s) -> bool`` instead of optimising.
    """
    G = goal
    outs = outcomes(brains, shotguns, footprints, dice)
    rounds = [(a, c) for a in range(G) for c in range(G)] + [(G, G)]
    states = []
    for a, c in rounds:
        for b in range(cap - a):
            for s in range(K):
                states.append((1, a, c, b, s))
    p2_starts = {(c, ap) for a, c in rounds for ap in range(a, cap + 1)}
    for c, ap in p2_starts:
        for b in range(cap - c):
            if c + b >= G and c + b > ap:
                break
            for s in range(K):
                states.append((2, c, ap, b, s))
    P = {st: 0.5 for st in states}
    L = {st: 0.0 for st in states}

    def forced(p, i, j, b):
        return i + b >= cap or (p == 2 and i + b >= G and i + b > j)

    def hold(V, p, i, j, b, length):
        """Value (or remaining actions after the hold) of banking b."""
        if p == 1:
            nxt = V[(2, j, i + b, 0, 0)]
            return nxt if length else 1 - nxt
        one, two = j, i + b  # round over: player 1 has j, player 2 has i + b
        if max(one, two) >= G:
            if two > one:
                return 0.0 if length else 1.0
            if two < one:
                return 0.0 if length else 0.0
            nxt = V[(1, G, G, 0, 0)]  # tie round
            return nxt if length else 1 - nxt
        nxt = V[(1, one, two, 0, 0)]
        return nxt if length else 1 - nxt

    def value(V, p, i, j, b, s, length):
        if forced(p, i, j, b):
            return (1 + hold(V, p, i, j, b, True)) if length else hold(V, p, i, j, b, False)
        return V[(p, i, j, b, s)]

    def roll_value(V, p, i, j, b, s, length):
        total = 1.0 if length else 0.0
        for db, ds, q in outs:
            if s + ds >= K:
                total += q * hold(V, p, i, j, 0, length)
            else:
                total += q * value(V, p, i, j, min(b + db, cap - i), s + ds, length)
        return total

    def decide(p, i, j, b, s):
        if b == 0 and s == 0:
            return True
        if policies is not None:
            return bool(policies[p - 1](p, i, j, b, s))
        return roll_value(P, p, i, j, b, s, False) > hold(P, p, i, j, b, False) + TIE

    while True:
        delta = 0.0
        for st in states:
            p, i, j, b, s = st
            r = roll_value(P, p, i, j, b, s, False)
            if b == 0 and s == 0:
                new = r
            elif policies is not None:
                new = r if policies[p - 1](p, i, j, b, s) else hold(P, p, i, j, b, False)
            else:
                new = max(r, hold(P, p, i, j, b, False))
            delta = max(delta, abs(new - P[st]))
            P[st] = new
        if delta < tol:
            break
    roll = {st: decide(*st) for st in states}
    while True:
        delta = 0.0
        for st in states:
            p, i, j, b, s = st
            if roll[st]:
                new = roll_value(L, p, i, j, b, s, True)
            else:
                new = 1 + hold(L, p, i, j, b, True)
            delta = max(delta, abs(new - L[st]))
            L[st] = new
        if delta < tol * 1e3:
            break
    return P, L, roll
