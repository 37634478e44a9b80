"""Two policies head to head on a rules-file game, exactly: the engine's
match (:func:`designer.engine.match.match_model`; under the rounds ending
:func:`designer.engine.rounds_match.match_rounds_model`) as a
:class:`~designer.analysis.compare.Comparison`."""

from dataclasses import dataclass

from designer.analysis.compare import Comparison
from designer.engine._match_kernels import OPTIMAL
from designer.engine.game import stage
from designer.engine.match import RulesPolicy, match_model, parse_rules_policy
from designer.engine.solve import solve_model
from designer.errors import DesignError


@dataclass(frozen=True)
class RulesComparison(Comparison):
    """A :class:`~designer.analysis.compare.Comparison` of a rules game, with
    ``residual`` and ``passes`` (0 and 1 where scores never fall).
    ``agreement`` is the share of decision positions where the two policies
    act alike (:mod:`designer.engine.agreement`; under the rounds ending
    the positions of the open rounds, each seat's own)."""

    residual: float = 0.0
    passes: int = 1


def compare_rules(game, policy, against, *, solution=None, with_agreement=True, progress=None):
    """Policy ``policy`` (A) against ``against`` (B) on the rules game
    ``game`` (two seats, race or rounds ending), exactly.

    Parameters
    ----------
    game : RulesGame
    policy, against : str
        ``optimal``, ``max-score``, ``hold-at:N`` (N in points), and under
        the race ending ``rule:RULE``, ``rule:FILE.toml`` or
        ``py:FILE.py:FUNCTION`` (:mod:`designer.engine.policy_tables`).
    solution : EngineResult, RoundsResult or RoundsFallsResult, optional
        The engine's solve (race) or rounds solve (rounds; where scores
        fall, the falls solve), for ``optimal`` (made again where its cap
        is not the comparison's).
    with_agreement : bool
        Also count the agreement.
    progress : callable, optional
        ``progress(passes, change, what)`` for each pass where scores fall
        in the race (``what``: ``"solve"``, optimal play's solve, or
        ``"match"``, the evaluation), as
        :func:`designer.engine.game.solve_game` gives it.

    Returns
    -------
    RulesComparison
        A's win moving first (seat 1, with seat 1's start points), moving
        second, their average, the gap, the expected actions of each
        seating and the evaluation's seconds (the optimal solve and the
        kernels' loading left out); the agreement and the decision positions
        it counts (None and 0 without ``with_agreement``).
    """
    if game.players > 2:
        return compare_rules_seats(game, policy, against, solution=solution)
    if game.players != 2 or game.ending not in ("race", "rounds"):
        raise DesignError(f"designer compare takes rules games with 2 players and the race or "
                          f"rounds ending, not {game.players} players and the {game.ending} "
                          f"ending")
    a = parse_rules_policy(policy, game)
    b = parse_rules_policy(against, game)
    rules = game.rules
    if game.ending == "rounds":
        from designer.engine.rounds import RoundsResult
        from designer.engine.rounds_falls import RoundsFallsResult
        from designer.engine.rounds_match import match_rounds_model

        given = solution if isinstance(solution, (RoundsResult, RoundsFallsResult)) else None
        # a fixed seat 2 banks a total that wins the game on the spot, as
        # a fixed policy banks a winning total in the race and in the Zombie
        # Dice compare: no player keeps throwing with the game won
        m = match_rounds_model(rules.model, rules.goal, a, b, ties=rules.ties, cap=game.cap,
                               solution=given, bank_wins=True, record=with_agreement,
                               name=game.name, unit=game.unit)
    else:
        if solution is None and OPTIMAL in (a.kind, b.kind):
            solution = solve_model(rules.model, rules.goal, 0, progress=stage(progress, "solve"))
        m = match_model(rules.model, rules.goal, a, b, solution=solution, name=game.name,
                        unit=game.unit, record=with_agreement, progress=stage(progress, "match"))
    start = game.start
    w1, w2 = m.win_as_first(start), m.win_as_second(start)
    agree, positions, agree_s = None, 0, 0.0
    if with_agreement:
        import time

        from designer.engine.agreement import agreement, rounds_agreement

        t0 = time.perf_counter()
        if game.ending == "rounds":
            agree, positions = rounds_agreement(rules.model, rules.goal, a, b, m,
                                                unit=game.unit)
        else:
            agree, positions = agreement(rules.model, rules.goal, a, b, unit=game.unit,
                                         solution=solution, optimal_table=m.optimal_table)
        agree_s = time.perf_counter() - t0
    return RulesComparison(game.name, game.goal, game.komi, a.name, b.name, w1, w2,
                           (w1 + w2) / 2, w1 + w2 - 1.0, agree, positions,
                           m.actions_as_first(start), m.actions_as_second(start), m.seconds,
                           agree_s, m.residual, m.passes)


