"""The turn model: any push-your-luck turn as a few flat arrays.

A game is two seats racing to a goal (the first whose banked score reaches
it wins at once) and a *turn process*, which this module holds as arrays
so that one solver serves every game and never knows which game it solves.

Turn states and turn totals
---------------------------
A turn is at a *turn state* ``s`` in ``0 .. S-1`` (what the dice or cards on
the table tell) with a *turn total* ``t >= 0``, the points at stake. At
``(s, t)`` the mover either **stops**, banking ``t`` (at ``t = 0`` stopping
is passing), or picks one of the **continuations** of ``s``. Stopping is
allowed at ``(s, t)`` exactly when

* ``t >= min_bank``, and
* the turn is not at its very start while ``forced_first`` holds (the first
  roll or draw of a turn is forced).

Continuations and outcomes
--------------------------
A continuation is a chance event: outcomes ``o`` with probabilities
``p_o`` summing to 1, each of one kind:

``BUST``
    the turn total is lost and the turn ends; the banked score ``b`` of the
    mover becomes ``b`` (effect ``NONE``), ``0`` (``ZERO``) or
    ``max(b - penalty, floor)`` (``PENALTY``).
``END``
    the turn ends and ``t + points`` is banked (a turn of one throw).
``CHOOSE``
    the mover picks one of the outcome's **options** ``(g, s')``: the turn
    goes on at ``(s', t + g)`` with ``g >= 0`` (usually one option).

Hand-over
---------
The state the next turn starts from: ``handover[s]`` after a stop at ``s``,
``out_next[o]`` after a ``BUST`` or ``END`` outcome. Dice start afresh
(always state 0); a deck persists, so the next turn starts where this one
left the deck. State 0 is the start of the first turn of the game.

Value of the mover
------------------
With ``i`` the mover's banked score, ``j`` the opponent's, ``V(i, j, h)`` the
mover's win probability at the start of a turn from state ``h`` and
``W(i, j, s, t)`` inside a turn (``W = 1`` once ``i + t >= goal`` and
stopping is allowed: that hold wins)::

    stop(s, t)   = 1 - V(j, i + t, handover[s])
    bust(o)      = 1 - V(j, effect(i), out_next[o])
    end(o, t)    = 1 if i + t + points >= goal else 1 - V(j, i + t + points, out_next[o])
    choose(o, t) = max over options (g, s') of W(i, j, s', t + g)
    C(c, s, t)   = sum over outcomes o of c: p_o * value(o)
    W(i, j, s, t) = max(stop(s, t) if allowed, max_c C(c, s, t))
    V(i, j, h)   = W(i, j, h, 0), without the stop under forced_first.

Arrays (CSR layout)
-------------------
Continuations of ``s``: ``cont_start[s] .. cont_start[s+1]-1``; outcomes of
continuation ``c``: ``out_start[c] .. out_start[c+1]-1``; options of outcome
``o``: ``opt_start[o] .. opt_start[o+1]-1`` (empty unless ``CHOOSE``).
"""

from dataclasses import dataclass, field

import numpy as np

from designer.errors import DesignError

#: Outcome kinds.
BUST, CHOOSE, END = 0, 1, 2
#: Bust effects on the banked score.
NONE, ZERO, PENALTY = 0, 1, 2

#: Largest gap between 1 and the sum of one continuation's probabilities.
PROB_TOL = 1e-12

_KINDS = {BUST: "bust", CHOOSE: "choose", END: "end"}


class ModelError(DesignError):
    """A turn model whose arrays break an invariant (one line says which)."""


