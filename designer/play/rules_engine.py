"""Playing a rules game (a rules file or a shipped example): its positions,
legal actions, steps, chance and its exact optimal values.

A position is the seat to move, the banked scores (in the game's units of
score), the turn state ``s`` and the turn total ``t`` of
:mod:`designer.engine.model`, whether the turn is at its very start (where
a forced first throw or draw allows no stop), and, after a throw whose
outcome lets the mover choose, that outcome until an option is picked.

Actions
-------
``("stop", -1)``
    Bank ``t`` (at ``t = 0`` a pass); allowed when ``t >= min_bank`` and
    not at the start of a turn whose first throw is forced.
``("go", c)``
    Continuation ``c`` (a global index of the model) of the turn state: a
    chance event, whose outcome :func:`random_outcome` draws.
``("pick", r)``
    Option ``r`` (global index) of the outcome waiting for a choice: the
    turn goes on at ``(s', t + g)``.

A turn total that reaches the goal is banked at once when stopping is
allowed there (the mover wins); an outcome with a single option is taken
without asking.

Under the rounds ending (two seats) seat 1 then seat 2 make a round; the
round ends after seat 2's turn, and when a score is then at or above the
goal the higher one wins (a tie: the game's tie rule, a tie round or seat
1). Seat 2's total is banked at once where holding wins (at the goal in an
open round, above seat 1 in a final or tie round). ``round`` counts the
rounds, ``tied`` names the seats of a tie round (``tie``: one is on). Its
values come from the rounds solve (:class:`RoundsSolution`). With three or
four seats in rounds the round's end, the tie rounds (of the tied seats
only, ``gains``: their points in it) and the values are
:mod:`designer.play.rules_seat_rounds`'.

Values
------
With ``V(i, j, h)`` the solved start values of the engine
(:func:`designer.engine.solve.solve_model`) the value of an action at
``(i, j, s, t)`` follows the turn equations of :mod:`designer.engine.model`::

    stop          = 1 - V(j, i + t, handover[s])        (t = 0: a pass)
    go c          = sum over outcomes o of c: p_o * value(o)
    bust o        = 1 - V(j, effect(i), out_next[o])
    end o         = 1 if i + t + points >= goal else 1 - V(j, i + t + points, out_next[o])
    choose o      = max over options (g, s') of W(i, j, s', t + g)
    W(i, j, s, t) = 1 if t >= max(goal - i, min_bank) (reached through an option),
                    else the largest of the allowed actions' values,

with the engine's ties: a stop wins a tie (a continuation must beat it by
more than :data:`~designer._jit.TIE`) except at ``t = 0``, where the
continuation wins it; among continuations, and among the options of one
outcome, the first listed wins an exact tie. :class:`TurnValues` evaluates
``W`` over the positions one turn can reach from where it is asked, each
once (a memo per turn), without recursion (a turn may be thousands of
throws deep).
"""

from dataclasses import dataclass, replace

import numpy as np

from designer._jit import TIE
from designer.engine.model import BUST, CHOOSE, END, PENALTY, ZERO
from designer.errors import DesignError
from designer.play.engine import IllegalMove

STOP = ("stop", -1)


@dataclass(frozen=True)
class RulesEvent:
    """What one :func:`step` did.

    Attributes
    ----------
    seat : int
    action : str
        ``"hold"`` (a stop), ``"go"`` (a throw or draw) or ``"pick"``.
    index : int
        The continuation (``go``) or option (``pick``) taken, -1 for a stop.
    outcome : int or None
        The model's outcome of a ``go``.
    gained : int
        Points banked (a stop, an ending outcome, a goal reached).
    bust, won : bool
    choice : bool
        The outcome waits for the mover to pick one of its options.
    """

    seat: int
    action: str
    index: int = -1
    outcome: object = None
    gained: int = 0
    bust: bool = False
    won: bool = False
    choice: bool = False


