"""Study files: a design space described once, in TOML.

A study file has these tables (unknown keys are errors)::

    [study]
    name = "red_light"            # identifies the results store
    description = "..."           # the question, for reports
    family = "deck"               # deck | dice | zombie | wager
    method = "grid"               # grid | optuna
    workers = 2                   # parallel processes (grid and optuna)
    results = "red_light.results" # folder for the store, relative to this file
                                  # (default: <file stem>.results next to it)

    [space]                       # one entry per parameter of the family:
    bad = {min = 1, max = 10}     #   an inclusive integer range,
    goal = 50                     #   a fixed value,
    komi = [0, 1, 2]              #   or a list of values

    [constraints]                 # optional
    components = {max = 49}       # physical items (bad + good for decks)
    expected_actions = {min = 50, max = 250}
    first_player_win = {min = 0.4, max = 0.6}

    [objectives]
    rank = ["fairness", "expected_actions", "components"]   # lexicographic;
                                  # "max:NAME" maximises, "min:NAME" minimises.
                                  # Fairness usually comes first; to trade it
                                  # for another goal, bound it in
                                  # [constraints] and rank by the other goal.

    [optuna]                      # method = "optuna" only
    trials = 200
    seed = 0
    storage = "sqlite:///..."     # any optuna storage URL (default: the store)

    [simulation]                  # simulated families (wager) only
    games = 20000                 # games per pairing and design
    seed = 1

``fairness`` is ``|first-player win - 1/2|`` for the solved families and
``|non-dealer advantage per hand|`` for wagering games. The parameters of
each family, and the metrics it can rank by, are those of
:mod:`designer.search.families`.
"""

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from designer.errors import DesignError, ParameterError
from designer.search.families import FAMILIES



class StudyError(DesignError):
    """A study file that cannot be used; the message names the key."""


def _err(where, key, value, allowed):
    return StudyError(f"{where}: invalid {key} = {value!r}: allowed {allowed}")


@dataclass(frozen=True)
class IntRange:
    """An inclusive integer range or an explicit list of integer values."""

    values: tuple

    @property
    def lo(self):
        return min(self.values)

    @property
    def hi(self):
        return max(self.values)

    def __iter__(self):
        return iter(self.values)

    def __contains__(self, v):
        return v in self.values

    def describe(self):
        v = self.values
        if len(v) == 1:
            return str(v[0])
        if list(v) == list(range(v[0], v[-1] + 1)):
            return f"{v[0]}..{v[-1]}"
        return ", ".join(map(str, v))


def _int(where, key, v):
    if isinstance(v, bool) or not isinstance(v, int):
        raise _err(where, key, v, "an integer")
    return v


def _parse_range(where, key, raw):
    if isinstance(raw, dict):
        unknown = set(raw) - {"min", "max"}
        if unknown or set(raw) != {"min", "max"}:
            raise _err(where, key, raw, "{min = INT, max = INT}, a single integer, or a list of integers")
        lo, hi = _int(where, key + ".min", raw["min"]), _int(where, key + ".max", raw["max"])
        if lo > hi:
            raise _err(where, key, raw, "min <= max")
        return IntRange(tuple(range(lo, hi + 1)))
    if isinstance(raw, list):
        if not raw:
            raise _err(where, key, raw, "a non-empty list")
        return IntRange(tuple(sorted({_int(where, key, v) for v in raw})))
    return IntRange((_int(where, key, raw),))


def _parse_bounds(where, key, raw):
    if not isinstance(raw, dict) or not raw or set(raw) - {"min", "max"}:
        raise _err(where, key, raw, "{min = NUMBER, max = NUMBER} (either may be left out)")
    out = {}
    for b, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _err(where, f"{key}.{b}", v, "a number")
        out[b] = float(v)
    if "min" in out and "max" in out and out["min"] > out["max"]:
        raise _err(where, key, raw, "min <= max")
    return out


def _check_keys(where, table, allowed):
    if not isinstance(table, dict):
        raise StudyError(f"{where}: expected a table, got {table!r}")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise StudyError(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(unknown)}: allowed keys are {', '.join(allowed)}")


@dataclass(frozen=True)
class Objective:
    """One ranking criterion: a metric and a direction ('min' or 'max')."""

    metric: str
    direction: str

    @property
    def label(self):
        return self.metric if self.direction == "min" else f"{self.direction}:{self.metric}"


@dataclass(frozen=True)
class StudySpec:
    """A validated study file (see the module docstring for the format)."""

    path: Path
    name: str
    description: str
    family: str
    method: str
    workers: int
    results_dir: Path
    space: dict = field(repr=False)
    fixed: dict = field(repr=False)
    constraints: dict = field(repr=False)
    objectives: tuple = ()
    trials: int = 100
    seed: int = 0
    optuna_storage: str = ""
    games: int = 0
    sim_seed: int = 0

    @property
    def store_path(self):
        """The SQLite results store."""
        return self.results_dir / "store.sqlite"

    def fingerprint(self):
        """A hash of everything that decides which designs the study holds.

        Ranking objectives and row filters may change freely; the family, the
        space and the unit-level constraints may not once results exist.
        """
        doc = {"family": self.family,
               "space": {k: list(v.values) for k, v in sorted(self.space.items())},
               "fixed": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(self.fixed.items())},
               "components": self.constraints.get("components", {})}
        if self.games:  # simulated results depend on the sample
            doc["simulation"] = [self.games, self.sim_seed]
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]

    def describe_space(self):
        """The space in one line, e.g. ``bad 1..10, good 1..48, goal 50``."""
        return ", ".join(f"{k} {v.describe()}" for k, v in self.space.items())