@dataclass(frozen=True, eq=False)
class TurnModel:
    """A turn process as arrays; immutable and validated on construction.

    Parameters
    ----------
    cont_start : int array, shape (S + 1,)
        Continuations of state ``s`` are ``cont_start[s] .. cont_start[s+1]-1``.
    out_start : int array, shape (C + 1,)
        Outcomes of continuation ``c``.
    out_prob : float array, shape (O,)
        Probability of each outcome, in ``[0, 1]``; each continuation's sum
        to 1 within :data:`PROB_TOL`.
    out_kind : int array, shape (O,)
        :data:`BUST`, :data:`CHOOSE` or :data:`END`.
    out_points : int array, shape (O,)
        Points an ``END`` outcome adds to the turn total before banking it
        (0 for the other kinds).
    out_next : int array, shape (O,)
        State the next turn starts from after a ``BUST`` or ``END`` outcome
        (-1 for ``CHOOSE``).
    out_effect : int array, shape (O,)
        Effect of a ``BUST`` on the banked score: :data:`NONE`, :data:`ZERO`
        or :data:`PENALTY` (:data:`NONE` for the other kinds).
    out_penalty : int array, shape (O,)
        Points a ``PENALTY`` bust takes from the banked score (>= 0).
    opt_start : int array, shape (O + 1,)
        Options of outcome ``o``; a ``CHOOSE`` outcome has at least one,
        the others none.
    opt_gain : int array, shape (P,)
        Points ``g >= 0`` an option adds to the turn total.
    opt_next : int array, shape (P,)
        Turn state ``s'`` an option moves to.
    handover : int array, shape (S,)
        State the next turn starts from after a stop at ``s``.
    forced_first : bool
        The first continuation of every turn is forced (no stop at its start).
    min_bank : int
        Smallest turn total that may be banked by stopping (``>= 0``).
    floor : int
        Lowest banked score a ``PENALTY`` bust can leave (``<= 0``).
    names : tuple of str, optional
        A short description of each state, for people.
    cont_throws : float array, shape (C,), optional
        Throws or draws one taking of each continuation stands for, on
        average (``>= 1``; default all 1): ``1 / (1 - q)`` for a
        continuation whose rolls straight back to the same state, of chance
        ``q``, were folded away (:func:`fold_self_loops`). Only the count
        of actions (the game's length) reads it.
    feature_names : tuple of str, optional
        Names of what a player sees of a turn state beside the scores and
        the turn total (``dice_left``, ``w_rem``, ...), read by policies
        written as rules or functions.
    features : int array, shape (S, len(feature_names)), optional
        Each state's value of each named feature.
    """

    cont_start: np.ndarray = field(repr=False)
    out_start: np.ndarray = field(repr=False)
    out_prob: np.ndarray = field(repr=False)
    out_kind: np.ndarray = field(repr=False)
    out_points: np.ndarray = field(repr=False)
    out_next: np.ndarray = field(repr=False)
    out_effect: np.ndarray = field(repr=False)
    out_penalty: np.ndarray = field(repr=False)
    opt_start: np.ndarray = field(repr=False)
    opt_gain: np.ndarray = field(repr=False)
    opt_next: np.ndarray = field(repr=False)
    handover: np.ndarray = field(repr=False)
    forced_first: bool = False
    min_bank: int = 0
    floor: int = 0
    names: tuple = field(default=(), repr=False)
    cont_throws: np.ndarray = field(default=None, repr=False)
    feature_names: tuple = field(default=(), repr=False)
    features: np.ndarray = field(default=None, repr=False)

    def __post_init__(self):
        ints = ("cont_start", "out_start", "out_kind", "out_points", "out_next", "out_effect",
                "out_penalty", "opt_start", "opt_gain", "opt_next", "handover")
        for name in ints:
            a = np.ascontiguousarray(getattr(self, name))
            if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
                raise ModelError(f"turn model: {name} must be a one-dimensional integer array")
            a = a.astype(np.int64)
            a.setflags(write=False)
            object.__setattr__(self, name, a)
        p = np.ascontiguousarray(self.out_prob, dtype=np.float64)
        p.setflags(write=False)
        object.__setattr__(self, "out_prob", p)
        object.__setattr__(self, "forced_first", bool(self.forced_first))
        object.__setattr__(self, "min_bank", int(self.min_bank))
        object.__setattr__(self, "floor", int(self.floor))
        object.__setattr__(self, "names", tuple(self.names))
        C = len(self.out_start) - 1
        w = np.ones(max(C, 0)) if self.cont_throws is None else np.ascontiguousarray(
            self.cont_throws, dtype=np.float64)
        if w.shape != (max(C, 0),) or not np.all(w >= 1.0) or not np.all(np.isfinite(w)):
            raise ModelError(f"turn model: cont_throws must hold {C} finite numbers >= 1")
        w.setflags(write=False)
        object.__setattr__(self, "cont_throws", w)
        names = tuple(self.feature_names)
        S = len(self.cont_start) - 1
        f = (np.zeros((max(S, 0), len(names)), dtype=np.int64) if self.features is None
             else np.ascontiguousarray(self.features))
        if f.shape != (max(S, 0), len(names)) or (f.size and not np.issubdtype(f.dtype,
                                                                                np.integer)):
            raise ModelError(f"turn model: features must be an integer array of shape "
                             f"({S}, {len(names)})")
        f = f.astype(np.int64)
        f.setflags(write=False)
        object.__setattr__(self, "feature_names", names)
        object.__setattr__(self, "features", f)
        self._check()

    def with_features(self, names, values):
        """This model with named state features (``values[s, f]``)."""
        from dataclasses import replace

        return replace(self, feature_names=tuple(names), features=values)

    # -- sizes --------------------------------------------------------------
    @property
    def states(self):
        """Number of turn states ``S``."""
        return len(self.cont_start) - 1

    @property
    def continuations(self):
        """Number of continuations over all states."""
        return len(self.out_start) - 1

    @property
    def outcomes(self):
        """Number of chance outcomes over all continuations."""
        return len(self.out_prob)

    @property
    def falls(self):
        """True when some bust can lower a banked score (no layered order)."""
        e, pen = self.out_effect, self.out_penalty
        return bool(np.any(e == ZERO) or np.any((e == PENALTY) & (pen > 0)))

    def start_states(self):
        """The states a turn can start from (state 0 and every hand-over),
        sorted."""
        ends = self.out_next[self.out_kind != CHOOSE]
        return np.unique(np.concatenate(([0], self.handover, ends)))

    def describe(self, s):
        """A state's name, or its number."""
        return self.names[s] if s < len(self.names) else f"state {s}"

    # -- invariants ---------------------------------------------------------
    def _check(self):
        S = len(self.cont_start) - 1
        if S < 1:
            raise ModelError("turn model: at least one turn state is needed")
        C, NO, P = len(self.out_start) - 1, len(self.out_prob), len(self.opt_gain)
        _monotone("cont_start", self.cont_start, C)
        _monotone("out_start", self.out_start, NO)
        _monotone("opt_start", self.opt_start, P)
        for name, n in (("out_kind", NO), ("out_points", NO), ("out_next", NO),
                        ("out_effect", NO), ("out_penalty", NO), ("opt_next", P), ("handover", S)):
            if len(getattr(self, name)) != n:
                raise ModelError(f"turn model: {name} has {len(getattr(self, name))} entries, "
                                 f"expected {n}")
        if self.names and len(self.names) != S:
            raise ModelError(f"turn model: {len(self.names)} names for {S} states")
        if self.min_bank < 0:
            raise ModelError(f"turn model: min_bank={self.min_bank}: allowed min_bank >= 0")
        if self.floor > 0:
            raise ModelError(f"turn model: floor={self.floor}: allowed floor <= 0")
        p = self.out_prob
        if not np.all(np.isfinite(p)) or np.any(p < 0.0) or np.any(p > 1.0):
            o = int(np.flatnonzero(~((p >= 0.0) & (p <= 1.0)))[0])
            raise ModelError(f"turn model: outcome {o} has probability {float(p[o]):.12g}: allowed 0..1")
        owner = np.repeat(np.arange(C), np.diff(self.out_start))
        sums = np.bincount(owner, weights=p, minlength=C)
        bad = np.flatnonzero(np.abs(sums - 1.0) > PROB_TOL)
        if bad.size:
            c = int(bad[0])
            s = int(np.searchsorted(self.cont_start, c, side="right") - 1)
            raise ModelError(f"turn model: continuation {c} of {self.describe(s)} has "
                             f"probabilities summing to {float(sums[c]):.12g}: they must sum to 1")
        kinds = self.out_kind
        if np.any((kinds != BUST) & (kinds != CHOOSE) & (kinds != END)):
            raise ModelError("turn model: out_kind must be 0 (bust), 1 (choose) or 2 (end)")
        nopt = self.opt_start[1:] - self.opt_start[:-1]
        if np.any((kinds == CHOOSE) & (nopt < 1)):
            o = int(np.flatnonzero((kinds == CHOOSE) & (nopt < 1))[0])
            raise ModelError(f"turn model: choice outcome {o} has no option")
        if np.any((kinds != CHOOSE) & (nopt > 0)):
            o = int(np.flatnonzero((kinds != CHOOSE) & (nopt > 0))[0])
            raise ModelError(f"turn model: {_KINDS[int(kinds[o])]} outcome {o} has options: "
                             "only choice outcomes do")
        ending = kinds != CHOOSE
        _in_range("out_next", self.out_next[ending], S)
        _in_range("opt_next", self.opt_next, S)
        _in_range("handover", self.handover, S)
        if np.any(self.opt_gain < 0) or np.any(self.out_points < 0) or np.any(self.out_penalty < 0):
            raise ModelError("turn model: points, gains and penalties must be >= 0")
        if np.any((self.out_effect < NONE) | (self.out_effect > PENALTY)):
            raise ModelError("turn model: out_effect must be 0 (none), 1 (zero) or 2 (penalty)")
        if np.any((kinds != BUST) & (self.out_effect != NONE)):
            raise ModelError("turn model: only a bust changes the banked score")


