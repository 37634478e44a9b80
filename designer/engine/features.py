"""What a player sees at a decision of a rules game, by name.

A policy written as a rule (``rule:...``) or as a Python function
(``py:FILE.py:FUNCTION``) decides from named numbers. Every rules game has
the **position's** numbers, in points:

=============  ===============================================
``i``          your banked score
``j``          the opponent's banked score
``k``          the turn total
``goal``       the goal
``need``       ``goal - i``
``opp_need``   ``goal - j``
``diff``       ``j - i`` (the opponent's lead)
``max_ij``     the higher score
``sum_ij``     ``i + j`` (how far the game has gone)
``i2``         ``i + k`` (your score if you stop now)
=============  ===============================================

and the **turn state's** own numbers, named by the game's part:

* dice with faces set aside: ``aside`` (dice set aside this turn) and
  ``dice_left`` (dice to throw);
* scoring dice (Farkle): ``dice_left``; with a farkle penalty also
  ``farkles`` (your farkles in a row) and ``opp_farkles``;
* a deck: ``w_rem`` and ``c_rem`` (bad and good items left in it);
* a cup of dice (Zombie Dice): ``s`` (shotguns), ``feet`` (footprints in
  hand) and ``in_cup`` (dice in the cup);
* a Python rules module: what its optional ``features(state)`` returns, a
  dict of names to integers.
"""

import keyword
import re

import numpy as np

#: The position's numbers (module docstring), with what they are.
POSITION = {"i": "your score", "j": "the opponent's score", "k": "the turn total",
            "goal": "the goal", "need": "the points you still need",
            "opp_need": "the points the opponent needs", "diff": "the opponent's lead",
            "max_ij": "the higher score", "sum_ij": "the sum of the two scores",
            "i2": "your score plus the turn total"}

#: Names a turn state's feature may not take (the position's, the rule
#: language's other words, Python's keywords).
RESERVED = set(POSITION) | {"b", "p", "min", "max", "round"}

_NAME = re.compile(r"[a-z_][a-z0-9_]{0,31}")


def bad_feature_name(name):
    """Why ``name`` cannot name a state feature, or None."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or keyword.iskeyword(name):
        return (f"{name!r} is not a feature name: lower-case letters, digits and _, "
                f"starting with a letter, at most 32 characters")
    if name in RESERVED:
        return (f"{name!r} is taken by the position's numbers and the rules' words "
                f"({', '.join(sorted(RESERVED))})")
    return None


def part_features(part, keys):
    """The named features of each state of a part's model: ``(names,
    values)`` with ``values[s, f]``; no names for a part that has none."""
    rows = [part.features(k) for k in keys] if hasattr(part, "features") else []
    names = tuple(rows[0]) if rows else ()
    values = np.array([[r[n] for n in names] for r in rows], dtype=np.int64).reshape(
        len(keys), len(names))
    return names, values


__all__ = ["POSITION", "RESERVED", "bad_feature_name", "part_features"]