def load_study(path):
    """Read and validate a study file.

    Raises
    ------
    StudyError
        Naming the table and key at fault, the value and what is allowed.
    """
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise StudyError(f"no study file at {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{path}: not valid TOML: {exc}") from None
    where = str(path)
    _check_keys(where, doc, ("study", "space", "constraints", "objectives", "optuna", "simulation"))
    if "study" not in doc or "space" not in doc:
        raise StudyError(f"{where}: needs a [study] table and a [space] table")

    st = doc["study"]
    _check_keys(f"{where} [study]", st, ("name", "description", "family", "method", "workers", "results"))
    name = st.get("name", path.stem)
    if not isinstance(name, str) or not name or any(c in name for c in "/\\ "):
        raise _err(f"{where} [study]", "name", name, "a non-empty string without spaces or slashes")
    family = st.get("family")
    if family not in FAMILIES:
        raise _err(f"{where} [study]", "family", family, " | ".join(FAMILIES))
    fam = FAMILIES[family]
    method = st.get("method", "grid")
    if method not in ("grid", "optuna"):
        raise _err(f"{where} [study]", "method", method, "grid | optuna")
    workers = st.get("workers", 2)
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 256:
        raise _err(f"{where} [study]", "workers", workers, "an integer from 1 to 256")
    results = st.get("results", f"{path.stem}.results")
    if not isinstance(results, str):
        raise _err(f"{where} [study]", "results", results, "a folder path")
    results_dir = (path.parent / results).resolve()
    description = st.get("description", "")

    sp = doc["space"]
    _check_keys(f"{where} [space]", sp, fam.space_params + tuple(fam.optional))
    missing = [p for p in fam.space_params if p not in sp and p not in fam.defaults]
    if missing:
        raise StudyError(f"{where} [space]: missing {', '.join(missing)} "
                         f"(a {family} study needs {', '.join(fam.space_params)})")
    space = {p: (_parse_range(f"{where} [space]", p, sp[p]) if p in sp
                 else IntRange((fam.defaults[p],))) for p in fam.space_params}
    fixed = {}
    for p, default in fam.optional.items():
        v = sp.get(p, default)
        if isinstance(v, (list, tuple)):
            v = tuple(_int(f"{where} [space]", p, x) for x in v)
        else:
            v = (_int(f"{where} [space]", p, v),)
        fixed[p] = v
    try:
        fam.check_space(space, fixed)
    except ParameterError as exc:
        raise StudyError(f"{where} [space]: {exc}") from None

    cons = doc.get("constraints", {})
    _check_keys(f"{where} [constraints]", cons, tuple(dict.fromkeys(("components",) + tuple(fam.metrics))))
    constraints = {k: _parse_bounds(f"{where} [constraints]", k, v) for k, v in cons.items()}

    obj = doc.get("objectives", {"rank": list(fam.default_rank)})
    _check_keys(f"{where} [objectives]", obj, ("rank",))
    rank = obj.get("rank", list(fam.default_rank))
    if not isinstance(rank, list) or not rank:
        raise _err(f"{where} [objectives]", "rank", rank, "a non-empty list of metric names")
    objectives = []
    for item in rank:
        direction, _, metric = item.rpartition(":") if isinstance(item, str) else ("", "", item)
        if metric not in fam.metrics or direction not in ("", "min", "max"):
            raise _err(f"{where} [objectives]", "rank", item,
                       f"one of {', '.join(fam.metrics)}, optionally prefixed by min: or max:")
        objectives.append(Objective(metric, direction or fam.metrics[metric]))

    op = doc.get("optuna", {})
    _check_keys(f"{where} [optuna]", op, ("trials", "seed", "storage"))
    trials = op.get("trials", 100)
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise _err(f"{where} [optuna]", "trials", trials, "a positive integer")
    seed = op.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _err(f"{where} [optuna]", "seed", seed, "an integer")
    storage = op.get("storage", "")
    if not isinstance(storage, str):
        raise _err(f"{where} [optuna]", "storage", storage, "an optuna storage URL")

    sim = doc.get("simulation", {})
    _check_keys(f"{where} [simulation]", sim, ("games", "seed"))
    games, sim_seed = 0, 0
    if fam.se:  # a simulated family
        games = sim.get("games", 20_000)
        if isinstance(games, bool) or not isinstance(games, int) or not 100 <= games <= 10**8:
            raise _err(f"{where} [simulation]", "games", games, "an integer from 100 to 100000000")
        sim_seed = sim.get("seed", 0)
        if isinstance(sim_seed, bool) or not isinstance(sim_seed, int) or sim_seed < 0:
            raise _err(f"{where} [simulation]", "seed", sim_seed, "a non-negative integer")
    elif sim:
        raise StudyError(f"{where} [simulation]: only simulated families (wager) take it")

    return StudySpec(path=path, name=name, description=description, family=family, method=method,
                     workers=workers, results_dir=results_dir, space=space, fixed=fixed,
                     constraints=constraints, objectives=tuple(objectives), trials=trials,
                     seed=seed, optuna_storage=storage, games=games, sim_seed=sim_seed)