def _monotone(name, a, total):
    if len(a) < 1 or a[0] != 0 or a[-1] != total or np.any(np.diff(a) < 0):
        raise ModelError(f"turn model: {name} must rise from 0 to {total}")


def _in_range(name, a, n):
    if a.size and (a.min() < 0 or a.max() >= n):
        bad = int(a[(a < 0) | (a >= n)][0])
        raise ModelError(f"turn model: {name} holds {bad}: allowed 0..{n - 1}")


def fold_self_loops(continuations, handover, names=(), starts=()):
    """Fold away outcomes that leave the turn exactly where it was.

    An outcome whose only option is ``(0, s)`` at state ``s`` (Zombie
    Dice's roll of nothing but footprints, a die face worth 0) returns the
    mover to the same position ``(s, t)``, where an optimal (or any
    stationary) player decides as before. If continuation ``c`` returns
    with probability ``q < 1`` and its other outcomes are worth ``r_c``,
    its value ``C = r_c + q W`` and the position's value
    ``W = max(stop, max_c C)`` have the same solution as with the
    continuation replaced by its other outcomes, each with probability
    ``p_o / (1 - q)``: if ``c`` is chosen, ``W = r_c / (1 - q)``, and
    otherwise ``r_c + q W <= W`` exactly when ``r_c / (1 - q) <= W``. So
    the fold is exact and the turn keeps no cycle through that outcome.

    A state listed in ``starts`` (a turn start whose first roll is forced)
    differs from itself reached again: there the mover may stop. Its
    returns go to a copy of it, appended after the other states, whose
    own returns are folded.

    Parameters
    ----------
    continuations : list
        As for :func:`build_model`.
    handover : list of int
    names : sequence of str
    starts : iterable of int
        Turn starts with a forced first roll.

    Returns
    -------
    continuations, handover, names : list
        Folded, with the copies appended.
    origin : list of int
        The state each state (copies included) was made from.
    throws : list of list of float
        Per state, per continuation: the throws one taking of it stands
        for (``1 / (1 - q)`` where returns of chance ``q`` were folded,
        else 1), for :attr:`TurnModel.cont_throws`.
    """
    S = len(continuations)
    keep = set(starts)

    def returns(outs, s):
        return [k for k, o in enumerate(outs) if o[1] == "choose" and len(o[2]) == 1
                and o[2][0][0] == 0 and o[2][0][1] == s]

    def fold(conts, s):
        out, throws = [], []
        for outs in conts:
            back = returns(outs, s)
            # the others are divided by their own sum (= 1 - q up to
            # rounding), so that they sum to 1 and none passes 1
            rest = sum(o[0] for k, o in enumerate(outs) if k not in back)
            if not back or rest <= 0.0:  # never leaves: a turn that never ends, refused elsewhere
                out.append(outs)
                throws.append(1.0)
                continue
            out.append([(min(o[0] / rest, 1.0),) + tuple(o[1:]) for k, o in enumerate(outs)
                        if k not in back])
            # the throws until one does not come back: geometric, mean 1 / (1 - q)
            throws.append(max(1.0, 1.0 / rest))
        return out, throws

    conts_out, throws_out, origin = [], [], list(range(S))
    copies = {}
    for s, conts in enumerate(continuations):
        if s not in keep or not any(returns(outs, s) for outs in conts):
            folded, throws = fold(conts, s)
            conts_out.append(folded)
            throws_out.append(throws)
            continue
        copies[s] = S + len(copies)
        origin.append(s)
        conts_out.append([[(o[0], "choose", [(0, copies[s])]) if k in returns(outs, s) else o
                           for k, o in enumerate(outs)] for outs in conts])
        throws_out.append([1.0] * len(conts))
    for s, c in copies.items():
        folded, throws = fold(continuations[s], s)
        conts_out.append(folded)
        throws_out.append(throws)
    handover = list(handover) + [handover[s] for s in copies]
    names = list(names)
    if names:
        names += [f"{names[s]} (after a roll)" for s in copies]
    return conts_out, handover, names, origin, throws_out


