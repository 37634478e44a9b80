"""Rules in Python: a game whose turn no rules-file part can describe.

A rules file (:mod:`designer.engine.rulesfile`) is data: it describes a turn
with dice, a deck or scoring dice, and no code in it ever runs. A game those
parts cannot say (points that depend on what the turn rolled before, a
deck of several kinds of cards, a bonus for three sixes in a row) is
written as a small Python module instead, named on the command line
``rules:FILE.py`` (or a path ending in ``.py``)::

    designer rules check rules:my_game.py
    designer solve rules:my_game.py --json

**Naming ``rules:FILE.py`` runs the code in that file**, with your rights,
exactly as a ``py:FILE.py:FUNCTION`` policy does: name only files you
trust. Rules files in TOML never run code.

What the module holds
---------------------
Settings, as module-level names (only ``goal`` is required):

``name``
    shown in the output (default: the file's name);
``goal``
    points that win, ``1 .. 100,000``;
``komi``
    points the second player starts with (default 0);
``players``
    2 to 4 seats (default 2);
``ending``
    ``"race"`` (default: the first to the goal wins) or ``"rounds"``
    (equal turns), with ``ties`` ``"replay"`` or ``"earlier-seat"``;
``unit``
    every number of points is a multiple of it (default 1);
``forced_first``
    the first throw or draw of a turn is forced (default False);
``min_bank``
    a turn total below it cannot be banked (default 0);
``floor``
    the lowest banked score a penalty can leave (default 0, at most 0).

and functions of the **turn state**, any hashable value the module chooses
(a number, a string, a tuple, a frozenset; states are equal when they
compare equal):

``start()``
    the state the first turn of the game starts from;
``choices(state)``
    the continuations open at ``state``: a dict ``{name: outcomes}`` (or a
    list of ``(name, outcomes)`` pairs; an empty one: the mover must stop),
    ``outcomes`` a list of ``(probability, result)`` pairs whose
    probabilities (floats, or :class:`fractions.Fraction` for exact
    games) sum to 1;
``handover(state)`` (optional; default: ``start()``)
    the state the next turn starts from after the mover stops at
    ``state`` (a deck that persists from turn to turn: the state itself);
``describe(state)`` (optional)
    a short text for people (default: the state's ``repr``).

A result is one of:

``go(gain, next_state)``
    the turn goes on at ``next_state`` with ``gain >= 0`` points added to
    the turn total; it is the list ``[(gain, next_state)]``, and any list
    of ``(gain, next_state)`` pairs is a choice: the mover picks one (which
    dice to keep);
``bust()``
    the turn total is lost and the turn ends; ``bust(zero=True)``: the
    mover's banked score becomes 0 too; ``bust(penalty=n)``: it falls by
    ``n``, not below ``floor``;
``end(points)``
    the turn ends and banks the turn total plus ``points`` (a turn of one
    throw).

``bust`` and ``end`` take ``next=state``, the state the next turn starts
from (default: ``handover(state)``; a deck whose bad card was just drawn
starts the next turn without it). The functions are imported from this
module: ``from designer.engine.pyrules import bust, end, go``.

Instead of module-level names, ``rules:FILE.py:NAME`` reads the same
names from the object ``NAME`` of the file: a class (called with no
arguments), an instance, or any object with those attributes, so that one
file can hold several variants.

Example: Doubling Pig
---------------------
One die; a 1 busts; any other face adds its pips times the turn's
multiplier, and a 6 then doubles the multiplier, up to 8. The turn state
is the multiplier (``designer/engine/examples/doubling_pig.py``)::

    from fractions import Fraction

    from designer.engine.pyrules import bust, go

    name = "Doubling Pig"
    goal = 100

    SIXTH = Fraction(1, 6)


    def start():
        return 1


    def choices(m):
        roll = [(SIXTH, bust())]
        roll += [(SIXTH, go(face * m, m)) for face in (2, 3, 4, 5)]
        roll.append((SIXTH, go(6 * m, min(2 * m, 8))))
        return {"roll": roll}

How it becomes a turn model
---------------------------
The functions are called from ``start()`` outward, breadth first: every
state a result, a ``next=`` or ``handover`` names is numbered in the order
first seen (``start()`` is state 0) and its ``choices`` read once. Each
continuation becomes one chance event of the
:class:`~designer.engine.model.TurnModel`: an outcome with probability
``p`` and result ``go``/a choice is a ``CHOOSE`` outcome with those
options, ``bust`` a ``BUST`` (effect ``NONE``, ``ZERO`` or ``PENALTY``),
``end`` an ``END``; the mover's values follow that model's equations,

.. math::

    C(c, s, t) = \\sum_{o \\in c} p_o \\, v_o(t), \\qquad
    W(i, j, s, t) = \\max\\bigl(\\mathrm{stop}(s, t), \\max_c C(c, s, t)\\bigr).

Outcomes of one continuation with the same result are merged (their
probabilities added), which leaves every value unchanged: ``C`` is linear
in the ``p_o``. Outcomes that bring the turn straight back to the same
state with no points are folded away exactly
(:func:`~designer.engine.model.fold_self_loops`; with the first throw
forced, the turn's start gets a copy that its returns go to, so ``keys``
may list a state twice). Points are divided by ``unit`` (the engine counts
in units).

Everything is checked, and refused in one line naming the file, the
function, the state and what was expected: an exception raised by the
module, a value of the wrong kind, a probability outside ``0 .. 1``,
probabilities that do not sum to 1 (within ``1e-12``), a negative or
fractional number of points, an unhashable state, more than
:data:`MAX_STATES` states, a state where the mover could neither go on nor
stop, a turn that could go on forever without scoring or busting, and a
game in which no turn scores.
"""

