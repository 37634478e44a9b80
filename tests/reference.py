"""Slow, obviously correct reference solvers: plain value iteration over
every state, written straight from the equations of the deck and dice games' rules.

No layering, no affine tricks, no numba: dictionaries of states swept until
nothing moves. Only for small games.
"""

TIE = 1e-13  # the same tie rule as the package: draw only if strictly better


def deck_reference(bad, good, goal, tol=1e-15):
    """Return (P, L, T) for a deck game.

    P[(i, j, k, w, c)] : win probability of the mover.
    L[(i, j, k, w, c)] : expected remaining actions under the resulting policy.
    T[(i, j, w, c)]    : good draws before holding from each turn start.
    """
    states = [(i, j, k, w, c)
              for i in range(goal) for j in range(goal) for w in range(bad)
              for c in range(good + 1) for k in range(c + 1) if i + k < goal]
    P = {s: 0.5 for s in states}

    def get(i, j, k, w, c):
        return 1.0 if i + k >= goal else P[(i, j, k, w, c)]

    def options(s, V):
        i, j, k, w, c = s
        w_rem, c_rem = bad - w, good - c
        pg = c_rem / (w_rem + c_rem)
        pb = w_rem / (w_rem + c_rem)
        after_bust = (w + 1, c) if w + 1 < bad else (0, 0)
        draw = pb * (1 - V(j, i, 0, *after_bust))
        if c_rem:
            draw += pg * V(i, j, k + 1, w, c + 1)
        hold = None if k == 0 else 1 - V(j, i + k, 0, w, c)
        return draw, hold

    while True:
        delta = 0.0
        for s in states:
            draw, hold = options(s, get)
            new = draw if hold is None else max(draw, hold)
            delta = max(delta, abs(new - P[s]))
            P[s] = new
        if delta < tol:
            break

    decide = {}
    for s in states:
        draw, hold = options(s, get)
        decide[s] = hold is None or draw > hold + TIE

    L = {s: 0.0 for s in states}

    def length(i, j, k, w, c):
        return 1.0 if i + k >= goal else L[(i, j, k, w, c)]

    while True:
        delta = 0.0
        for s in states:
            i, j, k, w, c = s
            if decide[s]:
                w_rem, c_rem = bad - w, good - c
                after_bust = (w + 1, c) if w + 1 < bad else (0, 0)
                new = 1 + w_rem / (w_rem + c_rem) * length(j, i, 0, *after_bust)
                if c_rem:
                    new += c_rem / (w_rem + c_rem) * length(i, j, k + 1, w, c + 1)
            else:
                new = 1 + length(j, i + k, 0, w, c)
            delta = max(delta, abs(new - L[s]))
            L[s] = new
        if delta < tol * 1e3:
            break

    T = {}
    for i in range(goal):
        for j in range(goal):
            for w in range(bad):
                for c0 in range(good + 1):
                    t = 1
                    while True:
                        if i + t >= goal:
                            break
                        if c0 + t > good:
                            break  # drew at c_rem = 0: never holds
                        if not decide[(i, j, t, w, c0 + t)]:
                            break
                        t += 1
                    T[(i, j, w, c0)] = t
    return P, L, T


def dice_reference(faces, bust_faces, goal, tol=1e-15):
    """Return (P, L, roll) for a dice game, keyed by (i, j, k)."""
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    P = {s: 0.5 for s in states}
    scoring = [f for f in range(1, faces + 1) if f not in bust_faces]
    pb = len(bust_faces) / faces

    def get(i, j, k):
        return 1.0 if i + k >= goal else P[(i, j, k)]

    def options(s, V):
        i, j, k = s
        roll = pb * (1 - V(j, i, 0)) + sum(V(i, j, k + f) for f in scoring) / faces
        hold = 1 - V(j, i + k, 0) if k else 1 - V(j, i, 0)
        return roll, hold

    while True:
        delta = 0.0
        for s in states:
            new = max(options(s, get))
            delta = max(delta, abs(new - P[s]))
            P[s] = new
        if delta < tol:
            break
    roll = {s: (lambda r, h: r > h + TIE)(*options(s, get)) for s in states}

    L = {s: 0.0 for s in states}

    def length(i, j, k):
        return 1.0 if i + k >= goal else L[(i, j, k)]

    while True:
        delta = 0.0
        for s in states:
            i, j, k = s
            if roll[s]:
                new = 1 + pb * length(j, i, 0) + sum(length(i, j, k + f) for f in scoring) / faces
            else:
                new = 1 + length(j, i + k, 0) if k else 1 + length(j, i, 0)
            delta = max(delta, abs(new - L[s]))
            L[s] = new
        if delta < tol * 1e3:
            break
    return P, L, roll
