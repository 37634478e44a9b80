"""Two fixed policies head to head over any turn model, exactly.

Policies
--------
``optimal``
    The engine's optimal play: the start table of
    :func:`~designer.engine.solve.solve_model`, and inside a turn the
    argmax of the turn equations (:mod:`designer.engine.model`) over it,
    with the solver's ties (stopping wins a tie except at a turn total of
    0, where continuing wins it; the continuation, and the option of a
    choice, listed first wins a tie).
``hold-at:N``
    Stop once the turn total is at least ``N`` points (a multiple of the
    game's unit, ``N >= unit``) where stopping is allowed; at a turn total
    of 0 the turn goes on. At a choice it takes the option of the largest
    gain (ties: the one listed first); among several continuations, the
    first listed.
``max-score``
    Maximise the expected points banked this turn, whatever the scores
    and the goal: the one-turn problem over ``(s, t)`` solved once by
    backward induction, ``E(s, t) = max(t if stopping is allowed, max_c
    sum_o p_o e_o)`` with ``e_o = 0`` for a bust, ``t + points`` for an end
    and the best option's ``E(s', t + g)`` for a choice. Ties as the
    solver's (the tie scaled by the turn total, these values being points).
    A continuation that can never bust is worth taking at any total: it
    adds ``A_c = sum_o p_o a_o`` in expectation (``a_o`` the best option's
    ``g + L(s')``, or an end's points), and ``L(s) = max(0, max_c A_c)``
    over such continuations is what the turn gains from ``s`` once totals
    are large (0 where every continuation can bust: stop). For every ``t
    >= T* = max_c (A_c - L(s)) / P_c`` over the continuations that can bust
    (``P_c`` their chance to bust, ``A_c`` with the same ``a_o``), ``-P_c t
    + A_c <= L(s)``, so ``E(s, t) = t + L(s)`` (stop, or take the
    continuation that never busts) is the solution there. Past ``T*`` a
    turn goes on only through continuations that never bust, adding at
    most ``R`` points in the turn's states; the table runs to ``T* + g_max
    + R`` (``g_max`` the largest gain of one step), past any total a
    ``max-score`` turn reaches, with ``t + L`` beyond it, and is exact.
    Throws that never bust and lead back where they started while gaining
    (``L`` does not settle) make ``max-score`` undefined: refused.

Every policy banks a winning turn total: a position with ``i + t >= goal``
where stopping is allowed counts as won (the solver's rule).

Evaluation
----------
With both policies fixed the match is a Markov chain on positions
``(i, j, p, s, t)`` (``p``: the policy of the mover). ``X_p(i, j, h)``, the
mover's win probability at a turn start, and ``Y_p(i, j, s, t)`` inside a
turn satisfy the turn equations with every max replaced by the policy's
decision, the opponent's values read from ``X_{1-p}``::

    stop      = 1 - X_{1-p}(j, i + t, handover[s])
    bust      = 1 - X_{1-p}(j, effect(i), out_next[o])
    end       = 1 if i + t + points >= goal else 1 - X_{1-p}(j, i + t + points, out_next[o])
    choose    = Y_p(i, j, s', t + g) of the option the policy picks

Where scores never fall a turn that scores moves the pair of scores
``{i, j}`` to a larger sum, so pairs are evaluated in decreasing order of
``i + j``. Inside a pair the only cycles are busts, passes and empty ends
between the two sides' turn starts; with the solver's plan
(:func:`~designer.engine.solve.plan`) one backward sweep gives every value
as an affine function of the start values at the feedback states, and
that ``2 |F|``-unknown linear system is solved exactly, twice per pair (A
against B, then B against A; once when ``i == j``). Expected actions (each
throw or draw, each stop, the winning stop included) follow the same
equations with ``1 +`` per action.

Speed: with one feedback state (every shipped game) a value is three
numbers, kept in registers by a sweep written for that case
(:func:`designer.engine._match_kernels._chain2`). The turn-start tables are
held as ``X[p, i, h, j]`` with each win beside its action count, so the
stops of one state at ``t = 0, 1, 2, ...`` read neighbours in memory, one
cache line for both numbers: those reads, which miss the cache, were half
of a match's time. Optimal play's side of a deck (simple states) is found
as the solver's simple sweep finds it, its busts summed once per state
(:func:`designer.engine._match_kernels._opt_simple`). Fowl Play's match
took 0.55 s before these changes and 0.20-0.38 s after, on two threads.

Where scores can fall, the pairs are swept again and again in the same
order (each pair exact given the others) until no win probability moves
by more than 1e-12 and no action count by more than 1e-12 of itself; the
last change is reported as the residual.
"""

