"""How often two policies of a rules game decide alike.

The agreement of policies A and B is the share of **decision positions**
where they take the same action: positions ``(i, j, s, t)`` of the mover's
score, the opponent's, the turn state and the turn total, below the goal,
where the mover has a choice: it may stop (not below the minimum bank, not
the forced first throw, at ``t = 0`` only where passing is allowed) and may
go on, or it has two ways or more to go on (Hog's number of dice); the
action is to stop or which way to go on (where stopping is not allowed, a
policy that would stop goes on its first way). Each position counts once,
reached or not, as the agreement of the deck and dice games counts their
states.

Each policy's decisions are one table over the solver's plan
(:mod:`designer.engine.policy_tables`): a rule's or a function's own,
``hold-at:N``'s threshold, ``max-score``'s one-turn table, and optimal
play's, read from the solved start table with the solver's ties
(:func:`designer.engine._match_kernels.optimal_decisions`).

Under the rounds ending (:func:`rounds_agreement`) the seats differ (seat 1
moves first in a round, seat 2 answers it), so a position is also the seat:
``(q, i, j, s, t)``, seat ``q`` to move with its own score ``i`` and the
other's ``j``, both below the goal (the open rounds), where the mover has
a choice; seat 1's turn runs to the score cap of a match of
rules (:func:`designer.engine.rounds_match.table_cap`), seat 2's until
holding wins the game (from there every policy holds). Optimal play's
decisions there are the ones the rounds match records as it plays
(:func:`designer.engine.rounds_match.match_rounds_model` with ``record``).
"""

import numpy as np

from designer._jit import TIE, threads
from designer.engine import _match_kernels as K
from designer.engine.match import max_score_horizon, max_score_table, start_table
from designer.engine.policy_tables import layout


def _choices(model, node_s, node_t, pass_ok):
    """Per node: ``(may_stop, choice)``, whether stopping is allowed there,
    and whether the mover has a choice (module docstring)."""
    ncont = np.diff(model.cont_start)[node_s]
    may_stop = (node_t >= model.min_bank) & ((node_t > 0) | pass_ok[node_s].astype(bool))
    return may_stop, (may_stop & (ncont > 0)) | (ncont > 1)


def _as_played(d, may_stop):
    """Decisions ``d`` as a match plays them: where stopping is not allowed,
    a stop (0) goes on the first way (1)."""
    return np.where(may_stop, d, np.maximum(d, 1))


def _share(mask, may_stop, da, db):
    """``(share, positions)``: the share of the positions of ``mask`` where
    the decisions ``da`` and ``db``, as played (``may_stop`` per node),
    are the same, and how many positions there are."""
    total = int(mask.sum())
    if total == 0:
        return 1.0, 0
    same = _as_played(da, may_stop) == _as_played(db, may_stop)
    return float((same & mask).sum()) / total, total


def _positions(model, goal, p):
    """``(mask, may_stop)``: the mask ``(n, n, nodes)`` of the decision
    positions (module docstring) and, per node, whether stopping is
    allowed."""
    n, lo = p["n"], p["lo"]
    node_s, node_t = layout(p)
    may_stop, per_node = _choices(model, node_s, node_t, p["pass_ok"])
    below_goal = (lo + np.arange(n))[:, None] + node_t[None, :] < goal  # (a, node)
    return np.broadcast_to(per_node[None, None, :] & below_goal[:, None, :],
                           (n, n, len(node_s))), may_stop


def decision_positions(model, goal, p):
    """Mask ``(n, n, nodes)`` of the decision positions (module docstring)."""
    return _positions(model, goal, p)[0]


def decisions(pol, model, goal, unit, p, solution=None, optimal_table=None):
    """Policy ``pol``'s decision table ``(n, n, nodes)``: 0 stop, ``c`` its
    ``c``-th way to go on (``optimal_table``: optimal play's, recorded by a
    match, else computed from ``solution``)."""
    n = p["n"]
    node_s, node_t = layout(p)
    nodes = max(len(node_s), 1)
    if pol.kind == K.TABLE:
        return pol.table(model, goal, unit, p)
    if pol.kind == K.HOLD_AT:
        go = (node_t < pol.n).astype(np.int8)
        return np.broadcast_to(go[None, None, :], (n, n, nodes))
    if pol.kind == K.MAX_SCORE:
        horizon, _ = max_score_horizon(model)
        horizon = max(horizon, max(goal - p["lo"], model.min_bank) + 1)
        _, stop, cont = max_score_table(model, p, horizon)
        go = _max_score_go(model, node_s, node_t, stop, cont, horizon)
        return np.broadcast_to(go[None, None, :], (n, n, nodes))
    if optimal_table is not None:
        return optimal_table
    D = np.zeros((n, n, nodes), dtype=np.int8)
    outs = model.out_start[model.cont_start[1:]] - model.out_start[model.cont_start[:-1]]
    size = p["node_len"] * outs
    obase = np.concatenate(([0], np.cumsum(size)[:-1])).astype(np.int64)
    K.optimal_decisions(n, threads(), goal, p["lo"], model.min_bank, TIE, model.cont_start,
                        model.out_start, model.out_prob, model.out_kind, model.out_points,
                        p["out_h"], model.out_effect, model.out_penalty, model.opt_start,
                        model.opt_gain, model.opt_next, p["hand_h"], p["pass_ok"],
                        p["blk_ptr"], p["blk_states"], p["blk_tmax"], p["node_base"],
                        p["node_len"], obase, node_s.astype(np.int64), start_table(solution),
                        max(int(size.sum()), 1), D, p["oq"], p["st"], p["simple"])
    return D


