"""A slow, plain reference for two policies head to head under the rounds
ending (two seats), written from the rules, not from the kernels.

The game: one die per roll (a coin is a die of two faces), each face either
busts (the turn total is lost, the turn ends) or adds its points; the mover
rolls or stops (banks the turn total; at 0 a pass), except at the first
roll of a turn when it is forced. Seat 1 then seat 2 make a round; when a
round ends with a score at or above the goal the higher score wins, and a
tie for it is replayed (``replay``: another round; the tied scores are set
back to the goal, which changes no later comparison) or goes to seat 1
(``earlier-seat``).

A state is ``(x1, x2, m, t, fresh)``: both banked scores, the seat to move
``m`` (0 is seat 1), the turn total and whether the turn has not rolled
yet. ``V`` is seat 1's win probability, ``L`` the expected actions left
(each roll and each stop). Every value is found by plain Gauss-Seidel
value iteration over the states reachable from the round starts, in
dictionaries.

Policies, as the engine states them:

* ``("hold-at", N)``: stop once the turn total is at least ``N`` where
  stopping is allowed; nothing else.
* ``"max-score"``: the one-turn problem, ``E(t) = max(t, sum_f p_f *
  next)`` (a bust worth 0), rolled on when rolling beats stopping by more
  than ``TIE * max(1, t)``, and at ``t = 0`` unless stopping beats it by
  more than ``TIE``.
* ``"optimal"``: both seats maximising their own win probability in the
  game where seat 1's score stops at ``cap`` (a total past it is held
  there) and seat 2 holds as soon as holding wins; its decisions read
  those optimal values, with the same ties (stop unless rolling is better
  by more than ``TIE``; at ``t = 0`` roll unless stopping is).
* ``("fn", f)``: a policy that reads the scores, ``f(i, j, t)`` true to
  roll (``i`` the mover's banked score, ``j`` the other's, ``t`` the turn
  total), consulted where stopping is allowed.

A policy that reads the scores needs them as they are, so a match with one
(``Game(..., absolute=True)``) keeps the tied scores of a replayed round
(no setting back), and every score, either seat's, stops at ``cap`` (a
total past it is held there; a tie at the cap, where neither seat can
score, counts half a win). Optimal play there still decides from the
values above, read at the scores set back to the goal (where they are
the same): it maximises its win inside each turn, that turn's ends at the
cap and at a winning hold its own, each end valued so. ``bank_wins``: a fixed policy at
seat 2 also holds as soon as holding wins.
"""

import math

from gauss_seidel import passes

TIE = 1e-13


class Game:
    def __init__(self, faces, goal, ties, cap, forced_first=False, absolute=False,
                 bank_wins=False):
        self.faces, self.G, self.ties, self.cap = faces, goal, ties, cap
        self.forced = forced_first
        self.absolute, self.bank_wins = absolute, bank_wins
        self.p = 1.0 / len(faces)
        self.gmax = max([f for f in faces if f != "bust"] + [1])

    # -- the rules -----------------------------------------------------
    def round_end(self, x1, x2):
        """("win", v) or ("state", key) once seat 2's turn ended."""
        G = self.G
        if max(x1, x2) >= G:
            if x1 > x2:
                return ("win", 1.0)
            if x2 > x1:
                return ("win", 0.0)
            if self.ties == "earlier-seat":
                return ("win", 1.0)
            if not self.absolute:
                return ("state", (G, G, 0, 0, True))
            if x1 == self.cap:
                return ("win", 0.5)
            return ("state", (x1, x2, 0, 0, True))
        return ("state", (x1, x2, 0, 0, True))

    def after_turn(self, key, total, optimal):
        """Where the mover's turn ending with ``total`` banked goes."""
        x1, x2, m, _, _ = key
        if m == 0:
            a = x1 + total
            if optimal or self.absolute:
                a = min(a, self.cap)
            return ("state", (a, x2, 1, 0, True))
        if self.absolute:
            return self.round_end(x1, min(x2 + total, self.cap))
        return self.round_end(x1, x2 + total)

    def forced_stop(self, key, optimal):
        """The optimal player's forced ends: seat 1 at the cap, seat 2 where
        holding wins."""
        x1, x2, m, t, fresh = key
        if fresh and self.forced:
            return False
        if self.absolute and (x1 if m == 0 else x2) + t >= self.cap:
            return True
        if not optimal:
            return self.bank_wins and m == 1 and x2 + t >= self.G and x2 + t > x1
        if m == 0:
            return x1 + t >= self.cap
        return x2 + t >= self.G and x2 + t > x1

    def can_stop(self, key):
        return not (key[4] and self.forced)

    def rolls(self, key):
        """``[(p, ("bust",) or ("go", key'))]``."""
        x1, x2, m, t, _ = key
        out = []
        for f in self.faces:
            if f == "bust":
                out.append((self.p, ("bust",)))
            else:
                out.append((self.p, ("go", (x1, x2, m, t + f, False))))
        return out



