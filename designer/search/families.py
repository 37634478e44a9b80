"""How each game family becomes a study.

A study is split into *units* of work. For the exactly solved families one
solve answers a whole goal x komi plane (one layered solve), so a unit is one
composition (a deck's bad/good counts, a die, a set of zombie dice) and its
rows are every (goal, komi) of the study's space read off that solve. For a
simulated family (wagering games) a unit is one complete design and its row
carries every metric with its standard error.

Adding a family is one :class:`Family` subclass registered in
:data:`FAMILIES`; the study file, store, grid, optuna search, ranking and
report take everything they need from it.
"""

import itertools
import json
import time

from designer.errors import DesignError, ParameterError

#: Metrics every exactly solved family stores per (goal, komi) row.
SOLVED_METRICS = ("first_player_win", "fairness", "expected_actions", "components",
                  "fair_komi", "fair_first_player_win")

#: Work of one score pair's set-up in a layered solve, in state-updates: a
#: 1 bad / 1 good deck to 50 (7,450 states) takes about as long as 60,000
#: states of a large deck would (1.7 ms against 30 ns a state, measured).
PAIR_OVERHEAD = 25

#: Work per state besides its outcomes (the hold value, the max, the
#: expected length): a die's solve time grows as (scoring faces + 4)
#: (4, 8 and 12 faces to 100: 52, 71 and 88 ms, measured).
STATE_OVERHEAD = 4


def deck_state_count(bad, good, goal):
    """Non-terminal states ``(i, j, k, w, c)`` of a deck game:
    ``i, j < goal``, ``w < bad``, ``k <= c <= good``, ``i + k < goal``; the
    count :func:`designer.solve.api.deck_states` gives, in O(goal) integer
    arithmetic (no game object: a large study sorts 10,000s of designs).

    With ``m = goal - 1 - i`` the most ``k`` can be,
    ``sum_c (min(c, m) + 1) = (good + 1) + m(m + 1)/2 + m(good - m)`` for
    ``m <= good``, else ``(good + 1) + good(good + 1)/2``."""
    per_j_w = 0
    for m in range(goal):
        if m <= good:
            per_j_w += good + 1 + m * (m + 1) // 2 + m * (good - m)
        else:
            per_j_w += good + 1 + good * (good + 1) // 2
    return per_j_w * goal * bad


def unit_key(unit):
    """A stable text key for a unit (its parameters as sorted JSON)."""
    return json.dumps(unit, sort_keys=True)


def within(value, bounds):
    """True if ``value`` lies within a ``{min, max}`` bounds dict."""
    return bounds.get("min", float("-inf")) <= value <= bounds.get("max", float("inf"))


