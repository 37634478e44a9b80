"""The results store: every finished unit of a study, committed at once.

Contract of a :class:`ResultStore` (every backend passes the same tests in
``tests/test_store.py``):

* ``open(spec)`` binds the store to a study; if results exist for another
  search space (another fingerprint), it raises :class:`StudyError` instead
  of mixing them.
* ``commit_unit(result)`` stores a unit's rows and marks it done in ONE
  transaction: a process killed at any moment leaves a unit either fully
  stored or absent, never half-stored, and a unit is never stored twice.
* ``mark_failed(result)`` records a failure; a later commit of the same unit
  replaces it.
* ``set_note(key, value)`` / ``notes()`` keep small text facts about the
  runs (e.g. when the last run started, for the time estimates of
  :mod:`designer.search.eta`); they never touch results.
* ``done()``, ``failed()`` return unit keys; ``rows()`` returns all rows as a
  DataFrame in a canonical order (design columns, goal, komi), so two stores
  holding the same results compare equal row for row.
"""

import abc
import sqlite3
import time

import pandas as pd

from designer.search.families import family_of
from designer.search.spec import StudyError


def _sql_type(fam, column):
    if column in fam.optional or column in getattr(fam, "text_columns", ()):
        return "TEXT"  # set-valued parameters are stored as "1,2"; endings and start vectors as text
    return "INTEGER" if column in fam.int_columns else "REAL"


class ResultStore(abc.ABC):
    """Abstract results store; see the module docstring for the contract."""

    @abc.abstractmethod
    def open(self, spec):
        """Bind to ``spec``; refuse results of another search space."""

    @abc.abstractmethod
    def commit_unit(self, result):
        """Store a finished unit (dict from ``evaluate_unit``) atomically."""

    @abc.abstractmethod
    def mark_failed(self, result):
        """Record a failed unit with its error message."""

    @abc.abstractmethod
    def set_note(self, key, value):
        """Keep a text ``value`` under ``key`` (replacing an older one)."""

    @abc.abstractmethod
    def notes(self):
        """Every note as a dict of text."""

    @abc.abstractmethod
    def done(self):
        """Keys of the finished units."""

    @abc.abstractmethod
    def failed(self):
        """Mapping of failed unit keys to their error messages."""

    @abc.abstractmethod
    def rows(self):
        """All stored rows as a DataFrame in canonical order."""

    @abc.abstractmethod
    def unit_stats(self):
        """DataFrame of units: key, status, seconds, residual, finished."""


#: The tables every bound store has (``designer_notes`` came later: a store
#: without it reads as having no notes).
TABLES = ("designer_meta", "designer_units", "designer_rows")


