"""A slow, obviously correct reference for the engine's turn model.

Plain Gauss-Seidel value iteration over every position ``(i, j, s, t)`` of a
two-seat race, held in dictionaries, straight from the rules of a turn:

* at ``(s, t)`` the mover stops (banks ``t``; at ``t = 0`` a pass), when
  ``t >= min_bank`` and this is not the forced first roll of the turn, or
  takes a continuation: a chance event whose outcomes bust (the turn total
  is lost; the banked score may become 0 or fall by a penalty to a floor),
  end the turn with points, or let the mover choose an option ``(g, s')``;
* the next turn starts from the hand-over state;
* the first banked score at the goal wins (a mover at ``i + t >= goal``
  stops and wins).

A *process* is any object with ``start``, ``handover(s)`` and
``rolls(s)``: a list of continuations, each a list of outcomes
``(p, "bust", next_start, new_score)`` with ``new_score(i)`` a function,
``(p, "end", points, next_start)`` or ``(p, "choose", [(g, s'), ...])``.
The games below are written here from their rules (not from the engine's
parts), and :class:`FromModel` reads a turn model's arrays, so the tests
check the enumeration and the kernels separately. Only tiny games.
"""

from itertools import product


def same(i):
    return i


def to_zero(i):
    return 0


class Die:
    """One die per roll, faces equally likely: ``faces`` lists each face's
    effect, ``"bust"``, ``"zero"`` (bust and the banked score becomes 0) or
    its points."""

    start = "roll"

    def __init__(self, faces):
        self.faces = faces

    def handover(self, s):
        return "roll"

    def rolls(self, s):
        p = 1.0 / len(self.faces)
        outs = []
        for f in self.faces:
            if f == "bust":
                outs.append((p, "bust", "roll", same))
            elif f == "zero":
                outs.append((p, "bust", "roll", to_zero))
            else:
                outs.append((p, "choose", [(f, "roll")]))
        return [outs]


class PairOfDice:
    """Two ``sides``-sided dice: no 1, their sum scores; one 1 busts; two 1s
    bust and the banked score becomes 0 (Two-Dice Pig's rule)."""

    start = "roll"

    def __init__(self, sides):
        self.sides = sides

    def handover(self, s):
        return "roll"

    def rolls(self, s):
        p = 1.0 / self.sides**2
        outs = []
        for a, b in product(range(1, self.sides + 1), repeat=2):
            if a == 1 and b == 1:
                outs.append((p, "bust", "roll", to_zero))
            elif a == 1 or b == 1:
                outs.append((p, "bust", "roll", same))
            else:
                outs.append((p, "choose", [(a + b, "roll")]))
        return [outs]


class AsideDice:
    """``count`` dice of ``sides`` sides; a 1 is set aside for the rest of
    the turn, any other face scores 1; the ``aside_bust``-th die set aside
    busts the turn (The Great Rolled Ones' turn, here in a race)."""

    def __init__(self, count, sides, aside_bust):
        self.count, self.sides, self.aside_bust = count, sides, aside_bust
        self.start = 0

    def handover(self, s):
        return 0

    def rolls(self, aside):
        n = self.count - aside
        if n == 0:
            return []
        p = 1.0 / self.sides**n
        outs = []
        for faces in product(range(1, self.sides + 1), repeat=n):
            ones = faces.count(1)
            if aside + ones >= self.aside_bust:
                outs.append((p, "bust", 0, same))
            else:
                outs.append((p, "choose", [(n - ones, aside + ones)]))
        return [outs]


class PenaltyDie:
    """A die whose ``bust`` face busts and takes ``penalty`` banked points,
    down to ``floor``; other faces score as listed."""

    start = "roll"

    def __init__(self, faces, penalty, floor):
        self.faces, self.penalty, self.floor = faces, penalty, floor

    def handover(self, s):
        return "roll"

    def rolls(self, s):
        p = 1.0 / len(self.faces)
        fall = lambda i: max(i - self.penalty, self.floor)  # noqa: E731
        return [[(p, "bust", "roll", fall) if f == "bust" else (p, "choose", [(f, "roll")])
                 for f in self.faces]]


