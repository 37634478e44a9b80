"""The small linear systems of the engine's kernels.

A score pair's (or a round's) unknowns satisfy ``x = u + M x`` once the
decisions are fixed; the kernels write ``(I - M) x = u`` as an augmented
matrix and solve it here.
"""

from designer._jit import kernel


@kernel
def gauss_jordan(A, y, tiny):
    """Solve the ``K x (K + 1)`` augmented system ``A = [I - M | u]`` in
    place (Gauss-Jordan elimination with partial pivoting) into ``y``.

    Returns False, leaving ``y`` as it was, when a pivot is below ``tiny``
    in size: the system is singular (a policy under which the turns never
    end)."""
    K = y.shape[0]
    for col in range(K):
        piv = col
        for r in range(col + 1, K):
            if abs(A[r, col]) > abs(A[piv, col]):
                piv = r
        if abs(A[piv, col]) < tiny:
            return False
        if piv != col:
            for m in range(K + 1):
                tmp = A[col, m]
                A[col, m] = A[piv, m]
                A[piv, m] = tmp
        for r in range(K):
            if r != col:
                f = A[r, col] / A[col, col]
                if f != 0.0:
                    for m in range(col, K + 1):
                        A[r, m] -= f * A[col, m]
    for k in range(K):
        y[k] = A[k, K] / A[k, k]
    return True