@dataclass(frozen=True)
class RulesState:
    """A position of a played rules game (see the module doc).

    ``units`` are the banked scores in units of score, seat 0 first; ``t``
    the turn total in units; ``fresh`` the turn has not thrown yet;
    ``pending`` the outcome whose options the mover chooses from, or None.
    """

    game: object
    units: tuple
    mover: int = 0
    s: int = 0
    t: int = 0
    fresh: bool = True
    pending: object = None
    winner: object = None
    round: int = 1
    tied: tuple = ()
    gains: tuple = ()

    family = "rules"

    @property
    def tie(self):
        """Whether a tie round is on (``tied`` names its seats)."""
        return bool(self.tied)

    @property
    def rounds(self):
        """Whether the game is played in rounds (equal turns)."""
        return self.game.ending == "rounds"

    @property
    def ending_words(self):
        """The round in words under the rounds ending ("round 3", "round 7,
        a tie round"), else None."""
        if not self.rounds:
            return None
        if self.players > 2:
            from designer.play.rules_seat_rounds import ending_words

            return ending_words(self)
        ties = ("a tie is replayed" if self.game.rules.ties == "replay"
                else "a tie goes to the first seat")
        return (f"round {self.round}" + (", a tie round" if self.tie else "")
                + f" (equal turns: when a round ends with a score of {self.game.goal} or more, "
                  f"the higher wins; {ties})")

    @property
    def model(self):
        return self.game.rules.model

    @property
    def players(self):
        return len(self.units)

    @property
    def over(self):
        return self.winner is not None

    @property
    def scores(self):
        """Banked scores in points, seat 0 first."""
        return tuple(u * self.game.unit for u in self.units)

    @property
    def k(self):
        """The turn total in points."""
        return self.t * self.game.unit

    def can_stop(self):
        m = self.model
        return (self.pending is None and self.t >= m.min_bank
                and not (self.fresh and m.forced_first))

    def legal(self):
        """The actions allowed now, in their listed order (stop first)."""
        if self.over:
            return ()
        m = self.model
        if self.pending is not None:
            o = self.pending
            return tuple(("pick", r) for r in range(m.opt_start[o], m.opt_start[o + 1]))
        goes = tuple(("go", c) for c in range(m.cont_start[self.s], m.cont_start[self.s + 1]))
        return ((STOP,) if self.can_stop() else ()) + goes

    def mover_view(self):
        """``(i, j, s, t)`` from the mover's side, in units: ``j`` is the
        opponent's score, with three or four seats the highest of the
        others' (what a rule reads, as ``designer compare`` reads it)."""
        others = [u for seat, u in enumerate(self.units) if seat != self.mover]
        return (self.units[self.mover], max(others), self.s, self.t)


def new_game(game):
    """The opening position: seat 0 to move from state 0, each seat holding
    its start points (:attr:`~designer.engine.game.RulesGame.start`).

    Raises
    ------
    DesignError
        A game the engine does not play (other than 2 to 4 players, the
        race or the rounds ending).
    """
    if game.players not in (2, 3, 4) or game.ending not in ("race", "rounds"):
        raise DesignError(f"cannot play {game.name} with {game.players} players and the "
                          f"{game.ending} ending: designer play plays a rules game with 2-4 "
                          "players and the race or rounds ending")
    return RulesState(game, tuple(int(u) for u in game.start))


def continuation_names(game, s):
    """Short names of the continuations of turn state ``s``, listed order.

    The model keeps no names for them; they come from the part: dice whose
    count the mover chooses throw ``lo + k`` dice ("throw 3 dice"), a deck
    draws, scoring dice throw, other dice roll.
    """
    m = game.rules.model
    n = int(m.cont_start[s + 1] - m.cont_start[s])
    part = game.rules.part
    kind = type(part).__name__
    choose = getattr(part, "choose", ()) if kind == "Dice" else ()
    if choose:
        lo = choose[0]
        return [f"throw {lo + k} {'die' if lo + k == 1 else 'dice'}" for k in range(n)]
    verb = {"Deck": "draw", "ScoringDice": "throw", "Dice": "roll", "Cup": "roll"}.get(kind)
    if n == 1:
        return [verb or "go on"]
    return [f"{verb or 'go on'} ({k + 1})" for k in range(n)]


def option_words(game, r, points=True, state=True):
    """An option in words: its points and the state it goes on from
    ("+300: 3 dice to throw"), either alone."""
    m = game.rules.model
    words = [f"+{int(m.opt_gain[r]) * game.unit}"] if points else []
    if state:
        words.append(m.describe(int(m.opt_next[r])))
    return ": ".join(words)


def action_words(state, action):
    """An action in words: "stop", "throw 3 dice", "+300: 3 dice to throw"."""
    kind, x = action
    if kind == "stop":
        return "pass" if state.t == 0 else "stop"
    if kind == "go":
        m = state.model
        return continuation_names(state.game, state.s)[x - int(m.cont_start[state.s])]
    return option_words(state.game, x)


