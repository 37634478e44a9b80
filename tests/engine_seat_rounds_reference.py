"""A slow reference for the rounds ending with two to four seats, written
from the rules over full game states, for tiny games only.

A game state at a decision is ``(members, idx, vals, tie, s, t, first)``:
the seats playing the current round (every seat, or the tied leaders of a
tie round) in seat order, the index of the mover among them, each member's
score (in a tie round: the points it made in this round), whether the
round is a tie round, the turn state ``s``, the turn total ``t`` and
whether the turn is at its very first action. Values are vectors (one win
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
"""

import numpy as np

from designer._jit import TIE

BUST, CHOOSE, END = 0, 1, 2


class Reference:
    """Value iteration over every reachable state of ``model`` with
    ``players`` seats to ``goal``, under the rounds ending."""

    def __init__(self, model, goal, players, *, ties="replay", cap=None):
        self.m = model
        self.G = goal
        self.N = players
        self.C = goal + 4 if cap is None else cap
        self.replay = ties == "replay"
        self.nodes = {}
        self.order = []

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
        return (tuple(leaders), 0, (0,) * len(leaders), True, h, 0, True)

    def alternatives(self, key):
        """``(stop, continuations)``: the stop's successor (or None) and, per
        continuation, its outcomes ``(p, [successor per option])``."""
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
                elif kind == END:
                    u = min(t + int(m.out_points[o]), T)
                    succ = [self.end_turn(members, idx, vals, tie, u,
                                          self._h(int(m.out_next[o])))]
                else:
                    succ = []
                    for r in range(m.opt_start[o], m.opt_start[o + 1]):
                        u = t + int(m.opt_gain[r])
                        s2 = int(m.opt_next[r])
                        if u >= T:
                            succ.append(self.end_turn(members, idx, vals, tie, T,
                                                      self._h(int(m.handover[s2]))))
                        else:
                            succ.append((members, idx, vals, tie, s2, u, False))
                outs.append((p, succ))
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
            succ = [stop] + [x for outs in conts for _, xs in outs for x in xs]
            for x in succ:
                if isinstance(x, tuple) and x not in self.nodes:
                    stack.append(x)

    def solve(self, start, state=0, tol=1e-15, max_iter=100_000):
        """Every seat's win probability at a round's start, seat 1 to move
        from ``state``, the seats at ``start``."""
        root = (tuple(range(self.N)), 0, tuple(start), False, state, 0, True)
        self._build(root)
        V = {k: np.full(self.N, 1.0 / self.N) for k in self.order}

        def val(x):
            return x if not isinstance(x, tuple) else V[x]

        # sweep the largest totals first: most values then settle in one pass
        order = sorted(self.order, key=lambda k: -k[5])
        for _ in range(max_iter):
            change = 0.0
            for key in order:
                stop, conts = self.nodes[key]
                mover = key[0][key[1]]
                t = key[5]
                best, bn = None, 0.0
                for outs in conts:
                    acc = np.zeros(self.N)
                    for p, succ in outs:
                        bo, bv = None, 0.0
                        for x in succ:
                            v = val(x)
                            if bo is None or v[mover] > bv + TIE:
                                bo, bv = v, v[mover]
                        acc += p * bo
                    if best is None or acc[mover] > bn + TIE:
                        best, bn = acc, acc[mover]
                if stop is not None:
                    sv = val(stop)
                    go = best is not None and (bn > sv[mover] + TIE if t > 0
                                               else bn > sv[mover] - TIE)
                    new = best if go else sv
                else:
                    new = best
                change = max(change, float(np.abs(new - V[key]).max()))
                V[key] = new
            if change <= tol:
                break
        return V[root].copy()
