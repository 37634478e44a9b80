"""A slow reference for the rounds ending with two to four seats, written
from the rules over full game states, for tiny games only.

A game state at a decision is ``(members, idx, vals, tie, s, t, first)``:
the seats playing the current round (every seat, or the tied leaders of a
tie round) in seat order, the index of the mover among them, each member's
score (in a tie round: the points it made in this round), whether the
round is a tie round (False, else True; with ``levels`` the tied score
instead of True, the level, which a table policy reads: the tied leaders'
score, or a tie round's level plus its best gain, held at the cap), the
turn state ``s``, the turn total ``t`` and whether the turn is at its very
first action. Values are vectors (one win
probability per seat), found by value iteration with max-n decisions.

The rules, as the engine's docs give them:

* a turn ends by a stop (banking ``t``; at ``t = 0`` a pass), a bust (the
  total is lost), or an end outcome (banking ``t + points``); the next
  turn starts from the hand-over state;
* a mover that is not the last of its round has its score capped at
  ``cap`` (in a tie round its gain at ``cap - goal``): reaching it ends the
  turn; the last of a round stops as soon as it wins by stopping (its
  score at or above the goal and above every other member's, in a tie
  round its gain above every other's); a turn must reach ``min_bank``
  before either;
* at a round's end: a main round whose highest score is below the goal
  starts again; otherwise the members at the highest value win (one), play
  a tie round among themselves (``replay``), or the earliest of them wins
  (``earlier-seat``);
* ties between actions: a stop wins unless a continuation beats it by
  more than ``TIE``, except at ``t = 0`` where a continuation wins unless
  the stop beats it by more; the first continuation or option wins ties.

The game length (:meth:`Reference.length`) counts actions under the
decisions of the solved values: a continuation counts its throws, a stop
counts one, and so does a roll that reaches the turn's end total (the
mover's score at the cap, or the last seat winning by stopping): the turn
ends there with a stop. A bust or an end outcome ends the turn without
one; a decided game has nothing left.
"""

import numpy as np

from designer._jit import TIE

BUST, CHOOSE, END = 0, 1, 2


