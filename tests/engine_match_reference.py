"""A slow, obviously correct reference for matches between fixed policies.

Plain Gauss-Seidel iteration over every position ``(p, i, j, s, t)`` of a
two-seat race (``p``: the policy of the mover, 0 = A, 1 = B), held in
dictionaries, straight from the rules of a turn (the processes of
:mod:`tests.engine_reference`): the mover stops (banks ``t``; at ``t = 0`` a
pass) when ``t >= min_bank`` and this is not the forced first roll of the
turn, or takes a continuation whose outcomes bust, end the turn with points
or offer options ``(g, s')``; a mover whose turn total reaches the goal
where stopping is allowed banks it and wins. Each policy decides:

* ``hold-at:N``: stop once ``t >= N`` (where allowed; at ``t = 0`` go on);
  the first continuation; at a choice the largest gain, the first listed
  on a tie;
* ``max-score``: the most points banked on average this turn, whatever
  the scores: ``E(s, t) = max(t, best continuation)``, a bust banking 0,
  an end ``t + points``, computed over totals up to a large cap (``E = t``
  beyond);
* a decision function ``f(i, j, s, t)`` of the reference's own state:
  ``0`` stops (where allowed), ``c >= 1`` takes the ``c``-th
  continuation; where it may not stop, a ``0`` takes the first; at a
  choice the largest gain, the first listed on a tie;
* ``optimal``: the argmax of the rules' equations over the values of
  :func:`tests.engine_reference.reference_win`.

Ties, as the engine states them: stopping wins a tie (continuing must gain
more than ``TIE``; for ``max-score``, more than ``TIE`` times the turn total,
its values being points) except at ``t = 0``, where continuing wins; the
first continuation or option listed wins a tie among them.

Expected actions: each throw or draw and each stop (the winning stop
included) is one action.
"""

from designer._jit import TIE
from engine_reference import _states, reference_win


class HoldAt:
    def __init__(self, n):
        self.n = n

    def setup(self, proc, goal, states, rolls, **rules):
        self.rolls = rolls

    def cont(self, i, j, s, t):
        return 0 if self.rolls[s] else None

    def stops(self, i, j, s, t, allowed):
        return allowed and (t >= self.n or not self.rolls[s])

    def option(self, i, j, opts, t, tcap):
        best = 0
        for k, (g, _) in enumerate(opts):
            if g > opts[best][0]:
                best = k
        return best


class Decide:
    def __init__(self, f):
        self.f = f

    def setup(self, proc, goal, states, rolls, **rules):
        self.rolls = rolls

    def cont(self, i, j, s, t):
        if not self.rolls[s]:
            return None
        v = self.f(i, j, s, t)
        return v - 1 if v > 0 else 0

    def stops(self, i, j, s, t, allowed):
        return not self.rolls[s] or (allowed and self.f(i, j, s, t) == 0)

    option = HoldAt.option


class MaxScore:
    def __init__(self, cap=400):
        self.cap = cap

    def setup(self, proc, goal, states, rolls, min_bank=0, forced_first=False, **rules):
        self.rolls = rolls
        self.min_bank = min_bank
        E = {(s, t): float(t) for s in states for t in range(self.cap)}
        while True:
            change = 0.0
            for t in range(self.cap - 1, -1, -1):
                for s in states:
                    best, _ = self._best(s, t, E)
                    allowed = t >= min_bank
                    if best is None or (allowed and not best - t > self._thr(t)):
                        new = float(t)
                    else:
                        new = best
                    change = max(change, abs(new - E[(s, t)]))
                    E[(s, t)] = new
            if change == 0.0:
                break
        self.E = E

    @staticmethod
    def _thr(t):
        return -TIE if t == 0 else TIE * max(1.0, float(t))

    def e(self, s, t, E=None):
        E = self.E if E is None else E
        return E[(s, t)] if t < self.cap else float(t)

    def _best(self, s, t, E):
        best, bc = None, None
        for c, outs in enumerate(self.rolls[s]):
            v = 0.0
            for o in outs:
                if o[1] == "end":
                    v += o[0] * (t + o[2])
                elif o[1] == "choose":
                    v += o[0] * max(self.e(s2, t + g, E) for g, s2 in o[2])
            if best is None or v > best:
                best, bc = v, c
        return best, bc

    def cont(self, i, j, s, t):
        return self._best(s, t, self.E)[1]

    def stops(self, i, j, s, t, allowed):
        best, _ = self._best(s, t, self.E)
        return best is None or (allowed and not best - t > self._thr(t))

    def option(self, i, j, opts, t, tcap):
        vals = [self.e(s2, t + g) for g, s2 in opts]
        return vals.index(max(vals))


class Optimal:
    def setup(self, proc, goal, states, rolls, min_bank=0, forced_first=False, floor=0):
        _, self.V, self.W = reference_win(proc, goal, 0, forced_first=forced_first,
                                          min_bank=min_bank, floor=floor)
        self.proc, self.goal, self.rolls, self.min_bank = proc, goal, rolls, min_bank

    def w(self, i, j, s, t):
        if t >= max(self.goal - i, self.min_bank):
            return 1.0
        return self.W[(i, j, s, t)]

    def _best(self, i, j, s, t):
        best, bc = None, None
        for c, outs in enumerate(self.rolls[s]):
            v = 0.0
            for o in outs:
                p, kind = o[0], o[1]
                if kind == "bust":
                    v += p * (1.0 - self.V[(j, o[3](i), o[2])])
                elif kind == "end":
                    tot = t + o[2]
                    v += p * (1.0 if i + tot >= self.goal else 1.0 - self.V[(j, i + tot, o[3])])
                else:
                    v += p * max(self.w(i, j, s2, t + g) for g, s2 in o[2])
            if best is None or v > best:
                best, bc = v, c
        return best, bc

    def cont(self, i, j, s, t):
        return self._best(i, j, s, t)[1]

    def stops(self, i, j, s, t, allowed):
        best, _ = self._best(i, j, s, t)
        if best is None:
            return True
        if not allowed:
            return False
        stop = 1.0 - self.V[(j, i + t, self.proc.handover(s))]
        return not best - stop > (-TIE if t == 0 else TIE)

    def option(self, i, j, opts, t, tcap):
        vals = [self.w(i, j, s2, t + g) for g, s2 in opts]
        return vals.index(max(vals))