def why_no_stop(state):
    """Why the mover may not stop now, in words (None if it may)."""
    if state.can_stop() or state.pending is not None:
        return None
    if state.fresh and state.model.forced_first:
        return "the first throw or draw of a turn is forced"
    return f"a turn total below {state.model.min_bank * state.game.unit} cannot be banked"


def after_bust(model, o, i):
    """The banked score ``i`` after bust outcome ``o``: kept, wiped to 0,
    or lowered by the outcome's penalty down to the floor."""
    e = model.out_effect[o]
    if e == ZERO:
        return 0
    if e == PENALTY:
        return max(i - int(model.out_penalty[o]), model.floor)
    return i


def _next_seat(state):
    return (state.mover + 1) % state.players


def _with(units, seat, value):
    out = list(units)
    out[seat] = value
    return tuple(out)


def _end_turn(state, units, start):
    """The next turn, or under the rounds ending after seat 2's turn the
    round's end: a winner, a tie round or the next round (three or four
    seats: :func:`designer.play.rules_seat_rounds.end_turn`)."""
    if state.rounds and state.players > 2:
        from designer.play.rules_seat_rounds import end_turn

        return end_turn(state, units, start)
    nxt = replace(state, units=units, mover=_next_seat(state), s=int(start), t=0, fresh=True,
                  pending=None)
    if not state.rounds or state.mover == 0:
        return nxt
    a, b = units
    if max(a, b) < state.game.rules.goal:
        return replace(nxt, round=state.round + 1, tied=())
    if a == b and state.game.rules.ties == "replay":
        return replace(nxt, round=state.round + 1, tied=(0, 1))
    return replace(nxt, mover=state.mover, winner=0 if a >= b else 1)


def holding_wins(state, t):
    """Whether the mover wins the game by banking ``t`` now: reaching the
    goal in the race; under the rounds ending, seat 2 reaching the goal
    above seat 1 (three or four seats:
    :func:`designer.play.rules_seat_rounds.holding_wins`)."""
    i = state.units[state.mover]
    goal = state.game.rules.goal
    if not state.rounds:
        return i + t >= goal
    if state.players > 2:
        from designer.play.rules_seat_rounds import holding_wins as seats_holding_wins

        return seats_holding_wins(state, t)
    return state.mover == 1 and i + t >= goal and i + t > state.units[0]


def step(state, action, outcome=None):
    """Apply one action; returns ``(next_state, RulesEvent)``.

    Parameters
    ----------
    action : tuple
        One of ``state.legal()``.
    outcome : int, optional
        The outcome of a ``go`` (a global index among that continuation's
        outcomes); ignored for the other actions.

    Raises
    ------
    IllegalMove
        An action not allowed now, or an outcome not of that continuation.
    """
    if state.over:
        raise IllegalMove("the game is over")
    if action not in state.legal():
        if action == STOP and state.pending is None:
            raise IllegalMove(f"you cannot stop now: {why_no_stop(state)}")
        raise IllegalMove(f"{action!r} is not allowed now")
    m, seat, goal = state.model, state.mover, state.game.rules.goal
    i = state.units[seat]
    kind, x = action
    if kind == "stop":
        nxt = _end_turn(state, _with(state.units, seat, i + state.t), m.handover[state.s])
        return nxt, RulesEvent(seat, "hold", gained=state.t * state.game.unit,
                               won=nxt.winner == seat)
    if kind == "pick":
        return _move(state, x, RulesEvent(seat, "pick", x))
    if outcome is None or not m.out_start[x] <= outcome < m.out_start[x + 1]:
        raise IllegalMove(f"outcome {outcome!r} is not one of this throw's")
    o = int(outcome)
    k = int(m.out_kind[o])
    if k == BUST:
        nxt = _end_turn(state, _with(state.units, seat, after_bust(m, o, i)), m.out_next[o])
        return nxt, RulesEvent(seat, "go", x, o, bust=True)
    if k == END:
        tot = state.t + int(m.out_points[o])
        if state.rounds:
            nxt = _end_turn(state, _with(state.units, seat, i + tot), m.out_next[o])
            return nxt, RulesEvent(seat, "go", x, o, gained=tot * state.game.unit,
                                   won=nxt.winner == seat)
        if i + tot >= goal:
            won = replace(state, units=_with(state.units, seat, i + tot), t=0, winner=seat)
            return won, RulesEvent(seat, "go", x, o, gained=tot * state.game.unit, won=True)
        nxt = _end_turn(state, _with(state.units, seat, i + tot), m.out_next[o])
        return nxt, RulesEvent(seat, "go", x, o, gained=tot * state.game.unit)
    if m.opt_start[o + 1] - m.opt_start[o] == 1:  # nothing to choose
        return _move(state, int(m.opt_start[o]), RulesEvent(seat, "go", x, o))
    return replace(state, fresh=False, pending=o), RulesEvent(seat, "go", x, o, choice=True)