import math
import numbers
import re
import sys
import traceback
import types
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from designer.engine.features import bad_feature_name
from designer.engine.model import PROB_TOL, ModelError, build_model, fold_self_loops, start_like
from designer.engine.rulesfile import MAX_GOAL, Rules, RulesError, endless_states, scores

#: Most turn states a module may reach from ``start()``.
MAX_STATES = 200_000
#: Most outcomes plus options over all states (after merging).
MAX_OUTCOMES = 2_000_000

#: Longest repr of a value quoted in a message.
_SHOWN = 60


class RulesModuleError(RulesError):
    """A Python rules module that cannot be read or describes no playable
    game (one line naming the file, the function and the state)."""


# -- what choices() returns ---------------------------------------------------

class _Handover:
    """Marks a ``next`` left out: the next turn starts from ``handover(state)``."""

    def __repr__(self):
        return "handover(state)"


_HANDOVER = _Handover()


@dataclass(frozen=True, eq=False)
class Bust:
    """A bust (made by :func:`bust`)."""

    zero: bool = False
    penalty: int = 0
    next: object = _HANDOVER


@dataclass(frozen=True, eq=False)
class End:
    """A turn that ends with points (made by :func:`end`)."""

    points: int
    next: object = _HANDOVER


def bust(*, zero=False, penalty=0, next=_HANDOVER):
    """The turn total is lost and the turn ends.

    Parameters
    ----------
    zero : bool
        The mover's banked score becomes 0 too.
    penalty : int
        Points the banked score falls by (not below the module's
        ``floor``).
    next : hashable, optional
        The state the next turn starts from (default: ``handover(state)``).
    """
    return Bust(zero, penalty, next)


def end(points, *, next=_HANDOVER):
    """The turn ends and banks the turn total plus ``points``.

    Parameters
    ----------
    points : int
        Points added before banking (``>= 0``).
    next : hashable, optional
        The state the next turn starts from (default: ``handover(state)``).
    """
    return End(points, next)


def go(gain, state):
    """The turn goes on at ``state`` with ``gain`` points added: the choice
    of one option, ``[(gain, state)]``."""
    return [(gain, state)]


class PythonModule:
    """The part a Python rules game is built from: the module itself."""

    def __init__(self, path, obj=None):
        self.path, self.obj = str(path), obj

    def __repr__(self):
        return f"PythonModule({self.path!r}{'' if self.obj is None else ', ' + repr(self.obj)})"


