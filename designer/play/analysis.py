"""Exact value of each action at a played position, and the worst decision.

For a deck state ``(i, j, k, w, c)`` with ``k > 0``::

    D = c_rem/(w_rem+c_rem) * P(i, j, k+1, w, c+1)
      + w_rem/(w_rem+c_rem) * (1 - P(j, i, 0, w', c'))   (w', c') = (w+1, c) or (0, 0)
    H = 1 - P(j, i+k, 0, w, c)

read from :meth:`DeckSolution.win_probability`. For a dice state
``(i, j, k)``, with ``p_b`` the bust probability::

    R = p_b * (1 - P(j, i, 0)) + sum_f P(i, j, k+f) / faces
    H = 1 - P(j, i+k, 0)

with in-turn values rebuilt from the solved turn-start table
(:func:`dice_turn_values`). The cost of a decision is ``max(D, H)`` minus the
value of the action taken (0 when it was optimal or tied).

With N seats (a :class:`~designer.solve.solution.SeatSolution`)
every value is the mover's OWN win probability, as the max-n mover compares
it. With ``S = (s_0, ..., s_{N-1})`` the scores from the mover on, a bust
passes the turn to the next seat at ``S' = (s_1, ..., s_{N-1}, s_0)`` and a
hold at ``(s_1, ..., s_{N-1}, s_0 + k)``; there the mover is the seat
``N - 1`` places after the new mover, so its value is entry ``N - 1`` of the
solved turn-start vector ``win[S', <turn start>]``. Decks: along the chain of
good draws of the turn from ``(w, c0)`` (:func:`seat_chain_values`); dice:
backward over ``k`` (:func:`seat_dice_values`), as for two seats.
"""

from dataclasses import dataclass

import numpy as np

from designer._jit import TIE


def dice_turn_values(solution, i, j):
    """Optimal win probability of the mover at ``(i, j, k)`` for every ``k``.

    Returns an array indexed by ``k = 0 .. goal - i`` (1 from ``goal - i``).
    """
    g = solution.game
    need = g.goal - i
    pips = [f for f in range(1, g.faces + 1) if f not in g.bust_faces]
    pb = len(g.bust_faces) / g.faces
    bust = 1.0 - solution.win[j, i]
    v = np.ones(need + 1)
    for k in range(need - 1, -1, -1):
        r = pb * bust + sum(v[min(k + f, need)] for f in pips) / g.faces
        h = 1.0 - solution.win[j, i + k] if k > 0 else bust
        v[k] = r if r > h + TIE else h
    return v


def _seat_win(solution, scores, turn=()):
    """The mover's own win probability at the turn start of the NEXT seat,
    reached with the mover's scores ``scores`` (the mover first): the entry
    ``N - 1`` of the next mover's solved value vector."""
    nxt = tuple(int(v) for v in scores[1:]) + (int(scores[0]),)
    return float(solution.win[nxt + tuple(turn) + (solution.players - 1,)])


def seat_chain_values(solution, scores, w, c0):
    """Draw and hold values of an N-seat deck turn from ``(scores, w, c0)``.

    Parameters
    ----------
    solution : SeatSolution
        The exact max-n solve of a deck game.
    scores : tuple of int
        The scores from the mover on.
    w, c0 : int
        Bad and good items drawn since the shuffle at the turn start.

    Returns
    -------
    (ndarray, ndarray)
        ``D[t]``, ``H[t]`` for ``t = 0 .. last`` good draws this turn: the
        mover's win probability after drawing and after holding (``H[0]``
        is -1: the first draw is forced).
    """
    g = solution.game
    i = scores[0]
    need, left = g.goal - i, g.good - c0
    last, nv = (need - 1, 1.0) if need <= left else (left, 0.0)
    w_rem = g.bad - w
    nw = w + 1 if w + 1 < g.bad else 0
    D, H = np.empty(last + 1), np.empty(last + 1)
    for t in range(last, -1, -1):
        c = c0 + t
        c_rem = g.good - c
        pg = c_rem / (w_rem + c_rem)
        nc = c if w + 1 < g.bad else 0
        D[t] = pg * nv + (1.0 - pg) * _seat_win(solution, scores, (nw, nc))
        if t == 0:
            H[t] = -1.0
        else:
            H[t] = _seat_win(solution, (i + t,) + tuple(scores[1:]), (w, c))
        nv = D[t] if t == 0 or D[t] > H[t] + TIE else H[t]
    return D, H