def reference_match(proc, goal, a, b, start=(0, 0), *, forced_first=False, min_bank=0, floor=0,
                    tol=1e-15, max_iter=200_000):
    """Policy ``a`` against ``b`` (objects above) in the race to ``goal``.

    Returns
    -------
    dict
        ``win_as_first`` (A in seat 1, the seats starting with ``start``),
        ``win_as_second``, ``actions_as_first``, ``actions_as_second``.
    """
    states = _states(proc)
    rolls = {s: proc.rolls(s) for s in states}
    rules = dict(min_bank=min_bank, forced_first=forced_first, floor=floor)
    pols = (a, b)
    for pol in pols:
        pol.setup(proc, goal, states, rolls, **rules)
    scores = range(floor, goal)
    X = {(p, i, j, h): 0.5 for p in (0, 1) for i in scores for j in scores for h in states}
    A = {k: 0.0 for k in X}
    Y, AY = {}, {}
    keys = [(p, i, j, s, t) for p in (0, 1) for i in scores for j in scores for s in states
            for t in range(max(goal - i, min_bank))]
    for k in keys:
        Y[k], AY[k] = 0.5, 0.0
    keys.sort(key=lambda k: (-(k[1] + k[2]), -k[4]))

    def y(p, i, j, s, t):
        if t >= max(goal - i, min_bank):  # stopping there wins: one more action
            return 1.0, 1.0
        return Y[(p, i, j, s, t)], AY[(p, i, j, s, t)]

    def cont_value(p, i, j, s, t, c):
        v, act = 0.0, 1.0
        for o in rolls[s][c]:
            pr, kind = o[0], o[1]
            if kind == "bust":
                i2 = o[3](i)
                if i2 < i:
                    fell[0] = True
                k = (1 - p, j, i2, o[2])
                v += pr * (1.0 - X[k])
                act += pr * A[k]
            elif kind == "end":
                tot = t + o[2]
                if i + tot >= goal:
                    v += pr
                else:
                    k = (1 - p, j, i + tot, o[3])
                    v += pr * (1.0 - X[k])
                    act += pr * A[k]
            else:
                opts = o[2]
                g, s2 = opts[pols[p].option(i, j, opts, t, max(goal - i, min_bank))]
                wv, wa = y(p, i, j, s2, t + g)
                v += pr * wv
                act += pr * wa
        return v, act

    def stop_value(p, i, j, s, t):
        k = (1 - p, j, i + t, proc.handover(s))
        return 1.0 - X[k], 1.0 + A[k]

    def node(p, i, j, s, t, at_start):
        pol = pols[p]
        allowed = t >= min_bank and not (at_start and forced_first)
        if not rolls[s] or (allowed and pol.stops(i, j, s, t, allowed)):
            return stop_value(p, i, j, s, t)
        return cont_value(p, i, j, s, t, pol.cont(i, j, s, t))

    def sweep(ykeys, xkeys):
        """The in-turn values (largest totals first), then the turn starts;
        the largest changes of wins and (relative) actions."""
        dw = da = 0.0
        for key in ykeys:
            p, i, j, s, t = key
            v, act = node(p, i, j, s, t, False)
            dw = max(dw, abs(v - Y[key]))
            da = max(da, abs(act - AY[key]) / max(1.0, act))
            Y[key], AY[key] = v, act
        for key in xkeys:
            p, i, j, h = key
            if forced_first and rolls[h]:  # (nothing to draw: never a turn start)
                v, act = cont_value(p, i, j, h, 0, pols[p].cont(i, j, h, 0))
            else:
                v, act = node(p, i, j, h, 0, True)
            dw = max(dw, abs(v - X[key]))
            da = max(da, abs(act - A[key]) / max(1.0, act))
            X[key], A[key] = v, act
        return dw, da

    # A pass takes the scores from the largest sum down (a stop reads a
    # larger sum), the pairs (i, j) and (j, i) together, swept until they
    # agree (a bust, or a stop at a total of 0, reads the other); it ends
    # once a whole pass changes nothing by tol. Where a bust has lowered a
    # score (it reads a smaller sum, which only the next pass brings), a
    # block is swept once a pass.
    fell = [False]
    blocks = {}
    for key in keys:
        blocks.setdefault(frozenset({key[1:3], key[2:0:-1]}), ([], []))[0].append(key)
    for key in X:
        blocks.setdefault(frozenset({key[1:3], key[2:0:-1]}), ([], []))[1].append(key)
    order = sorted(blocks, key=lambda b: -sum(next(iter(b))))
    for _ in range(max_iter):
        dw = da = 0.0
        for b in order:
            for _ in range(1 if fell[0] else max_iter):
                bw, ba = sweep(*blocks[b])
                dw, da = max(dw, bw), max(da, ba)
                if bw < tol and ba < tol:
                    break
        if dw < tol and da < tol:
            s1, s2 = start
            k0, k1 = (0, s1, s2, proc.start), (1, s1, s2, proc.start)
            return {"win_as_first": X[k0], "win_as_second": 1.0 - X[k1],
                    "actions_as_first": A[k0], "actions_as_second": A[k1]}
    raise RuntimeError(f"reference did not converge in {max_iter} sweeps")