class Family:
    """What the study machinery needs to know about a game family.

    Attributes
    ----------
    name : str
    space_params : tuple
        Parameters of the family's ``[space]`` (ranges, values or lists).
    defaults : dict
        Space parameters a study may leave out, with their value.
    optional : dict
        Set-valued ``[space]`` parameters fixed for a whole study (e.g. the
        faces that bust), with defaults.
    design_columns : tuple
        Row columns naming a unit's design.
    plane : tuple
        Parameters read off one unit's solve (``("goal", "komi")``), or ``()``.
    metrics : dict
        Metric columns that may rank or constrain designs -> natural direction.
    stored : tuple
        Every metric column stored per row.
    int_columns : frozenset
        Integer-valued columns (the rest are real, or text for lists).
    se : dict
        Metric -> column holding its standard error (simulated families).
    heatmap, length : tuple or None
        Report axes: ``(x, y, xlabel, ylabel)`` and ``(x, group, xlabel, group label)``.
    """

    name = ""
    space_params = ()
    defaults = {}
    optional = {}
    design_columns = ()
    plane = ("goal", "komi")
    metrics = {"fairness": "min", "first_player_win": "min", "expected_actions": "min",
               "components": "min"}
    default_rank = ("fairness", "expected_actions", "components")
    #: What "fairness" measures, in words and as a short column header.
    fairness_words = ("|first-player win - 1/2|", "|P1 - 50%|")
    stored = SOLVED_METRICS
    int_columns = frozenset({"goal", "komi", "components", "fair_komi"})
    se = {}
    heatmap = None
    length = None
    #: The simple player the skill gap measures optimal play against, and
    #: how it plays (report words).
    skill_rival = ("max-score", "one who keeps drawing while another draw gains points on "
                   "average, whatever the scores")

    # -- units ---------------------------------------------------------------
    @property
    def units_word(self):
        """What a unit of work is called: a composition (its every goal and
        komi answered by one solve) or, where each design is computed on its
        own, a design. The word "design" is kept for one row: a composition
        at one goal and komi."""
        return "compositions" if self.plane else "designs"

    def unit_params(self):
        """Parameters that identify a unit (the space minus the plane)."""
        return tuple(p for p in self.space_params if p not in self.plane)

    def units(self, spec):
        """Every unit of the study's space that meets the components
        constraint, in a stable order (largest first for load balance)."""
        comp = spec.constraints.get("components", {})
        names = self.unit_params()
        out = []
        for values in itertools.product(*(tuple(spec.space[p]) for p in names)):
            unit = dict(zip(names, values))
            unit.update({k: list(v) for k, v in spec.fixed.items()})
            if within(self.components(unit), comp):
                out.append(unit)
        args = self.unit_args(spec)
        out.sort(key=lambda u: self.work(u, args), reverse=True)
        return out

    def work(self, unit, args):
        """Predicted work of evaluating ``unit``, in arbitrary units
        proportional to its solving time (:mod:`designer.search.eta`
        calibrates the seconds per unit of work from the designs already
        stored). Computed from the parameters alone, before solving.

        The exactly solved families count the states one solve sweeps, each
        weighted by the outcomes it sums over, plus a per-score-pair overhead
        (setting up and solving each pair's two unknowns costs about as much
        as :data:`PAIR_OVERHEAD` states)."""
        return 1.0

    def components(self, unit):
        """Physical components of a design (items, dice...)."""
        return 1

    def unit_args(self, spec):
        """The arguments every unit of a study is evaluated with."""
        return {"goals": tuple(spec.space["goal"]), "komis": tuple(spec.space["komi"])}

    def check_space(self, space, fixed):
        """Raise ParameterError if the space leaves the rules' ranges."""
        for p in self.unit_params():
            for v in (space[p].lo, space[p].hi):
                self.game(self._probe_unit(space, fixed, p, v), space["goal"].hi)
        if space["komi"].lo < 0:
            raise ParameterError("komi", space["komi"].lo, "komi >= 0")
        if space["komi"].lo >= space["goal"].hi:
            raise ParameterError("komi", space["komi"].describe(),
                                 f"some komi below the largest goal ({space['goal'].hi})")
        self.game(self._probe_unit(space, fixed), space["goal"].lo)

    def _probe_unit(self, space, fixed, param=None, value=None):
        unit = {p: space[p].lo for p in self.unit_params()}
        unit.update({k: list(v) for k, v in fixed.items()})
        if param is not None:
            unit[param] = value
        return unit

    # -- evaluation (runs in worker processes) --------------------------------
    def game(self, unit, goal, komi=0):
        """The rules object of a unit at a goal and komi."""
        raise NotImplementedError

    def design(self, unit):
        """The design columns of a unit's rows."""
        return {c: (",".join(map(str, unit[c])) if isinstance(unit[c], list) else unit[c])
                for c in self.design_columns}

    def skill_match(self, sol):
        """The exact match optimal vs max-score behind ``skill_gap``, or None
        for families without a max-score player."""
        return None

    def evaluate(self, unit, args):
        """Rows of one unit: solve once, read every (goal, komi) off it."""
        from designer.solve import solve

        sol = solve(self.game(unit, max(args["goals"])))
        match = self.skill_match(sol)
        rows = []
        for goal in args["goals"]:
            fk = sol.fair_komi(goal)
            fk_win = sol.first_player_win(goal, fk)
            for komi in args["komis"]:
                if komi >= goal:
                    continue
                win = sol.first_player_win(goal, komi)
                rows.append({**self.design(unit), "goal": goal, "komi": komi,
                             "first_player_win": win, "fairness": abs(win - 0.5),
                             "expected_actions": sol.expected_actions(goal, komi),
                             "components": self.components(unit), "fair_komi": fk,
                             "fair_first_player_win": fk_win})
                if match is not None:
                    # optimal vs max-score, seats averaged, minus 1/2
                    rows[-1]["skill_gap"] = 0.5 * (match.win_as_first(goal, komi)
                                                   + match.win_as_second(goal, komi)) - 0.5
        return rows, sol.residual

    def tiny_unit(self):
        """A unit that compiles every kernel in a fraction of a second."""
        raise NotImplementedError

    def tiny_args(self):
        return {"goals": (2,), "komis": (0,)}

    # -- reading rows ----------------------------------------------------------
    def sentence(self, row):
        """One design in words (for summaries)."""
        pts = "point" if int(row["komi"]) == 1 else "points"
        return (f"{self.describe_design(row)}, goal {int(row['goal'])}, second player starts "
                f"with {int(row['komi'])} {pts}: first player wins "
                f"{100 * row['first_player_win']:.3f}%, games last "
                f"{row['expected_actions']:.1f} actions")

    def describe_design(self, row):
        raise NotImplementedError

    def short_label(self, row):
        """A legend label for a design row."""
        return self.describe_design(row) + (f", goal {int(row['goal'])}" if "goal" in row else "")