def _move(state, r, event):
    """Take option ``r``: the turn goes on at ``(s', t + g)``, or banks and
    wins when that reaches the goal and stopping is allowed there."""
    m = state.model
    t = state.t + int(m.opt_gain[r])
    i = state.units[state.mover]
    nxt = replace(state, s=int(m.opt_next[r]), t=t, fresh=False, pending=None)
    if holding_wins(state, t) and t >= m.min_bank:
        won = replace(nxt, units=_with(state.units, state.mover, i + t), t=0,
                      winner=state.mover)
        return won, replace(event, gained=t * state.game.unit, won=True)
    return nxt, event


def random_outcome(state, action, rng):
    """The outcome of continuation ``action`` drawn with the model's
    probabilities (one uniform number of ``rng``, a numpy Generator)."""
    m = state.model
    c = action[1]
    lo, hi = int(m.out_start[c]), int(m.out_start[c + 1])
    cum = np.cumsum(m.out_prob[lo:hi])
    k = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
    k = min(k, hi - lo - 1)
    while m.out_prob[lo + k] <= 0.0:  # rounding at the very top: the last possible one
        k -= 1
    return lo + k


# -- exact values -------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class RulesSolution:
    """A rules game with its engine solve: ``V(i, j, h)`` of every turn start.

    Attributes
    ----------
    game : RulesGame
    result : EngineResult
    """

    game: object
    result: object

    def start_value(self, i, j, h):
        """``V(i, j, h)``: the mover's win probability at a turn start."""
        r = self.result
        return float(r.win[i - r.floor, j - r.floor, self._hidx[h]])

    @property
    def _hidx(self):
        cached = self.__dict__.get("_h")
        if cached is None:
            cached = start_index(self.game.rules.model, self.result.start_states)
            object.__setattr__(self, "_h", cached)
        return cached

    def turn(self, i, j):
        """The :class:`TurnValues` of a turn of the mover at ``(i, j)``
        (the last few are kept)."""
        key = (int(i), int(j))
        return _kept(self, key, lambda: TurnValues(self, *key))

    def action_values(self, state):
        """The mover's win probability after each legal action of ``state``."""
        i, j, s, t = state.mover_view()
        tv = self.turn(i, j)
        if state.pending is not None:
            return {a: tv.option(a[1], t) for a in state.legal()}
        return {a: tv.action(a, s, t) for a in state.legal()}

    def best(self, state):
        """The optimal action at ``state``, ties as the solver breaks them."""
        return best_action(state, self.action_values(state))


def _kept(solution, key, make):
    """The turn values of ``key`` from ``solution``'s cache of the last few
    turns (a game asks about the same turn many times in a row), else
    ``make()``, kept."""
    cache = solution.__dict__.setdefault("_turns", {})
    if key not in cache:
        if len(cache) >= 4:
            cache.pop(next(iter(cache)))
        cache[key] = make()
    return cache[key]


def solve(game):
    """Solve ``game`` with the engine: a :class:`RulesSolution` for the race
    of 2 players, a :class:`SeatsSolution` for 3 or 4, a
    :class:`RoundsSolution` for the rounds ending of 2 players (a
    :class:`~designer.play.rules_rounds_falls.FallsSolution` where scores
    can fall), a
    :class:`~designer.play.rules_seat_rounds.SeatRoundsSolution` of 3 or 4."""
    long = _long_solver(game)
    if long is not None:
        return long.solve(game)
    if game.ending == "rounds":
        return solve_rounds(game)
    if game.players > 2:
        from designer.engine.seats import solve_seats_model

        return SeatsSolution(game, solve_seats_model(game.rules.model, game.rules.goal,
                                                     game.players))
    from designer.engine.solve import solve_model

    return RulesSolution(game, solve_model(game.rules.model, game.rules.goal))


