"""Studies over the number of players and the ending.

A deck or dice study whose ``[space]`` gives ``players`` (2..4) or
``ending`` (``"race"``, ``"rounds"`` or a list of both) other than the
defaults (2, race) runs as the family's *seats* variant, ``deck-seats`` or
``dice-seats``, chosen by :func:`designer.search.spec.load_study`; a study
that leaves them out is the plain family, with the same stores as before.
A Zombie Dice study over ``players`` runs as ``zombie-seats`` (all-yellow)
or ``zombie-dice-seats`` (a cup of colours); their only ending is
``rounds``.

A unit is one composition with one player count and one ending: one solve
answers every goal up to the largest and every komi vector. The study's
``komi`` range applies to every seat after the first: the rows are every
vector ``(0, k_2, ..., k_N)`` with each ``k_s`` in the range, written as the
start points of each seat, seat 1 first (the column ``starts``, e.g.
``"0,1,2"``). Under the rounds ending the range may be negative: a vector
with negative entries is shifted so that its smallest entry is 0, so
``k_2 = -1`` with two players is seat 1 starting with one point. Under the
race ending negative entries are left out (giving seat 1 points there never
compensates anyone). Fairness is ``max_s |P_s - 1/N|``; the fair
starts of a unit at a goal is the vector of the range with the smallest
fairness (ties: the fewest points in all, then the first in order).
"""

import itertools

import numpy as np

from designer.errors import ParameterError
from designer.search.families import (DeckFamily, DiceFamily, Family, ZombieDiceFamily,
                                      ZombieFamily)

#: The largest table of seats (N) stored per row.
MAX_SEATS = 4
SEAT_COLUMNS = tuple(f"seat_{s}_win" for s in range(1, MAX_SEATS + 1))


def komi_vectors(komis, players, ending):
    """Start points per seat for every komi vector of the range.

    Returns
    -------
    list of tuple
        Distinct start vectors, seat 1 first, in the order of the range.
    """
    out, seen = [], set()
    for ks in itertools.product(sorted(komis), repeat=players - 1):
        v = (0,) + ks
        low = min(v)
        if low < 0 and ending == "race":
            continue
        v = tuple(x - low for x in v)
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def starts_text(v):
    return ",".join(str(int(x)) for x in v)


