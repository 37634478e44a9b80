"""The pass loop of the slow references (tests/seats_reference.py,
tests/profile_reference.py, tests/engine_rounds_match_reference.py):
Gauss-Seidel over blocks of states."""


def passes(blocks, sweep, tol, limit, inner):
    """Sweep ``blocks`` (in the order given) until a whole pass moves no
    value by more than ``tol``: True then, False after ``limit`` passes.

    Each block is swept (``sweep(block)`` sets its values and returns the
    largest change) until it agrees (a sweep moves nothing by more than
    ``tol``) or ``inner`` times, then the next."""
    for _ in range(limit):
        delta = 0.0
        for block in blocks:
            for _ in range(inner):
                d = sweep(block)
                delta = max(delta, d)
                if d <= tol:
                    break
        if delta <= tol:
            return True
    return False


def blocked_passes(blocks, update, tol, limit, inner, what):
    """:func:`passes` where ``update(x)`` sets the value of state ``x`` and
    returns how far it moved; RuntimeError (``what`` did not converge)
    after ``limit`` passes."""
    if not passes(blocks, lambda block: max(update(x) for x in block), tol, limit, inner):
        raise RuntimeError(f"{what} did not converge")