import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from designer._jit import TIE, TOL, load_first, threads
from designer import memory as mem
from designer.engine import _match_kernels as K
from designer.engine.model import BUST, CHOOSE, END, tiny_model
from designer.engine.policy_tables import table_bytes
from designer.engine.solve import TooLargeError, plan, solve_model
from designer.errors import ConvergenceError, DesignError
from designer.policies.rules import Rule

#: Passes over the table allowed when scores can fall.
MAX_PASSES = 100_000

#: The policy forms a rules game takes (for help and refusals).
FORMS = "optimal, max-score, hold-at:N, rule:RULE, rule:FILE.toml or py:FILE.py:FUNCTION"


@dataclass(frozen=True)
class RulesPolicy:
    """A policy for a rules game: ``kind`` (optimal, hold-at, max-score, a
    table), ``n`` the hold-at threshold in units, ``name`` as the user wrote
    it; ``source`` a table policy's :class:`~designer.policies.rules.Rule`
    or :class:`~designer.engine.policy_tables.FunctionTable`."""

    kind: int
    name: str
    n: int = 0
    source: object = field(default=None, compare=False, repr=False)

    def table(self, model, goal, unit, p):
        """A table policy's decisions over the plan ``p``
        (:mod:`designer.engine.policy_tables`)."""
        from designer.engine.policy_tables import check_table, rule_table

        if isinstance(self.source, Rule):
            tab = rule_table(self.source, model, goal, unit, p)
        else:
            tab = self.source.table(model, goal, unit, p)
        return check_table(tab, model, p, unit, self.name)


def _model_of(game):
    return getattr(getattr(game, "rules", None), "model", None)


def _table_policy(spec, text, game):
    """``rule:RULE``, ``rule:FILE.toml`` or ``py:FILE.py:FUNCTION`` for a
    rules game (its turn state's features read from ``game.rules.model``)."""
    from designer.engine.policy_tables import FunctionTable
    from designer.policies.user import load_function

    model = _model_of(game)
    names = model.feature_names if model is not None else ()
    head, _, rest = spec.strip().partition(":")
    rest = rest.strip()
    if head == "rule":
        if not rest:
            raise DesignError(f"invalid policy {spec!r}: rule: needs a rule, e.g. "
                              f"'rule:k >= 300 -> hold; roll', or a file, rule:FILE.toml")
        looks_like_file = re.fullmatch(r"[\w./~-]+\.[A-Za-z]\w*", rest) is not None
        if rest.endswith(".toml") or looks_like_file or Path(rest).is_file():
            if not rest.endswith(".toml") and not Path(rest).is_file():
                raise DesignError(f"invalid policy {spec!r}: no rule file {rest!r} (rule:FILE.toml, "
                                  f"or a rule written out: 'rule:k >= 300 -> hold; roll')")
            rule = Rule.load(rest, names)
            if rule.family != "rules":
                raise DesignError(f"the rule in {rest!r} is for {rule.family} games, not rules "
                                  f"games like {game.name} (family = \"rules\")")
        else:
            rule = Rule.parse("rules", rest, names)
        return RulesPolicy(K.TABLE, f"rule:{rest}", source=rule)
    path, _, func = rest.rpartition(":")
    if not path or not func:
        raise DesignError(f"invalid policy {spec!r}: use py:FILE.py:FUNCTION")
    try:
        f = load_function(path, func)
    except DesignError as exc:
        raise DesignError(f"policy {spec!r}: {exc}") from None
    return RulesPolicy(K.TABLE, f"py:{func}", source=FunctionTable(f, func, names))