class Reference:
    """Value iteration over every reachable state of ``model`` with
    ``players`` seats to ``goal``, under the rounds ending."""

    def __init__(self, model, goal, players, *, ties="replay", cap=None, levels=False):
        self.m = model
        self.G = goal
        self.N = players
        self.C = goal + 4 if cap is None else cap
        self.replay = ties == "replay"
        self.levels = levels
        self.nodes = {}
        self.order = []
        self._choices = None

    # -- the rules ---------------------------------------------------------

    def _tend(self, key):
        """Total at which the turn ends at once."""
        members, idx, vals, tie, s, t, first = key
        mb = self.m.min_bank
        mine = vals[idx]
        if idx < len(members) - 1:
            top = (self.C - self.G) - mine if tie else self.C - mine
        else:
            others = max((v for i, v in enumerate(vals) if i != idx), default=-1)
            if tie:
                top = others + 1 - mine
            else:
                top = max(self.G, others + 1) - mine
        return max(top, mb)

    def end_turn(self, members, idx, vals, tie, bank, h):
        """The game after the mover banks ``bank``: a terminal vector or a
        turn-start key."""
        vals = list(vals)
        last = idx == len(members) - 1
        v = vals[idx] + bank
        if not last:
            v = min(v, self.C - self.G) if tie else min(v, self.C)
        vals[idx] = v
        if not last:
            return (tuple(members), idx + 1, tuple(vals), tie, h, 0, True)
        best = max(vals)
        if not tie and best < self.G:
            return (tuple(members), 0, tuple(vals), False, h, 0, True)
        leaders = [members[i] for i, x in enumerate(vals) if x == best]
        if len(leaders) == 1 or not self.replay:
            out = np.zeros(self.N)
            out[leaders[0]] = 1.0
            return out
        return (tuple(leaders), 0, (0,) * len(leaders), self._level(tie, best), h, 0, True)

    def _level(self, tie, best):
        """A new tie round's ``tie`` entry: True, or with ``levels`` the
        leaders' common score (a tie round's level plus its best gain),
        held at the cap."""
        if not self.levels:
            return True
        return min((0 if tie is False else tie) + best, self.C)

    def scores(self, key):
        """What a table policy reads at ``key``: the mover's score and the
        highest other at the start of its turn; in a tie round (with
        ``levels``) the level plus the points of the round, held at the
        cap."""
        members, idx, vals, tie, s, t, first = key
        if tie is True:
            raise ValueError("a replayed round's level is read with levels=True")
        base = 0 if tie is False else tie
        own = base + vals[idx]
        other = base + max(v for i, v in enumerate(vals) if i != idx)
        return min(own, self.C), min(other, self.C)

    def alternatives(self, key):
        """``(stop, continuations)``: the stop's successor (or None) and, per
        continuation, its outcomes ``(p, [successor per option], [stops per
        option])`` (1 where taking the option ends the turn with a stop)."""
        m = self.m
        members, idx, vals, tie, s, t, first = key
        T = self._tend(key)
        hs = int(m.handover[s])
        can = t >= m.min_bank and not (first and m.forced_first)
        stop = self.end_turn(members, idx, vals, tie, t, self._h(hs)) if can else None
        conts = []
        for c in range(m.cont_start[s], m.cont_start[s + 1]):
            outs = []
            for o in range(m.out_start[c], m.out_start[c + 1]):
                p = float(m.out_prob[o])
                if p <= 0.0:
                    continue
                kind = m.out_kind[o]
                if kind == BUST:
                    succ = [self.end_turn(members, idx, vals, tie, 0,
                                          self._h(int(m.out_next[o])))]
                    stops = [0]
                elif kind == END:
                    u = min(t + int(m.out_points[o]), T)
                    succ = [self.end_turn(members, idx, vals, tie, u,
                                          self._h(int(m.out_next[o])))]
                    stops = [0]
                else:
                    succ, stops = [], []
                    for r in range(m.opt_start[o], m.opt_start[o + 1]):
                        u = t + int(m.opt_gain[r])
                        s2 = int(m.opt_next[r])
                        if u >= T:
                            succ.append(self.end_turn(members, idx, vals, tie, T,
                                                      self._h(int(m.handover[s2]))))
                            stops.append(1)
                        else:
                            succ.append((members, idx, vals, tie, s2, u, False))
                            stops.append(0)
                outs.append((p, succ, stops))
            conts.append(outs)
        return stop, conts

    @staticmethod
    def _h(state):
        return state

    # -- the solve ---------------------------------------------------------

    def _build(self, root):
        stack = [root]
        while stack:
            key = stack.pop()
            if key in self.nodes:
                continue
            stop, conts = self.alternatives(key)
            self.nodes[key] = (stop, conts)
            self.order.append(key)
            succ = [stop] + [x for outs in conts for _, xs, _ in outs for x in xs]
            for x in succ:
                if isinstance(x, tuple) and x not in self.nodes:
                    stack.append(x)

    def solve(self, start, state=0, tol=1e-15, max_iter=100_000):
        """Every seat's win probability at a round's start, seat 1 to move
        from ``state``, the seats at ``start``."""
        root = self._root(start, state)
        self._build(root)
        V = self.V = {k: np.full(self.N, 1.0 / self.N) for k in self.order}
        self._choices = None  # the solved decisions, read once they are asked for
        order = self._sweep_order()
        for _ in range(max_iter):
            change = 0.0
            for key in order:
                new = self._decide(key)[0]
                change = max(change, float(np.abs(new - V[key]).max()))
                V[key] = new
            if change <= tol:
                break
        return V[root].copy()

    def _sweep_order(self):
        """States in the order a pass sweeps them: the largest sum of the
        members' scores first (a stop reads a larger sum), then the later
        mover of the round (a bust hands the turn on at the same scores),
        then the largest total (a move reads a larger total); values then
        mostly settle in one pass. The order only speeds the iteration: it
        ends when a whole pass changes nothing."""
        return sorted(self.order, key=lambda k: (-sum(k[2]), -k[1], -k[5]))

    def _root(self, start, state):
        return (tuple(range(self.N)), 0, tuple(start), False, state, 0, True)

    def _val(self, x):
        return x if not isinstance(x, tuple) else self.V[x]

    def choices(self):
        """Every state's solved decision (:meth:`_decide`'s choice), computed
        once after :meth:`solve`."""
        if self._choices is None:
            self._choices = {k: self._decide(k)[1] for k in self.order}
        return self._choices

    def _decide(self, key):
        """``(value, choice)`` at ``key`` from the current values: choice
        None for a stop, else ``(continuation, [option per outcome])``."""
        stop, conts = self.nodes[key]
        mover = key[0][key[1]]
        t = key[5]
        best, bn, pick = None, 0.0, None
        for c, outs in enumerate(conts):
            acc = np.zeros(self.N)
            opts = []
            for p, succ, _ in outs:
                bo, bv, bi = None, 0.0, 0
                for i, x in enumerate(succ):
                    v = self._val(x)
                    if bo is None or v[mover] > bv + TIE:
                        bo, bv, bi = v, v[mover], i
                acc += p * bo
                opts.append(bi)
            if best is None or acc[mover] > bn + TIE:
                best, bn, pick = acc, acc[mover], (c, opts)
        if stop is not None:
            sv = self._val(stop)
            go = best is not None and (bn > sv[mover] + TIE if t > 0 else bn > sv[mover] - TIE)
            return (best, pick) if go else (sv, None)
        return best, pick

    def _follow(self, choice, init, stop_value, step, change, tol, max_iter):
        """Values under fixed decisions (``choice[key]`` as :meth:`_decide`
        gives it), iterated over every state from ``init``: a stop's value
        is ``stop_value(value of the stop's successor)``, a continuation's
        ``step(key, continuation, value of)`` (``value of`` a successor: its
        value, or the terminal itself); until ``change(new, old)`` is at most
        ``tol`` everywhere."""
        V = {k: init for k in self.order}

        def val(x):
            return V[x] if isinstance(x, tuple) else x

        order = self._sweep_order()
        for _ in range(max_iter):
            worst = 0.0
            for key in order:
                stop, conts = self.nodes[key]
                ch = choice[key]
                new = stop_value(val(stop)) if ch is None else step(key, ch, conts, val)
                worst = max(worst, change(new, V[key]))
                V[key] = new
            if worst <= tol:
                break
        return V

    def length(self, start, state=0, tol=1e-13, max_iter=100_000):
        """Expected actions left at a round's start (after :meth:`solve`
        from the same start), under the solved decisions."""
        choice = self.choices()

        def ln(v):  # a decided game has nothing left
            return v if not isinstance(v, np.ndarray) else 0.0

        def step(key, ch, conts, val):
            c, opts = ch
            new = float(self.m.cont_throws[self.m.cont_start[key[4]] + c])
            for (p, succ, stops), i in zip(conts[c], opts):
                new += p * (stops[i] + ln(val(succ[i])))
            return new

        L = self._follow(choice, 0.0, lambda v: 1.0 + ln(v), step,
                         lambda a, b: abs(a - b) / max(1.0, abs(a)), tol, max_iter)
        return L[self._root(start, state)]

    # -- a fixed policy at one seat ----------------------------------------

    def evaluate(self, start, seat, policy, state=0, tol=1e-15, max_iter=100_000):
        """Every seat's win at a round's start (after :meth:`solve` from the
        same start) when ``seat`` plays ``policy`` (a function of the
        reference and a key, giving a choice as :meth:`_decide` does) and
        every other seat keeps the solved decisions."""
        solved = self.choices()
        choice = {k: policy(self, k) if k[0][k[1]] == seat else solved[k] for k in self.order}

        def step(key, ch, conts, val):
            c, opts = ch
            return sum(p * val(succ[i]) for (p, succ, _), i in zip(conts[c], opts))

        Z = self._follow(choice, np.full(self.N, 1.0 / self.N), lambda v: v, step,
                         lambda a, b: float(np.abs(a - b).max()), tol, max_iter)
        return Z[self._root(start, state)].copy()


