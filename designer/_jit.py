"""The one place where numba options and the solvers' convergence rule are set.

Every kernel is compiled with ``cache=True`` so that a new process (a CLI
call, a joblib worker) loads it from ``__pycache__`` instead of compiling
again; ``fastmath`` stays off because the solvers compare values for ties and
promise results to 1e-12. The layered solvers run the classes of one score
sum in parallel (:data:`parallel_kernel`, numba ``prange``); a process that
runs many solves side by side (a study's joblib workers) calls
:func:`single_thread` so that the workers do not oversubscribe the cores.

The convergence rule shared by every layered kernel is written out in
:mod:`designer.solve._classes`.
"""

import os

# OpenMP's threads spin for milliseconds after each parallel region before
# they sleep; beside a busy process that spinning takes the core the solve's
# own thread needs next (measured: Pig on two threads 0.07-0.09 s against
# 0.01 s on one). Waking a sleeping thread costs microseconds per region,
# nothing worth measuring against a solve. Read once, when numba first starts
# its threads, so it is set here, before any kernel exists; a value the user
# already set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from numba import njit  # noqa: E402

from designer.first_run import first_call  # noqa: E402

#: Decorator for every kernel in the package.
kernel = njit(cache=True, nogil=True)

#: Decorator for the kernels that run independent classes with ``prange``
#: (cached like the others: numba caches parallel kernels too).
parallel_kernel = njit(cache=True, nogil=True, parallel=True)

#: A draw (or roll) must beat holding by more than this to be chosen, so that
#: exact ties, which rounding turns into near-ties, resolve to "hold".
TIE = 1e-13

#: Largest Bellman residual accepted (the rule is in
#: :mod:`designer.solve._classes`): a value is accepted once one greedy
#: backup moves it by at most this much. Ten times :data:`TIE`, so that a
#: decision that flips between two iterates only because its margin sits at
#: the tie threshold (it then moves a value by about ``TIE``) cannot keep
#: the solver from stopping.
TOL = 1e-12

#: Tolerance of the rounds ending's tie-round iteration (a plain fixed-point
#: iteration on the round's start value, no policy check involved).
TIE_ROUND_TOL = 1e-13

#: Policy-iteration sweeps per two-player score pair (or Zombie Dice round)
#: before the pair continues by value iteration (greedy backups of its two
#: unknowns, a contraction whatever the decisions do). Pairs settle in 1-5.
PI_SWEEPS = 20

#: From this sweep on, a two-player pair (or Zombie Dice round) whose
#: estimate has a Bellman residual within :data:`TOL` stops there even if a
#: decision still flips (:func:`designer.solve._classes.pair_next`).
PI_EXACT = 4

#: Sweeps allowed per two-player score pair (or Zombie Dice round): a solve
#: that reaches this has met a bug (policy then value iteration always
#: certify a well-posed pair long before), and says so.
MAX_SWEEPS = 2000

#: Policy-iteration rounds allowed per N-player rotation class (N >= 3)
#: before it is declared unsettled (a max-n cycle): the iterate
#: with the smallest residual is kept. Settling classes need 1-4 rounds.
MAX_ROUNDS = 40


def compiled(fn):
    """True once ``fn`` (a kernel) has machine code in this process, so a
    warm-up call can be skipped; always True under ``NUMBA_DISABLE_JIT=1``
    (kernels are plain Python functions there, for coverage)."""
    return bool(getattr(fn, "signatures", True))


def load_first(kernels, tiny):
    """Load (or compile) ``kernels`` by calling ``tiny`` (a solve of a tiny
    game) unless they already have machine code in this process, so that a
    solve's clock starts after numba's cache load (about half a second in a
    new process) and its ``seconds`` is solve time."""
    if not all(compiled(k) for k in kernels):
        with first_call():
            tiny()


def single_thread():
    """Run numba's parallel kernels on one thread in this process.

    For worker processes that already run one solve per core.
    """
    import numba

    numba.set_num_threads(1)


def threads():
    """Threads a parallel kernel may run on: one scratch set each.

    ``numba.config.NUMBA_NUM_THREADS`` (the pool size) bounds every thread
    id, whatever :func:`numba.set_num_threads` chose. It is passed to the
    kernels as an argument: calling ``numba.get_num_threads`` inside a
    kernel would make it uncacheable.
    """
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)
