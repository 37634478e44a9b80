"""A slow, obviously correct reference for the engine with N seats (race).

Gauss-Seidel value iteration over every position of an N-seat race, held
in dictionaries, straight from the rules (a pass takes each score tuple and
its rotations together, from the largest sum down, until they agree; it
ends once a whole pass changes nothing):

* seats take turns in order; a position is the scores in seat order from
  the mover, the turn state and the turn total;
* a value is a tuple with every seat's win probability, entry ``r`` for
  the seat ``r`` places after the mover; the mover picks the action best
  in its own entry (entry 0);
* at ``(s, t)`` the mover stops (banks ``t``; at ``t = 0`` a pass) when
  ``t >= min_bank`` and this is not the forced first roll of the turn, or
  takes a continuation whose outcomes bust (the turn total is lost, the
  banked score may change), end the turn with points, or let the mover
  choose an option ``(g, s')``; the next seat then starts from the
  hand-over state;
* the first banked score at the goal wins (a mover at ``i + t >= goal``
  who may stop, stops and wins);
* ties: a continuation must beat stopping by more than :data:`TIE` in the
  mover's entry, except at a turn total of 0, where stopping must beat
  continuing by more than :data:`TIE`; among continuations and options the
  first listed wins a tie.

Processes are those of ``engine_reference`` (``start``, ``handover(s)``,
``rolls(s)``). Only tiny games.
"""

from itertools import product

from engine_reference import _states

#: Margin by which a continuation must beat a stop (the package's TIE).
TIE = 1e-13


def _rotations(sc):
    return [sc[r:] + sc[:r] for r in range(len(sc))]


def _back(v):
    """A vector of the next mover read by the mover: entry ``r`` of the
    result is the seat ``r`` places after the mover, ``r - 1`` after the
    next one."""
    return v[-1:] + v[:-1]


