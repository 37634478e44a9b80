"""Exact value of each action at a played position, and the worst decision.

For a deck state ``(i, j, k, w, c)`` with ``k > 0`` (SPEC 1.1)::

    D = c_rem/(w_rem+c_rem) * P(i, j, k+1, w, c+1)
      + w_rem/(w_rem+c_rem) * (1 - P(j, i, 0, w', c'))   (w', c') = (w+1, c) or (0, 0)
    H = 1 - P(j, i+k, 0, w, c)

read from :meth:`DeckSolution.win_probability`. For a dice state
``(i, j, k)`` (SPEC 1.2), with ``p_b`` the bust probability::

    R = p_b * (1 - P(j, i, 0)) + sum_f P(i, j, k+f) / faces
    H = 1 - P(j, i+k, 0)

with in-turn values rebuilt from the solved turn-start table
(:func:`dice_turn_values`). The cost of a decision is ``max(D, H)`` minus the
value of the action taken (0 when it was optimal or tied).
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


def action_values(solution, state):
    """Win probability of the mover after each legal action, as a dict.

    Parameters
    ----------
    solution : DeckSolution or DiceSolution
        The exact solve of ``state.game``.
    state : DeckState or DiceState
        A position with the game not over.
    """
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
    """The :class:`Decision` for taking ``chosen`` at ``state``."""
    values = action_values(solution, state)
    return Decision(state, chosen, solution.decision(*state.mover_view()), values)


def worst_decision(decisions, tol=1e-12):
    """The decision that cost the most win probability, or None if none cost
    more than ``tol`` (the first of equally costly ones)."""
    worst = None
    for d in decisions:
        if d.cost > tol and (worst is None or d.cost > worst.cost):
            worst = d
    return worst
