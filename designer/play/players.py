"""Computer opponents for ``designer play``, one per level.

Every player has one method, ``decide(state) -> action``, where ``state`` is
a :class:`~designer.play.engine.DeckState` or ``DiceState`` whose mover is
the player, and the action is one of ``state.legal()``: ``"draw"`` or
``"hold"`` for decks, ``"roll"`` or ``"hold"`` for dice. The engine ends a
turn that reaches the goal by itself, so players are never asked there.

Levels
------
easy (timid)
    Holds as soon as the turn total reaches :data:`TIMID_HOLD_AT` (2 for
    decks; for dice, half the max-score threshold, 10 for Pig).
medium (max-score, SPEC 2)
    Decks: draw iff ``k == 0`` or ``c_rem > w_rem * k``, the rule that
    maximises the expected points of the turn one draw ahead. Dice: roll iff
    the expected gain of a roll beats the expected loss,
    ``sum(scoring pips) > k * len(bust_faces)`` (hold at 20 in Pig).
hard (optimal)
    The exact optimal policy of :func:`designer.solve.solve` (ties: hold).

The two simple rules (:func:`timid_rule`, :func:`max_score_rule`) are the
only place the easy and medium levels are defined; a general policy module
can replace them by swapping the entries of :data:`LEVELS`.
"""

from designer.errors import DesignError

LEVELS = ("easy", "medium", "hard")

#: Turn total at which the easy (timid) deck player holds.
TIMID_HOLD_AT = 2


def _to_action(state, draw):
    if draw:
        return "draw" if state.family == "deck" else "roll"
    return "hold"


def max_score_threshold(game):
    """Dice: the turn total from which max-score holds (20 for Pig)."""
    gain = sum(f for f in range(1, game.faces + 1) if f not in game.bust_faces)
    # roll iff gain > k * busts: the first k failing that is ceil(gain / busts)
    return max(1, -(-gain // len(game.bust_faces)))


def timid_rule(state):
    """Easy: hold once the turn total reaches the timid threshold."""
    if state.family == "deck":
        hold_at = TIMID_HOLD_AT
    else:
        hold_at = max(1, max_score_threshold(state.game) // 2)
    return state.k < hold_at


def max_score_rule(state):
    """Medium: the max-score rule of SPEC 2 (dice: expected gain > expected loss)."""
    if state.family == "deck":
        return state.k == 0 or state.good_left > state.bad_left * state.k
    g = state.game
    gain = sum(f for f in range(1, g.faces + 1) if f not in g.bust_faces)
    return gain > state.k * len(g.bust_faces)


class RulePlayer:
    """A computer player following a plain rule ``state -> draw?``."""

    def __init__(self, level, rule):
        self.level = level
        self.rule = rule

    def decide(self, state):
        if state.family == "deck" and state.k == 0:
            return "draw"  # the first draw of a deck turn is forced
        return _to_action(state, self.rule(state))


class OptimalPlayer:
    """Hard: the exact optimal policy of a solved game."""

    level = "hard"

    def __init__(self, solution):
        self.solution = solution

    def decide(self, state):
        return self.solution.decision(*state.mover_view())


def make_player(level, solution):
    """The computer player for ``level`` ("easy", "medium" or "hard").

    ``solution`` is the exact solve of the game (used by "hard").
    """
    if level == "easy":
        return RulePlayer("easy", timid_rule)
    if level == "medium":
        return RulePlayer("medium", max_score_rule)
    if level == "hard":
        return OptimalPlayer(solution)
    raise DesignError(f"invalid level={level!r}: allowed {', '.join(LEVELS)}")
