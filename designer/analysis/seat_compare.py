"""A two-player policy in a game of 3 or 4 players, seat by seat, exactly.

The Fowl Play paper's first open question ("two-player
abstraction"): how well does two-player play carry over when more players
sit at the table? Seat ``s`` plays a two-player policy of the same rules and
goal, reading the two-player state as (its own score, the highest opponent
score); every other seat plays the N-player max-n optimal policy. The
evaluation is exact (:func:`designer.solve.profile.evaluate_profile`), one
per seat, and the reference is the profile where every seat plays optimally,
evaluated the same way.

Any two-player policy string works (``two-player`` is the two-player
optimum; ``max-score``, ``hold-at:N``, ``rule:FILE``, ``py:`` are read the
same way); the other seats are always optimal.
"""

import dataclasses
import time
from dataclasses import asdict, dataclass

from designer.errors import DesignError


@dataclass(frozen=True)
class SeatComparison:
    """One seat at a time plays policy A; the others play N-player optimally.

    Attributes
    ----------
    game : str
        The game's display name.
    players, goal : int
    komi : list of int
        Start points per seat, seat 1 first.
    policy, against : str
        Policy A (read at own score and highest opponent score) and the
        other seats' policy (``"optimal"``, N-player max-n).
    seats : list of dict
        Per seat: ``seat`` (1-based), ``win`` (that seat's exact win
        probability playing A), ``optimal_win`` (the same seat playing
        optimally) and ``difference``.
    average_difference : float
        Mean of the differences over the seats.
    optimal_seat_win : list of float
        Every seat's win probability when all play optimally.
    unsettled_positions : int
        Max-n positions of the N-player solve that did not settle.
    unsettled_residual : float
        How much the values there still move between sweeps (0.0 if none).
    seconds : float
        Wall time of the evaluations (solves excluded).
    ending : str
        ``"race"`` or ``"rounds"``.
    cap : int or None
        Under the rounds ending the score cap of the evaluation, in points
        (the largest score represented: the game's, raised where a policy's
        turns would pass it); None in the race.
    passes : int
        Where a bust can lower a banked score (rounds ending), the passes
        the evaluations iterated, over every seat; else 0.
    residual : float
        There the largest change of a win in an evaluation's last pass (at
        most 1e-12); else 0.0.
    """

    game: str
    players: int
    goal: int
    komi: list
    policy: str
    against: str
    seats: list
    average_difference: float
    optimal_seat_win: list
    unsettled_positions: int
    seconds: float
    unsettled_residual: float = 0.0
    ending: str = "race"
    cap: int = None
    passes: int = 0
    residual: float = 0.0

    def to_dict(self):
        """The fields as a plain dict (JSON-ready)."""
        return asdict(self)


def two_player_game(game):
    """The same rules and goal for two players, race ending, no komi."""
    return dataclasses.replace(game, players=2, komi=0, ending="race")


def compare_seats(game, policy, against="optimal", *, solution=None):
    """Policy ``policy`` at each seat of an N-player race game in turn.

    Parameters
    ----------
    game : DeckGame or DiceGame
        ``players`` 3 or 4, race ending; its komi sets every seat's start.
    policy : str
        A two-player policy string (``"two-player"``, ``"max-score"``, ...).
    against : str
        Must be ``"optimal"``: the other seats play N-player max-n.
    solution : SeatSolution, optional
        The N-player solve of ``game`` (solved otherwise).

    Returns
    -------
    SeatComparison
    """
    from designer.policies.parse import parse_policy
    from designer.solve import solve
    from designer.solve.profile import OPTIMAL, TWO, check_profile_memory, evaluate_profile
    from designer.solve.race import _check_memory

    if game.family not in ("deck", "dice"):
        raise DesignError(f"{game.name}: games of {game.players} players are deck and dice games")
    if game.ending != "race":
        raise DesignError(f"comparing policies with {game.players} players needs the race "
                          f"ending, not {game.ending!r}")
    if not isinstance(against, str) or against.strip().lower() != "optimal":
        raise DesignError(f"with {game.players} players the other seats play the N-player optimal "
                          f"policy: use --against optimal, not {against!r}")
    if not isinstance(policy, str):
        raise DesignError(f"a policy string is needed, not {type(policy).__name__}")
    # too large for memory: refused before anything is solved
    _check_memory(game)
    check_profile_memory(game)
    g2 = two_player_game(game)
    table = parse_policy(policy, g2).table()  # refuses a bad policy before the N-player solve
    if solution is None:
        solution = solve(game)
    N = game.players
    komi = list(game.start_scores)
    t0 = time.perf_counter()
    base = evaluate_profile(game, [OPTIMAL] * N, solution.policy, None).seat_win(komi=komi)
    seats = []
    for s in range(N):
        kinds = [OPTIMAL] * N
        kinds[s] = TWO
        win = float(evaluate_profile(game, kinds, solution.policy, table).seat_win(komi=komi)[s])
        seats.append({"seat": s + 1, "win": win, "optimal_win": float(base[s]),
                      "difference": win - float(base[s])})
    seconds = time.perf_counter() - t0
    name = policy.strip()
    return SeatComparison(game.name, N, game.goal, komi, name, "optimal", seats,
                          sum(r["difference"] for r in seats) / N, [float(p) for p in base],
                          int(solution.unsettled_positions), seconds,
                          float(getattr(solution, "unsettled_residual", 0.0)))