def parse_rules_policy(spec, game):
    """The policy ``spec`` names for the rules game ``game``.

    Raises
    ------
    DesignError
        A form a rules game does not take, or a bad ``N`` (one line naming
        the value and what is allowed).
    """
    if not isinstance(spec, str):
        raise DesignError(f"a policy string is needed, not {type(spec).__name__}")
    text = spec.strip().lower()
    unit = game.unit
    if text == "optimal":
        return RulesPolicy(K.OPTIMAL, "optimal")
    if text.startswith(("rule:", "py:")):
        return _table_policy(spec, text, game)
    if text in ("max-score", "maxscore", "max_score"):
        return RulesPolicy(K.MAX_SCORE, "max-score")
    head, sep, rest = text.partition(":")
    multiple = f", a multiple of {unit}" if unit > 1 else ""
    if sep and head == "hold-at":
        try:
            n = int(rest)
        except ValueError:
            n = None
        if n is None or n < unit or n > 10**9 or n % unit:
            raise DesignError(f"invalid policy {spec!r} for {game.name}: hold-at:N needs an "
                              f"integer turn total in points, {unit} <= N <= 1000000000"
                              f"{multiple}")
        return RulesPolicy(K.HOLD_AT, f"hold-at:{n}", n // unit)
    raise DesignError(f"invalid policy {spec!r} for {game.name} ({game.kind}): allowed "
                      f"{FORMS} (N in points{multiple})")


@dataclass(frozen=True, eq=False)
class RulesMatch:
    """Exact values of a match between policies A and B over a turn model.

    Attributes
    ----------
    win, actions : ndarray, shape (2, n, n, H)
        ``win[p, i - lo, j - lo, h]``: the mover's win probability at a turn
        start from ``start_states[h]`` with ``i`` banked against ``j`` when
        the mover plays A (``p = 0``) or B (``p = 1``); ``actions``: the
        expected actions left in the game.
    start_states : ndarray
    lo : int
        Lowest score held.
    residual : float
        0 where scores never fall; else the last pass's largest change.
    passes : int
    seconds : float
        Wall time of the evaluation kernels.
    optimal_table : ndarray or None
        With ``record``: optimal play's decision table ``(n, n, nodes)``
        (:mod:`designer.engine.policy_tables`' form, below the goal).
    """

    win: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)
    start_states: np.ndarray = field(repr=False)
    lo: int
    residual: float
    passes: int
    seconds: float
    optimal_table: np.ndarray = field(default=None, repr=False)

    def _at(self, arr, p, start):
        h = int(np.searchsorted(self.start_states, 0))
        return float(arr[p, start[0] - self.lo, start[1] - self.lo, h])

    def win_as_first(self, start=(0, 0)):
        """A's win when A moves first; ``start``: the seats' start points (units)."""
        return self._at(self.win, 0, start)

    def win_as_second(self, start=(0, 0)):
        """A's win when B moves first (and takes the first seat's start)."""
        return 1.0 - self._at(self.win, 1, start)

    def actions_as_first(self, start=(0, 0)):
        return self._at(self.actions, 0, start)

    def actions_as_second(self, start=(0, 0)):
        return self._at(self.actions, 1, start)


def start_table(solution):
    """The solve's start values as the match kernels read them,
    ``V[i - lo, h, j - lo]`` (contiguous): a turn's stops at ``t = 0, 1, 2,
    ...`` read neighbours in memory."""
    return np.ascontiguousarray(solution.win.transpose(0, 2, 1))


