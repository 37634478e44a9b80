"""Study files: a design space described once, in TOML.

A study file has these tables (unknown keys are errors)::

    [study]
    name = "red_light"            # identifies the results store
    description = "..."           # the question, for reports
    family = "deck"               # deck | dice | zombie | zombie-dice | wager | rules
    rules = "hog"                 # family "rules" only: a shipped example's name,
                                  # or FILE.toml relative to this file
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
    grace = 20                    # shared storages: seconds without a heartbeat
                                  # after which a dead process's trial is retried

    [simulation]                  # simulated families (wager) only
    games = 20000                 # games per pairing and design
    seed = 1

``fairness`` is ``|first-player win - 1/2|`` for the solved families and
``|non-dealer advantage per hand|`` for wagering games. The parameters of
each family, and the metrics it can rank by, are those of
:mod:`designer.search.families`.

A study of family ``rules`` sweeps integer keys of its rules file, dotted
as in the file (quoted, ``"dice.sides" = {min = 4, max = 8}``, or as TOML's
own dotted keys), besides ``goal`` and ``komi`` (in points) and optionally
``ending``; see :mod:`designer.search.rules_family`.
"""

import hashlib
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model

from designer.errors import DesignError, ParameterError
from designer.search.families import FAMILIES, PLAIN_FAMILIES
from designer.search.seat_families import SEAT_VARIANTS

#: Largest number of values one parameter may take (checked before any list
#: of values is built).
MAX_VALUES = 10_000
#: Largest number of designs (every combination of the space's values) a
#: study may hold; counted before anything is enumerated.
MAX_DESIGNS = 1_000_000
#: Largest number of units (compositions: one solve each) before the
#: components constraint; counted before anything is enumerated.
MAX_UNITS = 100_000
#: A study name: a plain word, so stores and reports named after it stay in
#: their folders.
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


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
        if not all(isinstance(x, int) for x in v):
            return ", ".join(map(str, v))
        if list(v) == list(range(v[0], v[-1] + 1)):
            return f"{v[0]}..{v[-1]}"
        return ", ".join(map(str, v))


# -- the schema (pydantic) ------------------------------------------------------
#
# The file is validated in two passes: the tables and their types first
# (`_File`), then the family's own [space] and [constraints] keys (models made
# from the family's parameter and metric names). pydantic's messages are
# rewritten into the one-line form "FILE [table]: invalid KEY = VALUE: allowed
# WHAT" by `_study_error`.

class _Table(BaseModel):
    # strict: no silent conversion ("3" is not 3, 3.0 is not 3, true is not 1)
    model_config = ConfigDict(extra="forbid", strict=True)


def _plain_name(v):
    if not NAME_RE.fullmatch(v):
        raise ValueError("a plain word of 1 to 64 letters, digits, - and _")
    return v


def _inside(v):
    p = Path(v)
    if not v or p.is_absolute() or ".." in p.parts or "\x00" in v:
        raise ValueError("a folder path relative to the study file, without '..' "
                         "(results stay beside the study)")
    return v


def _storage_url(v):
    if not v:
        return v
    from sqlalchemy.engine import make_url

    try:
        url = make_url(v)
        url.get_dialect()
    except Exception:  # noqa: BLE001 - any parse or plugin error means "not a URL we can use"
        raise ValueError("an SQLAlchemy database URL optuna can use, e.g. "
                         "postgresql+psycopg://user@host/db or sqlite:///file.db") from None
    if url.get_backend_name() == "sqlite" and (url.database or ":memory:") == ":memory:":
        # each connection of optuna's (its heartbeat thread, every worker)
        # would get its own empty database: nothing would be shared or kept
        raise ValueError("a database that outlives the run: an in-memory SQLite database "
                         "keeps nothing (give a file, e.g. sqlite:///file.db)")
    return v


FiniteNumber = Annotated[float, Field(allow_inf_nan=False)]


class _Study(_Table):
    name: Annotated[str, AfterValidator(_plain_name)] | None = None
    description: str = ""
    family: Literal[PLAIN_FAMILIES]
    rules: str | None = None
    method: Literal["grid", "optuna"] = "grid"
    workers: int = Field(2, ge=1, le=256)
    results: Annotated[str, AfterValidator(_inside)] | None = None


