"""The line a first run prints while numba compiles the kernels.

A new install has no compiled kernels: the first solve of each kind of game
compiles them (5-60 s; later runs load them from numba's cache in well
under a second). The command line registers :func:`on_first_compile` so
that a person at a terminal is told why nothing seems to happen; a library
user hears nothing. Kept apart from :mod:`designer._jit` so that the
command line can register it without importing numba.
"""

import threading
from contextlib import contextmanager

#: Seconds a warm-up may take before the notice: a load from numba's cache
#: takes well under a second, a first compile several seconds or more.
NOTICE_AFTER = 3.0

_notice = {"say": None, "said": False}


def on_first_compile(say):
    """Call ``say()`` (once per process) when a warm-up has run for
    :data:`NOTICE_AFTER` seconds; ``None`` says nothing (the default)."""
    _notice["say"], _notice["said"] = say, False


@contextmanager
def first_call():
    """Around a warm-up call (a tiny solve that loads or compiles kernels):
    after :data:`NOTICE_AFTER` seconds, the :func:`on_first_compile` notice,
    from a timer thread (numba's compiler runs Python, so the thread gets
    its turn)."""
    say = _notice["say"]
    if say is None or _notice["said"]:
        yield
        return

    def fire():
        if not _notice["said"]:
            _notice["said"] = True
            say()

    timer = threading.Timer(NOTICE_AFTER, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