class _Race:
    """The positions and equations of an N-seat race (module doc)."""

    def __init__(self, proc, goal, players, forced_first=False, min_bank=0, floor=0):
        N = players
        self.proc, self.goal, self.N = proc, goal, N
        self.forced_first, self.min_bank = forced_first, min_bank
        self.states = _states(proc)
        self.rolls = {s: proc.rolls(s) for s in self.states}
        tuples = list(product(range(floor, goal), repeat=N))
        even = (1.0 / N,) * N
        self.win = (1.0,) + (0.0,) * (N - 1)
        self.V = {(sc, h): even for sc in tuples for h in self.states}
        self.W = {(sc, s, t): even for sc in tuples for s in self.states
                  for t in range(max(goal - sc[0], min_bank))}
        self.order = sorted(self.W, key=lambda k: (-sum(k[0]), -k[2]))
        # the rotation classes (a score tuple and its rotations: a stop at
        # a total of 0 and a bust that keeps the score read the next one),
        # each with its in-turn keys (largest totals first) and turn starts,
        # from the largest sum down
        blocks = {}
        for key in self.order:
            blocks.setdefault(min(_rotations(key[0])), ([], []))[0].append(key)
        for key in self.V:
            blocks.setdefault(min(_rotations(key[0])), ([], []))[1].append(key)
        self.blocks = [blocks[b] for b in sorted(blocks, key=lambda b: -sum(b))]
        self.fell = False  # set once a bust has lowered a score

    def w(self, sc, s, t):
        if t >= max(self.goal - sc[0], self.min_bank):  # may stop at the goal: a win
            return self.win
        return self.W[(sc, s, t)]

    def handed(self, sc, score, h):
        """The next seat's turn start after the mover's turn ends at ``score``."""
        return _back(self.V[(sc[1:] + (score,), h)])

    def go(self, sc, s, t):
        """The best continuation's vector, the continuation (its index) and
        the option taken at each of its outcomes (None where there is no
        choice); ``(None, None, None)`` where the mover cannot go on."""
        best = index = picks = None
        for c, outs in enumerate(self.rolls[s]):
            v = [0.0] * self.N
            taken = []
            for o in outs:
                p, kind = o[0], o[1]
                k = None
                if kind == "bust":
                    score = o[3](sc[0])
                    if score < sc[0]:
                        self.fell = True
                    u = self.handed(sc, score, o[2])
                elif kind == "end":
                    total = t + o[2]
                    u = (self.win if sc[0] + total >= self.goal
                         else self.handed(sc, sc[0] + total, o[3]))
                else:
                    u = None
                    for i, (g, s2) in enumerate(o[2]):
                        cand = self.w(sc, s2, t + g)
                        if u is None or cand[0] > u[0]:
                            u, k = cand, i
                taken.append(k)
                for r in range(self.N):
                    v[r] += p * u[r]
            v = tuple(v)
            if best is None or v[0] > best[0]:
                best, index, picks = v, c, taken
        return best, index, picks

    def decide(self, sc, s, t, first):
        """``(vector, action)``: the action is None for a stop, else the
        continuation and its options (:meth:`go`)."""
        c, index, picks = self.go(sc, s, t)
        may_stop = t >= self.min_bank and not (first and self.forced_first)
        if not may_stop and c is not None:  # (nothing to draw: a pass)
            return c, (index, picks)
        stop = self.handed(sc, sc[0] + t, self.proc.handover(s))
        if c is None:
            return stop, None
        if t == 0:
            return (stop, None) if stop[0] > c[0] + TIE else (c, (index, picks))
        return (c, (index, picks)) if c[0] > stop[0] + TIE else (stop, None)

    def choose(self, sc, s, t, first):
        return self.decide(sc, s, t, first)[0]

    def sweep_turns(self):
        """One Gauss-Seidel sweep of the in-turn values; the largest change."""
        delta = 0.0
        for key in self.order:
            new = self.choose(*key, False)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, self.W[key])))
            self.W[key] = new
        return delta

    def sweep_block(self, turns, starts):
        """One sweep of a class's in-turn values, then of its turn starts."""
        delta = 0.0
        for key in turns:
            new = self.choose(*key, False)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, self.W[key])))
            self.W[key] = new
        for key in starts:
            sc, h = key
            new = self.choose(sc, h, 0, True)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, self.V[key])))
            self.V[key] = new
        return delta

    def sweep_classes(self, tol, inner=10):
        """A pass over the rotation classes from the largest sum down, each
        swept until it agrees to ``tol`` (at most ``inner`` times; once a
        bust has lowered a score, once: it reads a smaller sum, which only
        the next pass brings); the largest change of the pass."""
        delta = 0.0
        for turns, starts in self.blocks:
            for _ in range(1 if self.fell else inner):
                d = self.sweep_block(turns, starts)
                delta = max(delta, d)
                if d < tol:
                    break
        return delta

    def sweep_starts(self):
        """One sweep of the turn starts; the largest change."""
        delta = 0.0
        for key in self.V:
            sc, h = key
            new = self.choose(sc, h, 0, True)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, self.V[key])))
            self.V[key] = new
        return delta


def reference_seats(proc, goal, players, *, forced_first=False, min_bank=0, floor=0,
                    tol=1e-15, max_iter=200_000):
    """Turn-start values ``V[(scores, h)]`` (scores from the mover on) of
    the N-seat race to ``goal``, by value iteration from an equal share.

    Returns
    -------
    dict
        ``V[(scores, h)]``: tuple of win probabilities, entry ``r`` for the
        seat ``r`` places after the mover.

    Raises
    ------
    RuntimeError
        No convergence within ``max_iter`` sweeps (max-n value iteration
        can cycle where the seats' best replies do).
    """
    race = _Race(proc, goal, players, forced_first, min_bank, floor)
    for _ in range(max_iter):
        if race.sweep_classes(tol) < tol:
            return race.V
    raise RuntimeError(f"reference did not converge in {max_iter} sweeps")


def reference_sweep_deltas(proc, goal, players, sweeps, *, forced_first=False, min_bank=0,
                           floor=0):
    """The largest change of each of ``sweeps`` sweeps of
    :func:`reference_seats`' value iteration (a list): where max-n best
    replies chase each other, the changes stop falling."""
    race = _Race(proc, goal, players, forced_first, min_bank, floor)
    return [max(race.sweep_turns(), race.sweep_starts()) for _ in range(sweeps)]


_SOLVED = {}