# The commands name a game's part by its class's name ("dice", "deck",
# "scoring dice"); this one reads "python module" there.
PythonModule.__name__ = "python module"


# -- names on the command line ------------------------------------------------

_NAME = re.compile(r"^(?:rules:)?(?P<path>.+?\.py)(?::(?P<obj>[A-Za-z_]\w*))?$")


def split_name(name):
    """The file and the object a game name points at: ``rules:FILE.py``,
    ``rules:FILE.py:NAME`` or ``FILE.py`` -> ``(Path(FILE.py), NAME or
    None)``.

    Raises
    ------
    RulesModuleError
        A name that is none of those.
    """
    m = _NAME.match(str(name))
    if m is None:
        from designer.engine.rulesfile import examples

        raise RulesModuleError(f"{name}: not a rules game: allowed rules:FILE.py, "
                               "rules:FILE.py:NAME (NAME: a class or object in the file), "
                               f"rules:FILE.toml or rules:EXAMPLE ({', '.join(examples())})")
    return Path(m["path"]), m["obj"]


def load_module_rules(name, *, max_states=MAX_STATES):
    """Run the Python rules module ``name`` (see :func:`split_name`) and
    build its game; see the module doc. This executes the file's code.

    Returns
    -------
    Rules
        ``part`` is a :class:`PythonModule`, ``keys[s]`` the module's state
        that turn state ``s`` stands for (``start()`` first), ``model.names``
        their descriptions.

    Raises
    ------
    RulesModuleError
        In one line naming the file, the function, the state and what was
        expected.
    """
    path, obj = split_name(name)
    module = _import(path)
    where = str(path)
    if obj is None:
        target = module
    else:
        if obj not in vars(module):
            raise RulesModuleError(f"{where}: there is no {obj!r} in the file (rules:FILE.py:NAME "
                                   "names a class or object defined there)")
        target = vars(module)[obj]
        if isinstance(target, type):
            target = _Reader(where, "").call(f"{obj}()", target)
    return _Reader(where, "" if obj is None else obj + ".", max_states).rules(
        target, PythonModule(path, obj))


def read_rules(obj, where="<object>", *, max_states=MAX_STATES):
    """Build the game of ``obj``, a module or any object with the names of
    the module doc (already imported: nothing is read from a file).

    Raises
    ------
    RulesModuleError
        As :func:`load_module_rules`; ``where`` names ``obj`` in messages.
    """
    return _Reader(where, "", max_states).rules(obj, PythonModule(where))


def _import(path):
    """Run the file at ``path`` as a fresh module; no bytecode is written
    next to it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesModuleError(f"{path}: cannot read it: there is no such file") from None
    except IsADirectoryError:
        raise RulesModuleError(f"{path}: cannot read it: it is a directory (give a Python "
                               "rules module, FILE.py)") from None
    except UnicodeDecodeError as exc:
        raise RulesModuleError(f"{path}: cannot read it: not a UTF-8 text file (byte "
                               f"{exc.start})") from None
    except OSError as exc:
        raise RulesModuleError(f"{path}: cannot read it ({type(exc).__name__}: "
                               f"{_first_line(exc)})") from None
    try:
        code = compile(text, str(path), "exec")
    except SyntaxError as exc:
        raise RulesModuleError(f"{path}: line {exc.lineno}: {exc.msg}: not valid "
                               "Python") from None
    except ValueError as exc:  # a NUL byte
        raise RulesModuleError(f"{path}: not valid Python ({_first_line(exc)})") from None
    mod_name = f"_designer_rules_{abs(hash(str(path.resolve())))}"
    module = types.ModuleType(mod_name, f"Python rules module {path}")
    module.__file__ = str(path)
    # registered while it runs: dataclasses and pickling look modules up by name
    sys.modules[mod_name] = module
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as exc:
        del sys.modules[mod_name]
        raise RulesModuleError(f"{path}: running the module raised "
                               f"{_exception(exc, str(path))}") from None
    return module


# -- messages -----------------------------------------------------------------

def _first_line(exc):
    text = str(exc).strip()
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= 160 else line[:157] + "..."


def _exception(exc, filename):
    """``Type: message (line n)``, the line being the last one of the
    module's file in the traceback."""
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == filename:
            line = lineno
    msg = _first_line(exc)
    if isinstance(exc, SystemExit):
        msg = f"the module called sys.exit({msg})"
    text = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
    return text + (f" (line {line})" if line is not None else "")