class _Seats:
    """Mixin turning a solved family into its players x ending variant."""

    plane = ("goal", "starts")
    metrics = {"fairness": "min", "expected_actions": "min", "components": "min"}
    default_rank = ("fairness", "expected_actions", "components")
    fairness_words = ("the largest distance of a seat's win from an equal share (1 / players)",
                      "largest gap from equal")
    stored = ("fairness", "expected_actions", "components") + SEAT_COLUMNS + (
        "fair_starts", "fair_fairness")
    text_columns = frozenset({"ending", "starts", "fair_starts"})
    heatmap = None
    length = None
    seat_params = ("players", "ending")
    #: The ending of a study that gives none.
    default_ending = "race"

    def unit_params(self):
        # the rows' plane is (goal, start vector), read off one solve per unit
        return tuple(p for p in self.space_params if p not in ("goal", "komi"))

    def unit_args(self, spec):
        return {"goals": tuple(spec.space["goal"]), "komis": tuple(spec.space["komi"])}

    def check_space(self, space, fixed):
        self.check_seat_values(space)
        for p in self.base_params():
            for v in (space[p].lo, space[p].hi):
                self.game({**self._probe_unit(space, fixed, p, v), "players": 2,
                           "ending": "race"}, space["goal"].hi)

    @staticmethod
    def check_seat_values(space):
        """Refuse player counts, endings and komi ranges no seats study
        takes (one :class:`~designer.errors.ParameterError`)."""
        from designer.games._validate import check_players

        for n in space["players"]:
            try:
                check_players(n)
            except ParameterError:
                raise ParameterError("players", space["players"].describe(),
                                     "2, 3 or 4 (a value or a list)") from None
        for e in space["ending"]:
            if e not in ("race", "rounds"):
                raise ParameterError("ending", e, '"race" or "rounds" (a value or a list)')
        if space["komi"].lo < 0 and "rounds" not in space["ending"]:
            raise ParameterError("komi", space["komi"].describe(),
                                 "komi >= 0 under the race ending (negative komi, points for "
                                 'seat 1, needs ending "rounds")')
        if space["komi"].hi < 0 and "race" in space["ending"]:
            raise ParameterError("komi", space["komi"].describe(),
                                 "some komi >= 0 for the race ending (its seat 1 never gets "
                                 'points), or ending = "rounds" alone')
        if abs(space["komi"].lo) >= space["goal"].hi or space["komi"].hi >= space["goal"].hi:
            raise ParameterError("komi", space["komi"].describe(),
                                 f"komi between -{space['goal'].hi - 1} and {space['goal'].hi - 1}")

    def base_params(self):
        return tuple(p for p in self.unit_params() if p not in self.seat_params)

    def _probe_unit(self, space, fixed, param=None, value=None):
        unit = {p: space[p].lo for p in self.base_params()}
        unit.update({k: list(v) for k, v in fixed.items()})
        if param is not None:
            unit[param] = value
        return unit

    def work(self, unit, args):
        # the states of one seat's table times the score tuples of the others
        two = super().work(unit, args)
        goal = max(args["goals"])
        if unit["ending"] == "rounds":
            from designer.memory import memory_limit
            from designer.solve.rounds import rounds_bytes

            if rounds_bytes(self.game(unit, goal)) > memory_limit():
                return 0.0  # refused before any work (too large for memory): no time
        more = goal if unit["ending"] == "race" else goal + 20
        return two * float(more) ** (unit["players"] - 2) * (3.0 if unit["ending"] == "rounds" else 1.0)

    def evaluate(self, unit, args):
        """Rows of one unit: one solve, every goal and start vector read off it."""
        from designer.solve import solve

        N, ending = unit["players"], unit["ending"]
        sol = solve(self.game(unit, max(args["goals"])))
        vectors = komi_vectors(args["komis"], N, ending)
        rows = []
        for goal in args["goals"]:
            at = []
            for v in vectors:
                if max(v) >= goal:
                    continue
                komi = (v[1] - v[0]) if N == 2 else list(v)  # two players: one signed number
                at.append((v, sol.seat_win(goal, komi), sol.expected_actions(goal, komi)))
            rows += self.seat_rows({**self.design(unit), "components": self.components(unit)},
                                   N, goal, at)
        return rows, float(sol.residual)

    @staticmethod
    def seat_rows(base, N, goal, at):
        """The rows of ``N`` seats at one goal: ``base`` (the design's
        columns) and, from ``at``, per start vector ``v`` (seat 1 first),
        every seat's win and the expected game length (None: not known);
        each row also names the range's fairest vector.

        Fairness is :math:`\\max_s |P_s - 1/N|`; the fairest vector has the
        smallest, ties to the fewest points in all, then the first in order.
        """
        here = []
        for v, p, actions in at:
            p = np.asarray(p, dtype=float)
            row = {**base, "goal": goal, "starts": starts_text(v),
                   "fairness": float(np.abs(p - 1.0 / N).max()),
                   "expected_actions": float("nan") if actions is None else float(actions)}
            row.update({c: (float(p[s]) if s < N else float("nan"))
                        for s, c in enumerate(SEAT_COLUMNS)})
            here.append((row["fairness"], sum(v), v, row))
        if not here:
            return []
        fair = min(here, key=lambda t: t[:3])
        for _, _, _, row in here:
            row["fair_starts"] = fair[3]["starts"]
            row["fair_fairness"] = fair[0]
        return [row for *_, row in here]

    def tiny_unit(self):
        return {**super().tiny_unit(), "players": 3, "ending": "race"}

    def tiny_args(self):
        return {"goals": (2,), "komis": (0,)}

    def describe_design(self, row):
        return (f"{super().describe_design(row)}, {int(row['players'])} players, "
                f"{row['ending']} ending")

    def short_label(self, row):
        return (f"{super().short_label(row)}, {int(row['players'])}p {row['ending']}"
                if "goal" in row else super().describe_design(row))

    def sentence(self, row):
        N = int(row["players"])
        wins = " / ".join(f"{100 * row[c]:.2f}%" for c in SEAT_COLUMNS[:N])
        return (f"{self.describe_design(row)}, goal {int(row['goal'])}, seats start with "
                f"{row['starts']} points (seat 1 first): seats win {wins}, games last "
                f"{row['expected_actions']:.1f} actions")


class DeckSeatsFamily(_Seats, DeckFamily):
    name = "deck-seats"
    space_params = ("bad", "good", "players", "ending", "goal", "komi")
    design_columns = ("bad", "good", "players", "ending")
    int_columns = DeckFamily.int_columns | {"players"}

    def game(self, unit, goal, komi=0):
        from designer.games import DeckGame

        return DeckGame(unit["bad"], unit["good"], goal, komi, players=unit["players"],
                        ending=unit["ending"])

    def short_label(self, row):
        return (f"{int(row['bad'])}/{int(row['good'])}, {int(row['players'])}p "
                f"{row['ending']}")


