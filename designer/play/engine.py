"""The rules of a played game as pure state transitions.

No terminal, no randomness, no solver: a state is an immutable record and
:func:`step` maps ``(state, action, outcome)`` to the next state and an
:class:`Event` saying what happened. Where the outcome of a draw or a roll
comes from (a seeded shuffle, a physical deck typed in by hand) is the
caller's business; :func:`random_outcome` is the shuffle.

Seats
    A game has ``game.players`` seats, 0 .. N-1 (2 to 4), each starting with
    its entry of ``game.start_scores`` (two players: seat 1 holds the komi).
    Seats move in order 0, 1, ..., N-1, 0, ...; the deck is shared by all
    seats and persists across turns; the first seat to reach the goal wins
    at once (the race ending; the rounds ending is not played).

Deck games
    Seats 0 (first player) and 1 (second player, who starts with ``komi``),
    or more.
    ``k`` is the turn total, ``w`` and ``c`` the bad and good items drawn
    since the last shuffle (``k`` included in ``c``). The first draw of a turn
    is forced (holding needs ``k > 0``). A good item adds 1; when the mover's
    score plus ``k`` reaches the goal the mover holds and wins at once. A bad
    item loses the turn; when it is the last bad item the container is
    refilled and shuffled (``w = c = 0``) before the next turn.

Dice games
    A roll showing a bust face loses the turn; any other face adds its pips.
    Holding is allowed at any point (at ``k = 0`` it passes). Reaching the
    goal holds and wins at once.

Zombie Dice has its own rules module,
:mod:`designer.play.zombie_engine`; :func:`new_game`, :func:`step` and
:func:`random_outcome` hand its states over to it.

Every state can be read from the mover's side by :meth:`mover_view`, which
gives the ``(i, j, k, w, c)`` (deck) or ``(i, j, k)`` (dice) tuple the solver
and the players use; with N seats the N scores come first, in seat order
starting with the mover (``(s_0, ..., s_{N-1}, k, w, c)``), as the N-player
solution (:class:`~designer.solve.solution.SeatSolution`) indexes them.
"""

from dataclasses import dataclass, replace

from designer.errors import DesignError


class IllegalMove(DesignError):
    """An action or outcome the rules do not allow in this state."""


@dataclass(frozen=True)
class Event:
    """What one :func:`step` did, for the log and the analysis.

    Attributes
    ----------
    seat : int
        The seat that acted.
    action : str
        ``"draw"``, ``"roll"`` or ``"hold"``.
    outcome : str or int or tuple or None
        ``"good"``/``"bad"`` for a draw, the face for a roll (Zombie Dice:
        one ``(colour, face)`` per die), None for a hold.
    gained : int
        Points banked by this action (a hold or a winning draw/roll), else 0.
    bust : bool
        The turn was lost (bad item or bust face).
    reshuffled : bool
        The last bad item was drawn and the container was refilled (Zombie
        Dice: the brains set aside went back into the cup before the roll).
    won : bool
        The action ended the game in the actor's favour.
    """

    seat: int
    action: str
    outcome: object
    gained: int = 0
    bust: bool = False
    reshuffled: bool = False
    won: bool = False


def _from_mover(scores, mover):
    """The scores in seat order starting with ``mover``."""
    n = len(scores)
    return tuple(scores[(mover + r) % n] for r in range(n))


def _next(state):
    """The seat after the mover."""
    return (state.mover + 1) % len(state.scores)


@dataclass(frozen=True)
class DeckState:
    """A position of a deck game; see the module docstring."""

    game: object
    scores: tuple
    mover: int = 0
    k: int = 0
    w: int = 0
    c: int = 0
    winner: object = None

    family = "deck"

    @property
    def players(self):
        """Number of seats."""
        return len(self.scores)

    @property
    def over(self):
        return self.winner is not None

    @property
    def bad_left(self):
        return self.game.bad - self.w

    @property
    def good_left(self):
        return self.game.good - self.c

    def legal(self):
        """Actions allowed now: the first draw of a turn is forced."""
        if self.over:
            return ()
        return ("draw", "hold") if self.k > 0 else ("draw",)

    def outcomes(self):
        """Outcomes a draw can have now, with their probabilities."""
        total = self.bad_left + self.good_left
        out = {}
        if self.good_left:
            out["good"] = self.good_left / total
        if self.bad_left:
            out["bad"] = self.bad_left / total
        return out

    def mover_view(self):
        """``(i, j, k, w, c)`` from the mover's side; with N seats
        ``(s_0, ..., s_{N-1}, k, w, c)``, the scores from the mover on."""
        return _from_mover(self.scores, self.mover) + (self.k, self.w, self.c)