class _SkillFamily(Family):
    """A solved family with a max-score player, so with a skill gap."""

    metrics = {**Family.metrics, "skill_gap": "max"}
    stored = SOLVED_METRICS + ("skill_gap",)

    def skill_match(self, sol):
        from designer.analysis.compare import match_table
        from designer.policies.builtin import MaxScorePolicy

        return match_table(sol.game, sol.policy, MaxScorePolicy(sol.game).table())


class DeckFamily(_SkillFamily):
    name = "deck"
    space_params = ("bad", "good", "goal", "komi")
    design_columns = ("bad", "good")
    int_columns = Family.int_columns | {"bad", "good"}
    heatmap = ("bad", "good", "bad items", "good items")
    length = ("good", "bad", "good items", "bad")

    def work(self, unit, args):
        # every state has two outcomes (good or bad item): work ~ states
        goal = max(args["goals"])
        return float(deck_state_count(unit["bad"], unit["good"], goal)
                     + PAIR_OVERHEAD * goal * goal)

    def components(self, unit):
        return unit["bad"] + unit["good"]

    def game(self, unit, goal, komi=0):
        from designer.games import DeckGame

        return DeckGame(unit["bad"], unit["good"], goal, komi)

    def tiny_unit(self):
        return {"bad": 1, "good": 1}

    def describe_design(self, row):
        return f"{int(row['bad'])} bad and {int(row['good'])} good items"

    def short_label(self, row):
        return f"{int(row['bad'])} bad / {int(row['good'])} good, goal {int(row['goal'])}"


class DiceFamily(_SkillFamily):
    name = "dice"
    space_params = ("faces", "goal", "komi")
    optional = {"bust_faces": (1,)}
    design_columns = ("faces", "bust_faces")
    int_columns = Family.int_columns | {"faces"}
    heatmap = ("faces", "goal", "faces of the die", "goal")
    length = ("goal", "faces", "goal (points)", "faces")

    def work(self, unit, args):
        from designer.solve.api import dice_states, scoring_pips

        game = self.game(unit, max(args["goals"]))
        per_state = len(scoring_pips(game)) + STATE_OVERHEAD
        return float(dice_states(game) * per_state + PAIR_OVERHEAD * game.goal ** 2)

    def game(self, unit, goal, komi=0):
        from designer.games import DiceGame

        return DiceGame(faces=unit["faces"], goal=goal, komi=komi,
                        bust_faces=tuple(unit["bust_faces"]))

    def tiny_unit(self):
        return {"faces": 2, "bust_faces": [1]}

    def describe_design(self, row):
        return f"a {int(row['faces'])}-sided die busting on {row['bust_faces']}"

    def short_label(self, row):
        return f"d{int(row['faces'])} bust {row['bust_faces']}, goal {int(row['goal'])}"