def _long_solver(game):
    """The module whose ``solve`` and ``solve_estimate`` take ``game`` where
    its solve can be long: three or four seats in rounds
    (:mod:`designer.play.rules_seat_rounds`; where scores can fall
    :mod:`designer.play.rules_seat_rounds_falls`), two in rounds where
    scores can fall (:mod:`designer.play.rules_rounds_falls`); else
    None."""
    if game.ending != "rounds":
        return None
    if game.seat_rounds and game.rules.model.falls:
        from designer.play import rules_seat_rounds_falls

        return rules_seat_rounds_falls
    if game.seat_rounds:
        from designer.play import rules_seat_rounds

        return rules_seat_rounds
    if game.rules.model.falls:
        from designer.play import rules_rounds_falls

        return rules_rounds_falls
    return None


def solve_seconds(game):
    """The estimated seconds of :func:`solve` where it can be long (a rules
    game of three or four seats in rounds, None where the table alone
    passes the memory limit; two seats in rounds where scores can fall),
    else None."""
    long = _long_solver(game) if game.family == "rules" else None
    return None if long is None else long.solve_estimate(game)["seconds"]


#: The longest solve (estimated, seconds) that ``designer play`` starts
#: before a game: a person waits for the computer's first move.
MAX_SOLVE_SECONDS = 600


def refuse_long_solve(game, what, est, max_seconds=MAX_SOLVE_SECONDS):
    """Refuse, before anything is allocated, to play ``game`` (``what``:
    its seats and ending, in words) whose solve ``est`` (``seconds``, None
    for unknown, and ``positions``) is over ``max_seconds``.

    Raises
    ------
    DesignError
    """
    if est["seconds"] is not None and est["seconds"] > max_seconds:
        took = est["seconds"] / 60
        words = f"{took:,.0f} minutes" if took < 120 else f"{took / 60:,.1f} hours"
        raise DesignError(f"playing {game.name} {what} needs its exact solve first: about "
                          f"{words} ({est['positions']:,} positions), over the "
                          f"{max_seconds / 60:.0f} minutes play waits for; lower the goal "
                          "(--goal)")


def solver_for(game):
    """The solve ``designer play`` runs first for ``game``: :func:`solve`
    for a rules game (its analysis and hard level need it; the rounds solve
    under the rounds ending), else None (the other games are solved by
    :mod:`designer.solve`)."""
    return solve if game.family == "rules" else None


def best_action(state, values):
    """The action of largest value, ties as the solver breaks them: the
    first listed continuation (option) wins an exact tie; a stop wins
    unless a continuation beats it by more than :data:`TIE`, except at a
    turn total of 0, where a continuation wins unless the pass beats it by
    more than :data:`TIE`."""
    goes = [a for a in values if a != STOP]
    best = None
    for a in goes:  # dict order is the listed order
        if best is None or values[a] > values[best]:
            best = a
    if STOP not in values:
        return best
    if best is None:
        return STOP
    thr = -TIE if state.t == 0 else TIE
    return best if values[best] - values[STOP] > thr else STOP


