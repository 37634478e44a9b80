"""The class machinery shared by every layered solver.

Scores never fall, so the only cycles of a game are rounds of turns that
score nothing. With two players those cycles stay inside a score pair
``{(i, j), (j, i)}``; with ``N`` players inside a *rotation class*: the ``N``
rotations of one score tuple ``(s_0, ..., s_{N-1})`` (scores in seat order
from the mover). Classes are solved in decreasing order of the score sum;
a hold always lands in a class of larger sum, already solved, and classes of
equal sum do not depend on each other, so they are solved in parallel.

Two players
-----------
Each pair has two unknowns, the two turn-start values ``x`` and ``y`` that
the pair's cycles feed back into. Every other value in the pair is carried
as an affine function ``a + b x + c y`` through one backward sweep; the fixed
point then solves

.. math::

    x = a_1 + b_1 x + c_1 y, \\qquad y = a_2 + b_2 x + c_2 y .

N players
---------
Inside a class the unknowns are the ``N`` turn-start value *vectors*
``X_r`` (one win probability per seat) of rotation ``r`` after a bust (dice)
or a reshuffle (decks). Written in the class's own seat coordinates
(component ``a`` is the seat at canonical position ``a``, whoever moves),
every chance step mixes value vectors without rotating them, so under a
fixed policy every value vector of the class is

.. math::

    v = c + \\sum_{r} b_r X_r

with one constant vector ``c`` and ``N`` *scalar* weights ``b_r`` (the
chance of reaching rotation ``r``'s unknown before the class is left),
shared by all components, and by the expected remaining actions
``l = c_L + \\sum_r b_r Y_r``. One backward sweep gives the rows of the
unknowns themselves, and the fixed point is the ``N x N`` linear system

.. math::

    (I - B) [X \\mid Y] = [C \\mid c_L]

with ``N + 1`` right-hand sides (:func:`solve_fixed_point`).

Convergence rule (every layered kernel)
---------------------------------------
Policy iteration on the unknowns: sweep at the estimate choosing greedily
(the mover compares its own component; ties within :data:`~designer._jit.TIE`
go to hold, except at a dice turn total of 0, where holding passes and a
tie rolls), solve the linear system for that policy, and accept the new
estimate when every decision of the sweep is still greedy there. Decks and
dice check this on stored affine margins, without another sweep; Zombie
Dice, whose tie round holds too many turn states to keep a margin for each,
checks it with the next sweep (no decision changes). A decision is always
the sign of its margin computed exactly as the check computes it, so the
check at the sweep's own estimate can never disagree with the sweep.

The stop is certified by the Bellman residual, not by counting sweeps:
from the :data:`~designer._jit.PI_EXACT`-th sweep on, an estimate whose
residual (how far one greedy backup moves the unknowns; every other value
of the class is that backup's sweep, exactly) is within
:data:`~designer._jit.TOL` is accepted as it is, with the sweep's policy,
decided once at those values. So decisions whose margins sit at the tie
threshold or in the rounding, which can flip from one iterate to the next,
cannot keep a class going. Two-player pairs continue by value iteration
after :data:`~designer._jit.PI_SWEEPS` sweeps (a contraction, whatever the
decisions do); reaching :data:`~designer._jit.MAX_SWEEPS` is a bug
(:class:`~designer.errors.SolverError`). The residual of the accepted
estimate is reported. Two-player kernels report ``(residual, sweeps,
largest sweeps, status)`` per score pair, reduced by
:func:`reduce_pair_stats` and checked by :func:`check_pair_stats`; N-player
kernels report :data:`CLASS_COLUMNS` per class, reduced by
:func:`class_report`. With two players this always settles. With
three or more, max-n can have two mutual best responses at a class, or none
in pure strategies, and the iteration cycles with a residual well above the
tolerance: after :data:`~designer._jit.MAX_ROUNDS` rounds the class is
declared *unsettled* and the iterate with the smallest Bellman residual is
kept (values one greedy backup from it). Solvers report the number of
unsettled positions and the largest residual there (:func:`class_report`).

Shared pieces
-------------
Each family's kernel keeps only its turn-state sweep (and the check of its
decisions); the rest is here, called as plain kernels (numba caches them
with their callers; jitted functions passed as arguments would defeat
``cache=True``):

* two players: :func:`pair_plan` (pairs, groups, reports, state),
  :func:`pair_side`, :func:`pair_begin` / :func:`pair_solve` /
  :func:`pair_next` (one policy-iteration round on a pair),
  :func:`reduce_pair_stats` and :func:`check_pair_stats` (the report);
* N players: :func:`class_warm`, :func:`class_rows`, :func:`class_begin` /
  :func:`class_round` / :func:`class_accept` (one round on a class, with the
  unsettled fallback), :func:`class_fill` / :func:`class_length` (values
  from the affine form), :func:`class_scratch` and :func:`class_report`;
* deck turn chains (race and rounds): :func:`deck_chances`,
  :func:`chain_scratch`, :func:`store_start`, :func:`chains_hold`;
* linear algebra: :func:`solve2`, :func:`solve_fixed_point`,
  :func:`gauss_solve`.
"""