class ZombieFamily(Family):
    name = "zombie"
    space_params = ("brains", "shotguns", "footprints", "dice", "bust_shotguns", "goal", "komi")
    defaults = {"dice": 3, "bust_shotguns": 3}
    design_columns = ("brains", "shotguns", "footprints", "dice", "bust_shotguns")
    int_columns = Family.int_columns | set(design_columns)
    heatmap = ("brains", "shotguns", "brain faces per die", "shotgun faces per die")
    length = ("goal", "brains", "goal (brains)", "brains")

    def work(self, unit, args):
        from designer.solve.zombie import roll_outcomes, zombie_states

        game = self.game(unit, max(args["goals"]))
        per_state = len(roll_outcomes(game)[2]) + STATE_OVERHEAD
        return float(zombie_states(game) * per_state + PAIR_OVERHEAD * game.goal * game.cap)

    def components(self, unit):
        return unit["dice"]

    def game(self, unit, goal, komi=0):
        from designer.games import ZombieGame

        return ZombieGame(unit["brains"], unit["shotguns"], unit["footprints"], unit["dice"],
                          unit["bust_shotguns"], goal, komi)

    def tiny_unit(self):
        return {"brains": 1, "shotguns": 1, "footprints": 0, "dice": 1, "bust_shotguns": 1}

    def describe_design(self, row):
        return (f"{int(row['dice'])} dice of {int(row['brains'])} brain, "
                f"{int(row['shotguns'])} shotgun and {int(row['footprints'])} footprint faces, "
                f"{int(row['bust_shotguns'])} shotguns bust")

    def short_label(self, row):
        return (f"{int(row['brains'])}/{int(row['shotguns'])}/{int(row['footprints'])} "
                f"x{int(row['dice'])}, goal {int(row['goal'])}")


