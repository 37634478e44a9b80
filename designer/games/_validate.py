"""Validation helpers shared by the rules objects."""

import numbers

from designer.errors import ParameterError


def check_int(name, value, low, high=None):
    """Return ``value`` as an int after checking ``low <= value <= high``.

    Raises
    ------
    ParameterError
        If ``value`` is not an integer (booleans and non-integral floats are
        refused) or lies outside the range.
    """
    allowed = f"an integer with {low} <= {name}" + (f" <= {high}" if high is not None else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(name, value, allowed)
    if isinstance(value, numbers.Integral):
        ivalue = int(value)
    elif float(value).is_integer():
        ivalue = int(value)
    else:
        raise ParameterError(name, value, allowed)
    if ivalue < low or (high is not None and ivalue > high):
        raise ParameterError(name, value, allowed)
    return ivalue


#: Seats a jeopardy game may have.
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Ways a game may end.
ENDINGS = ("race", "rounds")


def check_players(value):
    """Return the number of seats, an integer ``2 <= players <= 4``."""
    return check_int("players", value, MIN_PLAYERS, MAX_PLAYERS)


def check_ending(value):
    """Return the ending, ``"race"`` or ``"rounds"``."""
    if not isinstance(value, str) or value not in ENDINGS:
        raise ParameterError("ending", value, " or ".join(ENDINGS))
    return value


def start_scores(komi, players, goal, ending="race"):
    """Normalise a komi to the per-seat start scores, seat 1 first.

    Parameters
    ----------
    komi : int or sequence of int
        One integer ``m``: with ``m >= 0`` every seat after the first starts
        with ``m`` points (for two players: the second player's points); with
        ``m < 0`` seat 1 starts with ``-m`` points and the others with none.
        A sequence: one entry per seat, seat 1 first, each ``>= 0``.
        Points for seat 1 (a negative int, or a non-zero first entry) are
        allowed only under the ``rounds`` ending: under the race ending seat
        1 already has the edge of moving first, so giving it points never
        compensates anyone (``komi[1] = 0`` unless the ending
        favours a later seat).
    players : int
        Number of seats (already validated).
    goal : int
        Every start score must stay below the goal.
    ending : str
        ``"race"`` or ``"rounds"`` (already validated).

    Returns
    -------
    (tuple of int, int or tuple)
        The start scores and the komi in its normal form: an int when the
        start scores are ``(0, m, ..., m)`` or ``(m, 0, ..., 0)`` with two
        players, otherwise a tuple.
    """
    low = 0 if ending == "race" else -(goal - 1)
    if isinstance(komi, str) or not hasattr(komi, "__len__"):
        m = check_int("komi", komi, -(goal - 1), goal - 1)
        if m < low:
            raise ParameterError("komi", komi,
                                 f"an integer with 0 <= komi <= {goal - 1} under the race ending "
                                 "(negative komi, points for seat 1, needs --ending rounds)")
        scores = (0,) + (m,) * (players - 1) if m >= 0 else (-m,) + (0,) * (players - 1)
        return scores, m
    raw = tuple(komi)
    if len(raw) != players:
        raise ParameterError("komi", list(raw),
                             f"one integer, or a list of {players} integers "
                             f"(one per seat, seat 1 first) for {players} players")
    scores = tuple(check_int("komi", s, 0, goal - 1) for s in raw)
    if ending == "race" and scores[0] != 0:
        raise ParameterError("komi", list(raw),
                             "a first entry of 0 under the race ending (seat 1 moves first; "
                             "points for seat 1 need --ending rounds)")
    return scores, normal_komi(scores)


def normal_komi(scores):
    """The komi form of per-seat start scores: an int when one number says it.

    ``(0, m, ..., m)`` is ``m``; with two players ``(m, 0)`` is ``-m``;
    anything else stays a tuple.
    """
    if scores[0] == 0 and all(s == scores[1] for s in scores[1:]):
        return scores[1]
    if len(scores) == 2 and scores[1] == 0:
        return -scores[0]
    return tuple(scores)


def komi_param(komi):
    """The komi as it appears in ``params`` (a list when per seat, for JSON)."""
    return list(komi) if isinstance(komi, tuple) else komi


def seat_params(game):
    """``players`` and ``ending`` for ``params``, only when not the default
    two-player race (so that existing design keys and tables keep their form)."""
    out = {}
    if game.players != 2 or game.ending != "race":
        out["players"] = game.players
        out["ending"] = game.ending
    return out


def describe_seats(game):
    """The part of ``describe()`` that says who starts with what."""
    s = game.start_scores
    if game.players == 2 and s[0] == 0:
        text = f"second player starts with {s[1]} point{'s' if s[1] != 1 else ''}"
    elif not any(s):
        text = f"{game.players} players, no komi"
    else:
        text = "start scores " + ", ".join(f"seat {n + 1}: {v}" for n, v in enumerate(s))
        if game.players != 2:
            text = f"{game.players} players, " + text
    if game.ending != "race":
        text += f", {game.ending} ending"
    return text
