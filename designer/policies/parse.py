"""Policy strings, as the command line spells them, for every family.

=====================  ====================================================
``optimal``            exact optimal play (a solve of the game)
``two-player``         the two-player optimum; with 3-4 players read at
                       (own score, highest opponent score)
``max-score``          draw while one more draw gains on average
                       (deck and dice games)
``hold-at:N``          hold once the turn total reaches ``N >= 1``
``nn:FILE``            a network saved by ``designer policy train-nn`` (decks)
``py:FILE.py:FUNC``    a user function in a Python file (see
                       :mod:`designer.policies.user`)
``rule:FILE``          a human-playable rule saved by ``designer strategy``
                       (see :mod:`designer.policies.rules`; every family)
``fixed_hold_at``,     the four human Zombie Dice policies
``minh``, ``llano``,   (:mod:`designer.policies.zombie`; hyphens accepted)
``neller``
``max-brains``         Zombie Dice: roll while the roll's expected brains
                       beat the bust risk times the turn total
``colour-blind``       Zombie Dice: the all-yellow optimum played without
                       seeing colours (:mod:`designer.policies.zombie`)
=====================  ====================================================

Adding a policy
---------------
The forms live in two registries: :data:`NAMED` (a bare word, e.g.
``optimal``) and :data:`PREFIXED` (``prefix:ARGUMENT``, e.g. ``hold-at:5``).
Add one with :func:`register_named` or :func:`register_prefix`, giving a
factory that returns a :class:`~designer.policies.base.Policy`; which
families a policy plays is the policy class's ``families`` (a policy
refuses a game of another family with one clear line). The
``POLICY_FORMS`` line of error messages and ``--help`` follows the
registries.
"""

from designer.errors import DesignError

#: ``{word: (factory(game, solution) -> Policy, help form)}``.
NAMED = {}
#: ``{prefix: (factory(game, argument, spec, solution) -> Policy, help form)}``.
PREFIXED = {}
#: Help forms in registration order.
_FORMS = []


def register_named(names, factory, form=None):
    """Register a policy named by a bare word (case-insensitive).

    Parameters
    ----------
    names : str or sequence of str
        The word and its aliases; the first is shown in help.
    factory : callable
        ``factory(game, solution) -> Policy``.
    form : str, optional
        How help spells it (default: the first name).
    """
    names = [names] if isinstance(names, str) else list(names)
    for name in names:
        NAMED[name.lower()] = (factory, form or names[0])
    _FORMS.append(form or names[0])


def register_prefix(prefix, factory, form):
    """Register a ``prefix:ARGUMENT`` policy.

    Parameters
    ----------
    prefix : str
        Lower-case, without the colon.
    factory : callable
        ``factory(game, argument, spec, solution) -> Policy``; ``spec`` is the
        whole string, for error messages.
    form : str
        How help spells it, e.g. ``"hold-at:N"``.
    """
    PREFIXED[prefix.lower()] = (factory, form)
    _FORMS.append(form)


def policy_forms():
    """One line naming every accepted form, for error messages and --help."""
    return ", ".join(_FORMS[:-1]) + " or " + _FORMS[-1]


def parse_policy(spec, game, *, solution=None):
    """Build the policy a string names, bound to ``game``.

    Parameters
    ----------
    spec : str
        One of the forms in the module docstring.
    game : DeckGame, DiceGame or ZombieGame
    solution : Solution, optional
        A solve of ``game`` for ``optimal`` (otherwise solved and cached).

    Raises
    ------
    DesignError
        Unknown form, a bad ``N``, an unreadable file, a policy that does not
        play this family of games.
    """
    if not isinstance(spec, str):
        raise DesignError(f"a policy string is needed, not {type(spec).__name__}")
    text = spec.strip()
    if text.lower() in NAMED:
        factory, _ = NAMED[text.lower()]
        return factory(game, solution)
    head, sep, rest = text.partition(":")
    if sep and head.lower() in PREFIXED:
        factory, _ = PREFIXED[head.lower()]
        return factory(game, rest, spec, solution)
    raise DesignError(f"unknown policy {spec!r}: use {policy_forms()}")


# -- the built-in forms ---------------------------------------------------------
# Imports inside the factories: the policy modules load only when used (the
# network and the user-function modules pull in numba compilations).

def _optimal(game, solution):
    from designer.policies.builtin import OptimalPolicy

    return OptimalPolicy(game, solution)


def _two_player(game, solution):
    if game.players != 2:
        raise DesignError(f"the two-player policy is the optimum of the two-player game; with "
                          f"{game.players} players `designer compare` reads it at each seat")
    policy = _optimal(game, solution)
    policy.name = "two-player"
    return policy


def _max_score(game, solution):
    from designer.policies.builtin import MaxScorePolicy

    return MaxScorePolicy(game)


def _hold_at(game, rest, spec, solution):
    from designer.policies.builtin import HoldAtPolicy

    try:
        n = int(rest)
    except ValueError:
        raise DesignError(f"invalid policy {spec!r}: hold-at needs an integer turn total, "
                          f"e.g. hold-at:20") from None
    if n < 1:
        raise DesignError(f"invalid policy {spec!r}: hold-at needs N >= 1")
    return HoldAtPolicy(game, n)


def _nn(game, rest, spec, solution):
    from designer.policies.neural import NeuralPolicy

    if not rest:
        raise DesignError(f"invalid policy {spec!r}: nn needs a file, e.g. nn:fowl_nn.npz")
    return NeuralPolicy.load(rest, game)


def _py(game, rest, spec, solution):
    from designer.policies.user import FunctionPolicy, load_function

    path, sep2, func = rest.rpartition(":")
    if not sep2 or not path or not func:
        raise DesignError(f"invalid policy {spec!r}: use py:FILE.py:FUNCTION")
    return FunctionPolicy(game, load_function(path, func), name=f"py:{func}")


def _rule(game, rest, spec, solution):
    from designer.policies.rule import RulePolicy
    from designer.policies.rules import Rule

    if not rest:
        raise DesignError(f"invalid policy {spec!r}: rule needs a file, e.g. rule:size-4.toml")
    return RulePolicy(game, Rule.load(rest), name=f"rule:{rest}")


def _human(name):
    def factory(game, solution):
        from designer.policies.zombie import HumanPolicy

        return HumanPolicy(game, name)
    return factory


register_named("optimal", _optimal)
register_named(["two-player", "two_player"], _two_player)
register_named(["max-score", "maxscore", "max_score"], _max_score)
register_prefix("hold-at", _hold_at, "hold-at:N")
register_prefix("nn", _nn, "nn:FILE")
register_prefix("py", _py, "py:FILE.py:FUNCTION")
register_prefix("rule", _rule, "rule:FILE")
def _max_brains(game, solution):
    from designer.policies.zombie import MaxBrainsPolicy

    return MaxBrainsPolicy(game)


def _colour_blind(game, solution):
    from designer.policies.zombie import ColourBlindPolicy

    return ColourBlindPolicy(game)


register_named(["max-brains", "max_brains"], _max_brains)
register_named(["colour-blind", "colour_blind", "color-blind"], _colour_blind)
for _name in ("fixed_hold_at", "minh", "llano", "neller"):  # Zombie Dice
    register_named([_name, _name.replace("_", "-")], _human(_name))
del _name

#: One line naming every accepted form (the built-in ones), for error messages
#: and --help; :func:`policy_forms` includes forms registered later.
POLICY_FORMS = policy_forms()