def build_model(continuations, handover, *, forced_first=False, min_bank=0, floor=0, names=(),
                fold=True, throws=None):
    """Build a :class:`TurnModel` from nested Python lists.

    Parameters
    ----------
    continuations : list
        One entry per state: a list of continuations, each a list of
        outcomes ``(p, "bust", next, effect, penalty)``, ``(p, "end",
        points, next)`` or ``(p, "choose", [(g, s'), ...])``; ``effect`` is
        ``"none"``, ``"zero"`` or ``"penalty"``.
    handover : list of int
        Start state of the next turn after a stop at each state.
    forced_first, min_bank, floor, names
        As for :class:`TurnModel`.
    fold : bool
        Fold outcomes that return the turn to the same state with no points
        (:func:`fold_self_loops`; exact for optimal and stationary play).
    throws : list of list of float, optional
        Per state, per continuation, :attr:`TurnModel.cont_throws` (from
        :func:`fold_self_loops` when the caller folded; with ``fold`` they
        come from the fold here).
    """
    if fold:
        continuations, handover, names, _, throws = fold_self_loops(
            continuations, handover, names,
            start_like(continuations, handover) if forced_first else ())
    effects = {"none": NONE, "zero": ZERO, "penalty": PENALTY}
    cont_start, out_start, opt_start = [0], [0], [0]
    cols = {k: [] for k in ("prob", "kind", "points", "next", "effect", "penalty")}
    gains, nexts = [], []
    for conts in continuations:
        for outs in conts:
            for o in outs:
                p, kind = o[0], o[1]
                row = dict(prob=p, kind=None, points=0, next=-1, effect=NONE, penalty=0)
                if kind == "bust":
                    row.update(kind=BUST, next=o[2], effect=effects[o[3]], penalty=o[4])
                elif kind == "end":
                    row.update(kind=END, points=o[2], next=o[3])
                elif kind == "choose":
                    row.update(kind=CHOOSE)
                    for g, s2 in o[2]:
                        gains.append(g)
                        nexts.append(s2)
                else:
                    raise ModelError(f"turn model: unknown outcome kind {kind!r}: "
                                     "allowed bust, end, choose")
                for k, v in row.items():
                    cols[k].append(v)
                opt_start.append(len(gains))
            out_start.append(len(cols["prob"]))
        cont_start.append(len(out_start) - 1)
    i64 = lambda v: np.array(v, dtype=np.int64)  # noqa: E731
    return TurnModel(i64(cont_start), i64(out_start), np.array(cols["prob"], dtype=np.float64),
                     i64(cols["kind"]), i64(cols["points"]), i64(cols["next"]),
                     i64(cols["effect"]), i64(cols["penalty"]), i64(opt_start), i64(gains),
                     i64(nexts), i64(handover), forced_first, min_bank, floor, names,
                     None if throws is None else [w for per in throws for w in per])


def start_like(continuations, handover):
    """States a turn can start from, read from nested lists (state 0, the
    hand-overs and every bust's or end's next state)."""
    starts = {0, *handover}
    for conts in continuations:
        for outs in conts:
            for o in outs:
                if o[1] == "bust":
                    starts.add(o[2])
                elif o[1] == "end":
                    starts.add(o[3])
    return starts


def tiny_model():
    """A coin for a turn (tails busts, heads adds a point and the turn goes
    on): the game every warm-up solves to load or compile the kernels."""
    return build_model([[[(0.5, "bust", 0, "none", 0), (0.5, "choose", [(1, 0)])]]], [0])
