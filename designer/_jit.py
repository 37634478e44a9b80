"""The one place where numba options are set.

Every kernel is compiled with ``cache=True`` so that a new process (a CLI
call, a joblib worker) loads it from ``__pycache__`` instead of compiling
again; ``fastmath`` stays off because the solvers compare values for ties and
promise results to 1e-12.
"""

from numba import njit

#: Decorator for every kernel in the package.
kernel = njit(cache=True, nogil=True)

#: A draw (or roll) must beat holding by more than this to be chosen, so that
#: exact ties, which rounding turns into near-ties, resolve to "hold" (SPEC 2).
TIE = 1e-13

#: Stopping rule: a score pair is solved when one more Bellman sweep moves its
#: unknown turn-start values by no more than this.
TOL = 1e-13

#: Sweeps allowed per score pair before the solve is declared non-convergent.
MAX_SWEEPS = 200