#: Sweeps of one pair of scores per pass at most (see :func:`_passes`).
INNER = 10


def _passes(order, sweep, tol, max_iter):
    """Gauss-Seidel passes over the positions of ``order`` grouped by their
    pair of scores, in the order's sequence: a pass sweeps one pair's
    positions (``sweep(block)`` returns the largest change) until they agree
    (a round that ends with both scores unchanged, or a tie round, comes
    back to them; at most :data:`INNER` times a pass), the pairs from the
    largest sum down. True once a whole pass changes nothing by ``tol``
    (strictly less), False after ``max_iter`` passes."""
    blocks = {}
    for k in order:
        blocks.setdefault((k[0], k[1]), []).append(k)
    # strictly below tol: at most the largest float below it
    return passes(list(blocks.values()), sweep, math.nextafter(tol, 0.0), max_iter, INNER)


def _max_score_rolls(game, tmax):
    """Whether max-score rolls at each turn total below ``tmax``."""
    E = {t: float(t) for t in range(tmax, tmax + game.gmax + 1)}
    roll = {}
    for t in range(tmax - 1, -1, -1):
        c = sum(game.p * (0.0 if f == "bust" else E[t + f]) for f in game.faces)
        thr = -TIE if t == 0 else TIE * max(1.0, t)
        roll[t] = c - t > thr
        E[t] = c if roll[t] else float(t)
    return roll


def _starts(game):
    keys = [(a, b, 0, 0, True) for a in range(game.G) for b in range(game.G)]
    if game.ties == "replay":
        keys.append((game.G, game.G, 0, 0, True))
    return keys


def optimal_values(game, tol=1e-15, max_iter=200_000):
    """Seat 1's win probability ``V*`` at every state of optimal play, and
    at seat 2's turn ``d = 0 .. cap - goal`` behind a seat 1 past the goal
    (a lead the cap may make of a larger one, in the by-scores game)."""
    leads = [(game.G + d, game.G, 1, 0, True) for d in range(game.cap - game.G + 1)]
    seen, todo = set(), list(_starts(game)) + leads
    while todo:
        k = todo.pop()
        if k in seen:
            continue
        seen.add(k)
        if game.forced_stop(k, True):
            nxt = [game.after_turn(k, k[3], True)]
        else:
            nxt = [r for _, r in game.rolls(k)]
            if game.can_stop(k):
                nxt.append(game.after_turn(k, k[3], True))
        for r in nxt:
            if r[0] == "bust":
                r = game.after_turn(k, 0, True)
            if r[0] in ("state", "go"):
                todo.append(r[1])
    order = sorted(seen, key=lambda k: (-(k[0] + k[1]), -k[3], -k[2]))
    V = {k: 0.5 for k in order}

    def val(k, r):
        if r[0] == "bust":
            r = game.after_turn(k, 0, True)
        return r[1] if r[0] == "win" else V[r[1]]

    def sweep(block):
        delta = 0.0
        for k in block:
            stop = val(k, game.after_turn(k, k[3], True))
            if game.forced_stop(k, True):
                new = stop
            else:
                roll = sum(p * val(k, r) for p, r in game.rolls(k))
                if game.can_stop(k):
                    mine = (lambda v: v) if k[2] == 0 else (lambda v: 1.0 - v)
                    thr = -TIE if k[3] == 0 else TIE
                    new = roll if mine(roll) - mine(stop) > thr else stop
                else:
                    new = roll
            delta = max(delta, abs(new - V[k]))
            V[k] = new
        return delta

    if _passes(order, sweep, tol, max_iter):
        return V
    raise RuntimeError("the optimal reference did not converge")


def optimal_rolls(game, Vs, k):
    """Whether optimal play rolls at ``k`` (where it may stop and is not
    forced to: :meth:`Game.forced_stop`, :meth:`Game.can_stop`), from its
    values ``Vs`` (:func:`optimal_values` of ``game``): rolling must beat
    stopping by more than ``TIE`` (at ``t = 0`` stopping must beat
    rolling by more)."""
    t = k[3]
    stop = game.after_turn(k, t, True)
    sv = stop[1] if stop[0] == "win" else Vs[stop[1]]
    rv = 0.0
    for p, r in game.rolls(k):
        if r[0] == "bust":
            r = game.after_turn(k, 0, True)
        rv += p * (r[1] if r[0] == "win" else Vs[r[1]])
    if k[2] == 1:
        sv, rv = 1.0 - sv, 1.0 - rv
    thr = -TIE if t == 0 else TIE
    return rv - sv > thr