def seat_dice_values(solution, scores):
    """The mover's win probability at ``(scores, k)`` for every ``k`` of an
    N-seat dice turn (max-n, ties hold): an array indexed by
    ``k = 0 .. goal - s_0`` (1 from ``goal - s_0``)."""
    g = solution.game
    i = scores[0]
    need = g.goal - i
    pips = [f for f in range(1, g.faces + 1) if f not in g.bust_faces]
    pb = len(g.bust_faces) / g.faces
    bust = _seat_win(solution, scores)
    v = np.ones(need + 1)
    for k in range(need - 1, -1, -1):
        r = pb * bust + sum(v[min(k + f, need)] for f in pips) / g.faces
        h = _seat_win(solution, (i + k,) + tuple(scores[1:])) if k > 0 else bust
        v[k] = r if r > h + TIE else h
    return v


def _seat_action_values(solution, state):
    """:func:`action_values` with N seats (a SeatSolution)."""
    g = state.game
    N = solution.players
    view = state.mover_view()
    scores, k = view[:N], view[N]
    if state.family == "deck":
        w, c = view[N + 1:]
        D, H = seat_chain_values(solution, scores, w, c - k)
        out = {"draw": float(D[k])}
        if k > 0:
            out["hold"] = float(H[k])
        return out
    v = seat_dice_values(solution, scores)
    need = g.goal - scores[0]
    pips = [f for f in range(1, g.faces + 1) if f not in g.bust_faces]
    pb = len(g.bust_faces) / g.faces
    bust = _seat_win(solution, scores)
    roll = pb * bust + sum(v[min(k + f, need)] for f in pips) / g.faces
    hold = _seat_win(solution, (scores[0] + k,) + tuple(scores[1:])) if k > 0 else bust
    return {"roll": float(roll), "hold": float(hold)}


def action_values(solution, state):
    """Win probability of the mover after each legal action, as a dict.

    Parameters
    ----------
    solution : DeckSolution, DiceSolution or SeatSolution
        The exact solve of ``state.game`` (a SeatSolution for three or four
        seats: the values are the mover's own win probability).
    state : DeckState or DiceState
        A position with the game not over.
    """
    if state.players > 2:
        return _seat_action_values(solution, state)
    g = state.game
    if state.family == "deck":
        i, j, k, w, c = state.mover_view()
        w_rem, c_rem = g.bad - w, g.good - c
        nw, nc = (w + 1, c) if w + 1 < g.bad else (0, 0)
        p_bad = 1.0 - solution.win_probability(j, i, 0, nw, nc)
        p_good = 1.0 if i + k + 1 >= g.goal or c_rem == 0 else \
            solution.win_probability(i, j, k + 1, w, c + 1)
        out = {"draw": (c_rem * p_good + w_rem * p_bad) / (w_rem + c_rem)}
        if k > 0:
            out["hold"] = 1.0 - solution.win_probability(j, i + k, 0, w, c)
        return out
    i, j, k = state.mover_view()
    v = dice_turn_values(solution, i, j)
    need = g.goal - i
    pips = [f for f in range(1, g.faces + 1) if f not in g.bust_faces]
    pb = len(g.bust_faces) / g.faces
    roll = pb * (1.0 - solution.win[j, i]) + sum(v[min(k + f, need)] for f in pips) / g.faces
    hold = 1.0 - solution.win[j, i + k] if k > 0 else 1.0 - solution.win[j, i]
    return {"roll": float(roll), "hold": float(hold)}


@dataclass(frozen=True)
class Decision:
    """One choice the human made, valued exactly.

    Attributes
    ----------
    state : DeckState or DiceState
        The position (the human to move).
    chosen : str
        The action taken.
    best : str
        The optimal action (the solver's, ties resolved to hold).
    values : dict
        Win probability after each legal action.
    """

    state: object
    chosen: str
    best: str
    values: dict

    @property
    def cost(self):
        """Win probability lost by the choice (0 if it was optimal)."""
        return max(0.0, self.values[self.best] - self.values[self.chosen])


def evaluate(solution, state, chosen):
    """The :class:`Decision` for taking ``chosen`` at ``state``.

    The best action is the one of larger value at ``state`` (ties hold), for
    any number of seats. Past the turn total at which the optimal player
    would already have held in this turn (a position only a human reaches)
    the compact deck policy does not say what is best; the values do.
    """
    values = action_values(solution, state)
    draw = "draw" if state.family == "deck" else "roll"
    best = draw if draw in values and (
        "hold" not in values or values[draw] > values["hold"] + TIE) else "hold"
    return Decision(state, chosen, best, values)


def worst_decision(decisions, tol=1e-12):
    """The decision that cost the most win probability, or None if none cost
    more than ``tol`` (the first of equally costly ones)."""
    worst = None
    for d in decisions:
        if d.cost > tol and (worst is None or d.cost > worst.cost):
            worst = d
    return worst
