"""Policies for deck and dice games: optimal, max-score, hold-at, user
functions and the compact neural network; see :mod:`designer.policies.base`
for the interface and :mod:`designer.policies.parse` for the strings.

The names below are loaded on first use: the command line reads only the
policy forms (:mod:`designer.policies.parse`) to build its ``--help``, and
importing the policies' kernels and tables would cost every command a
second of start-up.
"""

import importlib

#: Where each public name lives.
_HOME = {"Policy": "base", "HoldAtPolicy": "builtin", "MaxScorePolicy": "builtin",
         "OptimalPolicy": "builtin", "CompactPolicy": "compact", "POLICY_FORMS": "parse",
         "parse_policy": "parse", "FunctionPolicy": "user", "from_function": "user"}

__all__ = sorted(_HOME)


def __getattr__(name):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOME))