class ZombieDiceFamily(Family):
    """Full Zombie Dice: how many dice of each colour in the cup.

    The skill gap is optimal play against max expected brains
    (:class:`~designer.policies.zombie.MaxBrainsPolicy`, the Zombie Dice
    analogue of max-score: roll while a roll raises the expected turn
    total), seats averaged, minus 1/2; it is exact at the solved goal, so
    the goal of a study of this family is one value.
    """

    name = "zombie-dice"
    space_params = ("green", "yellow", "red", "goal", "komi")
    skill_rival = ("max-expected-brains", "one who rolls while a roll raises the expected "
                   "turn total, whatever the scores")
    design_columns = ("green", "yellow", "red")
    int_columns = Family.int_columns | set(design_columns)
    metrics = {**Family.metrics, "skill_gap": "max"}
    stored = SOLVED_METRICS + ("skill_gap",)
    heatmap = ("green", "red", "green dice", "red dice")
    length = ("components", "red", "dice in the cup", "red dice")

    def work(self, unit, args):
        # the dice configurations grow about as the fourth power of the cup
        return float(self.components(unit)) ** 4 * max(args["goals"]) ** 2

    def components(self, unit):
        return unit["green"] + unit["yellow"] + unit["red"]

    #: Dice in the cup: a roll needs ``dice + bust_shotguns - 1 = 5`` (the
    #: cup must refill a roll) and the game takes at most 20.
    cup = (5, 20)

    def check_space(self, space, fixed):
        from designer.games._validate import check_int
        from designer.games.zombie import MAX_COLOUR

        for p in self.design_columns:
            for v in (space[p].lo, space[p].hi):
                check_int(p, v, 0, MAX_COLOUR)
        if space["goal"].lo != space["goal"].hi:
            raise ParameterError("goal", space["goal"].describe(),
                                 "one goal (the skill gap is exact at the solved goal)")
        lo = sum(space[p].lo for p in self.design_columns)
        hi = sum(space[p].hi for p in self.design_columns)
        if hi < self.cup[0] or lo > self.cup[1]:
            raise ParameterError("green + yellow + red", f"{lo}..{hi}",
                                 f"some mix with {self.cup[0]} to {self.cup[1]} dice")
        # the rest (goal, komi) as for every family, on a mix the rules accept
        probe = {p: space[p].lo for p in self.design_columns}
        probe["green"] = max(probe["green"], self.cup[0] - probe["yellow"] - probe["red"])
        self.game(probe, space["goal"].lo)
        if space["komi"].lo < 0:
            raise ParameterError("komi", space["komi"].lo, "komi >= 0")
        if space["komi"].lo >= space["goal"].hi:
            raise ParameterError("komi", space["komi"].describe(),
                                 f"some komi below the goal ({space['goal'].hi})")

    def units(self, spec):
        """The colour mixes of the space whose cup the rules accept."""
        lo, hi = self.cup
        return [u for u in super().units(spec) if lo <= self.components(u) <= hi]

    def game(self, unit, goal, komi=0):
        from designer.games import ZombieDiceGame

        return ZombieDiceGame(unit["green"], unit["yellow"], unit["red"], goal=goal, komi=komi)

    def skill_match(self, sol):
        from designer.analysis.compare import match_table
        from designer.policies.zombie import MaxBrainsPolicy

        return match_table(sol.game, sol.policy, MaxBrainsPolicy(sol.game).table())

    def tiny_unit(self):
        return {"green": 2, "yellow": 2, "red": 1}

    def describe_design(self, row):
        return (f"{int(row['green'])} green, {int(row['yellow'])} yellow and "
                f"{int(row['red'])} red zombie dice")

    def short_label(self, row):
        return (f"{int(row['green'])}g/{int(row['yellow'])}y/{int(row['red'])}r, "
                f"goal {int(row['goal'])}")


class WagerFamily(Family):
    """Wagering card games, evaluated by simulation: every metric carries
    its standard error and ranking treats differences within the
    uncertainty as ties (:mod:`designer.search.ranking`)."""

    name = "wager"
    space_params = ("max_raise", "ante", "start", "rounds", "pack")
    design_columns = space_params
    plane = ()
    metrics = {"fairness": "min", "skill_vs_noncounting": "max", "skill_vs_random": "max",
               "net_sd": "min"}
    default_rank = ("fairness", "skill_vs_noncounting")
    fairness_words = ("|non-dealer gain per hand|", "|non-dealer/hand|")
    stored = ("fairness", "fairness_se", "nondealer_advantage", "nondealer_advantage_se",
              "skill_vs_noncounting", "skill_vs_noncounting_se", "skill_vs_random",
              "skill_vs_random_se", "net_sd", "net_sd_se", "busted", "games")
    int_columns = frozenset(space_params) | {"games"}
    se = {"fairness": "fairness_se", "skill_vs_noncounting": "skill_vs_noncounting_se",
          "skill_vs_random": "skill_vs_random_se", "net_sd": "net_sd_se"}
    heatmap = ("max_raise", "rounds", "largest raise (counters)", "rounds")

    def work(self, unit, args):
        # three pairings of ``games`` games of ``rounds`` two-hand rounds
        return float(3 * args["games"] * unit["rounds"])

    def unit_args(self, spec):
        return {"games": spec.games, "seed": spec.sim_seed}

    def tiny_args(self):
        return {"games": 2, "seed": 0}

    def check_space(self, space, fixed):
        for p in self.space_params:
            for v in (space[p].lo, space[p].hi):
                self.game(self._probe_unit(space, fixed, p, v), None)

    def game(self, unit, goal=None, komi=0):
        from designer.games import WagerGame

        return WagerGame(**{p: unit[p] for p in self.space_params})

    def evaluate(self, unit, args):
        from designer.simulate.wager import design_metrics

        m = design_metrics(self.game(unit), args["games"], seed=args["seed"])
        row = {**self.design(unit), "fairness": abs(m["nondealer_advantage"]),
               "fairness_se": m["nondealer_advantage_se"]}
        row.update({c: m[c] for c in self.stored if c in m})
        return [row], None

    def tiny_unit(self):
        return {"max_raise": 1, "ante": 1, "start": 10, "rounds": 1, "pack": 4}

    def describe_design(self, row):
        return (f"a {int(row['pack'])}-card pack, ante {int(row['ante'])}, raises up to "
                f"{int(row['max_raise'])}, {int(row['start'])} counters, "
                f"{int(row['rounds'])} rounds")

    def short_label(self, row):
        return f"raise {int(row['max_raise'])}, {int(row['rounds'])} rounds, pack {int(row['pack'])}"

    def sentence(self, row):
        return (f"{self.describe_design(row)}: the non-dealer gains "
                f"{row['nondealer_advantage']:+.3f} ± {1.96 * row['nondealer_advantage_se']:.3f} "
                f"counters per hand; counting beats non-counting by "
                f"{row['skill_vs_noncounting']:.2f} ± {1.96 * row['skill_vs_noncounting_se']:.2f} "
                f"and random by {row['skill_vs_random']:.1f} ± "
                f"{1.96 * row['skill_vs_random_se']:.1f} counters per game")


