"""How much memory one solve may take.

Every solver estimates the bytes its tables need before it allocates
anything and refuses a game over :func:`memory_limit` in one line. The
limit is half the machine's physical memory, so that a solve leaves room
for the rest of the machine; ``DESIGNER_MEMORY_LIMIT`` in the environment
sets another (``4G``, ``1500M``, ``512MiB`` or a number of bytes; the
units are binary: ``1G`` is ``2**30`` bytes), for a shared machine or a
larger one.
"""

import os
import re

from designer.errors import DesignError

#: The environment variable that sets the limit.
ENV = "DESIGNER_MEMORY_LIMIT"
#: Share of the machine's physical memory one solve may take by default.
MEMORY_SHARE = 0.5
#: Binary multipliers of the size suffixes.
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE | re.ASCII)


def physical_memory():
    """Bytes of physical memory of this machine (8 GiB where it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX
        return 8 * 2**30


def parse_size(text):
    """Bytes of a size written as a number with an optional binary suffix.

    >>> parse_size("4G"), parse_size("1.5 GiB"), parse_size("512m"), parse_size("1000")
    (4294967296, 1610612736, 536870912, 1000)

    Raises
    ------
    DesignError
        ``text`` is not a size of at least one byte.
    """
    m = _SIZE.fullmatch(str(text))
    size = int(float(m.group(1)) * _UNITS[m.group(2).upper()]) if m else 0
    if size < 1:
        raise DesignError(f"{ENV}={text!r} is not allowed: a size of at least 1 byte, a number "
                          "with an optional K, M, G or T (binary units: 1G = 2**30 bytes), "
                          "e.g. 4G")
    return size


def memory_limit():
    """Bytes one solve may allocate: ``DESIGNER_MEMORY_LIMIT`` if it is
    set, else :data:`MEMORY_SHARE` of the physical memory."""
    text = os.environ.get(ENV, "").strip()
    if text:
        return parse_size(text)
    return int(MEMORY_SHARE * physical_memory())


def limit_source():
    """Where the limit comes from, in words (for messages)."""
    if os.environ.get(ENV, "").strip():
        return f"set by {ENV}"
    return "half the memory"


def limit_text(limit=None):
    """A limit in words for a refusal: ``"12,053 MB (half the memory;
    DESIGNER_MEMORY_LIMIT sets another)"``; a ``limit`` other than the one
    in force (given by a caller) is its size alone."""
    if limit is not None and limit != memory_limit():
        return f"{limit / 2**20:,.0f} MB"
    how = (f"set by {ENV}" if os.environ.get(ENV, "").strip()
           else f"half the memory; {ENV} sets another")
    return f"{memory_limit() / 2**20:,.0f} MB ({how})"


def resolve(limit):
    """``limit`` itself, or :func:`memory_limit` where it is None."""
    return memory_limit() if limit is None else limit
