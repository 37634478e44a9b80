"""Exceptions raised by designer.

Every error a user can cause derives from :class:`DesignError` (a
``ValueError``), so the command line can print one clear line and exit with
status 2 instead of a traceback.
"""


class DesignError(ValueError):
    """A user-facing error: bad parameters, bad files, impossible requests."""


class ParameterNamesError(DesignError):
    """Parameters a game needs but was not given, or was given but does not
    take. ``names`` are the parameters as the library spells them
    (``bust_faces``); :meth:`for_flags` says the same with command-line
    flags (``--bust-faces``)."""

    def __init__(self, game, verb, names, allowed):
        self.game, self.verb, self.names, self.allowed = game, verb, list(names), list(allowed)
        super().__init__(self._text(lambda n: n))

    def _text(self, spell):
        text = f"{self.game} {self.verb} {', '.join(map(spell, self.names))}"
        if self.verb == "does not take":
            text += f": its parameters are {', '.join(map(spell, self.allowed))}"
        return text

    def for_flags(self):
        """The message with ``--flag`` spellings."""
        return self._text(lambda n: "--" + n.replace("_", "-"))


class ParameterError(DesignError):
    """A parameter is outside its allowed range.

    Parameters
    ----------
    name : str
        The parameter's name as the user spells it.
    value : object
        The offending value.
    allowed : str
        A short description of the allowed values, e.g. ``"1 <= bad <= 60"``.
    """

    def __init__(self, name, value, allowed):
        self.name = name
        self.value = value
        self.allowed = allowed
        super().__init__(f"invalid {name}={value!r}: allowed {allowed}")


class ConvergenceError(DesignError):
    """An iterative solve did not reach its tolerance within its budget."""


class SolverError(RuntimeError):
    """The exact solver failed on a well-posed game.

    Not a user error but a bug in designer: a solve that reaches its sweep
    budget (policy iteration, then value iteration, always certify a
    well-posed game long before). The message names the game so that it
    can be reported and reproduced; studies count these failures apart from
    the others.
    """

    #: How the command line and ``designer study status`` name this failure.
    LABEL = "solver error (report it)"
