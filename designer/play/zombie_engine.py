"""The rules of Zombie Dice as pure state transitions.

As :mod:`designer.play.engine` for decks and dice: a state is an immutable
record, :func:`step` maps ``(state, action, outcome)`` to the next state and
an :class:`~designer.play.engine.Event`, and :func:`random_outcome` rolls.

Dice
    Full Zombie Dice (:class:`~designer.games.ZombieDiceGame`): a cup of
    green, yellow and red dice. A roll throws ``dice`` dice: the footprint
    dice kept in hand from the last roll, then dice drawn at random from the
    cup; if the cup holds fewer than needed, the brain dice set aside go
    back into it first (the turn total ``b`` is kept). A brain is
    set aside and adds 1 to ``b``, a shotgun is set aside, a footprint die
    stays in hand. The all-yellow model (:class:`~designer.games.ZombieGame`,
   ) throws ``dice`` identical dice from an unlimited supply (one
    colour, no cup): the same chances as keeping the footprint dice.
Turns
    The first roll of a turn is forced; ``bust_shotguns`` shotguns end the
    turn with nothing banked; otherwise the mover rolls again or holds and
    banks ``b``. The second player holds as soon as holding wins the game
    (a score of ``goal`` or more, above the first player's): the engine does
    it, as the deck engine holds at the goal.
Rounds
    Seat 0 then seat 1 (who starts with ``komi``). A round ending with a
    score of ``goal`` or more ends the game, the higher score winning; a tie
    there plays another full round (``tie`` holds the tied score).

An outcome is a tuple with one ``(colour, face)`` per die thrown, the dice
in hand first (in colour order), then the drawn ones; ``colour`` indexes
:attr:`ZombieState.colours` and ``face`` is ``"brain"``, ``"shotgun"`` or
``"footprint"``.
"""

from dataclasses import dataclass, replace

from designer.play.engine import Event, IllegalMove

FACES = ("brain", "shotgun", "footprint")


def colours(game):
    """Colour names and ``(brain, shotgun, footprint)`` faces of ``game``'s dice."""
    if hasattr(game, "counts"):
        return ("green", "yellow", "red"), game.faces
    return ("die",), ((game.brains, game.shotguns, game.footprints),)


@dataclass(frozen=True)
class ZombieState:
    """A position of a Zombie Dice game; see the module docstring.

    ``brains``, ``shotguns`` and ``hand`` count, by colour, the dice set aside
    as brains and as shotguns this turn and the footprint dice in hand.
    """

    game: object
    scores: tuple
    mover: int = 0
    b: int = 0
    brains: tuple = ()
    shotguns: tuple = ()
    hand: tuple = ()
    rolled: bool = False
    tie: object = None
    winner: object = None

    family = "zombie"

    @property
    def over(self):
        return self.winner is not None

    @property
    def k(self):
        """The turn total (``b``), under the name the deck and dice states use."""
        return self.b

    @property
    def s(self):
        """Shotguns taken this turn."""
        return sum(self.shotguns)

    @property
    def colours(self):
        return colours(self.game)[0]

    @property
    def unlimited(self):
        """True for the all-yellow model: no cup, every die thrown is new."""
        return not hasattr(self.game, "counts")

    def cup(self, returned=False):
        """Dice in the cup by colour (``returned``: with the brains put back);
        None for the unlimited supply of the all-yellow model."""
        if self.unlimited:
            return None
        return tuple(n - s - h - (0 if returned else br) for n, br, s, h in
                     zip(self.game.counts, self.brains, self.shotguns, self.hand, strict=True))

    def returns_brains(self):
        """Whether the next roll puts the brains set aside back into the cup."""
        if self.unlimited:
            return False
        return sum(self.cup()) < self.game.dice - sum(self.hand)

    def legal(self):
        """Rolling is always allowed; holding after the turn's first roll."""
        if self.over:
            return ()
        return ("roll", "hold") if self.rolled else ("roll",)

    def mover_view(self):
        """``(p, i, j, b, s)``: seat ``p`` 1 or 2, the mover's score, the
        opponent's, the turn total and the shotguns (what the human policies
        read)."""
        return (self.mover + 1, self.scores[self.mover], self.scores[1 - self.mover], self.b,
                self.s)

    def config(self):
        """The dice configuration ``(B_g, B_y, B_r, S_g, S_y, S_r, F_g, F_y, F_r)``
        of :mod:`designer.solve.zombie_dice_states` (full game)."""
        return (*self.brains, *self.shotguns, *self.hand)


def new_game(game):
    """The opening position: seat 0 to roll, seat 1 holding ``komi`` points."""
    zero = (0,) * len(colours(game)[0])
    return ZombieState(game, (0, game.komi), brains=zero, shotguns=zero, hand=zero)


