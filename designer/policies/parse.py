"""Policy strings, as the command line spells them.

=====================  ====================================================
``optimal``            exact optimal play (a solve of the game)
``max-score``          draw while one more draw gains on average (SPEC 2)
``hold-at:N``          hold once the turn total reaches ``N >= 1``
``nn:FILE``            a network saved by ``designer policy train-nn`` (decks)
``py:FILE.py:FUNC``    a user function in a Python file (see
                       :mod:`designer.policies.user`)
``rule:FILE``          a human-playable rule saved by ``designer strategy``
                       (see :mod:`designer.strategy.rules`)
=====================  ====================================================
"""

from designer.errors import DesignError

#: One line naming every accepted form, for error messages and --help.
POLICY_FORMS = "optimal, max-score, hold-at:N, nn:FILE, py:FILE.py:FUNCTION or rule:FILE"


def parse_policy(spec, game, *, solution=None):
    """Build the policy a string names, bound to ``game``.

    Parameters
    ----------
    spec : str
        One of the forms in the module docstring.
    game : DeckGame or DiceGame
    solution : Solution, optional
        A solve of ``game`` for ``optimal`` (otherwise solved and cached).

    Raises
    ------
    DesignError
        Unknown form, a bad ``N``, an unreadable file, a policy that does not
        play this family of games.
    """
    from designer.policies.builtin import HoldAtPolicy, MaxScorePolicy, OptimalPolicy

    if not isinstance(spec, str):
        raise DesignError(f"a policy string is needed, not {type(spec).__name__}")
    text = spec.strip()
    head, sep, rest = text.partition(":")
    head = head.lower()
    if text.lower() == "optimal":
        return OptimalPolicy(game, solution)
    if text.lower() in ("max-score", "maxscore", "max_score"):
        return MaxScorePolicy(game)
    if head == "hold-at" and sep:
        try:
            n = int(rest)
        except ValueError:
            raise DesignError(f"invalid policy {spec!r}: hold-at needs an integer turn total, "
                              f"e.g. hold-at:20") from None
        if n < 1:
            raise DesignError(f"invalid policy {spec!r}: hold-at needs N >= 1")
        return HoldAtPolicy(game, n)
    if head == "nn" and sep:
        from designer.policies.neural import NeuralPolicy

        if not rest:
            raise DesignError(f"invalid policy {spec!r}: nn needs a file, e.g. nn:fowl_nn.npz")
        return NeuralPolicy.load(rest, game)
    if head == "py" and sep:
        from designer.policies.user import FunctionPolicy, load_function

        path, sep2, func = rest.rpartition(":")
        if not sep2 or not path or not func:
            raise DesignError(f"invalid policy {spec!r}: use py:FILE.py:FUNCTION")
        return FunctionPolicy(game, load_function(path, func), name=f"py:{func}")
    if head == "rule" and sep:
        from designer.strategy import Rule, RulePolicy

        if not rest:
            raise DesignError(f"invalid policy {spec!r}: rule needs a file, e.g. rule:size-4.toml")
        return RulePolicy(game, Rule.load(rest), name=f"rule:{rest}")
    raise DesignError(f"unknown policy {spec!r}: use {POLICY_FORMS}")
