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

from designer.search.families import family
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


class SQLiteStore(ResultStore):
    """The embedded store: one SQLite file beside the study's outputs."""

    def __init__(self, path):
        self.path = path
        self.family = None
        self._con = None

    # -- connection ---------------------------------------------------------
    def _connect(self):
        if self._con is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False: optuna runs trials in threads; callers
            # serialise access to the store with a lock.
            self._con = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=NORMAL")
        return self._con

    def close(self):
        if self._con is not None:
            self._con.close()
            self._con = None

    def exists(self):
        """True if the store file holds a bound study."""
        if not self.path.exists():
            return False
        con = sqlite3.connect(self.path)
        try:
            return bool(con.execute("SELECT count(*) FROM sqlite_master WHERE name='designer_meta'")
                        .fetchone()[0])
        finally:
            con.close()

    def open(self, spec):
        con = self._connect()
        fam = family(spec.family)
        self.family = fam
        keys = fam.design_columns + fam.plane
        cols = keys + fam.stored
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
            have = [r[1] for r in con.execute("PRAGMA table_info(designer_rows)")][1:]
            if have != list(cols):
                raise StudyError(
                    f"study {spec.name!r}: the results store {self.path} holds other columns "
                    f"({', '.join(have)}) than this version of designer writes; delete "
                    f"{self.path.parent} (or give the study a new name) and run it again.")
            meta = dict(con.execute("SELECT key, value FROM designer_meta").fetchall())
            if not meta:
                con.executemany("INSERT INTO designer_meta VALUES (?, ?)",
                                [("fingerprint", spec.fingerprint()), ("family", spec.family),
                                 ("space", spec.describe_space()), ("name", spec.name),
                                 ("created", str(time.time()))])
            elif meta.get("fingerprint") != spec.fingerprint():
                raise StudyError(
                    f"study {spec.name!r}: the search space changed since results were stored "
                    f"(stored: {meta.get('family')}, {meta.get('space')}; now: {spec.family}, "
                    f"{spec.describe_space()}). Give the study a new name, or delete "
                    f"{self.path.parent} to start over.")
        self._columns = cols
        return self

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

    def mark_failed(self, result):
        con = self._connect()
        with con:
            con.execute("INSERT OR REPLACE INTO designer_units VALUES (?, 'failed', ?, NULL, ?, ?)",
                        (result["key"], result["seconds"], result["error"], time.time()))

    def set_note(self, key, value):
        con = self._connect()
        with con:
            con.execute("INSERT OR REPLACE INTO designer_notes VALUES (?, ?)", (key, str(value)))

    def notes(self):
        return dict(self._connect().execute("SELECT key, value FROM designer_notes").fetchall())

    def done(self):
        return {k for (k,) in self._connect().execute(
            "SELECT key FROM designer_units WHERE status = 'done'")}

    def failed(self):
        return dict(self._connect().execute(
            "SELECT key, error FROM designer_units WHERE status = 'failed'").fetchall())

    def rows(self):
        order = ", ".join(self.family.design_columns + self.family.plane)
        df = pd.read_sql_query(f"SELECT * FROM designer_rows ORDER BY {order}", self._connect())
        return df.drop(columns=["unit"]).reset_index(drop=True)

    def unit_rows(self, key):
        """Rows of one unit (used to answer repeated configurations)."""
        df = pd.read_sql_query("SELECT * FROM designer_rows WHERE unit = ?", self._connect(),
                               params=(key,))
        return df.drop(columns=["unit"])

    def unit_stats(self):
        return pd.read_sql_query("SELECT key, status, seconds, residual, finished FROM designer_units",
                                 self._connect())