class TurnValues:
    """``W(i, j, s, t)`` of one turn of the mover at ``(i, j)``, evaluated
    lazily over the positions reachable from where it is asked, each once.

    ``(s, t, fresh)`` is a position: ``fresh`` marks the turn's start, where
    a forced first throw allows no stop.
    """

    def __init__(self, solution, i, j):
        self.sol, self.i, self.j = solution, int(i), int(j)
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        self.tcap = max(self.goal - self.i, self.m.min_bank)
        self.memo = {}

    # values of the turn's ends
    def _other(self, mine, h):
        """``1 - V(j, mine, h)``: the next turn is the opponent's."""
        return 1.0 - self.sol.start_value(self.j, mine, int(h))

    def stop(self, s, t):
        return self._other(self.i + t, self.m.handover[s])

    def _outcome_needs(self, o, t):
        """Positions an outcome's value reads that are not known yet."""
        m = self.m
        if m.out_kind[o] != CHOOSE:
            return []
        need = []
        for r in range(m.opt_start[o], m.opt_start[o + 1]):
            tt = t + int(m.opt_gain[r])
            if tt < self.tcap and (int(m.opt_next[r]), tt, False) not in self.memo:
                need.append((int(m.opt_next[r]), tt, False))
        return need

    def _outcome(self, o, t):
        m = self.m
        k = m.out_kind[o]
        if k == CHOOSE:
            bv = -np.inf
            for r in range(m.opt_start[o], m.opt_start[o + 1]):
                v = self._option_value(r, t)
                if v > bv:
                    bv = v
            return bv
        if k == END:
            tot = t + int(m.out_points[o])
            return 1.0 if self.i + tot >= self.goal else self._other(self.i + tot, m.out_next[o])
        return self._other(after_bust(m, o, self.i), m.out_next[o])

    def _option_value(self, r, t):
        tt = t + int(self.m.opt_gain[r])
        return 1.0 if tt >= self.tcap else self.memo[(int(self.m.opt_next[r]), tt, False)]

    def _cont(self, c, t):
        m = self.m
        acc = 0.0
        for o in range(m.out_start[c], m.out_start[c + 1]):
            acc += m.out_prob[o] * self._outcome(o, t)
        return acc

    def _ensure(self, root):
        """Evaluate ``root`` and every position it reads (post-order, with a
        stack: zero-gain moves form no cycle, the engine refuses those)."""
        m = self.m
        stack = [root]
        while stack:
            key = stack[-1]
            if key in self.memo:
                stack.pop()
                continue
            s, t, _ = key
            need = []
            for c in range(m.cont_start[s], m.cont_start[s + 1]):
                for o in range(m.out_start[c], m.out_start[c + 1]):
                    need += self._outcome_needs(o, t)
            if need:
                stack.extend(need)
                continue
            stack.pop()
            self.memo[key] = self._node(*key)

    def _node(self, s, t, fresh):
        m = self.m
        best = -np.inf
        for c in range(m.cont_start[s], m.cont_start[s + 1]):
            v = self._cont(c, t)
            if v > best:
                best = v
        if t >= m.min_bank and not (fresh and m.forced_first):
            sv = self.stop(s, t)
            thr = -TIE if t == 0 else TIE
            return best if best - sv > thr else sv
        return best

    def value(self, s, t, fresh=False):
        """``W(i, j, s, t)``; at ``fresh`` the turn's start (``t = 0``)."""
        if t >= self.tcap and not fresh:
            return 1.0
        key = (int(s), int(t), bool(fresh and t == 0))
        self._ensure(key)
        return self.memo[key]

    def action(self, action, s, t):
        """The value of ``action`` (a stop or a continuation) at ``(s, t)``."""
        if action == STOP:
            return self.stop(s, t)
        c = action[1]
        for o in range(self.m.out_start[c], self.m.out_start[c + 1]):
            for key in self._outcome_needs(o, t):
                self._ensure(key)
        return self._cont(c, t)

    def option(self, r, t):
        """The value of option ``r`` taken at turn total ``t``."""
        tt = t + int(self.m.opt_gain[r])
        if tt >= self.tcap:
            return 1.0
        return self.value(int(self.m.opt_next[r]), tt)


# -- exact values with three or four seats ---------------------------------------

class SeatsTurnValues(TurnValues):
    """``W`` of one turn of the mover with three or four seats: the mover's
    own win under max-n play, from the N-seat solve's turn-start table
    (:func:`designer.engine.seats.solve_seats_model`). The turn recursion is
    :class:`TurnValues`'; a turn that ends with the mover at ``mine`` is
    worth the mover's component of the next seat's turn start, the scores
    read from the next seat on (the mover last)."""

    def __init__(self, solution, units, mover):
        self.sol, self.units, self.mover = solution, tuple(int(u) for u in units), int(mover)
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        self.i = self.units[self.mover]
        self.tcap = max(self.goal - self.i, self.m.min_bank)
        self.memo = {}

    def _other(self, mine, h):
        N = len(self.units)
        nxt = (self.mover + 1) % N
        scores = tuple(self.units[(nxt + r) % N] for r in range(N - 1)) + (int(mine),)
        return float(self.sol.result.value(scores, int(h))[N - 1])


