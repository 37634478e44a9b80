"""A slow reference for the rounds ending with two to four seats where a
bust can lower a banked score, written from the rules over full game
states, for tiny games only.

The rules:

* play goes in rounds among the seats of the game, in seat order; a turn
  ends by a stop (banking the total; at a total of 0 a pass), a bust (the
  total is lost and the banked score may fall: to 0, or by a penalty down
  to the floor) or an end outcome (banking the total plus its points); the
  next turn starts from the hand-over state;
* a seat that is not the last of its round has its score held at the cap:
  a turn whose total brings it there ends there with a stop; the last seat
  of a round stops as soon as a stop wins it the round (its score at or
  above the goal and above every other seat's), not before the bank rule
  allows a stop;
* at a round's end, when the highest score is below the goal the same
  seats play another round; otherwise a single seat at the highest score
  wins; seats level at it play on from their scores among themselves
  (``replay``), or the earliest of them wins (``earlier-seat``);
* every seat maximises its own win probability; a stop wins a tie with
  continuing, except at a total of 0; the first continuation or option
  wins ties (equal within ``TIE``).

A state at a turn start is ``(seats, k, scores, h)``: the seats playing
(every seat, or the tied leaders), the mover's index among them, their
scores (seats before ``k`` have moved this round) and the start state.
Values are vectors: each seat's win probability and the expected actions
left (a throw or draw counts 1, a stop 1, a bust or an end outcome 0),
found by Gauss-Seidel value iteration from 0: where a seat could pass
for ever (a round that comes back to itself with certainty when it passes)
every value is a fixed point of its own, and iterates that rise to the
least one keep the seat going on, as a tie at a total of 0 asks.
"""

from itertools import product

from engine_reference import _states

from designer._jit import TIE


