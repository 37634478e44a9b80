"""Solution objects: what one exact solve knows, read off by goal and komi.

The game depends only on the points each player still needs, so the table
solved for goal ``G`` answers every goal ``g <= G`` and every komi: the first
player of the game (g, komi) sits at scores ``(G - g, G - g + komi)``.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from designer.errors import ParameterError
from designer.games._validate import check_int
from designer.solve.compact import CompactPolicy


@dataclass(frozen=True, eq=False)
class Solution:
    """Exact optimal play of one game, for every goal up to ``game.goal``.

    Attributes
    ----------
    game : DeckGame or DiceGame
        The solved rules (its ``goal`` is the largest goal answered).
    win : ndarray
        Win probability of the mover at every turn start: shape
        ``(goal, goal, bad, good + 1)`` for decks, ``(goal, goal)`` for dice.
    actions : ndarray
        Expected remaining actions (draws/rolls and holds) under optimal
        play by both sides, same shape as ``win``.
    policy : ndarray
        Decks: int16 draws-before-hold per turn start (same shape as
        ``win``). Dice: bool ``roll[i, j, k]``.
    residual : float
        Largest Bellman residual over all score pairs at the end of the solve.
    sweeps : int
        Backward sweeps performed in all.
    seconds : float
        Wall time of the kernel.
    states : int
        Number of non-terminal states ``(i, j, k, ...)`` covered.
    """

    game: object
    win: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    residual: float
    sweeps: int
    seconds: float
    states: int

    # -- reading the goal x komi plane -------------------------------------
    def _start(self, goal, komi):
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        komi = check_int("komi", komi, 0, goal - 1)
        return G - goal, G - goal + komi

    def first_player_win(self, goal=None, komi=0):
        """Probability that the first mover wins under optimal play.

        Parameters
        ----------
        goal : int, optional
            Any goal ``1 <= goal <= game.goal`` (default: the solved goal).
        komi : int
            Points the second player starts with, ``0 <= komi < goal``.
        """
        i, j = self._start(goal, komi)
        return float(self.win[(i, j) + (0,) * (self.win.ndim - 2)])

    def expected_actions(self, goal=None, komi=0):
        """Expected number of actions in a game between optimal players."""
        i, j = self._start(goal, komi)
        return float(self.actions[(i, j) + (0,) * (self.actions.ndim - 2)])

    def _komi_column(self, goal):
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        o = G - goal
        idx = (o, slice(o, G)) + (0,) * (self.win.ndim - 2)
        return goal, self.win[idx], self.actions[idx]

    def fair_komi(self, goal=None):
        """The komi whose first-player win is closest to 1/2 (smallest on ties)."""
        _, win, _ = self._komi_column(goal)
        return int(np.argmin(np.abs(win - 0.5)))

    def komi_table(self, goal=None, max_komi=None):
        """First-player win and expected actions for komi 0..max_komi.

        Returns
        -------
        pandas.DataFrame
            Columns ``komi``, ``first_player_win``, ``expected_actions``.
        """
        goal, win, act = self._komi_column(goal)
        n = goal if max_komi is None else min(goal, check_int("max_komi", max_komi, 0) + 1)
        return pd.DataFrame({"komi": np.arange(n), "first_player_win": win[:n],
                             "expected_actions": act[:n]})

    def to_frame(self):
        """Every (goal, komi) design the solve answers, one row each.

        Returns
        -------
        pandas.DataFrame
            Columns: the game's other parameters, ``goal``, ``komi``,
            ``first_player_win``, ``expected_actions``.
        """
        frames = []
        for g in range(1, self.game.goal + 1):
            t = self.komi_table(g)
            t.insert(0, "goal", g)
            frames.append(t)
        df = pd.concat(frames, ignore_index=True)
        for k, v in reversed(list(self.game.params.items())):
            if k not in ("goal", "komi"):
                df.insert(0, k, str(v) if isinstance(v, list) else v)
        return df

    def summary(self, max_komi=10):
        """The headline figures at the game's own goal and komi, as a dict.

        Keys: ``game``, ``first_player_win``, ``expected_actions``,
        ``fair_komi``, ``komi_table`` (list of dicts), ``states``,
        ``residual``, ``seconds``, ``sweeps``.
        """
        g = self.game
        table = self.komi_table(max_komi=max(max_komi, g.komi))
        return {
            "game": {"name": g.name, **g.params},
            "first_player_win": self.first_player_win(komi=g.komi),
            "expected_actions": self.expected_actions(komi=g.komi),
            "fair_komi": self.fair_komi(),
            "fair_komi_first_player_win": self.first_player_win(komi=self.fair_komi()),
            "komi_table": [
                {"komi": int(r.komi), "first_player_win": float(r.first_player_win),
                 "expected_actions": float(r.expected_actions)}
                for r in table.itertuples()
            ],
            "states": int(self.states),
            "residual": float(self.residual),
            "sweeps": int(self.sweeps),
            "seconds": float(self.seconds),
        }


class DeckSolution(Solution):
    """Solution of a deck game; adds in-turn values and the compact policy."""

    def draws_before_hold(self, i, j, w=0, c=0):
        """Good draws the optimal mover makes before holding, from a turn start.

        A value above ``good - c`` means the mover never holds (draws until a
        bad item); ``i + value >= goal`` means it draws to the goal.
        """
        return int(self.policy[self._state(i, j, 0, w, c)[:2] + (w, c)])

    def compact_policy(self):
        """The optimal policy as a :class:`~designer.solve.compact.CompactPolicy`."""
        return CompactPolicy(self.game, self.policy, "optimal")

    def _state(self, i, j, k, w, c):
        g = self.game
        i = check_int("i", i, 0, g.goal - 1)
        j = check_int("j", j, 0, g.goal - 1)
        w = check_int("w", w, 0, g.bad - 1)
        c = check_int("c", c, 0, g.good)
        k = check_int("k", k, 0, c)
        return i, j, k, w, c

    def win_probability(self, i, j, k=0, w=0, c=0):
        """Win probability of the mover at any state ``(i, j, k, w, c)``.

        In-turn values are rebuilt from the turn-start table along the turn's
        chain of good draws (SPEC 1.1), so they need no storage.
        """
        from designer.solve.deck_chain import chain_values

        i, j, k, w, c = self._state(i, j, k, w, c)
        if i + k >= self.game.goal:
            return 1.0
        return float(chain_values(self.game, self.win, i, j, w, c - k)[k])

    def decision(self, i, j, k, w, c):
        """The optimal action at a state: ``"draw"`` or ``"hold"``."""
        i, j, k, w, c = self._state(i, j, k, w, c)
        if k == 0:
            return "draw"
        return "draw" if k < self.policy[i, j, w, c - k] and i + k < self.game.goal else "hold"


class DiceSolution(Solution):
    """Solution of a dice game; the policy is ``roll[i, j, k]``."""

    def decision(self, i, j, k):
        """The optimal action at ``(i, j, k)``: ``"roll"`` or ``"hold"``."""
        G = self.game.goal
        i = check_int("i", i, 0, G - 1)
        j = check_int("j", j, 0, G - 1)
        k = check_int("k", k, 0, G - 1 - i)
        return "roll" if self.policy[i, j, k] else "hold"

    def hold_at(self, i, j):
        """Smallest turn total at which the optimal mover holds at (i, j)."""
        row = self.policy[i, j, : self.game.goal - i]
        holds = np.flatnonzero(~row)
        return int(holds[0]) if holds.size else self.game.goal - i



@dataclass(frozen=True, eq=False)
class ZombieSolution(Solution):
    """Solution of a Zombie Dice game (SPEC 1.3).

    ``win[a, c]`` and ``actions[a, c]`` are player 1's win probability and
    the expected remaining actions at the start of round ``(a, c)`` (player 1
    at ``a``, player 2 at ``c``, both below the goal); ``policy`` is the bool
    table ``roll[p, i, j, b, s]`` of :func:`designer.solve.zombie.policy_shape`
    (``p`` 0 for player 1, 1 for player 2; tie rounds at ``i = goal``).

    Attributes
    ----------
    second_win, second_actions : ndarray, shape (goal + 1, cap + 1)
        Player 2's win probability and expected remaining actions at the
        start of their turn ``(c, a')`` (own score ``c``, player 1's ``a'``).
    tie_round_win, tie_round_actions : float
        The same for player 1 at the start of a tie round (every tie at the
        goal or more is this round, see :mod:`designer.solve._zombie_kernel`).
    """

    second_win: np.ndarray = field(repr=False)
    second_actions: np.ndarray = field(repr=False)
    tie_round_win: float
    tie_round_actions: float

    def decision(self, p, i, j, b, s):
        """The optimal action at state ``(p, i, j, b, s)``, ``p`` 1 or 2 (seat).

        Returns ``"roll"`` or ``"hold"`` (forced holds included). Scores are
        those of the solved model: player 1 moves at ``i, j < goal`` or at
        ``i = j = goal`` (a tie round); player 2 at ``i < goal`` or
        ``i = goal <= j``.
        """
        g = self.game
        G, cap = g.goal, g.cap
        p = check_int("p", p, 1, 2)
        i = check_int("i", i, 0, G)
        j = check_int("j", j, 0, cap)
        b = check_int("b", b, 0, cap - i)
        s = check_int("s", s, 0, g.bust_shotguns - 1)
        if p == 1 and not ((i < G and j < G) or i == j == G):
            raise ParameterError("j", j, f"player 1 moves at scores below {G} or at {G}, {G}")
        if p == 2 and i == G and j < G:
            raise ParameterError("j", j, f"{G} <= j when player 2 has {G}")
        bf = cap - i if p == 1 else min(max(G, j + 1), cap) - i
        if b >= bf:
            return "hold"
        if b == 0 and s == 0:
            return "roll"
        return "roll" if self.policy[p - 1, i, j, b, s] else "hold"

    def summary(self, max_komi=10):
        """As :meth:`Solution.summary`, plus ``tie_round_win``."""
        out = super().summary(max_komi)
        out["tie_round_win"] = float(self.tie_round_win)
        return out