import numpy as np

from designer._jit import MAX_SWEEPS, PI_EXACT, PI_SWEEPS, kernel
from designer.errors import ConvergenceError, SolverError

#: Per-class report columns written by the N-player kernels.
CLASS_RESIDUAL = 0   # Bellman residual of the kept estimate
CLASS_SWEEPS = 1     # backward sweeps spent on the class
CLASS_SETTLED = 2    # 1.0 settled, 0.0 unsettled (max-n cycle)
CLASS_STATUS = 3     # 0.0 ok, 2.0 singular system (a policy that never ends)
CLASS_COLUMNS = 4


@kernel
def solve2(a1, b1, c1, a2, b2, c2):
    """Solve the 2 x 2 fixed point above; returns ``(x, y, ok)``.

    ``ok`` is False when the system is singular (a policy under which the
    game never ends), in which case ``x = y = nan``.
    """
    m11 = 1.0 - b1
    m22 = 1.0 - c2
    det = m11 * m22 - c1 * b2
    if abs(det) < 1e-300:
        return float("nan"), float("nan"), False
    x = (a1 * m22 + c1 * a2) / det
    y = (m11 * a2 + b2 * a1) / det
    return x, y, True


@kernel
def affine_step(u, v, x, y):
    """One policy-iteration step on a pair's two unknowns.

    ``u`` and ``v`` are the affine coefficients ``(a, b, c)`` of the two
    unknowns as swept at the estimate ``(x, y)``. Returns ``(nx, ny, res,
    ok)``: the fixed point of the affine system, the Bellman residual at
    the estimate, and False when the system is singular (an endless game).
    """
    res = max(abs(u[0] + u[1] * x + u[2] * y - x), abs(v[0] + v[1] * x + v[2] * y - y))
    nx, ny, ok = solve2(u[0], u[1], u[2], v[0], v[1], v[2])
    return nx, ny, res, ok


@kernel
def affine_solve(u, v):
    """The fixed point ``(x, y, ok)`` of the affine system with rows ``u``, ``v``."""
    return solve2(u[0], u[1], u[2], v[0], v[1], v[2])


@kernel
def pair_begin(st, x, y):
    """Start policy iteration on a pair at the estimate ``(x, y)``.

    ``st`` (float64, 6) carries the iteration between the family's sweeps:
    the estimate ``x, y``, the sweeps so far, the state (1 going on, 0
    accepted, -1 failed) and the fixed point ``nx, ny`` of the last sweep.
    """
    st[0] = x
    st[1] = y
    st[2] = 0.0
    st[3] = 1.0


