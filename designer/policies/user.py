"""Policies written by the user as a plain Python function.

Decks: ``f(i, j, k, w, c, bad, good, goal) -> bool`` (True = draw) at state
``(i, j, k, w, c)``: mover's score, opponent's score, turn total, bad and good
items drawn since the last shuffle (``k`` included in ``c``). Dice:
``f(i, j, k, faces, goal) -> bool`` (True = roll). Zombie Dice:
``f(p, i, j, b, s) -> bool`` (True = roll) with the seat ``p`` (1 or 2),
the scores, the turn's brains and shotguns. Only numba-compilable code
is allowed (numbers, ``math``, ``if``/loops; no Python objects): the function
is compiled with ``numba.njit`` here unless it already is a numba function,
then evaluated over every state.

The function is asked only about non-terminal states (``i + k < goal``), and
for decks only at ``k >= 1``: the first draw of a turn is forced, so a deck
function is never asked at ``k = 0``. A dice function is (holding at 0
passes the turn).

Example (``my_policy.py``)::

    def catch_up(i, j, k, w, c, bad, good, goal):
        # max-score, but one draw bolder while more than 10 points behind
        c_rem, w_rem = good - c, bad - w
        if j - i > 10:
            return c_rem > w_rem * (k - 1)
        return c_rem > w_rem * k

    # python
    from designer import load_game
    from designer.policies import from_function
    from designer.analysis import compare
    game = load_game("fowl-play")
    compare(game, from_function(game, catch_up), "optimal").win_average

    # command line
    designer compare fowl-play --policy py:my_policy.py:catch_up --against optimal

Each new function is compiled once per process (a second or two).
"""

import importlib.util
import re
import sys
from pathlib import Path

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from designer.errors import DesignError
from designer.policies.base import Policy
from designer.solve.zombie import policy_shape


# Not cached (cache=True cannot key on a function argument): one compile per
# user function and process.
@numba.njit(nogil=True)
def _deck_table(f, bad, good, goal, out):
    for i in range(goal):
        need = goal - i
        for j in range(goal):
            for w in range(bad):
                for c0 in range(good + 1):
                    left = good - c0
                    stop = need if need <= left else left + 1
                    t = 1
                    while t < stop:
                        if not f(i, j, t, w, c0 + t, bad, good, goal):
                            break
                        t += 1
                    out[i, j, w, c0] = t


@numba.njit(nogil=True)
def _deck_block(f, i, bad, good, goal, out):
    out[:] = False
    for j in range(goal):
        for w in range(bad):
            for c in range(good + 1):
                out[j, w, c, 0] = True
                for k in range(1, min(c, goal - 1 - i) + 1):
                    if f(i, j, k, w, c, bad, good, goal):
                        out[j, w, c, k] = True


@numba.njit(nogil=True)
def _dice_table(f, faces, goal, out):
    out[:] = False
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                if f(i, j, k, faces, goal):
                    out[i, j, k] = True


@numba.njit(nogil=True)
def _zombie_table(f, out):
    for p in range(out.shape[0]):
        for i in range(out.shape[1]):
            for j in range(out.shape[2]):
                for b in range(out.shape[3]):
                    for s in range(out.shape[4]):
                        out[p, i, j, b, s] = bool(f(p + 1, i, j, b, s))


#: Arguments of the first (compiling, type-checking) call, per family.
_FIRST_CALL = {
    "deck": lambda g: (0, 0, 1, 0, 1, g.bad, g.good, g.goal),
    "dice": lambda g: (0, 0, 0, g.faces, g.goal),
    "zombie": lambda g: (1, 0, 0, 0, 0),
}


def _compile(func):
    import inspect

    if isinstance(func, CPUDispatcher):
        return func
    if not inspect.isfunction(func):
        raise DesignError(f"a policy must be a callable Python function (def or lambda), not "
                          f"{type(func).__name__} {getattr(func, '__name__', func)!r}")
    return numba.njit(nogil=True)(func)


def _short(exc):
    """One line of an exception's message: numba's first specific line,
    without its terminal colour codes."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("Failed in nopython mode")] or lines
    return lines[0] if lines else type(exc).__name__


class FunctionPolicy(Policy):
    """A policy given by a numba-compilable function; see the module docstring.

    Parameters
    ----------
    game : DeckGame, DiceGame or ZombieGame
    func : callable
        ``f(i, j, k, w, c, bad, good, goal)`` for decks,
        ``f(i, j, k, faces, goal)`` for dice, ``f(p, i, j, b, s)`` for
        Zombie Dice; truthy = draw / roll.
    name : str, optional
        Label in reports (default: the function's name).

    Raises
    ------
    DesignError
        If numba cannot compile the function for these arguments.
    """

    families = ("deck", "dice", "zombie")

    def __init__(self, game, func, name=None):
        super().__init__(game, name or getattr(func, "__name__", "user"))
        self.func = _compile(func)
        try:  # compile (and type-check) now, with the game's argument types
            answer = self.func(*_FIRST_CALL[game.family](game))
        except Exception as exc:  # numba typing errors, errors raised by f
            raise DesignError(f"policy function {self.name!r} failed for {game.family} "
                              f"games: {_short(exc)}") from None
        if not isinstance(answer, (bool, np.bool_)):
            raise DesignError(f"policy function {self.name!r} returned {answer!r} "
                              f"({type(answer).__name__}): allowed True (draw) or False (hold)")

    def _run(self, kernel, *args):
        try:
            kernel(self.func, *args)
        except Exception as exc:  # e.g. ZeroDivisionError raised inside f
            raise DesignError(f"policy function {self.name!r} failed: "
                              f"{type(exc).__name__}: {_short(exc)}") from None

    def _deck_table(self):
        g = self.game
        out = np.empty((g.goal, g.goal, g.bad, g.good + 1), dtype=np.int16)
        self._run(_deck_table, g.bad, g.good, g.goal, out)
        return out

    def _deck_block(self, i, out):
        g = self.game
        self._run(_deck_block, i, g.bad, g.good, g.goal, out)

    def _dice_table(self):
        g = self.game
        out = np.zeros((g.goal, g.goal, g.goal), dtype=np.bool_)
        self._run(_dice_table, g.faces, g.goal, out)
        return out

    def _zombie_table(self):
        out = np.zeros(policy_shape(self.game), dtype=np.bool_)
        self._run(_zombie_table, out)
        return out


def from_function(game, func, name=None):
    """A :class:`FunctionPolicy` for ``game``; see the module docstring."""
    return FunctionPolicy(game, func, name)


def load_function(path, name):
    """Import function ``name`` from the Python file ``path``.

    Raises
    ------
    DesignError
        Missing file, a file that fails to import, or no such function.
    """
    p = Path(path)
    if not p.is_file():
        raise DesignError(f"no policy file {str(p)!r}")
    mod_name = f"_designer_user_policy_{abs(hash(str(p.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, p)
    if spec is None or spec.loader is None:
        raise DesignError(f"cannot import {str(p)!r}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[mod_name]
        raise DesignError(f"cannot import {str(p)!r}: {type(exc).__name__}: {_short(exc)}") from None
    func = getattr(module, name, None)
    if not callable(func):
        raise DesignError(f"{str(p)!r} has no function {name!r}")
    return func