def _solved(proc, goal, players, forced_first, min_bank, floor, max_iter):
    """The race, its values iterated until no sweep moves them by 1e-15
    (kept for the same process object: each seat's profile reads it)."""
    key = (id(proc), goal, players, forced_first, min_bank, floor)
    if key in _SOLVED and _SOLVED[key][0] is proc:
        return _SOLVED[key][1]
    _SOLVED[key] = (proc, _solve_race(proc, goal, players, forced_first, min_bank, floor,
                                      max_iter))
    return _SOLVED[key][1]


def _solve_race(proc, goal, players, forced_first, min_bank, floor, max_iter):
    race = _Race(proc, goal, players, forced_first, min_bank, floor)
    for _ in range(max_iter):
        if race.sweep_classes(1e-15) < 1e-15:
            return race
    raise RuntimeError(f"reference did not converge in {max_iter} sweeps")


def reference_seat_lengths(proc, goal, players, *, forced_first=False, min_bank=0, floor=0,
                           tol=1e-13, max_iter=200_000):
    """Expected actions left at every turn start under max-n play,
    ``L[(scores, h)]``: the values solved as :func:`reference_seats` solves
    them, every decision taken from them, then Gauss-Seidel over the
    lengths straight from the rules: a stop is one action, then the next
    seat's turn (none after a winning stop); a throw is one action, then
    each outcome's length: the next seat's turn after a bust or an end
    (none after an end that wins), the node the mover's option reaches
    (one action, its winning stop, at or past the goal)."""
    race = _solved(proc, goal, players, forced_first, min_bank, floor, max_iter)
    LV = {key: 0.0 for key in race.V}
    LW = {key: 0.0 for key in race.W}

    def inside(sc, s, t):
        return 1.0 if t >= max(goal - sc[0], min_bank) else LW[(sc, s, t)]

    def after(sc, score, h):
        return LV[(sc[1:] + (score,), h)]

    def length(sc, s, t, first):
        _, action = race.decide(sc, s, t, first)
        if action is None:
            return 1.0 + after(sc, sc[0] + t, proc.handover(s))
        index, picks = action
        total = 1.0
        for o, k in zip(race.rolls[s][index], picks):
            p, kind = o[0], o[1]
            if kind == "bust":
                total += p * after(sc, o[3](sc[0]), o[2])
            elif kind == "end":
                if sc[0] + t + o[2] < goal:
                    total += p * after(sc, sc[0] + t + o[2], o[3])
            else:
                g, s2 = o[2][k]
                total += p * inside(sc, s2, t + g)
        return total

    def sweep(turns, starts):
        delta = 0.0
        for key in turns:
            new = length(*key, False)
            delta = max(delta, abs(new - LW[key]) / max(1.0, new))
            LW[key] = new
        for key in starts:
            new = length(key[0], key[1], 0, True)
            delta = max(delta, abs(new - LV[key]) / max(1.0, new))
            LV[key] = new
        return delta

    # the rotation classes as the values are solved (_Race.sweep_classes)
    for _ in range(max_iter):
        delta = 0.0
        for turns, starts in race.blocks:
            for _ in range(1 if race.fell else 10):
                d = sweep(turns, starts)
                delta = max(delta, d)
                if d < tol:
                    break
        if delta < tol:
            return LV
    raise RuntimeError(f"reference lengths did not converge in {max_iter} sweeps")


def bellman_residual(proc, goal, players, values, *, forced_first=False, min_bank=0, floor=0):
    """How far the turn starts ``values(scores, h)`` are from solving the
    equations: the in-turn values are computed from them (swept until they
    settle), then the turn starts once more; the largest change of a turn
    start. Zero (to rounding) for any optimal max-n table, also where
    value iteration from an equal share cycles."""
    race = _Race(proc, goal, players, forced_first, min_bank, floor)
    for key in race.V:
        race.V[key] = tuple(float(v) for v in values(*key))
    for _ in range(10_000):
        if race.sweep_turns() == 0.0:
            break
    new = {(sc, h): race.choose(sc, h, 0, True) for sc, h in race.V}
    return max(max(abs(a - b) for a, b in zip(new[k], race.V[k])) for k in new)