@kernel
def pair_solve(u, v, st):
    """After a sweep with rows ``u, v``: count it and put the fixed point of
    its policy in ``st[4], st[5]``; False when the system is singular."""
    st[2] += 1.0
    st[4], st[5], ok = solve2(u[0], u[1], u[2], v[0], v[1], v[2])
    return ok


@kernel
def pair_residual(u, v, x, y):
    """Bellman residual at ``(x, y)`` of the rows ``u, v`` of a sweep."""
    return max(abs(u[0] + u[1] * x + u[2] * y - x), abs(v[0] + v[1] * x + v[2] * y - y))


@kernel
def pair_next(u, v, st, ok, holds, max_sweeps, tol, out):
    """One policy-iteration decision on a pair (the rule in the module doc).

    ``u, v`` are the rows of a sweep that was greedy at the estimate
    ``st[0], st[1]``; ``holds``: every decision of that sweep is still
    greedy at its fixed point ``st[4], st[5]`` (checked by the family).

    * ``holds`` and the Bellman residual there is at most ``tol``: the
      fixed point is accepted (the exact values of a policy greedy at them).
    * Otherwise, from the :data:`PI_EXACT`-th sweep on, if the Bellman
      residual at the estimate is at most ``tol``, the estimate is
      accepted: its values are certified to ``tol``, and the policy is the
      sweep's, decided once at those values. This ends every cycle between
      policies that differ only in decisions whose margins are at the tie
      threshold or rounding noise. (Before that sweep policy iteration
      goes on: a pair settles in one to three sweeps, on the exact fixed
      point, while the warm start's residual can be small by accident where
      values are near 0 or 1.)
    * Otherwise the next estimate is the fixed point (policy iteration) for
      the first :data:`PI_SWEEPS` sweeps, then one greedy backup ``(u(x),
      v(x))`` (value iteration, which contracts whatever the margins do).
      ``max_sweeps`` only guards against a bug: reaching it fails the pair.

    The pair's report ``out`` (``residual, sweeps, largest sweeps,
    status``) receives the accepted residual. Sets ``st[3]`` (see
    :func:`pair_begin`).
    """
    if not ok:
        out[3] = 2.0
        st[3] = -1.0
        return
    here = pair_residual(u, v, st[0], st[1])
    res = np.inf
    if holds:
        res = pair_residual(u, v, st[4], st[5])
    if res <= tol:
        st[0] = st[4]
        st[1] = st[5]
    elif here <= tol and st[2] >= PI_EXACT:
        res = here
    elif st[2] >= max_sweeps:
        out[0] = here
        out[1] += st[2]
        out[2] = max(out[2], st[2])
        out[3] = 1.0
        st[3] = -1.0
        return
    elif st[2] >= PI_SWEEPS:
        x = st[0]
        st[0] = u[0] + u[1] * x + u[2] * st[1]
        st[1] = v[0] + v[1] * x + v[2] * st[1]
        return
    else:
        st[0] = st[4]
        st[1] = st[5]
        return
    out[0] = max(out[0], res)
    out[1] += st[2]
    out[2] = max(out[2], st[2])
    st[3] = 0.0


@kernel
def pair_side(side, i, j, p, q):
    """Side ``side`` of pair ``(i, j)``: ``(mover's score, opponent's,
    mover's table, opponent's table)``; side 0 is player ``p`` at
    ``(i, j)``, side 1 player ``q`` at ``(j, i)``."""
    if side == 0:
        return i, j, p, q
    return j, i, q, p


@kernel
def pair_order(goal):
    """Score pairs ``(i, j)`` with ``i >= j`` in decreasing ``i + j``.

    A hold always lands in a pair of larger score sum, so this order solves
    every pair after all the pairs it depends on.
    """
    n = goal * (goal + 1) // 2
    out = np.empty((n, 2), dtype=np.int64)
    m = 0
    for s in range(2 * (goal - 1), -1, -1):
        i = min(goal - 1, s)
        while i >= 0:
            j = s - i
            if j > i:
                break
            out[m, 0] = i
            out[m, 1] = j
            m += 1
            i -= 1
    return out