@dataclass(frozen=True)
class DiceState:
    """A position of a dice game."""

    game: object
    scores: tuple
    mover: int = 0
    k: int = 0
    winner: object = None

    family = "dice"

    @property
    def players(self):
        """Number of seats."""
        return len(self.scores)

    @property
    def over(self):
        return self.winner is not None

    def legal(self):
        """Rolling and holding are always allowed (holding at 0 passes)."""
        return () if self.over else ("roll", "hold")

    def outcomes(self):
        """Faces a roll can show, each with probability ``1 / faces``."""
        return {f: 1.0 / self.game.faces for f in range(1, self.game.faces + 1)}

    def mover_view(self):
        """``(i, j, k)`` from the mover's side; with N seats
        ``(s_0, ..., s_{N-1}, k)``, the scores from the mover on."""
        return _from_mover(self.scores, self.mover) + (self.k,)


def _zombie():
    from designer.play import zombie_engine  # it builds on this module's Event

    return zombie_engine


def new_game(game):
    """The opening position: seat 0 to move, every seat holding its start
    points (two players: seat 1 holds ``komi``; Zombie Dice:
    :mod:`designer.play.zombie_engine`).

    Raises
    ------
    DesignError
        A deck or dice game with the rounds ending (only the race is played).
    """
    if game.family in ("deck", "dice") and game.ending != "race":
        raise DesignError(f"cannot play {game.name} with the {game.ending} ending: designer "
                          "play plays the race ending (first to the goal wins)")
    if game.family == "deck":
        return DeckState(game, tuple(game.start_scores))
    if game.family == "dice":
        return DiceState(game, tuple(game.start_scores))
    if game.family == "zombie":
        return _zombie().new_game(game)
    raise DesignError(f"cannot play {game.name}: play supports deck, dice and zombie games")


def _bank(state, points):
    scores = list(state.scores)
    scores[state.mover] += points
    return tuple(scores)


def step(state, action, outcome=None):
    """Apply one action and return ``(next_state, event)``.

    Parameters
    ----------
    state : DeckState or DiceState
    action : str
        ``"draw"`` (deck), ``"roll"`` (dice) or ``"hold"``.
    outcome : str or int
        For a draw, ``"good"`` or ``"bad"``; for a roll, the face shown.

    Raises
    ------
    IllegalMove
        The game is over, the action is not allowed (holding before the
        first draw of a deck turn), or the outcome is impossible (a good item
        when none is left, a face the die does not have).
    """
    if state.family == "zombie":
        return _zombie().step(state, action, outcome)
    if state.over:
        raise IllegalMove("the game is over")
    if action not in state.legal():
        if action == "hold" and state.family == "deck":
            raise IllegalMove("you must draw at least once each turn")
        raise IllegalMove(f"{action!r} is not allowed now: choose {' or '.join(state.legal())}")
    seat = state.mover
    i = state.scores[seat]
    if action == "hold":
        nxt = replace(state, scores=_bank(state, state.k), mover=_next(state), k=0)
        return nxt, Event(seat, "hold", None, gained=state.k)
    if state.family == "deck":
        return _draw(state, outcome, seat, i)
    return _roll(state, outcome, seat, i)


def _draw(state, item, seat, i):
    if item not in ("good", "bad"):
        raise IllegalMove(f"a drawn item is 'good' or 'bad', not {item!r}")
    if item == "good":
        if state.good_left == 0:
            raise IllegalMove("no good item is left: this draw must be bad")
        k = state.k + 1
        if i + k >= state.game.goal:
            nxt = replace(state, scores=_bank(state, k), k=0, c=state.c + 1, winner=seat)
            return nxt, Event(seat, "draw", "good", gained=k, won=True)
        return replace(state, k=k, c=state.c + 1), Event(seat, "draw", "good")
    if state.bad_left == 0:  # cannot happen after a reshuffle, kept for typed-in decks
        raise IllegalMove("no bad item is left: this draw must be good")
    w = state.w + 1
    reshuffled = w == state.game.bad
    w, c = (0, 0) if reshuffled else (w, state.c)
    nxt = replace(state, mover=_next(state), k=0, w=w, c=c)
    return nxt, Event(seat, "draw", "bad", bust=True, reshuffled=reshuffled)


def _roll(state, face, seat, i):
    g = state.game
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= g.faces:
        raise IllegalMove(f"a roll shows a face 1..{g.faces}, not {face!r}")
    if face in g.bust_faces:
        return replace(state, mover=_next(state), k=0), Event(seat, "roll", face, bust=True)
    k = state.k + face
    if i + k >= g.goal:
        nxt = replace(state, scores=_bank(state, k), k=0, winner=seat)
        return nxt, Event(seat, "roll", face, gained=k, won=True)
    return replace(state, k=k), Event(seat, "roll", face)


def random_outcome(state, rng):
    """Draw an item (uniformly from what is left) or roll the die.

    Drawing a uniformly random item from the remaining contents is the same
    as taking the next item of a uniformly shuffled container.

    Parameters
    ----------
    rng : numpy.random.Generator
    """
    if state.family == "zombie":
        return _zombie().random_outcome(state, rng)
    if state.family == "deck":
        return "bad" if rng.random() * (state.bad_left + state.good_left) < state.bad_left else "good"
    return int(rng.integers(1, state.game.faces + 1))
