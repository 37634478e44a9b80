"""Slow, obviously correct reference for full Zombie Dice: plain
value iteration over every reachable state ``(p, i, j, b, dice)`` of the
capped model, written from the rules.

The dice state is ``(aside_brains, aside_shotguns, hand)``, each a tuple of
counts by colour. A roll is simulated die by die: the missing dice are
drawn from the cup one at a time (colour ``c`` with probability
``left_c / left``), then every die in hand is rolled on its own faces. No
layering, no affine tricks, no numba, no configuration ordering; a roll that
leads back to the same state is an ordinary transition.

Conventions, as the all-yellow reference (``zombie_reference.py``): a score
stops at ``cap`` and a mover who reaches it holds; player 2 holds whenever
holding wins; ties at the goal or more restart at ``(goal, goal)``; a turn
that has banked nothing and risked nothing (``b = 0``, no shotgun) rolls:
that is the forced first roll, and after an all-footprint roll the turn is
still in that position (the all-yellow game identifies the two).
Only for small games.
"""

from fractions import Fraction

TIE = 1e-13


def roll(dice_state, counts, faces, dice, bust):
    """``{(next dice state or None for a bust, brains): probability}`` of one roll."""
    brains, shots, hand = (list(x) for x in dice_state)
    ncol = len(counts)
    cup = [counts[c] - brains[c] - shots[c] - hand[c] for c in range(ncol)]
    need = dice - sum(hand)
    if sum(cup) < need:  # the rules: the brains go back to the cup
        cup = [cup[c] + brains[c] for c in range(ncol)]
        brains = [0] * ncol
    draws = {tuple(hand): Fraction(1)}  # dice in hand by colour after drawing
    for _ in range(need):
        nxt = {}
        for h, p in draws.items():
            left = [cup[c] - (h[c] - hand[c]) for c in range(ncol)]
            for c in range(ncol):
                if left[c]:
                    h2 = list(h)
                    h2[c] += 1
                    nxt[tuple(h2)] = nxt.get(tuple(h2), 0) + p * Fraction(left[c], sum(left))
        draws = nxt
    out = {}
    for h, p in draws.items():
        # roll the dice one at a time: state (brains, shotguns, footprints) by colour
        rolled = {((0,) * ncol, (0,) * ncol, (0,) * ncol): p}
        for c in range(ncol):
            for _ in range(h[c]):
                nxt = {}
                for (rb, rs, rf), q in rolled.items():
                    total = sum(faces[c])
                    for kind in range(3):
                        if faces[c][kind]:
                            parts = [list(rb), list(rs), list(rf)]
                            parts[kind][c] += 1
                            key = tuple(tuple(x) for x in parts)
                            nxt[key] = nxt.get(key, 0) + q * Fraction(faces[c][kind], total)
                rolled = nxt
        for (rb, rs, rf), q in rolled.items():
            nb = tuple(brains[c] + rb[c] for c in range(ncol))
            ns = tuple(shots[c] + rs[c] for c in range(ncol))
            key = (None, 0) if sum(ns) >= bust else ((nb, ns, rf), sum(rb))
            out[key] = out.get(key, 0) + q
    assert sum(out.values()) == 1
    return {k: float(v) for k, v in out.items()}


def zombie_dice_reference(counts, faces, dice, K, goal, cap, policies=None, tol=1e-15):
    """Return ``(P, L, roll)`` keyed by ``(p, i, j, b, dice_state)``, ``p`` in {1, 2}.

    ``P``: win probability of the mover; ``L``: expected remaining actions
    (every roll and every hold); ``roll``: the decision. With ``policies =
    (f1, f2)`` the seats play fixed policies ``f(p, i, j, b, dice_state)``.
    """
    G = goal
    ncol = len(counts)
    empty = ((0,) * ncol,) * 3
    # every dice state a turn can reach, with its roll outcomes
    trans = {}
    todo = [empty]
    while todo:
        d = todo.pop()
        if d in trans:
            continue
        trans[d] = roll(d, counts, faces, dice, K)
        todo.extend(n for n, _ in trans[d] if n is not None)

    def forced(p, i, j, b):
        return i + b >= cap or (p == 2 and i + b >= G and i + b > j)

    rounds = [(a, c) for a in range(G) for c in range(G)] + [(G, G)]
    turns = [(1, a, c) for a, c in rounds]
    turns += sorted({(2, c, ap) for a, c in rounds for ap in range(a, cap + 1)})
    states = []
    for p, i, j in turns:
        # (b, dice) reachable from the turn start, below the forced end
        seen = set()
        todo = [(0, empty)]
        while todo:
            b, d = todo.pop()
            if (b, d) in seen or forced(p, i, j, b):
                continue
            seen.add((b, d))
            for n, g in trans[d]:
                if n is not None:
                    todo.append((min(b + g, cap - i), n))
        states += [(p, i, j, b, d) for b, d in sorted(seen)]
    # Gauss-Seidel converges in fewer sweeps from the end of the game backwards
    # (a value only changes the order of the updates, not the fixed point)
    states.sort(key=lambda st: (-(st[1] + st[2]), -st[3]))
    P = {st: 0.5 for st in states}
    L = {st: 0.0 for st in states}

    def hold(V, p, i, j, b, length):
        if p == 1:
            nxt = V[(2, j, i + b, 0, empty)]
            return nxt if length else 1 - nxt
        one, two = j, i + b
        if max(one, two) >= G:
            if two != one:
                return 0.0 if length else float(two > one)
            nxt = V[(1, G, G, 0, empty)]
            return nxt if length else 1 - nxt
        nxt = V[(1, one, two, 0, empty)]
        return nxt if length else 1 - nxt

    def value(V, p, i, j, b, d, length):
        if forced(p, i, j, b):
            return (1 + hold(V, p, i, j, b, True)) if length else hold(V, p, i, j, b, False)
        return V[(p, i, j, b, d)]

    def roll_value(V, p, i, j, b, d, length):
        total = 1.0 if length else 0.0
        for (n, g), q in trans[d].items():
            if n is None:
                total += q * hold(V, p, i, j, 0, length)
            else:
                total += q * value(V, p, i, j, min(b + g, cap - i), n, length)
        return total

    def must_roll(b, d):
        return b == 0 and sum(d[1]) == 0

    while True:
        delta = 0.0
        for st in states:
            p, i, j, b, d = st
            r = roll_value(P, p, i, j, b, d, False)
            if must_roll(b, d):
                new = r
            elif policies is not None:
                new = r if policies[p - 1](p, i, j, b, d) else hold(P, p, i, j, b, False)
            else:
                new = max(r, hold(P, p, i, j, b, False))
            delta = max(delta, abs(new - P[st]))
            P[st] = new
        if delta < tol:
            break
    decisions = {}
    for st in states:
        p, i, j, b, d = st
        if must_roll(b, d):
            decisions[st] = True
        elif policies is not None:
            decisions[st] = bool(policies[p - 1](p, i, j, b, d))
        else:
            decisions[st] = (roll_value(P, p, i, j, b, d, False)
                             > hold(P, p, i, j, b, False) + TIE)
    while True:
        delta = 0.0
        for st in states:
            p, i, j, b, d = st
            new = (roll_value(L, p, i, j, b, d, True) if decisions[st]
                   else 1 + hold(L, p, i, j, b, True))
            delta = max(delta, abs(new - L[st]))
            L[st] = new
        if delta < tol * 1e3:
            break
    return P, L, decisions