def compare_rules_seats(game, policy, against="optimal", *, solution=None):
    """Policy ``policy`` at each seat of a 3-4 seat rules game in turn, the
    other seats playing the N-player optimum, exactly
    (:func:`designer.engine.seat_match.seat_profile`).

    Under the rounds ending the policy seat is evaluated by
    :func:`designer.engine.seat_rounds_match.seat_rounds_profile` (the
    solve made again at a cap its turns never reach).

    Parameters
    ----------
    game : RulesGame
        ``players`` 3 or 4, race or rounds ending; its start points set
        every seat's.
    policy : str
        ``max-score``, ``hold-at:N`` (N in points), or ``optimal`` (every
        seat optimal); also ``rule:...`` or
        ``py:FILE.py:FUNCTION`` (reading ``j`` as the highest score of the
        other seats).
    against : str
        Must be ``"optimal"``: the other seats play the N-player optimum.
    solution : SeatsResult, optional
        The engine's N-seat race solve of ``game`` (solved otherwise).

    Returns
    -------
    SeatComparison
        Per seat its exact win playing ``policy`` against the same seat
        playing optimally; ``residual`` the last change where scores can
        fall.
    """
    from designer.analysis.seat_compare import SeatComparison
    from designer.engine.game import _check_seats

    N = game.players
    _check_seats(game)
    if not isinstance(against, str) or against.strip().lower() != "optimal":
        raise DesignError(f"with {N} players the other seats play the {N}-player optimum: use "
                          f"--against optimal, not {against!r}")
    a = parse_rules_policy(policy, game)  # a bad policy fails before any solve
    rules = game.rules
    model, goal = rules.model, rules.goal
    start = tuple(game.start)
    passes, residual = 0, 0.0
    if game.ending == "rounds":
        from designer.engine.seat_rounds_match import seat_rounds_profile

        prof = seat_rounds_profile(model, goal, N, a, ties=rules.ties, cap=game.cap,
                                   name=game.name, unit=game.unit)
        solution, seconds, cap = prof.solution, prof.seconds, prof.cap * game.unit
        win = [float(prof.seat_win(s, start)[s]) for s in range(N)]
        if model.falls:  # the evaluations iterate
            passes, residual = int(prof.tie_iterations), float(prof.residual)
    else:
        (solution, win, seconds), cap = race_seat_wins(game, a, solution), None
    base = solution.value(start)
    seats = []
    for s in range(N):
        seats.append({"seat": s + 1, "win": win[s], "optimal_win": float(base[s]),
                      "difference": win[s] - float(base[s])})
    return SeatComparison(game.name, N, game.goal, [k * game.unit for k in start], a.name,
                          "optimal", seats, sum(r["difference"] for r in seats) / N,
                          [float(v) for v in base], int(solution.unsettled_positions), seconds,
                          float(solution.unsettled_residual), game.ending, cap, passes,
                          residual)


#: Seconds of a two-seat comparison under the rounds ending where scores
#: fall, per second of the falls solve's estimate: the solve and the two
#: seatings' iterated matches (measured on two threads 2.0-2.4 on Two-Dice
#: Pig to 50 and 100, ``hold-at:20`` and a rule; 3.3 to 30, ``max-score``;
#: 4.5 to 12, where the fixed costs weigh).
FALLS_COMPARE_PER_SOLVE = 2.5


def compare_seconds(game, policy):
    """The estimated seconds of :func:`compare_rules` (two seats under the
    rounds ending where scores fall: the iterated solve and matches) or
    :func:`compare_rules_seats` (3-4 seats under the rounds ending: the
    solve at the policy's cap and one evaluation per seat, by
    :func:`designer.engine.seat_rounds_match.profile_estimate`) for
    ``policy`` on ``game`` where the wait can be long, else None (also for a
    policy or a size the comparison refuses: it says why)."""
    if game.family != "rules":
        return None
    if game.players == 2 and game.ending == "rounds" and game.rules.model.falls:
        from designer.engine.rounds_falls import falls_estimate
        from designer.engine.rounds_match import match_cap

        rules = game.rules
        try:  # at the cap a fixed policy's turns raise it to
            C = match_cap(rules.model, rules.goal, parse_rules_policy(policy, game),
                          RulesPolicy(OPTIMAL, "optimal"), game.cap, game.name)[0]
        except DesignError:
            return None
        return FALLS_COMPARE_PER_SOLVE * falls_estimate(rules.model, rules.goal, C,
                                                        rules.ties)["seconds"]
    if not game.seat_rounds:
        return None
    from designer.engine.seat_rounds_match import profile_estimate

    try:
        a = parse_rules_policy(policy, game)
        rules = game.rules
        est = profile_estimate(rules.model, rules.goal, game.players, a, ties=rules.ties,
                               cap=game.cap, name=game.name)
    except DesignError:
        return None
    return est["seconds"]


def seats_race_solution(game, a, solution=None):
    """The N-player race solve of the 3-4 seat ``game`` (``solution`` where
    it is already the game's :class:`~designer.engine.seats.SeatsResult`),
    after checking that its tables and those of policy ``a`` at one seat
    fit in memory: a game too large is refused before anything is solved."""
    from designer.engine.seat_match import check_memory
    from designer.engine.seats import SeatsResult, estimate, solve_seats_model
    from designer.engine.solve import TooLargeError, plan
    from designer.memory import limit_text, memory_limit

    N, rules = game.players, game.rules
    model, goal = rules.model, rules.goal
    est = estimate(model, goal, N)
    if est["memory"] > memory_limit():
        raise TooLargeError(f"{game.name} with {N} players needs {est['memory'] / 2**20:,.0f} "
                            f"MB to solve, over the limit of {limit_text()}")
    check_memory(model, plan(model, goal), N, a, game.name)
    if not isinstance(solution, SeatsResult):
        solution = solve_seats_model(model, goal, N)
    return solution


def race_seat_wins(game, a, solution=None):
    """``(solution, each seat's win playing a, seconds)`` of a 3-4 seat race:
    the policy ``a`` at each seat in turn, the others playing the N-player
    optimum (:func:`seats_race_solution`), from the game's start points."""
    import time

    from designer.engine.seat_match import seat_profile

    solution = seats_race_solution(game, a, solution)
    t0 = time.perf_counter()
    prof = seat_profile(game.rules.model, solution, a, unit=game.unit, name=game.name)
    seconds = time.perf_counter() - t0
    start = tuple(game.start)
    return solution, [float(prof.seat_win(s, start)[s]) for s in range(game.players)], seconds


__all__ = ["RulesComparison", "compare_rules", "compare_rules_seats", "compare_seconds",
           "race_seat_wins", "seats_race_solution"]