def rotation_classes(players, goal):
    """Rotation classes of score tuples, in the order they must be solved.

    Parameters
    ----------
    players : int
        Tuple length ``N``.
    goal : int
        Scores run over ``0..goal - 1``.

    Returns
    -------
    reps : ndarray of int64, shape (n_classes, N)
        One tuple per class: its lexicographically smallest rotation.
    groups : ndarray of int64
        ``reps[groups[g]:groups[g + 1]]`` share one score sum; sums
        decrease with ``g``. Classes inside a group are independent.
    """
    N, G = players, goal
    flat = np.arange(G ** N, dtype=np.int64)
    digits = np.empty((G ** N, N), dtype=np.int64)
    rest = flat.copy()
    for a in range(N - 1, -1, -1):
        digits[:, a] = rest % G
        rest //= G
    canonical = np.ones(G ** N, dtype=bool)
    for r in range(1, N):
        rot = np.zeros(G ** N, dtype=np.int64)
        for a in range(N):
            rot = rot * G + digits[:, (a + r) % N]
        canonical &= flat <= rot
    reps = digits[canonical]
    sums = reps.sum(axis=1)
    order = np.argsort(-sums, kind="stable")
    reps = np.ascontiguousarray(reps[order])
    sums = sums[order]
    cuts = np.flatnonzero(np.diff(sums)) + 1
    groups = np.concatenate(([0], cuts, [len(reps)])).astype(np.int64)
    return reps, groups


@kernel
def pair_groups(goal):
    """:func:`pair_order` and the offsets of its equal-sum groups:
    ``order[groups[g]:groups[g + 1]]`` share one sum."""
    order = pair_order(goal)
    n = order.shape[0]
    groups = np.empty(2 * goal, dtype=np.int64)
    m = 0
    groups[0] = 0
    for k in range(1, n):
        if order[k, 0] + order[k, 1] != order[k - 1, 0] + order[k - 1, 1]:
            m += 1
            groups[m] = k
    m += 1
    groups[m] = n
    return order, groups[: m + 1]


@kernel
def reduce_pair_stats(out, stats):
    """Reduce per-pair reports ``(residual, sweeps, largest sweeps, status)``
    into the solver's ``stats``: the largest residual, the total and the
    largest sweeps, and the worst status (the first failing pair's residual
    when one failed)."""
    stats[0] = 0.0
    stats[1] = 0.0
    stats[2] = 0.0
    stats[3] = 0.0
    for m in range(out.shape[0]):
        stats[1] += out[m, 1]
        stats[2] = max(stats[2], out[m, 2])
        if out[m, 3] > stats[3]:
            stats[3] = out[m, 3]
            stats[0] = out[m, 0]
        if stats[3] == 0.0:
            stats[0] = max(stats[0], out[m, 0])


def check_pair_stats(stats, name, unit="a score pair"):
    """Raise for a failed two-player solve, else return ``stats``.

    ``stats`` as reduced by :func:`reduce_pair_stats`; ``unit`` names what
    failed in the message (``"a score pair"``, ``"a round"``).

    Raises
    ------
    SolverError
        Status 1.0: no certified estimate within
        :data:`~designer._jit.MAX_SWEEPS` sweeps (a bug, never a property
        of a well-posed game).
    ConvergenceError
        Status 2.0: a policy under which the game never ends.
    """
    if stats[3] == 1.0:
        raise SolverError(
            f"{name}: {unit} did not converge within {MAX_SWEEPS} sweeps "
            f"(residual {stats[0]:.3g})")
    if stats[3] == 2.0:
        raise ConvergenceError(f"{name}: the game can go on forever under this policy")
    return stats


@kernel
def flat_index(scores, start, n, goal):
    """Flat table index of the tuple ``scores[start], scores[start+1], ...``
    (``n`` entries, read cyclically): digits base ``goal``, mover first."""
    N = scores.shape[0]
    f = 0
    for a in range(n):
        f = f * goal + scores[(start + a) % N]
    return f