class _Objectives(_Table):
    rank: list[str] = Field(min_length=1, max_length=20)


class _Optuna(_Table):
    trials: int = Field(100, ge=1, le=1_000_000)
    seed: int = Field(0, ge=0, lt=2**32)
    storage: Annotated[str, AfterValidator(_storage_url)] = ""
    grace: int = Field(20, ge=2, le=3600)


class _Simulation(_Table):
    games: int = Field(20_000, ge=100, le=10**8)
    seed: int = Field(0, ge=0, lt=2**64)


class _File(_Table):
    study: _Study
    space: dict[str, Any]
    constraints: dict[str, Any] = {}
    objectives: _Objectives | None = None
    optuna: _Optuna = _Optuna()
    simulation: _Simulation | None = None


class _Bounds(_Table):
    min: FiniteNumber | None = None
    max: FiniteNumber | None = None


RANGE_FORMS = "an integer, a non-empty list of integers, or {min = INT, max = INT}"
INT_LIMIT = 2**31  # no parameter of any family comes near it


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool) and -INT_LIMIT < v < INT_LIMIT


def _space_value(v):
    """``{min, max}``, an integer or a list -> ``("range", lo, hi)`` or
    ``("list", values)``; nothing is expanded here (see MAX_VALUES)."""
    if isinstance(v, dict):
        if set(v) != {"min", "max"} or not all(_is_int(x) for x in v.values()):
            raise ValueError(RANGE_FORMS)
        if v["min"] > v["max"]:
            raise ValueError("min <= max")
        if v["max"] - v["min"] + 1 > MAX_VALUES:
            raise ValueError(f"at most {MAX_VALUES} values per parameter "
                             f"(this range has {v['max'] - v['min'] + 1})")
        return ("range", v["min"], v["max"])
    if isinstance(v, list):
        if not v or not all(_is_int(x) for x in v):
            raise ValueError(RANGE_FORMS)
        if len(v) > MAX_VALUES:
            raise ValueError(f"at most {MAX_VALUES} values per parameter")
        return ("list", tuple(sorted(set(v))))
    if not _is_int(v):
        raise ValueError(RANGE_FORMS)
    return ("list", (v,))


ENDINGS = ("race", "rounds")


def _ending_value(v):
    """``"race"``, ``"rounds"`` or a list of them -> ``("list", values)``."""
    items = v if isinstance(v, list) else [v]
    if not items or not all(isinstance(x, str) and x in ENDINGS for x in items):
        raise ValueError('"race", "rounds" or a list of them')
    return ("list", tuple(e for e in ENDINGS if e in items))


def _fixed_value(v):
    """An optional (set-valued) parameter: an integer or a list of them."""
    if isinstance(v, list) and v and len(v) <= 100 and all(_is_int(x) for x in v):
        return tuple(v)
    if _is_int(v):
        return (v,)
    raise ValueError("an integer or a non-empty list of integers")


def _bounds(v):
    if not isinstance(v, dict) or not v or set(v) - {"min", "max"}:
        raise ValueError("{min = NUMBER, max = NUMBER} (either may be left out)")
    b = _Bounds.model_validate(v)
    if b.min is not None and b.max is not None and b.min > b.max:
        raise ValueError("min <= max")
    return {k: float(x) for k, x in (("min", b.min), ("max", b.max)) if x is not None}


SpaceValue = Annotated[Any, AfterValidator(_space_value)]
FixedValue = Annotated[Any, AfterValidator(_fixed_value)]
EndingValue = Annotated[Any, AfterValidator(_ending_value)]
BoundsValue = Annotated[Any, AfterValidator(_bounds)]


