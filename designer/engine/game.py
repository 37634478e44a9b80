"""A rules game as the commands see it: a rules file (or a shipped example)
with the settings a command line gives it.

>>> game = load_rules_game("piglet", goal=2)
>>> round(solve_game(game)["first_player_win"], 12) == round(4 / 7, 12)
True

The commands name a game ``FILE.toml`` or an example's name
(:func:`~designer.engine.rulesfile.examples`); ``goal`` and ``komi`` are in
points (multiples of a scoring-dice game's unit, 50 in Farkle). The kind of
such a game in the support table (:mod:`designer.support`) is ``rules``;
its ``players`` and ``ending`` are kept as asked, so that the table, not
this module, refuses what the engine does not take yet.
"""

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from designer import memory as mem
from designer.engine.length import LengthTooLong, game_lengths
from designer.engine.pyrules import load_module_rules, split_name
from designer.engine.rulesfile import MAX_GOAL, Rules, example_path, examples, load_rules
from designer.engine.rounds import rounds_estimate
from designer.engine.solve import TooLargeError, estimate, solve_model
from designer.errors import DesignError, ParameterError

#: What a rules game takes from the command line besides its file.
SETTINGS = ("goal", "komi", "players", "ending")


def is_rules_name(name, presets=()):
    """Whether ``name`` names a rules game: ``rules:FILE.py`` (a Python rules
    module, :mod:`designer.engine.pyrules`), a path ending in ``.toml`` or
    ``.py``, or a shipped example that is not one of ``presets`` (names
    that keep today's solvers)."""
    text = str(name)
    return (text.startswith("rules:") or text.endswith((".toml", ".py"))
            or (name in examples() and name not in presets))


@dataclass(frozen=True, eq=False)
class RulesGame:
    """A game read from a rules file, with its settings.

    Attributes
    ----------
    rules : Rules
        The file's game; its ``goal`` (in units) is the goal asked for.
    source : str
        The example's name or the file's path, as given.
    start : tuple of int
        Start points of every seat, seat 1 first, in units.
    players : int
    ending : str
        As asked, else the file's (the engine takes 2 to 4 players in the
        race and the rounds ending).
    komi : int or tuple
        The komi as given, in points (for display).
    kind : str
        What the game is, in words, for messages: "a rules game", or for a
        deck or dice game played as rules what it is and why
        (:mod:`designer.engine.family_rules`).
    cap : int, optional
        The largest score the equal-turns ending represents, in units
        (None: the goal plus the engine's default margin); a Zombie Dice
        game played as rules keeps its own.
    """

    rules: Rules
    source: str
    start: tuple
    players: int = 2
    ending: str = "race"
    komi: object = 0
    kind: str = "a rules game"
    cap: object = None
    family: ClassVar[str] = "rules"

    @property
    def name(self):
        return self.rules.name

    @property
    def seat_rounds(self):
        """Whether three or four seats play in rounds (the N-seat rounds
        solve, the longest one)."""
        return self.players > 2 and self.ending == "rounds"

    @property
    def unit(self):
        return self.rules.unit

    @property
    def goal(self):
        """The goal in points."""
        return self.rules.goal_points

    @property
    def part(self):
        return {"Dice": "dice", "Deck": "deck", "ScoringDice": "scoring dice",
                "Cup": "a cup of dice"}.get(
            type(self.rules.part).__name__, type(self.rules.part).__name__)

    def describe(self):
        """The game as the JSON output names it."""
        return {"name": self.name, "family": self.family, "source": self.source,
                "goal": self.goal, "komi": self.komi, "unit": self.unit}


