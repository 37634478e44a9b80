"""Rules induced from the optimal policy: a shallow tree with threshold leaves.

The optimal policy is a table of millions of decisions; a person needs a
short rule. Induction fits a small decision tree to the optimal decisions,
where each state counts by how often optimal play reaches it and by what a
wrong decision there costs, and whose leaves are the grammar's threshold
actions (``maxscore``, ``below a``, ``bold m``, ``boldpace a d``, ...), so the
tree IS a rule of :mod:`designer.policies.rules`.

Loss
----
For a decision state ``x`` (mover to act, ``k >= 1`` for decks) let ``v(x)``
be its expected visits in one game of optimal self-play, both seats
(:mod:`designer.strategy.visits`, exact), ``y(x)`` the optimal decision and
``|D(x) - H(x)|`` the win probability a wrong decision there gives away. The
loss of an action ``a`` on a set of states ``S`` is

.. math::

    L(a, S) = \\sum_{x \\in S} v(x) \\, |D(x) - H(x)| \\, [a(x) \\ne y(x)],

the first-order win-rate cost of playing ``a`` there (twice the average win
rate lost, summed over both seats). It is tabulated once per cell of the
score context, ``L[i, j, w, a]`` (decks: mover score, opponent score, bad
items drawn since the shuffle; dice: ``w = 0``), by one kernel pass over the
visited states.

The tree
--------
Splits are on what a player sees at the start of a turn: ``need``,
``opp_need``, ``diff`` (``j - i``; at 0 and -1 written ``j <= i`` /
``j < i``, one constant fewer), ``max_ij`` and ``w_rem``. A node's leaf
action is the action of least loss on its cells among the actions of a given
size. The search grows decision lists (a tree whose every split keeps one
side as a leaf: ``cond -> action; cond -> action; default``) by beam search
over (condition, side, action on the side, default on the rest), keeping for
each rule size the lists of least loss; every list is then a :class:`Rule`
(its size counts constants and conditions), scored exactly and tuned on the exact win rate by
the search's coordinate descent (:mod:`designer.strategy.search`).
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from numba import prange

from designer._jit import TIE, kernel, parallel_kernel
from designer.policies._rule_kernels import _act
from designer.policies.rules import ACTIONS, Rule
from designer.solve.deck_chain import chain_draw_hold

#: Split features (all constant over a turn start's cell).
SPLITS = ("need", "opp_need", "diff", "max_ij", "sum_ij", "w_rem", "opp_need-w_rem",
          "need-w_rem")
#: Splits that compare two features: ``name -> (left, right)``, the split
#: ``left - right <= t`` written ``left <= right+t`` (``t = 0``: one constant fewer).
PAIRS = {"diff": ("j", "i"), "opp_need-w_rem": ("opp_need", "w_rem"),
         "need-w_rem": ("need", "w_rem")}


@parallel_kernel
def deck_losses(bad, good, goal, win, T, occ, acts, by_stake, beyond, out):
    """``out[i, j, w, a]``: loss of action ``acts[a]`` on the cell (module
    docstring); ``occ[i, j, w, c0]`` are the player's turn-start visits,
    ``T`` the player's compact table. ``by_stake`` False counts plain
    disagreements (weight ``v(x)``). ``beyond`` False stops each chain at
    the player's hold (the loss of the player's own actions is then exact)."""
    n = min(goal, good) + 2
    out[:] = 0.0
    na = acts.shape[0]
    for iu in prange(goal):  # each mover score writes its own rows
        # the index as int64: prange's own index is typed int64 first and
        # uint64 in the threads' copy, and the helpers below would compile
        # for both
        i = np.int64(iu)
        D = np.empty(n)
        H = np.empty(n)
        for j in range(goal):
            for w in range(bad):
                w_rem = bad - w
                for c0 in range(good + 1):
                    reach = occ[i, j, w, c0]
                    if reach == 0.0:
                        continue
                    last = chain_draw_hold(bad, good, goal, win, i, j, w, c0, TIE, D, H)
                    if not beyond:
                        last = min(last, T[i, j, w, c0])
                    t = 0
                    while True:
                        if t >= 1:
                            if t > last:
                                break
                            # beyond the optimal hold (t > lim) the state is
                            # reached only by a rule that drew on: weighted as
                            # if it had (reach if drawing), so that a rule which
                            # draws too far pays for every step
                            y = D[t] > H[t] + TIE
                            c_rem = good - c0 - t
                            cost = reach * abs(D[t] - H[t]) if by_stake else reach
                            for a in range(na):
                                # np.int64: the rule kernels' own signature of _act
                                d = _act(acts[a, 0], acts[a, 1], acts[a, 2], i, j, t, w_rem,
                                         c_rem, np.int64(0), np.int64(0))
                                if d != y:
                                    out[i, j, w, a] += cost
                        c_rem = good - c0 - t
                        if c_rem == 0:
                            break
                        reach *= c_rem / (w_rem + c_rem)
                        t += 1


@kernel
def dice_losses(goal, pips, n_bust, R, P, occ, stake, acts, by_stake, beyond, out):
    """``out[i, j, 0, a]`` for a dice game: ``occ[i, j]`` the player's
    turn-start visits, spread over the turn totals as if the player rolled
    on (``beyond``: a rule that rolls too far pays for every step) or as
    the player's roll table ``P`` plays; ``stake[i, j, k]`` the value at
    stake, ``R`` the optimal roll table."""
    out[:] = 0.0
    f = len(pips) + n_bust
    dist = np.zeros(goal + 1)
    for i in range(goal):
        for j in range(goal):
            if occ[i, j] == 0.0:
                continue
            dist[:] = 0.0
            dist[0] = occ[i, j]
            for k in range(goal - i):
                v = dist[k]
                if v == 0.0:
                    continue
                for q in range(len(pips)):
                    if not (beyond or P[i, j, k]):
                        break
                    if i + k + pips[q] < goal:
                        dist[k + pips[q]] += v / f
                cost = v * stake[i, j, k] if by_stake else v
                y = R[i, j, k]
                for a in range(acts.shape[0]):
                    d = _act(acts[a, 0], acts[a, 1], acts[a, 2], i, j, k, np.int64(-1),
                             np.int64(-1), pips.sum(), n_bust)
                    if d != y:
                        out[i, j, 0, a] += cost


def action_menu(game):
    """The leaf actions tried, as grammar texts, by family."""
    G = game.goal
    if game.family == "deck":
        top = max(2, min(game.good, G - 1, 30))
        menu = ["roll", "hold", "maxscore"]
        menu += [f"below {a}" for a in range(1, top + 1)]
        menu += [f"bold {m}" for m in range(-3, 9)]
        divisors = [*range(1, 13), 14, 16, 18, 20, 24, 30]
        menu += [f"mspace {d}" for d in divisors]
        menu += [f"lead {d}" for d in range(0, 11)]
        menu += [f"boldpace {a} {d}" for a in range(-2, 5) for d in divisors]
        return menu
    if game.family == "dice":
        top = min(G, 60)
        menu = ["roll", "hold", "maxscore"]
        menu += [f"below {a}" for a in range(1, top + 1)]
        menu += [f"lead {d}" for d in range(0, 11)]
        menu += [f"pace {a} {d}" for a in range(max(1, top // 6), top // 2 + 1)
                 for d in range(2, 21)]
        return menu
    raise ValueError(game.family)


def _encode(family, menu):
    out = np.zeros((len(menu), 3), dtype=np.int64)
    sizes = np.zeros(len(menu), dtype=np.int64)
    for n, text in enumerate(menu):
        rule = Rule.parse(family, text)
        a = rule.clauses[0].action
        args = a.args + (0,) * (2 - len(a.args))
        out[n] = (ACTIONS[a.kind][0], args[0], args[1])
        sizes[n] = a.size
    return out, sizes


@dataclass(frozen=True)
class Losses:
    """The loss table of a game: ``L[cell, a]`` over the cells ``(i, j, w)``
    flattened, the actions ``menu`` (texts) and their ``sizes``, and the
    split features of every cell (name -> int array)."""

    game: object
    L: np.ndarray
    menu: tuple
    sizes: np.ndarray
    features: dict

    @property
    def sorted(self):
        """Per split feature: the cell order by value, the start of each run
        of equal values in that order, and the distinct values."""
        if "_sorted" not in self.__dict__:
            out = {}
            for name, x in self.features.items():
                order = np.argsort(x, kind="stable")
                vals, starts = np.unique(x[order], return_index=True)
                out[name] = (order, starts, vals)
            object.__setattr__(self, "_sorted", out)
        return self.__dict__["_sorted"]

    def sorted_L(self, name):
        """The loss rows in the order of feature ``name`` (kept)."""
        cache = self.__dict__.setdefault("_sorted_L", {})
        if name not in cache:
            cache[name] = self.L[self.sorted[name][0]]
        return cache[name]


def losses(game, solution, *, player=None, by_stake=True, beyond=True, menu=None):
    """Tabulate the loss of every menu action on every cell (module docstring).

    Parameters
    ----------
    game : DeckGame or DiceGame
    solution : Solution
        The game's optimal solve.
    player : Policy, optional
        Whose visits weigh the states: the player's states in its matches
        against the optimal player, both seats (default: the optimal player,
        i.e. optimal self-play). With ``beyond=False`` the loss of the
        player's own decisions is EXACTLY twice its average win rate below
        1/2 (the performance difference lemma: against a fixed opponent,
        the optimal player's values are the best response's).
    by_stake : bool
        Weight a disagreement by the value at stake (default) or count it.
    beyond : bool
        Weigh the states past the player's hold as if it had drawn on.
    menu : list of str, optional
        Leaf actions (default :func:`action_menu`).

    Returns
    -------
    Losses
    """
    from designer.policies.builtin import OptimalPolicy
    from designer.solve.api import scoring_pips
    from designer.strategy.visits import dice_stake_table, visits

    G = game.goal
    menu = tuple(menu or action_menu(game))
    acts, sizes = _encode(game.family, menu)
    T = OptimalPolicy(game, solution).table()
    P = T if player is None else player.table()
    first, second = visits(game, P, T), visits(game, T, P)
    occ = first.occ[0] + second.occ[1]  # the player's turn starts, both seats
    if game.family == "deck":
        nw = game.bad
        out = np.zeros((G, G, nw, len(menu)))
        deck_losses(game.bad, game.good, G, solution.win, np.ascontiguousarray(P), occ, acts,
                    by_stake, beyond, out)
    else:
        nw = 1
        out = np.zeros((G, G, 1, len(menu)))
        dice_losses(G, scoring_pips(game), len(game.bust_faces), np.ascontiguousarray(T),
                    np.ascontiguousarray(P), occ, dice_stake_table(game, solution), acts,
                    by_stake, beyond, out)
    i, j, w = np.meshgrid(np.arange(G), np.arange(G), np.arange(nw), indexing="ij")
    i, j, w = i.ravel(), j.ravel(), w.ravel()
    feats = {"need": G - i, "opp_need": G - j, "diff": j - i, "max_ij": np.maximum(i, j),
             "sum_ij": i + j}
    if game.family == "deck":
        feats["w_rem"] = game.bad - w
        feats["opp_need-w_rem"] = feats["opp_need"] - feats["w_rem"]
        feats["need-w_rem"] = feats["need"] - feats["w_rem"]
    return Losses(game, out.reshape(-1, len(menu)), menu, sizes, feats)


# ---- the decision lists -------------------------------------------------------

@dataclass(frozen=True)
class Split:
    """The condition ``feature <= t`` (``le``) or ``feature >= t`` (not ``le``)."""

    feature: str
    le: bool
    t: int

    def negated(self):
        """The complement: ``x <= t`` is ``x >= t + 1``."""
        return Split(self.feature, not self.le, self.t + 1 if self.le else self.t - 1)

    def mask(self, feats):
        x = feats[self.feature]
        return x <= self.t if self.le else x >= self.t

    def text(self):
        """The condition in the grammar. A comparison of two features
        (:data:`PAIRS`) at offset 0 costs one constant fewer: ``j <= i``,
        ``opp_need < w_rem``; ``diff`` at other offsets reads ``diff <= 5``."""
        op = "<=" if self.le else ">="
        if self.feature in PAIRS:
            f, g = PAIRS[self.feature]
            t = self.t
            if (self.le and t == -1) or (not self.le and t == 1):
                return f"{f} {'<' if self.le else '>'} {g}"
            if t == 0:
                return f"{f} {op} {g}"
            if self.feature == "diff":
                return f"diff {op} {t}"
            return f"{f} {op} {g}{t:+d}"
        return f"{self.feature} {op} {self.t}"

    @property
    def size(self):
        """Constants plus conditions: 1 for two features compared
        at offset 0, else 2."""
        if self.feature in PAIRS:
            t = self.t if self.le else -self.t
            if t in (0, -1):
                return 1
        return 2


@dataclass(frozen=True)
class Induced:
    """A decision list found by induction: ``clauses`` = ((Split, action
    text), ...) then the ``default`` action; ``loss`` its loss (module
    docstring) and ``rule`` the same list as a :class:`Rule`."""

    family: str
    clauses: tuple
    default: str
    loss: float

    @cached_property
    def rule(self):
        parts = [f"{s.text()} -> {a}" for s, a in self.clauses] + [self.default]
        return Rule.parse(self.family, "; ".join(parts))

    @property
    def size(self):
        return self.rule.size

    def action_at(self, feats):
        """The action text the list applies at a cell with features ``feats``
        (name -> int): the tree's prediction, for checking the rule."""
        for s, a in self.clauses:
            x = feats[s.feature]
            if (x <= s.t) if s.le else (x >= s.t):
                return a
        return self.default