def _check_seats(where, fam, seats):
    """Refuse players or endings that a study of this family cannot sweep
    (the support table of :mod:`designer.support`), in one line."""
    from designer.support import SUPPORT, refusal

    reach = SUPPORT["study run"][fam.name]
    kind, sp = seats["players"], seats["ending"]
    players = (() if kind is None else kind[1] if kind[0] == "list"
               else range(kind[1], kind[2] + 1))
    endings = () if sp is None else sp[1]
    for n in players:
        problem = refusal("study run", fam.name, n, reach.endings[0], f"{fam.name} studies",
                          ("players = ", "ending = "))
        if problem:
            raise StudyError(f"{where} [space]: {problem}")
    for e in endings:
        problem = refusal("study run", fam.name, reach.players[0], e, f"{fam.name} studies",
                          ("players = ", "ending = "))
        if problem:
            raise StudyError(f"{where} [space]: {problem}")


def _family_models(fam):
    """The [space] and [constraints] models of a family."""
    space = {p: (SpaceValue, None if p in fam.defaults else ...) for p in fam.space_params}
    space.update({p: (FixedValue, None) for p in fam.optional})
    # every family takes players and ending; the support table says which
    # values (for deck and dice they select the seats variant)
    space.update(players=(SpaceValue, None), ending=(EndingValue, None))
    config = ConfigDict(extra="forbid", strict=True)
    return (create_model(f"{fam.name}_space", __config__=config, **space),
            _constraints_model(fam))


def _constraints_model(fam):
    """The [constraints] model of a family: bounds on its metrics."""
    metrics = dict.fromkeys(("components",) + tuple(fam.metrics))
    cons = {m: (BoundsValue, None) for m in metrics}
    config = ConfigDict(extra="forbid", strict=True)
    return create_model(f"{fam.name}_constraints", __config__=config, **cons)


#: What is allowed, for errors pydantic describes in its own words.
ALLOWED = {
    ("study", "family"): " | ".join(PLAIN_FAMILIES),
    ("study", "method"): "grid | optuna",
    ("study", "workers"): "an integer from 1 to 256",
    ("study", "name"): "a plain word of 1 to 64 letters, digits, - and _",
    ("study", "description"): "a string",
    ("study", "rules"): "a shipped example's name or FILE.toml (relative to the study file)",
    ("study", "results"): "a folder path relative to the study file",
    ("objectives", "rank"): "a non-empty list of metric names",
    ("optuna", "trials"): "an integer from 1 to 1000000",
    ("optuna", "seed"): "an integer from 0 to 2**32 - 1",
    ("optuna", "storage"): "an optuna storage URL",
    ("optuna", "grace"): "an integer number of seconds from 2 to 3600",
    ("simulation", "games"): "an integer from 100 to 100000000",
    ("simulation", "seed"): "an integer from 0 to 2**64 - 1",
}


def _fields(model, loc):
    """Field names of the model holding the key at ``loc`` (for 'unknown key')."""
    for part in loc[:-1]:
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return ()
        f = model.model_fields.get(part)
        if f is None:
            return ()
        ann = f.annotation
        args = [a for a in getattr(ann, "__args__", ()) if isinstance(a, type)]
        model = ann if isinstance(ann, type) else next(
            (a for a in args if issubclass(a, BaseModel)), None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return tuple(model.model_fields)
    return ()


def _study_error(where, exc, model, prefix=()):
    """One line from the first error of a pydantic ValidationError."""
    e = exc.errors(include_url=False)[0]
    loc = tuple(prefix) + tuple(e["loc"])
    names = [str(x) for x in loc if isinstance(x, str)]
    table = names[0] if names else ""
    here = f"{where} [{table}]" if len(names) > 1 else where
    key = ".".join(names[1:]) if len(names) > 1 else table
    kind, value = e["type"], e.get("input")
    if kind == "extra_forbidden":
        allowed = _fields(model, tuple(e["loc"]))
        what = "table" if len(names) == 1 else "key"
        return StudyError(f"{here}: unknown {what} {key}"
                          + (f": allowed {what}s are {', '.join(allowed)}" if allowed else ""))
    if kind == "missing":
        if len(names) == 1:
            return StudyError(f"{where}: needs a [study] table and a [space] table")
        return StudyError(f"{here}: missing {key}")
    if kind in ("model_type", "dict_type") and len(names) == 1:
        return StudyError(f"{where}: [{table}] must be a table, got {value!r}")
    if kind == "value_error":
        allowed = e["msg"].removeprefix("Value error, ")
    else:
        allowed = ALLOWED.get((table, names[-1])) or e["msg"].removeprefix("Input should be ")
    return _err(here, key, value, allowed)


def _values(raw):
    return (raw[2] - raw[1] + 1) if raw[0] == "range" else len(raw[1])


def _to_range(raw):
    return IntRange(tuple(range(raw[1], raw[2] + 1)) if raw[0] == "range" else raw[1])

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
    optuna_grace: int = 20
    games: int = 0
    sim_seed: int = 0
    #: The rules file of a rules study
    #: (:class:`~designer.search.rules_family.RulesSource`), else None.
    rules: Any = None
    #: A rules study's own family (its design columns are its swept keys),
    #: else None: :func:`designer.search.families.family_of` reads it.
    bound: Any = field(default=None, repr=False, compare=False)

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
        if self.rules is not None:  # the game is the rules file's content
            doc["rules"] = self.rules.sha
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]

    def describe_space(self):
        """The space in one line, e.g. ``bad 1..10, good 1..48, goal 50``
        (a rules study: ``rules hog: dice.sides 4..8, goal 50, 100, ...``)."""
        text = ", ".join(f"{k} {v.describe()}" for k, v in self.space.items())
        return f"rules {self.rules.label}: {text}" if self.rules is not None else text


