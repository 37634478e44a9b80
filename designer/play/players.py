"""Computer opponents for ``designer play``, one per level.

Every player has one method, ``decide(state) -> action``, where ``state`` is
a :class:`~designer.play.engine.DeckState` or ``DiceState`` whose mover is
the player, and the action is one of ``state.legal()``: ``"draw"`` or
``"hold"`` for decks, ``"roll"`` or ``"hold"`` for dice. The engine ends a
turn that reaches the goal by itself, so players are never asked there.

The levels are policies of :mod:`designer.policies`:

easy (timid)
    ``hold-at:N`` with N = :data:`TIMID_HOLD_AT` (2) for decks and half the
    max-score threshold for dice (10 for Pig).
medium
    ``max-score`` (dice: roll while the expected gain of a roll
    beats its expected loss, i.e. hold at 20 in Pig).
hard
    The exact optimal policy, or a trained 118-weight network
    (``nn:FILE``, deck games) when one is given.
rule:FILE
    A human-playable rule saved by ``designer strategy --out``.

Three or four seats
    Hard plays the N-player (max-n) optimal policy of the
    :class:`~designer.solve.solution.SeatSolution`. Easy, medium and
    ``rule:FILE`` play the same two-player rules, reading the position as
    the two-player view ``(own score, highest opponent score, k[, w, c])``
    (the two-player abstraction; easy and medium ignore the scores
    anyway). ``--nn`` plays two-player games only.

Rules games (a rules file or a shipped example; 2-4 seats, either ending)
    Easy stops once the turn total reaches :data:`RULES_HOLD_AT` ``["easy"]``
    (20%) of the goal; medium at 35%, or earlier once even the best
    continuation is expected to lose points (its expected gain, a bust
    costing the turn total, is negative). Both take the continuation of
    largest expected gain and, after a throw with a choice, the option of
    most points. Hard plays the exact optimal (with 3-4 seats max-n) policy
    (:mod:`designer.play.rules_engine`, :mod:`designer.play.rules_seat_rounds`).

Zombie Dice plays the slides' rules: easy is
``fixed_hold_at``, medium ``neller`` (both read the seat, the two scores, the
brains and the shotguns of the turn), hard the exact optimal policy.
"""

from designer.errors import DesignError

LEVELS = ("easy", "medium", "hard")

#: Turn total at which the easy (timid) deck player holds.
TIMID_HOLD_AT = 2