@kernel
def solve_fixed_point(B, C, out):
    """Solve ``(I - B) out = C`` by Gaussian elimination with partial pivoting.

    ``B`` is ``N x N``, ``C`` and ``out`` are ``N x M`` (one column per
    right-hand side). Returns False when ``I - B`` is singular: under the
    policy swept, a round of the class never ends.
    """
    N = B.shape[0]
    M = C.shape[1]
    A = np.empty((N, N + M))
    for r in range(N):
        for c in range(N):
            A[r, c] = (1.0 if r == c else 0.0) - B[r, c]
        for c in range(M):
            A[r, N + c] = C[r, c]
    return gauss_solve(A, out)


@kernel
def gauss_solve(A, out):
    """Solve the augmented system ``A = [M | R]`` (``M`` n x n) in place by
    Gaussian elimination with partial pivoting; ``out`` (n x r) receives
    ``M^-1 R``. Returns False when ``M`` is singular."""
    N = A.shape[0]
    M = A.shape[1] - N
    for col in range(N):
        piv = col
        for r in range(col + 1, N):
            if abs(A[r, col]) > abs(A[piv, col]):
                piv = r
        if abs(A[piv, col]) < 1e-300:
            return False
        if piv != col:
            for c in range(N + M):
                tmp = A[col, c]
                A[col, c] = A[piv, c]
                A[piv, c] = tmp
        for r in range(col + 1, N):
            f = A[r, col] / A[col, col]
            if f != 0.0:
                for c in range(col, N + M):
                    A[r, c] -= f * A[col, c]
    for col in range(N - 1, -1, -1):
        for c in range(M):
            s = A[col, N + c]
            for k in range(col + 1, N):
                s -= A[col, k] * out[k, c]
            out[col, c] = s / A[col, col]
    return True


@kernel
def class_scratch(nt, N):
    """Per-thread scratch of a class solve: two N-vectors, the estimate and
    the best iterate, the rows ``Bm, Cm``, the solution and the iteration
    state (:func:`class_begin`)."""
    return (np.empty((nt, 2, N)), np.empty((nt, 2, N, N)), np.empty((nt, N, N)),
            np.empty((nt, N, N + 1)), np.empty((nt, N, N + 1)), np.empty((nt, 4)))


@kernel
def pair_plan(goal, nt):
    """The pairs in solving order with their equal-sum groups
    (:func:`pair_groups`), a report row per pair and each thread's
    iteration state (:func:`pair_begin`)."""
    order, groups = pair_groups(goal)
    return order, groups, np.zeros((order.shape[0], 4)), np.zeros((nt, 6))


@kernel
def deck_chances(bad, good):
    """``PG[w, c]``: the chance of a good item after ``w`` bad and ``c``
    good draws since the shuffle, ``c_rem / (w_rem + c_rem)``."""
    PG = np.empty((bad, good + 1))
    for w in range(bad):
        for c in range(good + 1):
            PG[w, c] = (good - c) / (bad - w + good - c)
    return PG


@kernel
def chain_scratch(nt, N, bad, good, span):
    """Per-thread tables of a deck sweep over N movers' turn chains: the
    affine turn starts ``cV, cB, cL``, the holds ``cT``, and the margins,
    decisions and last decisions of :func:`chains_hold`."""
    return (np.zeros((nt, N, bad, good + 1, N)), np.zeros((nt, N, bad, good + 1, N)),
            np.zeros((nt, N, bad, good + 1)), np.zeros((nt, N, bad, good + 1), dtype=np.int16),
            np.zeros((nt, N, bad, good + 1, span, N + 1)),
            np.zeros((nt, N, bad, good + 1, span), dtype=np.bool_),
            np.zeros((nt, N, bad, good + 1), dtype=np.int64))


