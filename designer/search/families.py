"""How each game family splits a study into units of work.

One exact solve answers a whole goal x komi plane (SPEC section 3), so a
unit is one composition (a deck's bad/good counts, a die's faces) and its
rows are every (goal, komi) of the study's space, read off that one solve.
"""

import json
import time

from designer.games import DeckGame, DiceGame

#: Columns that name a design, per family (before goal and komi).
DESIGN_COLUMNS = {"deck": ("bad", "good"), "dice": ("faces", "bust_faces")}

#: Metric columns every row carries.
METRIC_COLUMNS = ("first_player_win", "fairness", "expected_actions", "components", "fair_komi",
                  "fair_first_player_win")


def unit_key(unit):
    """A stable text key for a unit (its parameters as sorted JSON)."""
    return json.dumps(unit, sort_keys=True)


def _within(value, bounds):
    return bounds.get("min", float("-inf")) <= value <= bounds.get("max", float("inf"))


def units(spec):
    """The units of a study, largest first (better load balance), as dicts."""
    comp = spec.constraints.get("components", {})
    out = []
    if spec.family == "deck":
        for bad in spec.space["bad"]:
            for good in spec.space["good"]:
                if _within(bad + good, comp):
                    out.append({"bad": bad, "good": good})
        out.sort(key=lambda u: (-u["bad"] * u["good"], u["bad"], u["good"]))
    elif spec.family == "dice":
        if _within(1, comp):
            for faces in spec.space["faces"]:
                out.append({"faces": faces, "bust_faces": list(spec.fixed["bust_faces"])})
        out.sort(key=lambda u: -u["faces"])
    return out


def unit_game(family, unit, goal, komi=0):
    """The rules object of a unit at a given goal and komi."""
    if family == "deck":
        return DeckGame(unit["bad"], unit["good"], goal, komi)
    return DiceGame(faces=unit["faces"], goal=goal, komi=komi, bust_faces=tuple(unit["bust_faces"]))


def evaluate_unit(family, unit, goals, komis):
    """Solve one unit and return its rows (runs in worker processes).

    Returns
    -------
    dict
        ``key``, ``rows`` (list of dicts, one per (goal, komi) with
        ``komi < goal``), ``seconds``, ``residual``, and ``error`` (a message,
        or None).
    """
    from designer.errors import DesignError
    from designer.solve import solve

    key = unit_key(unit)
    t0 = time.perf_counter()
    try:
        sol = solve(unit_game(family, unit, max(goals)))
    except DesignError as exc:
        return {"key": key, "rows": [], "seconds": time.perf_counter() - t0, "residual": None,
                "error": str(exc)}
    design = {c: (",".join(map(str, unit[c])) if c == "bust_faces" else unit[c])
              for c in DESIGN_COLUMNS[family]}
    rows = []
    for goal in goals:
        fk = sol.fair_komi(goal)
        fk_win = sol.first_player_win(goal, fk)
        for komi in komis:
            if komi >= goal:
                continue
            win = sol.first_player_win(goal, komi)
            rows.append({**design, "goal": goal, "komi": komi, "first_player_win": win,
                         "fairness": abs(win - 0.5),
                         "expected_actions": sol.expected_actions(goal, komi),
                         "components": sol.game.components, "fair_komi": fk,
                         "fair_first_player_win": fk_win})
    return {"key": key, "rows": rows, "seconds": time.perf_counter() - t0,
            "residual": sol.residual, "error": None}


def warm(family):
    """Compile (or load from the numba cache) the family's kernels here,
    before workers start, so that they all load from the cache."""
    tiny = {"deck": {"bad": 1, "good": 1}, "dice": {"faces": 2, "bust_faces": [1]}}[family]
    evaluate_unit(family, tiny, (2,), (0,))
