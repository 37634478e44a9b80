"""Solution objects: what one exact solve knows, read off by goal and komi.

The game depends only on the points each player still needs, so the table
solved for goal ``G`` answers every goal ``g <= G`` and every komi: the first
player of the game (g, komi) sits at scores ``(G - g, G - g + komi)``.
"""

import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from designer._jit import TIE
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
        komi = check_int("komi", komi, -(goal - 1), goal - 1)
        if komi < 0:  # seat 1 starts with -komi points (the table holds it too)
            return G - goal - komi, G - goal
        return G - goal, G - goal + komi

    def first_player_win(self, goal=None, komi=0):
        """Probability that the first mover wins under optimal play.

        Parameters
        ----------
        goal : int, optional
            Any goal ``1 <= goal <= game.goal`` (default: the solved goal).
        komi : int
            Points the second player starts with, ``|komi| < goal``; a
            negative komi gives seat 1 ``-komi`` points.
        """
        i, j = self._start(goal, komi)
        return float(self.win[(i, j) + (0,) * (self.win.ndim - 2)])

    def expected_actions(self, goal=None, komi=0):
        """Expected number of actions in a game between optimal players."""
        i, j = self._start(goal, komi)
        return float(self.actions[(i, j) + (0,) * (self.actions.ndim - 2)])

    @property
    def players(self):
        """Number of seats: 2."""
        return 2

    #: A two-player solve never leaves a class unsettled.
    unsettled_positions = 0
    unsettled_residual = 0.0

    def seat_win(self, goal=None, komi=0):
        """Both seats' win probabilities, seat 1 first (they sum to 1).

        ``komi`` is an int (negative: points for seat 1) or a pair of start
        scores, as for the game.
        """
        if not isinstance(komi, numbers.Integral):
            from designer.games._validate import normal_komi

            raw = tuple(komi)
            if len(raw) != 2:
                raise ParameterError("komi", list(raw), "one integer or a list of 2 integers")
            komi = normal_komi(tuple(check_int("komi", k, 0) for k in raw))
            if not isinstance(komi, numbers.Integral):
                raise ParameterError("komi", list(raw), "a pair with at least one 0")
        p = self.first_player_win(goal, komi)
        return np.array([p, 1.0 - p])

    def fairness(self, goal=None, komi=0):
        """``|P_1 - 1/2|``."""
        return abs(self.first_player_win(goal, komi) - 0.5)

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

        Keys: ``game``, ``players`` (2), ``ending``, ``seat_win`` (list,
        seat 1 first), ``first_player_win``, ``fairness``,
        ``expected_actions``, ``fair_komi``, ``komi_table`` (list of dicts),
        ``states``, ``residual``, ``unsettled_positions`` (0),
        ``unsettled_residual`` (0.0), ``seconds``, ``sweeps``.
        """
        g = self.game
        table = self.komi_table(max_komi=max(max_komi, g.komi))
        p1 = self.first_player_win(komi=g.komi)
        return {
            "game": {"name": g.name, **g.params},
            "players": 2,
            "ending": getattr(g, "ending", "rounds" if g.family == "zombie" else "race"),
            "seat_win": [p1, 1.0 - p1],
            "first_player_win": p1,
            "fairness": abs(p1 - 0.5),
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
            "unsettled_positions": 0,
            "unsettled_residual": 0.0,
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
        chain of good draws, so they need no storage.
        """
        from designer.solve.deck_chain import chain_values

        i, j, k, w, c = self._state(i, j, k, w, c)
        if i + k >= self.game.goal:
            return 1.0
        return float(chain_values(self.game, self.win, i, j, w, c - k)[k])

    def decision(self, i, j, k, w, c):
        """The optimal action at a state: ``"draw"`` or ``"hold"``.

        On the optimal turn (``k`` below the compact policy's hold point)
        the table answers; past it, where only a player who did not hold can
        be, the draw and hold values along the turn's chain do (ties hold).
        """
        from designer.solve.deck_chain import chain_draw_hold

        i, j, k, w, c = self._state(i, j, k, w, c)
        g = self.game
        if k == 0:
            return "draw"
        if i + k >= g.goal:
            return "hold"
        if k < self.policy[i, j, w, c - k]:
            return "draw"
        n = min(g.goal, g.good) + 1
        D, H = np.empty(n), np.empty(n)
        chain_draw_hold(g.bad, g.good, g.goal, self.win, i, j, w, c - k, TIE, D, H)
        return "draw" if D[k] > H[k] + TIE else "hold"


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