@kernel
def store_start(cV, cB, cL, cT, m, w, c0, nV, nB, nL, first):
    """Store the affine turn start of mover ``m``'s chain from deck
    ``(w, c0)``: value ``nV + nB X``, length ``nL``, good draws before the
    hold ``first`` (deck sweeps of the N-player race and rounds)."""
    for a in range(nV.shape[0]):
        cV[m, w, c0, a] = nV[a]
        cB[m, w, c0, a] = nB[a]
    cL[m, w, c0] = nL
    cT[m, w, c0] = first


@kernel
def chains_hold(X, mg, dec, lim):
    """True if every decision of a deck sweep is still greedy at ``X``.

    For the turn chains of decks (N-player race and rounds): decision ``t``
    of the chain of mover ``m`` from deck ``(w, c0)`` has the affine margin
    ``mg[m, w, c0, t, 0] + sum_r mg[m, w, c0, t, 1 + r] X[r, m]`` (draw minus
    hold minus tie, the mover's own component) and was taken as
    ``dec[m, w, c0, t]``; ``lim[m, w, c0]`` is the chain's last decision.
    """
    N, bad, nc = lim.shape
    for m in range(N):
        for w in range(bad):
            for c0 in range(nc):
                for t in range(1, lim[m, w, c0] + 1):
                    v = mg[m, w, c0, t, 0]
                    for r in range(N):
                        v += mg[m, w, c0, t, 1 + r] * X[r, m]
                    if (v > 0.0) != dec[m, w, c0, t]:
                        return False
    return True


@kernel
def class_rows(V0, B0, L0, Bm, Cm):
    """The unknowns' own rows from the turn starts at the fresh state:
    ``Bm[rho, r] = B0[rho, r]`` and ``Cm[rho] = (V0[rho], L0[rho])``."""
    N = Bm.shape[0]
    for rho in range(N):
        for r in range(N):
            Bm[rho, r] = B0[rho, r]
            Cm[rho, r] = V0[rho, r]
        Cm[rho, N] = L0[rho]


@kernel
def class_residual(Bm, Cm, X):
    """Bellman residual ``max |C + B X - X|`` of the win values at ``X``."""
    N = Bm.shape[0]
    res = 0.0
    for rho in range(N):
        for a in range(N):
            v = Cm[rho, a] - X[rho, a]
            for r in range(N):
                v += Bm[rho, r] * X[r, a]
            res = max(res, abs(v))
    return res


@kernel
def class_warm(canon, V0, goal, X):
    """Warm start of a class from solved classes of larger sum.

    Each rotation's value at the tuple one point up for the first seat
    (from the mover on) that is not at ``goal - 1``; ``1/N`` if none.
    ``V0[f, r]``: the value at the fresh state of flat tuple ``f``.
    """
    N = canon.shape[0]
    for rho in range(N):
        f = -1
        for r in range(N):
            if canon[(rho + r) % N] + 1 < goal:
                f = flat_index(canon, rho, N, goal)
                step = 1
                for _ in range(N - 1 - r):
                    step *= goal
                f += step
                break
        for a in range(N):
            X[rho, a] = V0[f, (a - rho) % N] if f >= 0 else 1.0 / N


@kernel
def class_fill(cv, cb, X, out, rho):
    """A value vector from its affine form ``cv + sum_r cb[r] X[r]`` (class
    coordinates), written into ``out`` in seat order from mover ``rho``."""
    N = cv.shape[0]
    for a in range(N):
        v = cv[a]
        for r in range(N):
            v += cb[r] * X[r, a]
        out[(a - rho) % N] = v


@kernel
def class_length(cl, cb, sol):
    """The affine length ``cl + sum_r cb[r] Y[r]`` (``Y = sol[:, N]``)."""
    N = cb.shape[0]
    v = cl
    for r in range(N):
        v += cb[r] * sol[r, N]
    return v