def _pairs(n):
    """Pairs ``(a, b)``, ``a <= b``, by decreasing ``a + b``, with the group bounds."""
    rows, groups = [], [0]
    for total in range(2 * (n - 1), -1, -1):
        for a in range(max(0, total - (n - 1)), total // 2 + 1):
            rows.append((a, total - a))
        groups.append(len(rows))
    return np.array(rows, dtype=np.int64).reshape(-1, 2), np.array(groups, dtype=np.int64)


def hold_pick(model):
    """For each choice outcome, the option of the largest gain (ties: the
    first listed); 0 for the other outcomes."""
    pick = np.zeros(model.outcomes, dtype=np.int64)
    for o in np.flatnonzero(model.out_kind == CHOOSE):
        a, b = model.opt_start[o], model.opt_start[o + 1]
        pick[o] = a + int(np.argmax(model.opt_gain[a:b]))  # argmax: the first of the largest
    return pick


def max_score_horizon(model):
    """``T* + g_max + R`` of the module docstring: past this turn total
    no ``max-score`` turn goes on. ``(None, state)`` where ``max-score`` is
    not defined (a chain of continuations that never bust gains forever
    from ``state``)."""
    m = model
    owner, state, bust = _continuations(m)
    safe = bust <= 0.0
    reach, L = _large_totals(m, owner, state, safe)
    if L is None:
        return None, reach
    A = _gains(m, owner, L)
    ok = ~safe
    top = float(np.max((A[ok] - L[state[ok]]) / bust[ok])) if np.any(ok) else 0.0
    T = int(math.ceil(top)) + 1
    if np.any(L > 0):  # turns go on past T* through continuations that never bust
        T += max(int(m.opt_gain.max(initial=0)), 1) + reach
    return T, None


def _continuations(model):
    """Per outcome its continuation, per continuation its state and its
    chance to bust."""
    owner = np.repeat(np.arange(model.continuations), np.diff(model.out_start))
    state = np.repeat(np.arange(model.states), np.diff(model.cont_start))
    bust = np.bincount(owner, weights=np.where(model.out_kind == BUST, model.out_prob, 0.0),
                       minlength=model.continuations)
    return owner, state, bust


def _gains(model, owner, L):
    """Per continuation, ``A_c = sum_o p_o a_o``: a choice's best option's
    ``g + L(s')``, an end's points, a bust 0."""
    m = model
    a = np.where(m.out_kind == END, m.out_points, 0).astype(float)
    choose = np.flatnonzero(m.out_kind == CHOOSE)
    if len(choose):  # the options of the choice outcomes lie one after another
        a[choose] = np.maximum.reduceat(m.opt_gain + L[m.opt_next], m.opt_start[choose])
    return np.bincount(owner, weights=m.out_prob * a, minlength=m.continuations)


def _large_totals(model, owner, state, safe):
    """``(R, L)``: ``L(s)``, what a turn gains from ``s`` at large totals
    through continuations that never bust (``safe``), and ``R``, the most
    points such a turn can add in the turn's states before it stops (the
    largest ``R(s) = max g + R(s')`` over the options of the continuations
    that never bust, where ``L(s) > 0``). Each by sweeps from 0 until it
    settles; ``(s, None)`` when one does not settle in ``S + 1`` sweeps
    (throws that never bust lead back to ``s`` gaining)."""
    S = model.states
    L = np.zeros(S)
    if not safe.any():
        return 0, L
    for _ in range(S + 2):
        new = np.zeros(S)
        np.maximum.at(new, state[safe], _gains(model, owner, L)[safe])
        if np.array_equal(new, L):
            break
        grew, L = new > L, new
    else:
        return int(np.flatnonzero(grew)[0]), None
    m = model
    choose = np.flatnonzero(m.out_kind == CHOOSE)
    moves = choose[safe[owner[choose]] & (L[state[owner[choose]]] > 0)]
    R = np.zeros(S)
    for _ in range(S + 2):
        new = np.zeros(S)
        if len(moves):
            far = np.maximum.reduceat(m.opt_gain + R[m.opt_next], m.opt_start[choose])
            np.maximum.at(new, state[owner[moves]], far[np.searchsorted(choose, moves)])
        if np.array_equal(new, R):
            return int(R.max()), L
        grew, R = new > R, new
    return int(np.flatnonzero(grew)[0]), None


def defined_horizon(model, name, instead):
    """:func:`max_score_horizon`'s total, or a :class:`DesignError` naming
    the game ``name`` and what to use ``instead`` where ``max-score`` is
    not defined."""
    horizon, bad = max_score_horizon(model)
    if horizon is None:
        raise DesignError(f"max-score is not defined for {name}: from {model.describe(bad)} "
                          f"throws or draws that can never bust gain points and lead back "
                          f"there, so a turn that maximises its points never stops; use "
                          f"{instead}")
    return horizon


def large_total_gains(model):
    """``L(s)`` of the module docstring (zeros where ``max-score`` is not
    defined)."""
    owner, state, bust = _continuations(model)
    L = _large_totals(model, owner, state, bust <= 0.0)[1]
    return np.zeros(model.states) if L is None else L


def max_score_table(model, p, horizon):
    """``max-score``'s one-turn table over ``t < horizon``: ``(E, stop, cont)``
    (:func:`designer.engine._match_kernels.max_score_table`)."""
    S = model.states
    E = np.zeros((S, horizon))
    stop = np.zeros((S, horizon), dtype=np.bool_)
    cont = np.zeros((S, horizon), dtype=np.int64)
    K.max_score_table(horizon, model.min_bank, TIE, model.cont_start, model.out_start,
                      model.out_prob, model.out_kind, model.out_points, model.opt_start,
                      model.opt_gain, model.opt_next, p["pass_ok"], p["blk_ptr"],
                      p["blk_states"], large_total_gains(model), E, stop, cont)
    return E, stop, cont


def max_score_arrays(model, p, goal, name, needed):
    """``(horizon, E, stop, cont)`` of :func:`max_score_table` for a match
    to ``goal`` over the plan ``p`` (the horizon at least past the goal);
    one-cell placeholders where ``max-score`` does not play (``needed``
    False).

    Raises
    ------
    DesignError
        ``max-score`` where it is not defined (a continuation that gains
        and never busts)."""
    if not needed:
        return (1, np.zeros((1, 1)), np.zeros((1, 1), dtype=np.bool_),
                np.zeros((1, 1), dtype=np.int64))
    horizon = defined_horizon(model, name, "hold-at:N, a rule: or a py: policy")
    horizon = max(horizon, max(goal - p["lo"], model.min_bank) + 1)
    return (horizon, *max_score_table(model, p, horizon))


def endless(text, forced_first, min_bank):
    """The error of a match that can go on for ever: ``text``, and why
    when a turn may pass (a turn's first throw or draw not forced, no
    minimum bank: players can hand the same turn start back and forth)."""
    if not forced_first and min_bank == 0:
        text += ("; a turn may pass there, so the players can pass to each other for ever "
                 "(forced_first = true under [turn] makes every turn throw or draw)")
    return ConvergenceError(text)


def _warm():
    """Load (or compile) the kernels once, so ``seconds`` is evaluation time."""
    load_first((K.match_pairs, K.max_score_table), lambda: match_model(
        tiny_model(), 2, RulesPolicy(K.MAX_SCORE, "max-score"),
        RulesPolicy(K.HOLD_AT, "hold-at:1", 1), _timed=False))


def match_model(model, goal, a, b, *, solution=None, memory_limit=None, name="this game",
                unit=1, record=False, progress=None, _timed=True):
    """Evaluate policy ``a`` against policy ``b`` over ``model`` to ``goal`` exactly.

    Parameters
    ----------
    model : TurnModel
    goal : int
        Goal in units.
    a, b : RulesPolicy
    solution : EngineResult, optional
        The engine's solve of ``(model, goal)`` for ``optimal`` (solved
        otherwise).
    name : str
        The game, for error messages.
    unit : int
        Points per unit of score (what a rule or a function reads is in
        points).
    record : bool
        Keep optimal play's decisions (``optimal_table``) when a policy is
        ``optimal``, for the agreement.
    progress : callable, optional
        ``progress(passes, change)`` after every pass where scores can fall
        (``change``: the largest change of a win).

    Returns
    -------
    RulesMatch

    Raises
    ------
    DesignError
        ``max-score`` on a game where it is not defined (a continuation
        that gains and never busts), or a match whose turns can go on
        forever (both policies pass at 0, say).
    TooLargeError
        Tables over ``memory_limit``.
    """
    memory_limit = mem.resolve(memory_limit)
    goal = int(goal)
    kinds = (a.kind, b.kind)
    need_opt = K.OPTIMAL in kinds
    if need_opt and solution is None:
        solution = solve_model(model, goal, 0, memory_limit=memory_limit)
    p = plan(model, goal)
    n, H, nodes = p["n"], p["H"], p["nodes"]
    nt = threads()
    outs = model.out_start[model.cont_start[1:]] - model.out_start[model.cont_start[:-1]]
    picks = int((p["node_len"] * outs).sum()) if need_opt else 0
    # the two tables (wins and actions), the optimal one and its copy in the
    # kernels' order, and per thread both sides' in-turn values (affine, wins
    # and actions), decisions and option picks
    need = (6 * n * n * H + nt * 2 * (nodes * (2 * p["K"] + 5) + picks)) * 8
    record = bool(record) and need_opt
    need += (sum(pol.kind == K.TABLE for pol in (a, b)) + record) * table_bytes(p)
    if need > memory_limit:
        raise TooLargeError(f"comparing policies on {name} needs {need / 2**20:,.0f} MB, over "
                            f"the limit of {mem.limit_text(memory_limit)}")
    horizon, E, mstop, mcont = max_score_arrays(model, p, goal, name, K.MAX_SCORE in kinds)
    V = start_table(solution) if need_opt else np.zeros((1, 1, 1))
    if need_opt and solution.floor != p["lo"]:
        raise DesignError("the optimal solve does not match the plan's scores")
    cf = np.zeros(K.CF_LEN, dtype=np.int64)
    cf[K.CF_GOAL], cf[K.CF_LO], cf[K.CF_MIN_BANK] = goal, p["lo"], model.min_bank
    cf[K.CF_FORCED], cf[K.CF_TC] = int(model.forced_first), horizon
    cf[K.CF_KIND_A], cf[K.CF_KIND_B] = kinds
    cf[K.CF_HOLD_A], cf[K.CF_HOLD_B] = a.n, b.n
    tabs = []
    for side, pol in enumerate((a, b)):
        if pol.kind == K.TABLE:
            cf[K.CF_TAB_A + side] = len(tabs)
            tabs.append(pol.table(model, goal, unit, p))
    tabs = np.stack(tabs) if tabs else np.zeros((1, 1, 1, 1), dtype=np.int8)
    D = (np.zeros((n, n, max(nodes, 1)), dtype=np.int8) if record
         else np.zeros((1, 1, 1), dtype=np.int8))
    node_s = np.repeat(np.arange(model.states), p["node_len"]).astype(np.int64)
    pick = hold_pick(model)
    # where optimal play records its option at each choice outcome of a node
    outs = model.out_start[model.cont_start[1:]] - model.out_start[model.cont_start[:-1]]
    size = p["node_len"] * outs
    obase = np.concatenate(([0], np.cumsum(size)[:-1])).astype(np.int64)
    onodes = max(int(size.sum()), 1) if need_opt else 1
    pairs, groups = _pairs(n)
    # held as X[p, i, h, j] in the kernels (as the solve's table): a turn's
    # stops at t = 0, 1, 2, ... read X[p, j, h, i + t], neighbours in memory;
    # and the win and the actions of a position side by side, so that a
    # stop's two reads meet one cache line (they were half a match's time)
    XL = np.zeros((2, n, H, n, 2))
    X, L = XL[..., 0], XL[..., 1]
    X[:] = 0.5 if model.falls else 0.0
    out = np.zeros((len(pairs), 3))
    if _timed:
        _warm()
    t0 = time.perf_counter()
    passes, residual = 0, 0.0
    while True:
        out[:] = 0.0
        _run(model, p, pairs, groups, nt, need_opt, cf, obase, onodes, pick, E, mstop, mcont,
             tabs, V, X, L, out, node_s, D)
        passes += 1
        if np.any(out[:, 2]):
            bad = pairs[int(np.flatnonzero(out[:, 2])[0])] + p["lo"]
            raise endless(f"{a.name} against {b.name} on {name}: the turns at scores "
                          f"{tuple(int(v) for v in bad)} can go on forever (no turn "
                          f"there ever ends with a score or a win)",
                          model.forced_first, model.min_bank)
        if not model.falls:
            break
        residual = float(out[:, 0].max())
        if progress is not None:
            progress(passes, residual)
        if residual <= TOL and float(out[:, 1].max()) <= TOL:
            break
        if passes >= MAX_PASSES:
            raise ConvergenceError(f"the match table still moves by {residual:.1e} after "
                                   f"{passes} passes")
    seconds = time.perf_counter() - t0
    return RulesMatch(X.transpose(0, 1, 3, 2), L.transpose(0, 1, 3, 2), p["starts"], p["lo"],
                      residual, passes, seconds, D if record else None)


def _run(model, p, pairs, groups, nt, need_opt, cf, obase, onodes, pick, E, mstop, mcont, tabs,
         V, X, L, out, node_s, D):
    args = (pairs, groups, nt, need_opt, cf, TIE, model.cont_start, model.out_start,
            model.out_prob, model.cont_throws, model.out_kind, model.out_points, p["out_h"], model.out_effect,
            model.out_penalty, model.opt_start, model.opt_gain, model.opt_next, p["hand_h"],
            p["pass_ok"], p["hidx"], p["fb"], p["fh"], p["blk_ptr"], p["blk_states"],
            p["blk_tmax"], p["node_base"], p["node_len"], obase, onodes, pick, E, mstop, mcont,
            tabs, V, X, L, p["nodes"], out, node_s, D, p["st"], p["oq"], p["opt_nb"], p["simple"])
    K.match_pairs(*args)


__all__ = ["FORMS", "RulesMatch", "RulesPolicy", "defined_horizon", "match_model",
           "max_score_horizon", "parse_rules_policy"]