def load_rules_game(name, *, goal=None, komi=None, players=None, ending=None):
    """Read the rules game ``name`` (a ``.toml`` path or an example's name)
    and apply the settings (``None``: the file's).

    Parameters
    ----------
    goal : int, optional
        Points that win, a multiple of the game's unit.
    komi : int or tuple of ints, optional
        One integer ``m``: with two players the start points of the second
        seat (negative: of the first); with more, every seat after the
        first starts with ``m`` (negative: seat 1 starts with ``-m``, only
        under the rounds ending). A tuple: start points of each seat,
        seat 1 first (with more than two players, seat 1 gets none under
        the race ending: it already moves first).
    players : int, optional
    ending : str, optional

    Raises
    ------
    RulesError
        A file that cannot be read or describes no playable game.
    ParameterError
        A goal or komi out of range.
    """
    path = load_path(name)
    rules = load_module_rules(name) if path.suffix == ".py" else load_rules(path)
    unit = rules.unit
    if goal is not None:
        goal = _points("goal", goal, unit, 1, MAX_GOAL, "goal")
        rules = dataclasses.replace(rules, goal=goal // unit)
    g = rules.goal * unit
    lowest = min(rules.model.floor, 0) * unit
    players = rules.players if players is None else players
    ending = rules.ending if ending is None else ending
    # more than 4 seats is refused by the commands' support check, after this:
    # the komi is read as for two seats then, not one entry per seat
    if isinstance(players, int) and not isinstance(players, bool) and 2 < players <= 4:
        shown, start = _seats_komi(komi, players, ending, rules.komi, unit, g)
    elif komi is None:
        shown, start = rules.komi * unit, (0, rules.komi)
    elif isinstance(komi, tuple):
        if len(komi) != 2:
            raise ParameterError("komi", list(komi), "one integer, or a list of 2 integers "
                                 "(one per seat, seat 1 first) for 2 players")
        for k in komi:
            _points("komi", k, unit, lowest, g - 1, "each entry", list(komi))
        shown, start = list(komi), (komi[0] // unit, komi[1] // unit)
    else:
        _points("komi", komi, unit, -(g - 1), g - 1, "komi")
        shown, start = komi, ((-komi) // unit, 0) if komi < 0 else (0, komi // unit)
    return RulesGame(rules, str(name), start, players, ending, shown)


def _seats_komi(komi, players, ending, file_komi, unit, g):
    """``(shown, start)`` of a komi for three or four seats, read as the
    family games read it (:func:`designer.games._validate.start_scores`),
    in points that are multiples of ``unit``: one integer ``m >= 0`` gives
    every seat after the first ``m`` points (``m < 0``: seat 1 gets
    ``-m``, under the rounds ending only); a tuple gives each seat's,
    seat 1 first, each ``0 .. goal - 1``, and seat 1 none under the race
    ending. The file's komi (points of every later seat) when ``None``."""
    if komi is None:
        return file_komi * unit, (0,) + (file_komi,) * (players - 1)
    if isinstance(komi, tuple):
        shown = list(komi)
        if len(komi) != players:
            raise ParameterError("komi", shown, f"one integer, or a list of {players} integers "
                                 f"(one per seat, seat 1 first) for {players} players")
        for k in komi:
            _points("komi", k, unit, 0, g - 1, "each entry", shown)
        if ending == "race" and komi[0] != 0:
            raise ParameterError("komi", shown, "a first entry of 0 under the race ending "
                                 "(seat 1 moves first; points for seat 1 need --ending rounds)")
        return shown, tuple(k // unit for k in komi)
    low = 0 if ending == "race" else -(g - 1)
    if ending == "race" and isinstance(komi, int) and not isinstance(komi, bool) \
            and -(g - 1) <= komi < 0:
        raise ParameterError("komi", komi, f"an integer with 0 <= komi <= {g - 1} under the "
                             "race ending (negative komi, points for seat 1, needs --ending "
                             "rounds)")
    _points("komi", komi, unit, low, g - 1, "komi")
    m = komi // unit
    return komi, ((0,) + (m,) * (players - 1) if m >= 0 else (-m,) + (0,) * (players - 1))


def load_path(name):
    """The file of the rules game ``name``: the module of ``rules:FILE.py``
    or ``rules:FILE.py:NAME`` (a Python rules module; ``rules:FILE.toml`` is
    that file, ``rules:NAME`` the shipped example ``NAME``, also where a
    preset of today's solvers has that name), the shipped example of that
    name (unless it ends in ``.toml`` or ``.py``), else the path ``name``."""
    from pathlib import Path

    name = str(name)
    if name.startswith("rules:") and name[len("rules:"):] in examples():
        return example_path(name[len("rules:"):])  # the example, even where a preset has the name
    if name.startswith("rules:") and name.endswith(".toml"):
        return Path(name[len("rules:"):])
    if name.startswith("rules:") or name.endswith(".py"):
        return split_name(name)[0]
    return example_path(name) if not name.endswith(".toml") and name in examples() else Path(name)


def _points(key, v, unit, lo, hi, what, shown=None):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi or v % unit:
        multiple = f", a multiple of {unit}" if unit > 1 else ""
        raise ParameterError(key, v if shown is None else shown,
                             f"{'an integer' if what == key else what} with {lo} <= {key} "
                             f"<= {hi}{multiple}")
    return v


def check_game(game):
    """What solving ``game`` would take, before anything is solved: the
    figures of ``designer rules check`` (:func:`designer.engine.solve.estimate`;
    for a game far over the memory limit ``states`` and ``memory_bytes``
    are lower bounds, ``states_at_least`` is true and
    ``estimated_seconds`` None; with two seats under the rounds ending also
    ``rule_compare_memory_bytes``, what ``designer compare`` allocates for a
    ``rule:`` or ``py:`` policy against optimal play). Where scores can fall
    the solve iterates, and ``estimated_passes`` gives the passes the time
    assumes (else None)."""
    rules = game.rules
    if game.players > 2:
        _check_seats(game)
        if game.ending == "rounds":
            est = _seat_rounds_plan(game, True)[0]  # what designer solve runs
        else:
            from designer.engine.seats import estimate as seats_estimate

            est = seats_estimate(rules.model, rules.goal, game.players)
    elif game.ending == "rounds" and rules.model.falls:
        from designer.engine.rounds_falls import falls_estimate

        est = falls_estimate(rules.model, rules.goal, game.cap, rules.ties)
    elif game.ending == "rounds":
        est = rounds_estimate(rules.model, rules.goal, cap=game.cap)
    else:
        est = estimate(rules.model, rules.goal)
    extra = {}
    if game.players == 2 and game.ending == "rounds":
        from designer.engine.rounds_match import rule_match_bytes

        # a rule reads the scores: its compare is tabled by both of them
        extra["rule_compare_memory_bytes"] = rule_match_bytes(rules.model, rules.goal)
    limit = mem.memory_limit()
    return {"name": game.name, "source": game.source, "part": game.part,
            "goal": game.goal, "komi": game.komi, "unit": game.unit,
            "players": game.players, "ending": game.ending,
            **({"ties": rules.ties} if game.ending == "rounds" else {}),
            "forced_first": rules.model.forced_first,
            "min_bank": rules.model.min_bank * game.unit,
            "scores_can_fall": rules.model.falls,
            "turn_states": rules.model.states, "start_states": est["start_states"],
            "features": _feature_ranges(rules.model),
            "states": est["positions"], "states_at_least": est["at_least"],
            "memory_bytes": est["memory"], "memory_limit_bytes": limit,
            "fits": est["memory"] <= limit, "estimated_seconds": est["seconds"],
            "estimated_passes": est.get("passes"), **extra}


def _feature_ranges(model):
    """The turn state's named features (what a ``rule:`` or ``py:`` policy
    reads beside the scores), each with its smallest and largest value."""
    return {name: [int(model.features[:, f].min()), int(model.features[:, f].max())]
            for f, name in enumerate(model.feature_names)}


#: Seconds per position of the rounds ending's solve that the exact game
#: length (the rounds match of optimal play) takes at most, about: measured
#: 6e-8 (The Great Rolled Ones) to 6.4e-7 (full Zombie Dice, Hog) on the
#: development machine (two cores, busy).
ROUNDS_LENGTH_SECONDS = 6.5e-7
#: The rounds ending's game length by its own sweeps (one feedback state)
#: takes at most about this many times the solve: measured 1.2x (Hog,
#: Fowl Play), 1.6x (Pig to 100) and 2.7x (full Zombie Dice) on the
#: development machine (benchmarks/engine_rounds_length.py).
ROUNDS_LENGTH_PER_SOLVE = 4.0
#: Seconds above which ``length=None`` leaves the rounds ending's game
#: length out (and says how long it would take).
LENGTH_AUTO_SECONDS = 10.0


def solve_game(game, max_komi=10, length=None, starts=(), progress=None):
    """Solve ``game`` exactly with the engine (and the expected game length:
    always with ``length`` True, never with False; with None too, except
    for two seats under the rounds ending when it would take over
    :data:`LENGTH_AUTO_SECONDS` by :data:`ROUNDS_LENGTH_PER_SOLVE` (or by
    :data:`ROUNDS_LENGTH_SECONDS` where the rounds match evaluates it):
    then ``length_skipped_seconds`` gives that estimate instead).

    Returns
    -------
    dict
        ``game`` (:meth:`RulesGame.describe`), ``players``, ``ending``,
        ``seat_win``, ``first_player_win`` (at the game's komi),
        ``fairness`` (its distance from 1/2), ``fair_komi`` (start points
        of the second seat, negative: of the first, that bring the first
        player's win closest to 1/2, in points) and its win,
        ``komi_table`` (komi 0 .. ``max_komi`` steps of the unit),
        ``states`` (positions solved), ``turn_states``, ``residual``,
        ``passes``, ``sweeps`` and ``seconds``. With ``length`` also
        ``expected_actions``, the expected game length in actions under
        optimal play (every throw or draw and every stop;
        :func:`designer.engine.length.game_lengths`; two seats in the
        rounds ending :func:`designer.engine.rounds_match.match_rounds_model`,
        optimal against optimal; 3-4 seats :func:`_solve_seats_game` and
        :func:`_solve_seat_rounds_game`), in each komi row too, and
        ``length_seconds``, its time (not for 3-4 seats in the rounds
        ending, whose solve carries it).

        With ``starts`` (start vectors, in units, seat 1 first, each entry
        ``0 .. goal - 1``), also ``at_starts``: per vector, ``start`` (in
        points), ``seat_win`` (every seat's win, seat 1 first) and
        ``expected_actions`` (None where the length is not computed):
        a study reads every start vector it sweeps off one solve.

    ``progress(passes, change, what)``, if given, hears each pass of the
    iterations that run where busts can lower a banked score (passes until
    nothing moves by more than :data:`~designer._jit.TOL`): ``what`` is
    ``"solve"`` (``change``: the largest change of a win) or ``"length"``
    (the game length's own passes, after the solve in the race ending;
    ``change`` relative).
    """
    starts = [tuple(int(x) for x in v) for v in starts]
    for v in starts:
        if len(v) != game.players or not all(0 <= x < game.rules.goal for x in v):
            raise DesignError(f"start {list(v)}: allowed {game.players} entries, each "
                              f"0..{game.rules.goal - 1} units")
    if game.players > 2:
        _check_seats(game)
        if game.ending == "rounds":
            return _solve_seat_rounds_game(game, max_komi, length, starts, progress)
        return _solve_seats_game(game, max_komi, length, starts, progress)
    if game.players != 2 or game.ending not in ("race", "rounds"):
        raise DesignError(f"the engine solves 2 players and the race or rounds ending, not "
                          f"{game.players} players and the {game.ending} ending")
    if game.ending == "rounds":
        return _solve_rounds_game(game, max_komi, length, starts, progress)
    rules, unit = game.rules, game.unit
    r = solve_model(rules.model, rules.goal, 0, progress=stage(progress, "solve"))
    goal, lo = rules.goal, r.floor
    h0 = int(np.searchsorted(r.start_states, 0))
    second = r.win[-lo, -lo:, h0]           # komi k >= 0: V(0, k)
    first = r.win[-lo + 1:, -lo, h0]        # seat 1 starts with m >= 1: V(m, 0)
    komis = np.concatenate((-np.arange(goal - 1, 0, -1), np.arange(goal)))
    wins = np.concatenate((first[::-1], second))
    gap = np.abs(wins - 0.5)
    best = int(np.lexsort((komis < 0, np.abs(komis), gap))[0])
    p = r.value(*game.start)
    table = [{"komi": int(k) * unit, "first_player_win": float(second[k])}
             for k in range(min(max_komi, goal - 1) + 1)]
    out = {"game": game.describe(), "players": 2, "ending": "race",
           "seat_win": [p, 1.0 - p], "first_player_win": p, "fairness": abs(p - 0.5),
           "fair_komi": int(komis[best]) * unit,
           "fair_komi_first_player_win": float(wins[best]), "komi_table": table,
           "states": r.states, "turn_states": rules.model.states, "residual": r.residual,
           "passes": r.passes, "sweeps": r.sweeps, "seconds": r.seconds}
    actions = None
    if length is not False:  # about the solve's time: always asked
        try:
            L, out["length_seconds"] = game_lengths(rules.model, r,
                                                    progress=stage(progress, "length"))
        except LengthTooLong as exc:  # the solve stands without it
            out["length_error"] = str(exc)
        else:
            actions = L[-lo:, -lo:, h0]  # from score 0 on
            _add_lengths(out, actions, game.start)
    return _add_starts(out, starts, game.unit, lambda v: [p := r.value(*v), 1.0 - p], actions)


def stage(progress, what):
    """``progress(passes, change)`` for one stage (``what``) of a
    ``progress(passes, change, what)`` as :func:`solve_game` takes it (None
    where none is given)."""
    return None if progress is None else (lambda passes, change: progress(passes, change, what))


def _add_starts(out, starts, unit, win, actions):
    """``at_starts`` of :func:`solve_game`: ``win(v)`` every seat's win at
    the start vector ``v`` (units), ``actions[v]`` the expected game length
    there (``actions`` None: not computed)."""
    if starts:
        out["at_starts"] = [
            {"start": [x * unit for x in v], "seat_win": [float(w) for w in win(v)],
             "expected_actions": None if actions is None else float(actions[v])}
            for v in starts]
    return out


def _add_lengths(out, actions, start):
    """``expected_actions`` at ``start`` and in each komi row, from the
    lengths ``actions[i, j]`` at a game's first turn (seat 1 at ``i``,
    seat 2 at ``j`` points, from 0)."""
    out["expected_actions"] = float(actions[start])
    for row in out["komi_table"]:
        row["expected_actions"] = float(actions[0, row["komi"] // out["game"]["unit"]])


def _check_seats(game):
    """Refuse, in one line, a game of more than two seats the engine does
    not solve: more than 4 seats, an ending other than the race or the
    rounds, or a turn state that counts only two seats' history (Farkle's
    farkle penalty keeps the mover's and the opponent's farkles in a
    row)."""
    if game.players > 4 or game.ending not in ("race", "rounds"):
        raise DesignError(f"the engine solves 3 or 4 players in the race or rounds ending, not "
                          f"{game.players} players and the {game.ending} ending")
    if getattr(game.rules.part, "farkles", 0):
        raise DesignError(f"{game.source}: scoring_dice.farkle_penalty counts the farkles of "
                          f"two seats (the mover's and the opponent's): allowed only with 2 "
                          f"players, not {game.players}")


def _solve_seats_game(game, max_komi, length=None, starts=(), progress=None):
    """:func:`solve_game` for three or four seats
    (:func:`designer.engine.seats.solve_seats_model`), with the keys of
    today's N-player solves: ``expected_actions`` (the game length under
    max-n play, :func:`designer.engine.seat_length.seat_lengths`, also in
    each komi row, with ``length_seconds``; unless ``length`` is False;
    where the solved play need not end, or the length would pass the memory
    limit, ``length_error`` says so instead, and the solve stands),
    ``seat_win`` (every seat, seat 1 first),
    ``fairness`` (``max_s |P_s - 1/N|``), ``fair_komi`` (a list of start
    points per seat, seat 1 none, each ``0 .. goal - 1`` units: the one
    with the smallest fairness, ties to the smallest total, then the first
    in order) with ``fair_komi_seat_win``, ``fair_komi_first_player_win``
    and ``fair_komi_fairness``, ``komi_table`` (every later seat starting
    with ``m = 0 .. max_komi`` units: ``komi``, ``first_player_win``,
    ``seat_win``, ``fairness``), ``unsettled_positions`` and
    ``unsettled_residual`` (:class:`~designer.engine.seats.SeatsResult`)."""
    from designer.engine.seats import solve_seats_model

    rules, N = game.rules, game.players
    r = solve_seats_model(rules.model, rules.goal, N, progress=stage(progress, "solve"))
    lo = r.floor
    h0 = int(np.searchsorted(r.start_states, 0))
    # seat 1 at 0 points, every later seat at 0 .. goal - 1: shape (goal,) * (N - 1) + (N,)
    at0 = r.win[(-lo,) + (slice(-lo, None),) * (N - 1) + (h0,)]
    fair = np.abs(at0 - 1.0 / N).max(axis=-1)
    grid = np.indices(fair.shape).reshape(N - 1, -1)
    order = np.lexsort(tuple(grid[::-1]) + (grid.sum(axis=0), fair.ravel()))
    fk = (0,) + tuple(int(v) for v in grid[:, order[0]])
    out = _seats_summary(game, r, fk, max_komi, "race") | {"passes": r.passes}
    if length is not False:  # about the solve's time: always asked
        from designer.engine.seat_length import seat_lengths
        from designer.errors import ConvergenceError

        try:
            L, out["length_seconds"] = seat_lengths(rules.model, r,
                                                    progress=stage(progress, "length"))
        except (ConvergenceError, TooLargeError) as exc:  # the solve stands without it
            out["length_error"] = str(exc)
            return _add_starts(out, starts, game.unit, r.value, None)
        at = L[(slice(-lo, None),) * N + (h0,)]  # from score 0 on
        _add_seat_lengths(out, at, game)
        return _add_starts(out, starts, game.unit, r.value, at)
    return _add_starts(out, starts, game.unit, r.value, None)


def _add_seat_lengths(out, at, game):
    """``expected_actions`` at the game's start and in each komi row (every
    later seat at the row's komi), from the lengths ``at[s_1, ..., s_N]``
    at a game's first turn (units, from 0)."""
    N = game.players
    out["expected_actions"] = float(at[tuple(game.start)])
    for row in out["komi_table"]:
        row["expected_actions"] = float(at[(0,) + (row["komi"] // game.unit,) * (N - 1)])


def _seats_summary(game, r, fk, max_komi, ending):
    """The keys :func:`_solve_seats_game` and :func:`_solve_seat_rounds_game`
    share, from the solve ``r`` (its ``value(start)``: every seat's win) and
    the fair komi ``fk`` (start points per seat, in units)."""
    unit, N = game.unit, game.players
    fk_win = r.value(fk)

    def row(start):
        return [float(v) for v in r.value(start)]

    win = row(game.start)
    table = []
    for m in range(min(max_komi, game.rules.goal - 1) + 1):
        w = row((0,) + (m,) * (N - 1))
        table.append({"komi": m * unit, "first_player_win": w[0], "seat_win": w,
                      "fairness": max(abs(v - 1.0 / N) for v in w)})
    return {"game": game.describe(), "players": N, "ending": ending,
            "seat_win": win, "first_player_win": win[0],
            "fairness": max(abs(v - 1.0 / N) for v in win),
            "fair_komi": [k * unit for k in fk],
            "fair_komi_seat_win": [float(v) for v in fk_win],
            "fair_komi_first_player_win": float(fk_win[0]),
            "fair_komi_fairness": float(np.abs(fk_win - 1.0 / N).max()),
            "komi_table": table, "states": r.states, "turn_states": game.rules.model.states,
            "residual": r.residual, "unsettled_positions": r.unsettled_positions,
            "unsettled_residual": r.unsettled_residual, "sweeps": r.sweeps,
            "seconds": r.seconds}


def _seat_rounds_plan(game, length):
    """``(estimate, with_length, why_not)`` of a 3-4 seat rounds solve
    asked with the game length if ``length``: with it where it fits the
    memory limit, else without, ``why_not`` saying so (``length`` False:
    ``(None, False, None)``, nothing estimated). Where scores can fall the
    solve carries the length anyway."""
    rules, N = game.rules, game.players
    if rules.model.falls:
        from designer.engine.seat_rounds_falls import estimate as falls_estimate

        est = falls_estimate(rules.model, rules.goal, N, ties=rules.ties, cap=game.cap)
        return est, length, None
    from designer.engine.seat_rounds import estimate

    if not length:
        return None, False, None
    est = estimate(rules.model, rules.goal, N, ties=rules.ties, cap=game.cap, length=True)
    if est["memory"] <= mem.memory_limit():
        return est, True, None
    why = (f"the game length of {N} players needs {est['memory'] / 2**20:,.0f} MB with the "
           f"solve, over the limit of {mem.limit_text()}")
    return estimate(rules.model, rules.goal, N, ties=rules.ties, cap=game.cap), False, why


def _solve_seat_rounds_game(game, max_komi, length=None, starts=(), progress=None):
    """:func:`solve_game` for three or four seats under the rounds ending
    (:func:`designer.engine.seat_rounds.solve_seat_rounds_model`, or where
    busts can lower a banked score
    :func:`designer.engine.seat_rounds_falls.solve_seat_rounds_falls`): the
    keys of :func:`_solve_seats_game`, plus ``ties``, ``cap`` and
    ``passes``; the fair komi may give points to any seat (seat 1 too: it
    never has the last word), one entry 0, the smallest fairness first,
    then the smallest total, then the first in order. The game length
    (unless ``length`` is False) is carried along the solve, so it has no
    time of its own; where it would pass the memory limit that the solve
    alone fits, or the solved play has turns that never end, or play that
    can pass for ever, ``length_error`` says so and the solve stands."""
    rules, unit, N = game.rules, game.unit, game.players
    _, want, error = _seat_rounds_plan(game, length is not False)
    if rules.model.falls:
        from designer.engine.length import TOO_LONG
        from designer.engine.rounds_falls import ENDLESS
        from designer.engine.seat_rounds_falls import CYCLE, solve_seat_rounds_falls

        r = solve_seat_rounds_falls(rules.model, rules.goal, N, ties=rules.ties, cap=game.cap,
                                    lengths=want, progress=stage(progress, "solve"))
        if want and r.length_problem:
            error, want = {"endless": ENDLESS, "too long": TOO_LONG,
                           "cycle": CYCLE}[r.length_problem], False
        passes = r.passes
    else:
        from designer.engine.seat_rounds import solve_seat_rounds_model

        r = solve_seat_rounds_model(rules.model, rules.goal, N, ties=rules.ties, cap=game.cap,
                                    length=want)
        passes = 1
    goal, lo = rules.goal, getattr(r, "floor", 0)
    h0 = int(np.searchsorted(r.start_states, 0))
    from_zero = (slice(-lo, None),) * N  # scores 0 .. goal - 1 (a floor below 0 left out)
    at = r.win[from_zero + (h0,)]  # shape (goal,) * N + (N,)
    grid = np.indices((goal,) * N).reshape(N, -1)
    keep = grid.min(axis=0) == 0
    vecs = grid[:, keep]
    fair = np.abs(at.reshape(-1, N)[keep] - 1.0 / N).max(axis=1)
    best = int(np.lexsort((np.arange(vecs.shape[1]), vecs.sum(axis=0), np.round(fair, 15)))[0])
    fk = tuple(int(v) for v in vecs[:, best])
    out = _seats_summary(game, r, fk, max_komi, "rounds") | {"ties": rules.ties,
                                                             "passes": passes,
                                                             "cap": r.cap * unit}
    at = None
    if want:
        at = r.actions[from_zero + (h0,)]
        if np.isnan(at).any():
            bad = tuple(int(v[0]) for v in np.nonzero(np.isnan(at)))
            error = (f"under the solved play of {N} players the turns at scores {bad} never "
                     f"end, so the game length is not defined")
            at = None
        else:
            _add_seat_lengths(out, at, game)
    if error:
        out["length_error"] = error
    return _add_starts(out, starts, unit, r.value, at)


def _rounds_out(game, X, max_komi, cap):
    """The figures of a two-seat rounds game from ``X[a, b]``, seat 1's win
    at a round's start with the scores ``a, b >= 0`` (units; the first
    turn from the game's start state): the seat wins, the fair komi
    (:func:`solve_game`) and the komi table."""
    rules, unit, goal = game.rules, game.unit, game.rules.goal
    second = X[0, :goal]             # komi k >= 0: seat 2 starts with k
    first = X[1:goal, 0]             # seat 1 starts with m >= 1
    komis = np.concatenate((-np.arange(goal - 1, 0, -1), np.arange(goal)))
    wins = np.concatenate((first[::-1], second))
    gap = np.abs(wins - 0.5)
    best = int(np.lexsort((komis < 0, np.abs(komis), gap))[0])
    p = float(X[game.start[0], game.start[1]])
    table = [{"komi": int(k) * unit, "first_player_win": float(second[k])}
             for k in range(min(max_komi, goal - 1) + 1)]
    return {"game": game.describe(), "players": 2, "ending": "rounds", "ties": rules.ties,
            "seat_win": [p, 1.0 - p], "first_player_win": p, "fairness": abs(p - 0.5),
            "fair_komi": int(komis[best]) * unit,
            "fair_komi_first_player_win": float(wins[best]), "komi_table": table,
            "turn_states": rules.model.states, "cap": cap * unit}


def _solve_rounds_falls_game(game, max_komi, length=None, starts=(), progress=None):
    """:func:`_solve_rounds_game` for a game whose busts can lower a banked
    score (:func:`designer.engine.rounds_falls.solve_rounds_falls`): the
    same figures; the expected length is carried by the solve itself."""
    from designer.engine.length import TOO_LONG
    from designer.engine.rounds_falls import ENDLESS, solve_rounds_falls

    rules, unit = game.rules, game.unit
    r = solve_rounds_falls(rules.model, rules.goal, ties=rules.ties, cap=game.cap,
                           progress=stage(progress, "solve"), lengths=length is not False)
    h0 = int(np.searchsorted(r.start_states, 0))
    lo = r.floor
    out = _rounds_out(game, r.X[-lo:, -lo:, h0], max_komi, r.cap)
    out.update(states=r.states, residual=r.residual, passes=r.passes, sweeps=r.passes,
               seconds=r.seconds)
    actions = None
    if length is not False and not r.length_finite:  # asked: "endless" or "too long"
        out["length_error"] = {"endless": ENDLESS, "too long": TOO_LONG}[r.length_problem]
    elif length is not False:
        actions = r.LX[-lo:, -lo:, h0]
        out["length_seconds"] = 0.0  # carried by the solve
        _add_lengths(out, actions, game.start)
    return _add_starts(out, starts, unit, lambda v: [p := r.win(*v), 1.0 - p], actions)


def _solve_rounds_game(game, max_komi, length=None, starts=(), progress=None):
    """:func:`solve_game` under the rounds ending
    (:func:`designer.engine.rounds.solve_rounds_model`): the same figures,
    plus ``ties`` and ``cap``."""
    from designer.engine._match_kernels import OPTIMAL
    from designer.engine.match import RulesPolicy
    from designer.engine.rounds import solve_rounds_model
    from designer.engine.rounds_length import rounds_lengths
    from designer.engine.rounds_match import match_rounds_model

    rules, unit = game.rules, game.unit
    if rules.model.falls:
        return _solve_rounds_falls_game(game, max_komi, length, starts, progress)
    r = solve_rounds_model(rules.model, rules.goal, ties=rules.ties, cap=game.cap)
    h0 = int(np.searchsorted(r.start_states, 0))
    out = _rounds_out(game, r.X[:, :, h0], max_komi, r.cap)
    out.update(states=r.states, residual=r.residual, passes=1, sweeps=r.steps,
               seconds=r.seconds)

    def win(v):
        return [p := float(r.X[v[0], v[1], h0]), 1.0 - p]

    # one feedback state: the length's own sweeps, about the solve's cost;
    # else optimal play against itself in the rounds match
    by_sweeps = r.one_feedback
    wait = (ROUNDS_LENGTH_PER_SOLVE * r.seconds if by_sweeps
            else r.states * ROUNDS_LENGTH_SECONDS)
    if length is None and wait > LENGTH_AUTO_SECONDS:
        out["length_skipped_seconds"] = round(wait, 1)
        return _add_starts(out, starts, unit, win, None)
    actions = None
    if length is not False:
        if by_sweeps:
            L, out["length_seconds"] = rounds_lengths(rules.model, r)
            actions = L[:, :, h0]
        else:
            opt = RulesPolicy(OPTIMAL, "optimal")
            m = match_rounds_model(rules.model, rules.goal, opt, opt, ties=rules.ties,
                                   solution=r)
            out["length_seconds"] = m.seconds
            actions = m.actions[0, :, :, int(np.searchsorted(m.start_states, 0))]
        _add_lengths(out, actions, game.start)
    return _add_starts(out, starts, unit, win, actions)


__all__ = ["RulesGame", "SETTINGS", "check_game", "is_rules_name", "load_path",
           "load_rules_game", "solve_game"]
