"""Reading the ``rules`` key and the dotted ``[space]`` of a rules study.

Everything is checked when the study file is read, before anything is
written: the rules file (a shipped example's name, or ``FILE.toml``
relative to the study file), every key (dotted as in the rules file, and
an integer there or absent from it), every value (the rules with each key
at the lowest and highest value of its range, the others at their lowest,
are read by the rules reader, whose own words say what is allowed), the
goals and komis (multiples of the game's unit) and the seats and ending
(what the engine solves). Each refusal is one line naming the study file,
the key and what is allowed.
"""

import tomllib
from pathlib import Path

from designer.errors import DesignError
from designer.search.rules_family import (RulesSource, integer_keys, lookup, overridden, parse,
                                          sweepable, toml_text)

#: Keys of a rules study's [space] that are not keys of the rules file.
PLANE = ("goal", "komi")


def _study_error(text):
    from designer.search.spec import StudyError

    return StudyError(text)


def read_source(where, study_path, name):
    """The :class:`RulesSource` that ``rules = name`` names."""
    from designer.engine.rulesfile import example_path, examples

    here = f"{where} [study]: invalid rules = {name!r}"
    allowed = (f"a shipped example ({', '.join(examples())}) or FILE.toml, relative to the "
               "study file")
    if name.startswith("rules:") or name.endswith(".py"):
        raise _study_error(f"{here}: allowed {allowed} (rules written in Python are not "
                           "swept by studies)")
    if name.endswith(".toml"):
        path = Path(name)
        path = path if path.is_absolute() else study_path.parent / path
    elif name in examples():
        path = example_path(name)
    else:
        raise _study_error(f"{here}: no such example: allowed {allowed}")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _study_error(f"{here}: there is no file {path}: allowed {allowed}") from None
    except IsADirectoryError:
        raise _study_error(f"{here}: {path} is a directory: allowed {allowed}") from None
    except UnicodeDecodeError as exc:
        raise _study_error(f"{here}: {path} is not a UTF-8 text file (byte {exc.start}); "
                           "rules files are UTF-8 TOML") from None
    except OSError as exc:
        raise _study_error(f"{here}: cannot read {path} ({exc.strerror or exc})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _study_error(f"{here}: {path} is not valid TOML ({exc})") from None
    return RulesSource(name, path, text, doc)


def _flatten(space, prefix=""):
    """``{"dice": {"sides": R}}`` (TOML's own dotted keys) and
    ``{"dice.sides": R}`` (a quoted key) alike -> ``{"dice.sides": R}``; a
    table of only ``min`` and ``max`` is a range, not a table of keys."""
    out = {}
    for k, v in space.items():
        key = prefix + k
        if isinstance(v, dict) and v and not set(v) <= {"min", "max"}:
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _seats_problem(players, ending):
    """Why a rules study cannot take this seat count and ending, or None
    (the support table's row for studies, in its words)."""
    from designer.support import refusal

    return refusal("study run", "rules", players, ending, "rules studies",
                   ("players = ", "ending = "))


def rules_space(where, study_path, st, space):
    """Read a rules study's source and [space].

    Returns
    -------
    (RulesSource, RulesFamily, dict)
        The rules file, the study's family (its swept keys as columns) and
        the space as :func:`designer.search.spec.load_study` reads it:
        ``key -> ("range", lo, hi)`` or ``("list", values)``, ``players``
        and ``ending`` None unless given.
    """
    from designer.search.families import FAMILIES
    from designer.search.spec import _ending_value, _err, _space_value

    if st.rules is None:
        from designer.engine.rulesfile import examples

        raise _study_error(f'{where} [study]: family = "rules" needs rules = NAME: a shipped '
                           f"example ({', '.join(examples())}) or FILE.toml, relative to the "
                           "study file")
    source = read_source(where, study_path, st.rules)
    here = f"{where} [space]"
    flat = _flatten(space)
    sp = {"players": None, "ending": None}
    for key, v in flat.items():
        try:
            sp[key] = _ending_value(v) if key == "ending" else _space_value(v)
        except ValueError as exc:
            raise _err(here, key, v, str(exc)) from None
    for key in PLANE:
        if key not in flat:
            raise _study_error(f"{here}: missing {key} (in points)")
    file_ending = source.doc.get("ending", "race")
    for n in (() if sp["players"] is None else _values(sp["players"])):
        problem = _seats_problem(n, file_ending if isinstance(file_ending, str) else "race")
        if problem:
            raise _study_error(f"{here}: {problem}")
    for e in (() if sp["ending"] is None else sp["ending"][1]):
        problem = _seats_problem(2, e)
        if problem:
            raise _study_error(f"{here}: {problem}")
    keys = [k for k in flat if k not in PLANE + ("players", "ending")]
    ints = ", ".join(integer_keys(source.doc)) or "none"
    for key in keys:
        if not all(key.split(".")):
            raise _study_error(f"{here}: invalid key {key!r}: allowed goal, komi, players, "
                               "ending or a key of the rules file written dotted (dice.sides)")
        try:
            found, value = lookup(source.doc, key)
        except DesignError as exc:
            raise _study_error(f"{here}: invalid key {key}: {exc}") from None
        if found and not sweepable(value):
            raise _study_error(
                f"{here}: invalid key {key}: not an integer key of the rules ({key} = "
                f"{value!r} in {source.label}): allowed goal, komi, ending or an integer key, "
                f"such as {ints}")
    if "ending" in flat:
        keys.append("ending")
    fam = FAMILIES["rules"].bind(source, tuple(keys))
    seen = {}
    for key, col in fam.columns.items():
        if col in seen:
            raise _study_error(f"{here}: keys {seen[col]} and {key} would share the column "
                               f"{col}: sweep one of them")
        seen[col] = key
    return source, fam, sp


def _values(raw):
    return range(raw[1], raw[2] + 1) if raw[0] == "range" else raw[1]


def check_rules_space(where, fam, source, space):
    """Refuse a space whose rules the rules reader refuses (module doc)."""
    here = f"{where} [space]"
    if space["komi"].lo < 0 and "players" not in space:  # a seats study checks its own
        raise _study_error(f"{here}: invalid komi = {space['komi'].lo}: allowed komi >= 0 "
                           "(points the second player starts with)")
    keys = fam.keys
    low = {k: space[k].values[0] if k == "ending" else space[k].lo for k in keys}
    top = space["goal"].hi

    def read(values, goal):
        return parse(toml_text(overridden(source.doc, values, goal)), source.label)

    try:
        rules = read(low, top)
    except DesignError as exc:
        raise _study_error(_culprit(here, source, low, top, str(exc), read)) from None
    for key in keys:
        for v in space[key].values if key == "ending" else (space[key].hi,):
            if v == low[key]:
                continue
            try:
                read({**low, key: v}, top)
            except DesignError as exc:
                raise _study_error(f"{here}: invalid {key} = {v!r}: {exc}") from None
    if space["goal"].lo != top:
        try:
            read(low, space["goal"].lo)
        except DesignError as exc:
            raise _study_error(f"{here}: invalid goal = {space['goal'].lo}: {exc}") from None
    for n in (space["players"].values if "players" in space else ()):
        for e in space["ending"].values:
            problem = _engine_refusal(rules, source.label, n, e)
            if problem:
                raise _study_error(f"{here}: invalid players = {n}: {problem}")
    u = rules.unit
    for key in PLANE:
        wrong = [v for v in space[key].values if v % u]
        if wrong:
            raise _study_error(f"{here}: invalid {key} = {wrong[0]}: allowed multiples of "
                               f"{u} (the rules of {source.label} count points in units of "
                               f"{u})")


def _engine_refusal(rules, label, players, ending):
    """The engine's refusal of ``rules`` with this many players and this
    ending (a farkle penalty counts two seats only), or None."""
    from designer.engine.game import RulesGame, _check_seats

    if players <= 2:
        return None
    try:
        _check_seats(RulesGame(rules=rules, source=label, start=(0,) * players,
                               players=players, ending=ending, komi=0))
    except DesignError as exc:
        return str(exc)
    return None


def _culprit(here, source, low, goal, text, read):
    """The refusal of the rules with every key at its lowest: the rules
    file itself, its goal, or the first key whose value it refuses."""
    try:
        read({}, None)
    except DesignError as exc:
        where = here.removesuffix(" [space]")
        return f"{where} [study]: invalid rules = {source.label!r}: {exc}"
    try:
        read({}, goal)
    except DesignError as exc:
        return f"{here}: invalid goal = {goal}: {exc}"
    for i, key in enumerate(low):
        try:
            read(dict(list(low.items())[:i + 1]), goal)
        except DesignError as exc:
            return f"{here}: invalid {key} = {low[key]!r}: {exc}"
    return f"{here}: {text}"
