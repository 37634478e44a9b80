"""Exact evaluation of rules against the optimal player.

:class:`~designer.policies.rule.RulePolicy` makes a
:class:`~designer.policies.rules.Rule` a policy of its family (so it plays
anywhere a policy does: ``rule:FILE``); :class:`Evaluator` scores many rules
of one game against its optimal policy, solving the game once and reusing the
optimal table: per rule, one table build (the interpreter kernel) and the
exact match evaluation of both seatings (no simulation).

Scores: ``seat_win`` (the rule's exact win probability at each seat, the
others played optimally, the game's komi as given), ``win_as_first`` /
``win_as_second`` (its first two: moving first / second), ``win_average``
(their mean over the ``N`` seats, the rule's quality) and ``gap`` (their sum
less 1: optimal play at every seat sums to 1, so 0 is as good as optimal).
"""

from designer.errors import ConvergenceError
from designer.policies import _rule_kernels as K
from designer.policies.rule import RulePolicy
from designer.policies.rules import Rule


def scores(*wins):
    """The scores of a rule winning ``wins[k]`` at seat ``k + 1`` (two or
    more seats: moving first, second, ...)."""
    w = [float(x) for x in wins]
    return {"seat_win": w, "win_as_first": w[0], "win_as_second": w[1],
            "win_average": sum(w) / len(w), "gap": sum(w) - 1.0}


class SeatWins:
    """What a scored rule (``seat_win``: its win at each seat) reads off it."""

    @property
    def win_as_first(self):
        return self.seat_win[0]

    @property
    def win_as_second(self):
        return self.seat_win[1]

    @property
    def win_average(self):
        """The mean of the seats' wins (the rule's quality)."""
        return sum(self.seat_win) / len(self.seat_win)


class Scoring:
    """What every evaluator shares: :meth:`safe_score` over its ``score``."""

    #: Seats of the game scored (a rule is measured at each).
    players = 2

    def safe_score(self, rule):
        """``score(rule)``, with a rule that never finishes scored as losing."""
        try:
            return self.score(rule)
        except ConvergenceError:
            return scores(*([0.0] * self.players))


def zombie_rule_table(game, rule):
    """The decision table ``roll[p, i, j, b, s]`` of a Zombie Dice rule."""
    return RulePolicy(game, rule).table()


class Evaluator(Scoring):
    """Scores rules of one game exactly against its optimal player.

    Thread-safe: the kernels release the GIL, so a thread pool evaluates
    rules in parallel on one shared optimal table.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    solution : optional
        The game's exact solve (solved once here otherwise).
    """

    def __init__(self, game, solution=None):
        from designer.policies.builtin import OptimalPolicy, solution_for
        from designer.solve.match import warm

        self.game = game
        self.family = game.family
        K.warm()
        warm(game)
        self.solution = solution or solution_for(game)
        self.optimal = OptimalPolicy(game, self.solution)
        self._opt = self.optimal.table()

    def policy(self, rule):
        """The rule as a :class:`RulePolicy` of this game."""
        return RulePolicy(self.game, rule)

    def score(self, rule):
        """Exact win rates of ``rule`` against optimal play.

        Returns
        -------
        dict
            ``win_as_first``, ``win_as_second``, ``win_average``, ``gap``.
            A rule under which the game can last forever (e.g. a dice rule
            that always passes) raises :class:`ConvergenceError`.
        """
        from designer.solve.match import match_table

        m = match_table(self.game, RulePolicy(self.game, rule).table(), self._opt)
        return scores(m.win_as_first(), m.win_as_second())

    def agreement(self, rule):
        """Share of decision states where ``rule`` acts as the optimal policy
        (the states of ``designer compare``'s agreement)."""
        from designer.analysis.agreement import policy_agreement

        return policy_agreement(RulePolicy(self.game, rule), self.optimal)[0]


def make_evaluator(game, solution=None):
    """The evaluator of ``game``: :class:`Evaluator`, or for a rules game
    :class:`~designer.strategy.rules_game.RulesEvaluator`."""
    if game.family == "rules":
        from designer.strategy.rules_game import RulesEvaluator

        return RulesEvaluator(game, solution)
    return Evaluator(game, solution)


def known_rules(family):
    """The classic rules of each family as :class:`Rule` objects (name -> rule).

    Decks: ``max-score``. Dice: ``max-score``, ``hold-at-20``,
    ``keep-pace-end-race``. Zombie: the slides' ``fixed_hold_at``,
    ``minh`` and ``neller`` in the rule grammar.
    """
    if family == "deck":
        return {"max-score": Rule.parse("deck", "maxscore")}
    if family == "dice":
        return {"max-score": Rule.parse("dice", "maxscore"),
                "hold-at-20": Rule.parse("dice", "below 20"),
                "keep-pace-end-race": Rule.parse("dice", "max_ij >= 71 -> roll; pace 21 8")}
    fixed = ("p == 2, j >= 13, i2 < j -> roll; s == 0 -> roll; s == 1 -> below 4; below 1")
    minh = ("p == 2, j >= 13, i2 < j -> roll; s == 0 -> roll; s == 1, j >= 8 -> reachmax 13 3; "
            "s == 1 -> below 4; below 1")
    neller = (
        "p == 1, i >= 13, i == j, s == 0 -> below 6; p == 1, i >= 13, i == j, s == 1 -> below 3; "
        "p == 1, i >= 13, i == j -> below 1; p == 1, s == 0 -> reachmax 13 8; "
        "p == 1, s == 1, max_ij >= 8 -> reach 13; p == 1, s == 1 -> below 4; "
        "p == 1 -> below 1; "
        "j >= 13, s <= 1 -> lead 1; j >= 13 -> lead 0; i >= 13, i > j -> hold; "
        "s == 0 -> roll; s == 1, max_ij >= 10 -> reach 13; s == 1 -> below 4; below 1")
    return {"fixed_hold_at": Rule.parse("zombie", fixed), "minh": Rule.parse("zombie", minh),
            "neller": Rule.parse("zombie", neller)}