def zombie_position(game, p, i, j, b):
    """Check a Zombie turn position ``(p, i, j, b)`` (``p`` 1 or 2) against
    the scores of the solved model; returns it as ints."""
    G, cap = game.goal, game.cap
    p = check_int("p", p, 1, 2)
    i = check_int("i", i, 0, G)
    j = check_int("j", j, 0, cap)
    b = check_int("b", b, 0, cap - i)
    return p, i, j, b


def zombie_forced_end(game, p, i, j):
    """The turn total ``b_f`` at which the mover of a valid turn ``(p, i, j)``
    must hold (:mod:`designer.solve._zombie_kernel`); refuses scores at which
    seat ``p`` never moves in the solved model."""
    G, cap = game.goal, game.cap
    if p == 1 and not ((i < G and j < G) or i == j == G):
        raise ParameterError("j", j, f"player 1 moves at scores below {G} or at {G}, {G}")
    if p == 2 and i == G and j < G:
        raise ParameterError("j", j, f"{G} <= j when player 2 has {G}")
    return cap - i if p == 1 else min(max(G, j + 1), cap) - i


@dataclass(frozen=True, eq=False)
class ZombieSolution(Solution):
    """Solution of a Zombie Dice game.

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
        p, i, j, b = zombie_position(self.game, p, i, j, b)
        s = check_int("s", s, 0, self.game.bust_shotguns - 1)
        if b >= zombie_forced_end(self.game, p, i, j):
            return "hold"
        if b == 0 and s == 0:
            return "roll"
        return "roll" if self.policy[p - 1, i, j, b, s] else "hold"

    def summary(self, max_komi=10):
        """As :meth:`Solution.summary`, plus ``tie_round_win``."""
        out = super().summary(max_komi)
        out["tie_round_win"] = float(self.tie_round_win)
        return out


def _uniform_komis(N, max_komi):
    """Komi vectors ``(0, m, ..., m)`` for ``m = 0..max_komi``."""
    return [(0,) + (m,) * (N - 1) for m in range(max_komi + 1)]


@dataclass(frozen=True, eq=False)
class SeatSolution:
    """Exact max-n play of an N-player game, for every goal and komi vector.

    Read it off with :meth:`seat_win`, :meth:`fair_komi`, :meth:`to_frame`.
    The tables are indexed by the scores of the mover and the seats after it
    (in points scored towards the solved goal ``G``), then the turn state:
    the game of goal ``g <= G`` where seat ``s`` starts with ``komi[s]``
    points begins at scores ``G - g + komi[s]`` with seat 1 to move.

    Attributes
    ----------
    game : DeckGame or DiceGame
        The solved rules (``goal`` is the largest goal answered).
    win : ndarray
        ``win[s_0, ..., s_{N-1}, <turn start>, r]``: win probability of the
        seat ``r`` places after the mover, at a turn start (decks: the turn
        start is ``(w, c)``; dice: nothing).
    actions : ndarray
        Expected remaining actions at every turn start.
    policy : ndarray
        Decks: int16 good draws before holding at every turn start. Dice:
        bool ``roll[s_0, ..., s_{N-1}, k]``.
    residual : float
        Largest Bellman residual over the classes that settled.
    sweeps : int
        Backward sweeps performed in all.
    seconds : float
        Wall time of the kernel.
    states : int
        Non-terminal states covered.
    unsettled_positions : int
        Score tuples (turn starts of every rotation of a class) where max-n
        policy iteration cycled; 0 with two players.
    unsettled_residual : float
        Largest Bellman residual kept at those positions (0.0 if none).
    """

    game: object
    win: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    residual: float
    sweeps: int
    seconds: float
    states: int
    unsettled_positions: int = 0
    unsettled_residual: float = 0.0

    @property
    def players(self):
        """Number of seats ``N``."""
        return self.game.players

    # -- reading the goal x komi space -----------------------------------
    def _scores(self, goal, komi):
        """Table scores of the start of the game (goal, komi), seat 1 first."""
        from designer.games._validate import start_scores

        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        scores, _ = start_scores(komi, self.players, goal, self.game.ending)
        return tuple(G - goal + s for s in scores)

    def _turn_start(self):
        return (0,) * (self.actions.ndim - self.players)

    def _position(self, view):
        """Check a mover's view ``(s_0, ..., s_{N-1}, k[, w, c])`` against
        the tables; returns it as a tuple of ints."""
        G, N = self.game.goal, self.players
        deck = self.game.family == "deck"
        if len(view) != N + (3 if deck else 1):
            raise ParameterError("state", list(view),
                                 f"{N} scores from the mover on, then k" + (", w, c" if deck else ""))
        scores = tuple(check_int(f"s_{r}", v, 0, G - 1) for r, v in enumerate(view[:N]))
        if deck:
            w = check_int("w", view[N + 1], 0, self.game.bad - 1)
            c = check_int("c", view[N + 2], 0, self.game.good)
            k = check_int("k", view[N], 0, min(c, G - 1 - scores[0]))
            return scores + (k, w, c)
        return scores + (check_int("k", view[N], 0, G - 1 - scores[0]),)

    def decision(self, *view):
        """The max-n optimal action at a position seen by the mover.

        Parameters
        ----------
        *view
            The scores in seat order starting with the mover, then the turn
            state: ``s_0, ..., s_{N-1}, k, w, c`` (decks; ``k`` good draws
            this turn, ``w``, ``c`` bad and good items drawn since the
            shuffle, ``k`` included in ``c``) or ``s_0, ..., s_{N-1}, k``
            (dice). Scores are points towards the solved goal.

        Returns
        -------
        str
            ``"draw"`` or ``"hold"`` (decks; the first draw of a turn is
            forced), ``"roll"`` or ``"hold"`` (dice).
        """
        pos = self._position(view)
        N = self.players
        scores, k = pos[:N], pos[N]
        if self.game.family == "dice":
            return "roll" if self.policy[scores + (k,)] else "hold"
        w, c = pos[N + 1:]
        if k == 0:
            return "draw"
        return "draw" if k < self.policy[scores + (w, c - k)] else "hold"

    def seat_win(self, goal=None, komi=0):
        """Every seat's win probability at the start of a game, seat 1 first.

        Parameters
        ----------
        goal : int, optional
            Any goal ``1 <= goal <= game.goal`` (default: the solved goal).
        komi : int or sequence of int
            Start points as for the game's ``komi`` (one integer for every
            seat after the first, or one entry per seat).

        Returns
        -------
        ndarray, shape (N,)
            Sums to 1 (someone always wins).
        """
        s = self._scores(goal, komi)
        return np.array(self.win[s + self._turn_start()], dtype=float)

    def first_player_win(self, goal=None, komi=0):
        """Seat 1's win probability (see :meth:`seat_win`)."""
        return float(self.seat_win(goal, komi)[0])

    def expected_actions(self, goal=None, komi=0):
        """Expected number of actions of a game between max-n players."""
        return float(self.actions[self._scores(goal, komi) + self._turn_start()])

    def fairness(self, goal=None, komi=0):
        """``max_s |P_s - 1/N|``: 0 for a perfectly fair start."""
        return float(np.abs(self.seat_win(goal, komi) - 1.0 / self.players).max())

    def _komi_grid(self, goal, max_komi):
        """Every komi vector of the search space, as an (n, N) int array.

        Under the race ending seat 1 gets nothing and every other seat
        ``0..max_komi``; under the rounds ending every seat may get points,
        at least one gets none (giving everyone points is a lower goal).
        """
        N = self.players
        free = N - 1 if self.game.ending == "race" else N
        axes = np.indices((max_komi + 1,) * free).reshape(free, -1).T
        if free == N - 1:
            return np.concatenate([np.zeros((len(axes), 1), dtype=axes.dtype), axes], axis=1)
        return axes[axes.min(axis=1) == 0]

    def fair_komi(self, goal=None, max_komi=None):
        """The komi vector with the smallest fairness.

        Parameters
        ----------
        goal : int, optional
            Default: the solved goal.
        max_komi : int, optional
            Largest komi of any seat searched (default ``goal - 1``).

        Returns
        -------
        tuple of int
            One entry per seat, seat 1 first. Ties: the smallest total
            komi, then the first vector in lexicographic order.
        """
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        K = goal - 1 if max_komi is None else check_int("max_komi", max_komi, 0, goal - 1)
        grid = self._komi_grid(goal, K)
        idx = tuple((G - goal + grid[:, a]) for a in range(self.players)) + self._turn_start()
        p = self.win[idx]
        fair = np.abs(p - 1.0 / self.players).max(axis=1)
        order = np.lexsort(tuple(grid[:, a] for a in range(self.players - 1, -1, -1))
                           + (grid.sum(axis=1), fair))
        return tuple(int(v) for v in grid[order[0]])

    def komi_table(self, goal=None, max_komi=10):
        """Seat win probabilities for the komi vectors ``(0, m, ..., m)``.

        Returns
        -------
        pandas.DataFrame
            Columns ``komi`` (``m``), ``seat_1_win`` .. ``seat_N_win``,
            ``fairness``, ``expected_actions``.
        """
        G = self.game.goal
        goal = G if goal is None else check_int("goal", goal, 1, G)
        n = min(goal - 1, check_int("max_komi", max_komi, 0))
        rows = []
        for k in _uniform_komis(self.players, n):
            p = self.seat_win(goal, k)
            rows.append({"komi": k[1], **{f"seat_{a + 1}_win": float(v) for a, v in enumerate(p)},
                         "fairness": float(np.abs(p - 1 / self.players).max()),
                         "expected_actions": self.expected_actions(goal, k)})
        return pd.DataFrame(rows)

    def to_frame(self, max_komi=5):
        """One row per goal and komi vector (every later seat ``0..max_komi``).

        Returns
        -------
        pandas.DataFrame
            The game's other parameters, ``goal``, ``komi_1`` .. ``komi_N``,
            ``seat_1_win`` .. ``seat_N_win``, ``first_player_win``,
            ``fairness``, ``expected_actions``.
        """
        G, N = self.game.goal, self.players
        frames = []
        for g in range(1, G + 1):
            grid = self._komi_grid(g, min(g - 1, max_komi))
            idx = tuple(G - g + grid[:, a] for a in range(N)) + self._turn_start()
            p = self.win[idx]
            df = pd.DataFrame({"goal": g, **{f"komi_{a + 1}": grid[:, a] for a in range(N)},
                               **{f"seat_{a + 1}_win": p[:, a] for a in range(N)}})
            df["first_player_win"] = p[:, 0]
            df["fairness"] = np.abs(p - 1.0 / N).max(axis=1)
            df["expected_actions"] = self.actions[idx]
            frames.append(df)
        df = pd.concat(frames, ignore_index=True)
        for k, v in reversed(list(self.game.params.items())):
            if k not in ("goal", "komi"):
                df.insert(0, k, str(v) if isinstance(v, list) else v)
        return df

    def summary(self, max_komi=10):
        """Headline figures at the game's own goal and komi, as a dict.

        The keys of :meth:`Solution.summary` (``first_player_win`` is seat
        1's; ``fair_komi`` a list over seats; ``komi_table`` over the komi
        vectors ``(0, m, ..., m)``) plus ``players``, ``ending``,
        ``seat_win``, ``fairness``, ``fair_komi_seat_win``,
        ``unsettled_positions`` and ``unsettled_residual``.
        """
        g = self.game
        komi = g.start_scores
        win = self.seat_win(komi=komi)
        fk = self.fair_komi()
        fk_win = self.seat_win(komi=fk)
        table = self.komi_table(max_komi=max_komi)
        return {
            "game": {"name": g.name, **g.params},
            "players": self.players,
            "ending": g.ending,
            "seat_win": [float(v) for v in win],
            "first_player_win": float(win[0]),
            "fairness": float(np.abs(win - 1 / self.players).max()),
            "expected_actions": self.expected_actions(komi=komi),
            "fair_komi": list(fk),
            "fair_komi_seat_win": [float(v) for v in fk_win],
            "fair_komi_first_player_win": float(fk_win[0]),
            "fair_komi_fairness": float(np.abs(fk_win - 1 / self.players).max()),
            "komi_table": [
                {"komi": int(r["komi"]), "first_player_win": float(r["seat_1_win"]),
                 "seat_win": [float(r[f"seat_{a + 1}_win"]) for a in range(self.players)],
                 "fairness": float(r["fairness"]), "expected_actions": float(r["expected_actions"])}
                for _, r in table.iterrows()
            ],
            "states": int(self.states),
            "residual": float(self.residual),
            "unsettled_positions": int(self.unsettled_positions),
            "unsettled_residual": float(self.unsettled_residual),
            "sweeps": int(self.sweeps),
            "seconds": float(self.seconds),
        }