def reference_profile(proc, goal, players, seat, hold, *, forced_first=False, min_bank=0,
                      floor=0, tol=1e-15, max_iter=200_000):
    """Every seat's win when seat ``seat`` (0-based) plays ``hold-at:hold``
    and the others play max-n optimally, by value iteration straight from
    the rules, in absolute seats.

    The optimal seats' decisions are those of the reference's own solve
    (:meth:`_Race.decide` on the converged values, scores from the mover
    on). The policy seat stops where it may once its turn total is at
    least ``hold`` (at a turn total of 0 it goes on), takes the first
    continuation, and at a choice the option of the largest gain (the
    first of equals). A turn total at the goal where a stop is allowed
    wins, for every seat.

    Returns
    -------
    dict
        ``P[(scores, h)]`` with seat 1 moving (scores in seat order): the
        tuple of every seat's win, seat 1 first.
    """
    race = _solved(proc, goal, players, forced_first, min_bank, floor, max_iter)
    N = players
    tuples = list(product(range(floor, goal), repeat=N))
    even = (1.0 / N,) * N
    P = {(sc, m, h): even for sc in tuples for m in range(N) for h in race.states}
    PW = {(sc, m, s, t): even for sc in tuples for m in range(N) for s in race.states
          for t in range(max(goal - sc[m], min_bank))}
    order = sorted(PW, key=lambda k: (-sum(k[0]), -k[3]))

    def win(m):
        return tuple(1.0 if a == m else 0.0 for a in range(N))

    def handed(sc, m, score, h):
        new = list(sc)
        new[m] = score
        return P[(tuple(new), (m + 1) % N, h)]

    def inside(sc, m, s, t):
        if t >= max(goal - sc[m], min_bank):
            return win(m)
        return PW[(sc, m, s, t)]

    taken = {}  # every seat's decisions are fixed: computed once, then read

    def action(sc, m, s, t, first):
        """None for a stop, else (continuation, option per outcome)."""
        key = (sc, m, s, t, first)
        if key not in taken:
            taken[key] = decision(sc, m, s, t, first)
        return taken[key]

    def decision(sc, m, s, t, first):
        may_stop = t >= min_bank and not (first and forced_first)
        if m == seat:
            if may_stop and t >= hold:
                return None
            outs = race.rolls[s][0]
            picks = [None if o[1] != "choose" else
                     max(range(len(o[2])), key=lambda i: (o[2][i][0], -i)) for o in outs]
            return 0, picks
        rel = tuple(sc[(m + r) % N] for r in range(N))
        return race.decide(rel, s, t, first)[1]

    def value(sc, m, s, t, first):
        act = action(sc, m, s, t, first)
        if act is None:
            if t == 0:
                return P[(sc, (m + 1) % N, proc.handover(s))]
            return handed(sc, m, sc[m] + t, proc.handover(s))
        index, picks = act
        v = [0.0] * N
        for o, k in zip(race.rolls[s][index], picks):
            p, kind = o[0], o[1]
            if kind == "bust":
                u = handed(sc, m, o[3](sc[m]), o[2])
            elif kind == "end":
                total = t + o[2]
                u = win(m) if sc[m] + total >= goal else handed(sc, m, sc[m] + total, o[3])
            else:
                g, s2 = o[2][k]
                u = inside(sc, m, s2, t + g)
            for a in range(N):
                v[a] += p * u[a]
        return tuple(v)

    def sweep(turns, starts):
        delta = 0.0
        for key in turns:
            new = value(*key, False)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, PW[key])))
            PW[key] = new
        for key in starts:
            sc, m, h = key
            new = value(sc, m, h, 0, True)
            delta = max(delta, max(abs(a - b) for a, b in zip(new, P[key])))
            P[key] = new
        return delta

    # the scores (in seat order) with every mover at a time, swept until
    # they agree (a bust hands the same scores on), from the largest sum
    # down (a stop reads a larger sum); where a bust has lowered a score
    # (a smaller sum, brought by the next pass), once a pass
    blocks = {}
    for key in order:
        blocks.setdefault(key[0], ([], []))[0].append(key)
    for key in P:
        blocks.setdefault(key[0], ([], []))[1].append(key)
    falls = race.fell
    for _ in range(max_iter):
        delta = 0.0
        for b in sorted(blocks, key=lambda b: -sum(b)):
            for _ in range(1 if falls else 10):
                d = sweep(*blocks[b])
                delta = max(delta, d)
                if d < tol:
                    break
        if delta < tol:
            return {(sc, h): P[(sc, 0, h)] for sc in tuples for h in race.states}
    raise RuntimeError(f"reference profile did not converge in {max_iter} sweeps")