def _options_of(m, s, c):
    """Per outcome of continuation ``c`` of state ``s`` with a positive
    chance, its options' ``(gain, next state)`` (empty: not a choice)."""
    c0 = m.cont_start[s] + c
    outs = []
    for o in range(m.out_start[c0], m.out_start[c0 + 1]):
        if m.out_prob[o] <= 0.0:
            continue
        if m.out_kind[o] == CHOOSE:
            outs.append([(int(m.opt_gain[r]), int(m.opt_next[r]))
                         for r in range(m.opt_start[o], m.opt_start[o + 1])])
        else:
            outs.append([])
    return outs


def hold_at(n):
    """``hold-at:n`` as the rules state it: stop once the turn total is at
    least ``n`` where a stop is allowed (or where there is no way to go
    on), else go on with the first way, keeping at each choice the option
    of the largest gain (the first of them)."""
    def policy(ref, key):
        stop, conts = ref.nodes[key]
        if stop is not None and (key[5] >= n or not conts):
            return None
        outs = _options_of(ref.m, key[4], 0)
        return 0, [max(range(len(o)), key=lambda i: (o[i][0], -i)) if o else 0 for o in outs]
    return policy


def max_score(model, top=400):
    """``max-score`` from the rules: the largest expected points banked in
    this turn alone, by backward induction over the totals below ``top``
    (where stopping is taken as best); a bust banks 0, an end the total
    plus its points, a stop the total. Ties: a stop unless going on is
    better by more than ``TIE`` times the total (at a total of 0, going on
    unless the stop is better by more than ``TIE``); the first way or
    option of the best."""
    m = model
    E = {}

    def e(s, t):
        """``(value, best way to go on, stop)`` at state ``s``, total ``t``."""
        if t >= top:
            return float(t), None, True
        if (s, t) in E:
            return E[s, t]
        best, pick = None, None
        for c in range(m.cont_start[s + 1] - m.cont_start[s]):
            c0 = m.cont_start[s] + c
            v, opts = 0.0, []
            for o in range(m.out_start[c0], m.out_start[c0 + 1]):
                p = float(m.out_prob[o])
                if m.out_kind[o] == END:
                    v += p * (t + int(m.out_points[o]))
                elif m.out_kind[o] == CHOOSE:
                    vals = [e(int(m.opt_next[r]), t + int(m.opt_gain[r]))[0]
                            for r in range(m.opt_start[o], m.opt_start[o + 1])]
                    k = int(np.argmax(vals))
                    v += p * vals[k]
                    if p > 0.0:
                        opts.append(k)
                    continue
                if p > 0.0:
                    opts.append(0)
            if best is None or v > best:
                best, pick = v, (c, opts)
        can = t >= m.min_bank and not (t == 0 and m.forced_first)
        stop = pick is None
        if pick is not None and can:
            thr = -TIE if t == 0 else TIE * max(1.0, float(t))
            stop = not best - t > thr
        E[s, t] = (float(t) if stop else best), pick, stop
        return E[s, t]

    def policy(ref, key):
        stop, conts = ref.nodes[key]
        _, pick, stops = e(key[4], key[5])
        if (stops and stop is not None) or pick is None:
            return None
        return pick
    return policy