class Deck:
    """``bad`` bad and ``good`` good items drawn without replacement; a good
    item scores 1; the deck persists across turns and is reshuffled after
    its last bad item. State ``(w, c)``: items drawn since the shuffle."""

    start = (0, 0)

    def __init__(self, bad, good):
        self.bad, self.good = bad, good

    def handover(self, s):
        return s

    def rolls(self, s):
        w, c = s
        wr, cr = self.bad - w, self.good - c
        after = (w + 1, c) if w + 1 < self.bad else (0, 0)
        outs = [(wr / (wr + cr), "bust", after, same)]
        if cr:
            outs.append((cr / (wr + cr), "choose", [(1, (w, c + 1))]))
        return [outs]


class ItemDeck:
    """A deck of kinds of items drawn without replacement, written from the
    rules: ``kinds`` lists ``(count, effect)`` or ``(count, effect, at)``,
    the effect being an item's points, ``"stop"`` (the turn ends and its
    total is banked), ``"bust"``, ``"zero"`` (a bust after which the banked
    score is 0) or ``("penalty", n, floor)`` (a bust that takes ``n``
    banked points, not below ``floor``); a bust kind with ``at`` busts only
    at its ``at``-th item drawn in one turn, the ones before scoring
    nothing. Drawn items stay out of the deck until every item goes back:
    after a turn that leaves no bust item in the deck (``"last-bad"``),
    after any bust (``"every-bust"``), or before every turn
    (``"every-turn"``). State: the items of each kind still in the deck and
    the items of each kind drawn this turn."""

    def __init__(self, kinds, reshuffle="last-bad"):
        self.kinds = [(k[0], k[1], k[2] if len(k) > 2 else 1) for k in kinds]
        self.reshuffle = reshuffle
        self.none = (0,) * len(kinds)
        self.start = (tuple(n for n, _, _ in self.kinds), self.none)

    @staticmethod
    def busts(effect):
        return effect in ("bust", "zero") or isinstance(effect, tuple)

    def state_of(self, key):
        """The state a part's ``key`` describes: the items of each kind
        drawn since the shuffle, then the items drawn this turn of each
        kind that busts only at a later item."""
        K = len(self.kinds)
        left = tuple(n - d for (n, _, _), d in zip(self.kinds, key[:K]))
        later = iter(key[K:])
        turn = tuple(next(later) if self.busts(e) and at > 1 else 0 for _, e, at in self.kinds)
        return (left, turn)

    def handover(self, s):
        left, _ = s
        if self.reshuffle == "every-turn" or not any(
                n for n, (_, e, _) in zip(left, self.kinds) if self.busts(e)):
            return self.start
        return (left, self.none)

    def rolls(self, s):
        left, turn = s
        total = sum(left)
        outs = []
        for k, (_, effect, at) in enumerate(self.kinds):
            if not left[k]:
                continue
            p = left[k] / total
            after = (left[:k] + (left[k] - 1,) + left[k + 1:],
                     turn[:k] + (turn[k] + 1,) + turn[k + 1:])
            if self.busts(effect) and turn[k] + 1 >= at:
                if effect == "zero":
                    score = to_zero
                elif isinstance(effect, tuple):
                    score = (lambda n, lo: lambda i: max(i - n, lo))(effect[1], effect[2])
                else:
                    score = same
                nxt = self.start if self.reshuffle == "every-bust" else self.handover(after)
                outs.append((p, "bust", nxt, score))
            elif effect == "stop":
                outs.append((p, "end", 0, self.handover(after)))
            else:
                outs.append((p, "choose", [(0 if self.busts(effect) else effect, after)]))
        return [outs] if outs else []