@kernel
def class_begin(st):
    """Start policy iteration on a class. ``st`` (float64, 4): the
    smallest residual seen, the sweeps so far, the state (1 going on,
    2 the last backup sweep of an unsettled class, 0 done, -1 failed) and
    the residual at the current estimate."""
    st[0] = np.inf
    st[1] = 0.0
    st[2] = 1.0
    st[3] = np.inf


@kernel
def class_round(Bm, Cm, X, Xbest, sol, st, out):
    """After a sweep at ``X`` with rows ``Bm, Cm``: count it, keep ``X`` if
    its residual is the smallest so far, and solve the fixed point of the
    sweep's policy into ``sol``. False (status 2.0 in ``out``) when the
    policy never ends a round."""
    st[1] += 1.0
    if st[2] == 1.0:
        res = class_residual(Bm, Cm, X)
        st[3] = res
        if res < st[0]:
            st[0] = res
            Xbest[:, :] = X
    if not solve_fixed_point(Bm, Cm, sol):
        out[CLASS_STATUS] = 2.0
        st[2] = -1.0
        return False
    return True


@kernel
def class_accept(Bm, Cm, X, Xbest, sol, st, holds, max_rounds, tol, out):
    """One policy-iteration decision on a class (the rule in the module doc).

    ``holds``: every decision of the sweep is greedy at ``sol`` (checked by
    the family). Then ``X = sol`` is accepted. Otherwise, from the
    :data:`~designer._jit.PI_EXACT`-th sweep on, an estimate whose Bellman
    residual is within ``tol`` is accepted as it is (its values certified,
    its policy the sweep's, decided at them), as for pairs
    (:func:`pair_next`). After ``max_rounds`` the class is unsettled: ``X``
    becomes the iterate of smallest residual and one more sweep (state 2)
    gives the values one greedy backup from it. Writes the class report
    ``out`` when done.
    """
    N = X.shape[0]
    if st[2] == 1.0:
        if not holds and st[3] <= tol and st[1] >= PI_EXACT:
            class_done(st, st[3], 1.0, out)
            return
        X[:, :] = sol[:, :N]
        if holds:
            res = class_residual(Bm, Cm, X)
            if res <= tol:
                class_done(st, res, 1.0, out)
        if st[2] == 1.0 and st[1] >= max_rounds:
            X[:, :] = Xbest
            st[2] = 2.0
        return
    class_done(st, st[0], 0.0, out)


@kernel
def class_done(st, res, settled, out):
    """Write the report of a class that is done (:data:`CLASS_COLUMNS`)."""
    st[2] = 0.0
    out[CLASS_RESIDUAL] = res
    out[CLASS_SWEEPS] = st[1]
    out[CLASS_SETTLED] = settled
    out[CLASS_STATUS] = 0.0


def class_report(cstats, positions_per_class):
    """Reduce the per-class report of an N-player kernel.

    Parameters
    ----------
    cstats : ndarray, shape (n_classes, CLASS_COLUMNS)
    positions_per_class : int or ndarray
        Turn-start positions a class holds (its ``N`` rotations times the
        turn states that start a turn), to count unsettled positions.

    Returns
    -------
    dict
        ``residual`` (largest over settled classes), ``sweeps`` (total),
        ``singular`` (bool), ``unsettled_classes``, ``unsettled_positions``
        and ``unsettled_residual`` (largest residual kept there, 0.0 if none).
    """
    settled = cstats[:, CLASS_SETTLED] == 1.0
    res = cstats[:, CLASS_RESIDUAL]
    per = np.broadcast_to(np.asarray(positions_per_class), settled.shape)
    return {
        "residual": float(res[settled].max(initial=0.0)),
        "sweeps": int(cstats[:, CLASS_SWEEPS].sum()),
        "singular": bool((cstats[:, CLASS_STATUS] == 2.0).any()),
        "unsettled_classes": int((~settled).sum()),
        "unsettled_positions": int(per[~settled].sum()),
        "unsettled_residual": float(res[~settled].max(initial=0.0)),
    }