@dataclass(frozen=True, eq=False)
class SeatsSolution:
    """A rules game of three or four seats (race) with its max-n solve.

    Attributes
    ----------
    game : RulesGame
    result : SeatsResult
    """

    game: object
    result: object

    def turn(self, units, mover):
        """The :class:`SeatsTurnValues` of the mover's turn at ``units``
        (the last few are kept)."""
        key = (tuple(int(u) for u in units), int(mover))
        return _kept(self, key, lambda: SeatsTurnValues(self, *key))

    def action_values(self, state):
        """The mover's own win probability after each legal action of ``state``."""
        tv = self.turn(state.units, state.mover)
        if state.pending is not None:
            return {a: tv.option(a[1], state.t) for a in state.legal()}
        return {a: tv.action(a, state.s, state.t) for a in state.legal()}

    def best(self, state):
        """The max-n action at ``state``, ties as the solver breaks them."""
        return best_action(state, self.action_values(state))


# -- exact values under the rounds ending ---------------------------------------

class RoundsTurnValues(TurnValues):
    """``W`` of one turn under the rounds ending, from the rounds solve's
    turn-start tables (:mod:`designer.engine.rounds`): the same turn
    recursion as :class:`TurnValues` with other ends of the turn. ``view``
    says whose turn it is:

    ``("seat1", a, b)``
        Seat 1 at ``a`` against ``b`` (both below the goal): banking ``u``
        leaves seat 2 to move, ``1 - Y[b, a + u]`` below the goal and ``1 -
        F[a + u - b]`` from it on; the score stops at the solve's cap (a
        total from ``cap - a`` on is held there).
    ``("tie1",)``
        Seat 1 in a tie round: banking a gain ``u`` leaves seat 2 ``u``
        behind, ``1 - F[u]``; the gain stops at ``cap - goal``.
    ``("seat2", b, a)``
        Seat 2 at ``b`` after seat 1 ended below the goal at ``a``: a total
        at the goal wins (banked at once), below it seat 1 starts the next
        round, ``1 - X[a, b + u]``.
    ``("final", d)``
        Seat 2 ``d`` points behind seat 1 at or above the goal (``d = 0``:
        level in a tie round): above ``d`` wins (banked at once), at ``d``
        ties (the tie rule's value), below loses.

    A bust ends the turn with 0 banked.
    """

    def __init__(self, solution, view):
        self.sol, self.view = solution, view
        g = solution.game.rules
        self.m, self.goal = g.model, g.goal
        r = solution.result
        mb = self.m.min_bank
        kind = view[0]
        if kind == "seat1":
            self.tcap = r.cap - view[1]
        elif kind == "tie1":
            self.tcap = r.cap - r.goal
        elif kind == "seat2":
            self.tcap = max(r.goal - view[1], mb)
        else:
            self.tcap = max(view[1] + 1, mb)
        self.memo = {}

    def _hidx(self, s):
        return int(self.sol.hidx[int(s)])

    def end(self, u, s_start):
        """The mover's win when the turn ends banking ``u`` (at most the
        cap's) and the next turn starts from turn state ``s_start``."""
        u = min(int(u), self.tcap)
        h = self._hidx(s_start)
        r, sol = self.sol.result, self.sol
        kind = self.view[0]
        if kind == "seat1":
            a, b = self.view[1], self.view[2]
            if a + u < r.goal:
                return 1.0 - float(r.Y[b, a + u, h])
            return 1.0 - float(sol.F[min(a + u - b, r.cap), h])
        if kind == "tie1":
            return 1.0 - float(sol.F[u, h])
        if kind == "seat2":
            b, a = self.view[1], self.view[2]
            return 1.0 if b + u >= r.goal else 1.0 - float(r.X[a, b + u, h])
        d = self.view[1]
        return 1.0 if u > d else float(sol.tie_value[h]) if u == d else 0.0

    def stop(self, s, t):
        return self.end(t, self.m.handover[s])

    def _outcome(self, o, t):
        m = self.m
        k = m.out_kind[o]
        if k == CHOOSE:
            return super()._outcome(o, t)
        if k == END:
            return self.end(t + int(m.out_points[o]), m.out_next[o])
        return self.end(0, m.out_next[o])

    def _option_value(self, r, t):
        tt = t + int(self.m.opt_gain[r])
        if tt >= self.tcap:
            return self.end(tt, self.m.handover[int(self.m.opt_next[r])])
        return self.memo[(int(self.m.opt_next[r]), tt, False)]

    def value(self, s, t, fresh=False):
        if t >= self.tcap and not fresh:
            return self.stop(s, t)
        key = (int(s), int(t), bool(fresh and t == 0))
        self._ensure(key)
        return self.memo[key]

    def option(self, r, t):
        return self._option_value(r, t) if t + int(self.m.opt_gain[r]) >= self.tcap else \
            self.value(int(self.m.opt_next[r]), t + int(self.m.opt_gain[r]))