class Farkle:
    """Farkle's turn, written from its rules: ``count`` six-sided dice;
    points in units of 50. A throw of the ``n`` dice left showing no scoring
    die busts. Otherwise the mover keeps any non-empty set of the dice just
    thrown that splits entirely into combinations of that throw, worth its
    best split, and goes on with the others (all ``count`` again when every
    die is kept). Combinations: a 1 (100), a 5 (50), three of a kind (100 x
    face, three 1s 1000), four, five, six of a kind (2, 4, 8 x the three of
    a kind), three pairs (three faces, each exactly twice: 750), a straight
    1-6 (1500). Every kept set is an option (none is dropped as worse than
    another); throws with the same options are one outcome (their chances
    added), only to keep the reference fast enough."""

    def __init__(self, count):
        self.count = count
        self.start = count
        self._scores = {}

    def handover(self, s):
        return self.count

    def combos(self, dice):
        """Every combination (a sorted tuple of faces, its points) within ``dice``."""
        out = [((1,), 100), ((5,), 50)]
        for face in range(1, 7):
            triple = 1000 if face == 1 else 100 * face
            for n, mult in ((3, 1), (4, 2), (5, 4), (6, 8)):
                out.append(((face,) * n, triple * mult))
        if len(dice) == 6:
            out.append(((1, 2, 3, 4, 5, 6), 1500))
            faces = sorted(set(dice))
            if len(faces) == 3 and all(dice.count(f) == 2 for f in faces):
                out.append((tuple(sorted(dice)), 750))
        return [(c, pts) for c, pts in out if all(dice.count(f) >= c.count(f) for f in set(c))]

    def score(self, dice):
        """Best points of the sorted tuple ``dice`` split into combinations, or None."""
        if not dice:
            return 0
        if dice not in self._scores:
            best = None
            for combo, pts in self.combos(dice):
                rest = list(dice)
                for f in combo:
                    rest.remove(f)
                sub = self.score(tuple(rest))
                if sub is not None and (best is None or pts + sub > best):
                    best = pts + sub
            self._scores[dice] = best
        return self._scores[dice]

    def rolls(self, n):
        if n == 0:
            return []
        merged = {}
        for roll in product(range(1, 7), repeat=n):
            opts = set()
            for mask in range(1, 2**n):
                kept = tuple(sorted(roll[d] for d in range(n) if mask >> d & 1))
                pts = self.score(kept)
                if pts is not None:
                    left = n - len(kept)
                    opts.add((pts // 50, left if left else self.count))
            key = tuple(sorted(opts))
            merged[key] = merged.get(key, 0) + 1
        outs = []
        for key, ways in merged.items():
            p = ways / 6**n
            outs.append((p, "bust", self.count, same) if not key else (p, "choose", list(key)))
        return [outs]


class FromModel:
    """A turn model's arrays read as a process (states are indices)."""

    start = 0

    def __init__(self, model):
        self.m = model

    def handover(self, s):
        return int(self.m.handover[s])

    def rolls(self, s):
        m = self.m
        conts = []
        for c in range(m.cont_start[s], m.cont_start[s + 1]):
            outs = []
            for o in range(m.out_start[c], m.out_start[c + 1]):
                p, kind, nxt = float(m.out_prob[o]), int(m.out_kind[o]), int(m.out_next[o])
                if kind == 0:  # bust
                    effect, pen, floor = int(m.out_effect[o]), int(m.out_penalty[o]), m.floor
                    score = (same if effect == 0 else to_zero if effect == 1
                             else (lambda i, pen=pen, floor=floor: max(i - pen, floor)))
                    outs.append((p, "bust", nxt, score))
                elif kind == 2:
                    outs.append((p, "end", int(m.out_points[o]), nxt))
                else:
                    opts = [(int(m.opt_gain[r]), int(m.opt_next[r]))
                            for r in range(m.opt_start[o], m.opt_start[o + 1])]
                    outs.append((p, "choose", opts))
            conts.append(outs)
        return conts


def _states(proc):
    """Every state reachable from the start, within turns and across them."""
    seen, todo = {proc.start}, [proc.start]
    while todo:
        s = todo.pop()
        nxt = [proc.handover(s)]
        for outs in proc.rolls(s):
            for o in outs:
                if o[1] == "bust":
                    nxt.append(o[2])
                elif o[1] == "end":
                    nxt.append(o[3])
                else:
                    nxt.extend(s2 for _, s2 in o[2])
        for s2 in nxt:
            if s2 not in seen:
                seen.add(s2)
                todo.append(s2)
    return sorted(seen, key=repr)


def reference_win(proc, goal, komi=0, *, forced_first=False, min_bank=0, floor=0, tol=1e-15,
                  max_iter=100_000):
    """First-player win probability of the race to ``goal`` (the second
    player starts with ``komi``), by value iteration; also the tables.

    Returns
    -------
    float, dict, dict
        The win probability, turn starts ``V[(i, j, h)]`` and in-turn values
        ``W[(i, j, s, t)]``.
    """
    states = _states(proc)
    rolls = {s: proc.rolls(s) for s in states}
    scores = range(floor, goal)
    V = {(i, j, h): 0.5 for i in scores for j in scores for h in states}
    W = {(i, j, s, t): 0.5 for i in scores for j in scores for s in states
         for t in range(max(goal - i, min_bank))}

    def w(i, j, s, t):
        if t >= max(goal - i, min_bank):  # at the goal, and allowed to stop: a win
            return 1.0
        return W[(i, j, s, t)]

    def go(i, j, s, t):
        best = None
        for outs in rolls[s]:
            v = 0.0
            for o in outs:
                p, kind = o[0], o[1]
                if kind == "bust":
                    i2 = o[3](i)
                    if i2 < i:
                        fell[0] = True
                    v += p * (1.0 - V[(j, i2, o[2])])
                elif kind == "end":
                    total = t + o[2]
                    v += p * (1.0 if i + total >= goal else 1.0 - V[(j, i + total, o[3])])
                else:
                    v += p * max(w(i, j, s2, t + g) for g, s2 in o[2])
            best = v if best is None else max(best, v)
        return best

    def stop(i, j, s, t):
        return 1.0 - V[(j, i + t, proc.handover(s))]

    def sweep(i, j):
        """Every total of the pair ``(i, j)``, the largest first, then its
        turn starts; the largest change."""
        delta = 0.0
        for key in nodes[(i, j)]:
            _, _, s, t = key
            c = go(i, j, s, t)
            options = [c] if c is not None else []
            if t >= min_bank:
                options.append(stop(i, j, s, t))
            new = max(options)
            delta = max(delta, abs(new - W[key]))
            W[key] = new
        for h in states:
            c = go(i, j, h, 0)
            # (a state with nothing left to draw is never a turn start,
            # but is tabled as one: there the mover can only pass)
            new = c if forced_first and c is not None else W[(i, j, h, 0)]
            delta = max(delta, abs(new - V[(i, j, h)]))
            V[(i, j, h)] = new
        return delta

    # A pass takes the pairs of scores from the largest sum down (a stop
    # reads a larger sum), the pairs (i, j) and (j, i) together, swept in
    # turn until they agree (a bust reads the other); it ends once a whole
    # pass changes nothing by tol. Where a bust has lowered a score (it reads
    # a smaller sum, which only the next pass brings), a block is swept once
    # a pass: agreeing on a stale smaller sum would be work thrown away.
    fell = [False]
    nodes = {}
    for key in sorted(W, key=lambda k: -k[3]):
        nodes.setdefault(key[:2], []).append(key)
    blocks = sorted({tuple(sorted({(i, j), (j, i)})) for i, j in nodes},
                    key=lambda b: -(b[0][0] + b[0][1]))
    for _ in range(max_iter):
        delta = 0.0
        for block in blocks:
            for _ in range(1 if fell[0] else max_iter):
                d = max(sweep(i, j) for i, j in block)
                delta = max(delta, d)
                if d < tol:
                    break
        if delta < tol:
            return V[(0, komi, proc.start)], V, W
    raise RuntimeError(f"reference did not converge in {max_iter} sweeps")



def reference_rounds(proc, goal, ties="replay", cap=None, *, forced_first=False, min_bank=0,
                     floor=0, tol=1e-15, max_iter=100_000):
    """Seat 1's win probability from scores (0, 0) under the rounds ending
    (the rounds ending over any turn model), two seats, by value iteration over the actual scores,
    written from the rules: seat 1 then seat 2 take a turn; when the round
    ends with a score at or above the goal, the higher score wins; a tie
    there is replayed as another round (``replay``) or goes to seat 1
    (``earlier-seat``). Seat 1's score is capped at ``cap``: a turn that
    reaches it stops there. A bust may lower the mover's banked score (to
    0, or by a penalty down to ``floor``); a replayed round is then played
    on from the scores it leaves, even below the goal.

    Returns
    -------
    float, dict
        The win probability and the round starts ``R[(a, b, h)]`` (seat 1's
        win probability, seat 1 to move).
    """
    cap = goal + 30 if cap is None else cap
    states = _states(proc)
    rolls = {s: proc.rolls(s) for s in states}
    live = [(a, b) for a in range(floor, goal) for b in range(floor, goal)]
    if ties == "replay":
        live += [(a, a) for a in range(goal, cap + 1)]
    R = {(a, b, h): 0.5 for a, b in live for h in states}
    U1, U2 = {}, {}  # (a, b, s, t): seat 1 in its turn; (b, a, s, t): seat 2 in its turn

    def round_end(a, b, h):
        """Seat 2's value once the round ends at scores (a, b), next start h."""
        if max(a, b) >= goal:
            if b > a:
                return 1.0
            if b < a or ties == "earlier-seat":
                return 0.0
        return 1.0 - R[(a, b, h)]

    def seat2_limit(b, a):
        """Totals from which seat 2 stops and wins, or no more matters."""
        return max(goal - b, a + 1 - b, min_bank)

    def value(table, key, limit, stopf):
        x, y, s, t = key
        if t >= limit:
            return stopf(x, y, s, limit)
        return table.get(key, 0.5)

    def turn(table, x, y, s, t, limit, stopf):
        best = None
        for outs in rolls[s]:
            v = 0.0
            for o in outs:
                p, kind = o[0], o[1]
                if kind == "bust":  # the banked score may fall
                    v += p * _end(stopf, o[3](x), y, o[2], 0)
                elif kind == "end":
                    v += p * _end(stopf, x, y, o[3], min(t + o[2], limit))
                else:
                    v += p * max(value(table, (x, y, s2, t + g), limit, stopf) for g, s2 in o[2])
            best = v if best is None else max(best, v)
        return best

    def _end(stopf, x, y, nxt, t):
        # a turn ended by the dice at total t; the next turn starts at nxt
        return stopf(x, y, _Start(nxt), t)

    S2 = {}  # seat 2's turn starts, tabled when its turn is swept

    def seat2_start_now(b, a, h):
        limit = seat2_limit(b, a)
        key = (b, a, h, 0)
        if forced_first:
            return turn(U2, b, a, h, 0, limit, seat2_stop_any)
        return value(U2, key, limit, seat2_stop_any)

    def seat2_start(b, a, h):
        v = S2.get((b, a, h))
        return seat2_start_now(b, a, h) if v is None else v

    def seat2_stop_any(b, a, s, t):
        h = s.h if isinstance(s, _Start) else proc.handover(s)
        return round_end(a, b + t, h)

    def seat1_stop_any(a, b, s, t):
        h = s.h if isinstance(s, _Start) else proc.handover(s)
        return 1.0 - seat2_start(b, min(a + t, cap), h)

    def sweep_turn(table, x, y, limit, stopf):
        delta = 0.0
        for t in range(limit - 1, -1, -1):
            for s in states:
                key = (x, y, s, t)
                c = turn(table, x, y, s, t, limit, stopf)
                options = [c] if c is not None else []
                if t >= min_bank:
                    options.append(stopf(x, y, s, t))
                new = max(options)
                delta = max(delta, abs(new - table.get(key, 0.5)))
                table[key] = new
        return delta

    pairs2 = {(b, a) for a in range(floor, cap + 1) for b in range(floor, goal)}
    if ties == "replay":  # seat 2 in a tie round: level at b, seat 1 now at a
        pairs2 |= {(b, a) for b in range(goal, cap + 1) for a in range(floor, cap + 1)}
    live = set(live)

    def sweep_pair(a, b):
        """Seat 2's turn at (b, a), then seat 1's at (a, b): the largest change."""
        delta = 0.0
        if (b, a) in pairs2:
            delta = sweep_turn(U2, b, a, seat2_limit(b, a), seat2_stop_any)
            for h in states:
                new = seat2_start_now(b, a, h)
                delta = max(delta, abs(new - S2.get((b, a, h), 0.5)))
                S2[(b, a, h)] = new
        if (a, b) in live:
            delta = max(delta, sweep_turn(U1, a, b, cap - a, seat1_stop_any))
            for h in states:
                c = turn(U1, a, b, h, 0, cap - a, seat1_stop_any) if forced_first else None
                # (a state with nothing left to draw is never a round's start,
                # but is tabled as one: there seat 1 can only pass)
                new = c if c is not None else value(U1, (a, b, h, 0), cap - a, seat1_stop_any)
                delta = max(delta, abs(new - R[(a, b, h)]))
                R[(a, b, h)] = new
        return delta

    # Gauss-Seidel by pairs of scores, larger sums first (a hold reads a
    # larger sum), each pair swept until its own turns agree; the table is
    # done once a whole pass changes nothing by tol
    order = sorted(live | {(a, b) for b, a in pairs2}, key=lambda k: -(k[0] + k[1]))
    for _ in range(max_iter):
        delta = 0.0
        for a, b in order:
            delta = max(delta, sweep_pair(a, b))
            for _ in range(max_iter):
                if sweep_pair(a, b) < tol:
                    break
        if delta < tol:
            return R[(0, 0, proc.start)], R
    raise RuntimeError(f"reference did not converge in {max_iter} sweeps")


class _Start:
    """The start state a turn ended by the dice hands over to."""

    def __init__(self, h):
        self.h = h


def reference_rounds_hold(proc, goal, n1, n2, ties="replay", cap=None, *, bank_wins=False,
                          forced_first=False, min_bank=0, floor=0):
    """Seat 1's win probability and the expected actions left at every
    round start under the rounds ending (as :func:`reference_rounds`), seat
    1 playing ``hold-at:n1`` and seat 2 ``hold-at:n2``, by one linear
    solve of the Markov chain the two fixed policies make, written from the
    rules.

    A mover stops once its turn total is at least its ``n`` where a stop is
    allowed (``t >= min_bank``, and at a total of 0 only when the first
    throw is not forced); seat 1's score is held at ``cap`` (its turn
    stops there); with ``bank_wins`` seat 2 also stops as soon as stopping
    wins (its score at or above the goal and above seat 1's). An option is
    the one of the largest gain (the first of them). Every throw counts one
    action, and so does every stop (a pass, a hold). Only for processes
    whose every option gains (a turn never comes back to a state), whose
    total-0 states are turn starts.

    Returns
    -------
    dict, dict
        ``V[(a, b, h)]`` seat 1's win at a round's start (seat 1 to move
        with ``a`` against ``b``, the turn from ``h``) and ``L[(a, b, h)]``
        the expected actions left there.
    """
    import numpy as np

    cap = goal + 30 if cap is None else cap
    states = _states(proc)
    rolls = {s: proc.rolls(s) for s in states}
    seat1 = [(a, b) for a in range(floor, goal) for b in range(floor, goal)]
    if ties == "replay":
        seat1 += [(a, a) for a in range(goal, cap + 1)]
    seat2 = [(b, a) for a in range(floor, cap + 1) for b in range(floor, goal)]
    if ties == "replay":
        seat2 += [(b, a) for b in range(goal, cap + 1) for a in range(floor, cap + 1)]
    index = {}
    for a, b in seat1:
        for h in states:
            index[(1, a, b, h)] = len(index)
    for b, a in seat2:
        for h in states:
            index[(2, b, a, h)] = len(index)

    def turn(x, y, mover, h):
        """The turn's ends from start ``h`` of a mover at ``x`` against
        ``y``: ``{("stop", total, next) or ("bust", score, next): p}`` and
        the expected actions in it."""
        n = n1 if mover == 1 else n2
        ends, actions = {}, 0.0

        def stops(s, t):
            if mover == 1 and x + t >= cap:
                return True  # the score is held at the cap
            if not (t >= min_bank and (t > 0 or not forced_first)):
                return not rolls[s]
            won = mover == 2 and bank_wins and x + t >= goal and x + t > y
            return t >= n or won or not rolls[s]

        def walk(s, t, p):
            nonlocal actions
            if not (t == 0 and forced_first) and stops(s, t):
                key = ("stop", t, proc.handover(s))
                ends[key] = ends.get(key, 0.0) + p
                actions += p  # the stop
                return
            outs = rolls[s][0]  # a hold-at policy takes the first way to go on
            actions += p  # the throw
            for o in outs:
                q = p * o[0]
                if o[1] == "bust":
                    key = ("bust", o[3](x), o[2])
                    ends[key] = ends.get(key, 0.0) + q
                elif o[1] == "end":
                    key = ("stop", t + o[2], o[3])  # ended by the dice: no stop action
                    ends[key] = ends.get(key, 0.0) + q
                else:
                    g, s2 = max(o[2], key=lambda opt: opt[0])
                    walk(s2, t + g, q)

        walk(h, 0, 1.0)
        return ends, actions

    N = len(index)
    M = np.eye(N)
    cw, cl = np.zeros(N), np.zeros(N)
    for (mover, x, y, h), i in index.items():
        ends, acts = turn(x, y, mover, h)
        cl[i] = acts
        for (kind, v, h2), p in ends.items():
            if mover == 1:  # seat 2 to move at y once seat 1 ended at v
                score = min(x + v, cap) if kind == "stop" else v
                M[i, index[(2, y, score, h2)]] -= p
                continue
            a, b2 = y, (x + v if kind == "stop" else v)
            if max(a, b2) >= goal and (b2 != a or ties == "earlier-seat"):
                cw[i] += p * (a >= b2)  # the round ends the game
            else:  # the next round (or a replayed tie) from (a, b2)
                M[i, index[(1, a, b2, h2)]] -= p
    V = np.linalg.solve(M, cw)
    L = np.linalg.solve(M, cl)
    return ({(a, b, h): V[i] for (m, a, b, h), i in index.items() if m == 1},
            {(a, b, h): L[i] for (m, a, b, h), i in index.items() if m == 1})
