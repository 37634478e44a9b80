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