#: Every family a study file can name.
PLAIN_FAMILIES = ("deck", "dice", "zombie", "zombie-dice", "wager", "rules")
#: Every family a study can sweep: the plain ones and the players x ending
#: variants of deck and dice (:mod:`designer.search.seat_families`), which
#: a study file selects by giving ``players`` or ``ending`` in its space.
FAMILIES = {f.name: f for f in (DeckFamily(), DiceFamily(), ZombieFamily(), ZombieDiceFamily(),
                                WagerFamily())}

from designer.search.seat_families import SEAT_VARIANTS  # noqa: E402 - needs the classes above

FAMILIES.update({f.name: f for f in SEAT_VARIANTS.values()})

from designer.search.rules_family import RulesFamily  # noqa: E402 - needs Family

#: A rules file's integer keys (:mod:`designer.search.rules_family`); a
#: study's own family, with its columns, travels as its spec's ``family``.
FAMILIES["rules"] = RulesFamily()

from designer.search.rules_seats_family import RulesSeatsFamily  # noqa: E402 - needs the above

#: A rules study over the number of players: the rules family's seats variant.
FAMILIES["rules-seats"] = RulesSeatsFamily()


def family_of(spec):
    """The :class:`Family` of a study: a rules study's own
    :class:`~designer.search.rules_family.RulesFamily` (its columns are the
    study's swept keys), else the family the study names."""
    return spec.bound if getattr(spec, "bound", None) is not None else family(spec.family)


def family(name):
    """The :class:`Family` called ``name``."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise DesignError(f"unknown family {name!r}: allowed {' | '.join(FAMILIES)}") from None


def units(spec):
    """The units of a study (see :meth:`Family.units`)."""
    return family_of(spec).units(spec)


def evaluate_unit(family_name, unit, args):
    """Evaluate one unit; runs in worker processes.

    Returns
    -------
    dict
        ``key``, ``rows`` (list of dicts), ``seconds``, ``residual`` (None
        for simulations) and ``error`` (a message, or None).
    """
    key = unit_key(unit)
    t0 = time.perf_counter()
    try:
        rows, residual = family(family_name).evaluate(unit, args)
    except DesignError as exc:
        return {"key": key, "rows": [], "seconds": time.perf_counter() - t0, "residual": None,
                "error": str(exc)}
    return {"key": key, "rows": rows, "seconds": time.perf_counter() - t0,
            "residual": residual, "error": None}


def warm(family_name):
    """Compile (or load from the numba cache) the family's kernels here,
    before workers start, so that they all load from the cache."""
    f = family(family_name)
    evaluate_unit(family_name, f.tiny_unit(), f.tiny_args())