class Reference:
    """Value iteration over every state of ``proc`` (a process of
    :mod:`engine_reference`) with ``players`` seats."""

    def __init__(self, proc, goal, players, *, ties="replay", cap=None, floor=0,
                 forced_first=False, min_bank=0):
        self.p, self.G, self.N = proc, goal, players
        self.C = goal + 4 if cap is None else cap
        self.replay = ties == "replay"
        self.lo = min(floor, 0)
        self.forced, self.mb = forced_first, min_bank
        self.states = _states(proc)
        self.rolls = {s: proc.rolls(s) for s in self.states}
        self.V = {}  # turn starts
        self.W = {}  # positions inside a turn

    # -- the rules ---------------------------------------------------------

    def _end_total(self, seats, k, scores):
        """The total from which the turn ends at once."""
        s = scores[k]
        if k < len(seats) - 1:
            return self.C - s
        others = max((v for i, v in enumerate(scores) if i != k), default=self.lo - 1)
        return max(max(self.G, others + 1) - s, self.mb, 0)

    def _after(self, seats, k, scores, x, h, V=None):
        """The value once the mover ends its turn at score ``x``, the next
        turn from start ``h`` (read from ``V``, the turn starts' values,
        default the solve's)."""
        get = self._v if V is None else V.__getitem__
        scores = scores[:k] + (x,) + scores[k + 1:]
        if k < len(seats) - 1:
            return get((seats, k + 1, scores, h))
        hi = max(scores)
        if hi < self.G:
            return get((seats, 0, scores, h))
        lead = [seats[i] for i, v in enumerate(scores) if v == hi]
        if len(lead) == 1 or not self.replay:
            return self._unit(lead[0])
        return get((tuple(lead), 0, (hi,) * len(lead), h))

    def _unit(self, q):
        return tuple(1.0 if r == q else 0.0 for r in range(self.N)) + (0.0,)

    def _v(self, key):
        if key not in self.V:
            self.V[key] = (0.0,) * (self.N + 1)
            self.todo.append(key)
        return self.V[key]

    def _stop(self, seats, k, scores, t, T, h, V=None):
        x = scores[k] + t
        if k < len(seats) - 1:
            x = min(x, self.C)
        v = self._after(seats, k, scores, x, h, V)
        return v[:-1] + (v[-1] + 1.0,)

    def _w(self, key, T, V=None, W=None):
        seats, k, scores, s, t = key
        if t >= T:
            return self._stop(seats, k, scores, t, T, self.p.handover(s), V)
        return (self.W if W is None else W).get(key, (0.0,) * (self.N + 1))

    def _go(self, seats, k, scores, s, t, T):
        """The best continuation at ``(s, t)`` for the mover, or None."""
        q = seats[k]
        best = None
        for outs in self.rolls[s]:
            acc = [0.0] * (self.N + 1)
            acc[-1] = 1.0
            for o in outs:
                p = o[0]
                if o[1] == "bust":
                    v = self._after(seats, k, scores, o[3](scores[k]), o[2])
                elif o[1] == "end":
                    u = min(t + o[2], T)
                    x = scores[k] + u
                    if k < len(seats) - 1:
                        x = min(x, self.C)
                    v = self._after(seats, k, scores, x, o[3])
                else:
                    v = None
                    for g, s2 in o[2]:
                        n = self._w((seats, k, scores, s2, t + g), T)
                        if v is None or n[q] > v[q] + TIE:
                            v = n
                for r in range(self.N + 1):
                    acc[r] += p * v[r]
            if best is None or acc[q] > best[q] + TIE:
                best = tuple(acc)
        return best

    def _sweep_turn(self, key):
        """Every position of the turn at ``key``, the largest total first,
        then its start; the largest change of a win."""
        seats, k, scores, h = key
        q = seats[k]
        T = self._end_total(seats, k, scores)
        delta = 0.0
        for t in range(T - 1, -1, -1):
            for s in self.states:
                go = self._go(seats, k, scores, s, t, T)
                stop = self._stop(seats, k, scores, t, T, self.p.handover(s))
                if go is None or (t >= self.mb and not (go[q] > stop[q] + TIE if t > 0
                                                        else go[q] > stop[q] - TIE)):
                    new = stop if t >= self.mb or go is None else go
                else:
                    new = go
                wk = (seats, k, scores, s, t)
                old = self.W.get(wk, new)
                delta = max(delta, max(abs(a - b) for a, b in zip(new[:-1], old[:-1])))
                self.W[wk] = new
        s = h
        if T == 0:
            go = self._go(seats, k, scores, s, 0, 0) if self.forced else None
            new = go if go is not None else self._stop(seats, k, scores, 0, 0,
                                                       self.p.handover(s))
        else:
            go = self._go(seats, k, scores, s, 0, T) if self.forced else None
            new = go if go is not None else self.W[(seats, k, scores, s, 0)]
        old = self.V.get(key, new)
        delta = max(delta, max(abs(a - b) for a, b in zip(new[:-1], old[:-1])))
        self.V[key] = new
        return delta

    def solve(self, tol=1e-14, max_iter=100_000, length_iter=3_000):
        """Every turn start reached from every round start with all scores
        below the goal, swept until a sweep moves no win by ``tol``, then
        on until the lengths move (relatively) by less than ``tol`` too, for
        at most ``length_iter`` more sweeps: ``length_ok`` says whether
        they did (where play can pass for ever they grow without end)."""
        seats = tuple(range(self.N))
        self.todo = []
        for scores in product(range(self.lo, self.G), repeat=self.N):
            for h in self.states:
                self._v((seats, 0, scores, h))
        while self.todo:
            self._sweep_turn(self.todo.pop())  # reaches the keys it reads
        # larger scores first, later movers first: most reads go there
        keys = sorted(self.V, key=lambda k: (-sum(k[2]), len(k[0]), -k[1]))
        settled = None
        for it in range(max_iter):
            delta, ldelta = 0.0, 0.0
            for key in keys:
                before = self.V[key]
                delta = max(delta, self._sweep_turn(key))
                after = self.V[key]
                ldelta = max(ldelta, abs(after[-1] - before[-1]) / max(1.0, abs(after[-1])))
            if delta < tol:
                settled = it if settled is None else settled
                self.length_ok = ldelta < tol
                if self.length_ok or it - settled >= length_iter:
                    return self
        raise RuntimeError(f"reference did not converge in {max_iter} sweeps")

    def start(self, scores, h):
        """Every seat's win and the expected actions at a round's start."""
        return self.V[(tuple(range(self.N)), 0, tuple(scores), h)]

    # -- a fixed policy at one seat ------------------------------------------

    def _cont_value(self, seats, k, scores, outs, t, T, V, W, pick):
        """One continuation's vector at total ``t`` over the values ``V``
        (turn starts) and ``W`` (in-turn positions); ``pick(options)``
        the option taken at a choice."""
        acc = [0.0] * (self.N + 1)
        acc[-1] = 1.0
        for o in outs:
            p = o[0]
            if o[1] == "bust":
                v = self._after(seats, k, scores, o[3](scores[k]), o[2], V)
            elif o[1] == "end":
                x = scores[k] + min(t + o[2], T)
                if k < len(seats) - 1:
                    x = min(x, self.C)
                v = self._after(seats, k, scores, x, o[3], V)
            else:
                g, s2 = pick(o[2])
                v = self._w((seats, k, scores, s2, t + g), T, V, W)
            for r in range(self.N + 1):
                acc[r] += p * v[r]
        return tuple(acc)

    def _decide(self, key, s, t, T, seat, threshold):
        """``(continuation, pick, stop)`` at ``(s, t)`` of the turn ``key``:
        the policy's at ``seat`` (hold at ``threshold(own, highest other)``,
        the first continuation, the option of the largest gain, the first
        of the largest), else optimal play's from the solved values (as
        :meth:`_sweep_turn` decides)."""
        seats, k, scores, _ = key
        q = seats[k]
        rolls = self.rolls[s]
        if q == seat:
            other = max((v for i, v in enumerate(scores) if i != k), default=self.lo - 1)
            stop = not rolls or (t >= self.mb and t >= threshold(scores[k], other))
            largest = lambda opts: max(opts, key=lambda gs: gs[0])  # noqa: E731  (the first)
            return (rolls[0] if rolls else None), largest, stop

        def best_option(opts):
            b, bn = None, None
            for g, s2 in opts:
                n = self._w((seats, k, scores, s2, t + g), T, self.V, self.W)
                if b is None or n[q] > bn[q] + TIE:
                    b, bn = (g, s2), n
            return b
        best, bv = None, None
        for outs in rolls:
            v = self._cont_value(seats, k, scores, outs, t, T, self.V, self.W, best_option)
            if bv is None or v[q] > bv[q] + TIE:
                best, bv = outs, v
        stop_v = self._stop(seats, k, scores, t, T, self.p.handover(s), self.V)
        stop = best is None or (t >= self.mb and not (bv[q] > stop_v[q] + TIE if t > 0
                                                      else bv[q] > stop_v[q] - TIE))
        return best, best_option, stop

    def evaluate(self, seat, threshold, tol=1e-14, max_iter=100_000):
        """Every turn start's vector (each seat's win, the expected
        actions) with ``seat`` holding at ``threshold(own score, highest
        other score)`` (once its turn total reaches it where a stop is
        allowed; its turn ends where any seat's does: at the cap, or where
        a stop wins the round for the last seat) and every other seat
        playing the solved optimum (:meth:`solve` first), iterated from the
        solved values. Returns a function of ``(scores, h)`` at a round's
        start."""
        Z, ZW = dict(self.V), dict(self.W)
        keys = sorted(self.V, key=lambda k: (-sum(k[2]), len(k[0]), -k[1]))
        for _ in range(max_iter):
            delta = 0.0
            for key in keys:
                seats, k, scores, h = key
                T = self._end_total(seats, k, scores)
                for t in range(T - 1, -1, -1):
                    for s in self.states:
                        c, pick, stop = self._decide(key, s, t, T, seat, threshold)
                        if stop and (t >= self.mb or c is None):
                            new = self._stop(seats, k, scores, t, T, self.p.handover(s), Z)
                        else:
                            new = self._cont_value(seats, k, scores, c, t, T, Z, ZW, pick)
                        ZW[(seats, k, scores, s, t)] = new
                c = None
                if self.forced:  # the first roll whatever the decision
                    c, pick, _ = self._decide(key, h, 0, T, seat, threshold)
                if c is not None:
                    new = self._cont_value(seats, k, scores, c, 0, T, Z, ZW, pick)
                elif T == 0:
                    new = self._stop(seats, k, scores, 0, 0, self.p.handover(h), Z)
                else:
                    new = ZW[(seats, k, scores, h, 0)]
                delta = max(delta, max(abs(a - b) for a, b in zip(new[:-1], Z[key][:-1])))
                Z[key] = new
            if delta < tol:
                return lambda scores, h: Z[(tuple(range(self.N)), 0, tuple(scores), h)]
        raise RuntimeError(f"reference evaluation did not converge in {max_iter} sweeps")
