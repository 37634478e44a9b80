"""The pass loop of the slow N-seat references (tests/seats_reference.py,
tests/profile_reference.py): Gauss-Seidel over blocks of states."""


def blocked_passes(blocks, update, tol, limit, inner, what):
    """Sweep ``blocks`` (lists of states, in the order given) until a whole
    pass moves no value by more than ``tol``.

    Each block is swept until it agrees (one sweep moves none of its values
    by more than ``tol``) or ``inner`` times, then the next; ``update(x)``
    sets the value of state ``x`` and returns how far it moved. Raises
    RuntimeError (``what`` did not converge) after ``limit`` passes."""
    for _ in range(limit):
        delta = 0.0
        for block in blocks:
            for _ in range(inner):
                d = max(update(x) for x in block)
                delta = max(delta, d)
                if d <= tol:
                    break
        if delta <= tol:
            return
    raise RuntimeError(f"{what} did not converge")
