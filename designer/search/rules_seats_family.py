"""Studies of a rules file over the number of players and the ending.

A rules study whose ``[space]`` gives ``players`` other than 2 alone
(``players = 3``, ``players = [2, 3, 4]``) runs as this variant,
``rules-seats``: the rows are those of the deck and dice seats studies
(:mod:`designer.search.seat_families`): every start vector
``(0, k_2, ..., k_N)`` with each ``k_s`` in the study's ``komi`` range (in
points; under the rounds ending a vector with negative entries is shifted
so that its smallest entry is 0), every seat's win, the fairness
:math:`\\max_s |P_s - 1/N|` and the fairest vector of the range.

A unit is one assignment of the swept rules keys with one player count and
one ending (the file's, unless the study sweeps ``ending``). As in a
two-seat rules study, each goal is solved on its own and every start vector
of that goal is read off its solve. The game length is exact for every
player count and both endings (NaN only where the solved play of 3 or 4
players has turns that never end, or the length passes the memory limit).
"""

import dataclasses
import tomllib

from designer.errors import DesignError
from designer.search.rules_family import (RulesFamily, components, overridden, parse, toml_text,
                                            unit_points)
from designer.search.seat_families import _Seats, komi_vectors


class RulesSeatsFamily(_Seats, RulesFamily):
    """A rules study over players (and endings); see the module docstring.

    ``keys`` are the swept rules keys other than ``ending``; the design
    columns are theirs, then ``players`` and ``ending``.
    """

    name = "rules-seats"
    exact_words = ("Every number is exact (no simulation): each variant's turn is enumerated "
                   "from its rules, and each goal, player count and ending of the study is "
                   "solved once by the rules engine, which answers every start vector of that "
                   "goal, with the expected game length.")
    metrics = {**_Seats.metrics, "states": "min"}
    stored = _Seats.stored + ("states",)

    def __init__(self, source=None, keys=(), columns=None):
        keys = tuple(k for k in keys if k != "ending")
        super().__init__(source, keys, {k: c for k, c in (columns or {}).items()
                                        if k != "ending"})
        self.space_params = self.keys + ("players", "ending", "goal", "komi")
        self.design_columns = tuple(self.columns[k] for k in self.keys) + ("players", "ending")
        self.int_columns = self.int_columns | {"players"}

    # -- units -----------------------------------------------------------------
    def unit_args(self, spec):
        return RulesFamily.unit_args(self, spec)

    def _keys(self, unit):
        return {k: v for k, v in unit.items() if k not in self.seat_params}

    def components(self, unit):
        return components(overridden(self.source.doc, self._keys(unit)))

    def work(self, unit, args):
        """The two-seat proxy (:meth:`RulesFamily.work`) times the scores of
        every further seat, three times over under the rounds ending."""
        two = RulesFamily.work(self, self._keys(unit), args)
        goal = max(args["goals"]) // unit_points(self.source.doc)
        return (two * float(goal) ** (unit["players"] - 2)
                * (3.0 if unit["ending"] == "rounds" else 1.0))

    def check_space(self, space, fixed):
        """Players, endings and the komi range, as in the deck and dice seats
        studies (the rules themselves: :func:`designer.search.rules_spec.check_rules_space`)."""
        self.check_seat_values(space)

    # -- evaluation (runs in worker processes) ---------------------------------
    def evaluate(self, unit, args):
        """Rows of one unit: the turn enumerated once, one solve per goal,
        every start vector of that goal read off it."""
        from designer.engine.game import RulesGame, solve_game

        N, ending = unit["players"], unit["ending"]
        keys = self._keys(unit)
        rules = _rules(args["rules"], args["where"], {**keys, "players": N, "ending": ending},
                       max(args["goals"]))
        u = rules.unit
        design = {**{args["columns"][k]: v for k, v in keys.items()}, "players": N,
                  "ending": ending}
        n = components(overridden(tomllib.loads(args["rules"]), keys))
        vectors = komi_vectors(args["komis"], N, ending)
        rows, residual = [], 0.0
        for goal in args["goals"]:
            here = [v for v in vectors if max(v) < goal]
            if not here:
                continue
            if goal % u or any(x % u for v in here for x in v):
                raise DesignError(f"goal {goal} and komi {list(args['komis'])}: the rules count "
                                 f"in units of {u} points, so goal and komi must be multiples "
                                 f"of {u}")
            game = RulesGame(rules=dataclasses.replace(rules, goal=goal // u),
                             source=args["where"], start=(0,) * N, players=N, ending=ending,
                             komi=0)
            sol = solve_game(game, max_komi=0, length=True,
                             starts=[tuple(x // u for x in v) for v in here])
            residual = max(residual, float(sol["residual"]))
            at = [(v, s["seat_win"], s["expected_actions"]) for v, s in zip(here,
                                                                            sol["at_starts"])]
            rows += [{**row, "states": int(sol["states"])}
                     for row in self.seat_rows({**design, "components": n}, N, goal, at)]
        return rows, residual

    def tiny_unit(self):
        return {"players": 3, "ending": "race"}

    def tiny_args(self):
        return RulesFamily.tiny_args(self)


def _rules(text, where, values, goal):
    """The rules of ``text`` with the dotted ``values`` set, at ``goal``."""
    return parse(toml_text(overridden(tomllib.loads(text), values, goal)), where)


__all__ = ["RulesSeatsFamily"]