def evaluate(game, seat1, seat2, start=(0, 0), tol=1e-15, max_iter=200_000):
    """Seat 1's win probability and the expected actions from ``start`` with
    seat 1 playing ``seat1`` and seat 2 ``seat2`` (``"optimal"``,
    ``"max-score"``, ``("hold-at", N)`` or ``("fn", f)``)."""
    pols = (seat1, seat2)
    rel = Game(game.faces, game.G, game.ties, game.cap, forced_first=game.forced)
    Vs = optimal_values(rel) if "optimal" in pols else None
    ms = _max_score_rolls(game, 10 * (game.gmax + 2) + game.G) if "max-score" in pols else None

    memo = {}

    def end_value(k, total):
        """Seat 1's value of the mover's turn ending with ``total`` banked,
        by optimal play's values, read at the scores set back to the goal."""
        total = min(total, game.cap - k[k[2]])  # the mover's score stops at the cap
        shift = max(0, min(k[0], k[1]) - game.G)  # a replayed tie above the goal
        r = rel.after_turn((k[0] - shift, k[1] - shift) + k[2:], total, True)
        return r[1] if r[0] == "win" else Vs[r[1]]

    def turn_value(k, roll=None):
        """The optimal mover's value at ``k`` (its own view) inside this
        turn of the by-scores game: its own ends (the cap, a winning hold),
        each end valued by ``end_value``; ``roll`` forces the first step."""
        if roll is None and k in memo:
            return memo[k]
        mine = (lambda v: v) if k[2] == 0 else (lambda v: 1.0 - v)
        stop = mine(end_value(k, k[3]))
        if roll is False or game.forced_stop(k, True):
            v = stop
        else:
            go = sum(p * (mine(end_value(k, 0)) if r[0] == "bust" else turn_value(r[1]))
                     for p, r in game.rolls(k))
            if roll or not game.can_stop(k):
                v = go
            else:
                v = go if go - stop > (-TIE if k[3] == 0 else TIE) else stop
        if roll is None:
            memo[k] = v
        return v

    def decide(k):
        """True: roll."""
        pol = pols[k[2]]
        opt = pol == "optimal"
        if game.forced_stop(k, opt):
            return False
        if not game.can_stop(k):
            return True
        t = k[3]
        if pol == "max-score":
            return ms[t]
        if pol[0] == "fn":
            i, j = (k[0], k[1]) if k[2] == 0 else (k[1], k[0])
            return bool(pol[1](i, j, t))
        if not opt:
            return t < pol[1]
        if game.absolute:
            return turn_value(k, roll=True) - turn_value(k, roll=False) > (-TIE if t == 0
                                                                            else TIE)
        return optimal_rolls(rel, Vs, k)

    first = (start[0], start[1], 0, 0, True)
    seen, todo, plan = set(), [first], {}
    while todo:
        k = todo.pop()
        if k in seen:
            continue
        seen.add(k)
        opt = pols[k[2]] == "optimal"
        if decide(k):
            nxt = []
            for p, r in game.rolls(k):
                if r[0] == "bust":
                    r = game.after_turn(k, 0, opt)
                    nxt.append((p, r, 0.0))
                else:
                    nxt.append((p, r, 0.0))
            plan[k] = (nxt, 1.0)  # the roll
        else:
            plan[k] = ([(1.0, game.after_turn(k, k[3], opt), 0.0)], 1.0)  # the stop
        for _, r, _ in plan[k][0]:
            if r[0] in ("state", "go"):
                todo.append(r[1])
    V = {k: 0.5 for k in seen}
    L = {k: 0.0 for k in seen}
    order = sorted(seen, key=lambda k: (-(k[0] + k[1]), -k[3], -k[2]))
    def sweep(block):
        delta = 0.0
        for k in block:
            nxt, cost = plan[k]
            v = sum(p * (r[1] if r[0] == "win" else V[r[1]]) for p, r, _ in nxt)
            la = cost + sum(p * (0.0 if r[0] == "win" else L[r[1]]) for p, r, _ in nxt)
            delta = max(delta, abs(v - V[k]), abs(la - L[k]) / max(1.0, la))
            V[k], L[k] = v, la
        return delta

    if _passes(order, sweep, tol, max_iter):
        return V[first], L[first]
    raise RuntimeError("the match reference did not converge")
