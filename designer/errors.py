"""Exceptions raised by designer.

Every error a user can cause derives from :class:`DesignError` (a
``ValueError``), so the command line can print one clear line and exit with
status 2 instead of a traceback.
"""


class DesignError(ValueError):
    """A user-facing error: bad parameters, bad files, impossible requests."""


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