class ViewedSolution:
    """The play of a solve whose turns are named by a *view* of the
    position (``self.view(state)``, hashable), each turn's values a
    ``self.turn_values(self, view)``."""

    def turn(self, view):
        """The turn values of ``view`` (the last few are kept)."""
        return _kept(self, view, lambda: self.turn_values(self, view))

    def action_values(self, state):
        """The mover's win probability after each legal action of ``state``."""
        tv = self.turn(self.view(state))
        if state.pending is not None:
            return {a: tv.option(a[1], state.t) for a in state.legal()}
        return {a: tv.action(a, state.s, state.t) for a in state.legal()}

    def best(self, state):
        """The optimal action at ``state``, ties as the solver breaks them."""
        return best_action(state, self.action_values(state))


@dataclass(frozen=True, eq=False)
class RoundsSolution(ViewedSolution):
    """A rules game under the rounds ending with its rounds solve.

    Attributes
    ----------
    game : RulesGame
    result : RoundsResult
    F : ndarray, shape (cap + 1, H)
        Seat 2's final-round start values ``d = 0 .. cap`` behind (row 0:
        level in a tie round).
    tie_value : ndarray, shape (H,)
        A tie's worth to seat 2 (replay: ``1 - T``; earlier-seat: 0).
    hidx : ndarray
        Each turn state's index among the start states (-1: none).
    """

    game: object
    result: object
    F: np.ndarray
    tie_value: np.ndarray
    hidx: np.ndarray

    turn_values = RoundsTurnValues

    def view(self, state):
        """Whose turn ``state`` is, as :class:`RoundsTurnValues` names it."""
        a, b = state.units
        C = self.result.cap
        if state.mover == 0:
            return ("tie1",) if state.tie else ("seat1", a, b)
        if state.tie or a >= self.result.goal:
            return ("final", min(max(a - b, 0), C))
        return ("seat2", b, a)


def solve_rounds(game):
    """Solve ``game`` (2 players, rounds ending): a :class:`RoundsSolution`."""
    from designer.engine import rounds
    from designer.engine.rounds_match import solver_final

    rules = game.rules
    model = rules.model
    r = rounds.solve_rounds_model(model, rules.goal, ties=rules.ties, cap=game.cap)
    lay = rounds._layout(model, r.cap, rounds._order(model))
    tv = 1.0 - r.T if rules.ties == "replay" else np.zeros(len(r.start_states))
    return RoundsSolution(game, r, solver_final(model, lay, r.cap, tv), tv,
                          start_index(model, r.start_states))


def start_index(model, start_states):
    """Each turn state's index among ``start_states`` (-1: none)."""
    hidx = np.full(model.states, -1, dtype=np.int64)
    hidx[start_states] = np.arange(len(start_states))
    return hidx


def evaluate(solution, state, chosen):
    """The :class:`~designer.play.analysis.Decision` of taking ``chosen`` at
    ``state`` (values of every legal action, the optimal one)."""
    from designer.play.analysis import Decision

    values = solution.action_values(state)
    return Decision(state, chosen, best_action(state, values), values)


# -- simple players -----------------------------------------------------------

def expected_gain(state, c):
    """Expected change of the turn total by continuation ``c``, in units: an
    option is taken for its points, an ending outcome adds its points, a bust
    loses the turn total."""
    m, t = state.model, state.t
    total = 0.0
    for o in range(m.out_start[c], m.out_start[c + 1]):
        k = m.out_kind[o]
        if k == BUST:
            d = -t
        elif k == END:
            d = int(m.out_points[o])
        else:
            d = int(m.opt_gain[m.opt_start[o]:m.opt_start[o + 1]].max())
        total += m.out_prob[o] * d
    return total


def most_points(state):
    """The option of most points of the pending outcome (the first listed
    of equal ones)."""
    m, o = state.model, state.pending
    lo = int(m.opt_start[o])
    return ("pick", lo + int(np.argmax(m.opt_gain[lo:m.opt_start[o + 1]])))


def best_gain(state):
    """The continuation of largest :func:`expected_gain` (first listed of
    equal ones), or None if the state has none."""
    goes = [a for a in state.legal() if a[0] == "go"]
    if not goes:
        return None
    gains = [expected_gain(state, a[1]) for a in goes]
    return goes[int(np.argmax(gains))]