def _show(v):
    """A value's repr, shortened to one line of at most :data:`_SHOWN`
    characters."""
    try:
        text = repr(v)
    except Exception:  # a user class whose repr fails
        text = f"<{type(v).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


def _kind(v):
    return f"{_show(v)} ({type(v).__name__})"


# -- the reader ---------------------------------------------------------------

class _At:
    """Where an outcome (and an option of it) sits in ``choices``'s answer;
    formatted only when a message needs it."""

    __slots__ = ("shown", "k", "opt")

    def __init__(self, shown, k, opt=None):
        self.shown, self.k, self.opt = shown, k, opt

    def __str__(self):
        return f"{self.shown}: outcome {self.k}" + (
            "" if self.opt is None else f": option {self.opt}")


class _Reader:
    """Reads the settings and functions of one module, calls them and
    checks what they return."""

    def __init__(self, where, prefix, max_states=MAX_STATES):
        self.where, self.prefix, self.max_states = where, prefix, max_states

    def fail(self, text):
        raise RulesModuleError(f"{self.where}: {text}")

    def call(self, shown, func, *args):
        """``func(*args)``; an exception is refused as ``shown`` raising it."""
        try:
            return func(*args)
        except (Exception, SystemExit) as exc:
            self.fail(f"{shown} raised {_exception(exc, self.where)}")

    # -- settings -----------------------------------------------------------
    def get(self, obj, key, default):
        try:
            return getattr(obj, key, default)
        except (Exception, SystemExit) as exc:  # a property that raises
            self.fail(f"reading {self.prefix}{key} raised {_exception(exc, self.where)}")

    def setting_int(self, obj, key, default, lo, hi=None, unit=1):
        v = self.get(obj, key, default)
        if v is None:
            self.fail(f"{key} is required: give {self.prefix}{key} = N" if self.prefix else
                      f"{key} is required: give {key} = N at the top of the module")
        if (isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo
                or (hi is not None and v > hi) or v % unit):
            rng = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
            mult = f", a multiple of unit = {unit}" if unit > 1 else ""
            self.fail(f"{key} = {_kind(v)} is not allowed: {rng}{mult}")
        return int(v)

    def setting_choice(self, obj, key, default, allowed):
        v = self.get(obj, key, default)
        if not isinstance(v, str) or v not in allowed:
            self.fail(f"{key} = {_kind(v)} is not allowed: " + " or ".join(map(repr, allowed)))
        return v

    def function(self, obj, key, required):
        f = self.get(obj, key, None)
        if f is None:
            if required:
                what = {"start": "start() returning the state a turn starts from",
                        "choices": "choices(state) returning the continuations open at a "
                                   "state"}[key]
                self.fail(f"no function {self.prefix}{key}: define {what}")
            return None
        if not callable(f):
            self.fail(f"{self.prefix}{key} is {_kind(f)}, not a function")
        return f

    def settings(self, obj):
        name = self.get(obj, "name", None)
        if name is None:
            name = Path(self.where).stem
        if not isinstance(name, str):
            self.fail(f"name = {_kind(name)} is not allowed: a string")
        unit = self.setting_int(obj, "unit", 1, 1)
        goal = self.setting_int(obj, "goal", None, 1, MAX_GOAL, unit)
        komi = self.setting_int(obj, "komi", 0, 0, goal - 1, unit)
        players = self.setting_int(obj, "players", 2, 2, 4)
        ending = self.setting_choice(obj, "ending", "race", ("race", "rounds"))
        ties = self.get(obj, "ties", None)
        if ties is not None and ending != "rounds":
            self.fail("ties: only with ending = \"rounds\" (the race has no ties)")
        ties = self.setting_choice(obj, "ties", "replay", ("replay", "earlier-seat"))
        forced = self.get(obj, "forced_first", False)
        if not isinstance(forced, bool):
            self.fail(f"forced_first = {_kind(forced)} is not allowed: True or False")
        min_bank = self.setting_int(obj, "min_bank", 0, 0, None, unit)
        floor = self.get(obj, "floor", 0)
        if (isinstance(floor, bool) or not isinstance(floor, numbers.Integral) or floor > 0
                or floor % unit):
            mult = f", a multiple of unit = {unit}" if unit > 1 else ""
            self.fail(f"floor = {_kind(floor)} is not allowed: an integer <= 0 (the lowest "
                      f"banked score){mult}")
        return dict(name=name, unit=unit, goal=goal // unit, komi=komi // unit,
                    players=players, ending=ending, ties=ties, forced_first=forced,
                    min_bank=min_bank // unit, floor=int(floor) // unit)

    # -- the game -----------------------------------------------------------
    def rules(self, obj, part):
        cfg = self.settings(obj)
        self.unit = cfg["unit"]
        start = self.function(obj, "start", True)
        choices = self.function(obj, "choices", True)
        handover = self.function(obj, "handover", False)
        describe = self.function(obj, "describe", False)
        pre = self.prefix

        s0 = self.call(f"{pre}start()", start)
        self.index, self.keys, self.queue = {}, [], deque()
        self.see(s0, lambda: f"{pre}start() returned")
        queue = self.queue
        conts, hand, names, self.outcomes = [], [], [], 0
        while queue:
            s = queue.popleft()
            shown = _show(s)
            if handover is None:
                h = s0
            else:
                h = self.call(f"{pre}handover({shown})", handover, s)
            hand.append(self.see(h, lambda: f"{pre}handover({shown}) returned"))
            raw = self.call(f"{pre}choices({shown})", choices, s)
            conts.append(self.continuations(raw, f"{pre}choices({shown})", hand[-1]))
            if describe is None:
                names.append(shown)
            else:
                text = self.call(f"{pre}describe({shown})", describe, s)
                if not isinstance(text, str):
                    self.fail(f"{pre}describe({shown}) returned {_kind(text)}: expected a "
                              "string")
                names.append(" ".join(text.split()) or shown)
        # rolls straight back to the same state with no points are folded
        # exactly; a forced start's returns go to a copy of it, appended
        rows, hand2, names, origin, throws = fold_self_loops(
            conts, hand, names, start_like(conts, hand) if cfg["forced_first"] else ())
        try:
            model = build_model(rows, hand2, forced_first=cfg["forced_first"],
                                min_bank=cfg["min_bank"], floor=cfg["floor"], names=names,
                                fold=False, throws=throws)
        except ModelError as exc:  # the checks above should leave none: say where anyway
            self.fail(str(exc))
        self.playable(model, cfg, conts)
        keys = [self.keys[s] for s in origin]
        model = self.features(model, self.function(obj, "features", False), keys)
        return Rules(cfg["name"], cfg["goal"], cfg["komi"], cfg["players"], cfg["ending"],
                     model, part, keys, self.where, cfg["unit"], cfg["ties"])

    def features(self, model, func, keys):
        """``model`` with the named features ``func(state)`` gives every
        state (a dict of names to integers, the same names everywhere)."""
        if func is None:
            return model
        pre = self.prefix
        names, rows, seen = None, [], {}
        for key in keys:
            number = self.index[key]
            if number in seen:  # a forced start's copy: the same state
                rows.append(rows[seen[number]])
                continue
            shown = _show(key)
            got = self.call(f"{pre}features({shown})", func, key)
            if not isinstance(got, dict):
                self.fail(f"{pre}features({shown}) returned {_kind(got)}: expected a dict of "
                          "feature names to integers, e.g. {\"sixes\": 2}")
            for n, v in got.items():
                why = bad_feature_name(n)
                if why:
                    self.fail(f"{pre}features({shown}): {why}")
                if isinstance(v, bool) or not isinstance(v, numbers.Integral) or abs(v) > 10**9:
                    self.fail(f"{pre}features({shown})[{n!r}] = {_kind(v)}: a feature is an "
                              "integer from -1,000,000,000 to 1,000,000,000")
            if names is None:
                names = tuple(got)
            elif set(got) != set(names):
                self.fail(f"{pre}features({shown}) names {sorted(got)}, but "
                          f"{pre}features({_show(keys[0])}) named {sorted(names)}: every state "
                          "has the same features")
            seen[number] = len(rows)
            rows.append([int(got[n]) for n in names])
        return model.with_features(names, np.array(rows, dtype=np.int64).reshape(len(keys),
                                                                                  len(names)))

    def see(self, state, said):
        """The number of ``state``, numbering it if it is new; ``said()``
        says where it came from, for a message (built only then)."""
        try:
            k = self.index.get(state)
        except Exception as exc:  # unhashable, or a __hash__ / __eq__ that raises
            self.fail(f"{said()} {_kind(state)}, which is not hashable ({_exception(exc, '')}): "
                      "a state must be a number, a string, a tuple, a frozenset or another "
                      "hashable value")
        if k is None:
            if len(self.keys) >= self.max_states:
                self.fail(f"more than {self.max_states:,} turn states are reachable from "
                          f"{self.prefix}start() (the next one: {_show(state)}): the engine "
                          f"takes at most {self.max_states:,}; states that should be the same "
                          "must compare equal (use tuples, numbers, strings or frozensets)")
            k = self.index[state] = len(self.keys)
            self.keys.append(state)
            self.queue.append(state)
        return k

    def continuations(self, raw, shown, hand):
        """``choices``'s answer as :func:`~designer.engine.model.build_model`
        rows."""
        if isinstance(raw, dict):
            items = list(raw.items())
        elif isinstance(raw, (list, tuple)):
            items = []
            for k, item in enumerate(raw):
                if not isinstance(item, (list, tuple)) or len(item) != 2:
                    self.fail(f"{shown} returned a list whose item {k} is {_kind(item)}: "
                              "expected (name, outcomes) pairs")
                items.append(tuple(item))
        else:
            self.fail(f"{shown} returned {_kind(raw)}: expected a dict {{name: outcomes}} or "
                      "a list of (name, outcomes) pairs")
        rows = []
        for name, outs in items:
            if not isinstance(name, str):
                self.fail(f"{shown}: the continuation name {_kind(name)} is not a string")
            rows.append(self.outcomes_of(outs, f"{shown}: {name!r}", hand))
        return rows

    def outcomes_of(self, outs, shown, hand):
        if not isinstance(outs, (list, tuple)):
            self.fail(f"{shown}: {_kind(outs)} is not a list of (probability, result) pairs")
        if not outs:
            self.fail(f"{shown}: no outcome: give at least one (probability, result) pair, or "
                      "leave the continuation out")
        merged = {}
        exact = True
        for k, item in enumerate(outs):
            at = _At(shown, k)
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                self.fail(f"{at} is {_kind(item)}: expected a (probability, result) pair")
            p, result = item
            p = self.probability(p, at)
            exact = exact and isinstance(p, Fraction)
            key = self.result(result, at, hand)
            merged.setdefault(key, []).append(p)
        if exact:
            probs = {key: sum(ps, Fraction(0)) for key, ps in merged.items()}
            total = sum(probs.values(), Fraction(0))
        else:
            probs = {key: math.fsum(map(float, ps)) for key, ps in merged.items()}
            total = math.fsum(float(p) for ps in merged.values() for p in ps)
        if abs(total - 1) > PROB_TOL:
            self.fail(f"{shown}: the probabilities sum to {float(total):.12g}: they must sum "
                      "to 1")
        row = []
        for key, p in probs.items():
            p = min(float(p), 1.0)  # merged parts of a sum of 1 can round a hair above it
            if key[0] == "choose":
                row.append((p, "choose", list(key[1])))
                self.outcomes += len(key[1])
            else:
                row.append((p,) + key)
            self.outcomes += 1
        if self.outcomes > MAX_OUTCOMES:
            self.fail(f"{shown}: more than {MAX_OUTCOMES:,} outcomes and options over all "
                      "states: the engine takes at most that many")
        return row

    def probability(self, p, at):
        t = type(p)
        if (t is float or t is Fraction) and 0 <= p <= 1:  # the usual kinds, checked fast
            return p
        if isinstance(p, Fraction) or (isinstance(p, numbers.Integral)
                                       and not isinstance(p, bool)):
            q = Fraction(p)
        elif isinstance(p, numbers.Real) and not isinstance(p, bool):
            q = float(p)
        else:
            q = None
        if q is None or not (0 <= q <= 1):  # also refuses nan
            self.fail(f"{at}: probability {_kind(p)} is not allowed: a number 0..1 (a float, "
                      "or a Fraction for an exact game)")
        return q

    def points(self, v, what, at):
        unit = self.unit
        if type(v) is int and v >= 0 and not v % unit:  # the usual kind, checked fast
            return v // unit
        if (isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0
                or v % unit):
            mult = f", a multiple of unit = {unit}" if unit > 1 else ""
            self.fail(f"{at}: {what} {_kind(v)} is not allowed: an integer >= 0{mult}")
        return int(v) // unit

    def next_state(self, state, at, hand):
        if state is _HANDOVER:
            return hand
        return self.see(state, lambda: f"{at}: the next state")

    def result(self, r, at, hand):
        """An outcome's result as a key: ``("bust", next, effect, penalty)``,
        ``("end", points, next)`` or ``("choose", ((gain, next), ...))``."""
        if isinstance(r, Bust):
            if not isinstance(r.zero, bool):
                self.fail(f"{at}: bust(zero={_kind(r.zero)}) is not allowed: True or False")
            penalty = self.points(r.penalty, "bust penalty", at)
            if r.zero and penalty:
                self.fail(f"{at}: bust(zero=True, penalty=...): a bust either sets the banked "
                          "score to 0 or takes a penalty, not both")
            effect = "zero" if r.zero else "penalty" if penalty else "none"
            return ("bust", self.next_state(r.next, at, hand), effect, penalty)
        if isinstance(r, End):
            points = self.points(r.points, "end points", at)
            return ("end", points, self.next_state(r.next, at, hand))
        if isinstance(r, (list, tuple)):
            if not r:
                self.fail(f"{at}: an empty list of options: a choice needs at least one "
                          "(gain, state) option")
            opts = []
            for k, opt in enumerate(r):
                if not isinstance(opt, (list, tuple)) or len(opt) != 2:
                    self.fail(f"{at}: option {k} is {_kind(opt)}: expected a (gain, state) "
                              "pair, as go(gain, state) makes")
                gain = self.points(opt[0], "gain", _At(at.shown, at.k, k))
                opts.append((gain, self.see(opt[1], lambda: f"{at}: option {k}: the state")))
            return ("choose", tuple(opts))
        self.fail(f"{at}: the result {_kind(r)} is not one: expected go(gain, state), a list "
                  "of (gain, state) options, bust(...) or end(points)")

    def playable(self, model, cfg, conts):
        """Refuse a state where the mover could neither go on nor stop, a
        turn that can go on forever, and a game in which no turn scores."""
        starts = set(int(s) for s in model.start_states())
        for s, rows in enumerate(conts):
            if rows:
                continue
            said = f"{self.prefix}choices({_show(self.keys[s])}) gives no continuation"
            if cfg["min_bank"] > 0:
                self.fail(f"{said}, and a turn total below min_bank = "
                          f"{cfg['min_bank'] * self.unit} cannot be banked: a turn there could "
                          "neither go on nor stop")
            if cfg["forced_first"] and s in starts:
                self.fail(f"{said}, and a turn can start there with its first throw forced "
                          "(forced_first): it could neither go on nor stop")
        loop = endless_states(model)
        if loop:
            self.fail(f"a turn can go on forever without scoring or busting (from "
                      f"{model.describe(loop[0])}, the mover can keep going with 0 points and no "
                      "chance of a bust): some outcome must score, bust or end the turn")
        if not scores(model):
            self.fail(f"no turn can score a point, so no score reaches the goal "
                      f"{cfg['goal'] * self.unit}")


__all__ = ["MAX_OUTCOMES", "MAX_STATES", "PythonModule", "RulesModuleError", "bust", "end",
           "go", "load_module_rules", "read_rules", "split_name"]