def load_study(path):
    """Read and validate a study file.

    The file must be UTF-8 TOML whose tables and keys are those of the module
    docstring, with values of the right type (no conversions: ``"3"`` is not
    an integer), bounds that are finite numbers, a plain-word ``name`` and a
    ``results`` folder inside the study's folder. The number of designs (the
    product of the numbers of values of the parameters) is counted before
    anything is built and refused past :data:`MAX_DESIGNS`.

    Raises
    ------
    StudyError
        Naming the table and key at fault, the value and what is allowed.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise StudyError(f"no study file at {path}") from None
    except IsADirectoryError:
        raise StudyError(f"{path} is a directory: give a study file (TOML)") from None
    except OSError as exc:
        raise StudyError(f"cannot read the study file {path}: {exc.strerror or exc}") from None
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise StudyError(f"{path}: not a UTF-8 text file (byte {exc.start}): "
                         "study files are UTF-8 TOML") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{path}: not valid TOML: {exc}") from None
    where = str(path)
    try:
        top = _File.model_validate(doc)
    except ValidationError as exc:
        raise _study_error(where, exc, _File) from None
    st = top.study
    fam = FAMILIES[st.family]
    family = st.family
    source = None
    if st.family == "rules":
        from designer.search.rules_spec import rules_space

        source, fam, sp = rules_space(where, path, st, top.space)
        cons_model = _constraints_model(fam)
    else:
        if st.rules is not None:
            raise _err(f"{where} [study]", "rules", st.rules,
                       'only with family = "rules" (a rules file\'s keys as the space)')
        space_model, cons_model = _family_models(fam)
        try:
            sp = space_model.model_validate(top.space).model_dump()
        except ValidationError as exc:
            raise _study_error(where, exc, space_model, ("space",)) from None
    for metric in top.constraints:
        if metric in getattr(fam, "missing", {}):
            raise _err(f"{where} [constraints]", metric, top.constraints[metric],
                       f"bounds on {', '.join(dict.fromkeys(['components', *fam.metrics]))} "
                       f"({fam.missing[metric]})")
    try:
        cons = cons_model.model_validate(top.constraints).model_dump(exclude_none=True)
    except ValidationError as exc:
        raise _study_error(where, exc, cons_model, ("constraints",)) from None

    seats = {"players": sp.pop("players", None), "ending": sp.pop("ending", None)}
    if source is None:
        _check_seats(where, fam, seats)
    elif seats["players"] not in (None, ("list", (2,))):
        # a rules study over players: the rules family's seats variant, its
        # ending the study's or the file's
        fam = FAMILIES["rules-seats"].bind(source, fam.keys)
        family = fam.name
        sp["players"] = seats["players"]
        ending = source.doc.get("ending", "race")
        sp["ending"] = seats["ending"] or ("list", (ending if isinstance(ending, str) else "race",))
        if st.method != "grid":
            raise _err(f"{where} [study]", "method", st.method,
                       "grid for a study over players or endings")
    elif seats["ending"] is not None:  # a rules study sweeps the file's ending
        sp["ending"] = seats["ending"]
    if fam.name in SEAT_VARIANTS:
        plain = ("list", (SEAT_VARIANTS[fam.name].default_ending,))
        if (seats["players"] not in (None, ("list", (2,)))
                or seats["ending"] not in (None, plain)):
            # a players x ending study: the family's seats variant
            fam = SEAT_VARIANTS[fam.name]
            family = fam.name
            sp["players"] = seats["players"] or ("list", (2,))
            sp["ending"] = seats["ending"] or plain
            if st.method != "grid":
                raise _err(f"{where} [study]", "method", st.method,
                           "grid for a study over players or endings")

    name = st.name if st.name is not None else path.stem
    if st.name is None and not NAME_RE.fullmatch(name):
        raise _err(f"{where} [study]", "name", name,
                   "a plain word of 1 to 64 letters, digits, - and _ (the file's stem is "
                   "not one: set name in [study])")
    results_dir = (path.parent / (st.results or f"{path.stem}.results")).resolve()

    raw = {p: sp[p] if sp[p] is not None else ("list", (fam.defaults[p],))
           for p in fam.space_params}
    designs = math.prod(_values(r) for r in raw.values())
    if designs > MAX_DESIGNS:
        raise StudyError(f"{where} [space]: the space holds {designs:,} designs: allowed at "
                         f"most {MAX_DESIGNS:,}; narrow the ranges or split the study")
    n_units = math.prod(_values(raw[p]) for p in fam.unit_params())
    if n_units > MAX_UNITS:
        raise StudyError(f"{where} [space]: the space holds {n_units:,} compositions (one solve "
                         f"each): allowed at most {MAX_UNITS:,}; narrow the ranges or split "
                         "the study")
    space = {p: _to_range(r) for p, r in raw.items()}
    fixed = {p: sp[p] if sp[p] is not None else
             (tuple(d) if isinstance(d, (list, tuple)) else (d,))
             for p, d in fam.optional.items()}
    if source is not None:
        if st.method != "grid" and "ending" in space:
            raise _err(f"{where} [study]", "method", st.method,
                       "grid for a study over endings")
        from designer.search.rules_spec import check_rules_space

        check_rules_space(where, fam, source, space)
    try:
        fam.check_space(space, fixed)
    except ParameterError as exc:
        raise StudyError(f"{where} [space]: {exc}") from None
    if "komi" in space and "goal" in space and space["komi"].hi >= space["goal"].hi:
        raise _err(f"{where} [space]", "komi", space["komi"].describe(),
                   f"komi below the largest goal ({space['goal'].hi})")

    objectives = []
    for item in (top.objectives.rank if top.objectives else list(fam.default_rank)):
        direction, _, metric = item.rpartition(":")
        if metric in getattr(fam, "missing", {}):
            raise _err(f"{where} [objectives]", "rank", item,
                       f"one of {', '.join(fam.metrics)} ({fam.missing[metric]})")
        if metric not in fam.metrics or direction not in ("", "min", "max"):
            raise _err(f"{where} [objectives]", "rank", item,
                       f"one of {', '.join(fam.metrics)}, optionally prefixed by min: or max:")
        objectives.append(Objective(metric, direction or fam.metrics[metric]))

    op = top.optuna
    games, sim_seed = 0, 0
    if fam.se:  # a simulated family
        sim = top.simulation or _Simulation()
        games, sim_seed = sim.games, sim.seed
    elif top.simulation is not None:
        raise StudyError(f"{where} [simulation]: only simulated families (wager) take it")

    return StudySpec(path=path, name=name, description=st.description, family=family,
                     method=st.method, workers=st.workers, results_dir=results_dir, space=space,
                     fixed=fixed, constraints=cons, objectives=tuple(objectives),
                     trials=op.trials, seed=op.seed, optuna_storage=op.storage,
                     optuna_grace=op.grace, games=games,
                     sim_seed=sim_seed, rules=source, bound=fam if source is not None else None)