class DiceSeatsFamily(_Seats, DiceFamily):
    name = "dice-seats"
    space_params = ("faces", "players", "ending", "goal", "komi")
    design_columns = ("faces", "bust_faces", "players", "ending")
    int_columns = DiceFamily.int_columns | {"players"}

    def game(self, unit, goal, komi=0):
        from designer.games import DiceGame

        return DiceGame(faces=unit["faces"], goal=goal, komi=komi,
                        bust_faces=tuple(unit["bust_faces"]), players=unit["players"],
                        ending=unit["ending"])

    def short_label(self, row):
        return (f"d{int(row['faces'])} bust {row['bust_faces']}, {int(row['players'])}p "
                f"{row['ending']}")


class ZombieSeatsFamily(_Seats, ZombieFamily):
    """All-yellow Zombie Dice over the number of players: always in rounds
    (the study's ending, if given, must be ``rounds``: the support table
    refuses the race), the score cap the game's default."""

    name = "zombie-seats"
    space_params = ZombieFamily.design_columns + ("players", "ending", "goal", "komi")
    design_columns = ZombieFamily.design_columns + ("players", "ending")
    int_columns = ZombieFamily.int_columns | {"players"}
    default_ending = "rounds"

    def game(self, unit, goal, komi=0):
        from designer.games import ZombieGame

        return ZombieGame(unit["brains"], unit["shotguns"], unit["footprints"], unit["dice"],
                          unit["bust_shotguns"], goal, komi, players=unit["players"])

    def tiny_unit(self):
        return {**ZombieFamily.tiny_unit(self), "players": 3, "ending": "rounds"}

    def short_label(self, row):
        return (f"{int(row['brains'])}/{int(row['shotguns'])}/{int(row['footprints'])} "
                f"x{int(row['dice'])}, {int(row['players'])}p")


class ZombieDiceSeatsFamily(_Seats, ZombieDiceFamily):
    """Full Zombie Dice (colour mixes of the cup) over the number of
    players, in rounds. Unlike the two-seat family it has no skill gap, so
    its goal may range; a mix whose solve is too long or too large for its
    player count is refused as a unit (the study goes on)."""

    name = "zombie-dice-seats"
    space_params = ZombieDiceFamily.design_columns + ("players", "ending", "goal", "komi")
    design_columns = ZombieDiceFamily.design_columns + ("players", "ending")
    int_columns = ZombieDiceFamily.int_columns | {"players"}
    default_ending = "rounds"

    def check_space(self, space, fixed):
        from designer.games._validate import check_int
        from designer.games.zombie import MAX_COLOUR

        self.check_seat_values(space)
        for p in ZombieDiceFamily.design_columns:
            for v in (space[p].lo, space[p].hi):
                check_int(p, v, 0, MAX_COLOUR)
        lo, hi = (sum(space[p].lo for p in ZombieDiceFamily.design_columns),
                  sum(space[p].hi for p in ZombieDiceFamily.design_columns))
        if hi < self.cup[0] or lo > self.cup[1]:
            raise ParameterError("green + yellow + red", f"{lo}..{hi}",
                                 f"some mix with {self.cup[0]} to {self.cup[1]} dice")

    def work(self, unit, args):
        lo, hi = self.cup
        if not lo <= self.components(unit) <= hi:
            return 0.0  # a cup the rules refuse: left out of the units (no game to size)
        return super().work(unit, args)

    def game(self, unit, goal, komi=0):
        from designer.games import ZombieDiceGame

        return ZombieDiceGame(unit["green"], unit["yellow"], unit["red"], goal=goal, komi=komi,
                              players=unit["players"])

    def tiny_unit(self):
        return {**ZombieDiceFamily.tiny_unit(self), "players": 3, "ending": "rounds"}

    def short_label(self, row):
        return (f"{int(row['green'])}g/{int(row['yellow'])}y/{int(row['red'])}r, "
                f"{int(row['players'])}p")


#: Plain family name -> its seats variant.
SEAT_VARIANTS = {"deck": DeckSeatsFamily(), "dice": DiceSeatsFamily(),
                 "zombie": ZombieSeatsFamily(), "zombie-dice": ZombieDiceSeatsFamily()}

__all__ = ["SEAT_VARIANTS", "Family", "komi_vectors"]