def _guarded(method):
    """Turn an SQLite error inside a store method into one clear
    :class:`StudyError` naming the store (:meth:`SQLiteStore.problem`)."""
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise self.problem(exc) from None
    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class SQLiteStore(ResultStore):
    """The embedded store: one SQLite file beside the study's outputs.

    With ``readonly`` (the commands that only read: status, top, export,
    report) the file is opened read-only and nothing is created, repaired
    or changed: no table, no folder, no journal file (a store with no
    write-ahead log, so with no run writing to it, is opened as immutable;
    while a run writes, its log files exist already). Every open of an
    existing store, for reading or writing, first checks the file's
    integrity, its tables and the numbers in its rows, so a damaged store is
    one clear error (:meth:`problem`) rather than a traceback, a table
    silently made anew or a report with no rows.
    """

    def __init__(self, path, readonly=False):
        self.path = path
        self.readonly = readonly
        self.family = None
        self._con = None

    # -- connection ---------------------------------------------------------
    def _connect(self):
        if self._con is None:
            if self.readonly:
                self._con = sqlite3.connect(self.read_only_uri(), uri=True, timeout=60,
                                            check_same_thread=False)
                return self._con
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False: optuna runs trials in threads; callers
            # serialise access to the store with a lock.
            self._con = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=NORMAL")
        return self._con

    def read_only_uri(self):
        """The URI that opens the file read-only and creates nothing: a
        store in write-ahead-log mode would otherwise get its log files made
        by a reader; with no log file present no run is writing, and the
        file is opened as immutable."""
        uri = self.path.resolve().as_uri() + "?mode=ro"
        if not self.path.with_name(self.path.name + "-wal").exists():
            uri += "&immutable=1"
        return uri

    def problem(self, exc):
        """A :class:`StudyError` for the SQLite error ``exc``: what is wrong
        with the store and what to do."""
        text = str(exc)
        if "readonly" in text or "read-only" in text:
            return StudyError(f"the results store {self.path} cannot be written ({text}): "
                              f"check the permissions of {self.path.parent}")
        if self.path.is_dir() or "unable to open" in text:
            return StudyError(f"the results store {self.path} cannot be opened ({text}): it "
                              f"must be an SQLite file; move {self.path} aside to start the "
                              f"study over")
        return StudyError(f"the results store {self.path} is damaged ({text}); move "
                          f"{self.path.parent} aside to start the study over (a copy of it "
                          f"keeps whatever can still be read)")

    def _check(self, con):
        """Raise unless the file is intact and holds the store's tables."""
        check = con.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {check[0] if check else 'no answer'}")
        have = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [t for t in TABLES if t not in have]
        if missing:
            raise sqlite3.DatabaseError(f"table {', '.join(missing)} missing")

    def close(self):
        if self._con is not None:
            self._con.close()
            self._con = None

    @_guarded
    def exists(self):
        """True if the store file holds a bound study."""
        if not self.path.exists():
            return False
        if self.path.is_dir():
            raise sqlite3.OperationalError("unable to open database file: it is a folder")
        con = sqlite3.connect(self.read_only_uri(), uri=True)
        try:
            return bool(con.execute("SELECT count(*) FROM sqlite_master WHERE name='designer_meta'")
                        .fetchone()[0])
        finally:
            con.close()

    def open(self, spec):
        try:
            return self._open(spec)
        except BaseException:
            self.close()  # a store refused leaves no connection (nor its log files) behind
            raise

    @_guarded
    def _open(self, spec):
        con = self._connect()
        fam = family_of(spec)
        self.family = fam
        keys = fam.design_columns + fam.plane
        cols = keys + fam.stored
        self._columns = cols
        if self.readonly or con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            # a store that exists is checked before anything is written to
            # it: a damaged one is reported, never silently repaired
            self._check(con)
            self._check_bound(con, spec, cols)
            self._check_values(con)
            if self.readonly:
                return self
        coldefs = ", ".join(f"{c} {_sql_type(fam, c)}" for c in cols)
        unique = ", ".join(("unit",) + fam.plane)
        with con:
            con.execute("CREATE TABLE IF NOT EXISTS designer_meta (key TEXT PRIMARY KEY, value TEXT)")
            con.execute("CREATE TABLE IF NOT EXISTS designer_units (key TEXT PRIMARY KEY, status TEXT, "
                        "seconds REAL, residual REAL, error TEXT, finished REAL)")
            # notes about runs, apart from designer_meta (whose content is the
            # study's identity); created here for stores older than notes too
            con.execute("CREATE TABLE IF NOT EXISTS designer_notes (key TEXT PRIMARY KEY, value TEXT)")
            con.execute(f"CREATE TABLE IF NOT EXISTS designer_rows (unit TEXT, {coldefs}, "
                        f"UNIQUE ({unique}))")
            if not dict(con.execute("SELECT key, value FROM designer_meta").fetchall()):
                if con.execute("SELECT count(*) FROM designer_units").fetchone()[0]:
                    raise sqlite3.DatabaseError("the study's identity (designer_meta) is gone")
                con.executemany("INSERT INTO designer_meta VALUES (?, ?)",
                                [("fingerprint", spec.fingerprint()), ("family", spec.family),
                                 ("space", spec.describe_space()), ("name", spec.name),
                                 ("created", str(time.time()))])
            self._check_bound(con, spec, cols)
        return self

    def _check_bound(self, con, spec, cols):
        """Raise unless the store holds this version's columns and ``spec``'s
        search space."""
        have = [r[1] for r in con.execute("PRAGMA table_info(designer_rows)")][1:]
        if have != list(cols):
            raise StudyError(
                f"study {spec.name!r}: the results store {self.path} holds other columns "
                f"({', '.join(have)}) than this version of designer writes; delete "
                f"{self.path.parent} (or give the study a new name) and run it again.")
        meta = dict(con.execute("SELECT key, value FROM designer_meta").fetchall())
        if not meta:
            raise sqlite3.DatabaseError("the study's identity (designer_meta) is gone")
        if meta.get("fingerprint") != spec.fingerprint():
            raise StudyError(
                f"study {spec.name!r}: the search space changed since results were stored "
                f"(stored: {meta.get('family')}, {meta.get('space')}; now: {spec.family}, "
                f"{spec.describe_space()}). Give the study a new name, or delete "
                f"{self.path.parent} to start over.")

    @_guarded
    def commit_unit(self, result):
        con = self._connect()
        cols = self._columns
        placeholders = ", ".join("?" * (len(cols) + 1))
        with con:  # one transaction: rows and status together
            con.execute("DELETE FROM designer_rows WHERE unit = ?", (result["key"],))
            con.executemany(f"INSERT INTO designer_rows VALUES ({placeholders})",
                            [(result["key"],) + tuple(r[c] for c in cols) for r in result["rows"]])
            con.execute("INSERT OR REPLACE INTO designer_units VALUES (?, 'done', ?, ?, NULL, ?)",
                        (result["key"], result["seconds"], result["residual"], time.time()))

    @_guarded
    def mark_failed(self, result):
        con = self._connect()
        with con:
            con.execute("INSERT OR REPLACE INTO designer_units VALUES (?, 'failed', ?, NULL, ?, ?)",
                        (result["key"], result["seconds"], result["error"], time.time()))

    @_guarded
    def set_note(self, key, value):
        con = self._connect()
        with con:
            con.execute("INSERT OR REPLACE INTO designer_notes VALUES (?, ?)", (key, str(value)))

    @_guarded
    def notes(self):
        con = self._connect()
        if not con.execute("SELECT count(*) FROM sqlite_master WHERE name='designer_notes'"
                           ).fetchone()[0]:
            return {}  # a read-only open of a store older than notes
        return dict(con.execute("SELECT key, value FROM designer_notes").fetchall())

    @_guarded
    def done(self):
        return {k for (k,) in self._connect().execute(
            "SELECT key FROM designer_units WHERE status = 'done'")}

    @_guarded
    def failed(self):
        return dict(self._connect().execute(
            "SELECT key, error FROM designer_units WHERE status = 'failed'").fetchall())

    @_guarded
    def rows(self):
        con = self._connect()
        self._check_values(con)
        order = ", ".join(self.family.design_columns + self.family.plane)
        df = pd.read_sql_query(f"SELECT * FROM designer_rows ORDER BY {order}", con)
        return df.drop(columns=["unit"]).reset_index(drop=True)

    def _check_values(self, con):
        """Raise if a numeric column holds text (any row) or an integer
        column holds NULL: hand-edited or damaged rows."""
        fam = self.family
        numeric = [c for c in self._columns if _sql_type(fam, c) != "TEXT"]
        if not numeric:
            return
        keys = fam.design_columns + fam.plane  # a design's own numbers are never missing
        tests = ", ".join(
            f"sum(typeof({c}) NOT IN ('integer', 'real'"
            + (")" if c in keys else ", 'null')") + ")" for c in numeric)
        bad = con.execute(f"SELECT {tests} FROM designer_rows").fetchone()
        wrong = [c for c, n in zip(numeric, bad) if n]
        if wrong:
            raise sqlite3.DatabaseError(f"column {', '.join(wrong)} of designer_rows holds values "
                                        f"that are not numbers")

    @_guarded
    def unit_rows(self, key):
        """Rows of one unit (used to answer repeated configurations)."""
        df = pd.read_sql_query("SELECT * FROM designer_rows WHERE unit = ?", self._connect(),
                               params=(key,))
        return df.drop(columns=["unit"])

    @_guarded
    def unit_stats(self):
        return pd.read_sql_query("SELECT key, status, seconds, residual, finished FROM designer_units",
                                 self._connect())