def _best_by_size(cost, sizes):
    """For each action size 0..2: (least cost, action index) of ``cost[..., a]``."""
    out = []
    for s in range(3):
        idx = np.flatnonzero(sizes == s)
        if idx.size == 0:
            out.append((None, None))
            continue
        sub = cost[..., idx]
        arg = np.argmin(sub, axis=-1)
        out.append((np.take_along_axis(sub, arg[..., None], -1)[..., 0], idx[arg]))
    return out


def _splits(ls, region):
    """Every split of ``region``, by feature: ``(name, thresholds, le, matched
    cost [n, a], rest cost [n, a])`` (``le``: the matched side is ``x <=
    t``, else ``x >= t``)."""
    total = ls.L[region].sum(axis=0)
    for name in SPLITS:
        if name not in ls.features:
            continue
        order, starts, vals = ls.sorted[name]
        if vals.size < 2:
            continue
        S = np.add.reduceat(ls.sorted_L(name) * region[order][:, None], starts, axis=0)
        cum = np.cumsum(S, axis=0)[:-1]  # x <= vals[n]
        yield name, vals[:-1], True, cum, total - cum
        yield name, vals[1:], False, total - cum, cum


def induce(ls, *, max_size=8, max_clauses=3, beam=6):
    """Decision lists of least loss for each size up to ``max_size``.

    Parameters
    ----------
    ls : Losses
    max_size : int
        Largest rule size kept.
    max_clauses : int
        Most conditional clauses (the tree's depth along its spine).
    beam : int
        Lists kept per size at each step (the seeds of the next clause).

    Returns
    -------
    list of Induced
        Least loss first; at most ``beam`` lists of each size.
    """
    fam = ls.game.family
    sizes = ls.sizes
    n = ls.L.shape[0]
    all_cells = np.ones(n, dtype=bool)
    found = {}

    def key_of(ind):
        # "c -> a; b" and "not c -> b; a" are one rule
        key = ind.rule.text()
        if ind.clauses:
            sp, a = ind.clauses[-1]
            flip = Induced(fam, ind.clauses[:-1] + ((sp.negated(), ind.default),), a, 0.0)
            key = min(key, flip.rule.text())
        return key

    def keep(ind):
        lst = found.setdefault(ind.size, [])
        key = key_of(ind)
        if any(key_of(x) == key for x in lst):
            return
        lst.append(ind)
        lst.sort(key=lambda x: x.loss)
        del lst[beam:]

    # no condition: the best single action of each size
    total = ls.L.sum(axis=0)
    for s, (c, a) in enumerate(_best_by_size(total, sizes)):
        if a is not None and s <= max_size:
            keep(Induced(fam, (), ls.menu[a], float(c)))
    # a list = fixed clauses + the rest (region) played by the default
    frontier = [((), all_cells, 0.0, 0)]  # (clauses, region, fixed loss, fixed size)
    for _ in range(max_clauses):
        nxt = []
        for clauses, region, fixed, fsize in frontier:
            for name, ts, le, m_cost, r_cost in _splits(ls, region):
                bm = _best_by_size(m_cost, sizes)
                br = _best_by_size(r_cost, sizes)
                for k, t in enumerate(ts):
                    sp = Split(name, le, int(t))
                    base = fsize + sp.size
                    for sm in range(3):
                        if bm[sm][1] is None:
                            continue
                        for sr in range(3):
                            if br[sr][1] is None or base + sm + sr > max_size:
                                continue
                            if bm[sm][1][k] == br[sr][1][k]:
                                continue  # same action on both sides: no split
                            loss = fixed + bm[sm][0][k] + br[sr][0][k]
                            ind = Induced(fam, clauses + ((sp, ls.menu[bm[sm][1][k]]),),
                                          ls.menu[br[sr][1][k]], float(loss))
                            lst = found.get(base + sm + sr, [])
                            if len(lst) < beam or loss < lst[-1].loss:
                                keep(ind)
                                nxt.append((ind, sp, region, base + sm))
        # seeds of the next clause: the best lists, the rest region refined
        nxt.sort(key=lambda e: e[0].loss)
        frontier = []
        seen = set()
        for ind, sp, region, fsize in nxt:
            key = ind.rule.text()
            if key in seen:
                continue
            seen.add(key)
            matched = sp.mask(ls.features) & region
            fixed = float(ls.L[matched][:, ls.menu.index(ind.clauses[-1][1])].sum())
            prev = sum(float(ls.L[m][:, ls.menu.index(a)].sum())
                       for m, a in _clause_masks(ls, ind.clauses[:-1]))
            frontier.append((ind.clauses, region & ~matched, prev + fixed, fsize))
            if len(frontier) >= beam * 2:
                break
    out = [x for lst in found.values() for x in lst]
    return sorted(out, key=lambda x: x.loss)


def _clause_masks(ls, clauses):
    """The cells each clause of a list decides (earlier clauses first)."""
    rest = np.ones(ls.L.shape[0], dtype=bool)
    out = []
    for sp, a in clauses:
        m = sp.mask(ls.features) & rest
        out.append((m, a))
        rest &= ~m
    return out


def induced_rules(game, solution, *, max_size=8, beam=6, player=None, by_stake=True):
    """The induced lists of ``game`` as rules (least loss first), each with
    its loss: ``[(Rule, loss), ...]``; ``player`` as in :func:`losses`."""
    ls = losses(game, solution, player=player, by_stake=by_stake)
    return [(x.rule, x.loss) for x in induce(ls, max_size=max_size, beam=beam)]