def _max_score_go(model, node_s, node_t, stop, cont, horizon):
    """``max-score``'s decision per node from its one-turn table over
    ``t < horizon``: 0 stop, ``c`` the ``c``-th way to go on (the first
    where its table names none). From ``horizon - 1`` on (past ``T*``)
    every total decides alike: go on where a continuation never busts,
    else stop."""
    t = np.minimum(node_t, horizon - 1)
    c = cont[node_s, t]
    go = np.where(c >= 0, c - model.cont_start[node_s] + 1, 1)
    return np.where(stop[node_s, t], 0, go).astype(np.int8)


def agreement(model, goal, a, b, *, unit=1, solution=None, optimal_table=None):
    """``(share, positions)``: the share of the decision positions where
    policies ``a`` and ``b`` (:class:`~designer.engine.match.RulesPolicy`)
    decide alike, and how many positions there are; ``solution`` the
    engine's solve, for ``optimal`` (or ``optimal_table``, its decisions
    recorded by :func:`~designer.engine.match.match_model`)."""
    from designer.engine.solve import plan

    p = plan(model, goal)
    mask, may_stop = _positions(model, goal, p)
    if not mask.any():
        return 1.0, 0
    return _share(mask, may_stop, decisions(a, model, goal, unit, p, solution, optimal_table),
                  decisions(b, model, goal, unit, p, solution, optimal_table))


def _rounds_positions(model, goal, cap, tp):
    """``(mask, may_stop)`` of :func:`rounds_decision_positions`, with
    whether stopping is allowed at each node."""
    from designer.engine.solve import _edges

    node_s, node_t = layout(tp)
    may_stop, per_node = _choices(model, node_s, node_t, _edges(model)[2])
    ends = np.array([cap, goal])[:, None, None]  # seat 1: the cap; seat 2: a winning hold
    inside = np.arange(goal)[None, :, None] + node_t[None, None, :] < ends  # (q, i, node)
    return np.broadcast_to((per_node[None, None, :] & inside)[:, :, None, :],
                           (2, goal, goal, len(node_s))), may_stop


def rounds_decision_positions(model, goal, cap, tp):
    """Mask ``(2, goal, goal, nodes)`` of the decision positions under the
    rounds ending (module docstring) over the nodes of ``tp``
    (:func:`designer.engine.rounds_match.table_plan` at ``cap``)."""
    return _rounds_positions(model, goal, cap, tp)[0]


def rounds_decisions(pol, model, goal, unit, tp, optimal_table=None):
    """Policy ``pol``'s decisions ``(2, goal, goal, nodes)`` under the rounds
    ending (0 stop, ``c`` its ``c``-th way to go on), as the rounds match
    plays them: a table policy reads the mover's score and the other's,
    ``hold-at`` and ``max-score`` the turn alone (``max-score`` stops from
    its horizon on), optimal play from ``optimal_table``."""
    node_s, node_t = layout(tp)
    shape = (2, goal, goal, max(len(node_s), 1))
    if pol.kind == K.TABLE:
        return np.broadcast_to(pol.table(model, goal, unit, tp)[None, :goal, :goal], shape)
    if pol.kind == K.HOLD_AT:
        return np.broadcast_to((node_t < pol.n).astype(np.int8), shape)
    if pol.kind == K.MAX_SCORE:
        from designer.engine.solve import plan

        horizon, _ = max_score_horizon(model)
        Tc = max(horizon, model.min_bank + 1)
        _, stop, cont = max_score_table(model, plan(model, goal), Tc)
        return np.broadcast_to(_max_score_go(model, node_s, node_t, stop, cont, Tc), shape)
    if optimal_table is None:
        raise ValueError("optimal play's decisions under the rounds ending come from a match "
                         "that records them")
    return optimal_table


def rounds_agreement(model, goal, a, b, match, *, unit=1):
    """``(share, positions)`` of :func:`agreement` under the rounds ending
    (module docstring): policies ``a`` and ``b`` over the open rounds of
    ``match`` (:func:`~designer.engine.rounds_match.match_rounds_model` of
    the same policies, with ``record`` where one is optimal: its cap and
    optimal play's decisions)."""
    from designer.engine.rounds_match import table_cap, table_plan

    # (a match where scores fall to a floor below 0 lays its nodes out to
    # the cap less the floor: ``plan_cap``)
    tp = table_plan(model, getattr(match, "plan_cap", match.cap))
    # seat 1's positions up to the cap of a match of rules (a fixed policy's
    # match may raise its own cap), so that the count does not depend on it
    mask, may_stop = _rounds_positions(model, goal, min(match.cap, table_cap(model, goal)), tp)
    return _share(mask, may_stop, rounds_decisions(a, model, goal, unit, tp, match.optimal_table),
                  rounds_decisions(b, model, goal, unit, tp, match.optimal_table))


__all__ = ["agreement", "decision_positions", "decisions", "rounds_agreement",
           "rounds_decision_positions", "rounds_decisions"]
