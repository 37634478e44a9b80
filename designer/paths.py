"""Where commands may write: one check for every output path.

Commands write only (a) inside the study's own folder, (b) under the
working directory (``reports/<study name>``), or (c) where the user points
an explicit ``--out``. Before anything is computed, an output path is
checked here, so a run that cannot save its result fails at once, with one
line, instead of after an hour of work:

* a file path must not be a directory, its folder must exist and be
  writable (a missing folder is created only inside the working directory;
  elsewhere it is an error, never created silently);
* a folder path must be a folder (or not exist yet, under the same rule for
  its parents) and writable.
"""

import os
from pathlib import Path

from designer.errors import DesignError


def _inside_cwd(p):
    cwd = Path.cwd().resolve()
    return p == cwd or cwd in p.parents


def _check_parent(p, flag, shown):
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        if not _inside_cwd(parent):
            raise DesignError(f"invalid {flag}={shown!r}: the folder {str(p.parent)!r} does not "
                              "exist: allowed a path whose folder exists (create it first)")
        parent = parent.parent
    if not parent.is_dir():
        raise DesignError(f"invalid {flag}={shown!r}: {str(parent)!r} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DesignError(f"invalid {flag}={shown!r}: the folder {str(parent)!r} is not "
                          "writable")


def output_file(path, flag="--out"):
    """Check that a file can be written at ``path``; returns it as a Path.

    Raises
    ------
    DesignError
        Empty path, a directory, a missing folder outside the working
        directory, or no write permission.
    """
    shown = str(path)
    if not shown.strip() or "\x00" in shown:
        raise DesignError(f"invalid {flag}={shown!r}: allowed a file name")
    p = Path(path).expanduser().absolute()
    if p.is_dir():
        raise DesignError(f"invalid {flag}={shown!r}: it is a folder: allowed a file path")
    if p.exists() and not os.access(p, os.W_OK):
        raise DesignError(f"invalid {flag}={shown!r}: the file is not writable")
    _check_parent(p, flag, shown)
    if p.parent.is_dir() and not p.exists():
        # permissions are not the whole story (read-only or special file
        # systems): create the file once, empty, and remove it again
        try:
            with open(p, "xb"):
                pass
            p.unlink()
        except OSError as exc:
            raise DesignError(f"invalid {flag}={shown!r}: cannot create it "
                              f"({exc.strerror or exc})") from None
    return Path(path).expanduser()


def output_dir(path, flag="--out"):
    """Check that ``path`` is (or can become) a writable folder; returns it."""
    shown = str(path)
    if not shown.strip() or "\x00" in shown:
        raise DesignError(f"invalid {flag}={shown!r}: allowed a folder name")
    p = Path(path).expanduser().absolute()
    if p.exists():
        if not p.is_dir():
            raise DesignError(f"invalid {flag}={shown!r}: it is a file: allowed a folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise DesignError(f"invalid {flag}={shown!r}: the folder is not writable")
    else:
        _check_parent(p, flag, shown)
    return Path(path).expanduser()


def make_dirs(path):
    """Create ``path`` and its parents (after :func:`output_dir` said it may)."""
    Path(path).mkdir(parents=True, exist_ok=True)
