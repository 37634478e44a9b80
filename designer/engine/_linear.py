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


@kernel
def two_rows(B, fbh, x0, x1):
    """The two unknowns' rows of a score pair, read from the stacked turn
    starts ``B`` (side 0's rows, then side 1's, each ``c + e_own x_own +
    e_oth x_oth``) at the feedback start ``fbh``: ``x0 = u0 + u1 x0 + u2
    x1``, ``x1 = v0 + v1 x1 + v2 x0``.

    Returns
    -------
    g0, g1 : float
        The rows at ``(x0, x1)`` (one greedy backup).
    y0, y1 : float
        Their fixed point, ``(I - M) y = u`` solved by Cramer's rule.
    ok : bool
        False when that system is singular (a policy under which the
        pair's turns never end); ``y`` is then ``x``."""
    H = B.shape[0] // 2
    u0, u1, u2 = B[fbh, 0], B[fbh, 1], B[fbh, 2]
    v0, v1, v2 = B[H + fbh, 0], B[H + fbh, 1], B[H + fbh, 2]
    g0 = u0 + u1 * x0 + u2 * x1
    g1 = v0 + v1 * x1 + v2 * x0
    m11 = 1.0 - u1
    m22 = 1.0 - v1
    det = m11 * m22 - u2 * v2
    if abs(det) < 1e-300:
        return g0, g1, x0, x1, False
    return g0, g1, (u0 * m22 + u2 * v0) / det, (m11 * v0 + v2 * u0) / det, True