def max_score_threshold(game):
    """Dice: the turn total from which max-score holds (20 for Pig)."""
    gain = sum(f for f in range(1, game.faces + 1) if f not in game.bust_faces)
    # roll iff gain > k * busts: the first k failing that is ceil(gain / busts)
    return max(1, -(-gain // len(game.bust_faces)))


def timid_hold_at(game):
    """The easy level's hold-at threshold for ``game``."""
    if game.family == "deck":
        return TIMID_HOLD_AT
    return max(1, max_score_threshold(game) // 2)


def two_player_view(state):
    """The mover's view with the opponents folded into the leading one:
    ``(i, j, k, w, c)`` (decks) or ``(i, j, k)`` (dice), ``j`` the highest
    opponent score; with two seats :meth:`mover_view` itself."""
    view = state.mover_view()
    N = state.players
    if N == 2:
        return view
    return (view[0], max(view[1:N])) + tuple(view[N:])


class PolicyPlayer:
    """A computer player following a :class:`designer.policies.base.Policy`
    (with three or four seats read at :func:`two_player_view`)."""

    def __init__(self, level, policy):
        self.level = level
        self.policy = policy

    def decide(self, state):
        if state.family == "deck":
            if state.k == 0:
                return "draw"  # the first draw of a deck turn is forced
            return "draw" if self.policy.draws(*two_player_view(state)) else "hold"
        return "roll" if self.policy.rolls(*two_player_view(state)) else "hold"


class OptimalPlayer:
    """Hard: the exact optimal policy of a solved game (per-state look-up;
    with three or four seats the max-n policy of a SeatSolution, read at the
    full mover view)."""

    level = "hard"

    def __init__(self, solution):
        self.solution = solution

    def decide(self, state):
        return self.solution.decision(*state.mover_view())


#: Share of the goal at which the simple rules-game players stop.
RULES_HOLD_AT = {"easy": 0.20, "medium": 0.35}


class RulesSimplePlayer:
    """Easy and medium for a rules game (see the module doc)."""

    def __init__(self, level, game):
        import math

        self.level = level
        self.target = max(1, math.ceil(RULES_HOLD_AT[level] * game.rules.goal - 1e-9))

    def decide(self, state):
        from designer.play.rules_engine import STOP, best_gain, expected_gain, most_points

        if state.pending is not None:
            return most_points(state)
        go = best_gain(state)
        if go is None or not state.can_stop():
            return go or STOP
        if state.t >= self.target:
            return STOP
        if self.level == "medium" and state.t > 0 and expected_gain(state, go[1]) < 0:
            return STOP
        return go


class RulesRulePlayer:
    """A rule of your own (``--level rule:RULE`` or ``rule:FILE.toml``) for a
    rules game, played as ``designer compare`` plays it: it banks a total
    that wins the game, goes on where it may not stop, takes the first way
    to go on, and at a choice of dice to keep the option of most points."""

    def __init__(self, level, rule, game):
        self.level = level
        self.rule = rule
        self.game = game

    def decide(self, state):
        from designer.engine.policy_tables import rule_goes
        from designer.play.rules_engine import STOP, holding_wins, most_points

        if state.pending is not None:
            return most_points(state)
        goes = [a for a in state.legal() if a[0] == "go"]
        if not state.can_stop():
            return goes[0] if goes else STOP
        if not goes or holding_wins(state, state.t):
            return STOP
        i, j, s, t = state.mover_view()
        g = self.game
        return goes[0] if rule_goes(self.rule, g.rules.model, g.rules.goal, g.unit, i, j, s,
                                    t) else STOP


class RulesOptimalPlayer:
    """Hard for a rules game: the action of largest exact value."""

    level = "hard"

    def __init__(self, solution):
        self.solution = solution

    def decide(self, state):
        return self.solution.best(state)


#: The human policies that play Zombie Dice at each level.
ZOMBIE_LEVELS = {"easy": "fixed_hold_at", "medium": "neller"}


class ZombieRulePlayer:
    """A Zombie Dice player following one of the human policies."""

    def __init__(self, level, name):
        from designer.policies.zombie import _FUNCTIONS

        self.level = level
        self.name = name
        self.rolls = _FUNCTIONS[name]

    def decide(self, state):
        if not state.rolled:
            return "roll"  # the first roll of a turn is forced
        return "roll" if self.rolls(*state.mover_view()) else "hold"


def zombie_model_position(state):
    """``(p, i, j, b)`` of a played Zombie Dice state in the solved model.

    The solver normalises tie rounds to the tie at the goal (only score
    differences matter once both players hold the goal,
    :mod:`designer.solve._zombie_kernel`), so a tie round at ``t`` shifts
    both scores down by ``t - goal``.
    """
    shift = state.tie - state.game.goal if state.tie is not None else 0
    p, i, j, b, _ = state.mover_view()
    return p, i - shift, j - shift, b


class ZombieOptimalPlayer:
    """Hard: the exact optimal policy of a solved Zombie Dice game."""

    level = "hard"

    def __init__(self, solution):
        self.solution = solution

    def decide(self, state):
        if not state.rolled:
            return "roll"
        p, i, j, b = zombie_model_position(state)
        cap = state.game.cap
        if j > cap:  # beyond the model (the opponent banked past the cap): chase
            return "roll"
        if i + b >= cap:  # the model holds at the cap
            return "hold"
        last = state.config() if hasattr(state.game, "counts") else state.s
        return self.solution.decision(p, i, j, b, last)


def check_level(level, game, nn=None):
    """Refuse a level (and ``--nn``) ``game`` cannot be played at, before
    any solve; returns the loaded policy of a ``rule:FILE`` level, else None.

    Raises
    ------
    DesignError
        An unknown level, ``--nn`` without hard or with more than two seats,
        a rule for Zombie Dice, or a rule file that cannot be read.
    """
    from designer.policies.parse import parse_policy

    rule = isinstance(level, str) and level.startswith("rule:")
    if level not in LEVELS and not rule:
        raise DesignError(f"invalid --level={level!r}: allowed {', '.join(LEVELS)} or rule:FILE")
    if nn is not None and level != "hard":
        raise DesignError("--nn sets the hard level's player: use it with --level hard")
    if nn is not None and getattr(game, "players", 2) != 2:
        raise DesignError(f"--nn plays two-player games: with {game.players} players the hard "
                          "level plays the N-player optimal policy")
    if nn is not None and game.family == "rules":
        raise DesignError(f"--nn plays deck games in the race: {game.name} ({game.kind}) is "
                          "played at hard by its exact optimal policy")
    if not rule:
        return None
    if game.family == "rules":
        from designer.engine.match import parse_rules_policy

        return parse_rules_policy(level, game)
    if game.family not in ("deck", "dice"):
        raise DesignError(f"--level rule:FILE plays deck, dice and rules games, not {game.name}")
    return parse_policy(level, game)


def make_player(level, solution, nn=None, game=None):
    """The computer player for ``level`` ("easy", "medium" or "hard").

    ``solution`` is the exact solve of the game (it names the game, and
    "hard" plays it; a SeatSolution for three or four seats); ``nn`` is a
    trained network file for "hard" (two seats). Zombie
    Dice's easy and medium players need no solve: pass ``solution=None``
    and the ``game``.
    """
    from designer.policies.builtin import HoldAtPolicy, MaxScorePolicy
    from designer.policies.parse import parse_policy

    game = solution.game if solution is not None else game
    rule = check_level(level, game, nn)
    if rule is not None and game.family == "rules":
        return RulesRulePlayer(level, rule.source, game)
    if rule is not None:
        return PolicyPlayer(level, rule)
    if game.family == "rules":
        return RulesOptimalPlayer(solution) if level == "hard" else RulesSimplePlayer(level, game)
    if game.family == "zombie":
        if nn is not None:
            raise DesignError("--nn plays deck games: Zombie Dice has no network player")
        if level == "hard":
            return ZombieOptimalPlayer(solution)
        return ZombieRulePlayer(level, ZOMBIE_LEVELS[level])
    if level == "easy":
        return PolicyPlayer("easy", HoldAtPolicy(game, timid_hold_at(game)))
    if level == "medium":
        return PolicyPlayer("medium", MaxScorePolicy(game))
    if nn is not None:
        return PolicyPlayer("hard", parse_policy(f"nn:{nn}", game))
    return OptimalPlayer(solution)