def _turn_over(state, banked):
    """End the mover's turn banking ``banked``; end the round after seat 1."""
    scores = list(state.scores)
    scores[state.mover] += banked
    zero = (0,) * len(state.colours)
    nxt = replace(state, scores=tuple(scores), b=0, brains=zero, shotguns=zero, hand=zero,
                  rolled=False)
    if state.mover == 0:
        return replace(nxt, mover=1)
    a, c = scores
    if max(a, c) >= state.game.goal:
        if a == c:
            return replace(nxt, mover=0, tie=a)
        return replace(nxt, winner=0 if a > c else 1)
    return replace(nxt, mover=0)


def _check_outcome(state, outcome):
    """Refuse an outcome the dice in hand and the cup cannot produce."""
    names = state.colours
    dice = state.game.dice
    if not isinstance(outcome, tuple) or len(outcome) != dice:
        raise IllegalMove(f"a roll throws {dice} dice: give one (colour, face) per die")
    for die in outcome:
        if (not isinstance(die, tuple) or len(die) != 2 or die[1] not in FACES
                or isinstance(die[0], bool) or not isinstance(die[0], int)
                or not 0 <= die[0] < len(names)):
            raise IllegalMove(f"a die is (colour 0..{len(names) - 1}, face in {FACES}), "
                              f"not {die!r}")
    held = [c for c, n in enumerate(state.hand) for _ in range(n)]
    if [c for c, _ in outcome[:len(held)]] != held:
        raise IllegalMove("the dice in hand are rolled first, in colour order")
    if not state.unlimited:
        cup = state.cup(returned=state.returns_brains())
        drawn = [0] * len(names)
        for c, _ in outcome[len(held):]:
            drawn[c] += 1
        if any(d > n for d, n in zip(drawn, cup, strict=True)):
            raise IllegalMove(f"the cup holds {dict(zip(names, cup, strict=True))}")
    for c, face in outcome:
        if colours(state.game)[1][c][FACES.index(face)] == 0:
            raise IllegalMove(f"a {names[c]} die has no {face} face")


def step(state, action, outcome=None):
    """Apply ``"roll"`` (with its ``outcome``) or ``"hold"``; returns
    ``(next_state, event)``.

    Raises
    ------
    IllegalMove
        The game is over, a hold before the turn's first roll, or an outcome
        the dice cannot show.
    """
    if state.over:
        raise IllegalMove("the game is over")
    if action not in state.legal():
        if action == "hold":
            raise IllegalMove("you must roll at least once each turn")
        raise IllegalMove(f"{action!r} is not allowed now: choose {' or '.join(state.legal())}")
    seat = state.mover
    if action == "hold":
        return _turn_over(state, state.b), Event(seat, "hold", None, gained=state.b)
    _check_outcome(state, outcome)
    returned = state.returns_brains()
    brains = [0] * len(state.brains) if returned else list(state.brains)
    shotguns, hand = list(state.shotguns), [0] * len(state.hand)
    b = state.b
    for c, face in outcome:
        if face == "brain":
            brains[c] += 1
            b += 1
        elif face == "shotgun":
            shotguns[c] += 1
        else:
            hand[c] += 1
    named = tuple((state.colours[c], face) for c, face in outcome)
    if sum(shotguns) >= state.game.bust_shotguns:
        return _turn_over(state, 0), Event(seat, "roll", named, bust=True, reshuffled=returned)
    nxt = replace(state, b=b, brains=tuple(brains), shotguns=tuple(shotguns), hand=tuple(hand),
                  rolled=True)
    G = state.game.goal
    mine = state.scores[seat] + b
    if seat == 1 and mine >= G and mine > state.scores[0]:  # holding wins: the engine holds
        won = _turn_over(nxt, b)
        return won, Event(seat, "roll", named, gained=b, reshuffled=returned, won=True)
    return nxt, Event(seat, "roll", named, reshuffled=returned)


def random_outcome(state, rng):
    """Roll: the dice in hand, then dice drawn from the cup without
    replacement (after returning the brains if it runs short), each showing
    a face chosen uniformly among its faces.

    Parameters
    ----------
    rng : numpy.random.Generator
    """
    faces = colours(state.game)[1]
    dice = [c for c, n in enumerate(state.hand) for _ in range(n)]
    need = state.game.dice - len(dice)
    if state.unlimited:
        dice += [0] * need
    else:
        cup = list(state.cup(returned=state.returns_brains()))
        for _ in range(need):
            r = rng.integers(sum(cup))
            c = 0
            while r >= cup[c]:
                r -= cup[c]
                c += 1
            cup[c] -= 1
            dice.append(c)
    out = []
    for c in dice:
        f = rng.integers(sum(faces[c]))
        kind = 0 if f < faces[c][0] else 1 if f < faces[c][0] + faces[c][1] else 2
        out.append((c, FACES[kind]))
    return tuple(out)
