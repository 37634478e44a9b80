"""Design studies: study files, sweeps, searches, the results store."""

from designer.search.spec import StudyError, StudySpec, load_study
from designer.search.store import ResultStore, SQLiteStore
from designer.search.study import export, open_store, status

__all__ = ["ResultStore", "SQLiteStore", "StudyError", "StudySpec", "export", "load_study",
           "open_store", "status"]
